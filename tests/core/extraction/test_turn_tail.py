"""The end of the assistant's turn the precision model reads (``core.extraction.classifier.turn_tail``)."""

from __future__ import annotations

from core.extraction.classifier import PREV_MAX_CHARS, turn_tail


def test_a_short_turn_is_read_whole() -> None:
    assert turn_tail("  What do you do in your free time?  ") == "What do you do in your free time?"
    assert turn_tail(None) == "" and turn_tail("") == ""


def test_a_long_turn_keeps_its_question_at_the_end_from_a_sentence_start() -> None:
    turn = "Going to a live show is a very special experience, " * 8 + "so which singer would you see?"
    tail = turn_tail(turn)
    assert tail.endswith("which singer would you see?") and len(tail) <= PREV_MAX_CHARS
    long_zh = "去现场听音乐会是一种很特别的体验。" * 20 + "你最想去看谁的演唱会？"
    tail_zh = turn_tail(long_zh)
    assert tail_zh.endswith("你最想去看谁的演唱会？") and tail_zh.startswith("去现场")
