"""The learned referent chooser (issue 24, ``core.extraction.rules.referent_choice``): among the earlier
sentences of the message and the user's previous turn, the one that names what a leaning statement is
about, or none; off by default, switched on per extractor. Sentences written for this test (none from the
training rows or an evaluation set)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.extraction.candidates import CandidateOp, ExtractionInput, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor
from core.extraction.rules.referent import sentences_before
from core.extraction.rules.referent_choice import (
    CHOOSER_PATH,
    REFERENT_MODEL_ON,
    Keep,
    ReferentChooserError,
    referent_by_model,
    shipped_referent_chooser,
)


@pytest.fixture(scope="module")
def classifier() -> MemoryClassifier:
    return MemoryClassifier()


def _keep(classifier: MemoryClassifier) -> Keep:
    return lambda texts: [p.p_keep for p in classifier.predict(texts)]


def _chosen(classifier: MemoryClassifier, statement: str, message: str) -> str | None:
    chooser = shipped_referent_chooser()
    return referent_by_model(chooser, classifier.embed, _keep(classifier), statement, message, None)


def test_the_candidates_are_the_earlier_sentences_nearest_first_questions_included() -> None:
    message = "I got a banjo. Is that weird? I play it daily."
    assert sentences_before("I play it daily.", message) == ["Is that weird?", "I got a banjo."]
    assert sentences_before("I got a banjo.", message) == []


@pytest.mark.parametrize(("message", "statement", "thing"), [
    ("I bought a secondhand banjo in May. the weather here is awful. I practise on it every evening.",
     "I practise on it every evening.", "banjo"),
    ("我去年买了一台缝纫机。今天下雨了。我每周末都用它做衣服。", "我每周末都用它做衣服。", "缝纫机"),
])
def test_the_sentence_naming_the_thing_wins_over_a_nearer_one_about_the_day(
        classifier: MemoryClassifier, message: str, statement: str, thing: str) -> None:
    named = _chosen(classifier, statement, message)
    assert named is not None and thing in named


@pytest.mark.parametrize(("message", "statement"), [
    ("thank you so much!! I adore them", "I adore them"),
    ("晚上好呀。我超喜欢它们", "我超喜欢它们"),
])
def test_nothing_near_names_a_thing_gives_none(classifier: MemoryClassifier, message: str,
                                               statement: str) -> None:
    assert _chosen(classifier, statement, message) is None


def test_the_switch_is_off_by_default_and_on_per_extractor(classifier: MemoryClassifier) -> None:
    assert REFERENT_MODEL_ON is False
    data = ExtractionInput("I bought a secondhand banjo in May. the weather here is awful. "
                           "I practise on it every evening.")

    def stored(ex: RulesExtractor) -> list[MemoryCandidate]:
        return [c for c in ex.refine(data, ex.extract(data)) if c.op is CandidateOp.UPSERT]

    on = RulesExtractor(classifier, referent_model=True)
    learned = [c for c in stored(on) if "practise on it" in c.content]
    assert learned and all("banjo" in c.content for c in learned)


def test_weights_of_other_features_are_refused(tmp_path: Path) -> None:
    data = json.loads(CHOOSER_PATH.read_text(encoding="utf-8"))
    data["features"] = ["cosine"]
    path = tmp_path / "chooser.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    from core.extraction.rules.referent_choice import ReferentChooser

    with pytest.raises(ReferentChooserError):
        ReferentChooser.load(path)
