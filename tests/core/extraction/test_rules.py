"""Behaviour of the offline rules extractor (Chinese and English), through its public interface.

``converse`` plays a conversation the way the pipeline does: each user turn is extracted with the
earlier turns as context and the memories so far as ``existing``, refined, then applied (upsert
by key, delete deactivates, confidence floor 0.75, hard filters).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.extraction.candidates import (
    CandidateExtractor,
    CandidateOp,
    ContextMessage,
    ExistingMemory,
    ExtractionInput,
    MemoryCandidate,
)
from core.extraction.rules import RulesExtractor
from core.filters import normalise_key, passes_read_filters
from core.types import MemoryType

MIN_CONFIDENCE = 0.75


@dataclass
class Stored:
    memory_type: str
    content: str


def converse(*turns: tuple[str, str], existing: dict[str, Stored] | None = None) -> dict[str, Stored]:
    """Run ``turns`` (role, text) through extract + refine + apply; returns live memories by key."""
    extractor = RulesExtractor()
    memories: dict[str, Stored] = dict(existing or {})
    for i, (role, text) in enumerate(turns):
        if role != "user":
            continue
        data = ExtractionInput(
            user_message=text,
            context=tuple(ContextMessage(r, t) for r, t in turns[:i]),
            existing=tuple(ExistingMemory(k, m.memory_type, m.content) for k, m in memories.items()),
        )
        for cand in extractor.refine(data, extractor.extract(data)):
            if cand.op is CandidateOp.DELETE:
                memories.pop(cand.key, None)
            elif cand.confidence >= MIN_CONFIDENCE and passes_read_filters(cand.key, cand.content):
                memories[cand.key] = Stored(cand.memory_type.value, cand.content)
    return memories


def say(text: str) -> dict[str, Stored]:
    return converse(("user", text))


def of_type(memories: dict[str, Stored], memory_type: str) -> list[str]:
    return [f"{k} {m.content}" for k, m in memories.items() if m.memory_type == memory_type]


def has(memories: dict[str, Stored], memory_type: str, *terms: str) -> bool:
    return any(any(t.lower() in text.lower() for t in terms) for text in of_type(memories, memory_type))


def mentions(memories: dict[str, Stored], term: str) -> bool:
    return any(term.lower() in f"{k} {m.content}".lower() for k, m in memories.items())


def test_it_is_a_candidate_extractor() -> None:
    extractor: CandidateExtractor = RulesExtractor()
    assert extractor.name == "rules"


# --- what is kept --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "memory_type", "terms"),
    [
        ("我超级喜欢吃螺蛳粉，一周能吃三次", "preference", ["螺蛳粉"]),
        ("我不吃羊肉，膻味受不了", "preference", ["羊肉"]),
        ("我一般早上六点起来去公园晨跑", "preference", ["晨跑"]),
        ("I'm obsessed with Korean BBQ, could eat it every week", "preference", ["Korean BBQ"]),
        ("honestly I can't stand country music", "preference", ["country music"]),
        ("I usually do yoga before bed, helps me sleep", "preference", ["yoga"]),
        ("我住在青岛，离海边走路十分钟", "fact", ["青岛"]),
        ("I live in Edinburgh with my partner", "fact", ["Edinburgh"]),
        ("我是一名儿科护士，在妇幼医院上班", "fact", ["护士"]),
        ("I'm a structural engineer at a small firm", "fact", ["structural engineer"]),
        ("我对海鲜过敏，吃虾会起疹子", "fact", ["海鲜"]),
        ("I'm allergic to cats, sadly", "fact", ["cats"]),
        ("我家有只泰迪叫豆豆，十岁了", "fact", ["泰迪", "豆豆"]),
        ("my daughter just started kindergarten", "fact", ["daughter", "kindergarten"]),
        ("我的目标是年底前把日语考到N2", "goal", ["N2", "日语"]),
        ("I'm training for my first half marathon next spring", "goal", ["half marathon"]),
        ("我在维护一个开源的 Markdown 编辑器，叫 inkpad", "project", ["inkpad"]),
        ("I'm building a recipe app called Crumbs with two friends", "project", ["Crumbs"]),
        ("以后解释概念的时候多举生活里的例子", "constraint", ["例子"]),
        ("from now on, always answer me in Spanish", "constraint", ["Spanish"]),
    ],
)
def test_stable_statements_become_memories(text: str, memory_type: str, terms: list[str]) -> None:
    memories = say(text)
    assert has(memories, memory_type, *terms), memories


def test_content_keeps_the_users_own_words() -> None:
    memories = say("我特别爱喝冰美式，一天两杯，不加糖")
    content = " ".join(m.content for m in memories.values())
    assert "冰美式" in content and "不加糖" in content


def test_several_facts_in_one_message_become_separate_memories() -> None:
    memories = say("简单介绍下：我在南京做建筑设计，养了一只布偶猫，平时特别喜欢爬山。")
    assert has(memories, "fact", "南京")
    assert has(memories, "fact", "建筑设计")
    assert has(memories, "fact", "布偶")
    assert has(memories, "preference", "爬山")
    assert len({k for k in memories}) == len(memories) >= 4


# --- what is dropped -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "明天早上八点提醒我去取快递",
        "今晚帮我订个七点的餐厅",
        "这周五之前要把报告交了，提醒我一下",
        "remind me to water the plants tomorrow",
        "set a 10 minute timer for the rice",
        "I need to finish the slides by 5pm today",
        "广州今天多少度？要带伞吗",
        "what's the forecast for Denver this weekend?",
        "帮我算一下这个月的开销：房租3000，吃饭1500，交通400",
        "recap of my week: 4 meetings, 2 deploys, spent $120 on lunch",
        "你现在都有哪些工具可以用",
        "把流式输出打开吧",
        "你用的是什么模型？temperature 是多少",
        "以后你就叫你小蓝吧",
        "叫我阿杰就好",
        "回复的时候记得加个😄",
        "call me Sam from now on",
        "我的城市是 12345",
        "如果我搬去伦敦，你觉得生活成本怎么样",
        "what if I quit my job and travel for a year?",
        "明后天要是降温就提醒我穿秋裤",
        "这次帮我用英文写邮件",
    ],
)
def test_short_lived_or_internal_things_are_not_memories(text: str) -> None:
    assert say(text) == {}


def test_todo_next_to_a_fact_keeps_only_the_fact() -> None:
    memories = say("我在武汉做产品经理。明天上午十点要开评审会，帮我列一下要讲的点")
    assert has(memories, "fact", "武汉")
    assert has(memories, "fact", "产品经理")
    for term in ("评审会", "明天", "十点"):
        assert not mentions(memories, term)


def test_weather_chatter_next_to_a_goal_keeps_only_the_goal() -> None:
    memories = say("今天这边32度，闷得要死。对了我打算明年考研，目标是浙大")
    assert has(memories, "goal", "考研")
    assert not mentions(memories, "32度")


def test_long_term_conditional_rule_is_a_constraint_but_short_window_rule_is_not() -> None:
    assert has(say("以后遇到下雪天就提醒我开车慢点"), "constraint", "下雪")
    assert has(say("whenever it's below freezing, remind me to cover the tomato plants"), "constraint",
               "freezing")
    assert say("这两天要是下雪就提醒我开车慢点") == {}
    assert say("if it snows tomorrow remind me to salt the driveway") == {}


def test_assistant_replies_are_never_a_source_of_facts() -> None:
    memories = converse(
        ("user", "推荐几部周末看的电影"),
        ("assistant", "你在上海做律师，平时压力大，可以看点轻松的喜剧。"),
        ("user", "我比较喜欢悬疑片，越烧脑越好"),
    )
    assert has(memories, "preference", "悬疑")
    for term in ("上海", "律师"):
        assert not mentions(memories, term)


def test_questions_and_chitchat_are_not_memories() -> None:
    assert converse(("user", "你觉得川菜和湘菜哪个更辣？"), ("assistant", "湘菜偏香辣……"),
                    ("user", "哈哈好吧，长知识了")) == {}
    assert say("lol that's hilarious, thanks") == {}


def test_facts_about_other_people_are_not_the_users() -> None:
    memories = say("我同事住在苏州，每天通勤两个小时")
    assert not has(memories, "fact", "苏州")
    memories = say("my roommate is a nurse and works nights")
    assert not has(memories, "fact", "nurse")


@pytest.mark.parametrize("text", ["Tom is allergic to peanuts.", "Anna lives in Paris.",
                                  "Peter is vegetarian.", "Anna moved to Tokyo.",
                                  "Mary Jones works as a nurse."])
def test_a_named_person_as_the_subject_is_not_the_user(text: str) -> None:
    assert say(text) == {}


@pytest.mark.parametrize(("text", "memory_type", "term"), [
    ("Mandarin is my native language.", "fact", "mandarin"),
    ("Allergic to shellfish.", "fact", "shellfish"),
])
def test_a_capitalised_first_word_does_not_hide_the_users_own_fact(text: str, memory_type: str,
                                                                   term: str) -> None:
    assert has(say(text), memory_type, term)


# --- updates, retraction, forgetting --------------------------------------------------------------
def test_moving_city_updates_the_same_key() -> None:
    first = say("我住在武汉")
    (key,) = [k for k in first if first[k].memory_type == "fact"]
    memories = converse(("user", "我住在武汉"), ("assistant", "好的"),
                        ("user", "跟你说下，我上个月搬到大连了"))
    assert key in memories and "大连" in memories[key].content
    assert not mentions(memories, "武汉")


def test_english_city_update_uses_the_same_key() -> None:
    memories = converse(("user", "I live in Portland"), ("assistant", "Nice!"),
                        ("user", "quick update: I moved to Minneapolis in March"))
    assert has(memories, "fact", "Minneapolis")
    assert not mentions(memories, "Portland")


def test_job_change_overwrites_the_job() -> None:
    memories = converse(("user", "I'm a barista at a coffee chain"), ("assistant", "Cool"),
                        ("user", "update: I quit, I'm now a junior web developer at an agency"))
    assert has(memories, "fact", "web developer")
    assert not mentions(memories, "barista")


def test_changed_preference_replaces_the_old_value() -> None:
    memories = converse(("user", "我喝咖啡一定要加很多糖"), ("assistant", "好的"),
                        ("user", "现在改了，不加糖了，改喝黑咖啡"))
    assert has(memories, "preference", "黑咖啡")
    assert not mentions(memories, "很多糖")


def test_new_detail_merges_into_a_multi_valued_slot() -> None:
    memories = converse(("user", "I love Vietnamese food"), ("assistant", "Pho is great"),
                        ("user", "I also really like Ethiopian food"))
    prefs = of_type(memories, "preference")
    assert len(prefs) == 1
    assert "Vietnamese" in prefs[0] and "Ethiopian" in prefs[0]


def test_single_valued_constraint_is_overwritten() -> None:
    memories = converse(("user", "以后回答控制在500字以内"), ("assistant", "好"),
                        ("user", "以后改成200字以内吧"))
    assert has(memories, "constraint", "200")
    assert not mentions(memories, "500")


def test_retraction_produces_a_delete_on_the_same_key() -> None:
    extractor = RulesExtractor()
    first = extractor.extract(ExtractionInput("I'm vegan, have been for two years"))
    (diet,) = [c for c in first if c.op is CandidateOp.UPSERT]
    existing = (ExistingMemory(diet.key, diet.memory_type.value, diet.content),)
    data = ExtractionInput("actually I'm not vegan anymore", existing=existing)
    refined = extractor.refine(data, extractor.extract(data))
    assert [(c.op, c.key) for c in refined] == [(CandidateOp.DELETE, diet.key)]


@pytest.mark.parametrize(
    ("turns", "gone", "kept"),
    [
        ((("user", "我在学萨克斯"), ("assistant", "好"), ("user", "我对猫毛过敏"), ("assistant", "了解"),
          ("user", "萨克斯那件事别记了")), "萨克斯", "猫毛"),
        ((("user", "I'm a huge fan of the Lakers"), ("assistant", "Go Lakers"),
          ("user", "I'm allergic to shellfish"), ("assistant", "Noted"),
          ("user", "please forget the Lakers thing")), "Lakers", "shellfish"),
    ],
)
def test_forget_request_deletes_the_matching_memory(turns: tuple[tuple[str, str], ...], gone: str,
                                                    kept: str) -> None:
    memories = converse(*turns)
    assert not mentions(memories, gone)
    assert mentions(memories, kept)


def test_short_answer_to_the_assistants_question_is_read_with_the_question() -> None:
    memories = converse(("user", "I'm really into puzzles"), ("assistant", "Nice! Favorite puzzle game?"),
                        ("user", "Baba Is You"))
    assert has(memories, "preference", "Baba Is You")
    memories = converse(("user", "以后的回复"), ("assistant", "好的，所以以后你都希望我用繁体字回复你吗？"),
                        ("user", "对"))
    assert has(memories, "constraint", "繁体")


def test_a_bare_yes_to_an_offer_is_not_a_memory() -> None:
    assert converse(("user", "I need to plan meals"), ("assistant", "Want me to build a shopping list too?"),
                    ("user", "yes")) == {}
    assert converse(("user", "帮我看看"), ("assistant", "要我明天早上提醒你吗？"), ("user", "对")) == {}


# --- refine against existing memories -------------------------------------------------------------
def test_refine_drops_what_is_already_known() -> None:
    extractor = RulesExtractor()
    existing = (ExistingMemory("fact-allergy", "fact", "我对花生过敏，吃一点就喘不上气"),)
    data = ExtractionInput("我对花生过敏", existing=existing)
    assert extractor.refine(data, extractor.extract(data)) == []


def test_refine_reuses_another_providers_key_for_the_same_slot() -> None:
    extractor = RulesExtractor()
    existing = (ExistingMemory("fact-location", "fact", "Lives in Austin"),)
    data = ExtractionInput("I moved to Boise last year", existing=existing)
    refined = extractor.refine(data, extractor.extract(data))
    assert [c.key for c in refined] == ["fact-location"]
    assert "Boise" in refined[0].content


def test_refine_never_moves_one_known_slot_into_another() -> None:
    extractor = RulesExtractor()
    existing = (ExistingMemory("fact-work_history", "fact", "之前在银行做了五年柜员"),
                ExistingMemory("constraint-reply_length", "constraint", "以后回答尽量控制在三段以内"))
    data = ExtractionInput("我现在是一名保险销售。以后回答尽量用繁体中文", existing=existing)
    keys = {c.key for c in extractor.refine(data, extractor.extract(data))}
    assert keys == {"fact-job", "constraint-language"}


def test_refine_is_deterministic() -> None:
    extractor = RulesExtractor()
    existing = (ExistingMemory("preference-food", "preference", "爱吃火锅"),)
    data = ExtractionInput("我也很喜欢吃烤鱼，越辣越好", existing=existing)
    once = extractor.refine(data, extractor.extract(data))
    twice = extractor.refine(data, extractor.extract(data))
    assert once == twice
    assert once[0].key == "preference-food" and "火锅" in once[0].content and "烤鱼" in once[0].content


# --- candidate shape ------------------------------------------------------------------------------
VALID_KEY = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


@pytest.mark.parametrize(
    "text",
    [
        "我在厦门一家外企做HR，养了只柯基，周末喜欢去海边骑行，目标是明年考下二级人力资源证书",
        "I'm a pharmacist in Leeds, I run a tiny podcast called Pill Talk, and I hate olives",
        "以后代码示例都用 TypeScript，注释写中文",
    ],
)
def test_candidates_are_well_formed(text: str) -> None:
    candidates = RulesExtractor().extract(ExtractionInput(text))
    assert candidates
    for cand in candidates:
        assert isinstance(cand, MemoryCandidate)
        assert VALID_KEY.match(cand.key) and normalise_key(cand.key) == cand.key
        assert cand.key.split("-")[0] == cand.memory_type.value
        assert cand.memory_type in set(MemoryType)
        assert 1 <= cand.importance <= 5 and 0.0 <= cand.confidence <= 1.0
        assert cand.content.strip()
    assert len({c.key for c in candidates}) == len(candidates)


def test_chinese_project_name_gets_a_stable_ascii_key() -> None:
    a = RulesExtractor().extract(ExtractionInput("我在做一个记录读书笔记的小程序，名字叫「书影」"))
    b = RulesExtractor().extract(ExtractionInput("我在做一个记录读书笔记的小程序，名字叫「书影」"))
    assert [c.key for c in a] == [c.key for c in b]
    assert a[0].memory_type is MemoryType.PROJECT and a[0].key.isascii()


def test_a_coalesced_burst_keeps_only_the_latest_value() -> None:
    """The pipeline may join several user messages of a conversation into one extraction."""
    memories = say("I live in Tucson\nI'm vegan these days\nupdate: I moved to Raleigh in June\n"
                   "actually I'm not vegan anymore")
    assert has(memories, "fact", "Raleigh")
    assert not mentions(memories, "Tucson") and not mentions(memories, "vegan")
    memories = say("以后回答控制在400字以内\n还是太长了，以后改成100字以内")
    assert has(memories, "constraint", "100") and not mentions(memories, "400")


@pytest.mark.parametrize(
    "text",
    ["7" * 32000, "我喜欢" * 8000, "I like it " * 5000, "a:" * 15000, " but" * 8000, "1." * 15000,
     "(" * 10000 + "x" + ")" * 10000, "以后回答" * 6000, "今天" + "3" * 9000 + "度"],
)
def test_pathological_input_is_processed_quickly(text: str) -> None:
    """A guard against catastrophic regex backtracking, not a speed figure (that is
    ``bench.bench_extractor_cpu``'s): the bound is on this process's CPU time, so a loaded machine's
    waiting does not count, and it is far above a linear pass yet far below a super-linear one."""
    import time

    extractor = RulesExtractor()
    data = ExtractionInput(text)
    extractor.extract(data)  # the models load and warm once, outside the measured pass
    started = time.process_time()
    extractor.refine(data, extractor.extract(data))
    assert time.process_time() - started < 5.0


_PIECES = [*"我你在做喜欢以后提醒明天住是的了吗", *"，。！？：、~ \n😂🐱()「」abcIim'.,?!:-0123456789",
           "以后回答", "I live in ", "forget ", "我对", "过敏", "remind me ", "Seattle", "成都",
           "I'm a nurse", "我的城市是", "别记了", "not vegan anymore", "update: "]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=60).map("".join)
_KEYS = st.sampled_from(["fact-home_city", "preference-food", "goal-x1", "project-a"])


@settings(max_examples=60, deadline=None)
@given(text=_TEXT,
       context=st.lists(st.tuples(st.sampled_from(["user", "assistant"]), _TEXT), max_size=3),
       existing=st.lists(st.tuples(_KEYS, _TEXT), max_size=3))
def test_any_input_yields_valid_candidates(text: str, context: list[tuple[str, str]],
                                           existing: list[tuple[str, str]]) -> None:
    extractor = RulesExtractor()
    data = ExtractionInput(
        text, tuple(ContextMessage(r, t) for r, t in context),
        existing=tuple(ExistingMemory(k, k.split("-")[0], c) for k, c in existing))
    for cand in extractor.refine(data, extractor.extract(data)):
        assert normalise_key(cand.key) == cand.key
        assert cand.op is CandidateOp.DELETE or cand.content.strip()


def test_burst_of_lines_is_read_as_separate_sentences() -> None:
    memories = say("我在杭州做前端开发\n明天提醒我交房租\n我特别喜欢打羽毛球")
    assert has(memories, "fact", "杭州") and has(memories, "preference", "羽毛球")
    assert not mentions(memories, "房租")
