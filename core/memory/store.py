"""Row-level access to users, conversations and messages (the storage port of the message side).

Every function takes an open ``Session`` inside the caller's transaction; none commits.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import DateTime, Row, bindparam, func, select, text
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from core.storage.locks import AdvisoryLock
from core.storage.models import Conversation, ErasedUser, Message, User
from core.types import MessageRole, MessageStatus


@dataclass(frozen=True)
class IncomingMessage:
    """A chat message as the domain receives it (decoded from an event by an adapter)."""

    message_id: str
    user_id: str
    conversation_id: str
    role: str
    content: str
    created_at: datetime
    conversation_summary: str | None = None
    source_topic: str | None = None
    source_partition: int | None = None
    source_offset: int | None = None


def user_hash(external_id: str) -> str:
    """The key of ``erased_users``: SHA-256 hex of the external id (the id itself is not kept)."""
    return hashlib.sha256(f"pai-memory/erased-user:{external_id}".encode()).hexdigest()


def erased_before(session: Session, external_id: str, at: datetime) -> bool:
    """True when ``external_id`` was erased at or after ``at`` (so an event from ``at`` is suppressed)."""
    erased_at = session.scalar(
        select(ErasedUser.erased_at).where(ErasedUser.user_hash == user_hash(external_id)))
    return erased_at is not None and at <= erased_at


_EXTERNAL_IDS = "pai_memory.user_external_ids"  # Session.info: user pk -> external id (never changes)


def lock_user(session: Session, user_pk: int) -> None:
    """Serialise writers of one user's memories for the rest of the transaction."""
    session.execute(text("SELECT pg_advisory_xact_lock(:ns, :uid)"),
                    {"ns": int(AdvisoryLock.USER_WRITES), "uid": user_pk})


def lock_users(session: Session, user_pks: Sequence[int]) -> None:
    """``lock_user`` for several users in one round trip, always in ascending id order, so two
    transactions that lock overlapping sets of users cannot deadlock on each other."""
    ordered = sorted(set(user_pks))
    if len(ordered) == 1:
        lock_user(session, ordered[0])
    elif ordered:
        session.execute(
            text("SELECT count(pg_advisory_xact_lock(:ns, u)) FROM "
                 "(SELECT unnest(CAST(:uids AS integer[])) AS u ORDER BY 1) AS o"),
            {"ns": int(AdvisoryLock.USER_WRITES), "uids": ordered},
        )


def get_or_create_users(session: Session, external_ids: Sequence[str]) -> dict[str, int]:
    """``get_or_create_user`` for several users: one round trip when all are known."""
    wanted = sorted(set(external_ids))
    conn = session.connection()  # Core statements, each with ONE array parameter (see ``_USERS``)
    found: dict[str, int] = {ext: pk for ext, pk in conn.execute(_USERS, {"ext": wanted})}
    missing = [e for e in wanted if e not in found]
    if missing:
        conn.execute(_INSERT_USERS, {"ext": missing})  # in the order given: ids follow it
        found.update({ext: pk for ext, pk in conn.execute(_USERS, {"ext": missing})})
    cache = session.info.setdefault(_EXTERNAL_IDS, {})
    for ext, pk in found.items():
        cache[pk] = ext
    return found


# a batch's user ids as ONE array parameter: an IN list or a multi-row VALUES renders a placeholder per
# user, a statement text per batch size that the driver parses again on every batch
_USERS = text("SELECT external_id, id FROM users WHERE external_id = ANY(CAST(:ext AS varchar[]))")
_INSERT_USERS = text("INSERT INTO users (external_id) SELECT unnest(CAST(:ext AS varchar[])) "
                     "ON CONFLICT (external_id) DO NOTHING")


def get_or_create_user(session: Session, external_id: str) -> int:
    """Internal id of the user with this upstream id, created on first sight (one round trip for a
    known user; the insert, which draws a sequence value even when it conflicts, only for a new one)."""
    user_pk = find_user(session, external_id)
    if user_pk is None:
        stmt = insert(User).values(external_id=external_id).on_conflict_do_nothing(
            index_elements=["external_id"])
        session.execute(stmt)
        user_pk = find_user(session, external_id)
        assert user_pk is not None
    session.info.setdefault(_EXTERNAL_IDS, {})[user_pk] = external_id
    return user_pk


