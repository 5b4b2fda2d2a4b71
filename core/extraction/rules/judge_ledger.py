"""What one message's update judgement has decided so far: the candidates and the memories they touch.

Contract: a ``Ledger`` starts from the candidates refine produced (``Ledger.of``); the judge's stages
(``judge_retract``, ``judge_supersede``) replace ``out`` and add to the key sets as they decide.
``written``: keys an upsert of the message writes; ``deleted``: keys a delete of the message withdraws;
``done``: memories a stage has decided for (never judged again by a later sentence). Invariants: the key
sets only grow; ``out`` keeps the order the stages give it (a retraction goes first). ``type_of`` reads a
stored memory's type as a candidate carries it (an unknown type is a fact).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.extraction.candidates import CandidateOp, ExistingMemory, MemoryCandidate
from core.types import MemoryType


@dataclass
class Ledger:
    """The candidates of one message and the keys the judgement has written, deleted or decided."""

    out: list[MemoryCandidate]
    written: set[str] = field(default_factory=set)
    deleted: set[str] = field(default_factory=set)
    done: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, candidates: list[MemoryCandidate]) -> Ledger:
        """The ledger before any judgement: refine's candidates, their upserts written, deletes deleted."""
        out = list(candidates)
        return cls(out=out, written={c.key for c in out if c.op is not CandidateOp.DELETE},
                   deleted={c.key for c in out if c.op is CandidateOp.DELETE})


def type_of(memory: ExistingMemory) -> MemoryType:
    """``memory``'s type (a fact when the stored type is unknown)."""
    try:
        return MemoryType(memory.memory_type)
    except ValueError:
        return MemoryType.FACT
