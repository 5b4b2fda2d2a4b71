"""The readings the classifier gate decides on besides the classifier's first one: the same classifier again
with the turn before, and the precision model's second opinion on keep/drop.

Contract: ``read_in_context`` reads again, with the previous turn, each text whose p(drop) alone falls within
``CONTEXT_BAND`` (only for a classifier with a context model; the turn is embedded only then).
``second_opinion`` returns each prediction as it is (the same object) unless the precision model says drop
more surely than the classifier and with p >= the text's floor (``PRECISION_DROP`` unless told otherwise; for
a precision model that reads the turn, at least ``CONTEXT_FLOOR``, except for a rescue whose topic is only a
guess, ``guessed_topics``, that the turn makes a reply of the moment, ``TURN_LIFT``: at least
``GUESSED_FLOOR``): then its p(drop) replaces the classifier's and the type shares of the rest are scaled, so
the type stays the classifier's. ``needs_turn`` says whether the turn before can change any reading
(``TURN_BAND``; the gate embeds it only then). ``vetoable`` says which rule candidates it may drop (never a
standing rule, a wish for the long run, a single identity slot or a life event); ``rescue_floors`` gives each
rescue unit its floor (``NEVER`` for a wish for the long run, ``PRECISION_RESCUE`` for the user's taste, goal
or project not told as a taste or a habit, else ``PRECISION_DROP``). Pure functions; without a precision model
the readings are unchanged.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from core.extraction.candidates import MemoryCandidate
from core.extraction.classifier import PREV_MAX_CHARS, MemoryClassifier, MLPModel, Prediction
from core.extraction.rules import patterns
from core.extraction.rules.events import is_event_key
from core.extraction.rules.gate_keys import named_topic
from core.extraction.rules.gate_units import NEVER, Unit
from core.extraction.rules.gate_verdicts import INTENTS
from core.extraction.rules.segment import normalise
from core.extraction.rules.slots import is_known_slot, spec
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType

CONTEXT_BAND = (0.25, 0.75)  # p(drop) of a text alone within which the context model reads the turn before
PRECISION_DROP = 0.50  # p(drop) of the precision model from which its reading counts (``second_opinion``)
PRECISION_RESCUE = 0.0  # ... for a rescue (a sentence no rule fired on) of a taste, goal or project: whenever
# it is the surer one (a fact, a relative's fact, a rule: PRECISION_DROP, "glassblower, 41, moved to …"),
# except for a rescue that tells a taste or a habit ("I would also like to attend concerts by …", "I've been
# spending a lot of my free time reading"): PRECISION_DROP (the companion-chat drops it learned pull such
# chatty-framed tastes down: MemoryBank en typed recall 0.853 -> 0.809 without this exception)
CONTEXT_FLOOR = 0.35  # the lowest p(drop) from which a precision model that reads the turn counts, whatever
# the text's floor: the threshold of highest balanced keep/drop accuracy on the held-out split of its corpus
# (``training.calibrate_precision_drop``: 0.30 on the s18 arm, 0.35 on session 19's s19 arm, balanced 0.950 at
# both; ``bench/RESULTS.md``, issue 24, sessions 18 and 19). A turn
# the message does not answer lifts p(drop) of a rescued taste from about 0.01 to 0.1, and a rescue must keep
# p >= ``RESCUE_KEEP`` (0.90): with the rescue floor of 0.0 it was lost. Inert with a model that reads no turn
# (``MLPModel.context`` false; the shipped model reads the turn since session 19).
GUESSED_FLOOR = 0.16  # ... for a rescue whose topic is only a guess (``guessed_topics``): the lowest p(drop)
# of a precision model that reads the turn from which it counts, in place of CONTEXT_FLOOR. Read on main's
# labelled public stores (session 23, prec42; the even MemoryBank users and Persona-Chat, the odd users held
# out): the good guessed rescues read 0.084 or less with their turn, the day's news, moods and thanks
# 0.11-0.34; the lasting statements of the tests and the tune halves read over RESCUE_KEEP's margin (0.10)
# stay: a job told with its company the classifier types a project (0.113), "I want to move to the city"
# (0.158). At 0.0 (session 21's arm) both went.
TURN_LIFT = 0.05  # ... and only when the turn lifts its p(drop) by this much over its reading alone: the
# reading that makes it a reply of the moment is the turn's ("I'm basically obsessed with it" 0.07 alone, 0.32
# after the assistant's question; the dev half's bad guessed rescues over GUESSED_FLOOR were lifted by
# 0.07-0.27, all but one); a statement read without a turn or one the turn does not lift ("I want to move to
# the city" 0.158, a job typed a project 0.113, both told first) keeps CONTEXT_FLOOR
TURN_BAND = (0.01, 0.95)  # p(drop) of a text read without the turn within which the turn can change its
# reading: the turn is embedded only when a text of the message falls inside (one model text less per message
# otherwise). On the s19 arm's held-out rows with a turn (``training.calibrate_precision_drop``), the band
# keeps 45 of the 46 readings the turn changes at ``CONTEXT_FLOOR`` and needs the turn for 25 % of the rows;
# the extraction CPU per message grew by 60 % when every message's turn was embedded (``bench/RESULTS.md``,
# issue 24, session 19).
_TASTE_OR_HABIT = re.compile(
    r"\b(?:like|likes|love|loves|enjoy|enjoys|prefer|prefers|favou?rite|fan of|into|usually|often|always|"
    r"free time|spare time|every (?:day|week|weekend|evening|night|morning))\b|"
    r"喜欢|爱看|爱读|爱听|最爱|偏爱|热爱|平时|通常|一般(?:都|会)|经常|总是|每(?:天|周|个周末|晚)|闲暇|空闲时间|业余时间|有空")
# a wish for the long run ("I want to be a doctor when I grow up", "i kinda wanna swim across lake geneva
# someday", "将来想当兽医"): the precision model's companion-chat wants pull these down, so it has no say
_LONG_TERM = re.compile(
    r"\b(?:someday|some day|one day|when i grow up|dream|dreams|my goal|life goal|bucket list|in the future|"
    r"in the long run|(?:want|wanna|hope|plan|going) (?:to )?(?:be|become) (?:a|an)\b)|"
    r"将来|梦想|总有一天|有朝一日|长大以后|长大后|以后想(?:当|成为|做)|人生目标|这辈子")


def read_in_context(classifier: MemoryClassifier, vectors: npt.NDArray[np.float32],
                    predictions: list[Prediction], prev: str | None) -> list[Prediction]:
    """``predictions`` (changed in place and returned), each unsure one (p(drop) within ``CONTEXT_BAND``)
    read again with ``prev``, the turn before, when the classifier has a context model."""
    prev_text = (prev or "").strip()[:PREV_MAX_CHARS] if classifier.uses_context else ""
    unsure = [i for i, p in enumerate(predictions) if CONTEXT_BAND[0] <= p.probs[0] <= CONTEXT_BAND[1]]
    if prev_text and unsure:  # the previous turn is embedded only when a text alone is unsure
        prev_vector = classifier.embed([prev_text])
        again = classifier.predict_vectors(vectors[unsure], np.repeat(prev_vector, len(unsure), axis=0))
        for i, pred in zip(unsure, again, strict=True):
            predictions[i] = pred
    return predictions


def needs_turn(precision: MLPModel | None, vectors: npt.NDArray[np.float32]) -> bool:
    """Whether the turn before can change the precision model's reading of any of ``vectors``: a model that
    reads the turn, and a text whose p(drop) without it falls within ``TURN_BAND``."""
    if precision is None or not precision.context or not len(vectors):
        return False
    drops = precision.predict_proba(vectors, None)[:, 0]
    return bool(((drops >= TURN_BAND[0]) & (drops <= TURN_BAND[1])).any())


def second_opinion(precision: MLPModel | None, vectors: npt.NDArray[np.float32],
                   predictions: list[Prediction], floors: list[float] | None = None,
                   turn: npt.NDArray[np.float32] | None = None,
                   guessed: list[bool] | None = None) -> list[Prediction]:
    """The precision model's reading (module doc): where it says drop more surely than the memory
    classifier, and with p >= the text's floor (``PRECISION_DROP`` unless ``floors`` says otherwise), its
    p(drop) replaces the classifier's; the type stays the classifier's (its shares of the rest). Other
    predictions are returned as they are (the same objects). ``guessed``: the texts read from
    ``GUESSED_FLOOR`` instead of ``CONTEXT_FLOOR`` when the turn lifts their p(drop) by ``TURN_LIFT`` over
    their reading alone (a rescue whose topic no words name: ``guessed_topics``)."""
    if precision is None or not predictions:
        return predictions
    prev = None if turn is None else np.repeat(turn, len(vectors), axis=0)
    drops = precision.predict_proba(vectors, prev)[:, 0]
    lifted = _lifted_by_turn(precision, vectors, drops, prev, guessed)
    out: list[Prediction] = []
    for i, (pred, drop) in enumerate(zip(predictions, drops, strict=True)):
        d = float(drop)
        floor = PRECISION_DROP if floors is None else floors[i]
        lift = (GUESSED_FLOOR if lifted[i] else CONTEXT_FLOOR) if precision.context else 0.0
        if d < max(floor, lift) or d <= pred.probs[0]:
            out.append(pred)
            continue
        scale = (1.0 - d) / pred.p_keep if pred.p_keep > 0 else 0.0
        out.append(Prediction((round(d, 6), *(round(p * scale, 6) for p in pred.probs[1:]))))
    return out


def _lifted_by_turn(precision: MLPModel, vectors: npt.NDArray[np.float32], drops: npt.NDArray[np.float64],
                    prev: npt.NDArray[np.float32] | None, guessed: list[bool] | None) -> list[bool]:
    """Per text, whether it is a guessed rescue (``guessed``) that the turn it answers makes a reply of the
    moment: with the turn, its p(drop) is at least ``TURN_LIFT`` over its reading alone (no turn: never)."""
    if guessed is None or prev is None or not any(guessed):
        return [False] * len(drops)
    alone = precision.predict_proba(vectors, None)[:, 0]
    return [bool(g and d - a >= TURN_LIFT) for g, d, a in zip(guessed, drops, alone, strict=True)]


def vetoable(cand: MemoryCandidate) -> bool:
    """A rule candidate the precision model may drop: not a standing rule (it learned companion chat), not a
    wish for the long run (``_LONG_TERM``), and neither a single slot of who the user is nor a life event (a
    move, a new job: "moved to Bristol")."""
    if cand.memory_type is MemoryType.CONSTRAINT or is_event_key(cand.key) or \
            _LONG_TERM.search(normalise(cand.content)):
        return False
    return not (is_known_slot(cand.key) and spec(cand.key).single)


def rescue_floors(units: list[Unit], predictions: list[Prediction]) -> list[float]:
    """Each rescue unit's floor for ``second_opinion`` (module doc)."""
    return [NEVER if _LONG_TERM.search(normalise(u.model_text)) else
            PRECISION_RESCUE if u.owner is None and pred.memory_type in INTENTS
            and not _TASTE_OR_HABIT.search(normalise(u.model_text)) else PRECISION_DROP
            for u, pred in zip(units, predictions, strict=True)]


