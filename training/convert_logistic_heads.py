"""Convert the shipped logistic heads' weights files to the one format (``core.extraction.logistic_head``),
once, and prove their predictions unchanged (session 21, helper heads40).

Before it, three layouts: the retraction-intent model's (also the update-intent, standing-instruction and
horizon models': ``weights``, ``bias``, ``mean``, ``embedding_model``, ``prefix`` and the trainer's figures as
strings), the list-item head's (``weights``, ``bias``, ``threshold``, no centring) and the retraction-target
model's (standardised features, ``accept`` and ``veto``). Each file is read by its old layout's reader here,
written as a ``LogisticHead`` (the bars a trainer stored as strings become ``bars``, the rows' SHA-1
``data_sha1``, the rest ``notes``; ``trainer`` is the command of ``training/README.md``), read back through
the product's loader, and its predictions compared bit for bit with the old formula on the trainers' rows
(``--rows N`` of each trainer, evenly spaced; 0: every row) and on 64 random rows (unit vectors for the
embedding heads). A file already in the
format is left as it is (a second run changes nothing). ``--golden PATH`` also writes the reference the test
``tests/core/extraction/test_logistic_head.py`` reads: ``GOLDEN_ROWS`` rows of each trainer (vectors as
float16) with the old formula's probabilities.

    python -m training.convert_logistic_heads [--rows N] [--cache C] [--golden PATH] [--dry-run]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.horizon import HORIZON_PATH, Horizon
from core.extraction.list_items import LIST_ITEM_PATH, ListItemHead
from core.extraction.logistic_head import FORMAT, LogisticHead
from core.extraction.retraction_intent import INTENT_WEIGHTS_PATH, RetractionIntent
from core.extraction.retraction_target import TARGET_WEIGHTS_PATH, RetractionTarget
from core.extraction.standing_instruction import STANDING_WEIGHTS_PATH, StandingInstruction
from core.extraction.update_intent import UPDATE_INTENT_PATH

Array = npt.NDArray[Any]
BAR_KEYS = ("cue_floor", "calibrated_bar", "lasting_bar", "asked_threshold", "addressed_threshold")
GOLDEN_ROWS = 12


def _texts_intent() -> list[str]:
    from training.train_retraction_intent import training_rows
    return [r["text"] for r in training_rows()]


def _texts_update() -> list[str]:
    from training.train_update_intent import training_rows
    return [r["text"] for r in training_rows(True)]


def _texts_standing() -> list[str]:
    from training.train_standing_instruction import template_rows
    return [r["text"] for r in template_rows()]


def _texts_horizon() -> list[str]:
    from training.train_horizon import training_rows
    return [r["text"] for r in training_rows()]


def _texts_list_item() -> list[str]:
    from training.train_list_item import rows
    return [t for t, _, _ in rows()]


@dataclass(frozen=True)
class Shipped:
    """One shipped weights file: its old layout, its trainer, its rows, its product loader."""

    name: str
    path: Path
    layout: str  # "intent", "list_item" or "target"
    trainer: str
    texts: Callable[[], list[str]] | None  # the trainer's rows (None: feature rows, the target's)
    load: Callable[[Path], Any]


SHIPPED = (
    Shipped("retraction_intent", INTENT_WEIGHTS_PATH, "intent", "python -m training.train_retraction_intent",
            _texts_intent, RetractionIntent.load),
    Shipped("update_intent", UPDATE_INTENT_PATH, "intent",
            "python -m training.train_update_intent --upd27-rows", _texts_update, RetractionIntent.load),
    Shipped("standing_instruction", STANDING_WEIGHTS_PATH, "intent",
            "python -m training.train_standing_instruction", _texts_standing, StandingInstruction.load),
    Shipped("horizon", HORIZON_PATH, "intent", "python -m training.train_horizon", _texts_horizon,
            Horizon.load),
    Shipped("list_item", LIST_ITEM_PATH, "list_item", "python -m training.train_list_item", _texts_list_item,
            ListItemHead.load),
    Shipped("retraction_target", TARGET_WEIGHTS_PATH, "target", "python -m training.train_retraction_target",
            None, RetractionTarget.load),
)


def read_old(layout: str, path: Path, trainer: str) -> tuple[LogisticHead, Callable[[Array], Array]]:
    """The head of an old-layout file and the old formula's predictions (as the classes before the format)."""
    with np.load(path, allow_pickle=False) as data:
        d = {k: data[k] for k in data.files}
    if layout == "intent":
        w, b = np.asarray(d.pop("weights"), np.float32), float(d.pop("bias"))
        mean = np.asarray(d.pop("mean"), np.float32)

        def old(x: Array) -> Array:
            z = (x.astype(np.float64) - mean) @ w.astype(np.float64) + b
            return 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))

        head = LogisticHead.of(w, b, mean, prefix=str(d.pop("prefix")))
    elif layout == "list_item":
        w, b = np.asarray(d.pop("weights"), np.float32), float(d.pop("bias"))

        def old(x: Array) -> Array:
            return 1.0 / (1.0 + np.exp(-(x.astype(np.float64) @ w.astype(np.float64) + b)))

        head = LogisticHead.of(w, b, bars={"threshold": float(d.pop("threshold"))})
    else:
        w, b = np.asarray(d.pop("weights"), np.float64), float(d.pop("bias"))
        mean, scale = np.asarray(d.pop("mean"), np.float64), np.asarray(d.pop("scale"), np.float64)
        features = tuple(str(f) for f in d.pop("features"))

        def old(x: Array) -> Array:
            z = ((x - mean) / scale) @ w + b
            return 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))

        head = LogisticHead(w, b, mean, scale, features, prefix=str(d.pop("prefix")),
                            bars={"accept": float(d.pop("accept")), "veto": float(d.pop("veto"))})
        d.pop("trainer", None)
    strings = {k: str(v) for k, v in d.items()}
    bars = {**head.bars, **{k: float(strings.pop(k)) for k in BAR_KEYS if k in strings}}
    model = strings.pop("embedding_model")
    sha1 = strings.pop("rows_sha1")
    return LogisticHead(head.weights, head.bias, head.mean, head.scale, head.features, model, head.prefix,
                        bars, trainer, sha1, strings), old


