"""``pai-memory replay``: reprocess chat messages from a timestamp or an offset.

    pai-memory replay (--from-timestamp ISO | --from-offset N) [--group G | --new-group] [--dry-run] [--json]

Typical use: after changing the extractor version or provider (``MEMORY_EXTRACTOR_VERSION``,
``MEMORY_EXTRACTOR_PROVIDER``/``LLM_*``), stop the extractor processes, run a replay, start them
again with the new configuration. Every stored message that is not final for the new version is
extracted again; effects are idempotent, so a replay under an unchanged version changes nothing.

- The start position per partition is ``--from-offset N`` (clamped to what the topic still holds)
  or the first record at/after ``--from-timestamp`` (``offsets_for_times``; partitions with no such
  record start at their end, i.e. replay nothing).
- Real replay resets the committed offsets of the extractor group (``--group``, default
  ``GROUP_EXTRACTOR``). Kafka only allows that for a group without active members: stop the
  extractors first (the command checks and refuses otherwise). ``--new-group`` commits the start
  offsets for a fresh group id instead (printed); run an extractor with ``GROUP_EXTRACTOR`` set to it.
  Do not keep old-version extractors running beside it: they would re-extract with the old version.
- ``--dry-run`` changes nothing: it runs extraction and refine against each user's current memories
  inside a rolled-back transaction and reports the memories that would be added, changed and removed,
  per user and in total (``core.replay``).

Exit code: 0 done, 2 usage error or active group, 3 Kafka unavailable.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from typing import Any

from confluent_kafka import Consumer, ConsumerGroupTopicPartitions, KafkaException, TopicPartition
from confluent_kafka.admin import AdminClient

from core.config import KafkaSettings, Settings, load_settings
from producers.kafka_config import client_config
from producers.kafka_retry import call_with_retry

KAFKA_TIMEOUT = 15.0


class ReplayError(RuntimeError):
    """The replay cannot proceed; the message says why and what to do."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("replay", help="reprocess chat messages from a timestamp or offset",
                            description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    start = parser.add_mutually_exclusive_group(required=True)
    start.add_argument("--from-timestamp", metavar="ISO", help="e.g. 2026-01-31T00:00:00Z")
    start.add_argument("--from-offset", type=int, metavar="N", help="the same offset on every partition")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--group", help="consumer group to reset (default: GROUP_EXTRACTOR)")
    group.add_argument("--new-group", action="store_true", help="commit the start offsets for a new group")
    parser.add_argument("--topic", help="chat-message topic (default: TOPIC_CHAT_MESSAGES)")
    parser.add_argument("--user", metavar="USER_ID", help="--dry-run only: report one user")
    parser.add_argument("--dry-run", action="store_true", help="report what would change; write nothing")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.set_defaults(func=lambda args: run(args, load_settings()))


def run(args: argparse.Namespace, settings: Settings) -> int:
    topic = args.topic or settings.TOPIC_CHAT_MESSAGES
    try:
        when = _parse_time(args.from_timestamp) if args.from_timestamp else None
        if args.from_offset is not None and args.from_offset < 0:
            raise ReplayError("--from-offset must be >= 0")
        if args.user and not args.dry_run:
            raise ReplayError("--user only applies to --dry-run (a replay re-delivers whole partitions)")
        starts, ends = start_offsets(settings, topic, args.from_offset, when)
        to_replay = sum(max(0, ends[p] - o) for p, o in starts.items())
        if args.dry_run:
            out = _dry_run(settings, topic, starts, args.user)
            out["records_in_range"] = to_replay
            _emit(args, out, out.pop("_text"))
            return 0
        group = (f"{settings.GROUP_EXTRACTOR}-replay-{datetime.now(UTC):%Y%m%d%H%M%S}" if args.new_group
                 else args.group or settings.GROUP_EXTRACTOR)
        previous = reset_group(settings, group, topic, starts)
    except ReplayError as exc:
        print(f"pai-memory replay: {exc}", file=sys.stderr)
        return 2
    except KafkaException as exc:
        print(f"pai-memory replay: Kafka: {exc}", file=sys.stderr)
        return 3
    out = {"group": group, "topic": topic, "new_group": bool(args.new_group), "records_to_replay": to_replay,
           "partitions": [{"partition": p, "committed_before": previous.get(p), "start": o, "end": ends[p]}
                          for p, o in sorted(starts.items())]}
    lines = [f"group {group} reset on {topic}: {to_replay} records will be re-delivered"]
    lines += [f"  partition {r['partition']}: committed {r['committed_before']} -> {r['start']} "
              f"(end {r['end']})" for r in out["partitions"]]
    lines.append(f"start the extractor{' with GROUP_EXTRACTOR=' + group if args.new_group else ''} "
                 "(pai-memory run extractor) to reprocess")
    _emit(args, out, "\n".join(lines))
    return 0


