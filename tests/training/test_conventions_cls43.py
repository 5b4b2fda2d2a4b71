"""Session 24's convention relabel and written rows (cls43): what the relabel changes and leaves, the rows'
append / remove round trip, no copies of cases. Measured, not built in: the shipped corpus is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.corpus_rows import appended_rows
from training.hand_rows import flat
from training.relabel_conventions_cls43 import main as relabel_main
from training.relabel_conventions_cls43 import relabel, rule_of
from training.train_memory_classifier import CORPUS
from training.utterance_rows_conv43 import ROWS, check, main

REPO = Path(__file__).resolve().parents[2]


def _row(text: str, kind: str) -> dict[str, object]:
    return {"id": "u-x", "text": text, "keep": True, "type": kind, "source": "hand", "family": "f"}


def test_a_chosen_diet_becomes_a_taste_and_a_diet_of_faith_or_health_stays_a_fact() -> None:
    assert rule_of(_row("I'm vegetarian, no meat or fish", "fact")) == "diet"
    assert rule_of(_row("我是素食者，不吃肉也不吃鱼", "fact")) == "diet"
    assert rule_of(_row("I'm vegan because of my allergy to eggs", "fact")) is None
    assert rule_of(_row("我是佛教徒，初一十五吃素", "fact")) is None
    assert rule_of(_row("my sister is vegetarian so we cook beans", "fact")) is None  # someone else
    assert rule_of(_row("I'm married and I'm a vegetarian.", "fact")) is None  # another fact beside it
    assert rule_of(_row("I'm a vegetarian chef.", "fact")) is None  # a job


def test_an_instrument_played_becomes_a_taste_unless_a_job_a_plan_or_a_story() -> None:
    assert rule_of(_row("I play the violin and the guitar.", "fact")) == "instrument"
    assert rule_of(_row("I'm a piano teacher on the side.", "fact")) is None
    assert rule_of(_row("I started playing guitar when I was three.", "fact")) is None
    assert rule_of(_row("my son plays piano, he's pretty good", "fact")) is None


def test_a_device_the_user_has_becomes_a_fact_and_a_taste_for_one_stays() -> None:
    assert rule_of(_row("I switched from Android to iPhone last month", "preference")) == "device"
    assert rule_of(_row("我偏好用苹果的产品，手机电脑平板都是", "preference")) is None
    assert rule_of({**_row("I switched to an iPhone", "preference"), "keep": False}) is None


def test_relabel_is_idempotent_and_changes_only_the_type(tmp_path: Path) -> None:
    rows = [_row("I am a vegetarian.", "fact"), _row("I like tea", "preference")]
    changed = relabel(rows)
    assert [(rule, r["type"]) for rule, r in changed] == [("diet", "preference")]
    assert relabel(rows) == []
    corpus = tmp_path / "u.jsonl"
    corpus.write_text("".join(json.dumps(_row("I play the piano and guitar.", "fact")) + "\n"
                              for _ in range(1)), encoding="utf-8")
    assert relabel_main(["--corpus", str(corpus), "--dry-run"]) == 0
    assert json.loads(corpus.read_text(encoding="utf-8"))["type"] == "fact"
    assert relabel_main(["--corpus", str(corpus)]) == 0
    assert json.loads(corpus.read_text(encoding="utf-8"))["type"] == "preference"


def test_append_adds_the_rows_with_their_labels_and_remove_takes_them_out(tmp_path: Path) -> None:
    corpus = tmp_path / "utterances.jsonl"
    without = CORPUS.read_text(encoding="utf-8")
    added = appended_rows(main, corpus, without)
    assert len(added) == len(ROWS)
    labels = {flat(t): k for t, k, _ in ROWS}
    for row in added:
        assert row["keep"] is True and row["type"] == labels[flat(row["text"])] and row["source"] == "hand"
        assert str(row["family"]).startswith("conv43_")
    assert {r["type"] for r in added} == {"fact", "preference", "goal", "project"}
    assert main(["--remove", "--corpus", str(corpus)]) == 0
    assert corpus.read_text(encoding="utf-8") == without


def test_rows_are_no_copies_of_the_case_files() -> None:
    cases = sorted((REPO / "bench" / "data").glob("*_cases.jsonl"))
    assert cases
    assert check(cases) == []
