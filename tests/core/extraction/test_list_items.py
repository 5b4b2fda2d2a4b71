"""List-style self-introductions (issue 24, session 19, ``multi34``): the list-item head tells the items of a
self-introduction told as a list (a job with a place, a bare city, a count of children, a condition) from a
verb's objects listed after it, greetings and the clauses of ordinary prose; a list's items are read by the
list fragment model, everything else as before. Sentences written for this test (none from an evaluation set);
the last ones run through the classifier-gated extractor."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.extraction.candidates import CandidateOp, ExtractionInput, MemoryCandidate
from core.extraction.list_items import ListItemHead, shipped_list_item
from core.extraction.logistic_head import HeadShapeError, LogisticHead
from core.extraction.rules import RulesExtractor
from core.extraction.rules.analysis import analyse
from core.extraction.rules.gate_units import item_candidates, list_message, long_enough
from core.extraction.rules.segment import split_clauses
from core.types import MemoryType


def test_only_a_message_of_short_clauses_is_read_for_items() -> None:
    assert item_candidates(split_clauses("ok so. 29, welder, rotterdam. two kids. lactose intolerant"))
    assert not item_candidates(split_clauses(
        "I have been working as a carpenter for about twelve years now, mostly kitchens and stairs, and "
        "lately I have started teaching evening classes at the community college near my house"))
    assert not item_candidates(split_clauses("i'm a nurse, i like cats"))  # too few clauses


def test_a_list_needs_half_its_clauses_and_three_at_least_as_items() -> None:
    clauses = split_clauses("hi. friend. today i walked along the canal with my sister. it was lovely")
    assert not list_message(clauses, 2)
    assert list_message(split_clauses("29, welder, rotterdam, two kids"), 3)
    assert not list_message(split_clauses("29, welder, rotterdam, two kids, and i like the sea a lot"), 2)


def test_a_list_item_needs_only_one_word() -> None:
    assert long_enough("Rotterdam", item=True) and long_enough("吃素", item=True)
    assert long_enough("34", item=True)
    assert not long_enough("Rotterdam") and not long_enough("", item=True)
    assert not long_enough("h", item=True) and not long_enough("我", item=True)  # a lone letter is no item


def test_a_flood_of_short_fragments_is_no_list() -> None:
    assert not item_candidates(split_clauses("ab, 我a, 7, " * 12))  # 36 clauses: no self-introduction


def test_the_head_saves_and_loads_and_refuses_other_shapes(tmp_path: Path) -> None:
    head = shipped_list_item()
    path = tmp_path / "head.npz"
    head.save(path)
    again = ListItemHead.load(path)
    vectors = np.random.default_rng(0).normal(size=(3, head.head.dim)).astype(np.float32)
    assert np.allclose(again.p_item(vectors), head.p_item(vectors))
    assert again.is_item(vectors) == [bool(p >= head.threshold) for p in head.p_item(vectors)]
    ListItemHead(LogisticHead.of(np.zeros(7, dtype=np.float32), 0.0, bars={"threshold": 0.5})).save(path)
    with pytest.raises(HeadShapeError):
        ListItemHead.load(path)


def _items(ex: RulesExtractor, text: str) -> frozenset[int]:
    assert ex._gate is not None
    return ex._gate.list_items(analyse(ExtractionInput(user_message=text)))


def test_items_of_an_introduction_are_items_and_a_verbs_objects_are_not(ex: RulesExtractor) -> None:
    assert _items(ex, "quick intro. tram driver in lisbon. 44. married, three girls. coeliac. big on chess")
    assert not _items(ex, "Well, mostly I enjoy knitting, sewing, baking bread, painting, and gardening.")
    assert not _items(ex, "Hello, friend! This morning I went to the farmers market and bought some plums.")
    assert not _items(ex, "嗯，我平时喜欢跑步，游泳，打羽毛球，看电影，听音乐。")


def _stored(ex: RulesExtractor, text: str) -> list[MemoryCandidate]:
    data = ExtractionInput(user_message=text)
    return [c for c in ex.refine(data, ex.extract(data)) if c.op is CandidateOp.UPSERT]


def _with(stored: list[MemoryCandidate], word: str) -> list[MemoryCandidate]:
    return [c for c in stored if word in c.content.lower()]


def test_items_in_sentences_of_their_own_are_each_read(ex: RulesExtractor) -> None:
    stored = _stored(ex, "hey! quick context. crane operator at the port. Gdansk. three kids. "
                         "and I'm building a wooden kayak in my garage")
    crane = _with(stored, "crane operator")
    assert crane and crane[0].memory_type is MemoryType.FACT, stored


def test_the_leads_and_moods_of_a_list_are_not_stored(ex: RulesExtractor) -> None:
    stored = _stored(ex, "so yeah. librarian, Utrecht. knackered today lol. two cats.")
    assert not _with(stored, "so yeah") and not _with(stored, "knackered"), stored


def test_items_of_a_list_are_not_read_as_of_the_moment(ex: RulesExtractor) -> None:
    # the horizon model, trained on whole statements, reads a verbless item as the day's news; the list
    # fragment model read it, so the horizon model does not (``CandidateMeta.listed``)
    assert _with(_stored(ex, "quick intro. tram driver in lisbon. 44. married, three girls. coeliac."),
                 "three girls")
    # (not "nurse, night shifts": whether the gate keeps that item turned on a machine's embedding arithmetic)
    assert _with(_stored(ex, "hello. baker in lyon. 51. three cats. allergic to nuts."), "baker in lyon")