def find_user(session: Session, external_id: str) -> int | None:
    return session.scalar(select(User.id).where(User.external_id == external_id))


def remember_external_id(session: Session, user_pk: int, external_id: str) -> None:
    """Tell the session the upstream id of ``user_pk`` (read with other data), so ``user_external_id``
    needs no lookup in it."""
    session.info.setdefault(_EXTERNAL_IDS, {})[user_pk] = external_id


def user_external_id(session: Session, user_pk: int) -> str:
    """The upstream id of a user (read once per session: it never changes for an id)."""
    cache: dict[int, str] = session.info.setdefault(_EXTERNAL_IDS, {})
    ext = cache.get(user_pk)
    if ext is None:
        ext = session.scalar(select(User.external_id).where(User.id == user_pk))
        if ext is None:
            raise LookupError(f"no user with id {user_pk}")
        cache[user_pk] = ext
    return ext


def get_or_create_conversation(session: Session, user_pk: int, external_id: str, summary: str | None) -> int:
    """Internal id of the conversation; a non-empty ``summary`` replaces the stored one.

    One round trip in the common cases: with a summary an upsert returning the id; without one a
    lookup of a known conversation (a new one is inserted, the id returned by the insert; a concurrent
    insert of the same conversation is found by a second lookup)."""
    if summary:
        upsert = (insert(Conversation).values(user_id=user_pk, external_id=external_id, summary=summary)
                  .on_conflict_do_update(constraint="uq_conversations_user_external",
                                         set_={"summary": summary, "updated_at": func.now()})
                  .returning(Conversation.id))
        conv = session.scalar(upsert)
        assert conv is not None
        return conv
    # Core statements on the session's connection: the ORM layer would run the insert as an ORM bulk insert
    conn, params = session.connection(), {"user_pk": user_pk, "external_id": external_id}
    conv = conn.execute(_FIND_CONVERSATION, params).scalar()
    if conv is None:
        conv = conn.execute(_INSERT_CONVERSATION, params).scalar()
        if conv is None:  # inserted meanwhile by another transaction
            conv = conn.execute(_FIND_CONVERSATION, params).scalar()
    assert conv is not None
    return conv


def find_message(session: Session, user_pk: int, message_id: str) -> Message | None:
    """The stored message of this user with this upstream id (ids are scoped by user)."""
    return session.scalar(select(Message).where(Message.user_id == user_pk,
                                                Message.upstream_message_id == message_id))


def message_conflict(row: Message, conversation_external_id: str, msg: IncomingMessage) -> str | None:
    """Why ``msg`` is NOT a redelivery of the stored ``row`` (same user, same upstream id), or None
    when it is one (same role, content and conversation: storing it again must change nothing)."""
    differs = [name for name, same in (
        ("content", row.content == msg.content),
        ("role", row.role == msg.role),
        ("conversation", conversation_external_id == msg.conversation_id),
    ) if not same]
    if not differs:
        return None
    return (f"message_id_conflict: message id {msg.message_id!r} is already stored for this user with a "
            f"different {' and '.join(differs)}; not a redelivery, the stored message is kept")


def conversation_external_id(session: Session, conversation_pk: int) -> str:
    ext = session.scalar(select(Conversation.external_id).where(Conversation.id == conversation_pk))
    if ext is None:
        raise LookupError(f"no conversation with id {conversation_pk}")
    return ext


_FIND_CONVERSATION = select(Conversation.id).where(Conversation.user_id == bindparam("user_pk"),
                                                   Conversation.external_id == bindparam("external_id"))
_INSERT_CONVERSATION = (
    insert(Conversation)
    .values(user_id=bindparam("user_pk"), external_id=bindparam("external_id"), summary=None)
    .on_conflict_do_nothing(constraint="uq_conversations_user_external")
    .returning(Conversation.id))


