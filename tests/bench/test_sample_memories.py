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


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _mem(case: str, content: str, kind: str = "fact") -> dict[str, object]:
    return {"set": "persona", "case": case, "memory_type": kind, "key": f"{kind}-x", "content": content}


def test_all_takes_every_memory_in_dump_order(tmp_path: Path) -> None:
    _dump(tmp_path)
    argv = ["sample", str(tmp_path), "--sets", "memorybank-cn,persona", "--all", "--cases", str(tmp_path)]
    assert sample_memories.main([*argv, "--seed", "1", "--out", str(tmp_path / "a.jsonl")]) == 0
    assert sample_memories.main([*argv, "--seed", "2", "--out", str(tmp_path / "b.jsonl")]) == 0
    a = (tmp_path / "a.jsonl").read_text()
    assert a == (tmp_path / "b.jsonl").read_text()  # no draw: the seed does not matter
    rows = [json.loads(x) for x in a.splitlines()]
    assert [r["content"] for r in rows if r["set"] == "memorybank-cn"] == [f"content {i}" for i in range(50)]
    assert len(rows) == 55 and all(r["label"] == "" for r in rows)


def test_reuse_fills_agreed_labels_and_leaves_disagreements(tmp_path: Path) -> None:
    earlier = _write(tmp_path / "old.jsonl", [
        {**_mem("u1", "I have a dog"), "label": "good", "note": "a pet [label reused from older.jsonl]"},
        {**_mem("u1", "I have a dog"), "label": "good", "note": "pet"},
        {**_mem("u1", "thanks a lot"), "label": "thanks_request_mood", "note": ""},
        {**_mem("u1", "thanks a lot"), "label": "good", "note": ""},
        {**_mem("u2", "I like tea", "preference"), "label": "good", "note": ""},
        {"set": "persona", "case": "u3", "memory_type": "fact", "content": "x", "end_kind": "changed",
         "end_content": "I live in Oslo", "end_type": "fact", "end_label": "good", "end_note": "city",
         "label": "day_event"}])
    rows = [{**_mem("u1", "I have a dog"), "label": "", "note": ""},
            {**_mem("u1", "thanks a lot"), "label": "", "note": ""},
            {**_mem("u2", "I like tea"), "label": "", "note": ""},  # stored under another type: read anew
            {**_mem("u3", "I live in Oslo"), "label": "", "note": ""}]
    counts = sample_memories.reuse(rows, sample_memories.earlier_labels([earlier]))
    assert counts == {"reused": 2, "conflict": 1, "unlabelled": 1}
    assert rows[0]["label"] == "good" and rows[0]["note"] == "pet [label reused from old.jsonl]"
    assert rows[1]["label"] == "" and rows[1]["earlier"] == {"thanks_request_mood": 1, "good": 1}
    assert rows[2]["label"] == "" and rows[3]["label"] == "good"


def test_delta_counts_gone_and_new_and_gives_exact_precision_once_read(tmp_path: Path) -> None:
    full = [{**_mem("u1", "I have a dog"), "label": "good", "sample_id": "p-1"},
            {**_mem("u1", "I went for a walk today"), "label": "day_event", "sample_id": "p-2"},
            {**_mem("u2", "I like tea", "preference"), "label": "good", "sample_id": "p-3"},
            {**_mem("u2", "I like tea", "preference"), "label": "good", "sample_id": "p-4"}]
    full_file = _write(tmp_path / "full.jsonl", full)
    other = tmp_path / "other"
    other.mkdir()
    _write(other / "persona.memories.jsonl", [
        _mem("u1", "I have a dog"), _mem("u2", "I like tea", "preference"),  # one copy of the tea memory gone
        _mem("u1", "I went for a walk today", "preference"),  # same text, another type: new
        _mem("u3", "I live in Oslo")])
    rows_file = tmp_path / "rows.jsonl"
    argv = ["delta", str(full_file), str(other), "--cases", str(tmp_path), "--rows", str(rows_file)]
    figures, _ = sample_memories.delta(full, {"persona": []}, {})
    assert figures["overall"]["after"] == {"n": 0, "good": 0, "good_share": None}
    assert sample_memories.main(argv) == 0
    rows = [json.loads(x) for x in rows_file.read_text().splitlines()]
    assert sorted((r["kind"], r["content"]) for r in rows) == [
        ("gone", "I like tea"), ("gone", "I went for a walk today"), ("new", "I live in Oslo"),
        ("new", "I went for a walk today")]
    assert all(not r["label"] for r in rows if r["kind"] == "new")
    near = {r["content"]: r.get("near") for r in rows if r["kind"] == "new"}
    assert near["I went for a walk today"] == {"content": "I went for a walk today", "memory_type": "fact",
                                               "label": "day_event", "overlap": 1.0}
    assert near["I live in Oslo"] is None  # no gone memory of that user
    bounds, _ = sample_memories.delta(full, {"persona": [json.loads(x) for x in
                                      (other / "persona.memories.jsonl").read_text().splitlines()]}, {})
    after = bounds["overall"]["after"]
    assert bounds["overall"]["before"]["good"] == 3 and bounds["overall"]["gone"]["good"] == 1
    assert after["n"] == 4 and (after["good_min"], after["good_max"]) == (2, 4)
    for r in rows:  # the reader labels the new ones; the file is then passed back with --labels
        if r["kind"] == "new":
            r["label"] = "good" if "Oslo" in r["content"] else "day_event"
    _write(rows_file, rows)
    labels = sample_memories.earlier_labels([rows_file])
    exact, _ = sample_memories.delta(full, {"persona": [json.loads(x) for x in
                                     (other / "persona.memories.jsonl").read_text().splitlines()]}, labels)
    assert exact["overall"]["after"] == {"n": 4, "good": 3, "good_share": 0.75}
    assert exact["per_set"]["persona"]["new"]["labels"] == {"good": 1, "day_event": 1}


def test_delta_refuses_an_unlabelled_full_store() -> None:
    with pytest.raises(ValueError, match="unlabelled"):
        sample_memories.delta([{**_mem("u1", "x"), "label": "", "sample_id": "p-1"}], {"persona": []}, {})
