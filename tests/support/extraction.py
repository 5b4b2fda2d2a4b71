"""Driving an extraction provider's two stages as the pipeline does."""

from __future__ import annotations

from core.extraction.candidates import (
    CandidateExtractor,
    CandidateOp,
    ExistingMemory,
    ExtractionInput,
    MemoryCandidate,
)
from core.types import MemoryType


def extract_and_refine(ex: CandidateExtractor, text: str,
                       *existing: tuple[str, str, str]) -> list[MemoryCandidate]:
    """Stage 1 and refine of ``text`` against ``existing`` (key, type, content) memories; refine runs
    also when only memories exist, as ``core.extraction.budget.run_burst`` calls it."""
    data = ExtractionInput(user_message=text, existing=tuple(ExistingMemory(*e) for e in existing))
    candidates = ex.extract(data)
    return ex.refine(data, candidates) if candidates or existing else []


def live_after(ex: CandidateExtractor, message: str, *existing: ExistingMemory) -> dict[str, str]:
    """Each live memory's content (by key) after ``message`` is extracted and refined against ``existing``;
    a deleted memory is absent. New memories of other keys are not listed."""
    data = ExtractionInput(message, context=(), existing=existing)
    live = {m.key: m.content for m in existing}
    for c in ex.refine(data, ex.extract(data)):
        if c.op is CandidateOp.DELETE:
            live.pop(c.key, None)
        elif c.key in live:
            live[c.key] = c.content
    return live


def upsert_candidate(key: str, memory_type: MemoryType, content: str,
                     supersedes: str | None = None) -> MemoryCandidate:
    """An upsert candidate as the rules write one (importance 3, confidence 0.9)."""
    return MemoryCandidate(op=CandidateOp.UPSERT, key=key, memory_type=memory_type, content=content,
                           importance=3, confidence=0.9, supersedes=supersedes)
