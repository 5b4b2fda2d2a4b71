"""``pai-memory expire [--user U] [--dry-run] [--json]``: deactivate memories whose TTL has passed.

Each expired memory is deactivated with operation ``expire`` through the memory writer: a history row
with the reason and a ``memory.dirty`` outbox row are written in the same transaction, and the indexer
removes the entry from Milvus. Reads already hide expired memories; this job makes the index and the
``is_active`` flag agree with them. A pass over everyone also deletes the audit log rows older than
``AUDIT_LOG_RETENTION_DAYS`` (``pai_memory_retention_pruned_total{table="audit_log"}``).
``pai-memory consolidate --schedule N`` runs it periodically.
"""

from __future__ import annotations

import argparse
import json

from core.config import Settings, load_settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("expire", help="deactivate memories whose TTL has passed",
                            description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--user", metavar="USER_ID", help="only this user (external id); default: everyone")
    parser.add_argument("--dry-run", action="store_true", help="report what would expire; commit nothing")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.set_defaults(func=lambda args: run(args, load_settings()))


def run(args: argparse.Namespace, settings: Settings) -> int:
    from cli.consolidate_cmd import build_jobs

    report = build_jobs(settings, semantic=False).expire(user=args.user, dry_run=args.dry_run)
    data = report.as_dict()
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    for change in data["changes"]:
        print(f"  expire {change['user']} {change['key']} (#{change['memory_id']}): {change['reason']}")
    suffix = " (dry run: nothing committed)" if args.dry_run else ""
    print(f"expired {data['expired']} memories of {data['users']} users, "
          f"{data['episodes_expired']} episodes; pruned {data['audit_pruned']} audit log rows "
          f"(AUDIT_LOG_RETENTION_DAYS), {data['console_sessions_pruned']} ended console sessions{suffix}")
    return 0
