"""``core.extraction.rules.judge_pairs`` and ``judge_ledger``: the relation read from the pair model's
probabilities, and the ledger a message's judgement starts from. No model: the probabilities are given
(the pairing through the provider: ``test_update_judge.py``). Sentences written for these tests."""

from __future__ import annotations

import numpy as np

from core.extraction.candidates import CandidateOp, MemoryCandidate
from core.extraction.pairs import RELATIONS
from core.extraction.rules.judge_ledger import Ledger
from core.extraction.rules.judge_pairs import reading
from core.types import MemoryType


def _probs(*rows: dict[str, float]) -> np.ndarray:
    return np.array([[row.get(r, 0.0) for r in RELATIONS] for row in rows])


def test_the_surest_pair_of_a_relation_other_than_unrelated() -> None:
    probs = _probs({"unrelated": 0.9, "refine": 0.1}, {"supersede": 0.7, "refine": 0.3})
    assert reading(probs, "i drink tea now", intent=False) == (1, "supersede", 0.7)


def test_a_correction_reads_supersede_and_refine_together() -> None:
    probs = _probs({"supersede": 0.45, "refine": 0.5, "unrelated": 0.05})
    best, relation, p = reading(probs, "lisbon PORTUGAL, not texas", intent=False)
    assert (best, relation) == (0, "supersede") and abs(p - 0.95) < 1e-9
    assert reading(probs, "lisbon is lovely in spring", intent=False)[1] == "refine"


def test_the_old_values_end_and_a_new_value_read_supersede_and_retract_together() -> None:
    probs = _probs({"supersede": 0.6, "retract": 0.35, "unrelated": 0.05})
    best, relation, p = reading(probs, "学不下去了，现在改学韩语", intent=False)
    assert (best, relation) == (0, "supersede") and abs(p - 0.95) < 1e-9


def test_the_ledger_starts_from_refines_candidates() -> None:
    def cand(op: CandidateOp, key: str) -> MemoryCandidate:
        return MemoryCandidate(op=op, memory_type=MemoryType.FACT, key=key, content="i live in lisbon",
                               importance=3, confidence=0.9)

    given = [cand(CandidateOp.UPSERT, "fact-home_city"), cand(CandidateOp.DELETE, "fact-job")]
    ledger = Ledger.of(given)
    assert ledger.out == given and ledger.out is not given
    assert (ledger.written, ledger.deleted, ledger.done) == ({"fact-home_city"}, {"fact-job"}, set())


def test_a_change_the_update_intent_model_reads_takes_supersede_and_retract_together() -> None:
    # no strong change word marks the new value: the words alone leave the supersede under the bar
    probs = _probs({"supersede": 0.6, "retract": 0.35, "unrelated": 0.05})
    sentence = "the lease ran out, found a flat by the river"
    assert reading(probs, sentence, intent=False) == (0, "supersede", 0.6)
    best, relation, p = reading(probs, sentence, intent=False, reads_change=True)
    assert (best, relation) == (0, "supersede") and abs(p - 0.95) < 1e-9
