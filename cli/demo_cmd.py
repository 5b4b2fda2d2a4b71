"""``pai-memory demo``: the whole service on the local stack with the bundled sample conversations.

Brings up Kafka, PostgreSQL and Milvus, migrates, starts extractor, commands, relay/sweeper,
indexer, API (with the operator console) and the MCP server (streamable HTTP) as separate processes,
publishes the samples, waits until every message is processed and every memory synced, prints each
user's memories and the answers of a few retrieval queries in both modes, then where the API, the
console and the MCP endpoint are, and keeps running until Ctrl-C (``--no-wait`` to exit at once).

The API, the console and the MCP endpoint need a token: ``API_TOKEN`` when set, otherwise the demo's
own, generated once and kept in ``<PAI_MEMORY_HOME>/api_token`` (mode 0600; never printed).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import secrets
import signal
import sys
import time
from importlib import resources
from pathlib import Path
from typing import Any

import httpx

from localstack.service import DEMO_ENV, LocalService
from localstack.settle import PipelineProgress
from localstack.supervisor import PROCESS_NAMES, fixed_metrics_port
from producers.client import MemoryEventProducer
from producers.publish import publish_lines, read_events
from schemas import ChatMessageEvent


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    parser = sub.add_parser(
        "demo", help="run the whole pipeline on the local stack with sample conversations"
    )
    parser.add_argument("--no-wait", action="store_true", help="exit after printing instead of serving")
    parser.add_argument("--stop", action="store_true", help="with --no-wait: also stop the service processes")
    parser.add_argument(
        "--timeout", type=float, default=600.0, help="seconds to wait for the pipeline to settle"
    )
    parser.set_defaults(func=_demo)


def _sample(name: str) -> bytes:
    return resources.files("cli").joinpath("samples", name).read_bytes()


def _headers() -> dict[str, str]:
    token = os.environ.get("API_TOKEN")
    return {"Authorization": f"Bearer {token}"} if token else {}


TOKEN_FILE = "api_token"
DEMO_PROCESSES = (*PROCESS_NAMES, "mcp")


def ensure_token(home: Path) -> str:
    """Where the token of the demo's API/console/MCP comes from; sets ``API_TOKEN`` for the children.

    ``API_TOKEN`` from the environment wins; otherwise the token in ``home/api_token`` (created once with
    a random value, mode 0600), so a later demo talks to processes an earlier ``--no-wait`` left running.
    """
    if os.environ.get("API_TOKEN"):
        return "API_TOKEN"
    path = home / TOKEN_FILE
    if not path.exists():
        home.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_urlsafe(24) + "\n")
    os.environ["API_TOKEN"] = path.read_text().strip()
    return str(path)


def _wait_mcp(url: str, timeout: float = 60.0) -> bool:
    """True once the MCP endpoint answers HTTP at all (any status: it is listening)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            httpx.get(url, headers=_headers(), timeout=2)
            return True
        except httpx.HTTPError:
            time.sleep(0.5)
    return False


def _step(text: str) -> None:
    print(f"\n== {text}", flush=True)


def _quiet_logs() -> None:
    for name in ("httpx", "alembic", "alembic.runtime.migration"):
        logging.getLogger(name).setLevel(logging.WARNING)


