"""A ``CandidateExtractor`` decorator that exports calls, failures and latency to Prometheus."""

from __future__ import annotations

import time
from collections.abc import Callable

from core import metrics
from core.extraction.candidates import (
    CandidateExtractor,
    DelegatingExtractor,
    ExtractionError,
    ExtractionInput,
    MemoryCandidate,
)


class InstrumentedExtractor(DelegatingExtractor):
    """Delegates to ``inner``; counts each stage call (retries included) by stage and outcome."""

    def __init__(self, inner: CandidateExtractor) -> None:
        super().__init__(inner)

    def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
        return self._timed("extract", lambda: self.inner.extract(data))

    def refine(self, data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        return self._timed("refine", lambda: self.inner.refine(data, candidates))

    def _timed(self, stage: str, call: Callable[[], list[MemoryCandidate]]) -> list[MemoryCandidate]:
        started = time.perf_counter()
        try:
            out = call()
        except ExtractionError:
            metrics.LLM_CALLS.labels(self.name, stage, "error").inc()
            raise
        metrics.LLM_CALLS.labels(self.name, stage, "ok").inc()
        metrics.LLM_LATENCY.labels(self.name, stage).observe(time.perf_counter() - started)
        return out


def record_tokens(provider: str) -> Callable[[str, int, int], None]:
    """An ``on_usage(stage, prompt_tokens, completion_tokens)`` callback feeding the token counter."""

    def on_usage(stage: str, prompt: int, completion: int) -> None:
        metrics.LLM_TOKENS.labels(provider, stage, "prompt").inc(prompt)
        metrics.LLM_TOKENS.labels(provider, stage, "completion").inc(completion)

    return on_usage
