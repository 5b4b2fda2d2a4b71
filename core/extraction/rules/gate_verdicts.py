"""The classifier gate's verdict on one rule candidate: kept as it is, dropped, or re-typed and re-keyed.

Contract: ``verdict(cand, pred, vector, keys, filled, opinion)`` is ``None`` (dropped: p(drop) >=
``GATE_DROP``, ``GATE_DROP_SLOT`` under a catalogue slot or a life event's key, ``GATE_DROP_GOAL_SLOT``
(off: the same) under a goal's catalogue slot when the reading is the precision model's, ``opinion``),
``cand`` itself (kept), or a copy of it under the classifier's type and a key of that type (``retyped``).
``gate_upserts`` gives the verdict on every upsert of a burst and, for one dropped on the precision model's
word alone, the verdict the classifier's own reading gives (so that candidate still gives up its
continuation clauses before it goes). Invariants: a catalogue slot keeps its type unless the classifier is
sure it is another of taste, goal and project (``RETYPE_SLOT``) or a family fact tells what the user does
with a relative; a life event is never re-typed; a re-keyed candidate never takes over a single slot the
user already has (``filled``) unless it says a change. Pure: no state but the topic keys' cache.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from core.extraction.candidates import MemoryCandidate
from core.extraction.classifier import Prediction
from core.extraction.rules import lexicon, patterns
from core.extraction.rules.events import is_event_key
from core.extraction.rules.gate_keys import TopicKeys
from core.extraction.rules.gate_units import RESCUE_KEEP
from core.extraction.rules.segment import normalise
from core.extraction.rules.slots import is_known_slot, spec
from core.filters import normalise_key
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType

GATE_DROP = 0.50  # p(drop) at which a rule candidate under a fallback key is removed (drop is the likeliest)
GATE_DROP_SLOT = 0.95  # ... under a catalogue slot (the rules' slot detectors are precise)
GATE_DROP_GOAL_SLOT = GATE_DROP_SLOT  # ... under a goal's catalogue slot ("goal-travel": found by intent
# words, "plan", "going to", "打算", which a plan of the day has too) when the precision model had
# its say (its p(drop), read after the assistant's turn, replaced the classifier's). Measured, off: 0.50 is
# the lowest bar of 0.50-0.95 whose drop precision is >= 0.95 on the goal-typed rows of the precision
# model's held-out split (1.000 at every bar: 46 of 62 drop rows go at 0.50, 29 at 0.95, no kept row;
# ``training.calibrate_precision_drop``, ``goal_slot``), but at 0.50 the guards fell (dev4 and dev6: a
# goal of learning lost, a plan given up stored) and the public store lost 12 good memories for 8 bad
# (``bench/RESULTS.md``, issue 24, session 19, gslot35). The classifier's own reading keeps GATE_DROP_SLOT.
RETYPE = 0.85  # p(type | keep) at which a fallback-keyed candidate changes type
RETYPE_IMPLAUSIBLE = 0.10  # ... or below which the rules' type is implausible (it then takes the likeliest)
RETYPE_SLOT = 0.95  # ... a taste/goal/project catalogue slot the classifier calls another of the three

INTENTS = (MemoryType.PREFERENCE, MemoryType.GOAL, MemoryType.PROJECT)
# the user and a relative together as the subject: what they do together is the user's project or goal
_USER_AND_KIN = re.compile(r"^(?:me (?:and|n|&|an') my|my (?:\w+ ){1,2}and (?:i|me)\b)|"
                           r"^我(?:和|跟|与)我?(?:的)?(?:家人|"
                           + "|".join(lexicon.FAMILY_ZH) + r")(?:一起)?(?:在|正在|打算|准备|想)")


def verdict(cand: MemoryCandidate, pred: Prediction, vector: npt.NDArray[np.float32], keys: TopicKeys,
            filled: frozenset[str] = frozenset(), opinion: bool = False) -> MemoryCandidate | None:
    """``cand`` kept, dropped (``None``) or re-typed on the classifier's reading ``pred`` (module doc);
    ``opinion``: ``pred`` is the precision model's reading."""
    slot = is_known_slot(cand.key) or is_event_key(cand.key)  # a dated life event is kept like a slot
    if pred.probs[0] >= (_slot_bar(cand.key, opinion) if slot else GATE_DROP):
        return None
    memory_type = pred.memory_type
    other = memory_type is not cand.memory_type and {cand.memory_type, memory_type} <= set(INTENTS)
    if slot and other and pred.p_keep >= RESCUE_KEEP and pred.p_type(memory_type) >= RETYPE_SLOT \
            and not is_event_key(cand.key):
        return retyped(cand, memory_type, vector, keys, filled)  # "翻译一本小说，纯属爱好": a project
    if cand.key == "fact-family" and memory_type in (MemoryType.PROJECT, MemoryType.GOAL) \
            and pred.p_keep >= RESCUE_KEEP and pred.p_type(memory_type) >= RETYPE_SLOT \
            and _USER_AND_KIN.search(normalise(cand.content)):
        return retyped(cand, memory_type, vector, keys, filled)  # "me and my dad are rebuilding..."
    if slot or pred.p_keep < 0.5:
        return cand
    made = cand.memory_type is MemoryType.PROJECT and bool(
        patterns.PROJECT_MAKING.search(normalise(cand.content)))
    if memory_type is cand.memory_type or (pred.p_type(memory_type) < RETYPE and (
            made or pred.p_type(cand.memory_type) >= RETYPE_IMPLAUSIBLE)):
        return cand  # (a thing the user is making stays a project unless the classifier is sure)
    return retyped(cand, memory_type, vector, keys, filled)


