"""Fit the bar under which a supersede told with a time word alone is not believed (issue 24, session 23).

The pair model reads "最近我在看一些电影" against "我很喜欢看电影" as a supersede (0.93): its update-cue flag
holds "最近", "now", "lately", "new", which in companion chat date the news rather than tell a change. The
update judge (``core.extraction.rules.judge``) therefore asks the update-intent model
(``core.extraction.update_intent``) about a sentence whose every update cue is a time word
(``core.extraction.pairs.time_word_only``) before it lets a supersede reading stand: the sentence must read as
a change at ``TIME_WORD_INTENT_P`` or more.

The bar is fitted on the pair rows, never on evaluation cases or benchmark readings: the statements of the
pair templates (``training.pair_templates.all_pair_rows``) and of the written chat pairs (``upd29``,
``upd34``, ``pair41``) whose only update cues are time words and which are labelled ``supersede`` somewhere;
the bar is the highest 0.01 step at which at least ``KEEP`` of them read at or above it (a true change told
with "now" keeps its reading that often). Reported beside it: how many of the written rows' time-word
statements that are never a supersede (news, moods, details) fall under it.

    .venv/bin/python -m training.fit_time_word_bar [--cache PATH] [--json OUT]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from core.extraction.pairs import time_word_only
from core.extraction.update_intent import shipped_update_intent
from training.pair_chat_rows_pair41 import chat_pair_rows as pair41_rows
from training.pair_chat_rows_upd29 import chat_pair_rows as upd29_rows
from training.pair_chat_rows_upd34 import chat_pair_rows as upd34_rows
from training.pair_templates import all_pair_rows
from training.report import emit_report
from training.train_memory_classifier import embed

KEEP = 0.90


def statements(rows: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """``(changes, never)``: the distinct time-word-only statements labelled supersede at least once, and
    those never labelled supersede or retract."""
    timed = [r for r in rows if time_word_only(r["new"])]
    changes = sorted({r["new"] for r in timed if r["relation"] == "supersede"})
    told = {r["new"] for r in timed if r["relation"] in ("supersede", "retract")}
    never = sorted({r["new"] for r in timed} - told)
    return changes, never


def fitted_bar(p_changes: np.ndarray, keep: float = KEEP) -> float:
    """The highest 0.01 step at which at least ``keep`` of ``p_changes`` are at or above it."""
    for bar in np.round(np.arange(0.99, -0.005, -0.01), 2):
        if float((p_changes >= bar).mean()) >= keep:
            return float(bar)
    return 0.0


def percentiles(p: np.ndarray, qs: tuple[int, ...]) -> dict[str, float]:
    return {str(q): round(float(np.percentile(p, q)), 3) for q in qs}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    intent = shipped_update_intent()
    if intent is None:
        raise SystemExit("the update-intent weights do not load")
    written = [*upd29_rows(), *upd34_rows(), *pair41_rows()]
    changes, _ = statements([*all_pair_rows(), *written])
    _, never = statements(written)
    texts = sorted(set(changes) | set(never))
    p = dict(zip(texts, intent.predict_proba(embed(texts, args.cache)), strict=True))
    p_changes = np.array([p[t] for t in changes])
    p_never = np.array([p[t] for t in never])
    bar = fitted_bar(p_changes)
    out = {"keep": KEEP, "bar": bar, "changes": len(changes), "never": len(never),
           "changes_kept": int((p_changes >= bar).sum()), "never_blocked": int((p_never < bar).sum()),
           "changes_percentiles": percentiles(p_changes, (5, 10, 25, 50)),
           "never_percentiles": percentiles(p_never, (25, 50, 75, 90))}
    emit_report(out, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
