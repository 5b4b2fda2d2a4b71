"""The precision judge kit: a seeded per-set sample with empty labels, a dump of stored memories, scoring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import sample_memories
from bench.bench_public import dump_memories

REPO = Path(__file__).resolve().parents[2]


def _dump(folder: Path) -> None:
    for name, n in (("memorybank-cn", 50), ("persona", 5)):
        run = {"cases": [{"id": f"{name}-u{i}", "memories": [f"[fact] k{i}: content {i}"]} for i in range(n)]}
        dump_memories(name, run, folder)


def test_dump_then_seeded_sample_with_empty_labels(tmp_path: Path) -> None:
    _dump(tmp_path)
    row = json.loads((tmp_path / "memorybank-cn.memories.jsonl").read_text().splitlines()[3])
    assert row == {"set": "memorybank-cn", "case": "memorybank-cn-u3", "memory_type": "fact", "key": "k3",
                   "content": "content 3"}
    argv = ["sample", str(tmp_path), "--sets", "memorybank-cn,persona", "--per-set", "40", "--cases",
            str(tmp_path)]
    assert sample_memories.main([*argv, "--out", str(tmp_path / "a.jsonl")]) == 0
    assert sample_memories.main([*argv, "--out", str(tmp_path / "b.jsonl")]) == 0
    a = (tmp_path / "a.jsonl").read_text()
    assert a == (tmp_path / "b.jsonl").read_text()  # the seed fixes the draw
    rows = [json.loads(x) for x in a.splitlines()]
    sets = [r["set"] for r in rows]
    assert sets.count("memorybank-cn") == 40 and sets.count("persona") == 5
    assert len({r["case"] for r in rows}) == 45 and all(r["label"] == "" for r in rows)


def test_missing_dump_skips(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert sample_memories.main(["sample", str(tmp_path), "--out", str(tmp_path / "x.jsonl")]) == 0
    assert "skipped" in capsys.readouterr().out


def test_nearest_turn_and_score() -> None:
    turns = ["hi there", "I love Arabian horses!"]
    assert sample_memories.nearest_turn("loves Arabian horses", turns) == "I love Arabian horses!"
    rows = [{"sample_id": "a", "set": "x", "label": "good"}, {"sample_id": "b", "set": "x", "label": "blob"},
            {"sample_id": "c", "set": "y", "label": "good"}]
    s = sample_memories.score(rows)
    assert s["overall"]["good_share"] == round(2 / 3, 4)
    assert s["per_set"]["x"]["labels"] == {"good": 1, "blob": 1}
    with pytest.raises(ValueError, match="unlabelled"):
        sample_memories.score([{"sample_id": "d", "set": "x", "label": ""}])
