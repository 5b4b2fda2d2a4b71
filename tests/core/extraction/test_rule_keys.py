"""Readable, stable keys of the rules extractor (``core.extraction.rules.keys``)."""

from __future__ import annotations

import re

from core.extraction.candidates import ExtractionInput
from core.extraction.rules import RulesExtractor
from core.extraction.rules.keys import content_slug
from core.filters import normalise_key

HEX = re.compile(r"[0-9a-f]{8}")


def test_slug_keeps_salient_words_in_order_and_negations() -> None:
    assert content_slug("Please never suggest recipes with meat or fish") == "never_suggest_recipes_meat"
    assert content_slug("Vegetarian: no meat or fish in recipes") == "vegetarian_no_meat_fish"
    assert content_slug("I'm vegetarian") == "vegetarian"
    # Chinese: toneless pinyin of the characters left after function words; 不 is kept
    assert content_slug("品茶") == "pin_cha"
    assert content_slug("以后回答我的时候不要用表情") == "hui_da_bu_yao_yong_biao_qing"  # 不要 a word
    assert content_slug("我住在重庆") == "zhu_chong_qing"  # phrase reading, not character by character
    assert content_slug("我喜欢用Python写代码") == "yong_python_xie_dai_ma"


def test_slug_is_stable_ascii_and_valid_as_a_key() -> None:
    texts = ("Intellectual novels always give me a lot of inspiration", "拾光记账", "Ünïcode café", "😀 !!")
    for text in texts:
        slug = content_slug(text)
        assert slug == content_slug(text) == content_slug(text.upper())
        assert re.fullmatch(r"[a-z0-9_]+", slug) and len(slug) <= 48
        assert normalise_key(f"goal-{slug}") == f"goal-{slug}"
    assert content_slug("😀 !!") != content_slug("🙂")  # nothing salient: a stable hash, still distinct


def test_rules_keys_carry_no_hashes() -> None:
    ex = RulesExtractor()
    messages = [
        "以后给我推荐菜谱的时候，绝对不要有肉和鱼",
        "我们团队在做一个农产品溯源平台，项目代号「青禾」",
        "我特别喜欢品茶",
        "My long-term goal is to become a certified sailing instructor someday",
    ]
    keys = []
    for text in messages:
        result = ex.extract(ExtractionInput(user_message=text))
        keys += [c.key for c in result]
    assert keys, "the extractor kept nothing"
    assert not [k for k in keys if HEX.search(k)], keys
