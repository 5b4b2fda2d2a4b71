"""The precision judge kit (issue 24): a seeded random sample of stored memories to label by reading, and
the score of a labelled sample.

Not a test. ``sample`` reads the memories a benchmark run stored (``bench/bench_public.py memorybank|persona
--dump-memories DIR`` writes ``DIR/<set>.memories.jsonl``), draws ``--per-set`` memories (default 40) of each
set with ``random.Random(--seed)``, and writes a JSONL with an empty ``label`` and ``note`` per memory.
With the converted cases (``bench/.work/public/<set>.jsonl``, written by the same run) each sampled memory
also carries ``source``: the user turn of that user most like it (character 3-grams), to judge against
what was said.

``sample --all`` takes every memory of each set instead (dump order, no draw): the whole store, whose score is
the store's exact precision. ``--reuse FILE ...`` fills the label of a memory that an earlier labelled file
holds with the same (set, case, type, content) and one label, and says so in ``note``; a memory earlier files
gave different labels stays unlabelled, with those labels in ``earlier``, to read again.

``score`` reads a labelled file and prints the good share overall and per set, and the label counts.

``delta`` compares a whole-store labelled file with another dump directory (matched by set, case, type and
content, as a multiset): which memories are gone and which are new, and the other store's precision: exact
when every new memory has a label (from ``--labels`` files, e.g. an earlier ``--rows`` file once read), else
its bounds (every unlabelled new memory bad / good). ``--rows FILE`` writes every gone and new memory with its
label or an empty one, to read; a new one also carries ``near``, the gone memory of the same user most like it
(character 3-grams) with its label, to read a re-cut memory beside what it replaced.

Labels: ``good`` (durable, about the user, of a sensible type, one coherent statement; a wrong slot in the
key alone does not make it bad), else the first that applies of ``not_about_user`` (another person's or the
assistant's content), ``invented`` (not said), ``day_event`` (a thing of the day or a plan of the moment
stored as a memory), ``thanks_request_mood`` (thanks, a request, an "I'll try that" or a passing mood),
``blob`` (unrelated clauses glued into one memory), ``lost_referent`` (a fragment whose referent is gone:
"I love riding them"), ``wrong_type`` (durable and about the user but of the wrong type, or a trivial
remark typed as a taste or fact).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from bench.common import REPO, WORK, write_result

LABELS = ("good", "not_about_user", "invented", "day_event", "thanks_request_mood", "blob", "lost_referent",
          "wrong_type")
DEFAULT_SETS = ("memorybank-cn", "memorybank-en", "persona")


Key = tuple[str, str, str, str]


def memory_key(row: dict[str, Any]) -> Key:
    """(set, case, type, content): what makes two dumped memories the same memory."""
    return (row["set"], row.get("case", row.get("user", "")), row.get("memory_type", row.get("type", "")),
            row["content"])


def earlier_labels(paths: list[Path]) -> dict[Key, list[tuple[str, str, str]]]:
    """Every label the files give a memory, ``(label, note, file name)`` in file order. Reads the sample
    files (``content``/``label``), the paired files' end of a memory (``end_content``/``end_label``) and the
    early files' ``user``/``type`` fields."""
    index: dict[Key, list[tuple[str, str, str]]] = defaultdict(list)
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            r = json.loads(line)
            if "content" in r and r.get("label") in LABELS:
                index[memory_key(r)].append((r["label"], r.get("note", ""), path.name))
            if r.get("end_label") in LABELS and r.get("end_kind") != "gone" and "end_content" in r:
                end = {"set": r["set"], "case": r["case"], "memory_type": r.get("end_type", ""),
                       "content": r["end_content"]}
                index[memory_key(end)].append((r["end_label"], r.get("end_note", ""), path.name))
    return index


_REUSED = re.compile(r"\s*\[label reused from [^\]]*\]")


def reuse(rows: list[dict[str, Any]], index: dict[Key, list[tuple[str, str, str]]]) -> Counter[str]:
    """Fill the empty labels the index agrees on (one distinct label); a memory given different labels gets
    ``earlier`` (label counts) and stays empty. Returns counts of ``reused``, ``conflict``, ``unlabelled``."""
    counts: Counter[str] = Counter()
    for row in rows:
        if row.get("label"):
            continue
        hits = index.get(memory_key(row), [])
        labels = {h[0] for h in hits}
        if len(labels) == 1:
            label, note, name = hits[-1]
            row["label"] = label
            row["note"] = f"{_REUSED.sub('', note).strip()} [label reused from {name}]".strip()
            counts["reused"] += 1
        elif labels:
            row["earlier"] = dict(Counter(h[0] for h in hits).most_common())
            counts["conflict"] += 1
        else:
            counts["unlabelled"] += 1
    return counts


def _shown(path: Path) -> str:
    path = path.resolve()
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def _grams(text: str) -> set[str]:
    t = "".join(text.casefold().split())
    return {t[i : i + 3] for i in range(max(len(t) - 2, 1))}


