"""API keys and the audit log in PostgreSQL (the store behind ``pai-memory keys`` and the API's auth).

A token is ``pmk_<id>_<secret>``: ``id`` (12 hex characters) names the row, ``secret`` is 32 random
bytes (URL-safe base64). Only ``sha256(token)`` is stored and compared in constant time; the token is
shown once, at creation or rotation. ``prefix`` (``pmk_<id>``) identifies the key in listings.

A key is usable while not revoked and not expired. Rotation issues a new secret for the same id
(scopes, binding and limits kept), so the old token stops working at once.

The audit log records admin actions: who (``actor``), ``action`` (``key.create``, ``key.revoke``,
``key.rotate``, ``console.login``, ``dlq.redrive``, ``user.erase``...), ``target``, ``outcome``
(``ok``, ``denied``, ``failed``), the client address and a small JSON ``detail`` (never a token).
Rows older than ``AUDIT_LOG_RETENTION_DAYS`` are deleted by the expiry pass (``prune_audit_log``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from core.storage.models import ApiKey, AuditLog, ConsoleSessionRow
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

SCOPES = ("read", "write", "admin", "metrics")  # metrics: /metrics and /readyz detail, no memory
TOKEN_PREFIX = "pmk_"
_TOKEN_RE = re.compile(r"^pmk_([0-9a-f]{12})_([A-Za-z0-9_-]{20,100})$")
USER_ID_RE = re.compile(r"^[A-Za-z0-9._:@-]{1,128}$")


class KeyStoreError(Exception):
    """Base of the key store's refusals."""


class InvalidKeySpec(KeyStoreError):
    """A key definition was refused (unknown scope, bad user id, bad rate limit or name)."""


class UnknownKey(KeyStoreError):
    """No key with this id (or it is revoked, for rotation)."""


@dataclass(frozen=True)
class KeyInfo:
    """A key as listed: never its secret or hash."""

    id: str
    name: str
    prefix: str
    scopes: tuple[str, ...]
    user_id: str | None
    rate_limit: float | None
    created_at: datetime
    last_used_at: datetime | None
    expires_at: datetime | None
    revoked_at: datetime | None

    @property
    def state(self) -> str:
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at is not None and self.expires_at <= datetime.now(UTC):
            return "expired"
        return "active"

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "prefix": self.prefix, "scopes": list(self.scopes),
                "user_id": self.user_id, "rate_limit": self.rate_limit, "state": self.state,
                **{k: (v.isoformat() if v else None) for k, v in (
                    ("created_at", self.created_at), ("last_used_at", self.last_used_at),
                    ("expires_at", self.expires_at), ("revoked_at", self.revoked_at))}}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def parse_token(token: str) -> str | None:
    """The key id a token names, or ``None`` when it is not shaped like one of ours."""
    match = _TOKEN_RE.match(token)
    return match.group(1) if match else None


def _info(row: ApiKey) -> KeyInfo:
    return KeyInfo(row.id, row.name, row.prefix, tuple(row.scopes), row.user_id, row.rate_limit,
                   row.created_at, row.last_used_at, row.expires_at, row.revoked_at)


def _new_token(key_id: str) -> str:
    return f"{TOKEN_PREFIX}{key_id}_{secrets.token_urlsafe(32)}"


def normalise_scopes(scopes: Iterable[str]) -> tuple[str, ...]:
    wanted = {s.strip().lower() for s in scopes if s.strip()}
    unknown = wanted - set(SCOPES)
    if unknown:
        raise InvalidKeySpec(f"unknown scope(s) {sorted(unknown)}; scopes are {', '.join(SCOPES)}")
    if not wanted:
        raise InvalidKeySpec(f"a key needs at least one scope of {', '.join(SCOPES)}")
    return tuple(s for s in SCOPES if s in wanted)


def create_key(session: Session, name: str, scopes: Iterable[str], *, user_id: str | None = None,
               rate_limit: float | None = None, expires_in: timedelta | None = None) -> tuple[KeyInfo, str]:
    """Store a new key; returns its listing and the token (shown once, never stored)."""
    name = name.strip()
    if not 1 <= len(name) <= 128 or not name.isprintable():
        raise InvalidKeySpec("a key name is 1-128 printable characters")
    scope_list = normalise_scopes(scopes)
    if user_id is not None and not USER_ID_RE.match(user_id):
        raise InvalidKeySpec("user_id must be 1-128 characters from A-Z a-z 0-9 . _ : @ -")
    if rate_limit is not None and not 0 < rate_limit <= 100_000:
        raise InvalidKeySpec("rate_limit is requests per second, > 0 and <= 100000")
    if expires_in is not None and expires_in <= timedelta(0):
        raise InvalidKeySpec("the expiry must be in the future")
    key_id = secrets.token_hex(6)
    token = _new_token(key_id)
    row = ApiKey(id=key_id, name=name, token_hash=token_hash(token), prefix=f"{TOKEN_PREFIX}{key_id}",
                 scopes=list(scope_list), user_id=user_id, rate_limit=rate_limit,
                 expires_at=datetime.now(UTC) + expires_in if expires_in else None)
    session.add(row)
    session.flush()
    session.refresh(row)
    return _info(row), token


def list_keys(session: Session, *, include_revoked: bool = True) -> list[KeyInfo]:
    query = select(ApiKey).order_by(ApiKey.created_at, ApiKey.id)
    if not include_revoked:
        query = query.where(ApiKey.revoked_at.is_(None))
    return [_info(row) for row in session.scalars(query)]


