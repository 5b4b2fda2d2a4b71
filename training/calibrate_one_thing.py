"""Calibrate refine's topic check (``core.extraction.rules.coherence.ONE_THING_COSINE``): the cosine of
the shipped embedder's passage vectors above which a statement is about the thing of a memory's statement.

Not a test: prints the distributions and the chosen threshold, the last line one JSON object; ``--record``
writes ``core/extraction/data/one_thing_calibration.json`` (read by ``coherence``).

Rows: the dedup calibration's pairs (``training/data/dedup_pairs.jsonl`` and, when present, the dev cases'
verbatim sentences; ``training.calibrate_dedup.load_pairs``), contents only, preference and goal pairs (the
types the check reads). One thing: ``dup``, ``dup_verbatim`` (the same memory in other words) and ``update``
(the same slot, a new value: a merge or an overwrite keeps it one memory). Not one thing: ``neg_same_user``
(two different memories of one user, of the same type). Other users' pairs are not used.

Choice: a veto, so recall first: the cosine below which ``SAME_LOST`` (5%) of the one-thing pairs fall
(the pairs overlap too much for a balanced choice: on 90 rows its threshold, 0.947, refused half of the
one-thing pairs held out), read on held-out folds:
the rows are split in ``FOLDS`` folds by pair (seeded); on each fold the threshold chosen on the other folds
is scored on the held-out one; the shipped threshold is the median of the fold choices, and the report gives
its held-out recalls.

    python -m training.calibrate_one_thing [--record]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from training.calibrate_dedup import DEFAULT_DEV, DEFAULT_PAIRS, _content_of, _embed, _type_of, load_pairs

OUT = Path(__file__).resolve().parents[1] / "core" / "extraction" / "data" / "one_thing_calibration.json"
FOLDS = 5
SAME = frozenset({"dup", "dup_verbatim", "update"})
TYPES = frozenset({"preference", "goal"})
SAME_LOST = 0.05


def _best(cos: np.ndarray, same: np.ndarray) -> float:
    """The cosine below which at most ``SAME_LOST`` of the same-thing pairs fall (a refused merge of one
    thing splits a memory; a veto must be sure)."""
    return float(np.quantile(cos[same], SAME_LOST))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args(argv)
    pairs, _ = load_pairs(DEFAULT_PAIRS, DEFAULT_DEV)
    rows = [p for p in pairs if (p.kind in SAME or p.kind == "neg_same_user")
            and _type_of(p.a) in TYPES and _type_of(p.b) in TYPES]
    texts = sorted({_content_of(t) for p in rows for t in (p.a, p.b)})
    vecs, model, _ = _embed(texts, "local")
    cos = np.array([float(np.dot(vecs[_content_of(p.a)], vecs[_content_of(p.b)])) for p in rows])
    same = np.array([p.kind in SAME for p in rows])
    fold = np.random.default_rng(7).integers(0, FOLDS, len(rows))
    chosen, held = [], []
    for f in range(FOLDS):
        t = _best(cos[fold != f], same[fold != f])
        chosen.append(t)
        c, s = cos[fold == f], same[fold == f]
        held.append({"threshold": t, "same_kept": round(float((c[s] >= t).mean()), 3),
                     "different_refused": round(float((c[~s] < t).mean()), 3), "rows": len(c)})
    threshold = float(np.median(chosen))
    report = {
        "model": model, "rows": len(rows), "same": int(same.sum()), "different": int((~same).sum()),
        "same_quantiles": [round(float(q), 3) for q in np.quantile(cos[same], [0.05, 0.25, 0.5])],
        "different_quantiles": [round(float(q), 3) for q in np.quantile(cos[~same], [0.5, 0.75, 0.95])],
        "folds": held, "threshold": round(threshold, 3),
        "same_kept_all": round(float((cos[same] >= threshold).mean()), 3),
        "different_refused_all": round(float((cos[~same] < threshold).mean()), 3),
    }
    for row in held:
        print(row)
    print(json.dumps(report))
    if args.record:
        OUT.write_text(json.dumps({model: {"cosine": report["threshold"], "measured": report}}, indent=1)
                       + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
