"""CPU per user message of the ``rules`` extractor with the memory classifier, the model's share, and
the model calls per message alone and with concurrent bursts (the classifier's coalescing).

Not a test. In process, no services: the freshness benchmark's durable user turns
(``bench_pipeline.user_turn``, each after an assistant greeting made unique per message so the
extractor's per-input memo never answers) go through ``RulesExtractor(classifier=MemoryClassifier())``
stage 1 and 2 (``extract`` + ``refine``), as ``MessageProcessor`` calls them, then the model call that
opens stage 3 (``core.memory.upsert.apply_candidates``: semantic dedup's vectors of the texts to store,
which the write carries to the index) for a user with no memories yet; the database writes are not run.
The model texts are counted per caller (``classifier``, ``dedup``): with the classifier on passage
vectors shared through ``core.embedding.cache``, dedup finds each kept candidate's vector already
computed (one model call per kept candidate from message to index). The same script runs on an older
checkout (copy it into its ``bench/``) to measure before/after.

1. sequential: process CPU ms per message (all threads, the model's OpenMP threads included), the
   CPU spent inside the embedder (the model), model calls and texts per message; again with every
   message's vector caches cold (``sequential_distinct``: the cost of a message whose texts are all new,
   since the workload repeats a few dozen sentences);
2. concurrent: ``--threads`` threads (the extractor's in-flight bursts) share the messages: model
   calls per message once concurrent calls coalesce (``CoalescingEmbed``), CPU per message;
3. cProfile of the sequential run: the top functions by own time.

Stdout: one JSON object.

    .venv/bin/python -m bench.bench_extractor_cpu --messages 400 --threads 32
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import threading
import time
from pathlib import Path
from typing import Any

from bench.bench_pipeline import user_turn
from bench.common import log


class TimedEmbedder:
    """The local embedder, with the process CPU spent inside it and the calls counted."""

    def __init__(self) -> None:
        from core.embedding.local import LocalE5Embedder

        self.inner = LocalE5Embedder()
        self.model = self.inner.model
        self.dim = self.inner.dim
        self.calls = 0
        self.texts = 0
        self.cpu = 0.0
        self._lock = threading.Lock()

    def _timed(self, fn: Any, texts: list[str]) -> Any:
        c0 = time.process_time()
        out = fn(texts)
        with self._lock:
            self.cpu += time.process_time() - c0
            self.calls += 1
            self.texts += len(texts)
        return out

    def embed_queries(self, texts: list[str]) -> Any:
        return self._timed(self.inner.embed_queries, texts)

    def embed_passages(self, texts: list[str]) -> Any:
        return self._timed(self.inner.embed_passages, texts)


def _clear_cache() -> None:
    """Empty the process-wide passage cache (when the checkout has one), so each run starts cold."""
    try:
        from core.embedding.cache import shared_passage_cache
    except ImportError:  # an older checkout: the classifier and dedup share nothing
        return
    cache = shared_passage_cache()
    with cache._lock:
        cache._data.clear()


def inputs(n: int, seed: int) -> list[Any]:
    from core.extraction.candidates import ContextMessage, ExtractionInput

    rng = random.Random(seed)
    out = []
    for i in range(n):
        greeting = "你好，有什么可以帮你？" if i % 2 else "Hi! How can I help you today?"
        out.append(ExtractionInput(user_turn(rng, i, durable_only=True),
                                   (ContextMessage("assistant", f"{greeting} (#{i})"),)))
    return out


MODEL = "mlp"  # --model: the classifier's model (linear: the one before issue 24, with no pair judge)


def _model(name: str) -> Any:
    from core.extraction.classifier import LinearModel, shipped_mlp

    return LinearModel.load() if name == "linear" else shipped_mlp()


def run(n: int, threads: int, seed: int, profile: bool = False, coalesce: bool = True,
        cold: bool = False) -> dict[str, Any]:
    """``cold`` (one thread only): every message starts with empty vector caches, as if all its texts
    were new to the process (the freshness workload repeats a few dozen sentences, so warm caches also
    serve texts of earlier messages)."""
    from core.config import load_settings
    from core.extraction.candidates import CandidateOp
    from core.extraction.classifier import MemoryClassifier
    from core.extraction.rules import RulesExtractor
    from core.memory.dedup import DedupItem, SemanticDeduper

    embedder = TimedEmbedder()
    dedup_embedder = TimedEmbedder()
    classifier = MemoryClassifier(embedder, model=_model(MODEL))  # an Embedder by shape
    batcher = classifier.batcher
    if not coalesce:  # every burst makes its own model call (as before CoalescingEmbed)
        setattr(classifier, "batcher", batcher._embed)  # noqa: B010 - the attribute's type changes
    extractor = RulesExtractor(classifier=classifier, judge=MODEL != "linear")
    thresholds = load_settings().dedup_thresholds
    deduper = SemanticDeduper(dedup_embedder, *thresholds)
    _clear_cache()
    extractor.extract(inputs(1, seed + 1)[0])  # warm-up: model load, the gate's topic vectors
    dedup_embedder.inner.embed_passages(["warm-up"])
    for e in (embedder, dedup_embedder):
        e.calls = e.texts = 0
        e.cpu = 0.0
    batcher.calls = batcher.texts = 0
    data = inputs(n, seed)
    candidates = 0
    lock = threading.Lock()

    def work(items: list[Any]) -> None:
        nonlocal candidates, deduper
        for d in items:
            if cold:
                _clear_cache()
                deduper = SemanticDeduper(dedup_embedder, *thresholds)
            found = extractor.refine(d, extractor.extract(d))
            texts = [DedupItem(c.key, c.memory_type.value, c.content).text for c in found
                     if c.op is CandidateOp.UPSERT and c.content.strip()]
            if texts:  # stage 3's first model call (apply_candidates), a user with no memories yet
                deduper.vectors(texts)
            with lock:
                candidates += len(texts)

    prof = cProfile.Profile() if profile else None
    c0, w0 = time.process_time(), time.perf_counter()
    if threads <= 1:
        if prof is not None:
            prof.enable()
        work(data)
        if prof is not None:
            prof.disable()
    else:
        parts = [data[i::threads] for i in range(threads)]
        pool = [threading.Thread(target=work, args=(p,)) for p in parts]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    model_cpu = embedder.cpu + dedup_embedder.cpu
    calls = embedder.calls + dedup_embedder.calls
    texts = embedder.texts + dedup_embedder.texts
    out: dict[str, Any] = {
        "messages": n, "threads": threads, "coalescing": coalesce, "cold_caches": cold,
        "candidates": candidates,
        "cpu_ms_per_message": round(1000 * cpu / n, 2),
        "model_cpu_ms_per_message": round(1000 * model_cpu / n, 2) if threads <= 1 else None,
        "ours_cpu_ms_per_message": round(1000 * (cpu - model_cpu) / n, 2) if threads <= 1 else None,
        "wall_ms_per_message": round(1000 * wall / n, 2),
        "classifier_texts_per_message": round(batcher.texts / n, 3) if coalesce else None,
        "model_texts_per_message": {"classifier": round(embedder.texts / n, 3),
                                    "dedup": round(dedup_embedder.texts / n, 3),
                                    "total": round(texts / n, 3)},
        "model_texts_per_stored_text": round(texts / candidates, 3) if candidates else None,
        "model_calls_per_message": round(calls / n, 3),
        "texts_per_model_call": round(texts / calls, 2) if calls else None,
    }
    if prof is not None:
        buf = io.StringIO()
        stats = pstats.Stats(prof, stream=buf)
        rows = []
        for (file, line, name), (_cc, nc, tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
            rows.append({"function": f"{Path(file).name}:{line}({name})", "calls": nc,
                         "own_ms_per_message": round(1000 * tt / n, 3),
                         "cumulative_ms_per_message": round(1000 * ct / n, 3)})
        rows.sort(key=lambda r: -r["own_ms_per_message"])
        out["profile_top_own_time"] = rows[:15]
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=400)
    parser.add_argument("--threads", type=int, default=32)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--model", choices=("mlp", "linear"), default="mlp",
                        help="mlp: the shipped MLP with context and the pair judge; linear: the logistic "
                             "model without the judge (before issue 24)")
    parser.add_argument("--sequential-only", action="store_true", help="only the sequential runs")
    args = parser.parse_args(argv)
    global MODEL
    MODEL = args.model
    result: dict[str, Any] = {"benchmark": "extractor_cpu", "params": vars(args)}
    log(f"sequential: {args.messages} messages")
    result["sequential"] = run(args.messages, 1, args.seed, profile=False)
    log(f"sequential, every message with cold caches: {args.messages} messages")
    result["sequential_distinct"] = run(args.messages, 1, args.seed, cold=True)
    if args.sequential_only:
        return result
    log(f"concurrent: {args.threads} threads, each burst its own model call")
    result["concurrent_separate_calls"] = run(args.messages, args.threads, args.seed, coalesce=False)
    log(f"concurrent: {args.threads} threads, coalesced model calls")
    result["concurrent"] = run(args.messages, args.threads, args.seed)
    log("profile (sequential, under cProfile)")
    result["profile"] = run(min(args.messages, 200), 1, args.seed, profile=True)["profile_top_own_time"]
    return result


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False, default=str))
