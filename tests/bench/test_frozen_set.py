"""The frozen test set of issue 24 (``bench/data/frozen/cases.jsonl``): unchanged, well formed, original.

The file must hash to the SHA-256 its datasheet states; every case follows the MISSION.md format with an
id ``<lang>-<category>-<NNN>``; the category counts are the ones the set promises; no turn or query repeats
a dev case (checked when ``../shared`` is present; ``PAI_MEMORY_SHARED`` points elsewhere).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest

from bench.frozen_originality import file_strings, frozen_texts, normalise
from core.evaluation import CATEGORIES, case_category, load_cases

REPO = Path(__file__).resolve().parents[2]

FROZEN = REPO / "bench" / "data" / "frozen"
CASES = FROZEN / "cases.jsonl"
SHARED = Path(os.environ.get("PAI_MEMORY_SHARED", REPO / ".." / "shared"))
ID = re.compile(r"^(zh|en|mix)-([a-z]+)-(\d{3})$")
TYPES = {"preference", "fact", "goal", "project", "constraint"}
MIN_PER_CATEGORY = {**dict.fromkeys(CATEGORIES, 12), "update": 24, "forget": 14}


def _raw() -> list[dict[str, object]]:
    return [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines()]


def test_sha256_matches_the_datasheet() -> None:
    sheet = (FROZEN / "DATASHEET.md").read_text(encoding="utf-8")
    stated = re.search(r"SHA-256 of `cases\.jsonl`:\*\* `([0-9a-f]{64})`", sheet)
    assert stated, "the datasheet states no SHA-256"
    assert hashlib.sha256(CASES.read_bytes()).hexdigest() == stated.group(1)


def test_every_case_is_well_formed() -> None:
    raw = _raw()
    assert all(set(c) == {"id", "lang", "conversation", "expect", "forbid", "queries"} for c in raw)
    cases = load_cases(CASES)  # the evaluator's own parser accepts every line
    assert len({c.id for c in cases}) == len(cases)
    for case in cases:
        m = ID.match(case.id)
        assert m, case.id
        assert m.group(1) == case.lang and m.group(2) in CATEGORIES, case.id
        roles = [t.role for t in case.conversation]
        assert 3 <= len(roles) <= 9 and roles[0] == "user", case.id
        assert all(r in ("user", "assistant") for r in roles), case.id
        assert all(a != b for a, b in pairwise(roles)), f"{case.id}: roles must alternate"
        assert all(t.content.strip() for t in case.conversation), case.id
        assert all(e.type in TYPES and e.any_of and all(a.strip() for a in e.any_of) for e in case.expect)
        assert all(f.strip() for f in case.forbid), case.id
        for q in case.queries:
            assert q.k == (2 if m.group(2) == "multi" else 3), case.id
            assert q.query.strip() and q.expect_any_of, case.id
        if m.group(2) == "noise":
            assert not case.expect and not case.queries and case.forbid, case.id
        else:
            assert case.expect or case.forbid, f"{case.id} checks nothing"


def test_counts_by_category_and_language() -> None:
    cases = load_cases(CASES)
    assert len(cases) >= 160
    per_category = Counter(case_category(c.id) for c in cases)
    for cat, least in MIN_PER_CATEGORY.items():
        assert per_category[cat] >= least, (cat, per_category[cat])
    assert {c.lang for c in cases} == {"zh", "en", "mix"}


def test_no_turn_or_query_repeats_a_dev_case() -> None:
    dev = SHARED / "eval" / "dev_cases.jsonl"
    if not dev.exists():
        pytest.skip(f"{dev} absent")
    seen = {normalise(s) for s in file_strings(dev)} - {""}
    hits = [(cid, text) for cid, text in frozen_texts(CASES) if normalise(text) in seen]
    assert not hits


def test_the_second_blind_set_is_unchanged_and_well_formed() -> None:
    """``blind_s12_cases.jsonl`` (session 12): the SHA-256 its datasheet states, MISSION.md cases, ids
    ``<lang>-<category>-<NNN>`` in every category."""
    blind = FROZEN / "blind_s12_cases.jsonl"
    sheet = (FROZEN / "BLIND_S12_DATASHEET.md").read_text(encoding="utf-8")
    stated = re.search(r"SHA-256 of `blind_s12_cases\.jsonl`:\*\* `([0-9a-f]{64})`", sheet)
    assert stated, "the datasheet states no SHA-256"
    assert hashlib.sha256(blind.read_bytes()).hexdigest() == stated.group(1)
    cases = load_cases(blind)
    assert len(cases) >= 110 and len({c.id for c in cases}) == len(cases)
    assert all(ID.match(c.id) for c in cases)
    assert set(Counter(case_category(c.id) for c in cases)) == set(CATEGORIES)
