"""Passages of a user message and the noise rule of episodes (pure functions)."""

from __future__ import annotations

import pytest

from core.episodes.passages import cut_passages, is_episode_noise


def test_a_short_message_is_one_passage_with_its_whitespace_normalised() -> None:
    assert cut_passages("  I went hiking   at Mt Tam\nwith my sister.  ", 400) == [
        "I went hiking at Mt Tam with my sister."]


def test_long_messages_are_cut_on_sentence_boundaries_within_the_limit() -> None:
    sentence = "Last weekend I drove to the coast with my sister and we walked along the cliffs. "
    text = sentence * 12
    passages = cut_passages(text, 300)
    assert len(passages) > 1
    assert all(0 < len(p) <= 300 for p in passages)
    assert all(p.endswith(".") for p in passages)  # never cut inside a sentence here
    assert "".join(passages).replace(" ", "") == text.replace(" ", "")


def test_chinese_sentences_are_packed_without_spaces() -> None:
    text = "我上周去了北京。见了老朋友！" * 20
    passages = cut_passages(text, 100)
    assert all(len(p) <= 100 for p in passages)
    assert "".join(passages) == text


def test_a_sentence_longer_than_the_limit_is_cut_at_a_soft_break() -> None:
    text = ", ".join(f"item number {i}" for i in range(60))
    passages = cut_passages(text, 120)
    assert all(len(p) <= 120 for p in passages)
    assert "".join(passages).replace(" ", "") == text.replace(" ", "")


def test_blank_text_has_no_passage() -> None:
    assert cut_passages("  \n ") == []
    with pytest.raises(ValueError):
        cut_passages("x", 5)


@pytest.mark.parametrize("text", ["hi!", "Hello", "thanks so much 🙏", "Thank you!", "ok", "好的，谢谢！",
                                  "谢谢", "你好", "bye, see you later", "👍", "嗯嗯", "got it, thanks"])
def test_greetings_thanks_and_acknowledgements_are_noise(text: str) -> None:
    assert is_episode_noise(text)


@pytest.mark.parametrize("text", ["I adopted a cat named Luna yesterday", "上周末我去爬了香山",
                                  "Thanks! By the way I start my new job at Acme on Monday",
                                  "我昨天和老婆去看了电影"])
def test_what_happened_is_not_noise(text: str) -> None:
    assert not is_episode_noise(text)


def test_the_memory_noise_rules_apply() -> None:
    assert is_episode_noise("What embedding model do you use?")
