"""Rule-side families of issue 13 found on held-out and public sets, with the classifier on as the
service runs it: recurring times are habits, updates supersede, retractions delete, a friend's
sentence is theirs, an acknowledgement of the assistant's advice is no goal. Several varied Chinese
and English sentences per family (none taken from an evaluation set)."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp
from core.extraction.rules import RulesExtractor
from tests.support.extraction import extract_and_refine

RELATIONSHIP = {"fact-family", "fact-relationship", "fact-friends"}


@pytest.mark.parametrize(("text", "term"), [
    ("我每天睡前都会看一会儿书，不然睡不着", "看一会儿书"),
    ("每天午饭后我都要玩一会儿数独", "数独"),
    ("I love going to the farmers market on Saturday mornings", "farmers market"),
    ("On Friday nights I usually play board games with my neighbours", "board games"),
    ("I go swimming on Tuesday evenings, it's the best part of my week", "swimming"),
    ("我一般周末早上去公园跑步", "跑步"),
])
def test_a_recurring_time_is_a_habit_not_a_one_off(ex: RulesExtractor, text: str, term: str) -> None:
    got = extract_and_refine(ex, text)
    assert any(c.memory_type.value == "preference" and term.lower() in c.content.lower() for c in got), got


@pytest.mark.parametrize("text", [
    "我一会儿去超市买菜", "I'm going hiking on Sunday morning", "this Sunday I'll bake bread for the party",
    "等一会儿再说吧", "明天下午三点去看牙医",
])
def test_a_one_off_time_window_is_still_no_memory(ex: RulesExtractor, text: str) -> None:
    assert extract_and_refine(ex, text) == []


@pytest.mark.parametrize(("old", "text", "new", "gone"), [
    (("preference-drink", "preference", "我每天都喝绿茶"), "不喝绿茶了，改喝红茶了", "红茶", "绿茶"),
    (("preference-food", "preference", "我很喜欢吃辣"), "最近上火，不吃辣了，改吃清淡的了", "清淡", "吃辣"),
    (("constraint-language", "constraint", "以后回复都用英文吧"), "还是改回中文回复吧，英文太累了", "中文",
     "用英文"),
    (("constraint-language", "constraint", "Please always reply in Chinese"),
     "Actually, switch back to English for your replies", "English", "Chinese"),
    (("preference-exercise", "preference", "I play tennis every weekend"),
     "I no longer play tennis; these days I do yoga", "yoga", "tennis"),
    (("preference-drink", "preference", "I drink two espressos a day"),
     "I don't drink coffee anymore; now it's green tea in the mornings", "green tea", "espresso"),
])
def test_an_update_supersedes_the_old_value(ex: RulesExtractor, old: tuple[str, str, str], text: str,
                                            new: str, gone: str) -> None:
    got = extract_and_refine(ex, text, old)
    updated = [c for c in got if c.op is CandidateOp.UPSERT and c.key == old[0]]
    assert len(updated) == 1, got
    assert new.lower() in updated[0].content.lower() and gone.lower() not in updated[0].content.lower()
    assert updated[0].supersedes == old[0]


@pytest.mark.parametrize(("text", "term"), [
    ("我的车是一辆黑色的凯美瑞", "凯美瑞"), ("我家的车是辆二手大众", "大众"), ("上个月提了一辆蔚来", "蔚来"),
    ("My car is a 2015 Mazda 3", "mazda"), ("I drive a blue Subaru Outback", "subaru"),
])
def test_a_car_is_a_vehicle_fact(ex: RulesExtractor, text: str, term: str) -> None:
    got = extract_and_refine(ex, text)
    assert [c.key for c in got] == ["fact-vehicle"] and term in got[0].content.lower(), got


@pytest.mark.parametrize(("old", "text", "new"), [
    ("我开的是一辆本田思域", "思域去年卖了，现在换了一辆特斯拉", "特斯拉"),
    ("我的车是一辆白色的桑塔纳", "桑塔纳卖掉了，换了一辆比亚迪汉", "比亚迪"),
    ("I drive an old Honda Civic", "Sold the Civic and got a new Tesla", "tesla"),
])
def test_a_new_car_replaces_the_old_one(ex: RulesExtractor, old: str, text: str, new: str) -> None:
    got = extract_and_refine(ex, text, ("fact-vehicle", "fact", old))
    assert [(c.op, c.key) for c in got] == [(CandidateOp.UPSERT, "fact-vehicle")], got
    assert new in got[0].content.lower() and got[0].supersedes == "fact-vehicle"


@pytest.mark.parametrize("text", [
    "Scratch that last goal, my back can't take it",
    "Forget the latest goal, it was a silly idea",
    "scratch my last goal please",
    "算了，刚才那个目标不要了",
    "上一个目标算了吧，不现实",
])
def test_scratching_the_last_goal_deletes_it(ex: RulesExtractor, text: str) -> None:
    goal = ("goal-fitness", "goal", "I want to run a full marathon")
    got = extract_and_refine(ex, text, ("fact-job", "fact", "I'm a teacher"), goal)
    assert [(c.op, c.key) for c in got] == [(CandidateOp.DELETE, "goal-fitness")], got


@pytest.mark.parametrize("text", [
    "我同事是个素食者，所以午饭总是点沙拉",
    "我 colleague 特别爱喝手冲，所以办公室一直有咖啡味",
    "My coworker is vegan, so the office fridge is full of tofu",
    "My roommate is a huge gamer, so the living room is always loud",
    "我室友很爱干净，所以家里总是一尘不染",
])
def test_the_rest_of_a_sentence_about_a_friend_is_theirs(ex: RulesExtractor, text: str) -> None:
    got = extract_and_refine(ex, text)
    assert all(c.memory_type.value == "fact" and c.key in RELATIONSHIP for c in got), got


@pytest.mark.parametrize("text", [
    "好的，非常感谢你的建议，我会认真考虑的。",
    "谢谢你的建议，我回头试试。",
    "嗯，我会照你说的去做的，谢谢！",
    "Thank you for your advice. I will try my best to relax and take care of myself.",
    "That sounds like a good idea. I'll give it a try.",
    "Thanks, I'll keep that in mind.",
    "I'll try to follow your advice and get more rest.",
    # a promise of effort in reply, with or without a goal's topic in it
    "嗯，这些建议都很实用，我会好好落实的。",
    "我一定会试着去看看你推荐的那几部纪录片。",
    "我会尽力调整作息，早点睡觉。",
    "我会多留意自己的饮食，少喝点奶茶。",
    "I will try to apply these tips at work tomorrow.",
    "I'll try practicing the breathing exercise before bed.",
    "I will do my best to stay calm during the interview.",
    "I'll consider joining a local book club to meet people.",
])
def test_acknowledging_advice_is_no_goal(ex: RulesExtractor, text: str) -> None:
    assert extract_and_refine(ex, text) == []


@pytest.mark.parametrize("text", ["谢谢你的建议。我的长期目标是明年考下注册会计师", "我考虑转行做设计",
                                  "Thanks for the tips. My long-term goal is to run an ultramarathon.",
                                  "我打算明年去新疆自驾一个月",
                                  "I plan to learn Korean before my trip to Seoul next year"])
def test_a_real_goal_beside_thanks_is_kept(ex: RulesExtractor, text: str) -> None:
    got = extract_and_refine(ex, text)
    assert [c.memory_type.value for c in got] == ["goal"], got


@pytest.mark.parametrize(("text", "term"), [
    ("我是一名高铁乘务员", "乘务员"), ("我现在是一名宠物美容师", "美容师"), ("我是一位调酒师", "调酒师"),
    ("本人是一名钟表修理工", "修理工"), ("我是一名地铁司机，上夜班比较多", "司机"),
])
def test_an_occupation_outside_the_word_list_is_the_job(ex: RulesExtractor, text: str, term: str) -> None:
    got = extract_and_refine(ex, text)
    assert any(c.key == "fact-job" and term in c.content for c in got), got


@pytest.mark.parametrize("text", ["我是一个很内向的人", "我是一名新手妈妈"])
def test_a_description_of_oneself_is_no_job(ex: RulesExtractor, text: str) -> None:
    assert all(c.key != "fact-job" for c in extract_and_refine(ex, text))


@pytest.mark.parametrize(("text", "term"), [
    ("We've got two cats, Salt and Pepper", "cats"), ("I've got a rescue mutt named Rufus", "rufus"),
    ("I've adopted a bearded dragon", "bearded dragon"), ("We've got an old tabby called Mittens", "mittens"),
    ("we've adopted a pair of guinea pigs", "guinea pigs"),
])
def test_a_pet_the_household_has_got_is_a_pet_fact(ex: RulesExtractor, text: str, term: str) -> None:
    got = extract_and_refine(ex, text)
    assert any(c.key == "fact-pets" and term in c.content.lower() for c in got), got


@pytest.mark.parametrize(("text", "term"), [
    ("I've been restoring an old wooden sailboat on weekends", "sailboat"),
    ("I'm rebuilding a vintage Land Rover with my dad", "land rover"),
    ("I'm doing up an old farmhouse in Wales", "farmhouse"),
    ("我最近在翻新一辆老式永久自行车", "自行车"),
    ("我一直在修复一台八十年代的收音机", "收音机"),
])
def test_restoring_something_is_a_project(ex: RulesExtractor, text: str, term: str) -> None:
    got = extract_and_refine(ex, text)
    assert [(c.memory_type.value, c.key) for c in got] == [("project", "project-renovation")], got
    assert term in got[0].content.lower()


@pytest.mark.parametrize("text", [
    "你每次都这么耐心，谢谢你", "你总是这么懂我", "有你在真好，晚安", "你真是最好的",
    "You always know how to make me feel better", "You're always so patient with me, thank you",
    "I'm always here for you too, haha", "you really get me, you're the best",
    "it's always nice chatting with you", "you always cheer me up when I feel down",
])
def test_praising_the_assistant_is_no_rule(ex: RulesExtractor, text: str) -> None:
    assert extract_and_refine(ex, text) == []


@pytest.mark.parametrize("text", [
    "你总是回答得太长了，以后简短一点", "You always use bullet points; please always use prose instead",
    "你一直都很耐心，不过以后回答尽量简短些",
])
def test_a_rule_beside_a_remark_about_the_assistant_is_kept(ex: RulesExtractor, text: str) -> None:
    got = extract_and_refine(ex, text)
    assert got and all(c.memory_type.value == "constraint" for c in got), got
