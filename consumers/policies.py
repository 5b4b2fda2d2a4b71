"""Policies of the consumer processes, as frozen dataclasses."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff between attempts of the same work."""

    initial_sec: float = 0.5
    max_sec: float = 30.0

    def delay(self, attempt: int) -> float:
        return float(min(self.max_sec, self.initial_sec * (2 ** max(0, attempt - 1))))
