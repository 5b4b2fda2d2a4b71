"""The two texts of a pair read together: what the statement adds, what it leaves out of the old memory.

``PairModel``'s compact features compare the two texts as wholes (cosines, cue flags), so a new value of
a slot ("my kid is in 7th grade this year" against "my kid is in 6th grade") and a detail of it ("he's in
the gifted program") look alike: both share the slot's words and carry no change word. Here the texts are
aligned on their salient tokens (``core.text.salient``: English content words, Chinese character bigrams):
``diff_spans`` gives the statement's part absent from the old memory (``new_only``), the old memory's part
absent from the statement (``old_only``) and their shared frame. ``joint_features`` embeds the two
difference spans with the shipped embedder and compares them: two values of one kind (two cities, two
grades, two employers: the spans are alike, each side's value replaced by the other), an extra detail with
nothing of the old one replaced (``old_only`` empty or unlike the new part), or nothing shared at all.
Slot-agnostic and low-dimensional: containment ratios both ways, centred cosines of the spans to each other
and to the other side, and how far the memory classifier reads the new part as the old memory's kind.
No word list per slot; the only words are the salient-token stop words every wording comparison shares.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from core.text.salient import CJK, EN_KEEP, EN_STOP, TOKEN, normalize, salient_tokens, zh_pieces

Embed = Callable[[list[str]], npt.NDArray[np.float32]]
JOINT_FEATURES = 9


@dataclass(frozen=True)
class Spans:
    """``new_only`` / ``old_only``: the salient parts of each side the other lacks, in reading order;
    ``shared``: the salient tokens both have; ``n_new`` / ``n_old``: each side's salient token count."""

    new_only: str
    old_only: str
    shared: frozenset[str]
    n_new: int
    n_old: int


def _fold(word: str) -> str:
    word = word.replace("'", "")
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


def _unshared(text: str, other: set[str]) -> str:
    """The salient parts of ``text`` whose tokens ``other`` lacks: English words, and runs of Chinese
    characters not covered by a shared bigram, joined in reading order."""
    parts: list[str] = []
    for token in TOKEN.findall(normalize(text)):
        if CJK.match(token):
            for run in zh_pieces(token):
                if not run:
                    continue
                covered = [False] * len(run)
                for i in range(len(run) - 1):
                    if run[i:i + 2] in other:
                        covered[i] = covered[i + 1] = True
                for i, ch in enumerate(run):
                    covered[i] = covered[i] or ch in other
                piece = "".join(c if not cov else " " for c, cov in zip(run, covered, strict=True))
                parts.extend(p for p in piece.split() if p)
        elif (token in EN_KEEP or (token not in EN_STOP and len(token) > 1)) and _fold(token) not in other:
            parts.append(token)
    return " ".join(parts)


def diff_spans(old: str, new: str) -> Spans:
    """Align ``old`` and ``new`` on their salient tokens (see module doc)."""
    a, b = salient_tokens(old), salient_tokens(new)
    return Spans(new_only=_unshared(new, a), old_only=_unshared(old, b), shared=frozenset(a & b),
                 n_new=len(b), n_old=len(a))


def span_texts(olds: list[str], news: list[str]) -> list[str]:
    """Every non-empty difference span of the pairs (what ``joint_features`` embeds)."""
    out: list[str] = []
    for old, new in zip(olds, news, strict=True):
        s = diff_spans(old, new)
        out.extend(t for t in (s.new_only, s.old_only) if t)
    return out


def _centred_cos(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64],
                 center: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    ac, bc = a - center, b - center
    norms = np.linalg.norm(ac, axis=1) * np.linalg.norm(bc, axis=1)
    out: npt.NDArray[np.float64] = (ac * bc).sum(axis=1) / np.maximum(norms, 1e-12)
    return out


def joint_features(old_vectors: npt.NDArray[np.float32], new_vectors: npt.NDArray[np.float32],
                   olds: list[str], news: list[str], center: npt.NDArray[np.float32],
                   embed: Embed) -> npt.NDArray[np.float64]:
    """Per pair ``[share of old's tokens in new, share of new's tokens in old, new part empty, old part
    empty, cos(new part, old part), cos(new part, old memory), cos(old part, statement), both parts present
    and alike (the product of the two emptiness complements and the first cosine), agreement of the memory
    classifier's types of the new part and the old memory]``; the cosines are centred on ``center`` and 0
    when a part is empty; ``embed`` gives ``passage:`` vectors (the shipped embedder)."""
    from core.extraction.classifier import shipped_mlp

    n = len(olds)
    if n == 0:
        return np.zeros((0, JOINT_FEATURES), dtype=np.float64)
    spans = [diff_spans(o, t) for o, t in zip(olds, news, strict=True)]
    texts = sorted({t for s in spans for t in (s.new_only, s.old_only) if t})
    index = {t: i for i, t in enumerate(texts)}
    vecs = embed(texts).astype(np.float64) if texts else np.zeros((0, old_vectors.shape[1]))
    c = center.astype(np.float64)
    o, w = old_vectors.astype(np.float64), new_vectors.astype(np.float64)
    has_new = np.array([bool(s.new_only) for s in spans])
    has_old = np.array([bool(s.old_only) for s in spans])
    nv = np.stack([vecs[index[s.new_only]] if s.new_only else w[i] for i, s in enumerate(spans)])
    ov = np.stack([vecs[index[s.old_only]] if s.old_only else o[i] for i, s in enumerate(spans)])
    both = has_new & has_old
    cos_parts = np.where(both, _centred_cos(nv, ov, c), 0.0)
    cos_new_old = np.where(has_new, _centred_cos(nv, o, c), 0.0)
    cos_old_new = np.where(has_old, _centred_cos(ov, w, c), 0.0)
    mlp = shipped_mlp()
    pn = mlp.predict_proba(nv.astype(np.float32))
    po = mlp.predict_proba(old_vectors)
    tn = pn[:, 1:] / np.maximum(pn[:, 1:].sum(axis=1, keepdims=True), 1e-9)
    to = po[:, 1:] / np.maximum(po[:, 1:].sum(axis=1, keepdims=True), 1e-9)
    agree = np.where(has_new, (tn * to).sum(axis=1), 0.0)
    share_old = np.array([len(s.shared) / s.n_old if s.n_old else 0.0 for s in spans])
    share_new = np.array([len(s.shared) / s.n_new if s.n_new else 0.0 for s in spans])
    return np.stack([share_old, share_new, (~has_new).astype(np.float64), (~has_old).astype(np.float64),
                     cos_parts, cos_new_old, cos_old_new, both * np.maximum(cos_parts, 0.0), agree], axis=1)
