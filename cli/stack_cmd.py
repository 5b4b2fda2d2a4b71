"""``pai-memory stack up|down|status``: the local stack of real services (Kafka, PostgreSQL, Milvus)."""

from __future__ import annotations

import argparse
import re
import sys
import time
from typing import TYPE_CHECKING

from core.config import load_settings

if TYPE_CHECKING:  # the stack's modules (Kafka, PostgreSQL, Milvus clients) load only when used
    from localstack.base import ServiceStatus

SERVICE_NAMES = ("kafka", "postgres", "milvus")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("stack", help="start/stop/inspect the local Kafka, PostgreSQL and Milvus")
    cmds = parser.add_subparsers(dest="stack_command", required=True)
    for name, func, text in (
        ("up", _up, "start what is not running (idempotent), create topics, migrate the local database"),
        ("down", _down, "stop the processes `stack up` started (by recorded pid), and with no SERVICE "
                        "also the service processes `demo --no-wait` left running"),
        ("status", _status, "show each service, its address and whether it answers (exit 1 if not)"),
    ):
        cmd = cmds.add_parser(name, help=text)
        cmd.add_argument("services", nargs="*", metavar="SERVICE",
                         help=f"subset of {', '.join(SERVICE_NAMES)} (default: all); on a cluster also "
                              "kafka-<i>, one node")
        if name == "up":
            cmd.add_argument("--brokers", type=int, default=None, metavar="N",
                             help="Kafka nodes: 1 (default, KAFKA_LOCAL_BROKERS) or a KRaft cluster of N "
                                  "(3: replication 3, min.insync.replicas 2); status/down find it recorded")
        cmd.set_defaults(func=func)


def _names(args: argparse.Namespace) -> list[str] | None:
    unknown = [n for n in args.services if n not in SERVICE_NAMES and not re.fullmatch(r"kafka-\d+", n)]
    if unknown:
        raise SystemExit(f"pai-memory stack: unknown service {unknown[0]!r} "
                         f"(choose from {', '.join(SERVICE_NAMES)})")
    return list(args.services) or None


def _print(statuses: list[ServiceStatus], timings: bool = False) -> None:
    for s in statuses:
        pid = f"pid {s.pid}" if s.pid else "-"
        took = f"{s.seconds:6.1f}s  " if timings and s.seconds is not None else ""
        print(f"{s.name:<9} {s.state:<14} {s.mode:<9} {s.address:<48} {pid:<11} {took}{s.detail}")


def _up(args: argparse.Namespace) -> int:
    from localstack.manager import LocalStack, StackUpError
    from localstack.process import StackError

    brokers = args.brokers
    if brokers is not None and not 1 <= brokers <= 9:
        raise SystemExit("pai-memory stack up: --brokers must be between 1 and 9")
    settings = load_settings()
    stack = LocalStack(settings, brokers=brokers)
    t0 = time.monotonic()
    try:
        statuses = stack.up(_names(args))
    except StackUpError as exc:
        _print(exc.statuses, timings=True)
        print(f"pai-memory stack up: failed: {exc}", file=sys.stderr)
        return 1
    except StackError as exc:
        print(f"pai-memory stack up: {exc}", file=sys.stderr)
        return 1
    _print(statuses, timings=True)
    print(f"stack up in {time.monotonic() - t0:.1f}s")
    if stack.brokers > 1 and not stack.kafka_nodes[0].external:
        print(f"Kafka cluster of {stack.brokers}: export KAFKA_BOOTSTRAP_SERVERS={stack.kafka_bootstrap} "
              f"KAFKA_TOPIC_REPLICATION={stack.kafka_nodes[0].replication}")
    return 0


def _down(args: argparse.Namespace) -> int:
    from pathlib import Path

    from localstack.manager import LocalStack
    from localstack.process import StackError
    from localstack.supervisor import stop_recorded_processes

    settings = load_settings()
    names = _names(args)
    if names is None:  # the whole stack: first the service processes left running (demo --no-wait)
        for name, pid, running in stop_recorded_processes(Path(settings.PAI_MEMORY_HOME)):
            state = f"stopped pid {pid}" if running else f"recorded pid {pid} was not running"
            print(f"{name:<13} service process: {state}")
    try:
        statuses = LocalStack(settings).down(names)
    except StackError as exc:
        print(f"pai-memory stack down: {exc}", file=sys.stderr)
        return 1
    _print(statuses, timings=True)
    return 0


def _status(args: argparse.Namespace) -> int:
    from localstack.manager import LocalStack

    statuses = LocalStack(load_settings()).status(_names(args))
    _print(statuses)
    return 0 if all(s.ok for s in statuses) else 1
