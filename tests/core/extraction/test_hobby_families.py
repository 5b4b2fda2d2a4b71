"""Hobbies, interests and what the user is, family by family (issue 13, the public dialogue sets'
misses), with the classifier on as the service runs it. Sentences written for these tests, none
from an evaluation set."""

from __future__ import annotations

import pytest

from core.extraction.rules import RulesExtractor
from tests.support.extraction import extract_and_refine


def _typed(ex: RulesExtractor, text: str, *existing: tuple[str, str, str]) -> dict[str, str]:
    """memory type -> the contents of that type, joined (lower-cased)."""
    out: dict[str, str] = {}
    for c in extract_and_refine(ex, text, *existing):
        out[c.memory_type.value] = (out.get(c.memory_type.value, "") + " | " + c.content).lower()
    return out


@pytest.mark.parametrize("text,word", [
    ("I'm really interested in astronomy and stargazing.", "astronomy"),
    ("I'm passionate about woodworking.", "woodworking"),
    ("These days I'm quite interested in motorsport.", "motorsport"),
    ("我对天文观测特别感兴趣。", "天文"),
    ("我最近对陶艺越来越感兴趣了。", "陶艺"),
    ("我一直对书法挺有兴趣的。", "书法"),
])
def test_an_interest_is_a_preference(ex: RulesExtractor, text: str, word: str) -> None:
    got = _typed(ex, text)
    assert word in got.get("preference", ""), got


@pytest.mark.parametrize("text,word", [
    ("In my spare time I do jigsaw puzzles.", "puzzles"),
    ("When I have some free time I bake bread.", "bake"),
    ("I also practice tai chi and calligraphy.", "tai chi"),
    ("I play the cello in a community orchestra.", "cello"),
    ("我闲暇时间喜欢画画。", "画画"),
    ("我业余时间都在练书法。", "书法"),
    ("我有空的时候就去钓鱼。", "钓鱼"),
])
def test_a_spare_time_habit_is_a_preference(ex: RulesExtractor, text: str, word: str) -> None:
    got = _typed(ex, text)
    assert word in got.get("preference", ""), got


@pytest.mark.parametrize("text,word", [
    ("I'm a beekeeper.", "beekeeper"),
    ("I'm a dog groomer and I love it.", "groomer"),
    ("I am a locksmith.", "locksmith"),
    ("Honestly I'm a professional skater, so I travel a lot.", "skater"),
    ("I'm currently a tour guide, mostly for school groups.", "tour guide"),
])
def test_what_the_user_is_outside_the_occupation_list_is_a_fact(ex: RulesExtractor, text: str,
                                                                 word: str) -> None:
    got = {c.key: c.content.lower() for c in extract_and_refine(ex, text)}
    assert word in got.get("fact-job", ""), got


@pytest.mark.parametrize("text", [
    "I'm a huge fan of the Celtics.", "I'm a slow reader.", "I'm a beginner at chess.",
    "I'm a perfectionist about my notes.", "I'm a beekeeper in my spare time.",
])
def test_a_leisure_role_or_disposition_is_not_a_job(ex: RulesExtractor, text: str) -> None:
    assert all(c.key != "fact-job" for c in extract_and_refine(ex, text))


@pytest.mark.parametrize("text,job,liked", [
    ("I'm a pharmacist, I like to knit and bake.", "pharmacist", "knit"),
    ("I'm a welder, I like to read and fish on weekends.", "welder", "read"),
    ("I'm a nurse and I love to cook.", "nurse", "cook"),
    ("I'm a beekeeper, and I also collect old maps.", "beekeeper", "collect"),
    ("I drive a pickup and I play the banjo.", "pickup", "banjo"),
])
def test_a_job_and_a_hobby_in_one_sentence_are_two_memories(ex: RulesExtractor, text: str, job: str,
                                                          liked: str) -> None:
    got = _typed(ex, text)
    assert job in got.get("fact", "") and liked not in got.get("fact", ""), got
    assert liked in got.get("preference", ""), got


HOBBIES_ZH = ("preference-hobby", "preference", "我比较喜欢下棋、钓鱼、摄影、书法和养花")
HOBBIES_EN = ("preference-hobby", "preference", "I enjoy chess, photography, calligraphy and gardening")


@pytest.mark.parametrize("text,existing,old,new", [
    ("我现在也喜欢做手工。", HOBBIES_ZH, "钓鱼", "手工"),
    ("其实我还喜欢折纸。", HOBBIES_ZH, "书法", "折纸"),
    ("我喜欢编织，不过现在没什么想织的。", HOBBIES_ZH, "摄影", "编织"),
    ("I also like pottery now.", HOBBIES_EN, "photography", "pottery"),
    ("Actually I love knitting too.", HOBBIES_EN, "chess", "knitting"),
    ("These days I'm into origami as well.", HOBBIES_EN, "gardening", "origami"),
])
def test_a_new_hobby_joins_the_list(ex: RulesExtractor, text: str, existing: tuple[str, str, str],
                                    old: str, new: str) -> None:
    got = [c for c in extract_and_refine(ex, text, existing) if c.key == existing[0]]
    assert got and old in got[0].content.lower() and new in got[0].content.lower(), got


