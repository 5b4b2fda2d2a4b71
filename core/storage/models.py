"""PostgreSQL truth: table definitions (SQLAlchemy 2 declarative).

``long_term_memories`` keeps the original design's table as it was (every column, default and
``UNIQUE(user_id, memory_key)``; ``docs/design.md#keys``), so data and tools written for it still fit.
The other tables are what the event design needs: users and conversations keyed by the upstream ids,
messages with their memory status, an audit history of every memory change, the transactional outbox,
processed command ids (idempotent tool commands), and the registry of vector collections (model and
dimension of each, which one serves).

The Alembic migrations under ``migrations/`` are the source of the schema in a database; a test
checks they agree with these models.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from schemas.events import DEFAULT_MEMORY_CONFIDENCE, MAX_MEMORY_CONTENT_CHARS


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    external_id: Mapped[str] = mapped_column(String(128), nullable=False, unique=True)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )


class Conversation(Base):
    __tablename__ = "conversations"
    __table_args__ = (UniqueConstraint("user_id", "external_id", name="uq_conversations_user_external"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    external_id: Mapped[str] = mapped_column(String(128), nullable=False)
    summary: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )


class Message(Base):
    __tablename__ = "messages"
    __table_args__ = (
        # message ids are scoped by user (migration 0005): two users may use the same upstream id
        UniqueConstraint("user_id", "upstream_message_id", name="uq_messages_user_upstream"),
        Index("ix_messages_conversation_created", "conversation_id", "created_at"),
        Index("ix_messages_user_created", "user_id", "created_at"),
        Index(
            "ix_messages_redrive",
            "memory_status",
            "updated_at",
            postgresql_where=text("memory_status IN ('PENDING', 'FAILED')"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    upstream_message_id: Mapped[str] = mapped_column(String(128), nullable=False)
    user_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    conversation_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("conversations.id", ondelete="CASCADE"), nullable=False
    )
    role: Mapped[str] = mapped_column(String(20), nullable=False)
    content: Mapped[str] = mapped_column(Text, nullable=False)
    memory_status: Mapped[str] = mapped_column(String(20), nullable=False, server_default="PENDING")
    memory_attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    memory_error: Mapped[str | None] = mapped_column(Text)
    extractor_version: Mapped[str | None] = mapped_column(String(40))
    source_topic: Mapped[str | None] = mapped_column(String(255))
    source_partition: Mapped[int | None] = mapped_column(Integer)
    source_offset: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    received_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )
    processed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )


class LongTermMemory(Base):
    """A user's long-term memory, the truth (``docs/design.md#behaviour``): one row per
    ``(user_id, memory_key)``."""

    __tablename__ = "long_term_memories"
    __table_args__ = (
        UniqueConstraint("user_id", "memory_key"),
        Index("ix_ltm_user_active", "user_id", "is_active"),
        # the order of list_live (importance, recency, id) among a user's active rows: a read of the
        # top N and the per-user cap's count need not touch the user's other rows
        Index(
            "ix_ltm_user_live_order",
            "user_id",
            text("importance DESC"),
            text("updated_at DESC"),
            "id",
            postgresql_where=text("is_active IS TRUE"),
        ),
        Index(
            "ix_ltm_vector_status",
            "vector_status",
            "updated_at",
            postgresql_where=text("vector_status IN ('DIRTY', 'FAILED')"),
        ),
        Index(
            "ix_ltm_expires_at", "expires_at", postgresql_where=text("is_active AND expires_at IS NOT NULL")
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id"), nullable=False)
    conversation_id: Mapped[int | None] = mapped_column(Integer, ForeignKey("conversations.id"))
    source_message_id: Mapped[int | None] = mapped_column(Integer, ForeignKey("messages.id"))

    memory_key: Mapped[str] = mapped_column(String(160), nullable=False)
    memory_type: Mapped[str | None] = mapped_column(String(40), server_default="fact")
    content: Mapped[str | None] = mapped_column(String(MAX_MEMORY_CONTENT_CHARS))
    importance: Mapped[int | None] = mapped_column(Integer, server_default="3")
    confidence: Mapped[float | None] = mapped_column(Float, server_default=str(DEFAULT_MEMORY_CONFIDENCE))

    is_active: Mapped[bool | None] = mapped_column(Boolean, server_default=text("true"))
    last_accessed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    vector_status: Mapped[str | None] = mapped_column(String(20), server_default="DIRTY")
    vector_synced_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    vector_error: Mapped[str | None] = mapped_column(Text)
    vector_model: Mapped[str | None] = mapped_column(String(120))
    vector_version: Mapped[int | None] = mapped_column(Integer)
    vector_text_hash: Mapped[str | None] = mapped_column(String(64))
    # the vector the write side already computed for this index text (semantic dedup), so the indexer
    # need not call the model again: float32 bytes, the model that made them and the text's hash. The
    # indexer uses it only when model, dimension and hash match, and clears it when it marks the row.
    write_vector: Mapped[bytes | None] = mapped_column(LargeBinary)
    write_vector_model: Mapped[str | None] = mapped_column(String(120))
    write_vector_hash: Mapped[str | None] = mapped_column(String(64))

    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class MemoryHistory(Base):
    """Audit trail: one row per change to a memory, with the operation and its reason."""

    __tablename__ = "memory_history"
    __table_args__ = (
        Index("ix_memory_history_user_created", "user_id", "created_at"),
        Index("ix_memory_history_memory", "memory_id"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    memory_id: Mapped[int | None] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(Integer, nullable=False)
    memory_key: Mapped[str] = mapped_column(String(160), nullable=False)
    operation: Mapped[str] = mapped_column(String(20), nullable=False)
    source: Mapped[str] = mapped_column(String(20), nullable=False)
    source_message_id: Mapped[int | None] = mapped_column(Integer)
    command_id: Mapped[str | None] = mapped_column(String(128))
    old_content: Mapped[str | None] = mapped_column(String(MAX_MEMORY_CONTENT_CHARS))
    new_content: Mapped[str | None] = mapped_column(String(MAX_MEMORY_CONTENT_CHARS))
    memory_type: Mapped[str | None] = mapped_column(String(40))
    reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )


class OutboxEvent(Base):
    """Transactional outbox: written in the same transaction as the change it announces."""

    __tablename__ = "outbox"
    __table_args__ = (
        Index("ix_outbox_unpublished", "id", postgresql_where=text("published_at IS NULL")),
        Index("ix_outbox_published_at", "published_at", postgresql_where=text("published_at IS NOT NULL")),
        Index("ix_outbox_aggregate", "aggregate_id"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    topic: Mapped[str] = mapped_column(String(255), nullable=False)
    message_key: Mapped[str] = mapped_column(String(255), nullable=False)
    event_type: Mapped[str] = mapped_column(String(120), nullable=False)
    aggregate_id: Mapped[int | None] = mapped_column(Integer)
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )
    published_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    last_error: Mapped[str | None] = mapped_column(Text)


class ProcessedCommand(Base):
    """Ids of memory commands already applied; makes command redelivery harmless."""

    __tablename__ = "processed_commands"

    command_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    processed_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )


class VectorCollection(Base):
    """Registry of Milvus collections: the model and dimension each holds; one is active."""

    __tablename__ = "vector_collections"
    __table_args__ = (
        Index("uq_vector_collections_active", "active", unique=True, postgresql_where=text("active")),
    )

    name: Mapped[str] = mapped_column(String(255), primary_key=True)
    model: Mapped[str] = mapped_column(String(120), nullable=False)
    dim: Mapped[int] = mapped_column(Integer, nullable=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    active: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default=text("false"))
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )


class ErasedUser(Base):
    """Users erased by ``pai-memory forget-user``: a suppression list, not a copy of the user.

    Only a SHA-256 of the external id is kept (``core.memory.store.user_hash``), plus the internal id the
    user had (to prove later that no vector of it is left) and when it happened. Events of this user
    created at or before ``erased_at`` (a replay, a late redelivery) are skipped at ingest.
    """

    __tablename__ = "erased_users"

    user_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_pk: Mapped[int] = mapped_column(Integer, nullable=False)
    erased_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )


class ApiKey(Base):
    """An API key (``core.keys``): only a SHA-256 of the secret is stored, never the token.

    ``scopes`` is a subset of ``read``, ``write``, ``admin``, ``metrics``; ``user_id`` set binds the key
    to that external user id; ``rate_limit`` (requests/s) overrides the API's per-token default.
    ``last_used_at`` is coalesced (written at most once a minute per key per process)."""

    __tablename__ = "api_keys"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(128), nullable=False)
    token_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    prefix: Mapped[str] = mapped_column(String(32), nullable=False)
    scopes: Mapped[list[str]] = mapped_column(ARRAY(String(16)), nullable=False)
    user_id: Mapped[str | None] = mapped_column(String(128), nullable=True)
    rate_limit: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AuditLog(Base):
    """Admin actions (re-drive, erasure, key changes, console logins): who, what, on what, outcome."""

    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_at", "at"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False, server_default=func.now())
    actor: Mapped[str] = mapped_column(String(200), nullable=False)
    action: Mapped[str] = mapped_column(String(64), nullable=False)
    target: Mapped[str | None] = mapped_column(String(300), nullable=True)
    outcome: Mapped[str] = mapped_column(String(16), nullable=False)
    client: Mapped[str | None] = mapped_column(String(64), nullable=True)
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSONB, nullable=True)


class ConsoleSessionRow(Base):
    """A console login: the cookie names it (``id``); logout or expiry ends it for every process."""

    __tablename__ = "console_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    key_id: Mapped[str] = mapped_column(String(32), nullable=False)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

class Job(Base):
    """An asynchronous job of the API (``core.jobs``): today user erasure (``kind = "erase_user"``).

    ``subject`` is the user's external id while the job is open and is cleared when it ends (an
    erased user's id is not kept); ``subject_hash`` (``core.memory.store.user_hash``) stays, so the
    job can be matched to ``erased_users``. ``result`` is the proof. A job ``running`` for longer than
    the lease (a process died) is taken up again.
    """

    __tablename__ = "jobs"
    __table_args__ = (
        Index("ix_jobs_open", "created_at", postgresql_where=text("status IN ('pending', 'running')")),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    kind: Mapped[str] = mapped_column(String(40), nullable=False)
    status: Mapped[str] = mapped_column(String(20), nullable=False, server_default="pending")
    subject: Mapped[str | None] = mapped_column(String(128))
    subject_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    requested_by: Mapped[str] = mapped_column(String(200), nullable=False)
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    result: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Episode(Base):
    """A passage of what the user said (``core.episodes``): one row per ``(message_id, passage_index)``.

    Written in the extractor's transaction that makes the message final; the text never changes, so
    the index state is only DIRTY (to index or remove), SYNCED or FAILED. ``write_vector``: the vector
    the extractor already had for this exact text (the classifier/dedup passage cache), reused by the
    indexer when model and hash match, cleared when it marks the row.
    """

    __tablename__ = "episodes"
    __table_args__ = (
        UniqueConstraint("message_id", "passage_index", name="uq_episodes_message_passage"),
        Index("ix_episodes_user_sent", "user_id", "sent_at"),
        Index("ix_episodes_vector_status", "vector_status", "updated_at",
              postgresql_where=text("vector_status IN ('DIRTY', 'FAILED')")),
        Index("ix_episodes_expires_at", "expires_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    conversation_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("conversations.id", ondelete="CASCADE"), nullable=False
    )
    message_id: Mapped[int] = mapped_column(Integer, ForeignKey("messages.id", ondelete="CASCADE"),
                                            nullable=False)
    passage_index: Mapped[int] = mapped_column(Integer, nullable=False)
    content: Mapped[str] = mapped_column(Text, nullable=False)
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    vector_status: Mapped[str] = mapped_column(String(20), nullable=False, server_default="DIRTY")
    vector_synced_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    vector_error: Mapped[str | None] = mapped_column(Text)
    vector_model: Mapped[str | None] = mapped_column(String(120))
    vector_text_hash: Mapped[str | None] = mapped_column(String(64))
    write_vector: Mapped[bytes | None] = mapped_column(LargeBinary)
    write_vector_model: Mapped[str | None] = mapped_column(String(120))
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )
