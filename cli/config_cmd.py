"""``pai-memory config show``: the effective configuration, secrets masked."""

from __future__ import annotations

import argparse
import json

from core.config import load_settings


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    parser = sub.add_parser("config", help="show the effective configuration")
    cmds = parser.add_subparsers(dest="config_command", required=True)
    show = cmds.add_parser("show", help="print the effective configuration (secrets masked) as JSON")
    show.set_defaults(func=_show)


def _show(args: argparse.Namespace) -> int:
    print(json.dumps(load_settings().masked(), indent=2, ensure_ascii=False, default=str))
    return 0