@pytest.mark.parametrize("text,existing,old,new", [
    ("我不再下棋了，现在改成喜欢钓鱼。", ("preference-games", "preference", "我喜欢下棋"), "下棋", "钓鱼"),
    ("I no longer do chess, I'm into go instead.", ("preference-games", "preference", "I enjoy chess"),
     "chess", "go"),
    ("I used to love jogging, now I prefer swimming.", ("preference-exercise", "preference",
                                                         "I love jogging"), "jogging", "swimming"),
])
def test_a_hobby_the_user_gave_up_is_replaced(ex: RulesExtractor, text: str, existing: tuple[str, str, str],
                                              old: str, new: str) -> None:
    got = [c for c in extract_and_refine(ex, text, existing) if c.memory_type.value == "preference"]
    assert got and new in got[0].content.lower() and old not in got[0].content.lower(), got


@pytest.mark.parametrize("text,key,word", [
    ("I used to be in the army, two tours.", "fact-work_history", "army"),
    ("I served in the coast guard for eight years.", "fact-work_history", "coast guard"),
    ("I'm a retired postman.", "fact-work_history", "postman"),
    ("I'm an army veteran.", "fact-work_history", "veteran"),
    ("I live in a tiny village, so everything is quiet.", "fact-home_city", "village"),
    ("We're happy here: I live on a farm with lots of goats.", "fact-home_city", "farm"),
    ("I live in the suburbs, close to the highway.", "fact-home_city", "suburbs"),
    ("I recently became a grandmother!", "fact-family", "grandmother"),
    ("I'm a new dad, so I'm always tired.", "fact-family", "dad"),
    ("I'm currently attending community college.", "fact-education", "college"),
    ("I am enrolled in nursing school.", "fact-education", "nursing school"),
])
def test_lasting_facts_said_without_a_place_or_job_word(ex: RulesExtractor, text: str, key: str,
                                                        word: str) -> None:
    got = {c.key: c.content.lower() for c in extract_and_refine(ex, text)}
    assert word in got.get(key, ""), got


@pytest.mark.parametrize("text", [
    "I used to be a barista, now I'm a pilot.", "I used to go to the gym every day.",
    "I used to love tea.",
])
def test_an_old_value_the_user_corrects_is_not_work_history(ex: RulesExtractor, text: str) -> None:
    assert all(c.key != "fact-work_history" for c in extract_and_refine(ex, text))


@pytest.mark.parametrize("text,word", [
    ("I love to ride horses on the beach.", "horses"),
    ("I like to restore old radios.", "radios"),
    ("I really love to fly kites with my nephew.", "kites"),
    ("I like to build model trains.", "model trains"),
    ("I love to carve wooden spoons.", "spoons"),
])
def test_an_activity_the_user_likes_to_do_is_a_preference(ex: RulesExtractor, text: str, word: str) -> None:
    got = _typed(ex, text)
    assert word in got.get("preference", ""), got


@pytest.mark.parametrize("text", [
    "I like to think that I'm a fair person.", "I'd like to know what time it is.",
    "I love to know you're there.",
])
def test_a_figure_of_speech_with_like_to_is_not_a_hobby(ex: RulesExtractor, text: str) -> None:
    assert all(c.memory_type.value != "preference" for c in extract_and_refine(ex, text))


@pytest.mark.parametrize("text,word", [
    ("As for music, I like to play old folk songs.", "music"),
    ("Speaking of sports, I love to swim in the lake.", "sports"),
    ("When it comes to food, I like to try street stalls.", "food"),
    ("说到运动，我最喜欢打网球。", "运动"),
    ("至于爱好，我喜欢收集邮票。", "爱好"),
])
def test_a_topic_named_before_the_preference_stays_with_it(ex: RulesExtractor, text: str, word: str) -> None:
    got = _typed(ex, text)
    assert word in got.get("preference", ""), got


@pytest.mark.parametrize("text,job,habit", [
    ("I'm a night nurse, so I drink lots of coffee.", "nurse", "coffee"),
    ("I'm a marathoner, so I eat tons of pasta.", "marathoner", "pasta"),
    ("I'm a librarian and I read plenty of mystery novels.", "librarian", "mystery"),
    ("I'm a pastry chef, so I bake lots of bread at home.", "chef", "bread"),
    ("I'm a film editor, so I watch a lot of movies.", "editor", "movies"),
])
def test_a_habit_after_a_job_is_its_own_preference(ex: RulesExtractor, text: str, job: str,
                                                   habit: str) -> None:
    got = _typed(ex, text)
    assert job in got.get("fact", "") and habit not in got.get("fact", ""), got
    assert habit in got.get("preference", ""), got


@pytest.mark.parametrize("text,word", [
    ("I have a big vegetable garden behind the house.", "garden"),
    ("I rent a tiny studio apartment near the station.", "apartment"),
    ("I own a sailboat, she's called Maggie.", "sailboat"),
    ("We grow grapes: I have a small vineyard.", "vineyard"),
    ("I have a greenhouse full of orchids and I like to paint.", "greenhouse"),
])
def test_the_users_home_and_what_it_has_is_a_fact(ex: RulesExtractor, text: str, word: str) -> None:
    got = {c.key: c.content.lower() for c in extract_and_refine(ex, text)}
    assert word in got.get("fact-home", ""), got


@pytest.mark.parametrize("text", ["I have a question about taxes.", "I have a house party tonight.",
                                  "I have an idea for you."])
def test_having_a_question_or_an_event_is_not_a_home_fact(ex: RulesExtractor, text: str) -> None:
    assert all(c.key != "fact-home" for c in extract_and_refine(ex, text))


@pytest.mark.parametrize("text", [
    "I'm interested in your opinion on my essay.", "I'm really interested in what you think.",
    "I love your suggestions!",
])
def test_interest_in_the_assistants_words_is_no_preference(ex: RulesExtractor, text: str) -> None:
    assert all(c.memory_type.value != "preference" for c in extract_and_refine(ex, text))
