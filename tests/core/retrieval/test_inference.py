"""An inference question's second query (``core.retrieval.inference``): pure, no services."""

from __future__ import annotations

import numpy as np
import pytest

from core.retrieval.inference import STATEMENT_WEIGHT, blend, inference_statement


@pytest.mark.parametrize(("question", "topic"), [
    ("Would I be considered a patriotic person?", "patriotic person"),
    ("Would I enjoy an art class?", "enjoy art class"),
    ("Is it likely that I'd buy an expensive sports car soon?", "buy expensive sports car"),
    ("Do you think I'd like jazz?", "like jazz"),
    ("What job might suit me?", "job suit"),
    ("Am I an introvert?", "introvert"),
    ("How would you describe my personality?", "personality"),
    ("What are my strengths?", "strengths"),
    ("你觉得我会喜欢热闹的派对吗？", "喜欢热闹的派对"),
    ("我适合做什么工作？", "做什么工作"),
])
def test_an_inference_question_gives_its_topic_without_the_frame(question: str, topic: str) -> None:
    assert inference_statement(question) == topic


@pytest.mark.parametrize("question", [
    "When did I start my new job?", "What is my sister's name?", "Where did we go last weekend?",
    "What do I usually eat for breakfast?", "How many kids do I have?", "我上周去了哪里？", "我妹妹叫什么名字？",
    "Would?", "你觉得呢？",
])
def test_a_recall_question_or_a_bare_frame_gives_none(question: str) -> None:
    assert inference_statement(question) is None


def test_blend_is_a_unit_vector_between_the_two() -> None:
    q = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    s = np.array([0.0, 1.0, 0.0], dtype=np.float32)
    mixed = blend(q, s)
    assert mixed.dtype == np.float32 and abs(float(np.linalg.norm(mixed)) - 1.0) < 1e-6
    assert float(mixed @ q) > 0 and float(mixed @ s) > 0
    assert np.allclose(blend(q, s, 0.0), q) and np.allclose(blend(q, s, 1.0), s)
    assert 0.0 < STATEMENT_WEIGHT < 1.0
    assert np.allclose(blend(q, -q, 0.5), q)  # they cancel: the question's own vector
