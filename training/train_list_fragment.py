"""Train the list fragment model (``core.extraction.list_items.shipped_list_fragment``): keep/drop and type of
an item of a list-style self-introduction, read as written or with the user as its subject.

Its corpus is the memory classifier's (``training/data/memory_utterances/utterances.jsonl``) plus the list
rows: every row of ``training/utterance_rows_list32`` (items, leads, sign-offs and moods, each in both
readings) and the items of ``training/list_item_rows34`` (both readings; ``--rows40`` adds the rows of
``training/list_item_rows40``, measured in session 21 and not shipped), the list rows fitted ``UPWEIGHT``
times; the same MLP shape, split, epochs, seed and temperature scaling as the memory classifier
(``training/train_memory_mlp.train``), no logistic baseline. The gate reads only the items of a message the
list-item head calls a list with it, so the memory classifier (``memory_mlp.npz``) and everything it reads
stay as they are. Deterministic: the same rows give the same weights.

    python -m training.train_list_fragment [--cache PATH] [--out PATH] [--json PATH] [--rows40]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from core.extraction.list_items import LIST_FRAGMENT_PATH
from training import list_item_rows34, list_item_rows40, utterance_rows_list32
from training.train_memory_classifier import CORPUS, derive_fields
from training.train_memory_mlp import train

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results" / "list_fragment_mlp.json"
UPWEIGHT = 3


def list_rows(rows40: bool = False) -> list[dict[str, object]]:
    """The list rows as corpus rows (``derive_fields``): list32's and list34's items in both readings; with
    ``rows40``, list40's rows too (measured, not shipped)."""
    out = list(utterance_rows_list32.rows())
    for text, kind in list_item_rows34.items():
        for reading in (text, utterance_rows_list32._with_user(text)):
            out.append({"text": reading, "keep": True, "type": kind, "family": "list34_item",
                        "relation": None, "source": "hand"})
    for text, kind in list_item_rows40.items() if rows40 else []:  # session 21: fears, conditions, …
        for reading in (text, utterance_rows_list32._with_user(text)):
            keep = kind != list_item_rows40.DROP
            out.append({"text": reading, "keep": keep, "type": kind if keep else None,
                        "family": "list40_item", "relation": None, "source": "hand"})
    return out


def corpus_with_lists(corpus: Path, path: Path, rows40: bool = False) -> int:
    """Write the corpus plus the list rows it lacks (by id) to ``path``; returns the rows written."""
    rows = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    ids = {r["id"] for r in rows}
    for row in list_rows(rows40):
        derived = derive_fields(row)
        if derived["id"] not in ids:
            ids.add(derived["id"])
            rows.append(derived)
    rows.sort(key=lambda r: str(r["id"]))
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return len(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--cache", type=Path, default=None, help="reuse/save the corpus vectors here")
    parser.add_argument("--out", type=Path, default=LIST_FRAGMENT_PATH)
    parser.add_argument("--json", type=Path, default=RESULTS)
    parser.add_argument("--rows40", action="store_true",
                        help="also list40's rows (fears, conditions; measured, not shipped)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "utterances_lists.jsonl"
        corpus_with_lists(args.corpus, path, args.rows40)
        models, result = train(path, args.cache, upweight={"list32_": UPWEIGHT, "list34_": UPWEIGHT,
                                                             "list40_": UPWEIGHT},
                               baseline=False)
    result["corpus"] = "utterances.jsonl + list32 + list34" + (" + list40" if args.rows40 else "") + " rows"
    models["mlp"].save(args.out, corpus_sha1=result["corpus_sha1"])
    figures = ("accuracy", "keep_drop_accuracy", "type_accuracy_on_kept")
    print(json.dumps({k: {m: v["test"][m] for m in figures} for k, v in result["arms"].items()}, indent=1))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
