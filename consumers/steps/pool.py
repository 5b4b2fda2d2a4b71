"""The bounded pool step: run slow work (a model call) in a fixed set of worker threads.

Contract (after Arroyo's ``RunTaskInThreads``):
- ``submit(task)`` (loop thread) hands ``task`` to a worker, which calls ``work(task)``; when
  ``size`` tasks are already in flight it raises ``PoolFull`` (Arroyo's ``MessageRejected``) and
  takes nothing: the caller keeps the task and offers it again later (push back, never queue);
- a task is in flight from ``submit`` until its ``Completion`` is taken on the loop thread
  (``completed`` or ``wait``), so at most ``size`` tasks run at once and a worker is always free for
  an accepted task (threads are started on demand, never more than ``size``);
- every outcome of ``work`` comes back as a ``Completion`` (its result, or the exception it raised,
  ``BaseException`` included, and the seconds it took); the pool never classifies errors;
- workers are daemon threads: a call that outlives shutdown dies with the process. ``close``
  stops idle workers; a running task finishes and its completion is dropped.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class PoolFull(Exception):
    """Every worker of the pool is busy: offer the task again later."""


@dataclass(frozen=True)
class Completion(Generic[T, R]):
    task: T
    result: R | None
    error: BaseException | None
    seconds: float


class BoundedPool(Generic[T, R]):
    """At most ``size`` tasks in flight in worker threads (see the module docstring)."""

    def __init__(self, work: Callable[[T], R], size: int, *, name: str = "worker") -> None:
        if size < 1:
            raise ValueError("size must be >= 1")
        self.work = work
        self.size = size
        self.name = name
        self._tasks: queue.SimpleQueue[tuple[T] | None] = queue.SimpleQueue()  # None: stop
        self._completions: queue.SimpleQueue[Completion[T, R]] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._in_flight = 0
        self.max_in_flight_seen = 0

    @property
    def in_flight(self) -> int:
        """Tasks submitted whose completion was not yet taken."""
        return self._in_flight

    @property
    def full(self) -> bool:
        return self._in_flight >= self.size

    def submit(self, task: T) -> None:
        """Start ``task`` in a worker; raises ``PoolFull`` (taking nothing) when ``size`` are in flight."""
        if self.full:
            raise PoolFull(f"{self.size} tasks in flight")
        self._in_flight += 1
        self.max_in_flight_seen = max(self.max_in_flight_seen, self._in_flight)
        if len(self._threads) < self._in_flight:
            thread = threading.Thread(target=self._run, daemon=True, name=f"{self.name}-{len(self._threads)}")
            self._threads.append(thread)
            thread.start()
        self._tasks.put((task,))

    def completed(self) -> list[Completion[T, R]]:
        """The completions ready now (never blocks)."""
        out: list[Completion[T, R]] = []
        while True:
            try:
                out.append(self._taken(self._completions.get_nowait()))
            except queue.Empty:
                return out

    def wait(self, timeout: float) -> Completion[T, R] | None:
        """The next completion, waiting up to ``timeout`` seconds for it; None if none came."""
        try:
            return self._taken(self._completions.get(timeout=max(0.0, timeout)))
        except queue.Empty:
            return None

    def close(self) -> None:
        """Stop the workers once their current task is over (running tasks are not interrupted)."""
        for _ in self._threads:
            self._tasks.put(None)
        self._threads = []

    def _taken(self, completion: Completion[T, R]) -> Completion[T, R]:
        self._in_flight -= 1
        return completion

    def _run(self) -> None:
        while True:
            item = self._tasks.get()
            if item is None:
                return
            (task,) = item
            started = time.perf_counter()
            try:
                result = self.work(task)
            except BaseException as exc:  # every failure goes back to the loop thread to be classified
                self._completions.put(Completion(task, None, exc, time.perf_counter() - started))
            else:
                self._completions.put(Completion(task, result, None, time.perf_counter() - started))
