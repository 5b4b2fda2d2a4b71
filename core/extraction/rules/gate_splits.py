"""The classifier gate's splits: a continuation clause of a rule group that is a memory of its own leaves
the group (one memory, one thing).

Contract: ``apply_splits`` reads each split point (``gate_units.split_points``) of a kept group with the
classifier and, where ``leaves_group`` says it leaves (p(keep) >= ``SPLIT_KEEP`` and another type or topic,
or a relative's or friend's statement), makes the clauses from it up to the next cut a memory of their own (a
rescue's key, or the relationship fact) and cuts the group's content before the first cut. Invariants: the
classifier alone decides (never the precision model); a cut never takes a key the burst took nor a catch-all
key of its group's type; a group with no cut keeps its content; a list item (no subject of its own) leaves a
group of tastes, goals or projects only as a goal. Pure but for the topic keys' cache; ``out`` and ``meta``
are updated in place.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from core.extraction.candidates import CandidateOp, MemoryCandidate
from core.extraction.classifier import Prediction
from core.extraction.rules import patterns
from core.extraction.rules.analysis import Analysis
from core.extraction.rules.gate_keys import TopicKeys, catch_all
from core.extraction.rules.gate_rescue import RESCUE_TYPE, rescue
from core.extraction.rules.gate_units import Split, Unit, relationship_fact
from core.extraction.rules.refine import CandidateMeta
from core.extraction.rules.segment import join_clauses, normalise
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType

SPLIT_KEEP = 0.90  # p(keep) at which a continuation clause of another type leaves its group ...
SPLIT_TYPE = 0.80  # ... with p(type | keep) of its own type at least this
SPLIT_TYPE_OWN = RESCUE_TYPE  # ... when the clause is a statement of its own ("…, my real passion is …")
SPLIT_OTHER = 0.20  # ... or, a statement of its own, with p(its group's type | keep) at most this,
# whichever of the other types it is ("回家还得遛我家的萨摩耶，不过我最近在学画油画": a taste or a
# project, not the dog)
TASTE_OF_ITS_OWN = True  # multi46: a taste of another topic, "I" elided, leaves a group of tastes
_CONTRAST = re.compile(r"^(?:but|though|although|however|yet|still)\b|^(?:不过|但是?|可是|只是|然而)")


def apply_splits(out: list[MemoryCandidate], splits: list[Split], predictions: list[Prediction],
                 vectors: npt.NDArray[np.float32], meta: dict[str, CandidateMeta], analysis: Analysis,
                 keys: TopicKeys, filled: frozenset[str] = frozenset()) -> list[MemoryCandidate]:
    """Cut the continuation clauses of a group that are memories of their own out of it: one memory, one
    thing. A clause is cut (``leaves_group``) when the classifier keeps it and types it otherwise than its
    group, or, said as a statement of its own (its own subject, a list item), as a fact of another topic
    ("i'm a bus driver in bristol, my knees are shot from years of football": the job and the knee), or
    when it is a relative's or friend's statement (a fact about the user's relationships). Each cut takes
    the clauses up to the next cut; what is left before the first cut stays the group's memory."""
    by_key: dict[str, list[tuple[Split, Prediction, npt.NDArray[np.float32]]]] = {}
    for sp, pred, vector in zip(splits, predictions, vectors, strict=True):
        by_key.setdefault(sp.key, []).append((sp, pred, vector))
    zh = analysis.lang_zh
    for key, cuts in by_key.items():
        at = next((i for i, c in enumerate(out) if c.key == key and c.op is CandidateOp.UPSERT), None)
        if at is None:
            continue
        end = len(cuts[0][0].clauses)  # the first clause of the last cut made
        for sp, pred, vector in sorted(cuts, key=lambda cut: -cut[0].pos):  # the last cut first
            if not leaves_group(sp, pred, out[at].memory_type):
                continue
            tail = join_clauses(analysis.message, list(sp.clauses[sp.pos:end]), zh)
            taken = {c.key for c in out}
            new: MemoryCandidate | None
            if sp.owner is not None:
                unit = Unit(tail, sp.sentence, sp.owner)
                new = None if sp.owner in taken else relationship_fact(unit, pred)
            else:
                changes = patterns.CHANGE.search(normalise(tail))
                new = rescue(Unit(tail, sp.sentence), pred, taken, vector, keys,
                             frozenset() if changes else filled)
            if new is None or new.key in taken or (catch_all(new.key) and (
                    new.memory_type is out[at].memory_type or pred.p_type(new.memory_type) < SPLIT_TYPE)):
                continue
            end = sp.pos
            out.append(new)
            meta.setdefault(new.key, CandidateMeta(changed=sp.sentence in analysis.change_sentences))
        group = list(cuts[0][0].clauses)
        if end < len(group):
            head = join_clauses(analysis.message, group[:end], zh)
            out[at] = out[at].model_copy(update={"content": head})
    return out


def leaves_group(sp: Split, pred: Prediction, group_type: MemoryType) -> bool:
    """The classifier's reading of a continuation clause says it leaves its group (``apply_splits``)."""
    if pred.p_keep < SPLIT_KEEP:
        return False
    if sp.owner is not None:
        return True
    memory_type = pred.memory_type
    if not sp.own and group_type is not MemoryType.FACT and memory_type is not MemoryType.GOAL:
        return False  # an item of a list of tastes ("…, military history research, and rock climbing")
    if memory_type is not group_type:
        if sp.own and pred.p_type(group_type) <= SPLIT_OTHER:
            return True  # a statement of its own the classifier is sure is not of its group's kind
        # a job told with its company is no project, a feeling after "but" is the same topic's: the
        # lower bar is for a taste, a goal or a fact told as a statement of its own
        own = sp.own and memory_type is not MemoryType.PROJECT and not _CONTRAST.search(sp.lead)
        return pred.p_type(memory_type) >= (SPLIT_TYPE_OWN if own else SPLIT_TYPE)
    if memory_type is MemoryType.PREFERENCE and sp.elided and TASTE_OF_ITS_OWN:
        # a detector's taste told with "I" elided in a group of tastes (``Split.elided``): cut when its key
        # is a topic of its own (``apply_splits`` refuses its group's key, a taken one and a catch-all):
        # "pescatarian since 2015, play drums in a ska band on weekends" is the diet and the music. Any
        # statement of its own (its own "I") was measured worse on MemoryBank: "As for writing, I like to
        # create poems …" lost its statement to a fragment "As for writing"
        return pred.p_type(memory_type) >= SPLIT_TYPE_OWN
    # a fact of its own: cut when its key (``gate_rescue.rescue``) is a topic of its own, not its group's
    # nor another taken one, nor a catch-all (``apply_splits``: "养了一只 husky 叫 Luna" leaves the job;
    # "mango and kiwi", the cats' names, stays with the cats, "and i earn about 60k" with the job)
    return memory_type is MemoryType.FACT and pred.p_type(memory_type) >= (
        SPLIT_TYPE_OWN if sp.own else SPLIT_TYPE)