def _key_id_of(ref: str) -> str:
    """A key id from an id, a display prefix (``pmk_<id>``) or a whole token."""
    ref = ref.strip()
    parsed = parse_token(ref)
    if parsed:
        return parsed
    return ref.removeprefix(TOKEN_PREFIX)


def revoke_key(session: Session, ref: str) -> KeyInfo:
    """Revoke the key (idempotent: a revoked key stays revoked at its first time)."""
    row = session.get(ApiKey, _key_id_of(ref), with_for_update=True)
    if row is None:
        raise UnknownKey(f"no key {ref!r}")
    if row.revoked_at is None:
        row.revoked_at = datetime.now(UTC)
    session.flush()
    return _info(row)


def rotate_key(session: Session, ref: str) -> tuple[KeyInfo, str]:
    """A new secret for a live key (same id, scopes, binding, limit); the old token stops working."""
    row = session.get(ApiKey, _key_id_of(ref), with_for_update=True)
    if row is None or row.revoked_at is not None:
        raise UnknownKey(f"no live key {ref!r}")
    token = _new_token(row.id)
    row.token_hash = token_hash(token)
    session.flush()
    return _info(row), token


def lookup(session: Session, token: str, now: datetime | None = None) -> KeyInfo | None:
    """The live key this token belongs to (constant-time hash compare), else ``None``."""
    key_id = parse_token(token)
    if key_id is None:
        return None
    row = session.get(ApiKey, key_id)
    if row is None or not hmac.compare_digest(row.token_hash, token_hash(token)):
        return None
    now = now or datetime.now(UTC)
    if row.revoked_at is not None or (row.expires_at is not None and row.expires_at <= now):
        return None
    return _info(row)


def touch(session: Session, used: dict[str, datetime]) -> None:
    """Write coalesced last-used times (``key id -> time``); never moves a time backwards."""
    for key_id, at in used.items():
        session.execute(update(ApiKey).where(ApiKey.id == key_id)
                        .where((ApiKey.last_used_at.is_(None)) | (ApiKey.last_used_at < at))
                        .values(last_used_at=at))


# --- console sessions -----------------------------------------------------------------------------
BOOTSTRAP_KEY_ID = "env"  # the environment API_TOKEN


def open_console_session(session: Session, session_id: str, key_id: str, expires_at: datetime) -> None:
    """Record a console login (the cookie carries ``session_id``)."""
    session.add(ConsoleSessionRow(id=session_id, key_id=key_id, expires_at=expires_at))
    session.flush()


def console_session_key(session: Session, session_id: str, now: datetime | None = None) -> str | None:
    """The key id of a live console session: not revoked, not expired, its key still live; else ``None``."""
    now = now or datetime.now(UTC)
    row = session.get(ConsoleSessionRow, session_id)
    if row is None or row.revoked_at is not None or row.expires_at <= now:
        return None
    if row.key_id != BOOTSTRAP_KEY_ID:
        key = session.get(ApiKey, row.key_id)
        if key is None or key.revoked_at is not None or "admin" not in key.scopes:
            return None
        if key.expires_at is not None and key.expires_at <= now:
            return None
    return row.key_id


def prune_console_sessions(session: Session, now: datetime) -> int:
    """Delete the console sessions that can no longer be used: expired or revoked before ``now``; how many.

    A live session is never touched; an ended one only names a key id and a time, kept nowhere else."""
    result = session.execute(delete(ConsoleSessionRow).where(
        (ConsoleSessionRow.expires_at <= now) | (ConsoleSessionRow.revoked_at <= now)))
    return int(getattr(result, "rowcount", 0) or 0)


def revoke_console_session(session: Session, session_id: str) -> bool:
    """End a console session for every process; ``False`` when it was not live."""
    result = session.execute(update(ConsoleSessionRow).where(ConsoleSessionRow.id == session_id)
                             .where(ConsoleSessionRow.revoked_at.is_(None))
                             .values(revoked_at=datetime.now(UTC)))
    return bool(getattr(result, "rowcount", 0))


# --- audit ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AuditEntry:
    id: int
    at: datetime
    actor: str
    action: str
    target: str | None
    outcome: str
    client: str | None
    detail: dict[str, Any] | None


def audit(session: Session, actor: str, action: str, outcome: str, *, target: str | None = None,
          client: str | None = None, detail: dict[str, Any] | None = None) -> None:
    """Append one entry to the audit log (in the caller's transaction)."""
    session.add(AuditLog(actor=actor[:200], action=action[:64], target=target[:300] if target else None,
                         outcome=outcome[:16], client=client[:64] if client else None, detail=detail))
    session.flush()


def recent_audit(session: Session, limit: int = 100, offset: int = 0) -> list[AuditEntry]:
    rows = session.scalars(select(AuditLog).order_by(AuditLog.id.desc()).limit(limit).offset(offset))
    return [AuditEntry(r.id, r.at, r.actor, r.action, r.target, r.outcome, r.client, r.detail) for r in rows]


def prune_audit_log(session: Session, older_than: datetime) -> int:
    """Delete the audit rows recorded before ``older_than`` (``AUDIT_LOG_RETENTION_DAYS``); how many."""
    result = session.execute(delete(AuditLog).where(AuditLog.at < older_than))
    return int(getattr(result, "rowcount", 0) or 0)
