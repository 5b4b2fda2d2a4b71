"""The rerank of retrieval: one score from the query match, importance, confidence, recency, key and topic.

``rerank`` is pure (no I/O, no clock of its own): the same candidates, terms, weights and ``now`` give
the same order. The offline evaluation (``bench/eval_rules_offline.py``) ranks with it too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from core.lexical import key_terms
from core.memory.tools import MemoryView
from core.query_kinds import memory_kinds


@dataclass(frozen=True)
class RerankWeights:
    """Weights of the rerank score ``sum(weight_i * component_i)``, every component in ``[0, 1]``.

    - ``retrieval`` (0.55): the match of the query. Dense: cosine relative to the best candidate,
      ``clip(1 - (best - cos) / retrieval_window, 0, 1)`` (e5 cosines are compressed into a narrow
      band, so absolute values mean little; candidates ``retrieval_window`` below the best get 0).
      Lexical: BM25 divided by the best BM25 of the scan.
    - ``importance`` (0.15): ``(importance - 1) / 4``.
    - ``confidence`` (0.10): the stored confidence.
    - ``recency`` (0.10): ``0.5 ** (days since updated_at / recency_half_life_days)``.
    - ``exact_key`` (0.10): share of the memory key's words that occur in the query.
    - ``topic`` (0.10): 1 when the memory is about a kind of thing the question asks about
      (``core.query_kinds``: "what are my hobbies?" and a preference), else 0; a bounded nudge
      (worth about 0.02 of cosine in the dense window), so the exact and dense signals dominate.
    """

    retrieval: float = 0.55
    importance: float = 0.15
    confidence: float = 0.10
    recency: float = 0.10
    exact_key: float = 0.10
    topic: float = 0.10
    retrieval_window: float = 0.10
    recency_half_life_days: float = 90.0

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"rerank weight {name} must be a finite number >= 0")
        if self.retrieval_window <= 0 or self.recency_half_life_days <= 0:
            raise ValueError("retrieval_window and recency_half_life_days must be > 0")


@dataclass(frozen=True)
class ScoreComponents:
    """The normalised components (each in ``[0, 1]``) behind a rerank score."""

    retrieval: float
    importance: float
    confidence: float
    recency: float
    exact_key: float
    raw_retrieval: float  # cosine (dense) or BM25 (lexical) before normalisation; 0 for full_inject
    topic: float = 0.0  # the memory shares a kind of thing with the question (``core.query_kinds``)

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


@dataclass(frozen=True)
class RetrievedMemory:
    memory: MemoryView
    score: float
    components: ScoreComponents

    def as_dict(self) -> dict[str, Any]:
        return {"memory": self.memory.as_dict(), "score": self.score, "components": self.components.as_dict()}


@dataclass(frozen=True)
class Candidate:
    """A memory with its raw retrieval score (cosine or BM25) before rerank."""

    memory: MemoryView
    raw: float


def rerank(candidates: Sequence[Candidate], query_terms: set[str], weights: RerankWeights, now: datetime,
           limit: int, *, normalise: str, kinds: frozenset[str] = frozenset()) -> list[RetrievedMemory]:
    """Score and order ``candidates``; return at most ``limit``, best first.

    ``kinds``: the kinds of thing the question asks about (``core.query_kinds.query_kinds``); a
    memory of one of them gets the ``topic`` component.

    ``normalise`` is ``"window"`` (dense cosines, relative to the best), ``"max"`` (BM25, divided by
    the best) or ``"none"`` (no retrieval signal: full_inject). Ties break on newer ``updated_at``
    then higher id, so the order is deterministic.
    """
    if limit < 1 or not candidates:
        return []
    raws = [c.raw if math.isfinite(c.raw) else 0.0 for c in candidates]
    best = max(raws)
    scored: list[RetrievedMemory] = []
    for cand, raw in zip(candidates, raws, strict=True):
        if normalise == "window":
            rel = min(1.0, max(0.0, 1.0 - (best - raw) / weights.retrieval_window))
        elif normalise == "max":
            rel = min(1.0, max(0.0, raw / best)) if best > 0 else 0.0
        else:
            rel = 0.0
        mem = cand.memory
        importance = min(1.0, max(0.0, (mem.importance - 1) / 4.0))
        confidence = min(1.0, max(0.0, mem.confidence))
        age_days = max(0.0, (now - mem.updated_at).total_seconds() / 86400.0)
        recency = 0.5 ** (age_days / weights.recency_half_life_days)
        keys = key_terms(mem.key)
        exact = len(keys & query_terms) / len(keys) if keys else 0.0
        topic = 1.0 if kinds and kinds & memory_kinds(mem.key, mem.memory_type, mem.content) else 0.0
        comps = ScoreComponents(rel, importance, confidence, recency, exact, raw, topic)
        total = (weights.retrieval * rel + weights.importance * importance + weights.confidence * confidence
                 + weights.recency * recency + weights.exact_key * exact + weights.topic * topic)
        scored.append(RetrievedMemory(mem, round(total, 6), comps))
    scored.sort(key=lambda r: (-r.score, -r.memory.updated_at.timestamp(), -r.memory.id))
    return scored[:limit]
