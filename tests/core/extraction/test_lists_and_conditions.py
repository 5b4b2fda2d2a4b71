"""Long messages of many facts, standing rules with their condition, and claims about the user the user
did not make (issue 24, session 11, ``h-multi24``): a list of subjectless facts is read clause by clause
with the user as the elided subject; a condition ("when you …", "…的时候") is read with the instruction
after it and a standing rule is kept whole; a topic shift ("btw", "对了") starts a new block after a
time-bound clause; a space between two Chinese characters is a pause; someone else's view of the user
("people think i'm …", "我妈总说我…") and a plan not carried out ("…就没去") are not the user's.
Sentences written for this test (none from an evaluation set); run through the classifier-gated extractor."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ExtractionInput, MemoryCandidate
from core.extraction.classifier import LABELS, Prediction
from core.extraction.rules import RulesExtractor
from core.extraction.rules.gate_rescue import _pieces
from core.extraction.rules.gate_units import Unit, chosen_units, with_user_subject
from core.extraction.rules.others import without_denials
from core.extraction.rules.segment import split_clauses
from core.types import MemoryType


def _stored(ex: RulesExtractor, text: str) -> list[MemoryCandidate]:
    data = ExtractionInput(user_message=text)
    return [c for c in ex.refine(data, ex.extract(data)) if c.op is CandidateOp.UPSERT]


def _by_type(cands: list[MemoryCandidate], memory_type: MemoryType) -> str:
    return " | ".join(c.content for c in cands if c.memory_type is memory_type).lower()


def test_a_list_of_subjectless_facts_keeps_the_job_and_the_hobby_apart(ex: RulesExtractor) -> None:
    stored = _stored(ex, "quick rundown: 52, widowed, one grown daughter, i run a bakery outside leeds, "
                         "bad knee from rugby days, into birdwatching big time, "
                         "and saving up for a campervan")
    facts, tastes = _by_type(stored, MemoryType.FACT), _by_type(stored, MemoryType.PREFERENCE)
    assert "bakery" in facts and "birdwatching" in tastes and "bakery" not in tastes, stored


def test_a_subjectless_clause_is_read_with_the_user_as_subject() -> None:
    clause = split_clauses("38, pharmacist in leeds, 喜欢下围棋")
    assert with_user_subject(clause[1], clause[1].text) == "i'm pharmacist in leeds"
    assert with_user_subject(clause[2], clause[2].text) == "我喜欢下围棋"
    own = split_clauses("i fix bikes, my wife paints")
    assert with_user_subject(own[0], own[0].text) is None  # its own subject
    assert with_user_subject(own[1], own[1].text) is None  # someone else's


def test_a_condition_is_read_with_the_instruction_after_it() -> None:
    run = split_clauses("when you draft emails for me, sign them with just my initials, thanks")
    assert [[c.index for c in piece] for piece in _pieces(run)] == [[0, 1], [2]]
    zh = split_clauses("你帮我订机票的时候，优先选靠窗的位置")
    assert [[c.index for c in piece] for piece in _pieces(zh)] == [[0, 1]]


def test_a_standing_rule_buried_after_a_mood_of_the_day_is_kept_whole(ex: RulesExtractor) -> None:
    stored = _stored(ex, "long day at work today 😵 btw when u explain code to me use python examples, "
                         "i never learned java. anyway what's a monad")
    rules = _by_type(stored, MemoryType.CONSTRAINT)
    assert "python examples" in rules and "monad" not in rules and "long day" not in rules, stored


def test_a_first_person_statement_is_no_rule_for_its_topic_alone(ex: RulesExtractor) -> None:
    stored = _stored(ex, "i never learned java, only some c at school")
    assert not _by_type(stored, MemoryType.CONSTRAINT), stored


def test_a_condition_and_its_instruction_become_one_rule(ex: RulesExtractor) -> None:
    stored = _stored(ex, "last thing: when you talk me through tax stuff, skip the 'ask an accountant' bit, "
                         "i'm a bookkeeper myself")
    rules = _by_type(stored, MemoryType.CONSTRAINT)
    assert "accountant" in rules and "tax" in rules, stored


def _pred(memory_type: MemoryType, keep: float) -> Prediction:
    return Prediction(tuple(1.0 - keep if label == "drop" else keep if label == memory_type.value else 0.0
                            for label in LABELS))


def test_a_whole_rule_is_chosen_over_a_passing_fact_clause_of_it() -> None:
    units = [Unit("when u reply keep it short, i read on my phone", 0, run=3, whole=True),
             Unit("i read on my phone", 0, run=3, whole=False)]
    preds = [_pred(MemoryType.CONSTRAINT, 0.99), _pred(MemoryType.FACT, 0.95)]
    assert chosen_units(units, preds) == {0}
    preds = [_pred(MemoryType.FACT, 0.99), _pred(MemoryType.FACT, 0.95)]
    assert chosen_units(units, preds) == {1}  # not a rule: the clause that passes alone, as before


def test_a_space_between_chinese_characters_is_a_pause() -> None:
    assert [c.text for c in split_clauses("我不是厨师 我在菜市场卖菜")] == ["我不是厨师", "我在菜市场卖菜"]
    assert [c.text for c in split_clauses("I use VS Code 写代码")] == ["I use VS Code 写代码"]


@pytest.mark.parametrize(("piece", "left"), [
    ("everyone thinks i'm a nurse because of the scrubs, nope, i'm a vet tech", "i'm a vet tech"),
    ("my mum keeps telling me i should be a lawyer", ""),
    ("大家都以为我是北方人，我其实是福建的", "我其实是福建的"),
    ("哈哈我不是厨师 我在菜市场卖菜", "我在菜市场卖菜"),
])
def test_someone_elses_view_of_the_user_is_cut(piece: str, left: str) -> None:
    assert without_denials(piece) == left


@pytest.mark.parametrize(("text", "absent"), [
    ("本来想去考个潜水证，结果工作太忙就没去", "潜水"),
    ("was planning to get a road bike this summer, never did", "road bike"),
])
def test_a_plan_not_carried_out_stores_nothing(ex: RulesExtractor, text: str, absent: str) -> None:
    assert absent not in " ".join(c.content.lower() for c in _stored(ex, text))


def test_a_spaced_hyphen_is_a_dash_between_clauses() -> None:
    assert [c.text for c in split_clauses("i mostly cook at home - i'm a chef in kent")] == [
        "i mostly cook at home", "i'm a chef in kent"]
    assert len(split_clauses("a well-known spot, a 9-5 job")) == 2


def test_someone_elses_statement_is_no_rule_for_its_topic(ex: RulesExtractor) -> None:
    stored = _stored(ex, "my flatmate is never in, which suits me - i'm a german teacher working from home")
    assert not _by_type(stored, MemoryType.CONSTRAINT), stored
    assert "german teacher" in _by_type(stored, MemoryType.FACT), stored


def _answer(ex: RulesExtractor, question: str, reply: str) -> list[MemoryCandidate]:
    from core.extraction.candidates import ContextMessage

    data = ExtractionInput(user_message=reply, context=(ContextMessage(role="assistant", content=question),))
    return [c for c in ex.refine(data, ex.extract(data)) if c.op is CandidateOp.UPSERT]


@pytest.mark.parametrize(("question", "reply", "place"), [
    ("Oh nice, where do you work?", "dundee", "dundee"),
    ("Great! Where do you teach?", "winnipeg. also i keep bees, two hives in the garden", "winnipeg"),
    ("你在哪个城市上班呀？", "佛山", "佛山"),
])
def test_a_place_answering_a_where_question_is_the_users(ex: RulesExtractor, question: str, reply: str,
                                                          place: str) -> None:
    assert place in _by_type(_answer(ex, question, reply), MemoryType.FACT)
