"""The referent chooser's trainer: the shipped weights were fitted on today's written exchanges, and each
exchange is well-formed (its referent is a sentence before the statement, the previous turn, the assistant's
turn or none; both languages; every kind of referent present)."""

from __future__ import annotations

import hashlib
import json

from core.extraction.rules.referent_choice import CHOOSER_PATH, ReferentChooser
from core.extraction.rules.segment import has_cjk
from training.referent_rows_ref32 import rows
from training.train_referent import candidates, target


def test_the_shipped_weights_match_the_rows() -> None:
    data = json.loads(CHOOSER_PATH.read_text(encoding="utf-8"))
    sha = hashlib.sha1(json.dumps(rows(), ensure_ascii=False, sort_keys=True).encode()).hexdigest()
    assert data["rows_sha1"] == sha, "rows changed: python -m training.train_referent"
    assert 0.0 < ReferentChooser.load().threshold < 1.0


def test_every_exchange_is_well_formed() -> None:
    every = rows()
    for r in every:
        assert 0 <= r["statement"] < len(r["message"])
        if r["referent"].startswith("m"):
            assert int(r["referent"][1:]) < r["statement"]
        assert r["referent"] != "prev" or r["previous"]
        assert r["referent"] != "asst" or r["assistant"]
        labels = [label for label, _ in candidates(r, assistant=True)]
        assert target(r, assistant=True) in [*labels, "none"]
    assert {r["referent"][0] for r in every} == {"m", "p", "a", "n"}
    assert any(has_cjk(r["message"][r["statement"]]) for r in every)
    assert any(not has_cjk(r["message"][r["statement"]]) for r in every)


def test_without_the_assistants_turn_a_thing_named_only_there_has_no_referent() -> None:
    told_by_assistant = [r for r in rows() if r["referent"] == "asst"]
    assert told_by_assistant
    assert all(target(r, assistant=False) == "none" for r in told_by_assistant)
    assert all(label != "asst" for r in told_by_assistant for label, _ in candidates(r, assistant=False))
