"""LoCoMo evidence recall@k through the whole pipeline, beside dense retrieval over the raw turns.

Not a test. Reads ``../shared/benchmarks/locomo10.json`` (relative to the repo; ``--data`` to change)
and skips cleanly (``{"skipped": ...}``) when it is absent.

Publishing: each LoCoMo speaker is a pai-memory user. A turn is published twice: as a ``user``
message of its speaker's user, and as an ``assistant`` message (context only, never a source of
facts) of the other speaker's user; one conversation id per (user, LoCoMo session). Message ids
encode the dia_id (``<user>:D3:7``), so ``long_term_memories.source_message_id`` ->
``messages.upstream_message_id`` names the turn a memory came from. The extractor runs with
``LONG_TERM_MEMORY_DEBOUNCE_SEC=0`` and a speaker's next turn is published once their previous
one is final (speakers and conversations run in parallel), stamped with its session's date and
time (``session_N_date_time``, plus a second per turn) so that "yesterday" has a date: like a live chat
where a user's turns are seconds apart, each extraction sees one turn (the report checks the burst
size). Publishing everything at once would coalesce a whole session into one extraction (at most
``LONG_TERM_MEMORY_MAX_WRITE_ITEMS`` memories), which is not how the service is fed.

Scoring: every question except category 5 (adversarial), retrieve top 10 (dense ``Retriever``, the
product's rerank) for each speaker its evidence turns belong to, and count
a hit at k when one of the first k memories has its source message among the evidence turns, or
contains the answer text (both criteria are also reported alone). With episodes (issue 25): episodes
only; ``ours_both``, both kinds as a call with neither limit given serves them (a retrieval of its
own per speaker), read down the answer's ``order`` to k (``core.retrieval.merge.take_pooled``, each
kind within its own limit, the stale-episode rule included); ``ours_both_recomputed``, the same
``take_pooled`` recomputed from the two top-10 lists without the stale rule nor the kinds' backgrounds
(raw cosines; sessions 10-11's figure);
``ours_both_fixed_split``, the former split of k by the question's time intent (``split_limits``);
``ours_both_pooled_by_cosine``, both kinds by raw cosine.

Two target speakers (the evidence is in both speakers' turns; 54 of the 953 questions of conversations
5-10): a product retrieval is one user's, and each user's scores are on that user's own ruler (the pool
standardises each kind against that user's own backgrounds, ``core.retrieval.merge.Backgrounds``; episode
scores are scaled so that each user's best is 1.0), so two users' scores were never made to be compared.
Every arm of ours therefore reads the speakers' lists **by rank** (``interleave``): each speaker's first,
then each speaker's second, ..., each speaker's own order kept, cut at k; within a rank the speaker whose
list's first entry has the higher query cosine comes first (the same embedder's cosine is one ruler for
every user; a fixed speaker order moved 1-3 questions at r@5 on session 25's store). With one target
speaker this is that speaker's list. The former reading (the speakers' lists merged by score, a stable
sort) stays as the ``*_by_score`` rows (``ours_memories_by_score``, ``ours_episodes_by_score``,
``ours_both_by_score``), so the change is visible; ``ours_both_pooled_by_cosine`` and the raw-turn
baselines keep one cosine ruler over both speakers (their best honest configuration). ``python -m
bench.locomo_readings DUMP`` re-reads a ``--dump`` both ways.

``--dump FILE`` writes each question's candidates of both kinds, ``--skip N`` starts at conversation N (a
slice not looked at before). Baselines in the same run, same model: dense retrieval (cosine, e5
query/passage prefixes) over every raw turn of the conversation (both speakers), and over the evidence
speaker's own turns only (the material the memories are extracted from).

Stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from bench.common import REPO, log
from bench.stack import bench_pipeline, install_sigterm
from harness.pipeline import Pipeline

DEFAULT_DATA = REPO.parent / "shared" / "benchmarks" / "locomo10.json"
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (1, 5, 10)
_DIA = re.compile(r"D\d+:\d+")
T = TypeVar("T")
NO_LEAD = float("-inf")


def slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "", name)[:20] or "spk"


def session_time(raw: Any) -> datetime | None:
    """A LoCoMo session's ``date_time`` ("1:56 pm on 8 May, 2023") as a UTC datetime, else ``None``."""
    try:
        return datetime.strptime(str(raw).strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    except ValueError:
        return None


def load_turns(sample: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, str], list[str]]:
    """Ordered turns ``{dia_id, speaker, text, session, at}`` (``at``: the session's date and time, or
    ``None``), dia_id -> speaker, the two speakers."""
    conv = sample["conversation"]
    speakers = [conv["speaker_a"], conv["speaker_b"]]
    sessions = sorted(int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k))
    turns = []
    for s in sessions:
        at = session_time(conv.get(f"session_{s}_date_time"))
        for t in conv[f"session_{s}"]:
            text = (t.get("text") or "").strip()
            if text and t.get("dia_id"):
                turns.append({"dia_id": t["dia_id"], "speaker": t["speaker"], "text": text, "session": s,
                              "at": at})
    return turns, {t["dia_id"]: t["speaker"] for t in turns}, speakers


