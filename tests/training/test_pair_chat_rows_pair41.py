"""The written chat pairs of ``training/pair_chat_rows_pair41.py``: long chat and cue-word lines against a
live memory, groups kept whole, no line shared with the earlier written sets."""

from __future__ import annotations

from pathlib import Path

from core.extraction.pairs import RELATIONS, UPDATE_CUE
from training.pair_chat_rows_pair41 import CUE_GROUPS, GROUPS, OTHER_GROUPS, case_copies, chat_pair_rows
from training.pair_chat_rows_upd29 import chat_pair_rows as upd29_rows
from training.pair_chat_rows_upd34 import chat_pair_rows as upd34_rows
from training.train_pair_model import CHAT_FOLDS, chat_fold


def test_every_line_is_a_labelled_pair_of_its_group_and_family() -> None:
    rows = chat_pair_rows()
    assert len({g for g, _, _ in GROUPS}) == len(GROUPS) == len(OTHER_GROUPS) + len(CUE_GROUPS)
    assert len(rows) == sum(len(lines.strip().splitlines()) for _, _, lines in GROUPS)
    assert all(r["relation"] in RELATIONS and r["new"] and r["old"] for r in rows)
    assert len({(r["old"], r["new"]) for r in rows}) == len(rows)
    assert {r["family"] for r in rows} == {"other", "cue"}
    earlier = upd29_rows() + upd34_rows()
    assert not {(r["old"], r["new"]) for r in rows} & {(r["old"], r["new"]) for r in earlier}
    assert not {r["slot"] for r in rows} & {r["slot"] for r in earlier}


def test_each_group_holds_a_line_about_something_else_and_a_real_change_or_detail() -> None:
    rows = chat_pair_rows()
    for group, _, _ in GROUPS:
        mine = {r["relation"] for r in rows if r["slot"] == f"chat41_{group}"}
        assert "unrelated" in mine and mine & {"supersede", "refine"}
    # the family the shipped model misreads: most unrelated lines of the cue groups carry a change-cue word
    cue_unrelated = [r["new"] for r in rows if r["family"] == "cue" and r["relation"] == "unrelated"]
    assert sum(bool(UPDATE_CUE.search(t)) for t in cue_unrelated) >= 0.9 * len(cue_unrelated)


def test_the_other_family_is_long_chat() -> None:
    rows = [r for r in chat_pair_rows() if r["family"] == "other" and r["relation"] == "unrelated"]
    assert min(len(r["new"]) for r in rows) >= 30


def test_folds_keep_a_group_together_and_use_every_fold() -> None:
    by_group: dict[str, set[int]] = {}
    for r in chat_pair_rows():
        by_group.setdefault(r["slot"], set()).add(chat_fold(r))
    assert all(len(f) == 1 for f in by_group.values())
    assert {f for fs in by_group.values() for f in fs} == set(range(CHAT_FOLDS))


def test_no_line_is_a_copy_of_a_guard_case(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[2]
    assert case_copies(sorted((repo / "bench" / "data").glob("*_cases.jsonl"))) == []
    line = chat_pair_rows()[0]["new"]
    case = tmp_path / "case.jsonl"
    case.write_text('{"conversation": [{"role": "user", "content": "' + line + '"}]}\n', encoding="utf-8")
    assert case_copies([case]) == [line]
