"""``pai-memory publish FILE``: publish a JSONL file of chat messages, conversations or memory commands.

``FILE`` is a path, ``-`` for stdin, or ``sample:NAME`` for a bundled sample (``cli/samples/NAME.jsonl``;
``pai-memory publish --list-samples``). Invalid lines are reported on stderr as ``line N: reason``
and skipped; a JSON summary ``{published, failed, invalid, seconds, ...}`` goes to stdout.
Exit code: 0 when every event was confirmed and no line was invalid (invalid lines are tolerated
with ``--skip-invalid``), 1 otherwise, 2 when the file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from typing import IO

from core.config import load_settings
from producers.client import MemoryEventProducer
from producers.publish import DEFAULT_SOURCE, InputKind, publish_lines

SAMPLE_PREFIX = "sample:"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("publish", help="publish a JSONL file of messages/conversations/commands",
                            description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", metavar="FILE", help="JSONL path, '-' for stdin, or sample:NAME")
    parser.add_argument("--kind", choices=[k.value for k in InputKind], default=InputKind.AUTO.value,
                        help="what the file may contain (default: auto = anything, routed by event type)")
    parser.add_argument("--topic", help="publish every event to this topic (default: the event type's topic)")
    parser.add_argument("--source", default=DEFAULT_SOURCE, help="CloudEvents source of wrapped payloads")
    parser.add_argument("--skip-invalid", action="store_true", help="exit 0 even if some lines were invalid")
    parser.add_argument("--dry-run", action="store_true", help="validate and count only; publish nothing")
    parser.add_argument("--create-topics", action="store_true",
                        help="create the service topics (and --topic) first if they do not exist")
    parser.add_argument("--flush-timeout", type=float, default=60.0, metavar="SEC",
                        help="how long to wait for delivery confirmations (default 60)")
    parser.add_argument("--list-samples", action="store_true", help="list the bundled sample files and exit")
    parser.set_defaults(func=_publish)


def sample_names() -> list[str]:
    folder = resources.files("cli") / "samples"
    if not folder.is_dir():
        return []
    return sorted(p.name.removesuffix(".jsonl") for p in folder.iterdir() if p.name.endswith(".jsonl"))


@contextmanager
def open_input(name: str) -> Iterator[IO[bytes]]:
    """Open ``name`` (path, ``-`` or ``sample:NAME``) for binary reading; ``OSError`` if impossible."""
    if name == "-":
        yield sys.stdin.buffer
        return
    if name.startswith(SAMPLE_PREFIX):
        sample = name[len(SAMPLE_PREFIX):]
        if sample not in sample_names():
            have = ", ".join(sample_names()) or "none"
            raise FileNotFoundError(f"no bundled sample {sample!r} (have: {have})")
        with (resources.files("cli") / "samples" / f"{sample}.jsonl").open("rb") as handle:
            yield handle
        return
    with open(name, "rb") as handle:
        yield handle


def _publish(args: argparse.Namespace) -> int:
    if args.list_samples:
        for name in sample_names():
            print(f"{SAMPLE_PREFIX}{name}")
        return 0
    if not args.file:
        print("pai-memory publish: FILE is required (or --list-samples)", file=sys.stderr)
        return 2
    settings = load_settings()
    kind = InputKind(args.kind)

    def report(line: int, error: str) -> None:
        print(f"line {line}: {error}", file=sys.stderr)

    try:
        with open_input(args.file) as handle:
            if args.dry_run:
                summary = publish_lines(handle, None, kind=kind, topic=args.topic, source=args.source,
                                        settings=settings, on_invalid=report)
            else:
                if args.create_topics:
                    from localstack.topics import ensure_topics, service_topics

                    wanted = service_topics(settings)
                    if args.topic:
                        wanted[args.topic] = settings.KAFKA_TOPIC_PARTITIONS
                    ensure_topics(settings, wanted)
                producer = MemoryEventProducer(settings, source=args.source)
                try:
                    summary = publish_lines(handle, producer, kind=kind, topic=args.topic, source=args.source,
                                            flush_timeout=args.flush_timeout, on_invalid=report)
                finally:
                    producer.close(timeout=1.0, raise_on_pending=False)
    except OSError as exc:
        print(f"pai-memory publish: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary.as_dict(), ensure_ascii=False))
    if summary.failed or (summary.invalid and not args.skip_invalid):
        return 1
    return 0