def answer_in(answer: Any, text: str) -> bool:
    a = str(answer).strip().lower()
    return len(a) >= 2 and a in text.lower()


# --- publishing -----------------------------------------------------------------------------------
def publish_paced(pipe: Pipeline, convs: list[dict[str, Any]], timeout: float) -> dict[str, Any]:
    """Publish every conversation; a speaker's next turn waits until their previous one is final."""
    from sqlalchemy import text

    from producers.client import MemoryEventProducer
    from schemas import ChatMessageData

    t_base = datetime.now(UTC) - timedelta(days=1)
    cursor = [0] * len(convs)
    pending: dict[str, str] = {}  # user -> upstream id of their last user message not yet final
    published = 0
    user_msgs = 0
    started = time.monotonic()
    final_sql = text(
        "SELECT upstream_message_id FROM messages WHERE upstream_message_id = ANY(:ids) "
        "AND memory_status IN ('PROCESSED', 'SKIPPED', 'FAILED')"
    )
    with MemoryEventProducer(pipe.settings, source="bench/locomo") as producer:
        while any(cursor[i] < len(c["turns"]) for i, c in enumerate(convs)) or pending:
            if time.monotonic() - started > timeout:
                raise TimeoutError(f"LoCoMo publishing did not finish in {timeout:.0f}s")
            moved = False
            for i, c in enumerate(convs):
                # publish as many turns of this conversation as possible without waiting
                while cursor[i] < len(c["turns"]):
                    turn = c["turns"][cursor[i]]
                    user = c["users"][turn["speaker"]]
                    if user in pending:
                        break
                    other = c["users"][c["other"][turn["speaker"]]]
                    # the session's own date (the extractor resolves "yesterday" against it), a second
                    # per turn; the run's clock when the data has no session dates
                    start = turn["at"] or t_base + timedelta(seconds=c["offset"])
                    created = start + timedelta(seconds=cursor[i])
                    for uid, role, mid in (
                        (other, "assistant", f"{other}:ctx:{turn['dia_id']}"),
                        (user, "user", f"{user}:{turn['dia_id']}"),
                    ):
                        producer.publish_message(
                            ChatMessageData(
                                message_id=mid,
                                user_id=uid,
                                conversation_id=f"{uid}-s{turn['session']}",
                                role=role,
                                content=turn["text"],
                                created_at=created,
                            )
                        )
                        published += 1
                    pending[user] = f"{user}:{turn['dia_id']}"
                    user_msgs += 1
                    cursor[i] += 1
                    moved = True
            producer.flush(60)
            if pending:
                with pipe.engine.connect() as conn:
                    done = set(conn.execute(final_sql, {"ids": list(pending.values())}).scalars())
                for user in [u for u, mid in pending.items() if mid in done]:
                    del pending[user]
            if not moved:
                pipe.check()
                time.sleep(0.05)
    return {
        "messages_published": published,
        "user_messages": user_msgs,
        "publish_until_final_sec": round(time.monotonic() - started, 1),
    }


# --- scoring ----------------------------------------------------------------------------------------
def new_tally() -> dict[str, Any]:
    return {"n": 0, **{f"{crit}@{k}": 0 for crit in ("any", "evidence", "answer") for k in KS}}


def score_list(
    tally: dict[str, Any], ranked: list[tuple[set[str], str]], evidence: set[str], answer: Any
) -> None:
    """``ranked``: (source dia_ids, text) best first."""
    tally["n"] += 1
    for k in KS:
        top = ranked[:k]
        ev = any(src & evidence for src, _ in top)
        an = any(answer_in(answer, txt) for _, txt in top)
        tally[f"evidence@{k}"] += ev
        tally[f"answer@{k}"] += an
        tally[f"any@{k}"] += ev or an


