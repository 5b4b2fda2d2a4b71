"""Salient words: a Chinese word keeps a function character it is made of (cities, jobs, allergies)."""

from __future__ import annotations

from core.extraction.rules.keys import content_slug
from core.text.salient import overlap, salient_tokens, zh_pieces


def test_a_city_keeps_its_function_character() -> None:
    assert "成都" in salient_tokens("我上个月搬到成都了")
    assert "成都" in salient_tokens("老家在成都，小时候一直住那边")
    assert salient_tokens("我住在成都") == {"住", "成都"}


def test_a_job_is_one_word_not_its_last_character() -> None:
    assert salient_tokens("我是会计") == {"会计"}
    assert "会计" in salient_tokens("我在一家事务所当会计师")
    assert "计" not in salient_tokens("我是会计")


def test_two_statements_about_one_place_or_job_share_it() -> None:
    assert salient_tokens("我搬到成都了") & salient_tokens("住在成都高新区") == {"成都"}
    assert salient_tokens("我是会计") & salient_tokens("以前做会计，现在转行了") == {"会计"}
    assert overlap("对花生过敏", "我花生过敏很严重") == 1.0


def test_now_is_a_filler_and_leaves_no_stray_character() -> None:
    tokens = salient_tokens("我现在在上海工作")
    assert {"上海", "工作"} <= tokens
    assert "现" not in tokens and "现在" not in tokens
    assert salient_tokens("I work in Shanghai now") == {"work", "shanghai"}


def test_change_words_between_two_values() -> None:
    tokens = salient_tokens("我不再吃肉了，换成吃素")
    assert {"不再", "吃肉", "换成", "吃素"} <= tokens
    assert "再吃" not in tokens  # a function character joins its dictionary word, not the next one


def test_function_characters_that_make_no_word_still_cut() -> None:
    # 在 before 上海 and before 上班 is no word: the two places of work share nothing
    assert not salient_tokens("我在上海") & salient_tokens("我在上班")
    assert salient_tokens("都了吧呢") == set()
    assert "我是" not in salient_tokens("我是老师")


def test_determiners_and_pronouns_join_no_word() -> None:
    # 一家 and 我家 are dictionary words, but "a" / "my" name nothing: two employers share no token
    assert salient_tokens("在一家会计师事务所上班") & salient_tokens("在一家银行做柜员") == set()
    assert "我家" not in salient_tokens("我家在地铁站旁边")
    assert "地铁" in salient_tokens("我家在地铁站旁边")
    assert salient_tokens("我觉得") == set()


def test_mixed_script() -> None:
    tokens = salient_tokens("I moved to 成都 last year, 现在在 Tencent 做会计")
    assert {"moved", "成都", "tencent", "会计", "year", "last"} <= tokens
    assert "现" not in tokens


def test_pieces_and_slugs_keep_the_word_whole() -> None:
    assert zh_pieces("我搬到成都了") == ["搬到成都"]
    assert zh_pieces("我住在成都") == ["住", "成都"]
    assert content_slug("我住在成都") == "zhu_cheng_du"
    assert content_slug("我是会计") == "kuai_ji"