def guessed_topics(units: list[Unit], predictions: list[Prediction]) -> list[bool]:
    """Per rescue unit, whether its topic is only a guess: the user's own taste, goal or project that no
    topic words of its type name (``gate_keys.named_topic``), not told as a taste or a habit
    (``_TASTE_OR_HABIT``), not a wish for the long run, not a change (``patterns.CHANGE``: "i do pottery
    on sundays now", "改成每周两次": the new value of something the user told, whose topic is the old
    memory's). Its key would be the embedding's nearest topic, and the precision model, which reads the
    turn it answers, counts from ``GUESSED_FLOOR``, not ``CONTEXT_FLOOR``, when the turn lifts its reading
    (``second_opinion``, ``TURN_LIFT``): a mood, the day's news or a thank-you said after the assistant's
    question ("I finally got around to fixing the squeaky door", "心里踏实多了") reads as a keep alone and
    as a reply of the moment with the turn (``bench/RESULTS.md``, issue 24, sessions 21 and 23). A fact
    keeps its floor: an answer to the assistant's question ("What did you study?" "I studied X") reads as an
    echo of the turn to the precision model too."""
    out: list[bool] = []
    for u, pred in zip(units, predictions, strict=True):
        norm = normalise(u.model_text)
        out.append(u.owner is None and pred.memory_type in INTENTS and not _TASTE_OR_HABIT.search(norm)
                   and not _LONG_TERM.search(norm) and not patterns.CHANGE.search(norm)
                   and named_topic(pred.memory_type, u.model_text) is None)
    return out
