"""The ``pai-memory`` command: one subcommand module per job.

Each module under ``cli/`` that provides a command exposes ``register(subparsers)`` which adds its
parser and sets ``func`` (a callable taking the parsed ``argparse.Namespace`` and returning an
exit code). Add new modules to ``COMMAND_MODULES``.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

from core.config import ConfigError
from core.redaction import install_log_redaction

COMMAND_MODULES = [
    "cli.config_cmd",
    "cli.db_cmd",
    "cli.stack_cmd",
    "cli.smoke_cmd",
    "cli.run_cmd",
    "cli.demo_cmd",
    "cli.eval_cmd",
    "cli.publish_cmd",
    "cli.schemas_cmd",
    "cli.verify_cmd",
    "cli.expire_cmd",
    "cli.consolidate_cmd",
    "cli.forget_user_cmd",
    "cli.replay_cmd",
    "cli.reindex_cmd",
    "cli.mcp_cmd",
    "cli.dlq_cmd",
    "cli.keys_cmd",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pai-memory", description="Long-term memory service for AI assistants"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


# HTTP client libraries that log every request at INFO: quiet unless ``--verbose``
HTTP_CLIENT_LOGGERS = ("httpx", "httpx2", "httpcore", "httpcore2", "openai")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    install_log_redaction()  # every record: URLs' credentials, secrets and DB error details masked
    if not args.verbose:  # one INFO line per HTTP call (model, embeddings) costs CPU on every message
        for name in HTTP_CLIENT_LOGGERS:
            logging.getLogger(name).setLevel(logging.WARNING)
    try:
        code: int = args.func(args)
    except ConfigError as exc:
        print(f"pai-memory: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
