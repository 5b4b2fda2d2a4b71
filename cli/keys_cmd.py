"""``pai-memory keys create|list|revoke|rotate``: API keys with scopes (``core.keys``).

- ``create NAME --scope read --scope write [--user USER_ID] [--rate-limit N] [--expires-days D]``
  prints the token once (it is never stored; only its SHA-256 is) and the key's id.
- ``list [--json] [--active]``: id, prefix, name, scopes, user binding, rate limit, state, created,
  last used, expiry; never a secret.
- ``revoke KEY`` (an id, the ``pmk_<id>`` prefix or the token): refused from then on (every API
  process within its key cache time, 5 s).
- ``rotate KEY``: a new token for the same key (scopes, binding and limit kept); the old one stops.

Each change is written to the audit log (actor ``cli:<login name>``) in the same transaction.
Exit codes: 0 done, 2 refused (unknown key, invalid scope, user id or limit).
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from datetime import timedelta
from typing import TYPE_CHECKING

from core.config import Settings, load_settings

if TYPE_CHECKING:
    from core.keys import KeyInfo


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("keys", help="API keys with scopes: create, list, revoke, rotate",
                            description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = parser.add_subparsers(dest="keys_action", required=True)
    create = actions.add_parser("create", help="create a key; prints the token once")
    create.add_argument("name", help="what the key is for (shown in listings and the audit log)")
    create.add_argument("--scope", action="append", dest="scopes", required=True,
                        help="read, write, admin or metrics (repeat, or comma-separated)")
    create.add_argument("--user", dest="user_id", default=None,
                        help="bind the key to this user id: it reads and writes only that user")
    create.add_argument("--rate-limit", type=float, default=None,
                        help="requests per second for this key (default: API_RATE_LIMIT_PER_TOKEN)")
    create.add_argument("--expires-days", type=float, default=None, help="the key expires after D days")
    create.add_argument("--json", action="store_true", help="print the key and token as one JSON object")
    listing = actions.add_parser("list", help="list keys (never their secrets)")
    listing.add_argument("--json", action="store_true")
    listing.add_argument("--active", action="store_true", help="leave revoked keys out")
    for name, text in (("revoke", "revoke a key"), ("rotate", "issue a new token for a key")):
        action = actions.add_parser(name, help=text)
        action.add_argument("key", help="the key's id, its pmk_<id> prefix or its token")
        action.add_argument("--json", action="store_true")
    parser.set_defaults(func=lambda args: run(args, load_settings()))


def actor() -> str:
    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):
        return "cli"


def record_audit(settings: Settings, action: str, outcome: str, target: str | None = None,
                 detail: dict[str, object] | None = None) -> None:
    """Write one audit entry for an admin command (a warning, not a failure, when the database is down)."""
    from sqlalchemy.exc import SQLAlchemyError

    from core import keys
    from core.storage.db import engine_for, session_factory, transaction

    try:
        sessions = session_factory(engine_for(settings.database_url, settings.DATABASE_POOL_SIZE))
        with transaction(sessions) as session:
            keys.audit(session, actor(), action, outcome, target=target, detail=detail)
    except SQLAlchemyError as exc:
        print(f"pai-memory: warning: the audit entry for {action} was not written ({type(exc).__name__})",
              file=sys.stderr)


def run(args: argparse.Namespace, settings: Settings) -> int:
    from sqlalchemy.exc import ProgrammingError

    from core import keys
    from core.storage.db import engine_for, session_factory, transaction

    sessions = session_factory(engine_for(settings.database_url, settings.DATABASE_POOL_SIZE))
    try:
        with transaction(sessions) as session:
            if args.keys_action == "list":
                items = keys.list_keys(session, include_revoked=not args.active)
                if args.json:
                    print(json.dumps([k.as_dict() for k in items], ensure_ascii=False))
                else:
                    _print_table(items)
                return 0
            if args.keys_action == "create":
                scopes = [s for value in args.scopes for s in value.split(",")]
                expires = timedelta(days=args.expires_days) if args.expires_days is not None else None
                info, token = keys.create_key(session, args.name, scopes, user_id=args.user_id,
                                              rate_limit=args.rate_limit, expires_in=expires)
                keys.audit(session, actor(), "key.create", "ok", target=info.prefix,
                           detail={"name": info.name, "scopes": list(info.scopes), "user_id": info.user_id})
            elif args.keys_action == "rotate":
                info, token = keys.rotate_key(session, args.key)
                keys.audit(session, actor(), "key.rotate", "ok", target=info.prefix)
            else:
                info, token = keys.revoke_key(session, args.key), ""
                keys.audit(session, actor(), "key.revoke", "ok", target=info.prefix)
    except keys.KeyStoreError as exc:
        print(f"pai-memory keys: {exc}", file=sys.stderr)
        return 2
    except ProgrammingError as exc:
        if "api_keys" not in str(exc.orig) and "audit_log" not in str(exc.orig):
            raise
        print("pai-memory keys: the database has no key tables yet: run `pai-memory db upgrade`",
              file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({**info.as_dict(), **({"token": token} if token else {})}, ensure_ascii=False))
    elif token:
        print(f"key {info.prefix} ({info.name}): scopes {','.join(info.scopes)}"
              + (f", bound to user {info.user_id}" if info.user_id else ""))
        print(f"token (shown once, store it now): {token}")
    else:
        print(f"key {info.prefix} ({info.name}) revoked at {info.revoked_at:%Y-%m-%d %H:%M:%S} UTC"
              if info.revoked_at else f"key {info.prefix}")
    return 0


def _print_table(items: list[KeyInfo]) -> None:
    print(f"{'prefix':<18} {'state':<8} {'scopes':<18} {'user':<16} {'rate':>6}  {'last used':<19}  name")
    for item in items:
        last = f"{item.last_used_at:%Y-%m-%d %H:%M:%S}" if item.last_used_at else "never"
        rate = f"{item.rate_limit:g}" if item.rate_limit else "-"
        print(f"{item.prefix:<18} {item.state:<8} {','.join(item.scopes):<18} {item.user_id or '-':<16} "
              f"{rate:>6}  {last:<19}  {item.name}")
