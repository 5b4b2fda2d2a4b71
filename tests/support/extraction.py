"""Driving an extraction provider's two stages as the pipeline does."""

from __future__ import annotations

from core.extraction.candidates import CandidateExtractor, ExistingMemory, ExtractionInput, MemoryCandidate


def extract_and_refine(ex: CandidateExtractor, text: str,
                       *existing: tuple[str, str, str]) -> list[MemoryCandidate]:
    """Stage 1 and refine of ``text`` against ``existing`` (key, type, content) memories; refine runs
    also when only memories exist, as ``core.extraction.budget.run_burst`` calls it."""
    data = ExtractionInput(user_message=text, existing=tuple(ExistingMemory(*e) for e in existing))
    candidates = ex.extract(data)
    return ex.refine(data, candidates) if candidates or existing else []
