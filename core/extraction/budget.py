"""A wall-clock budget for extraction, whatever the provider.

One burst's extraction (stage 1 ``extract`` then stage 2 ``refine``) runs in a worker thread; the
caller waits at most the budget. Past it, ``ExtractionTimeout`` is raised and the burst is permanent
for now: ``core.memory.processing`` marks its messages ``FAILED`` with the reason at once (no retry
loop on the same partition), the consumer marks the records done so the partition moves on, and the
sweeper re-drives ``FAILED`` messages later.

Invariants:
- a timed-out run's result is discarded: nothing it returns is ever applied. Providers only compute
  candidates (writes happen in the processor's transaction), so a late thread cannot write;
- Python cannot stop a thread: a timed-out worker runs on (a daemon thread) until its call returns;
  ``BudgetedExtractor.abandoned`` counts those still running, and is logged with each timeout;
- the budget covers the whole burst in ``run_burst`` (both stages together) and each call alone in
  ``extract``/``refine`` (other callers: replay dry-run, evaluation).
"""

from __future__ import annotations

import contextvars
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from core import tracing
from core.extraction.candidates import (
    CandidateExtractor,
    DelegatingExtractor,
    ExtractionError,
    ExtractionInput,
    MemoryCandidate,
    reads_context,
)

log = logging.getLogger(__name__)

T = TypeVar("T")


class ExtractionTimeout(ExtractionError):
    """Extraction of one burst exceeded its budget; retrying at once would only time out again."""


@dataclass(frozen=True)
class BurstResult:
    candidates: list[MemoryCandidate]
    refined: list[MemoryCandidate]
    extract_sec: float
    refine_sec: float


class BudgetedExtractor(DelegatingExtractor):
    """Delegates to ``inner`` within ``budget_sec`` of wall time (see the module docstring)."""

    def __init__(self, inner: CandidateExtractor, budget_sec: float) -> None:
        if budget_sec <= 0:
            raise ValueError("budget_sec must be positive")
        super().__init__(inner)
        self.budget_sec = budget_sec
        self._lock = threading.Lock()
        self._abandoned = 0

    @property
    def abandoned(self) -> int:
        """Timed-out worker threads still running."""
        with self._lock:
            return self._abandoned

    def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
        return self._within(lambda: self.inner.extract(data), "extract")

    def refine(self, data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        return self._within(lambda: self.inner.refine(data, candidates), "refine")

    def run_burst(self, data: ExtractionInput) -> BurstResult:
        """Both stages of one burst under one budget."""
        return self._within(lambda: _both(self.inner, data), "burst")

    def _within(self, call: Callable[[], T], what: str) -> T:
        box: dict[str, object] = {}
        done = threading.Event()

        def work() -> None:
            try:
                box["value"] = call()
            except BaseException as exc:  # handed to the caller, who decides
                box["error"] = exc
            finally:
                with self._lock:
                    if box.get("late"):
                        self._abandoned -= 1
                done.set()

        # the caller's context (core.extraction.burst: the burst's deadline and token bill) goes along
        worker = threading.Thread(target=contextvars.copy_context().run, args=(work,),
                                  name=f"extraction-{what}", daemon=True)
        worker.start()
        if not done.wait(self.budget_sec):
            with self._lock:
                if not done.is_set():
                    box["late"] = True  # from now on the result is dropped
                    self._abandoned += 1
                    abandoned = self._abandoned
                else:
                    abandoned = -1
            if abandoned >= 0:
                log.error("%s extraction (%s) exceeded the %.1f s budget; its result will be discarded "
                          "(%d timed-out extraction(s) still running)", self.name, what, self.budget_sec,
                          abandoned)
                raise ExtractionTimeout(f"extraction exceeded the {self.budget_sec:.1f} s budget")
        if "error" in box:
            raise box["error"]  # type: ignore[misc]
        return box["value"]  # type: ignore[return-value]


def _both(extractor: CandidateExtractor, data: ExtractionInput) -> BurstResult:
    t0 = time.perf_counter()
    with tracing.stage("extract", {"pai.extractor": extractor.name}) as span:
        candidates = extractor.extract(data)
        span.set_attribute("pai.candidates", len(candidates))
    t1 = time.perf_counter()
    # with nothing new to say, refine still runs against existing memories: a bare retraction
    # ("算了，不考研了") proposes no candidate but withdraws one the user has
    with tracing.stage("refine", {"pai.extractor": extractor.name}) as span:
        refined = extractor.refine(data, candidates) \
            if candidates or data.existing or reads_context(extractor, data) else []
        span.set_attribute("pai.refined", len(refined))
    return BurstResult(candidates, refined, t1 - t0, time.perf_counter() - t1)


def run_burst(extractor: CandidateExtractor, data: ExtractionInput) -> BurstResult:
    """Both stages for one burst: under the extractor's budget when it has one, else directly."""
    if isinstance(extractor, BudgetedExtractor):
        return extractor.run_burst(data)
    return _both(extractor, data)