def score_at(tally: dict[str, Any], served: dict[int, list[tuple[set[str], str]]], evidence: set[str],
             answer: Any) -> None:
    """Like ``score_list`` for a retrieval that serves a different list at each k (``served[k]``, at most
    k items: the memories' share and the episodes' share)."""
    tally["n"] += 1
    for k in KS:
        top = served[k][:k]
        ev = any(src & evidence for src, _ in top)
        an = any(answer_in(answer, txt) for _, txt in top)
        tally[f"evidence@{k}"] += ev
        tally[f"answer@{k}"] += an
        tally[f"any@{k}"] += ev or an


def interleave(lists: Sequence[Sequence[T]], leads: Sequence[float] | None = None) -> list[T]:
    """Several users' ranked lists read by rank: every list's first, then every list's second, ... (each
    list's own order kept). No calibrated score is compared across lists: each user's scores are on that
    user's own backgrounds. Within a rank the lists come in the order of ``leads`` (highest first: the query
    cosine of each list's first entry, one embedder's cosine being one ruler for every user), ties and
    without ``leads`` in the given order."""
    if leads is not None:
        lists = [lst for _, lst in sorted(zip(leads, lists, strict=True), key=lambda x: -x[0])]
    depth = max((len(lst) for lst in lists), default=0)
    return [lst[r] for r in range(depth) for lst in lists if r < len(lst)]


def lead_of(order: Sequence[Any], cosines: dict[tuple[str, int], float]) -> float:
    """The query cosine of a served order's first entry (``interleave``'s ``leads``)."""
    return cosines.get((order[0].kind, order[0].id), NO_LEAD) if order else NO_LEAD


