"""The shipped semantic-dedup rule of a model and the calibration file it is written to.

``core/memory/data/dedup_calibration.json`` (read by ``core.config``) holds, per embedding model, what
dedup applies: cosine ``reuse`` and ``merge``, the optional lexical reuse gate and merge overlap, and
what the last recorded calibration run measured (``measured``, not read by the service).
``training.calibrate_dedup --record`` writes it through ``record``; nothing else writes it.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from core.config import DEDUP_LEXICAL_MERGE, DEDUP_LEXICAL_REUSE, DEDUP_THRESHOLDS


@dataclass(frozen=True)
class ShippedRule:
    """What dedup applies for one model: cosine ``reuse`` and ``merge``, the lexically gated reuse
    ``gate`` (cosine, overlap) and the merge's ``merge_overlap`` (``None``: no gate / cosine alone)."""

    reuse: float
    merge: float
    gate: tuple[float, float] | None
    merge_overlap: float | None


def shipped_for(model: str) -> ShippedRule:
    """The rule that ships for ``model`` (the calibration file, through ``core.config``)."""
    reuse, merge = DEDUP_THRESHOLDS.get(model, (0.82, 0.90))
    return ShippedRule(reuse, merge, DEDUP_LEXICAL_REUSE.get(model), DEDUP_LEXICAL_MERGE.get(model))


def shipped_from_args(shipped: ShippedRule, args: argparse.Namespace) -> ShippedRule:
    """``shipped`` with the values the ``--ship-*`` options give instead."""
    if args.ship_reuse is not None:
        shipped = replace(shipped, reuse=args.ship_reuse)
    if args.ship_merge is not None:
        shipped = replace(shipped, merge=args.ship_merge)
    if args.ship_no_gate:
        shipped = replace(shipped, gate=None)
    elif args.ship_gate is not None:
        shipped = replace(shipped, gate=(args.ship_gate[0], args.ship_gate[1]))
    if args.ship_no_merge_overlap:
        shipped = replace(shipped, merge_overlap=None)
    elif args.ship_merge_overlap is not None:
        shipped = replace(shipped, merge_overlap=args.ship_merge_overlap)
    return shipped


def record(path: Path, model: str, shipped: ShippedRule, out: dict[str, Any]) -> None:
    """Write ``shipped`` as ``model``'s values in the calibration file at ``path``, with what this run
    measured (``measured``: the pairs, the best-F1 reuse, the lowest merge without a same-user false
    positive and the shipped rule's precision/recall); other models are left as they are."""
    data = json.loads(path.read_text(encoding="utf-8"))
    entry: dict[str, Any] = {"reuse": shipped.reuse, "merge": shipped.merge}
    if shipped.gate is not None:
        entry["lexical_reuse"] = {"cosine": shipped.gate[0], "overlap": shipped.gate[1]}
    if shipped.merge_overlap is not None:
        entry["merge_overlap"] = shipped.merge_overlap
    entry["measured"] = {
        "form": out["form"],
        "pairs": out["pairs"],
        "best_f1_reuse": out["at_reuse"],
        "lowest_merge_without_same_user_false_positive": out["at_merge"],
        "bootstrap": out["bootstrap"],
        "shipped_gate": out["lexical_gate"]["shipped_gate"],
        "shipped": out["shipped"]["all"],
        "updates_reused": out["shipped"]["updates_reused"],
        "updates": out["shipped"]["updates"],
        "dev_cases": out["source"]["dev_cases"] is not None,
    }
    data["models"][model] = entry
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
