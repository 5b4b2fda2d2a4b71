"""``pai-memory eval FILE [--json]``: evaluation cases through the whole pipeline.

Each case is published as a fresh user's conversation (ids carry a run id, so repeated runs never mix),
turn by turn as a chat service would send it: every turn gets the time it was sent (its ``created_at``,
else a default chat pacing, ``core.evaluation.timeline``), the conversation is cut where the production
debounce (``--debounce``, default ``LONG_TERM_MEMORY_DEBOUNCE_SEC``'s 12 s) would separate extractions,
and each case publishes its next segment only once the previous one's user messages are final (cases run
side by side). So a ten-day history is extracted turn by turn, not as one burst capped at
``LONG_TERM_MEMORY_MAX_WRITE_ITEMS``, without waiting real minutes: the service processes run with a
short debounce that only coalesces the messages of one segment. ``--publish block`` publishes every case
at once instead, to compare with extracting a whole history as one burst.

Then the pipeline settles, and the user's memories (GET /v1/memories) and the queries'
retrievals (POST /v1/retrieve) are scored as MISSION.md defines. With ``--json`` the last line is
one JSON object with ``expect_recall``, ``forbid_violation_rate``, ``query_hit_at_k`` and ``by_category``
(cases passing per category, the id part naming one of ``core.evaluation.CATEGORIES``: ``zh-pref-001``
and ``ho-zh-pref-01`` are both ``pref``); without ``--json`` the categories are also printed as a table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select

from cli.demo_cmd import _headers, _quiet_logs, _warm_dense
from cli.http_retry import RetryAfterTransport
from core.config import Settings
from core.evaluation import (
    EvalCase,
    MemoryText,
    extraction_bursts,
    format_categories,
    load_cases,
    result_json,
    score_case,
    timeline,
    totals,
)
from core.storage import db
from core.storage.models import Message
from localstack.service import LocalService
from producers.client import MemoryEventProducer
from schemas import ChatMessageData


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    parser = sub.add_parser("eval", help="run evaluation cases through the whole pipeline and score them")
    parser.add_argument("file", type=Path, help="JSONL evaluation cases (format in MISSION.md / README)")
    parser.add_argument(
        "--json", action="store_true", help="print JSON lines; the last line holds the totals"
    )
    parser.add_argument(
        "--mode",
        choices=("dense", "full_inject"),
        default="dense",
        help="retrieval mode used for the queries (default: dense)",
    )
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds to wait for the pipeline")
    parser.add_argument(
        "--publish",
        choices=("turns", "block"),
        default="turns",
        help="turns: segment by segment as the debounce would cut the conversation (default); "
        "block: every case at once",
    )
    parser.add_argument(
        "--debounce",
        type=float,
        default=float(Settings.model_fields["LONG_TERM_MEMORY_DEBOUNCE_SEC"].default),
        help="the production debounce (seconds) that cuts the conversations' timelines (default: 12)",
    )
    parser.set_defaults(func=_eval)


# The service processes eval starts: a short debounce, enough to coalesce one published segment
# (its messages arrive together); segments are separated by waiting, not by the clock.
EVAL_ENV = {"LONG_TERM_MEMORY_DEBOUNCE_SEC": "0.5"}


def case_segments(
    case: EvalCase, run_id: str, debounce_sec: float, now: datetime | None = None
) -> list[list[ChatMessageData]]:
    """The case's messages, cut into the segments the production debounce would extract one by one.

    Times keep the case's spacing, shifted so the last turn was sent a minute before ``now``.
    """
    user = f"eval-{run_id}-{case.id}"[:128]
    turns = timeline(case, datetime(2000, 1, 1, tzinfo=UTC))
    if not turns:
        return []
    shift = ((now or datetime.now(UTC)) - timedelta(minutes=1)) - turns[-1].created_at
    segments = []
    for burst in extraction_bursts(turns, debounce_sec):
        msgs = []
        for t in burst:
            conv = (f"{user}-c" + (f"-{t.session}" if t.session else ""))[:128]
            msgs.append(
                ChatMessageData(
                    message_id=f"{user}:{t.index}"[:128],
                    user_id=user,
                    conversation_id=conv,
                    role=t.role,
                    content=t.content,
                    created_at=t.created_at + shift,
                )
            )
        segments.append(msgs)
    return segments


def publish_paced(
    plans: Mapping[str, Sequence[Sequence[ChatMessageData]]],
    publish: Callable[[ChatMessageData], Any],
    flush: Callable[[], Any],
    final: Callable[[Iterable[str]], set[str]],
    timeout: float,
    poll_sec: float = 0.1,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> dict[str, int]:
    """Publish each plan segment by segment: a plan's next segment goes out once every user message
    of its previous one is final (``final`` returns the ids of those that are). Plans run side by
    side. Raises ``TimeoutError`` naming what is still waiting after ``timeout`` seconds."""
    cursor = dict.fromkeys(plans, 0)
    waiting: dict[str, set[str]] = {}
    deadline = clock() + timeout
    stats = {"segments": 0, "messages": 0, "user_messages": 0, "max_user_messages_per_segment": 0}
    while True:
        for name, segments in plans.items():
            while name not in waiting and cursor[name] < len(segments):
                segment = segments[cursor[name]]
                cursor[name] += 1
                for msg in segment:
                    publish(msg)
                users = {m.message_id for m in segment if m.role == "user"}
                stats["segments"] += 1
                stats["messages"] += len(segment)
                stats["user_messages"] += len(users)
                most = max(stats["max_user_messages_per_segment"], len(users))
                stats["max_user_messages_per_segment"] = most
                if users:
                    waiting[name] = users
        flush()
        if not waiting:
            return stats
        done = final({mid for ids in waiting.values() for mid in ids})
        for name in [n for n, ids in waiting.items() if ids <= done]:
            del waiting[name]
        if waiting and clock() > deadline:
            sample = ", ".join(sorted(waiting)[:5])
            raise TimeoutError(
                f"{len(waiting)} case(s) still waiting for their messages to be final after {timeout:.0f}s "
                f"({sample})"
            )
        if waiting:
            sleep(poll_sec)


def _final_ids(settings: Settings) -> Callable[[Iterable[str]], set[str]]:
    sessions = db.session_factory(db.engine_for(settings.database_url))

    def final(ids: Iterable[str]) -> set[str]:
        with sessions() as s:
            return set(
                s.scalars(
                    select(Message.upstream_message_id).where(
                        Message.upstream_message_id.in_(list(ids)),
                        Message.memory_status.in_(("PROCESSED", "SKIPPED", "FAILED")),
                    )
                )
            )

    return final


def _eval(args: argparse.Namespace) -> int:
    if not args.file.exists():
        print(f"pai-memory eval: no such file: {args.file}", file=sys.stderr)
        return 2
    _quiet_logs()
    cases = load_cases(args.file)
    run_id = datetime.now(UTC).strftime("%m%d%H%M%S") + uuid.uuid4().hex[:4]
    log = (lambda *a: print(*a, file=sys.stderr, flush=True)) if args.json else print
    service = LocalService.from_env(EVAL_ENV)
    t0 = time.monotonic()
    service.up_stack()
    service.start_processes()
    api = service.wait_api()
    plans = {c.id: case_segments(c, run_id, args.debounce) for c in cases}
    if args.publish == "block":
        plans = {cid: [[m for seg in segs for m in seg]] if segs else [] for cid, segs in plans.items()}
    messages = {cid: [m for seg in segs for m in seg] for cid, segs in plans.items()}
    all_ids = [m.message_id for msgs in messages.values() for m in msgs]
    users = [msgs[0].user_id for msgs in messages.values() if msgs]
    log(f"run {run_id}: publishing {len(all_ids)} messages of {len(cases)} cases "
        f"({sum(len(s) for s in plans.values())} segments, --publish {args.publish})")
    with MemoryEventProducer(service.settings, source="pai-memory/eval") as producer:
        publishing = publish_paced(
            plans, producer.publish_message, lambda: producer.flush(60), _final_ids(service.settings),
            timeout=args.timeout,
        )
    log(f"published in {time.monotonic() - t0:.1f}s; waiting for the pipeline")
    settled = service.wait_settled(all_ids, users, timeout=args.timeout)
    log(f"pipeline settled in {time.monotonic() - t0:.1f}s")
    if settled.failed:
        log(f"warning: {settled.failed} message(s) ended FAILED (extraction errors or budget timeouts, see "
            f"{service.supervisor.log_dir}): what they said is missing from this score; exit status 1")

    if users:
        _warm_dense(api, users[0])
    results = []
    with httpx.Client(base_url=api, headers=_headers(), timeout=60, transport=RetryAfterTransport()) as http:
        for case in cases:
            user = messages[case.id][0].user_id
            listed = http.get("/v1/memories", params={"user_id": user})
            listed.raise_for_status()
            memories = [
                MemoryText(m["memory_type"], m["key"], m["content"]) for m in listed.json()["memories"]
            ]
            retrieved = []
            for q in case.queries:
                resp = http.post(
                    "/v1/retrieve",
                    json={"user_id": user, "question": q.query, "mode": args.mode, "limit": q.k},
                )
                resp.raise_for_status()
                retrieved.append(
                    [
                        MemoryText(i["memory"]["memory_type"], i["memory"]["key"], i["memory"]["content"])
                        for i in resp.json()["items"]
                    ]
                )
            result = score_case(case, memories, retrieved)
            results.append(result)
            if args.json:
                print(result_json(result))
            else:
                mark = "PASS" if result.passed else "FAIL"
                print(
                    f"{mark} {case.id:<24} expect {sum(result.expect_hits)}/{len(result.expect_hits)}  "
                    f"forbid {', '.join(result.forbid_violations) or 'ok'}"
                    f"  queries {sum(result.query_hits)}/{len(result.query_hits)}"
                )
                if not result.passed:
                    for mem in result.memories:
                        print(f"       {mem}")
    summary = {
        **totals(results),
        "run_id": run_id,
        "retrieval_mode": args.mode,
        "publish": args.publish,
        "timeline_debounce_sec": args.debounce,
        "publishing": publishing,
        "seconds": round(time.monotonic() - t0, 1),
        "failed_messages": settled.failed,
    }
    if not args.json:
        print("cases passing per category:")
        print(format_categories(summary["by_category"]))
    print(json.dumps(summary, ensure_ascii=False))
    return 1 if settled.failed else 0
