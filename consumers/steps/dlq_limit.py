"""The dead-letter limit: a bad deploy stops its consumer group instead of dead-lettering every record.

``DlqLimit`` (after Arroyo's ``DlqLimit``) holds two thresholds; ``DlqLimitWindow`` watches the
outcomes of one group's records, in the order they are marked done:

- share: over the last ``window`` records (once at least ``min_records`` were seen), the share of
  dead-lettered ones passes ``max_share`` (``>``; a ``max_share`` of 1 never trips);
- run: ``max_consecutive`` records in a row were dead-lettered (0 turns this check off).

Either one raises ``DlqLimitExceeded`` (a ``FatalConsumerError``: the loop stops with one log line,
commits what is done, and ``pai-memory run`` exits with code 4), whose message names the group, the
dead-letter topic, the counts and the threshold. The counts are per group member, not per partition
(a bad deploy fails every partition alike), in the order records are done: a dead letter is done at
once, a good record of the extractor only after debounce and extraction, so early in a run the share
overstates the dead letters; the defaults (more than 0.9 of the last 1000 once 500 were seen, or 500
in a row) leave room for that and for a stream with many poison records (the hostile-events test).
Settings: ``CONSUMER_DLQ_LIMIT_SHARE``, ``CONSUMER_DLQ_LIMIT_WINDOW``, ``CONSUMER_DLQ_LIMIT_MIN_RECORDS``,
``CONSUMER_DLQ_LIMIT_CONSECUTIVE``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from consumers.errors import FatalConsumerError
from core.config import Settings


class DlqLimitExceeded(FatalConsumerError):
    """Too many records of a group were dead-lettered (see the module docstring); ``str`` says why."""


@dataclass(frozen=True)
class DlqLimit:
    """Thresholds of the dead-letter limit; the defaults are those of the settings."""

    max_share: float = 0.9
    window: int = 1000
    min_records: int = 500
    max_consecutive: int = 500

    def __post_init__(self) -> None:
        if not 0.0 <= self.max_share <= 1.0 or self.window < 1 or self.min_records < 1 \
                or self.max_consecutive < 0:
            raise ValueError(f"invalid dead-letter limit {self}")

    @classmethod
    def from_settings(cls, settings: Settings) -> DlqLimit:
        return cls(max_share=settings.CONSUMER_DLQ_LIMIT_SHARE, window=settings.CONSUMER_DLQ_LIMIT_WINDOW,
                   min_records=settings.CONSUMER_DLQ_LIMIT_MIN_RECORDS,
                   max_consecutive=settings.CONSUMER_DLQ_LIMIT_CONSECUTIVE)


class DlqLimitWindow:
    """The recent outcomes of one group's records, checked against a ``DlqLimit`` (loop thread only)."""

    def __init__(self, limit: DlqLimit) -> None:
        self.limit = limit
        self._recent: deque[bool] = deque(maxlen=limit.window)  # True: dead-lettered
        self._dead_in_window = 0
        self.consecutive = 0

    def observe(self, dead_lettered: bool) -> str | None:
        """Count one record marked done; the reason the limit is passed, or None while it holds."""
        if len(self._recent) == self._recent.maxlen and self._recent[0]:
            self._dead_in_window -= 1
        self._recent.append(dead_lettered)
        self._dead_in_window += dead_lettered
        self.consecutive = self.consecutive + 1 if dead_lettered else 0
        limit = self.limit
        if limit.max_consecutive and self.consecutive >= limit.max_consecutive:
            return f"{self.consecutive} records in a row dead-lettered (limit {limit.max_consecutive})"
        seen = len(self._recent)
        if seen >= limit.min_records and self._dead_in_window / seen > limit.max_share:
            return (f"{self._dead_in_window} of the last {seen} records dead-lettered "
                    f"(share {self._dead_in_window / seen:.2f} > limit {limit.max_share})")
        return None
