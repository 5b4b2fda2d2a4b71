"""The written chat pairs of ``training/pair_chat_rows_upd34.py``: two families, groups kept whole."""

from __future__ import annotations

from core.extraction.pairs import RELATIONS, script_share
from training.pair_chat_rows_upd29 import chat_pair_rows as upd29_rows
from training.pair_chat_rows_upd34 import GROUPS, SCRIPT_GROUPS, SECOND_GROUPS, chat_pair_rows
from training.train_pair_model import CHAT_FOLDS, chat_fold


def test_every_line_is_a_labelled_pair_of_its_group_and_family() -> None:
    rows = chat_pair_rows()
    assert len({g for g, _, _ in GROUPS}) == len(GROUPS)
    assert len(rows) == sum(len(lines.strip().splitlines()) for _, _, lines in GROUPS)
    assert all(r["relation"] in RELATIONS and r["new"] and r["old"] for r in rows)
    assert len({(r["old"], r["new"]) for r in rows}) == len(rows)
    assert {r["family"] for r in rows} == {"script", "second"}
    # no line is one of upd29's, and no group name is shared with its set (folds by group stay apart)
    assert not {(r["old"], r["new"]) for r in rows} & {(r["old"], r["new"]) for r in upd29_rows()}
    assert not {r["slot"] for r in rows} & {r["slot"] for r in upd29_rows()}


def test_the_script_family_mixes_scripts_and_holds_every_relation() -> None:
    rows = [r for r in chat_pair_rows() if r["family"] == "script"]
    assert len(rows) == sum(len(lines.strip().splitlines()) for _, _, lines in SCRIPT_GROUPS)
    assert {r["relation"] for r in rows} == set(RELATIONS)
    # the two sides differ in script, or one of them is zh-en mixed
    assert all(abs(script_share(r["old"]) - script_share(r["new"])) > 0.2
               or 0.0 < script_share(r["old"]) < 1.0 or 0.0 < script_share(r["new"]) < 1.0 for r in rows)


def test_every_second_memory_group_has_a_line_that_keeps_the_old_value() -> None:
    rows = [r for r in chat_pair_rows() if r["family"] == "second"]
    for group, _, _ in SECOND_GROUPS:
        mine = {r["relation"] for r in rows if r["slot"] == f"chat34_{group}"}
        assert "supersede" in mine and mine & {"refine", "unrelated"}


def test_folds_keep_a_group_together_and_use_every_fold() -> None:
    by_group: dict[str, set[int]] = {}
    for r in chat_pair_rows():
        by_group.setdefault(r["slot"], set()).add(chat_fold(r))
    assert all(len(f) == 1 for f in by_group.values())
    assert {f for fs in by_group.values() for f in fs} == set(range(CHAT_FOLDS))
