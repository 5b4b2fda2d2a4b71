"""``bench.type_errors``: an expected item held under another type, one held, one held nowhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import type_errors


def _case(cid: str, message: str, memory_type: str, term: str) -> str:
    return json.dumps({"id": cid, "conversation": [{"role": "user", "content": message}],
                       "expect": [{"type": memory_type, "any_of": [term]}]})


def test_wrong_type_held_and_missing_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = tmp_path / "c.jsonl"
    cases.write_text("\n".join([
        _case("t-wrong", "I'm allergic to peanuts", "goal", "peanut"),
        _case("t-held", "I'm allergic to peanuts", "fact", "peanut"),
        _case("t-missing", "I'm allergic to peanuts", "fact", "zebra"),
    ]) + "\n", encoding="utf-8")
    assert type_errors.main([str(cases)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("WRONG t-wrong goal") for line in lines)
    assert any(line.startswith("MISSING t-missing fact") for line in lines)
    assert not any("t-held" in line for line in lines)
    assert json.loads(lines[-1]) == {"items": 3, "held": 1, "wrong_type": 1, "missing": 1}