def _parse_time(value: str) -> datetime:
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ReplayError(f"--from-timestamp: not an ISO 8601 time: {value!r}") from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _consumer(settings: KafkaSettings) -> Consumer:
    return Consumer({**client_config(settings), "group.id": "pai-memory-replay-tool",
                     "enable.auto.commit": False})


def start_offsets(settings: KafkaSettings, topic: str, offset: int | None,
                  when: datetime | None) -> tuple[dict[int, int], dict[int, int]]:
    """``(start offset, end offset)`` per partition of ``topic`` for the requested start."""
    consumer = _consumer(settings)
    try:
        meta = consumer.list_topics(topic, timeout=KAFKA_TIMEOUT)
        info = meta.topics.get(topic)
        if info is None or info.error is not None or not info.partitions:
            raise ReplayError(f"topic {topic!r} does not exist")
        starts: dict[int, int] = {}
        ends: dict[int, int] = {}
        parts = sorted(info.partitions)
        for p in parts:
            low, high = consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=KAFKA_TIMEOUT)
            ends[p] = high
            starts[p] = min(max(offset, low), high) if offset is not None else high
        if when is not None:
            ms = int(when.timestamp() * 1000)
            found = consumer.offsets_for_times([TopicPartition(topic, p, ms) for p in parts],
                                               timeout=KAFKA_TIMEOUT)
            for tp in found:
                if tp.error is not None:
                    raise KafkaException(tp.error)
                starts[tp.partition] = tp.offset if tp.offset >= 0 else ends[tp.partition]
        return starts, ends
    finally:
        consumer.close()


def reset_group(settings: KafkaSettings, group: str, topic: str,
                starts: dict[int, int]) -> dict[int, int | None]:
    """Commit ``starts`` for ``group`` (which must have no active member); returns the previous commits."""
    admin = AdminClient(client_config(settings))
    described = call_with_retry(
        lambda: admin.describe_consumer_groups([group], request_timeout=KAFKA_TIMEOUT)[group].result())
    if described.members:
        raise ReplayError(f"consumer group {group!r} has {len(described.members)} active member(s) "
                          f"(state {described.state.name}); stop the extractor processes first, or use "
                          f"--new-group")
    previous: dict[int, int | None] = {}
    consumer = Consumer({**client_config(settings), "group.id": group, "enable.auto.commit": False})
    try:
        committed = call_with_retry(
            lambda: consumer.committed([TopicPartition(topic, p) for p in starts], timeout=KAFKA_TIMEOUT))
        for tp in committed:
            previous[tp.partition] = tp.offset if tp.offset >= 0 else None
    finally:
        consumer.close()
    request = ConsumerGroupTopicPartitions(group, [TopicPartition(topic, p, o)
                                                   for p, o in sorted(starts.items())])

    def alter() -> ConsumerGroupTopicPartitions:
        done = admin.alter_consumer_group_offsets([request], request_timeout=KAFKA_TIMEOUT)[group].result()
        for tp in done.topic_partitions:
            if tp.error is not None:
                raise KafkaException(tp.error)
        return done

    call_with_retry(alter)  # committing the same offsets again is idempotent
    return previous


def _dry_run(settings: Settings, topic: str, starts: dict[int, int], user: str | None) -> dict[str, Any]:
    from consumers.processes import build_processor
    from core.replay import MessageRange, ReplayPlanner

    diff = ReplayPlanner(build_processor(settings)).dry_run(MessageRange(topic, starts), user)
    out = diff.as_dict()
    out["start_offsets"] = {str(p): o for p, o in sorted(starts.items())}
    out["_text"] = diff.render()
    return out


def _emit(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(text)
