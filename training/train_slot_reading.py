"""Fit the slot reading (``core.extraction.slot_reading``): one unit centroid per slot, the mean of the
``passage: `` vectors of the slot's hand-written statements (``training/slot_lines_upd49.py``,
``slot_texts``). Reports the leave-one-out accuracy of the nearest centroid (at ``SLOT_MARGIN``: how many
texts read their own slot, another, or none).

    python -m training.train_slot_reading [--wide] [--out PATH] [--cache PATH]

``--wide``: upd49's lines and ``training/slot_lines_upd50.py`` (a pet, an instrument, more homes, jobs,
routines and phones), written to ``SLOT_READING_WIDE_PATH`` (session 31).

"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import numpy as np

from core.extraction.classifier import PREFIX
from core.extraction.slot_reading import SLOT_READING_PATH, SLOT_READING_WIDE_PATH, SlotReading
from training import slot_lines_upd49, slot_lines_upd50
from training.train_memory_classifier import embed


def centroids(labels: list[str], vectors: np.ndarray) -> SlotReading:
    """The unit mean vector of each slot (slots in sorted order)."""
    slots = tuple(sorted(set(labels)))
    lab = np.array(labels)
    c = np.stack([vectors[lab == s].mean(axis=0) for s in slots]).astype(np.float64)
    c /= np.linalg.norm(c, axis=1, keepdims=True)
    return SlotReading(slots, c.astype(np.float32))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--wide", action="store_true", help="upd49's lines and upd50's (session 31)")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    args = ap.parse_args(argv)
    lines = slot_lines_upd50.slot_texts() if args.wide else slot_lines_upd49.slot_texts()
    out = args.out or (SLOT_READING_WIDE_PATH if args.wide else SLOT_READING_PATH)
    labels = [s for s, _ in lines]
    vectors = embed([t for _, t in lines], args.cache, PREFIX)
    own = other = none = 0
    for i in range(len(lines)):
        keep = [j for j in range(len(lines)) if j != i]
        got = centroids([labels[j] for j in keep], vectors[keep]).read(vectors[i:i + 1])[0]
        own += got == labels[i]
        other += got is not None and got != labels[i]
        none += got is None
    sha = hashlib.sha1(json.dumps(lines, ensure_ascii=False).encode()).hexdigest()
    reading = centroids(labels, vectors)
    SlotReading(reading.slots, reading.centroids, sha).save(out)
    print(json.dumps({"texts": len(lines), "slots": list(reading.slots),
                      "loo_own_other_none": [own, other, none], "out": str(out)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