def finish(tally: dict[str, Any]) -> dict[str, Any]:
    n = tally["n"]
    return {"n": n, **{k: round(v / n, 4) if n else None for k, v in tally.items() if k != "n"}}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--conversations", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="2 conversations")
    parser.add_argument("--skip", type=int, default=0, help="start at this conversation (a held-out slice)")
    parser.add_argument("--max-turns", type=int, default=0, help="keep only the first N turns (smoke runs)")
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument("--keep-state", type=Path, default=None,
                        help="keep the scratch database and collections after the run and write what "
                             "--reuse-state needs to this JSON file (drop them by hand afterwards)")
    parser.add_argument("--reuse-state", type=Path, default=None,
                        help="score retrieval on the store a --keep-state run left (no ingestion; same "
                             "--conversations/--skip/--max-turns); retrieval variants compared on one store")
    parser.add_argument("--alt-episode-caps", type=lambda v: [int(x) for x in v.split(",") if x],
                        default=[], help="also score the pooled order with these EPISODE_RETRIEVE_LIMIT "
                                         "values (e.g. 8,10)")
    parser.add_argument("--no-fixed-split", action="store_true",
                        help="skip the fixed-split reference arm (three more retrievals per question)")
    parser.add_argument("--no-user-names", action="store_true",
                        help="ask without the speaker's name as the user's name (``user_names``, "
                             "core.retrieval.plan.without_names): the rows before session 14")
    parser.add_argument("--dump", type=Path, default=None,
                        help="write each question's candidates of both kinds (cosine, score, hit) as JSON "
                             "lines, to study merged orders offline")
    args = parser.parse_args(argv)
    install_sigterm()
    if not args.data.exists():
        log(f"LoCoMo data not found at {args.data}: skipped")
        return {"benchmark": "locomo", "skipped": f"{args.data} not found"}
    data = json.loads(args.data.read_text())
    n_conv = 2 if args.quick else min(args.conversations, len(data))
    samples = data[args.skip:args.skip + n_conv]
    run = datetime.now(UTC).strftime("%H%M%S")

    convs = []
    offset = 0
    for ci, sample in enumerate(samples):
        turns, dia_speaker, speakers = load_turns(sample)
        if args.max_turns:
            turns = turns[: args.max_turns]
            dia_speaker = {t["dia_id"]: t["speaker"] for t in turns}
        users = {s: f"lc{run}-{ci}-{slug(s)}-{j}" for j, s in enumerate(speakers)}
        convs.append(
            {
                "sample": sample,
                "turns": turns,
                "dia_speaker": dia_speaker,
                "users": users,
                "other": {speakers[0]: speakers[1], speakers[1]: speakers[0]},
                "offset": offset,
                "asked_at": max((t["at"] for t in turns if t["at"] is not None),
                                default=datetime.now(UTC)) + timedelta(days=1),
            }
        )
        offset += len(turns) + 10

    result: dict[str, Any] = {"benchmark": "locomo", "conversations": n_conv, "skip": args.skip,
                              "data": str(args.data)}
    # LoCoMo's sessions are dated 2022-2023: with the default EPISODE_TTL_DAYS (365 from the time a
    # message was said) every episode would be expired before the questions are asked
    overrides = {"LONG_TERM_MEMORY_DEBOUNCE_SEC": "0", "LONG_TERM_MEMORY_RETRIEVE_MODE": "dense",
                 "EPISODE_TTL_DAYS": "36500"}
    state: dict[str, Any] | None = None
    if args.reuse_state:
        state = json.loads(args.reuse_state.read_text())
        for c, users in zip(convs, state["users"][:len(convs)], strict=True):  # a prefix of the kept run
            c["users"] = users
        pipeline: Pipeline = Pipeline(state["env"], "locomo-reuse")
    else:
        pipeline = bench_pipeline("locomo", overrides=overrides, keep=args.keep_state is not None)
    with pipeline as pipe:
        provider = pipe.settings.extractor_provider.value
        result["extractor_provider"] = provider
        log(
            f"LoCoMo: {n_conv} conversations, {sum(len(c['turns']) for c in convs)} turns, "
            f"provider {provider}"
        )
        if state is not None:
            result["ingest"] = {**state["ingest"], "reused_state": str(args.reuse_state)}
        else:
            for proc in ("extractor", "relay", "indexer"):
                pipe.start(proc)
            t0 = time.monotonic()
            pub = publish_paced(pipe, convs, args.timeout)
            pub["wait_synced_after_sec"] = round(pipe.wait_indexed(args.timeout), 1)
            pub["total_sec"] = round(time.monotonic() - t0, 1)
            result["ingest"] = pub
            if args.keep_state is not None:
                args.keep_state.write_text(json.dumps({"env": pipe.env, "users": [c["users"] for c in convs],
                                                       "ingest": pub}))
            log(f"ingested: {pub}")

        # --- what was stored ---------------------------------------------------------------------
        from sqlalchemy import text

        with pipe.engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT u.external_id, m.id, m.memory_type, m.memory_key, m.content, "
                    "s.upstream_message_id "
                    "FROM long_term_memories m JOIN users u ON u.id = m.user_id "
                    "LEFT JOIN messages s ON s.id = m.source_message_id WHERE m.is_active"
                )
            ).all()
        statuses, bursts = pipe.extraction_outcomes()
        scored_users = {u for c in convs for u in c["users"].values()}
        rows = [r for r in rows if r[0] in scored_users]  # a --reuse-state prefix: its own users' only
        source_of: dict[int, set[str]] = {}
        per_user: dict[str, int] = defaultdict(int)
        for ext, mid, _mt, _key, _content, upstream in rows:
            source_of[mid] = set(_DIA.findall(upstream.split(":", 1)[1])) if upstream else set()
            per_user[ext] += 1
        n_turns = sum(len(c["turns"]) for c in convs)
        result["stored"] = {
            "memories": len(rows),
            "turns": n_turns,
            "memories_per_turn": round(len(rows) / n_turns, 4),
            "user_message_status": statuses,
            "mean_user_turns_per_extraction": round(sum(bursts) / len(bursts), 3) if bursts else None,
            "memories_with_source": sum(1 for s in source_of.values() if s),
            "by_type": dict(_count(r[2] for r in rows)),
            "examples": [f"[{r[2]}] {r[3]}: {r[4]}" for r in rows[:: max(1, len(rows) // 12)][:12]],
        }
        # episodes (core.episodes): the passages of what each speaker said, and the turn of each
        with pipe.engine.connect() as conn:
            ep_rows = conn.execute(text(
                "SELECT e.id, s.upstream_message_id FROM episodes e JOIN messages s ON s.id = e.message_id"
            )).all()
        episode_source = {int(eid): set(_DIA.findall(up.split(":", 1)[1])) for eid, up in ep_rows}
        user_turns = sum(len(c["turns"]) for c in convs)
        result["stored"]["episodes"] = len(ep_rows)
        result["stored"]["episodes_per_turn"] = round(len(ep_rows) / user_turns, 4) if user_turns else None

        # --- retrieval: ours -------------------------------------------------------------------
        from core.config import RetrieveMode
        from core.embedding.local import LocalE5Embedder
        from core.retrieval import build_retriever

        retriever = build_retriever(pipe.settings)
        mem_cap = pipe.settings.LONG_TERM_MEMORY_RETRIEVE_LIMIT
        ep_cap = pipe.settings.EPISODE_RETRIEVE_LIMIT
        embedder = LocalE5Embedder()
        from core.episodes.search import split_limits, time_intent
        from core.lexical import tokenize
        from core.retrieval.merge import memory_lexical, take_pooled
        from core.retrieval.plan import build_query

        lex_weight = pipe.settings.EPISODE_LEXICAL_WEIGHT
        from core.retrieval.plan import in_first_person, without_names

        def cosines_of(res: Any) -> dict[tuple[str, int], float]:
            """Each served entry's query cosine (``lead_of``)."""
            out = {("memory", i.memory.id): i.components.raw_retrieval for i in res.items}
            out.update({("episode", e.episode.id): e.cosine for e in res.episodes})
            return out

        def names(speaker: str) -> list[str]:
            """The user's names as a caller gives them (``user_names``): the speaker's name."""
            return [] if args.no_user_names else [speaker]

        def intent_of(question: str, speakers: Sequence[str]) -> str:
            """The question's time intent as retrieval reads it: the target speakers' names as the user."""
            return time_intent(in_first_person(question, [n for spk in speakers for n in names(spk)]))

        result["user_names"] = not args.no_user_names

        episodes_only: defaultdict[str, dict[str, Any]] = defaultdict(new_tally)
        both: defaultdict[str, dict[str, Any]] = defaultdict(new_tally)
        # the former reading of two target speakers: their lists merged by score
        ours_by_score: defaultdict[str, dict[str, Any]] = defaultdict(new_tally)
        episodes_by_score: defaultdict[str, dict[str, Any]] = defaultdict(new_tally)
        both_by_score: defaultdict[str, dict[str, Any]] = defaultdict(new_tally)
        # the pooled order recomputed from the two top-10 lists (take_pooled without the stale rule:
        # the figure of sessions 10-11's "both as served")
        recomputed: defaultdict[str, dict[str, Any]] = defaultdict(new_tally)
        # ``--alt-episode-caps``: the same pooled order with another EPISODE_RETRIEVE_LIMIT
        alt_caps: dict[int, defaultdict[str, dict[str, Any]]] = {c: defaultdict(new_tally)
                                                                 for c in args.alt_episode_caps}
        fixed_split: defaultdict[str, dict[str, Any]] = defaultdict(new_tally)
        by_cosine: defaultdict[str, dict[str, Any]] = defaultdict(new_tally)
        # the questions are asked the day after the conversation's last session
        ours: defaultdict[str, dict[str, Any]] = defaultdict(new_tally)
        base_all: defaultdict[str, dict[str, Any]] = defaultdict(new_tally)
        base_own: defaultdict[str, dict[str, Any]] = defaultdict(new_tally)
        base_own_unnamed: defaultdict[str, dict[str, Any]] = defaultdict(new_tally)
        served: dict[str, int] = defaultdict(int)
        skipped_q = 0
        retrieval_ms: list[float] = []
        t_base = time.monotonic()
        import numpy as np

        dump: list[dict[str, Any]] | None = [] if args.dump else None
        for c in convs:
            turns = c["turns"]
            vecs = embedder.embed_passages([t["text"] for t in turns])
            speaker_idx = defaultdict(list)
            for i, t in enumerate(turns):
                speaker_idx[t["speaker"]].append(i)
            questions = [q for q in c["sample"]["qa"] if q.get("category") != 5]
            qvecs = embedder.embed_queries([q["question"] for q in questions]) if questions else None
            for qi, q in enumerate(questions):
                evidence = set()
                for e in q.get("evidence") or []:
                    evidence.update(_DIA.findall(str(e)))
                evidence &= set(c["dia_speaker"])
                answer = q.get("answer", "")
                if not evidence:
                    skipped_q += 1
                    continue
                cat = CATEGORY_NAMES.get(q["category"], str(q["category"]))
                target = sorted({c["dia_speaker"][d] for d in evidence})
                # ours: top 10 per target speaker, read by rank (``interleave``); the former reading merged
                # the speakers' lists by rerank score (``*_by_score``)
                merged: list[tuple[float, set[str], str]] = []
                mem_lists: list[list[tuple[set[str], str]]] = []
                mem_leads: list[float] = []
                for spk in target:
                    t1 = time.perf_counter()
                    res = retriever.retrieve(
                        c["users"][spk], q["question"], mode=RetrieveMode.DENSE, limit=10,
                        user_names=names(spk)
                    )
                    retrieval_ms.append((time.perf_counter() - t1) * 1000)
                    served[res.served_by.value] += 1
                    mem_list = [(item.score, source_of.get(item.memory.id, set()),
                                 f"{item.memory.key} {item.memory.content}") for item in res.items]
                    merged.extend(mem_list)
                    mem_lists.append([(s, t) for _, s, t in mem_list])
                    mem_leads.append(res.items[0].components.raw_retrieval if res.items else NO_LEAD)
                merged.sort(key=lambda x: -x[0])
                for tally in (ours_by_score[cat], ours_by_score["all"]):
                    score_list(tally, [(s, t) for _, s, t in merged], evidence, answer)
                for tally in (ours[cat], ours["all"]):
                    score_list(tally, interleave(mem_lists, mem_leads), evidence, answer)
                # episodes only, and both as retrieval serves them: the pooled order of the two kinds
                # (core.retrieval.merge; with neither limit given retrieval serves the first k of it)
                eps: list[tuple[float, set[str], str]] = []
                ep_lists: list[list[tuple[set[str], str]]] = []  # each target speaker's episodes, in order
                ep_leads: list[float] = []
                pooled: list[tuple[float, set[str], str]] = []  # both kinds by their cosine
                cands: list[dict[str, Any]] = []  # --dump: both kinds' candidates of every target speaker
                answers = []  # each target speaker's answer, for the pooled order at each k
                served_orders = []  # each target speaker's served order (a call with neither limit)
                for spk in target:
                    res = retriever.retrieve(c["users"][spk], q["question"], mode=RetrieveMode.DENSE,
                                             limit=10, episode_limit=10, asked_at=c["asked_at"],
                                             user_names=names(spk))
                    ep_list = [(e.score, episode_source.get(e.episode.id, set()), e.episode.content)
                               for e in res.episodes]
                    eps.extend(ep_list)
                    ep_lists.append([(s, t) for _, s, t in ep_list])
                    ep_leads.append(res.episodes[0].cosine if res.episodes else NO_LEAD)
                    pooled.extend((e.cosine, episode_source.get(e.episode.id, set()), e.episode.content)
                                  for e in res.episodes)
                    pooled.extend((i.components.raw_retrieval, source_of.get(i.memory.id, set()),
                                   f"{i.memory.key} {i.memory.content}") for i in res.items)
                    by_id = {("memory", i.memory.id): (source_of.get(i.memory.id, set()),
                                                       f"{i.memory.key} {i.memory.content}")
                             for i in res.items}
                    by_id.update({("episode", e.episode.id): (episode_source.get(e.episode.id, set()),
                                                              e.episode.content) for e in res.episodes})
                    answers.append((res, by_id, spk, cosines_of(res)))
                    # what a call with neither limit given serves (the product's own pooled order)
                    res_served = retriever.retrieve(c["users"][spk], q["question"], mode=RetrieveMode.DENSE,
                                                    asked_at=c["asked_at"], user_names=names(spk))
                    served_by_id = {("memory", i.memory.id): (source_of.get(i.memory.id, set()),
                                                              f"{i.memory.key} {i.memory.content}")
                                    for i in res_served.items}
                    served_by_id.update({("episode", e.episode.id): (episode_source.get(e.episode.id, set()),
                                                                     e.episode.content)
                                         for e in res_served.episodes})
                    served_orders.append((res_served.order, served_by_id, cosines_of(res_served)))
                    if dump is None:
                        continue
                    q_terms = set(tokenize(build_query(without_names(q["question"], names(spk)), None)))
                    m_lex = memory_lexical(res.items, q_terms, lex_weight if res.episodes else 0.0)
                    stale = retriever._truth.superseded_messages([i.memory.id for i in res.items])
                    cands.extend(
                        {"kind": "memory", "spk": spk, "pos": j, "cosine": i.components.raw_retrieval,
                         "score": i.score, "id": i.memory.id, "mlex": m_lex[j],
                         "src": sorted(source_of.get(i.memory.id, set())),
                         "hit": bool(source_of.get(i.memory.id, set()) & evidence),
                         "answer": answer_in(answer, f"{i.memory.key} {i.memory.content}")}
                        for j, i in enumerate(res.items))
                    cands.extend(
                        {"kind": "episode", "spk": spk, "pos": j, "cosine": e.cosine, "score": e.score,
                         "lexical": e.lexical, "id": e.episode.id, "msg": e.episode.message_id,
                         "stale_by": stale.get(e.episode.message_id),
                         "src": sorted(episode_source.get(e.episode.id, set())),
                         "in_window": e.in_window,
                         "hit": bool(episode_source.get(e.episode.id, set()) & evidence),
                         "answer": answer_in(answer, e.episode.content)}
                        for j, e in enumerate(res.episodes))
                    cands.extend(
                        {"kind": "served_" + p.kind, "spk": spk, "pos": j, "id": p.id, "score": p.score}
                        for j, p in enumerate(res_served.order))
                if dump is not None:
                    dump.append({"cat": cat, "intent": intent_of(q["question"], target), "q": q["question"],
                                 "evidence": sorted(evidence), "answer": str(answer), "cands": cands})
                served_now: dict[int, list[tuple[set[str], str]]] = {}
                served_by_score: dict[int, list[tuple[set[str], str]]] = {}
                for k in KS:
                    served_now[k] = interleave([[by_id[(p.kind, p.id)] for p in order[:k]]
                                                for order, by_id, _ in served_orders],
                                               [lead_of(order, cos) for order, _, cos in served_orders])[:k]
                    at_k_served = [(p.score, *by_id[(p.kind, p.id)]) for order, by_id, _ in served_orders
                                   for p in order[:k]]
                    at_k_served.sort(key=lambda x: -x[0])  # stable: one speaker's own order is kept
                    served_by_score[k] = [(s, t) for _, s, t in at_k_served[:k]]
                for tally in (both[cat], both["all"]):
                    score_at(tally, served_now, evidence, answer)
                for tally in (both_by_score[cat], both_by_score["all"]):
                    score_at(tally, served_by_score, evidence, answer)
                pooled.sort(key=lambda x: -x[0])
                for tally in (by_cosine[cat], by_cosine["all"]):
                    score_list(tally, [(s, t) for _, s, t in pooled], evidence, answer)
                # what a call with neither limit given serves (each kind within its own limit,
                # LONG_TERM_MEMORY_RETRIEVE_LIMIT and EPISODE_RETRIEVE_LIMIT), read down the answer's
                # ``order`` to k: take_pooled of the kinds' candidates, which the top 10 asked above hold
                # (each kind's ranking of a longer list starts with that of a shorter one; a kind never
                # serves past its limit, <= 10)
                alt = ((c, alt_caps[c]) for c in args.alt_episode_caps)
                for cap, tallies in ((ep_cap, recomputed), *alt):
                    served_pooled: dict[int, list[tuple[set[str], str]]] = {}
                    for k in KS:
                        at_k: list[list[tuple[set[str], str]]] = []
                        at_k_leads: list[float] = []
                        for res, by_id, a_spk, a_cos in answers:
                            intent = res.intent or "neutral"
                            # the terms as the retrieval's plan has them
                            q_terms = set(tokenize(build_query(without_names(q["question"], names(a_spk)),
                                                               None)))
                            order = take_pooled(res.items, res.episodes, mem_cap + cap, intent,
                                                max_items=mem_cap, max_episodes=cap, terms=q_terms,
                                                lexical_weight=lex_weight if res.episodes else 0.0)[2][:k]
                            at_k.append([by_id[(p.kind, p.id)] for p in order])
                            at_k_leads.append(lead_of(order, a_cos))
                        served_pooled[k] = interleave(at_k, at_k_leads)[:k]
                    for tally in (tallies[cat], tallies["all"]):
                        score_at(tally, served_pooled, evidence, answer)
                eps.sort(key=lambda x: -x[0])
                for tally in (episodes_by_score[cat], episodes_by_score["all"]):
                    score_list(tally, [(s, t) for _, s, t in eps], evidence, answer)
                for tally in (episodes_only[cat], episodes_only["all"]):
                    score_list(tally, interleave(ep_lists, ep_leads), evidence, answer)
                served_both: dict[int, list[tuple[set[str], str]]] = {}
                for k in KS if not args.no_fixed_split else ():
                    m_lim, e_lim = split_limits(k - k // 2, k // 2, intent_of(q["question"], target))
                    mem_part: list[list[tuple[set[str], str]]] = []
                    ep_part: list[list[tuple[set[str], str]]] = []
                    m_leads: list[float] = []
                    e_leads: list[float] = []
                    for spk in target:
                        res = retriever.retrieve(c["users"][spk], q["question"], mode=RetrieveMode.DENSE,
                                                 limit=max(1, m_lim), episode_limit=e_lim,
                                                 asked_at=c["asked_at"], user_names=names(spk))
                        mem_part.append([(source_of.get(i.memory.id, set()),
                                          f"{i.memory.key} {i.memory.content}") for i in res.items[:m_lim]])
                        ep_part.append([(episode_source.get(e.episode.id, set()), e.episode.content)
                                        for e in res.episodes])
                        m_leads.append(res.items[0].components.raw_retrieval if res.items[:m_lim]
                                       else NO_LEAD)
                        e_leads.append(res.episodes[0].cosine if res.episodes else NO_LEAD)
                    served_both[k] = (interleave(mem_part, m_leads)[:m_lim]
                                      + interleave(ep_part, e_leads)[:e_lim])
                for tally in (fixed_split[cat], fixed_split["all"]) if served_both else ():
                    score_at(tally, served_both, evidence, answer)  # before the pooled order
                # baselines: cosine over raw turns
                assert qvecs is not None
                sims = vecs @ qvecs[qi]
                order_all = np.argsort(-sims)[:10]
                ranked_all = [({turns[i]["dia_id"]}, turns[i]["text"]) for i in order_all]
                own = [i for spk in target for i in speaker_idx[spk]]
                order_own = sorted(own, key=lambda i: -sims[i])[:10]
                ranked_own = [({turns[i]["dia_id"]}, turns[i]["text"]) for i in order_own]
                for tally in (base_all[cat], base_all["all"]):
                    score_list(tally, ranked_all, evidence, answer)
                for tally in (base_own[cat], base_own["all"]):
                    score_list(tally, ranked_own, evidence, answer)
                if not args.no_user_names:  # the same baseline asked with the speaker's name taken out
                    unnamed = embedder.embed_queries([without_names(q["question"], [spk]) for spk in target])
                    own_sims = sorted(((float(vecs[i] @ unnamed[j]), i) for j, spk in enumerate(target)
                                       for i in speaker_idx[spk]), key=lambda x: -x[0])[:10]
                    ranked_unnamed = [({turns[i]["dia_id"]}, turns[i]["text"]) for _, i in own_sims]
                    for tally in (base_own_unnamed[cat], base_own_unnamed["all"]):
                        score_list(tally, ranked_unnamed, evidence, answer)
        retriever.close()
        if dump is not None and args.dump:
            args.dump.write_text("".join(json.dumps(d) + "\n" for d in dump))
        from bench.stats import latency_summary

        result["recall"] = {
            "ours_memories": {k: finish(v) for k, v in ours.items()},
            "ours_episodes": {k: finish(v) for k, v in episodes_only.items()},
            "ours_both": {k: finish(v) for k, v in both.items()},
            "ours_memories_by_score": {k: finish(v) for k, v in ours_by_score.items()},
            "ours_episodes_by_score": {k: finish(v) for k, v in episodes_by_score.items()},
            "ours_both_by_score": {k: finish(v) for k, v in both_by_score.items()},
            "ours_both_recomputed": {k: finish(v) for k, v in recomputed.items()},
            **{f"ours_both_episode_cap_{c}": {k: finish(v) for k, v in t.items()}
               for c, t in alt_caps.items()},
            "ours_both_fixed_split": {k: finish(v) for k, v in fixed_split.items()},
            "ours_both_pooled_by_cosine": {k: finish(v) for k, v in by_cosine.items()},
            "baseline_raw_turns_all_speakers": {k: finish(v) for k, v in base_all.items()},
            "baseline_raw_turns_evidence_speaker": {k: finish(v) for k, v in base_own.items()},
            **({"baseline_raw_turns_evidence_speaker_without_name": {k: finish(v)
                                                                     for k, v in base_own_unnamed.items()}}
               if base_own_unnamed else {}),
        }
        result["questions_without_valid_evidence"] = skipped_q
        result["ours_served_by"] = dict(served)
        result["ours_retrieval_ms"] = latency_summary(retrieval_ms)
        result["scoring_sec"] = round(time.monotonic() - t_base, 1)
        result["rss_mb"] = pipe.rss()
        ra = result["recall"]
        result["headline"] = {f"{name}_any@{k}": ra[name]["all"][f"any@{k}"] for name in ra for k in KS
                              if "all" in ra[name]}
        result["headline"]["memories_per_turn"] = result["stored"]["memories_per_turn"]
    log(json.dumps(result["headline"]))
    return result


def _count(values: Any) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for v in values:
        out[str(v)] += 1
    return out


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False, default=str))