def _slot_bar(key: str, opinion: bool) -> float:
    """The p(drop) from which a candidate under the catalogue slot or life event ``key`` is dropped."""
    goal = opinion and not is_event_key(key) and is_known_slot(key) and \
        spec(key).memory_type is MemoryType.GOAL
    return GATE_DROP_GOAL_SLOT if goal else GATE_DROP_SLOT


def retyped(cand: MemoryCandidate, memory_type: MemoryType, vector: npt.NDArray[np.float32], keys: TopicKeys,
            filled: frozenset[str] = frozenset()) -> MemoryCandidate:
    """``cand`` under the classifier's type and a key of it: like a rescue's (``gate_rescue.rescue``), a guess
    that never takes over a single slot the user already has ("I work on a lot of different projects,
    ..." after "I'm an environmentalist") unless it says a change."""
    key = normalise_key(keys.key(memory_type, cand.content, vector))
    if key in filled and spec(key).single and not patterns.CHANGE.search(normalise(cand.content)):
        key = f"{memory_type.value}-personal"
    target = spec(key)
    return cand.model_copy(update={"key": key, "memory_type": target.memory_type,
                                   "importance": target.importance, "ttl_days": target.ttl_days})


def gate_upserts(upserts: list[MemoryCandidate], predictions: list[Prediction], alone: list[Prediction],
                 vectors: npt.NDArray[np.float32], keys: TopicKeys, filled: frozenset[str] = frozenset(),
                 ) -> tuple[dict[int, MemoryCandidate | None], dict[int, MemoryCandidate]]:
    """The verdict on each upsert (by ``id``) on its reading ``predictions``, and, for one dropped where the
    classifier's reading ``alone`` (a different object: the precision model had its say) keeps it, that
    verdict (the vetoed)."""
    gated: dict[int, MemoryCandidate | None] = {}
    vetoed: dict[int, MemoryCandidate] = {}  # dropped on the precision model's word alone
    for i, (cand, pred) in enumerate(zip(upserts, predictions, strict=True)):
        gated[id(cand)] = verdict(cand, pred, vectors[i], keys, filled, opinion=pred is not alone[i])
        if gated[id(cand)] is None and pred is not alone[i]:
            kept_alone = verdict(cand, alone[i], vectors[i], keys, filled)
            if kept_alone is not None:
                vetoed[id(cand)] = kept_alone
    return gated, vetoed
