"""The long-question lane (issue 26): one low-priority worker thread for the embeddings of long
queries, with a bounded wait list, so short questions of other users never queue behind them nor
lose the CPU to them.

A question of more than ``LONG_QUERY_TOKENS`` tokens costs the model several times what a short one
does (attention grows with the square of the length). On a small host the model's threads share a
few cores with everything else: when such questions run beside short ones, the short ones slow down
by the CPU the long ones take. So long queries run here, one at a time, on a thread that

- lowers its own scheduling priority (``nice`` ``LANE_NICE``: the kernel gives the CPU to the
  process's other threads first; Linux sets the nice value per thread),
- asks OpenMP for ``LANE_OMP_THREADS`` thread(s) in the parallel regions it starts (the value is per
  calling thread, so the short path keeps all its threads), through ``on_start``,
- yields the CPU between two embeddings.

At most ``LANE_MAX_WAITING`` embeddings wait behind the running one; beyond that ``submit`` raises
``LaneFull`` at once (an ``EmbeddingError``: the caller falls back for that question only).

Invariants: one worker thread per lane, started on the first ``submit``; a submitted callable runs
exactly once unless the lane is closed first (then its future is cancelled); thread-safe.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from core.embedding.base import EmbeddingError

log = logging.getLogger("core.embedding")

T = TypeVar("T")

LONG_QUERY_TOKENS = 96  # a query over this many tokens (prefix and specials included) is long
LONG_PROBE_CHARS = 1024  # a query over this many characters is long without counting its tokens
LANE_MAX_WAITING = 16  # long embeddings waiting behind the running one
LANE_NICE = 19  # the lane thread's nice value (the lowest priority)
LANE_OMP_THREADS = 1  # OpenMP threads of the lane's parallel regions


class LaneFull(EmbeddingError):
    """The long-question lane already has its maximum of embeddings waiting."""


def lower_thread_priority(nice: int) -> bool:
    """Set the calling thread's nice value (Linux: per thread); False where the platform cannot."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)
    except (AttributeError, OSError) as exc:  # not Linux, or not allowed: the lane still bounds the wait
        log.info("long-question lane keeps its priority: %s", exc)
        return False
    return True


class LongLane:
    """One worker thread running submitted callables in order, at most ``max_waiting`` waiting.

    ``on_start`` runs once on the worker thread before the first job (e.g. to set OpenMP's thread
    count for that thread); ``nice`` is applied to the worker thread (``None``: unchanged).
    """

    def __init__(self, max_waiting: int = LANE_MAX_WAITING, *, nice: int | None = LANE_NICE,
                 on_start: Callable[[], None] | None = None, name: str = "embed-long-lane") -> None:
        if max_waiting < 0:
            raise ValueError("max_waiting must be >= 0")
        self.max_waiting = max_waiting
        self._nice = nice
        self._on_start = on_start
        self._name = name
        self._cond = threading.Condition()
        self._waiting: deque[tuple[Future[Any], Callable[[], Any]]] = deque()
        self._running = False
        self._closed = False
        self._thread: threading.Thread | None = None

    @property
    def waiting(self) -> int:
        """Embeddings queued behind the running one."""
        with self._cond:
            return len(self._waiting)

    def submit(self, fn: Callable[[], T]) -> Future[T]:
        """Queue ``fn``; its future. ``LaneFull`` when ``max_waiting`` already wait (nothing queued),
        ``EmbeddingError`` when the lane is closed."""
        future: Future[T] = Future()
        with self._cond:
            if self._closed:
                raise EmbeddingError("the long-question lane is closed")
            # the job of an idle lane is about to run: it does not count as waiting
            if len(self._waiting) >= self.max_waiting + (0 if self._running else 1):
                raise LaneFull(f"the long-question lane is full ({self.max_waiting} long questions waiting)")
            self._waiting.append((future, fn))
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name=self._name, daemon=True)
                self._thread.start()
            self._cond.notify()
        return future

    def close(self) -> None:
        """Stop the worker after its current job; queued jobs are cancelled."""
        with self._cond:
            self._closed = True
            pending = list(self._waiting)
            self._waiting.clear()
            self._cond.notify_all()
        for future, _ in pending:
            future.cancel()

    def _work(self) -> None:
        if self._nice is not None:
            lower_thread_priority(self._nice)
        if self._on_start is not None:
            try:
                self._on_start()
            except Exception as exc:  # best effort: the lane works without it
                log.warning("long-question lane start hook failed: %s", exc)
        while True:
            with self._cond:
                while not self._waiting and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                future, fn = self._waiting.popleft()
                self._running = True
            try:
                if future.set_running_or_notify_cancel():
                    try:
                        future.set_result(fn())
                    except BaseException as exc:  # handed to the waiting caller
                        future.set_exception(exc)
            finally:
                with self._cond:
                    self._running = False
            time.sleep(0)  # yield the CPU between two long embeddings
