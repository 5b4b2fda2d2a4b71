"""The per-burst scope of model calls: one deadline for all calls of a burst, and its token bill.

``MessageProcessor.process`` opens ``burst_scope(LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC)`` around the
extract and refine stages of one burst; an LLM provider reads ``current_burst()`` and never lets a
request, a retry, a back-off or a rate-limit wait run past ``deadline``, and adds the tokens it
spent. The scope is a ``ContextVar``: each worker thread (and asyncio task) sees only its own burst.
Without a scope, a provider falls back to its own per-stage timeout.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field


@dataclass
class BurstScope:
    """Deadline (``time.monotonic``) and usage of one burst's model calls (thread-safe counters)."""

    deadline: float
    timeout: float
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def add_usage(self, prompt_tokens: int, completion_tokens: int) -> None:
        with self._lock:
            self.requests += 1
            self.prompt_tokens += prompt_tokens
            self.completion_tokens += completion_tokens

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


_current: ContextVar[BurstScope | None] = ContextVar("pai_memory_burst", default=None)


def current_burst() -> BurstScope | None:
    """The burst whose calls are being made in this thread/task, if any."""
    return _current.get()


@contextmanager
def burst_scope(timeout: float) -> Iterator[BurstScope]:
    """Make every model call inside the block share one deadline ``timeout`` seconds from now."""
    if timeout <= 0:
        raise ValueError("timeout must be > 0")
    scope = BurstScope(deadline=time.monotonic() + timeout, timeout=timeout)
    token = _current.set(scope)
    try:
        yield scope
    finally:
        _current.reset(token)