def _warm_dense(api: str, user: str, timeout: float = 60.0) -> None:
    """Wait until the API's embedder is loaded, so the printed answers show the dense path."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        resp = httpx.post(f"{api}/v1/retrieve", headers=_headers(), timeout=30,
                          json={"user_id": user, "question": "warm-up", "mode": "dense", "limit": 1})
        if resp.status_code == 200 and resp.json().get("served_by") == "dense":
            return
        time.sleep(1.0)


def _demo(args: argparse.Namespace) -> int:
    _quiet_logs()
    t0 = time.monotonic()
    service = LocalService.from_env(DEMO_ENV)
    settings = service.settings
    token_source = ensure_token(Path(settings.PAI_MEMORY_HOME))
    _step("local stack: Kafka, PostgreSQL, Milvus (+ migrations, topics)")
    service.up_stack()
    _step("service processes: " + ", ".join(DEMO_PROCESSES))
    running = service.start_processes(DEMO_PROCESSES)
    for name, pid in sorted(running.items()):
        print(f"  {name:<12} pid {pid}")
    api = service.wait_api()

    _step("publishing the sample conversations and tool commands")
    conversations, commands = _sample("demo_conversations.jsonl"), _sample("demo_commands.jsonl")
    message_ids: list[str] = []
    users: set[str] = set()
    for _, events in read_events(conversations.splitlines()):
        for event in events if isinstance(events, list) else []:
            if isinstance(event, ChatMessageEvent):
                message_ids.append(event.data.message_id)
                users.add(event.data.user_id)
    with MemoryEventProducer(settings, source="pai-memory/demo") as producer:
        for blob in (conversations, commands):
            summary = publish_lines(blob.splitlines(), producer, settings=settings)
            print(
                f"  published {summary.published} events ({summary.failed} failed, {summary.invalid} invalid)"
            )

    _step("waiting for every message to be processed and every memory synced")

    def progress(state: PipelineProgress) -> None:
        print(
            f"  messages {state.final}/{state.messages} final, "
            f"memories {state.memories - state.unsynced}/{state.memories} synced, "
            f"outbox backlog {state.outbox_backlog}",
            flush=True,
        )

    state = service.wait_settled(
        message_ids, sorted(users), timeout=args.timeout, on_progress=_throttle(progress)
    )
    print(f"  settled: {state.messages} messages, {state.memories} memories in {time.monotonic() - t0:.1f}s")

    _print_users(api, sorted(users))
    _warm_dense(api, sorted(users)[0])
    _print_queries(api)

    mcp = f"http://{settings.MCP_HOST}:{settings.MCP_PORT}/mcp"
    mcp_up = _wait_mcp(mcp)
    _step("running")
    print(f"  token      {token_source}   (Authorization: Bearer <token>; the console's login)")
    print(f"  HTTP API   {api}   (OpenAPI: {api}/openapi.json)")
    print(f"  console    {api}/console   (operator console: log in with the token)")
    print(f"  MCP        {mcp}   (streamable HTTP, bearer token{'' if mcp_up else '; NOT answering yet'})")
    for name in DEMO_PROCESSES:
        if name != "api":
            print(f"  metrics    http://127.0.0.1:{fixed_metrics_port(name, 0)}/metrics   ({name})")
    print(f"  metrics    {api}/metrics   (api)")
    print(f"  logs       {service.supervisor.log_dir}")
    if args.no_wait:
        if args.stop:
            service.stop_processes()
        return 0
    print("  Ctrl-C stops the service processes this demo started.", flush=True)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        print("\nstopping service processes ...", file=sys.stderr)
        service.stop_processes()
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _throttle(fn: Any, every: float = 3.0) -> Any:
    last = [0.0]

    def wrapped(*a: Any) -> None:
        if time.monotonic() - last[0] >= every:
            last[0] = time.monotonic()
            fn(*a)

    return wrapped


def _print_users(api: str, users: list[str]) -> None:
    _step("memories per user (PostgreSQL truth, via GET /v1/memories)")
    for user in users:
        resp = httpx.get(f"{api}/v1/memories", params={"user_id": user}, headers=_headers(), timeout=30)
        resp.raise_for_status()
        items = resp.json().get("memories", [])
        print(f"\n  {user}: {len(items)} memories")
        for m in items:
            print(f"    [{m['memory_type']}] {m['key']}: {m['content']}")


def _print_queries(api: str) -> None:
    _step("retrieval (POST /v1/retrieve), both modes")
    for line in _sample("demo_queries.jsonl").splitlines():
        q = json.loads(line)
        print(f"\n  {q['user_id']}  Q: {q['query']}")
        for mode in ("dense", "full_inject"):
            resp = httpx.post(
                f"{api}/v1/retrieve",
                headers=_headers(),
                timeout=30,
                json={"user_id": q["user_id"], "question": q["query"], "mode": mode, "limit": 3},
            )
            resp.raise_for_status()
            body = resp.json()
            top = "; ".join(f"{i['memory']['content']}" for i in body["items"][:3]) or "(none)"
            print(f"    {mode:<11} served by {body['served_by']:<16} -> {top}")
            if body.get("fallback_reason"):
                print(f"    {'':<11} (fallback: {body['fallback_reason']})")
