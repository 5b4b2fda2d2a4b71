"""What the rules extractor remembers, family by family (issue 13), with the classifier on as the
service runs it: varied Chinese and English sentences per family, not the demo's sentences only."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp
from core.extraction.rules import RulesExtractor
from core.text import regex as re
from tests.support.extraction import extract_and_refine


@pytest.mark.parametrize("text", [
    "你以后就叫小七吧。", "以后我就叫你阿福了。", "给你起个名字，叫小白吧。", "你的名字就叫豆豆。",
    "Call you Max from now on.", "From now on your name is Jarvis.", "I'll call you Buddy.",
    "Your nickname will be Sunny, ok?",
])
def test_naming_the_assistant_is_never_stored(ex: RulesExtractor, text: str) -> None:
    assert extract_and_refine(ex, text) == []


@pytest.mark.parametrize("text", [
    "我朋友小李特别喜欢爬山。", "My friend Tom hates spicy food.", "我同事老王喜欢喝茶。",
    "My roommate Jake plays guitar every night.", "她特别喜欢看恐怖片。", "Jenny loves sushi.",
])
def test_someone_elses_taste_is_never_the_users_memory(ex: RulesExtractor, text: str) -> None:
    got = extract_and_refine(ex, text)
    relationship = {"fact-family", "fact-relationship", "fact-friends"}
    assert all(c.memory_type.value == "fact" and c.key in relationship for c in got), got


@pytest.mark.parametrize("text", [
    "My wife is a nurse.", "我女儿在学钢琴。", "My daughter is allergic to peanuts.",
    "我老公是程序员，喜欢打篮球。", "我儿子今年六岁，特别喜欢恐龙。",
])
def test_a_household_members_facts_are_one_family_fact(ex: RulesExtractor, text: str) -> None:
    assert [(c.memory_type.value, c.key) for c in extract_and_refine(ex, text)] == [("fact", "fact-family")]


@pytest.mark.parametrize("text", ["My brother loves playing chess.", "我妈妈不吃香菜。"])
def test_a_relative_outside_the_household_is_not_the_users_memory(ex: RulesExtractor, text: str) -> None:
    assert extract_and_refine(ex, text) == []  # issue 24: "a sister's allergy" is not the user's


@pytest.mark.parametrize("text", [
    "我的长期计划是写一本关于家庭物理小实验的科普书。", "My long-term plan is to open a small bakery.",
    "我打算三年内考下注册会计师。", "Over the next five years I want to become a staff engineer.",
    "我给自己定了个目标：今年读完五十本书。", "My five-year plan is to pay off my student loans.",
])
def test_a_long_term_plan_is_a_goal(ex: RulesExtractor, text: str) -> None:
    assert [c.memory_type.value for c in extract_and_refine(ex, text)] == ["goal"]


@pytest.mark.parametrize("text", [
    "I'm vegetarian, so please never suggest recipes with meat or fish.",
    "I'm vegan, so don't ever recommend restaurants without plant-based options.",
    "我吃素，以后推荐菜谱的时候不要有肉。",
    "我对花生过敏，以后推荐餐厅或者菜谱的时候一定要避开花生。",
    "I'm allergic to shellfish, so never suggest dishes with shrimp or crab.",
])
def test_a_diet_fact_that_grounds_a_rule_is_one_memory(ex: RulesExtractor, text: str) -> None:
    got = extract_and_refine(ex, text)
    assert len(got) == 1 and got[0].memory_type.value == "constraint", got
    assert not got[0].key.endswith("shell")  # "fish" is food here, not the fish shell


@pytest.mark.parametrize("text,existing", [
    ("I'm vegetarian.", ("diet-restriction", "constraint", "Vegetarian: no meat or fish in recipes")),
    ("我吃素。", ("constraint-food", "constraint", "我吃素，以后推荐菜谱的时候不要有肉")),
    ("I'm vegan btw.", ("constraint-food", "constraint", "I'm vegan, never suggest dairy or eggs")),
])
def test_a_diet_fact_a_rule_already_states_is_not_stored_again(
        ex: RulesExtractor, text: str, existing: tuple[str, str, str]) -> None:
    assert extract_and_refine(ex, text, existing) == []


@pytest.mark.parametrize("text,existing", [
    ("Also, I don't really watch horror movies anymore, please forget that.",
     ("preference-movies", "preference", "I love horror movies, especially old Italian ones")),
    ("I don't play tennis anymore, forget that.",
     ("preference-exercise", "preference", "I play tennis every weekend")),
    ("我现在不喝奶茶了，这个忘了吧。", ("preference-drink", "preference", "我特别喜欢喝奶茶")),
])
def test_forget_that_withdraws_its_own_sentence_not_the_previous_turn(
        ex: RulesExtractor, text: str, existing: tuple[str, str, str]) -> None:
    home = ("fact-home_city", "fact", "I moved to Portland last month")
    got = extract_and_refine(ex, text, home, existing)
    assert [(c.op, c.key) for c in got] == [(CandidateOp.DELETE, existing[0])]


@pytest.mark.parametrize("text,existing,new", [
    ("我不跑步了，改游泳了。", ("preference-exercise", "preference", "我每天早上跑步"), "游泳"),
    ("我不喝乌龙茶了，改喝普洱。", ("preference-drink", "preference", "我喜欢喝乌龙茶"), "普洱"),
    ("I don't drink coffee anymore, I switched to green tea.",
     ("preference-drink", "preference", "I love coffee, black"), "green tea"),
    ("我跳槽去了字节，现在做算法工程师。", ("fact-job", "fact", "我在阿里做前端开发"), "算法工程师"),
    ("I moved to Austin last week.", ("fact-home_city", "fact", "I live in Seattle"), "Austin"),
    ("我上个月从北京搬到了深圳。", ("fact-home_city", "fact", "我住在北京"), "深圳"),
])
def test_a_replacement_supersedes_the_old_value(
        ex: RulesExtractor, text: str, existing: tuple[str, str, str], new: str) -> None:
    got = extract_and_refine(ex, text, existing)
    assert len(got) == 1 and got[0].op is CandidateOp.UPSERT, got
    assert got[0].supersedes == existing[0] and new in got[0].content


@pytest.mark.parametrize("text,existing", [
    ("Scratch that goal about the marathon.", ("goal-fitness", "goal", "I want to run a marathon next year")),
    ("算了，不考研了。", ("goal-education", "goal", "我打算明年考研")),
    ("算了，日语我不学了。", ("goal-language", "goal", "我想在两年内学会日语")),
    ("Actually, forget the plan to buy a house.", ("goal-home_purchase", "goal", "I plan to buy a house")),
    ("Never mind the Rust rewrite, we dropped it.",
     ("project-rust_rewrite", "project", "I'm rewriting our backend in Rust")),
])
def test_a_retraction_deletes_only_the_withdrawn_memory(
        ex: RulesExtractor, text: str, existing: tuple[str, str, str]) -> None:
    out = extract_and_refine(ex, text, existing)
    assert [(c.op, c.key) for c in out] == [(CandidateOp.DELETE, existing[0])]


@pytest.mark.parametrize("text", [
    "以后推荐餐厅的时候避开日料。", "Please always use metric units when you give me measurements.",
    "我喜欢在阳台上种多肉植物。",
    "I like to cross stitch and quilt.", "以后帮我给学生出题的时候，难度控制在高考水平。",
    "I'm saving up to buy a sailboat.",  # rescued since the issue-24 MLP (was an xfail: p(keep) 0.81)
    "我家附近的那个菜市场周末人特别多，但我每周六都去。",
])
def test_keys_are_readable_words_never_hashes(ex: RulesExtractor, text: str) -> None:
    got = extract_and_refine(ex, text)
    assert got, text
    for cand in got:
        assert re.fullmatch(r"[a-z]+-[a-z_]+", cand.key), cand.key  # words only: no hex digests


@pytest.mark.parametrize("text", [
    "Whenever the forecast says snow, remind me to leave for work 20 minutes earlier.",
    "每次下雨都提前半小时提醒我出门。", "Remind me an hour early whenever I have a dentist appointment.",
    "以后只要有台风预警，就提醒我把阳台的花收进来。",
    "Whenever there is a storm warning, remind me to bring the plants inside.",
])
def test_a_conditional_standing_reminder_is_a_rule(ex: RulesExtractor, text: str) -> None:
    assert [c.memory_type.value for c in extract_and_refine(ex, text)] == ["constraint"]


@pytest.mark.parametrize("text", [
    "明天早上提前十分钟叫我。", "Remind me tomorrow 20 minutes earlier than usual.",
    "And if it rains in the next two days, let me know.", "今晚七点提醒我开周会。",
    "Can you remind me tomorrow at 9 to call the dentist?",
])
def test_a_one_off_reminder_is_not(ex: RulesExtractor, text: str) -> None:
    assert extract_and_refine(ex, text) == []


@pytest.mark.parametrize("text", [
    "These old postcards always remind me of my grandmother.", "That song reminds me of my first concert.",
    "The smell of rain always reminds me to slow down a bit.", "Seeing the lake reminded me of our trip.",
    "这首老歌总让我想起高中的日子。", "每次看到海，都让我想起小时候。",
])
def test_something_that_brings_back_a_memory_is_never_a_rule(ex: RulesExtractor, text: str) -> None:
    got = extract_and_refine(ex, text)
    assert all(c.memory_type.value != "constraint" for c in got), got


@pytest.mark.parametrize("text", [
    "Please always remind me to stretch when I've been coding for an hour.",
    "Whenever there's a storm warning, remind me to bring the plants in.", "以后每次下雨都提醒我带伞。",
])
def test_a_reminder_request_stays_a_rule(ex: RulesExtractor, text: str) -> None:
    got = extract_and_refine(ex, text)
    assert [c.memory_type.value for c in got] == ["constraint"], got


@pytest.mark.parametrize("text,key", [
    ('I loved "The Left Hand of Darkness" by Ursula K. Le Guin.', "preference-"),
    ('I\'m reading "Piranesi" right now and I can\'t put it down.', "preference-books"),
    ('I\'m playing "Stardew Valley" every evening these days.', "preference-games"),
    ('I really enjoyed "Arrival", such a clever film.', "preference-"),
    ("I'm also trying out pilates to help my back.", "preference-exercise"),
    ("I've taken up woodworking since the spring.", "preference-"),
    ("I'm getting into birdwatching lately.", "preference-"),
])
def test_a_work_the_user_loves_or_an_activity_taken_up_is_a_preference(
    ex: RulesExtractor, text: str, key: str
) -> None:
    got = extract_and_refine(ex, text)
    assert any(c.memory_type.value == "preference" and c.key.startswith(key) for c in got), got


@pytest.mark.parametrize("text", [
    "I loved it, thanks for the tip!", "She's reading \"Piranesi\" for her book club.",
    "Are you playing \"Stardew Valley\" too?",
])
def test_a_thank_you_or_someone_elses_reading_is_no_preference(ex: RulesExtractor, text: str) -> None:
    got = extract_and_refine(ex, text)
    assert not any(c.memory_type.value == "preference" for c in got), got


@pytest.mark.parametrize("text", [
    "讲述的是一个女孩为了梦想努力成为舞蹈家的故事。", "这部电影讲了一个厨师想开自己餐厅的故事。",
    "The movie is about a boy who wants to become a pilot.",
    "The book tells the story of a woman who plans to sail around the world.",
])
def test_the_plot_of_a_story_is_not_the_users_goal(ex: RulesExtractor, text: str) -> None:
    assert extract_and_refine(ex, text) == []
