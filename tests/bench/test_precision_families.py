"""``bench.precision_families``: a dumped store joined with the precision labels, counted per set and half."""

from __future__ import annotations

import json
from pathlib import Path

from bench.precision_families import half, label_store, table


def _write(path: Path, rows: list[dict[str, str]]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def test_halves_split_memorybank_users_by_number() -> None:
    assert half({"set": "memorybank-en", "case": "mb-en-04"}) == "dev"
    assert half({"set": "memorybank-cn", "case": "mb-cn-13"}) == "held"
    assert half({"set": "persona", "case": "spc-0003"}) == "all"


def test_labels_join_by_content_and_disagreeing_files_leave_a_memory_unlabelled(tmp_path: Path) -> None:
    dump = tmp_path / "dump"
    dump.mkdir()
    mems = [{"set": "memorybank-en", "case": "mb-en-02", "memory_type": "fact", "key": "fact-job",
             "content": "I teach piano"},
            {"set": "memorybank-en", "case": "mb-en-03", "memory_type": "goal", "key": "goal-travel",
             "content": "I plan a walk today"},
            {"set": "memorybank-en", "case": "mb-en-03", "memory_type": "preference",
             "key": "preference-food", "content": "I like soup"}]
    _write(dump / "memorybank-en.memories.jsonl", mems)
    full, later = tmp_path / "full.jsonl", tmp_path / "later.jsonl"
    _write(full, [{**mems[0], "label": "good"}, {**mems[1], "label": "day_event"},
                  {**mems[2], "label": "good"}])
    _write(later, [{**mems[2], "label": "blob"}])  # a second file that disagrees
    rows = label_store(dump, [full, later])
    assert [r["label"] for r in rows] == ["good", "day_event", ""]
    counts = table(rows)
    assert counts["memorybank-en/dev"]["good"] == 1
    assert counts["memorybank-en/held"]["bad_by_label"] == {"day_event": 1}
    assert counts["all/all"]["unlabelled"] == 1
