"""``pai-memory dlq list|redrive``: dead letters of a consumer group, and re-drive of one of them.

    pai-memory dlq list [--group G] [--limit N] [--json]
    pai-memory dlq redrive --group G --partition P --offset O

``list`` prints the newest dead letters of each consumer group (or of ``--group``) with their DLQ
partition/offset, reason and source; ``redrive`` re-publishes the original record of one dead letter to
its source topic (``consumers.ops``, the same code the operator console runs). Exit code: 0 done,
2 refused (unknown group, no such dead letter, truncated value), 3 Kafka unavailable.
"""

from __future__ import annotations

import argparse
import json

from core.config import load_settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("dlq", help="list dead letters of the consumer groups; re-drive one",
                            description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cmds = parser.add_subparsers(dest="dlq_command", required=True)
    ls = cmds.add_parser("list", help="the newest dead letters per group")
    ls.add_argument("--group", default=None, help="one consumer group (default: every group of the service)")
    ls.add_argument("--limit", type=int, default=20, help="dead letters per group (1-1000, default 20)")
    ls.add_argument("--json", action="store_true", help="one JSON object per dead letter")
    ls.set_defaults(func=_list)
    rd = cmds.add_parser("redrive", help="re-publish one dead letter's original record to its source topic")
    rd.add_argument("--group", required=True)
    rd.add_argument("--partition", type=int, required=True, help="partition of the DLQ topic")
    rd.add_argument("--offset", type=int, required=True, help="offset in the DLQ topic")
    rd.set_defaults(func=_redrive)


def _list(args: argparse.Namespace) -> int:
    from consumers import ops

    settings = load_settings()
    groups = [args.group] if args.group else list(ops.group_topics(settings))
    try:
        for group in groups:
            letters = ops.read_dead_letters(settings, group, args.limit)
            if not args.json:
                print(f"{settings.dlq_topic(group)}: {len(letters)} shown")
            for d in letters:
                data = d.event.data if d.event is not None else None
                row = {"group": group, "partition": d.partition, "offset": d.offset,
                       "redrivable": d.redrivable,
                       "error_type": data.error_type if data else None,
                       "reason": data.reason if data else d.invalid_reason,
                       "source": f"{data.source_topic}:{data.source_partition}:{data.source_offset}"
                       if data else None}
                if args.json:
                    print(json.dumps(row, ensure_ascii=False))
                else:
                    print(f"  p{d.partition} @{d.offset}  {row['error_type']}  {row['reason']}  "
                          f"(from {row['source']})")
    except (ops.RedriveRefused, ValueError) as exc:
        print(f"pai-memory dlq: {exc}")
        return 2
    except ops.OpsError as exc:
        print(f"pai-memory dlq: Kafka unavailable: {exc}")
        return 3
    return 0


def _redrive(args: argparse.Namespace) -> int:
    from cli.keys_cmd import record_audit
    from consumers import ops

    settings = load_settings()
    target = f"{args.group} partition {args.partition} offset {args.offset}"
    try:
        done = ops.redrive_dead_letter(settings, args.group, args.partition, args.offset)
    except ops.RedriveRefused as exc:
        record_audit(settings, "dlq.redrive", "failed", target, {"reason": str(exc)[:200]})
        print(f"pai-memory dlq: refused: {exc}")
        return 2
    except ops.OpsError as exc:
        record_audit(settings, "dlq.redrive", "failed", target, {"reason": "kafka"})
        print(f"pai-memory dlq: Kafka unavailable: {exc}")
        return 3
    record_audit(settings, "dlq.redrive", "ok", target,
                 {"to": f"{done.topic}:{done.partition}:{done.offset}"})
    print(f"re-drove {done.dead_letter.topic} partition {done.dead_letter.partition} offset "
          f"{done.dead_letter.offset} to {done.topic} partition {done.partition} offset {done.offset}")
    return 0
