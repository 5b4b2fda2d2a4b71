"""Re-read a ``bench_locomo --dump`` file: two target speakers' lists by rank against by score.

A LoCoMo question whose evidence is in both speakers' turns is answered from two users' retrievals. Each
user's scores are calibrated on that user's own backgrounds (``core.retrieval.merge.Backgrounds``), so the
bench reads the two lists by rank (``bench.bench_locomo.interleave``); before session 26 it merged them by
score. This re-reads a dump (which holds each speaker's candidates of both kinds and the served order of a
call with neither limit given) both ways, without a store, for two arms: episodes only and both kinds as
served. (The memories-only arm is a retrieval of its own that the dump does not hold.)

    python -m bench.locomo_readings DUMP.jsonl [DUMP2.jsonl] [--skip 4] [--data locomo10.json]

Prints r@5 / r@10 (questions) per category for each reading, all conversations and by split (the first
half of the conversations, the rest), the two-speaker questions apart; with a second dump, also the
questions whose r@5 / r@10 differ between the dumps under each reading.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.bench_locomo import DEFAULT_DATA, NO_LEAD, interleave

CATS = ("all", "single-hop", "multi-hop", "temporal", "open-domain")
READINGS = ("by_rank", "by_score")
_DIA = re.compile(r"D\d+:\d+")


def conversations_of(rows: list[dict[str, Any]], data: list[dict[str, Any]], skip: int) -> list[int]:
    """The conversation number (1-based) of each dumped question, matched in the data's question order."""
    seq: list[tuple[int, str]] = []
    for ci, sample in enumerate(data[skip:]):
        dias = {t["dia_id"] for k, v in sample["conversation"].items()
                if k.startswith("session_") and isinstance(v, list) for t in v}
        for q in sample["qa"]:
            if q.get("category") == 5:
                continue
            ev: set[str] = set()
            for e in q.get("evidence") or []:
                ev.update(_DIA.findall(str(e)))
            if ev & dias:
                seq.append((skip + ci + 1, q["question"]))
    out, j = [], 0
    for r in rows:
        while seq[j][1] != r["q"]:
            j += 1
        out.append(seq[j][0])
        j += 1
    return out


def first_hits(row: dict[str, Any]) -> dict[str, dict[str, int | None]]:
    """For one dumped question: the first hit's place (0-based, ``None``: none in the first 10) of the
    episodes-only list and of the served list at k = 5 and 10, under each reading."""
    info: dict[tuple[str, int], dict[str, Any]] = {}
    eps: dict[str, list[dict[str, Any]]] = defaultdict(list)
    served: dict[str, list[dict[str, Any]]] = defaultdict(list)
    speakers: list[str] = []
    for c in row["cands"]:
        if c["spk"] not in speakers:
            speakers.append(c["spk"])
        if c["kind"] in ("memory", "episode"):
            info[(c["kind"], c["id"])] = c
            if c["kind"] == "episode":
                eps[c["spk"]].append(c)
        else:
            served[c["spk"]].append(c)
    speakers.sort()  # the bench's target order

    def hit(c: dict[str, Any] | None) -> bool:
        return c is not None and bool(c["hit"] or c["answer"])

    def first(lst: Sequence[dict[str, Any] | None], k: int) -> int | None:
        return next((j for j, c in enumerate(lst[:k]) if hit(c)), None)

    def lead(lst: Sequence[dict[str, Any] | None]) -> float:  # the first entry's query cosine
        return float(lst[0]["cosine"]) if lst and lst[0] is not None else NO_LEAD

    out: dict[str, dict[str, int | None]] = {}
    ep_lists = [sorted(eps[s], key=lambda c: c["pos"]) for s in speakers]
    by_score = sorted((c for lst in ep_lists for c in lst), key=lambda c: -c["score"])  # stable
    out["episodes"] = {"by_rank": first(interleave(ep_lists, [lead(lst) for lst in ep_lists]), 10),
                       "by_score": first(by_score, 10)}
    for k in (5, 10):
        orders = [sorted(served[s], key=lambda c: c["pos"])[:k] for s in speakers]
        entries = [[info.get((c["kind"][len("served_"):], c["id"])) for c in o] for o in orders]
        ranked = interleave(entries, [lead(e) for e in entries])
        scored = [info.get((c["kind"][len("served_"):], c["id"]))
                  for c in sorted((c for o in orders for c in o), key=lambda c: -c["score"])]
        out[f"served@{k}"] = {"by_rank": first(ranked, k), "by_score": first(scored, k)}
    out["speakers"] = {"n": len(speakers)}
    return out


def load(path: Path, data: list[dict[str, Any]], skip: int) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for r, conv in zip(rows, conversations_of(rows, data, skip), strict=True):
        r["conv"] = conv
        r["first"] = first_hits(r)
    return rows


def tally(rows: list[dict[str, Any]], reading: str) -> dict[str, list[int]]:
    """category -> [questions, episodes r@5, episodes r@10, served r@5, served r@10]."""
    t: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for r in rows:
        f = r["first"]
        e = f["episodes"][reading]
        for cat in ("all", r["cat"]):
            x = t[cat]
            x[0] += 1
            x[1] += e is not None and e < 5
            x[2] += e is not None
            x[3] += f["served@5"][reading] is not None
            x[4] += f["served@10"][reading] is not None
    return t


def report(rows: list[dict[str, Any]], name: str) -> list[str]:
    convs = sorted({r["conv"] for r in rows})
    half = convs[: (len(convs) + 1) // 2]
    splits = (("all", convs), (f"{half[0]}-{half[-1]}", half),
              (f"{convs[len(half)]}-{convs[-1]}" if len(convs) > len(half) else "-", convs[len(half):]))
    lines = [f"## {name}"]
    for reading in READINGS:
        for split, cs in splits:
            sel = [r for r in rows if r["conv"] in cs]
            if not sel:
                continue
            two = [r for r in sel if r["first"]["speakers"]["n"] > 1]
            for who, part in (("", sel), (" two speakers", two)):
                t = tally(part, reading)
                cells = " | ".join(f"{c} {t[c][0]}: eps {t[c][1]}/{t[c][2]} served {t[c][3]}/{t[c][4]}"
                                   for c in CATS if c in t)
                lines.append(f"{reading:8s} conv {split:5s}{who}: {cells}")
    return lines


def flips(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> list[str]:
    lines = []
    for reading in READINGS:
        for k in (5, 10):
            gained = lost = 0
            for ra, rb in zip(a, b, strict=True):
                ha = ra["first"][f"served@{k}"][reading] is not None
                hb = rb["first"][f"served@{k}"][reading] is not None
                if ha != hb:
                    gained += hb
                    lost += ha
                    n = ra["first"]["speakers"]["n"]
                    lines.append(f"  {reading} r@{k} {'+' if hb else '-'} conv {ra['conv']} {ra['cat']} "
                                 f"speakers {n}: {ra['q']}")
            lines.append(f"{reading} served r@{k}: second dump +{gained} / -{lost}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dumps", type=Path, nargs="+")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--skip", type=int, default=4)
    args = parser.parse_args(argv)
    data = json.loads(args.data.read_text())
    loaded = [load(p, data, args.skip) for p in args.dumps]
    for p, rows in zip(args.dumps, loaded, strict=True):
        print("\n".join(report(rows, str(p))))
    if len(loaded) == 2:
        print("\n".join(["## flips (first dump -> second)", *flips(*loaded)]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