def _user_turns(cases_file: Path) -> dict[str, list[str]]:
    turns: dict[str, list[str]] = {}
    if cases_file.exists():
        for line in cases_file.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            turns[case["id"]] = [t["content"] for t in case["conversation"] if t["role"] == "user"]
    return turns


def nearest_turn(content: str, turns: list[str]) -> str | None:
    """The turn sharing the largest fraction of the memory's character 3-grams (None without turns)."""
    grams = _grams(content)
    best = max(turns, key=lambda t: len(grams & _grams(t)), default=None)
    return best


def sample(memories: dict[str, list[dict[str, Any]]], per_set: int | None, seed: int,
           cases: dict[str, dict[str, list[str]]] | None = None) -> list[dict[str, Any]]:
    """``per_set`` memories of each set (all of a set that has fewer), drawn with one seeded generator in
    the order the sets are given; ``per_set`` None takes every memory in dump order. Each with ``label`` and
    ``note`` empty."""
    rng = random.Random(seed)
    out = []
    for name, rows in memories.items():
        picked = list(rows) if per_set is None else rng.sample(rows, min(per_set, len(rows)))
        for n, row in enumerate(picked, 1):
            item = {"sample_id": f"{name}-{n:03d}", **row, "label": "", "note": ""}
            turns = (cases or {}).get(name, {}).get(row["case"])
            if turns:
                item["source"] = nearest_turn(row["content"], turns)
            out.append(item)
    return out


