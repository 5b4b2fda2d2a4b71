"""``pai-memory config show|docs``: the effective configuration, secrets masked; the configuration
reference ``docs/configuration.md`` generated from the settings (``core.config.docs``)."""

from __future__ import annotations

import argparse
import json

from core.config import docs, load_settings


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    parser = sub.add_parser("config", help="show the effective configuration")
    cmds = parser.add_subparsers(dest="config_command", required=True)
    show = cmds.add_parser("show", help="print the effective configuration (secrets masked) as JSON")
    show.set_defaults(func=_show)
    reference = cmds.add_parser("docs", help="rewrite docs/configuration.md from the settings "
                                             "(in a source checkout)")
    reference.add_argument("--check", action="store_true",
                           help="only check; exit 1 if docs/configuration.md differs from the code")
    reference.set_defaults(func=_docs)


def _show(args: argparse.Namespace) -> int:
    print(json.dumps(load_settings().masked(), indent=2, ensure_ascii=False, default=str))
    return 0


def _docs(args: argparse.Namespace) -> int:
    return docs.main(["--check"] if args.check else [])
