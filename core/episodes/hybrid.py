"""Hybrid episode retrieval: the dense hits fused with BM25 over the user's own episodes.

An episode is what the user said, in their words: names, places and things ("Caroline", "pottery",
"the LGBTQ support group") that a question repeats word for word and that the embedding of a short
chat line often ranks below a merely topical one. On LoCoMo (conversations 1-2, each speaker's own
turns) BM25 alone finds about as much as the dense cosine, and the two together find more than either
(bench/RESULTS.md, issue 25).

Contracts (pure, no I/O):
- ``lexical_scores(terms, views)``: BM25 (``core.lexical``) of each view's passage for the query's
  ``terms``, over ``views`` as the corpus, as a share of the query (``BM25.coverage``: the score over
  that of an average passage holding once every query term, each term's IDF counted
  ``SHARE_IDF_POWER`` (2) times, a term no episode holds counted as the rarest one, ``BM25.ideal``;
  capped at 1);
  episodes that share no term with the query are left out (empty when none does).
  Not scaled to the best episode: when the best shares only a name or one common word of the
  question, it gets that word's share, not the whole lexical weight (a question that asks by
  inference, "would she likely…", shares few words with its answer and is left to the dense order).
- ``hybrid_candidates(dense, scanned, terms, weight, extra)``: ``dense`` the ``(view, cosine)`` the vector
  search returned, ``scanned`` the user's live episodes BM25 reads (the newest
  ``EPISODE_LEXICAL_SCAN_MAX``). BM25 runs over the union (by id); each candidate gets
  ``weight x`` its BM25 coverage as its lexical part. An episode the vector search did not return joins
  with the lowest cosine of the dense hits (it ranked below all of them), at most ``extra`` of them,
  the best by BM25, each with a positive BM25. ``weight`` 0, no terms or no dense hit: ``dense``
  unchanged with lexical parts 0. Returns ``(view, cosine, lexical part)``, dense hits first.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from core.episodes.search import EpisodeView
from core.lexical import BM25, cached_terms


def lexical_scores(terms: Collection[str], views: Sequence[EpisodeView]) -> dict[int, float]:
    """Episode id -> the BM25 coverage of the query (see the module docstring)."""
    if not terms or not views:
        return {}
    covered = BM25([cached_terms(v.content) for v in views]).coverage(terms)
    return {v.id: s for v, s in zip(views, covered, strict=True) if s > 0}


def hybrid_candidates(dense: Sequence[tuple[EpisodeView, float]], scanned: Sequence[EpisodeView],
                      terms: Collection[str], weight: float, extra: int
                      ) -> list[tuple[EpisodeView, float, float]]:
    """Dense hits and the best lexical-only episodes, each with its lexical part (module docstring)."""
    return hybrid_with_corpus(dense, scanned, terms, weight, extra)[0]


def hybrid_with_corpus(dense: Sequence[tuple[EpisodeView, float]], scanned: Sequence[EpisodeView],
                       terms: Collection[str], weight: float, extra: int
                       ) -> tuple[list[tuple[EpisodeView, float, float]], BM25 | None]:
    """``hybrid_candidates`` and the BM25 of its corpus (``None`` when no lexical part is computed): the
    ruler the memories' lexical part is measured on in the pool (``core.retrieval.merge``)."""
    if weight <= 0 or not terms or not dense:
        return [(v, c, 0.0) for v, c in dense], None
    corpus = {v.id: v for v, _ in dense}
    for view in scanned:
        corpus.setdefault(view.id, view)
    views = list(corpus.values())
    bm25 = BM25([cached_terms(v.content) for v in views])
    scaled = {v.id: s for v, s in zip(views, bm25.coverage(terms), strict=True) if s > 0}
    out = [(v, c, round(weight * scaled.get(v.id, 0.0), 6)) for v, c in dense]
    floor = min(c for _, c in dense)
    hit_ids = {v.id for v, _ in dense}
    lexical_only = sorted((eid for eid in scaled if eid not in hit_ids),
                          key=lambda eid: (-scaled[eid], -eid))[:max(0, extra)]
    out.extend((corpus[eid], floor, round(weight * scaled[eid], 6)) for eid in lexical_only)
    return out, bm25
