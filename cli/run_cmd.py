"""``pai-memory run PROCESS``: run one service process in the foreground until SIGTERM/SIGINT."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from core.config import Settings, load_settings

if TYPE_CHECKING:
    from consumers.runtime import ConsumerLoop

log = logging.getLogger(__name__)


FATAL_EXIT_CODE = 4
"""Exit code of a consumer process stopped by a fatal error (``consumers.errors``)."""


def _run_loop(loop: ConsumerLoop) -> None:
    """Run a consumer loop; a fatal error (already logged by the loop, one line) exits with code 4."""
    from consumers.errors import FatalConsumerError

    loop.install_signal_handlers()
    try:
        loop.run()
    except FatalConsumerError:
        raise SystemExit(FATAL_EXIT_CODE) from None


def _extractor(settings: Settings) -> None:
    from consumers.processes import extractor_loop

    _run_loop(extractor_loop(settings))


def _commands(settings: Settings) -> None:
    from consumers.processes import commands_loop

    _run_loop(commands_loop(settings))


def _indexer(settings: Settings) -> None:
    """The indexer group member; refuses to start unless ``Settings.indexer_enabled``
    (``MEMORY_INDEXER_ENABLED``, or the deprecated ``MEMORY_INDEX_WORKER_ENABLED`` when that is unset)."""
    import sys

    from core.config import ConfigError
    from core.vectorstore import IndexModelMismatch

    if not settings.indexer_enabled:
        raise ConfigError(
            "the indexer is disabled (MEMORY_INDEXER_ENABLED, or the deprecated MEMORY_INDEX_WORKER_ENABLED, "
            "is false); set MEMORY_INDEXER_ENABLED=true (or MEMORY_INDEX_WORKER_ENABLED=true) in the "
            "environment or .env to run it"
        )
    from consumers.processes import indexer_loop

    try:
        _run_loop(indexer_loop(settings))
    except IndexModelMismatch as exc:
        print(f"pai-memory: indexer cannot start: {exc}", file=sys.stderr)
        raise SystemExit(3) from None


def _relay(settings: Settings) -> None:
    """Outbox relay + sweeper (the consistency backstop) in one process."""
    from producers.outbox_relay import RelayService

    service = RelayService(settings)
    service.install_signal_handlers()
    service.run()


def _api(settings: Settings) -> None:
    from api.server import serve

    serve(settings)


def _mcp(settings: Settings) -> None:
    """The MCP server over streamable HTTP (``pai-memory mcp --transport http``); needs ``API_TOKEN``."""
    from api.mcp_server import serve_http

    serve_http(settings)


PROCESSES: dict[str, Callable[[Settings], None]] = {
    "extractor": _extractor,
    "commands": _commands,
    "indexer": _indexer,
    "relay": _relay,
    "api": _api,
    "mcp": _mcp,
}


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    parser = sub.add_parser("run",
                            help="run one service process (extractor, commands, relay, indexer, api, mcp)")
    parser.add_argument("process", choices=sorted(PROCESSES))
    parser.add_argument("--instance-id", help="static group membership id (group.instance.id)")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    overrides = {"KAFKA_GROUP_INSTANCE_ID": args.instance_id} if args.instance_id else {}
    settings = load_settings(**overrides)
    log.info("starting %s", args.process)
    # every process serves METRICS_PORT when set; the API also answers /metrics on its own port,
    # behind API_TOKEN, so Prometheus scrapes METRICS_PORT everywhere (deploy/k8s, docker-compose)
    from core.metrics import serve_metrics

    serve_metrics(settings.METRICS_PORT, settings.METRICS_HOST)
    from producers.tracing import setup_tracing

    setup_tracing(settings, args.process)  # OTEL_ENABLED: spans over OTLP, trace context in Kafka headers
    PROCESSES[args.process](settings)
    return 0
