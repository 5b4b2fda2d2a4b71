"""Issue 24, "one memory, one thing" (session 18, helper ref33): a merge into a keyed memory keeps it one
thing; where only the topic words join a statement to a taste or a goal, the embedder's cosine must agree;
a taste kept under another named slot replaces no taste; a question is never part of a new value.
Sentences written for these tests, none from an evaluation set."""

from __future__ import annotations

import numpy as np
import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.extraction.rules.coherence import ONE_THING_COSINE, nearest_cosine, one_thing
from core.extraction.rules.judge_values import without_requests
from core.extraction.rules.refine import CandidateMeta, refine_candidates
from core.types import MemoryType


def test_topic_words_alone_need_the_embedder_to_agree() -> None:
    old, new = "I want to open a small bakery downtown", "I want to get better at chess openings"
    far, near = (lambda a, b: ONE_THING_COSINE - 0.1), (lambda a, b: ONE_THING_COSINE + 0.01)
    # filed under one goal slot by its topic words: the embedder decides
    assert one_thing(old, new, MemoryType.GOAL, "goal-career", True, near) is (
        one_thing(old, new, MemoryType.GOAL, "goal-career", True) )
    # a shared salient word joins them whatever the embedder says
    assert one_thing("I love green tea", "green tea with honey is the best", MemoryType.PREFERENCE,
                     "preference-drinks", False, far)


def test_nearest_cosine_reads_the_nearest_statement() -> None:
    vectors = {"a": [1.0, 0.0], "b": [0.0, 1.0], "n": [0.6, 0.8]}

    def embed(texts: list[str]) -> np.ndarray:
        return np.array([vectors[t] for t in texts], dtype=np.float32)

    assert nearest_cosine(embed, "a; b", "n") == pytest.approx(0.8)
    assert nearest_cosine(embed, "a", "n") == pytest.approx(0.6)


def test_a_statement_far_from_the_goal_becomes_its_own_memory() -> None:
    existing = [ExistingMemory("goal-language", "goal", "I want a quiet room to record my podcast in")]
    cand = MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.GOAL, key="goal-language",
                           content="I'm trying to pick up some Italian before the summer", importance=3,
                           confidence=0.9)
    kept = refine_candidates(existing, [cand], {}, cand.content, lambda a, b: ONE_THING_COSINE - 0.1)
    assert [c.content for c in kept] == [cand.content]
    assert kept[0].key != "goal-language"  # its own memory; the podcast room is not touched
    merged = refine_candidates(existing, [cand], {"goal-language": CandidateMeta()}, cand.content,
                               lambda a, b: ONE_THING_COSINE + 0.01)
    assert one_thing(existing[0].content, cand.content, MemoryType.GOAL, "goal-language", True,
                     lambda a, b: ONE_THING_COSINE + 0.01) is (merged[0].key == "goal-language")


def test_a_question_after_a_statement_is_no_part_of_its_new_value() -> None:
    assert without_requests("I switched to oat milk now, Do you drink milk, Mostly in coffee") == (
        "I switched to oat milk now, Mostly in coffee")
    assert without_requests("改喝燕麦奶了，你喝牛奶吗") == "改喝燕麦奶了"


@pytest.mark.parametrize("message,existing", [
    ("最近开始追一部纪录片《海洋》，很喜欢里面的配乐。你看纪录片吗？",
     ExistingMemory("preference-books", "preference", "我一直很喜欢看小说，尤其是推理小说")),
    ("Lately I started watching a cooking show, love the host. Do you watch TV?",
     ExistingMemory("preference-books", "preference", "I have always loved reading mystery novels")),
])
def test_a_taste_of_another_thing_does_not_replace_a_taste(ex: RulesExtractor, message: str,
                                                           existing: ExistingMemory) -> None:
    data = ExtractionInput(message, existing=(existing,))
    refined = ex.refine(data, ex.extract(data))
    assert not any(c.supersedes == existing.key or c.key == existing.key for c in refined)
    assert all("?" not in c.content and "吗" not in c.content for c in refined)
