"""Semantic dedup: cosine similarity of memories' embedded texts (``embedding_text``: the content) under
per-model thresholds.

``reuse`` (0.82 for text-embedding-3-small; ``docs/design.md#semantic-dedup``): a new candidate this
close to an existing memory of the same type is treated as the same memory and reuses its key.
``merge`` (0.90 for that model): after a write, live copies this close are redundant and are merged.
``lexical`` (per model, ``core.config.DEDUP_LEXICAL_REUSE``): a lower cosine also counts as the same
memory when the two contents share most of their salient words (``(cosine, overlap)``).
``merge_overlap`` (per model, ``core.config.DEDUP_LEXICAL_MERGE``): a merge also needs that share of
salient words, so two different rules that embed alike are never merged.
The per-model values come from ``core/memory/data/dedup_calibration.json`` (``core.config`` reads it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from core.config import DEDUP_LEXICAL_MERGE, DEDUP_LEXICAL_REUSE, Settings
from core.embedding.base import Embedder, Vectors
from core.embedding.cache import PassageVectorCache, shared_passage_cache
from core.memory.text import embedding_text
from core.text.salient import overlap


@dataclass(frozen=True)
class DedupItem:
    key: str
    memory_type: str
    content: str

    @property
    def text(self) -> str:
        return embedding_text(self.memory_type, self.key, self.content)


class SemanticDeduper:
    """Finds semantic duplicates with an embedder over memories' embedded texts (their content); passage
    vectors come from the process-wide cache by model and text, so a candidate the classifier embedded
    costs no second model call."""

    def __init__(
        self,
        embedder: Embedder,
        reuse: float,
        merge: float,
        cache: PassageVectorCache | None = None,
        lexical: tuple[float, float] | str | None = "model",
        merge_overlap: float | str | None = "model",
    ) -> None:
        """``lexical``: the gated reuse rule ``(cosine, overlap)``, ``None`` for none, or ``"model"``
        for the embedder model's calibrated one (``DEDUP_LEXICAL_REUSE``); ``merge_overlap`` likewise
        (``DEDUP_LEXICAL_MERGE``, ``None``: cosine alone merges); ``cache``: where passage vectors are
        kept by model and text (default: the process-wide one the memory classifier fills)."""
        self.embedder = embedder
        self.reuse = reuse
        self.merge = merge
        if isinstance(lexical, str):
            if lexical != "model":
                raise ValueError(f"lexical must be (cosine, overlap), None or 'model', got {lexical!r}")
            self.lexical = DEDUP_LEXICAL_REUSE.get(getattr(embedder, "model", ""))
        else:
            self.lexical = lexical
        if isinstance(merge_overlap, str):
            if merge_overlap != "model":
                raise ValueError(f"merge_overlap must be a number, None or 'model', got {merge_overlap!r}")
            self.merge_overlap = DEDUP_LEXICAL_MERGE.get(getattr(embedder, "model", ""))
        else:
            self.merge_overlap = merge_overlap
        self._cache = cache if cache is not None else shared_passage_cache()

    @classmethod
    def for_settings(cls, settings: Settings, embedder: Embedder) -> SemanticDeduper:
        """A deduper at the configured thresholds (``Settings.dedup_thresholds``) and the model's lexical
        rules."""
        reuse, merge = settings.dedup_thresholds
        return cls(embedder, reuse, merge)

    @property
    def model(self) -> str:
        return self.embedder.model

    def vector(self, text: str) -> np.ndarray:
        """The vector of one text (from the cache, else one model call)."""
        return self.vectors([text])[0]

    def vectors(self, texts: Sequence[str]) -> Vectors:
        """Passage vectors of ``texts`` in order: from the cache shared with the memory classifier
        (``core.embedding.cache``), the distinct missing texts in one model call."""
        embedder = self.embedder
        vectors, _ = self._cache.vectors(embedder.model, embedder.dim, texts, embedder.embed_passages)
        return vectors

    def best_match(self, item: DedupItem, existing: Sequence[DedupItem]) -> tuple[DedupItem, float] | None:
        """The existing memory of the same type that ``item`` duplicates, with its cosine, if any:
        the most similar one at or above ``reuse``, else the most similar one that passes the
        lexical gate (cosine at or above its threshold and enough salient words shared)."""
        same_type = [e for e in existing if e.memory_type == item.memory_type and e.key != item.key]
        if not same_type:
            return None
        vecs = self.vectors([item.text] + [e.text for e in same_type])
        scores = vecs[1:] @ vecs[0]
        order = np.argsort(-scores)
        best = int(order[0])
        if float(scores[best]) >= self.reuse:
            return same_type[best], float(scores[best])
        if self.lexical is not None:
            cosine, shared = self.lexical
            for i in order:
                score = float(scores[int(i)])
                if score < cosine:
                    break
                if overlap(item.content, same_type[int(i)].content) >= shared:
                    return same_type[int(i)], score
        return None

    def redundant_pairs(
        self, items: Sequence[DedupItem], distinct: Callable[[DedupItem, DedupItem], bool] | None = None
    ) -> list[tuple[DedupItem, DedupItem, float]]:
        """Pairs (a, b) of the same type with cosine >= ``merge`` (and, when the model has one, at least
        ``merge_overlap`` of their salient words shared), except pairs ``distinct`` declares different
        memories; each item appears at most once."""
        if len(items) < 2:
            return []
        vecs = self.vectors([i.text for i in items])
        sims = vecs @ vecs.T
        used: set[int] = set()
        pairs: list[tuple[DedupItem, DedupItem, float]] = []
        order = np.dstack(np.unravel_index(np.argsort(-sims, axis=None), sims.shape))[0]
        for a, b in order:
            a, b = int(a), int(b)
            if sims[a, b] < self.merge:
                break
            if a >= b:
                continue
            if a in used or b in used or items[a].memory_type != items[b].memory_type:
                continue
            shared = self.merge_overlap
            if shared is not None and overlap(items[a].content, items[b].content) < shared:
                continue
            if distinct is not None and distinct(items[a], items[b]):
                continue
            used.update((a, b))
            pairs.append((items[a], items[b], float(sims[a, b])))
        return pairs