def store_message(session: Session, msg: IncomingMessage) -> tuple[Message, bool]:
    """Store ``msg`` once (idempotent by user and upstream message id). Returns ``(row, created)``;
    for a known id the stored row (the caller checks ``message_conflict``: nothing is overwritten).

    User messages start ``PENDING``; other roles are context only and are stored ``SKIPPED``.
    """
    user_pk = get_or_create_user(session, msg.user_id)
    existing = find_message(session, user_pk, msg.message_id)
    if existing is not None:
        return existing, False
    conv_pk = get_or_create_conversation(session, user_pk, msg.conversation_id, msg.conversation_summary)
    new_id = insert_message(session, msg, user_pk, conv_pk)
    row = find_message(session, user_pk, msg.message_id)
    assert row is not None
    return row, new_id is not None


def insert_message(session: Session, msg: IncomingMessage, user_pk: int, conv_pk: int) -> int | None:
    """Insert ``msg`` (user messages ``PENDING``, others ``SKIPPED`` as context); its new id, or None
    when this user already has a message with the same upstream id (nothing is changed then)."""
    is_user = msg.role == MessageRole.USER
    # on the session's connection (Core): with a parameter dict the ORM layer would run an ORM bulk insert
    new_id: int | None = session.connection().execute(_INSERT_MESSAGE, {
        "upstream_message_id": msg.message_id,
        "user_id": user_pk,
        "conversation_id": conv_pk,
        "role": str(msg.role),
        "content": msg.content,
        "created_at": msg.created_at,
        "memory_status": (MessageStatus.PENDING if is_user else MessageStatus.SKIPPED).value,
        "memory_error": None if is_user else "context only (non-user role)",
        "source_topic": msg.source_topic,
        "source_partition": msg.source_partition,
        "source_offset": msg.source_offset,
    }).scalar()
    return new_id


# built once (every stored message runs it): no statement construction and cache key per message
_INSERT_MESSAGE = (
    insert(Message)
    .values({c: bindparam(c, type_=Message.__table__.c[c].type) for c in (
        "upstream_message_id", "user_id", "conversation_id", "role", "content", "created_at", "memory_status",
        "memory_error", "source_topic", "source_partition", "source_offset")})
    .on_conflict_do_nothing(constraint="uq_messages_user_upstream")
    .returning(Message.id)
)


_BEFORE = bindparam("before", type_=DateTime(timezone=True))
_CONTEXT = (  # built once: read for every burst; plain rows of the four columns a burst's context reads
    select(Message.id, Message.role, Message.content, Message.created_at)
    .where(
        Message.conversation_id == bindparam("conv"),
        (Message.created_at < _BEFORE)
        | ((Message.created_at == _BEFORE) & (Message.id < bindparam("before_id"))),
    )
    .order_by(Message.created_at.desc(), Message.id.desc())
    .limit(200)
)


def conversation_context(
    session: Session, conversation_pk: int, before: datetime, before_id: int, max_chars: int
) -> list[Row[int, str, str, datetime]]:
    """Earlier messages of the conversation, oldest first, newest kept within ``max_chars``: rows of
    ``id, role, content, created_at`` (a Core statement on the session's connection, no ORM objects)."""
    params = {"conv": conversation_pk, "before": before, "before_id": before_id}
    rows = session.connection().execute(_CONTEXT, params).all()
    kept: list[Row[int, str, str, datetime]] = []
    used = 0
    for row in rows:
        used += len(row.content)
        if used > max_chars:
            break
        kept.append(row)
    kept.reverse()
    return kept


def conversation_summary(session: Session, conversation_pk: int) -> str | None:
    return session.scalar(select(Conversation.summary).where(Conversation.id == conversation_pk))


def lock_messages(session: Session, message_ids: Sequence[int]) -> list[Message]:
    """The messages, locked for update, in conversation order."""
    return list(
        session.scalars(
            select(Message)
            .where(Message.id.in_(message_ids))
            .order_by(Message.created_at, Message.id)
            .with_for_update()
        ).all()
    )