def score(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Good share overall and per set, label counts; raises ``ValueError`` on an empty or unknown label."""
    bad = [r["sample_id"] for r in rows if r.get("label") not in LABELS]
    if bad:
        raise ValueError(f"unlabelled or unknown label: {', '.join(bad[:10])}")
    per_set: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        per_set[r["set"]].append(r["label"])

    def share(labels: list[str]) -> dict[str, Any]:
        good = labels.count("good")
        rate = round(good / len(labels), 4) if labels else None
        counts = dict(Counter(labels).most_common())
        return {"n": len(labels), "good": good, "good_share": rate, "labels": counts}

    overall = share([r["label"] for r in rows])
    return {"overall": overall, "per_set": {k: share(v) for k, v in per_set.items()}}


def delta(full: list[dict[str, Any]], other: dict[str, list[dict[str, Any]]],
          index: dict[Key, list[tuple[str, str, str]]],
          cases: dict[str, dict[str, list[str]]] | None = None
          ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The other store against a whole-store labelled file: per set and overall, the memories before, gone,
    kept and new, and the good count after (exact when every new memory is labelled through ``index``, else
    ``good_min``/``good_max``). Also the gone and new rows (``kind``), new ones labelled where the index
    agrees. Raises ``ValueError`` if ``full`` has an unlabelled row."""
    score(full)
    by_key: dict[Key, list[dict[str, Any]]] = defaultdict(list)
    for row in full:
        by_key[memory_key(row)].append(row)
    rows: list[dict[str, Any]] = []
    sets = list(dict.fromkeys(r["set"] for r in full))
    for name in sets:
        remaining = {k: list(v) for k, v in by_key.items() if k[0] == name}
        for mem in other.get(name, []):
            left = remaining.get(memory_key(mem))
            if left:
                left.pop(0)["_kept"] = True
                continue
            new = {"set": name, "case": mem["case"], "memory_type": mem["memory_type"],
                   "key": mem.get("key", ""), "content": mem["content"], "label": "", "note": "",
                   "kind": "new"}
            turns = (cases or {}).get(name, {}).get(mem["case"])
            if turns:
                new["source"] = nearest_turn(mem["content"], turns)
            reuse([new], index)
            rows.append(new)
        for left in remaining.values():
            for row in left:
                if not row.pop("_kept", False):
                    rows.append({**{k: v for k, v in row.items() if k != "sample_id"}, "kind": "gone"})
    for row in full:
        row.pop("_kept", None)
    _mark_nearest_gone(rows)

    def tally(name: str | None) -> dict[str, Any]:
        before = [r for r in full if name in (None, r["set"])]
        gone = [r for r in rows if r["kind"] == "gone" and name in (None, r["set"])]
        new = [r for r in rows if r["kind"] == "new" and name in (None, r["set"])]
        good = sum(r["label"] == "good" for r in before)
        kept_good = good - sum(r["label"] == "good" for r in gone)
        new_good = sum(r["label"] == "good" for r in new)
        unlabelled = sum(not r["label"] for r in new)
        n_after = len(before) - len(gone) + len(new)
        out: dict[str, Any] = {
            "before": {"n": len(before), "good": good, "good_share": _share(good, len(before))},
            "gone": {"n": len(gone), "good": sum(r["label"] == "good" for r in gone),
                     "labels": dict(Counter(r["label"] for r in gone).most_common())},
            "new": {"n": len(new), "labelled": len(new) - unlabelled, "good": new_good,
                    "unlabelled": unlabelled,
                    "labels": dict(Counter(r["label"] or "(unlabelled)" for r in new).most_common())},
            "after": {"n": n_after}}
        low, high = kept_good + new_good, kept_good + new_good + unlabelled
        if unlabelled == 0:
            out["after"].update(good=low, good_share=_share(low, n_after))
        else:
            out["after"].update(good_min=low, good_max=high, good_share_min=_share(low, n_after),
                                good_share_max=_share(high, n_after))
        return out

    return {"overall": tally(None), "per_set": {name: tally(name) for name in sets}}, rows


def _mark_nearest_gone(rows: list[dict[str, Any]]) -> None:
    """Give each new row ``near``: the gone memory of the same user sharing the most of its character 3-grams
    (Jaccard), with that memory's label: a reading aid for a re-cut memory, never a label."""
    for new in (r for r in rows if r["kind"] == "new"):
        grams = _grams(new["content"])
        best, best_overlap = None, 0.0
        for gone in rows:
            if gone["kind"] != "gone" or (gone["set"], gone["case"]) != (new["set"], new["case"]):
                continue
            other = _grams(gone["content"])
            overlap = len(grams & other) / len(grams | other)
            if overlap > best_overlap:
                best, best_overlap = gone, overlap
        if best is not None:
            new["near"] = {"content": best["content"], "memory_type": best["memory_type"],
                           "label": best["label"], "overlap": round(best_overlap, 3)}


def _share(good: int, n: int) -> float | None:
    return round(good / n, 4) if n else None


def _write_rows(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def _read_rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _read_dumps(folder: Path, names: list[str]) -> dict[str, list[dict[str, Any]]] | str:
    memories: dict[str, list[dict[str, Any]]] = {}
    for name in names:
        path = folder / f"{name}.memories.jsonl"
        if not path.exists():
            return f"{path} not found"
        memories[name] = _read_rows(path)
    return memories


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample", help="draw the sample to label")
    s.add_argument("dumps", type=Path, help="the --dump-memories folder of a bench_public run")
    s.add_argument("--sets", default=",".join(DEFAULT_SETS))
    s.add_argument("--per-set", type=int, default=40)
    s.add_argument("--all", action="store_true", help="every memory of each set (the whole store), no draw")
    s.add_argument("--reuse", type=Path, nargs="*", default=[],
                   help="earlier labelled files: reuse the label they agree on for the same memory")
    s.add_argument("--seed", type=int, default=24)
    s.add_argument("--cases", type=Path, default=WORK / "public", help="the converted cases (for `source`)")
    s.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("score", help="score a labelled sample")
    c.add_argument("labelled", type=Path)
    c.add_argument("--out", default="", help="also write bench/results/OUT.json (with --command lines)")
    c.add_argument("--command", action="append", default=[], help="a command that made the sample (repeat)")
    c.add_argument("--note", default="", help="a note kept with the figures (who labelled, how)")
    d = sub.add_parser("delta", help="another store against a whole-store labelled file")
    d.add_argument("full", type=Path, help="a labelled file of every memory of a store (sample --all)")
    d.add_argument("dumps", type=Path, help="the other store's --dump-memories folder")
    d.add_argument("--labels", type=Path, nargs="*", default=[],
                   help="labelled files that may hold the new ones")
    d.add_argument("--cases", type=Path, default=WORK / "public", help="the converted cases (for `source`)")
    d.add_argument("--rows", type=Path, help="write every gone and new memory (new ones to read) here")
    d.add_argument("--out", default="", help="also write bench/results/OUT.json")
    args = parser.parse_args(argv)
    if args.cmd == "delta":
        full = _read_rows(args.full)
        names = list(dict.fromkeys(r["set"] for r in full))
        other = _read_dumps(args.dumps, names)
        if isinstance(other, str):
            print(json.dumps({"skipped": other}))
            return 0
        cases = {name: _user_turns(args.cases / f"{name}.jsonl") for name in names}
        figures, rows = delta(full, other, earlier_labels(args.labels), cases)
        result = {**figures, "full": _shown(args.full), "dumps": _shown(args.dumps),
                  "labels": [_shown(p) for p in args.labels]}
        if args.rows:
            _write_rows(args.rows, rows)
            result["rows"] = _shown(args.rows)
        if args.out:
            write_result(args.out, result)
        print(json.dumps(result, ensure_ascii=False))
        return 0
    if args.cmd == "score":
        rows = _read_rows(args.labelled)
        result = {**score(rows), "labelled": _shown(args.labelled), "commands": args.command,
                  "note": args.note}
        if args.out:
            write_result(args.out, result)
        print(json.dumps(result, ensure_ascii=False))
        return 0
    memories = _read_dumps(args.dumps, args.sets.split(","))
    if isinstance(memories, str):
        print(json.dumps({"skipped": memories}))
        return 0
    cases = {name: _user_turns(args.cases / f"{name}.jsonl") for name in memories}
    rows = sample(memories, None if args.all else args.per_set, args.seed, cases)
    reused = reuse(rows, earlier_labels(args.reuse)) if args.reuse else Counter()
    _write_rows(args.out, rows)
    print(json.dumps({"out": _shown(args.out),
                      "sampled": dict(Counter(r["set"] for r in rows)),
                      "population": {k: len(v) for k, v in memories.items()},
                      "seed": None if args.all else args.seed,
                      **({"reuse": dict(reused)} if args.reuse else {})}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
