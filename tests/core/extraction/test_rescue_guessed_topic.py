"""A rescued taste, goal or project whose topic no words name (``gate_opinion.guessed_topics``): the precision
model that reads the turn counts from the rescue's floor, not lifted to ``CONTEXT_FLOOR``; one whose topic
words name it, one told as a taste or a habit, a wish for the long run, a change, a fact or someone else's
keeps the lifted floor."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import MLPModel, Prediction
from core.extraction.rules.gate_keys import named_topic
from core.extraction.rules.gate_opinion import (
    CONTEXT_FLOOR,
    GUESSED_FLOOR,
    PRECISION_DROP,
    PRECISION_RESCUE,
    TURN_LIFT,
    guessed_topics,
    rescue_floors,
    second_opinion,
)
from core.extraction.rules.gate_units import RESCUE_KEEP, Unit
from core.types import MemoryType

_PROBS = {MemoryType.PREFERENCE: (0.01, 0.95, 0.01, 0.01, 0.01, 0.01),
          MemoryType.FACT: (0.01, 0.01, 0.95, 0.01, 0.01, 0.01),
          MemoryType.GOAL: (0.01, 0.01, 0.01, 0.95, 0.01, 0.01)}


@dataclass
class _Fixed:
    """A precision model stand-in that reads the turn: the same p(drop) for every text, ``alone`` without the
    turn (by default the turn does not change the reading)."""

    p_drop: float
    alone: float | None = None
    context: bool = True

    def predict_proba(self, vectors: npt.NDArray[np.float32], prev: npt.NDArray[np.float32] | None = None
                      ) -> npt.NDArray[np.float64]:
        p = self.p_drop if prev is not None or self.alone is None else self.alone
        out = np.zeros((len(vectors), 6))
        out[:, 0], out[:, 1] = p, 1.0 - p
        return out


def _guessed(text: str, memory_type: MemoryType, owner: str | None = None) -> bool:
    return guessed_topics([Unit(text, 0, owner)], [Prediction(_PROBS[memory_type])])[0]


def test_a_statement_no_topic_words_name_is_guessed() -> None:
    # the day's news, a mood, a plan of the moment: no taste, goal or project words, no liking, no habit
    assert _guessed("I finally got around to fixing the squeaky door", MemoryType.PREFERENCE)
    assert _guessed("心里踏实多了，谢谢你陪我聊这么久", MemoryType.PREFERENCE)
    assert _guessed("I plan to pop by the post office after lunch", MemoryType.GOAL)
    assert named_topic(MemoryType.GOAL, "I plan to pop by the post office after lunch") is None


def test_named_tasted_habitual_lasting_or_someone_elses_is_not_guessed() -> None:
    assert named_topic(MemoryType.PREFERENCE, "jazz records are the best thing ever") is not None
    assert not _guessed("jazz records are the best thing ever", MemoryType.PREFERENCE)  # topic words
    assert not _guessed("I usually take the long way home along the canal", MemoryType.PREFERENCE)  # a habit
    assert not _guessed("周末一般都会去河边走走", MemoryType.PREFERENCE)
    assert not _guessed("someday I want to sail around the world", MemoryType.GOAL)  # the long run
    assert not _guessed("my brother just got back from Peru", MemoryType.FACT, owner="fact-family")
    # a fact keeps its floor: an answer to the assistant's question ("what did you study?") reads as an echo
    # of the turn to the precision model
    assert not _guessed("I'm sitting in a cafe by the station with no wifi", MemoryType.FACT)
    # a change is the new value of something told before: its topic is the old memory's
    assert not _guessed("I do pottery on sundays now, way calmer", MemoryType.PREFERENCE)
    assert not _guessed("改成每周游两次吧", MemoryType.GOAL)


def test_a_guessed_rescue_is_read_from_its_floor_with_the_turn() -> None:
    units = [Unit("I finally got around to fixing the squeaky door", 0),
             Unit("I usually take the long way home along the canal", 0)]
    first = [Prediction(_PROBS[MemoryType.PREFERENCE]), Prediction(_PROBS[MemoryType.PREFERENCE])]
    floors = rescue_floors(units, first)
    assert floors == [PRECISION_RESCUE, PRECISION_DROP]
    p_drop = (GUESSED_FLOOR + CONTEXT_FLOOR) / 2  # under the lifted floor, over the guessed one
    assert p_drop > 1.0 - RESCUE_KEEP
    vectors = np.zeros((2, 4), dtype=np.float32)
    turn = np.zeros((1, 4), dtype=np.float32)
    guessed = guessed_topics(units, first)
    lifted = _Fixed(p_drop, alone=p_drop - 2 * TURN_LIFT)  # the turn makes it a reply of the moment
    read = second_opinion(cast(MLPModel, lifted), vectors, first, floors, turn, guessed)
    assert read[0].p_keep < RESCUE_KEEP  # the reply of the moment goes
    assert read[1] is first[1]  # the habit keeps the classifier's reading
    # without ``guessed`` every floor is lifted, as before
    again = second_opinion(cast(MLPModel, lifted), vectors, first, floors, turn)
    assert again[0] is first[0] and again[1] is first[1]
    # a reading the turn does not lift (the model reads the text as a drop alone) keeps the lifted floor, and
    # so does one read without a turn
    flat = second_opinion(cast(MLPModel, _Fixed(p_drop)), vectors, first, floors, turn, guessed)
    assert flat[0] is first[0]
    alone = second_opinion(cast(MLPModel, lifted), vectors, first, floors, None, guessed)
    assert alone[0] is first[0]


def test_a_guessed_rescue_read_under_its_floor_stays() -> None:
    # a lasting statement the precision model reads a little over RESCUE_KEEP's margin with the turn (a job
    # told with its company, typed a project: 0.113) keeps the classifier's reading
    units = [Unit("I finally got around to fixing the squeaky door", 0)]
    first = [Prediction(_PROBS[MemoryType.PREFERENCE])]
    p_drop = GUESSED_FLOOR - 0.01
    assert p_drop > 1.0 - RESCUE_KEEP  # it would have gone at session 21's floor of 0.0
    vectors, turn = np.zeros((1, 4), dtype=np.float32), np.zeros((1, 4), dtype=np.float32)
    read = second_opinion(cast(MLPModel, _Fixed(p_drop, alone=0.0)), vectors, first,
                          rescue_floors(units, first), turn, guessed_topics(units, first))
    assert read[0] is first[0]
