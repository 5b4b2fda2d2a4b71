"""``bench.trace_missing``: each missed expected item gets the stage that lost it."""

from __future__ import annotations

import json
from pathlib import Path

from bench import trace_missing


def _case(cid: str, turns: list[str], memory_type: str, term: str) -> dict[str, object]:
    conversation = []
    for i, text in enumerate(turns):
        if i:
            conversation.append({"role": "assistant", "content": "ok."})
        conversation.append({"role": "user", "content": text})
    return {"id": cid, "conversation": conversation, "expect": [{"type": memory_type, "any_of": [term]}]}


def test_held_items_are_not_rows_and_each_miss_gets_its_stage(tmp_path: Path) -> None:
    cases = [
        _case("t-held", ["I'm allergic to peanuts"], "fact", "peanut"),
        _case("t-type", ["I'm allergic to peanuts"], "goal", "peanut"),
        _case("t-words", ["I'm allergic to peanuts"], "fact", "zebra"),
        _case("t-question", ["do you think i should learn the cello?"], "goal", "cello"),
    ]
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    out = tmp_path / "t.json"
    assert trace_missing.main(["--json", str(out), str(path)]) == 0
    rows = {r["case"]: r for r in json.loads(out.read_text(encoding="utf-8"))["c"]}
    assert set(rows) == {"t-type", "t-words", "t-question"}
    assert rows["t-type"]["stage"] == "type:rules"  # the allergy slot typed it a fact
    assert rows["t-words"]["stage"] == "not-in-words"
    assert rows["t-question"]["stage"] == "unproposed:question"


def test_compare_counts_stages_before_and_after(tmp_path: Path) -> None:
    a = {"s": [{"stage": "unproposed:no-trigger:under-bar"}, {"stage": "type:rules"}]}
    b = {"s": [{"stage": "type:rules"}]}
    text = trace_missing.compare(a, b)
    assert "unproposed:no-trigger:under-bar    1 -> 0" in text
    assert "total                         2 -> 1" in text
