"""Regex safety: every pattern the rules extractor and the filters run on user text, on generated
adversarial inputs, and the whole extraction on inputs up to the event size limit.

Patterns are enumerated from the modules (module-level compiled patterns, and lists/dicts of them),
so a new pattern is covered without editing this file. On a backtracking engine the laugh runs of
issue 11 take hours; every check runs in a forked child with a hang guard, so it fails, not hangs.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from multiprocessing.connection import Connection
from types import ModuleType
from typing import Any

import pytest

from core import filters, lexical, lifecycle
from core.extraction.candidates import ExtractionInput
from core.extraction.rules import (
    RulesExtractor,
    analysis,
    constraints,
    detectors,
    extractor,
    followup,
    forget,
    others,
    patterns,
    places,
    precision,
    refine,
    segment,
    slots,
    topics,
)
from core.text import regex as lre
from core.text import salient
from harness.adversarial import UNITS, adversarial_inputs, in_child, large_inputs, run
from schemas import MAX_CONTENT_CHARS

MODULES: list[ModuleType] = [
    patterns, segment, analysis, constraints, forget, detectors, places, topics, followup, extractor, refine,
    slots, filters, lexical, lifecycle, salient, others, precision,
]
# hang guards, not benchmarks: CPU time of the measuring thread (a machine busy with other work does not
# inflate it, a backtracking regex does); a linear search of 64K chars takes ~ms
PER_SEARCH_GUARD_SEC = 0.5
PER_EXTRACTION_GUARD_SEC = 3.0


def compiled_patterns() -> Iterator[tuple[str, Any]]:
    """(name, pattern) for every compiled pattern defined at module level in MODULES."""
    seen: set[int] = set()
    for module in MODULES:
        for name, value in vars(module).items():
            items: list[tuple[str, Any]] = []
            if isinstance(value, dict):
                items = [(f"{name}[{k!r}]", v) for k, v in value.items()]
            elif isinstance(value, list | tuple):
                items = [(f"{name}[{i}]", v) for i, v in enumerate(value)]
            else:
                items = [(name, value)]
            for label, item in items:
                if hasattr(item, "search") and hasattr(item, "pattern") and id(item) not in seen:
                    seen.add(id(item))
                    yield f"{module.__name__}.{label}", item


def test_every_pattern_runs_on_the_linear_engine() -> None:
    found = list(compiled_patterns())
    assert len(found) > 150, len(found)  # the enumeration really sees the tables
    backtracking = [name for name, p in found if not isinstance(p, lre.Pattern | lre.Unless)]
    assert not backtracking, f"compile these with core.text.regex: {backtracking}"


def _inputs() -> list[tuple[str, str]]:
    small = [(a.name, a.text) for a in adversarial_inputs((24, 64)) if a.name.endswith(("-p0-s1", "-p1-s0"))]
    four_k = [(f"{u}-4096", run(unit, 4096) + "x") for u, unit in UNITS.items()]
    return small + four_k + [(a.name, a.text) for a in large_inputs(65536)]


def _search_everything(conn: Connection) -> None:
    texts = _inputs()
    for name, rx in compiled_patterns():
        worst, worst_text = 0.0, ""
        for label, text in texts:
            started = time.thread_time()
            rx.search(text)
            spent = time.thread_time() - started
            if spent > worst:
                worst, worst_text = spent, label
        conn.send((name, worst, worst_text))
    conn.send(None)


def test_every_pattern_is_fast_on_adversarial_inputs() -> None:
    results = in_child(_search_everything, timeout=60.0, label="pattern search")
    slow = [(name, round(sec, 3), text) for name, sec, text in results if sec > PER_SEARCH_GUARD_SEC]
    assert len(results) > 150 and not slow, slow


def _sub_everything(conn: Connection) -> None:
    # the rewriting helpers run on whole contents (a message, a memory, a query): cleaning, key
    # normalising, tokenising; each call on inputs up to the event's content limit
    helpers = [segment.clean_content, segment.split_clauses, filters.normalise_key, filters.is_noise_content,
               lexical.tokenize, lifecycle.normalise_content]
    texts = [(label, text) for label, text in _inputs() if len(text) <= MAX_CONTENT_CHARS]
    texts += [(a.name, a.text) for a in large_inputs(MAX_CONTENT_CHARS)]
    for label, text in texts:
        for helper in helpers:
            started = time.thread_time()
            helper(text)
            conn.send((f"{helper.__name__}({label})", time.thread_time() - started))
    conn.send(None)


def test_text_helpers_are_fast_on_adversarial_inputs() -> None:
    results = in_child(_sub_everything, timeout=30.0, label="text helpers")
    slow = [(label, round(sec, 3)) for label, sec in results if sec > PER_EXTRACTION_GUARD_SEC]
    assert results and not slow, slow


def _extraction_inputs() -> list[tuple[str, str]]:
    chosen = [(a.name, a.text) for a in adversarial_inputs((24, 4096))
              if a.name.endswith(("-p0-s1", "-p1-s1", "-p3-s3"))]
    chosen += [(a.name, a.text) for a in large_inputs(MAX_CONTENT_CHARS)]  # the event size limit
    chosen += [(a.name, a.text) for a in large_inputs(65536)[:3]]  # a coalesced burst can be longer
    return chosen


def _extract_everything(conn: Connection) -> None:
    rules = RulesExtractor()
    for label, text in _extraction_inputs():
        started = time.thread_time()
        data = ExtractionInput(text)
        rules.refine(data, rules.extract(data))
        conn.send((label, time.thread_time() - started))
    conn.send(None)


def test_rules_extraction_is_fast_on_adversarial_inputs() -> None:
    results = in_child(_extract_everything, timeout=30.0, label="rules extraction")
    assert len(results) == len(_extraction_inputs())
    slow = [(label, round(sec, 3)) for label, sec in results if sec > PER_EXTRACTION_GUARD_SEC]
    assert not slow, slow


@pytest.mark.parametrize("n", [24, 40, 64])
def test_the_issue_input_is_extracted_and_cleaned(n: int) -> None:
    """Issue 11's report: the laugh run no longer stalls, and the statement still counts."""
    def work(conn: Connection) -> None:
        started = time.thread_time()
        RulesExtractor().extract(ExtractionInput("我住在上海" + "哈" * n + "x"))  # the reported input
        seconds = time.thread_time() - started
        out = RulesExtractor().extract(ExtractionInput("我住在上海" + "哈" * n))
        conn.send((seconds, [(c.key, c.content) for c in out],
                   segment.clean_content("我住在上海" + "哈" * n + "h" * n)))
        conn.send(None)

    [(seconds, candidates, cleaned)] = in_child(work, timeout=30.0, label=f"issue input n={n}")
    assert seconds < PER_EXTRACTION_GUARD_SEC
    assert any(key == "fact-home_city" and "上海" in content for key, content in candidates), candidates
    assert cleaned == "我住在上海"