def _inputs(item: Shipped, n: int, cache: Path | None) -> Array:
    """Evenly spaced rows of the trainer (``n`` 0: all): passage vectors, or the target's feature rows."""
    if item.texts is None:
        from training.retraction_target_rows_forget37 import GROUPS
        from training.train_retraction_target import featurise

        xs, _ = featurise(GROUPS, cache, None)
        rows: Array = np.concatenate(xs)
    else:
        from training.train_memory_classifier import embed

        texts = item.texts()
        step = max(1, len(texts) // n) if n else 1
        rows = embed(texts[::step][:n or None], cache)
    if n and len(rows) > n:
        rows = rows[np.linspace(0, len(rows) - 1, n).astype(int)]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200, help="rows of each trainer to compare (0: all)")
    parser.add_argument("--cache", type=Path, default=None, help="a passage vector cache (shared format)")
    parser.add_argument("--golden", type=Path, default=None, help="also write the test's reference here")
    parser.add_argument("--dry-run", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    golden: dict[str, Any] = {}
    failed = 0
    for item in SHIPPED:
        with np.load(item.path, allow_pickle=False) as data:
            done = "format" in data.files and str(data["format"]) == FORMAT
        if done:
            print(f"{item.name}: already {FORMAT}, left as it is")
            continue
        head, old = read_old(item.layout, item.path, item.trainer)
        x = _inputs(item, args.rows, args.cache)
        noise = np.random.default_rng(0).normal(size=(64, head.dim))
        if item.texts is not None:  # unit vectors, as the embedder's
            noise /= np.linalg.norm(noise, axis=1, keepdims=True)
        noise = noise.astype(x.dtype)
        before = old(np.concatenate([x, noise]))
        if args.golden is not None:
            pick = np.linspace(0, len(x) - 1, min(GOLDEN_ROWS, len(x))).astype(int)
            kept = x[pick] if item.texts is None else x[pick].astype(np.float16)
            golden[f"{item.name}_x"] = kept
            golden[f"{item.name}_p"] = old(kept if item.texts is None else kept.astype(np.float32))
        out = item.path.with_suffix(".converted.npz")
        head.save(out)
        after = item.load(out).head.predict_proba(np.concatenate([x, noise]))
        same = bool(np.array_equal(before, after))
        failed += not same
        print(f"{item.name}: {len(x)} trainer rows + 64 random, predictions identical: {same} "
              f"(max |diff| {float(np.abs(before - after).max()):.3g})")
        if same and not args.dry_run:
            out.replace(item.path)
        else:
            out.unlink()
    if args.golden is not None and golden:
        np.savez_compressed(args.golden, **golden)
        print(f"golden -> {args.golden}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
