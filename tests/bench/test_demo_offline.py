"""The demo's users (``cli/samples/demo_conversations.jsonl``) played through the offline extractor,
refine and semantic dedup (``bench/eval_rules_offline.py --demo``, each conversation one burst as
the debounce coalesces it): none of issue 13's demo defects."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.eval_rules_offline import Memory, _deduper, make_extractor, play_demo
from core.text import regex as re

REPO = Path(__file__).resolve().parents[2]

DEMO = REPO / "cli" / "samples" / "demo_conversations.jsonl"


@pytest.fixture(scope="module", params=[True, False], ids=["burst", "turn-by-turn"])
def demo(request: pytest.FixtureRequest) -> dict[str, list[Memory]]:
    played = play_demo(DEMO, make_extractor(classifier=True), _deduper(), burst=request.param)
    return {user: [m for m in memories.values() if m.active] for user, memories in played.items()}


def _with(memories: list[Memory], *words: str) -> list[Memory]:
    return [m for m in memories if any(w.lower() in m.content.lower() for w in words)]


def test_the_assistants_name_is_not_stored(demo: dict[str, list[Memory]]) -> None:
    assert not [m for ms in demo.values() for m in _with(ms, "小七", "叫你", "call you")]


def test_the_sons_taste_is_a_family_fact(demo: dict[str, list[Memory]]) -> None:
    about_son = _with(demo["demo-dong"], "恐龙")
    assert [(m.memory_type, m.key) for m in about_son] == [("fact", "fact-family")]


def test_vegetarian_is_one_memory(demo: dict[str, list[Memory]]) -> None:
    assert len(_with(demo["demo-alice"], "vegetarian", "meat")) == 1


def test_keys_are_readable(demo: dict[str, list[Memory]]) -> None:
    keys = [m.key for ms in demo.values() for m in ms]
    assert keys and all(re.fullmatch(r"[a-z]+-[a-z_]+", k) for k in keys), keys
    assert not [k for k in keys if k.endswith("-shell")]  # "fish" in a recipe rule is food


def test_long_term_plans_are_goals(demo: dict[str, list[Memory]]) -> None:
    for user, words in (("demo-bo", "马拉松"), ("demo-feng", "科普书"), ("demo-emma", "Japan")):
        assert [m.memory_type for m in _with(demo[user], words)] == ["goal"], user


def test_updates_and_retractions_hold(demo: dict[str, list[Memory]]) -> None:
    emma, dong = demo["demo-emma"], demo["demo-dong"]
    assert not _with(emma, "horror") and not _with(emma, "Seattle")
    assert [m.key for m in _with(emma, "Portland")] == ["fact-home_city"]
    assert _with(dong, "燕麦拿铁") and not _with(dong, "美式")
    assert not [m for m in dong if m.content.startswith("更正")]
