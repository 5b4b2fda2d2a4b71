"""``pai-memory consolidate``: per-user consolidation (keep, delete, merge, normalise) and, with
``--schedule SECONDS``, expiry + consolidation every SECONDS until SIGTERM/SIGINT.

Rules (``core.lifecycle``): expired and filtered (noise key/content, profile field) memories are
deactivated; content is normalised (whitespace, repeated punctuation) and keys not in normalised form
move to their normalised key; exact and semantic duplicates (merge threshold) are merged, the most
recent copy kept. Every change is a history row with its reason plus a ``memory.dirty`` outbox row.

One JSON object per user (or per scheduled pass) is printed with ``--json``; exit code 0, 2 when
``--user`` does not exist.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
import time
from datetime import UTC, datetime
from types import FrameType
from typing import Any

from core.config import Settings, load_settings

log = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("consolidate", help="per-user memory consolidation (optionally on a schedule)",
                            description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--user", metavar="USER_ID", help="only this user (external id); default: everyone")
    parser.add_argument("--dry-run", action="store_true", help="report what would change; commit nothing")
    parser.add_argument("--no-semantic", action="store_true",
                        help="skip the semantic-duplicate merge (no embedder is loaded)")
    parser.add_argument("--schedule", type=float, metavar="SECONDS",
                        help="run expiry + consolidation every SECONDS until SIGTERM/SIGINT")
    parser.add_argument("--json", action="store_true", help="JSON output")
    parser.set_defaults(func=lambda args: run(args, load_settings()))


def build_jobs(settings: Settings, semantic: bool = True) -> Any:
    from core.lifecycle import LifecycleJobs
    from core.memory.writer import MemoryWriter
    from core.storage.db import engine_for, session_factory

    sessions = session_factory(engine_for(settings.database_url, settings.DATABASE_POOL_SIZE))
    writer = MemoryWriter.from_settings(settings)
    deduper = None
    if semantic:
        from core.embedding.factory import build_embedder
        from core.memory.dedup import SemanticDeduper

        deduper = SemanticDeduper.for_settings(settings, build_embedder(settings))
    return LifecycleJobs(sessions, writer, deduper, audit_retention_days=settings.AUDIT_LOG_RETENTION_DAYS)


def run(args: argparse.Namespace, settings: Settings, stop: threading.Event | None = None) -> int:
    from core.lifecycle import consolidate_all

    jobs = build_jobs(settings, semantic=not args.no_semantic)
    if args.schedule is None:
        try:
            reports = [jobs.consolidate(args.user, dry_run=args.dry_run)] if args.user else consolidate_all(
                jobs, jobs.users_to_consolidate(), dry_run=args.dry_run)
        except LookupError as exc:
            print(f"pai-memory consolidate: {exc}", file=sys.stderr)
            return 2
        for report in reports:
            _print_report(report.as_dict(), args.json)
        if not args.json:
            changed = sum(len(r.changes) for r in reports)
            suffix = " (dry run: nothing committed)" if args.dry_run else ""
            print(f"{len(reports)} users, {changed} changes{suffix}")
        return 0
    if args.schedule <= 0:
        print("pai-memory consolidate: --schedule needs a positive number of seconds", file=sys.stderr)
        return 2
    stop = stop or _signal_stop()
    last: datetime | None = None
    while not stop.is_set():
        started = datetime.now(UTC)
        t0 = time.perf_counter()
        expired = jobs.expire(user=args.user, dry_run=args.dry_run)
        users = [args.user] if args.user else jobs.users_to_consolidate(since=last)
        reports = consolidate_all(jobs, users, dry_run=args.dry_run)
        summary = {"pass_started": started.isoformat(), "expired": len(expired.expired),
                   "users": len(reports), "changes": sum(len(r.changes) for r in reports),
                   "seconds": round(time.perf_counter() - t0, 3), "dry_run": args.dry_run}
        print(json.dumps(summary) if args.json else
              f"{started:%Y-%m-%dT%H:%M:%S}Z expired {summary['expired']}, consolidated {summary['users']} "
              f"users, {summary['changes']} changes in {summary['seconds']}s", flush=True)
        last = started
        stop.wait(args.schedule)
    return 0


def _signal_stop() -> threading.Event:
    stop = threading.Event()

    def handler(signum: int, frame: FrameType | None) -> None:
        log.info("signal %s: stopping after this pass", signum)
        stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    return stop


def _print_report(data: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
        return
    print(f"user {data['user']}: kept {data['kept']}, expired {data['expired']}, deleted {data['deleted']}, "
          f"normalised {data['normalised']}, merged {data['merged']}")
    for change in data["changes"]:
        target = f" -> {change['new_key']}" if "new_key" in change else ""
        print(f"  {change['action']:<9} {change['key']}{target}: {change['reason']}")
