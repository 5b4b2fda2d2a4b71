"""``pai-memory eval FILE [--json]``: evaluation cases through the whole pipeline.

Each case is published as a fresh user's conversation (ids carry a run id, so repeated runs
never mix), the pipeline settles, then the user's memories (GET /v1/memories) and the queries'
retrievals (POST /v1/retrieve) are scored as MISSION.md defines. With ``--json`` the last line is
one JSON object with ``expect_recall``, ``forbid_violation_rate`` and ``query_hit_at_k``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from cli.demo_cmd import _headers, _quiet_logs, _warm_dense
from cli.http_retry import RetryAfterTransport
from core.evaluation import EvalCase, MemoryText, load_cases, result_json, score_case, totals
from localstack.service import DEMO_ENV, LocalService
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
    parser.set_defaults(func=_eval)


def case_messages(case: EvalCase, run_id: str) -> list[ChatMessageData]:
    user = f"eval-{run_id}-{case.id}"[:128]
    conv = f"{user}-c"[:128]
    t0 = datetime.now(UTC) - timedelta(minutes=10)
    return [
        ChatMessageData(
            message_id=f"{conv}:{i}"[:128],
            user_id=user,
            conversation_id=conv,
            role=turn.role,
            content=turn.content,
            created_at=t0 + timedelta(seconds=i),
        )
        for i, turn in enumerate(case.conversation)
    ]


def _eval(args: argparse.Namespace) -> int:
    if not args.file.exists():
        print(f"pai-memory eval: no such file: {args.file}", file=sys.stderr)
        return 2
    _quiet_logs()
    cases = load_cases(args.file)
    run_id = datetime.now(UTC).strftime("%m%d%H%M%S") + uuid.uuid4().hex[:4]
    log = (lambda *a: print(*a, file=sys.stderr, flush=True)) if args.json else print
    service = LocalService.from_env(DEMO_ENV)
    t0 = time.monotonic()
    service.up_stack()
    service.start_processes()
    api = service.wait_api()
    messages = {c.id: case_messages(c, run_id) for c in cases}
    with MemoryEventProducer(service.settings, source="pai-memory/eval") as producer:
        for msgs in messages.values():
            for m in msgs:
                producer.publish_message(m)
        producer.flush(60)
    all_ids = [m.message_id for msgs in messages.values() for m in msgs]
    users = [msgs[0].user_id for msgs in messages.values() if msgs]
    log(f"run {run_id}: published {len(all_ids)} messages of {len(cases)} cases; waiting for the pipeline")
    service.wait_settled(all_ids, users, timeout=args.timeout)
    log(f"pipeline settled in {time.monotonic() - t0:.1f}s")

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
        "seconds": round(time.monotonic() - t0, 1),
    }
    print(json.dumps(summary, ensure_ascii=False))
    return 0
