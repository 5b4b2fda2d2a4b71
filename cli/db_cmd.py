"""``pai-memory db upgrade|downgrade|current``: schema migrations (Alembic)."""

from __future__ import annotations

import argparse

from core.config import load_settings
from core.storage import db


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    parser = sub.add_parser("db", help="database migrations")
    cmds = parser.add_subparsers(dest="db_command", required=True)
    up = cmds.add_parser("upgrade", help="migrate to a revision (default: head)")
    up.add_argument("revision", nargs="?", default="head")
    up.set_defaults(func=_upgrade)
    down = cmds.add_parser("downgrade", help="migrate down to a revision (default: base, drops everything)")
    down.add_argument("revision", nargs="?", default="base")
    down.set_defaults(func=_downgrade)
    cur = cmds.add_parser("current", help="print the current revision")
    cur.set_defaults(func=_current)


def _upgrade(args: argparse.Namespace) -> int:
    db.upgrade(load_settings().database_url, args.revision)
    return 0


def _downgrade(args: argparse.Namespace) -> int:
    db.downgrade(load_settings().database_url, args.revision)
    return 0


def _current(args: argparse.Namespace) -> int:
    print(db.current_revision(load_settings().database_url) or "base")
    return 0
