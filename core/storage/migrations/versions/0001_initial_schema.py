"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-12-02 11:36:08.050169
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# Wakes outbox relays (LISTEN pai_memory_outbox) once per inserting statement.
OUTBOX_NOTIFY_UP = """
CREATE OR REPLACE FUNCTION pai_memory_outbox_notify() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('pai_memory_outbox', '');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER outbox_notify AFTER INSERT ON outbox
  FOR EACH STATEMENT EXECUTE FUNCTION pai_memory_outbox_notify();
"""
OUTBOX_NOTIFY_DOWN = """
DROP TRIGGER IF EXISTS outbox_notify ON outbox;
DROP FUNCTION IF EXISTS pai_memory_outbox_notify();
"""


def upgrade() -> None:
    op.create_table(
        "memory_history",
        sa.Column("id", sa.BigInteger(), nullable=False),
        sa.Column("memory_id", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("memory_key", sa.String(length=160), nullable=False),
        sa.Column("operation", sa.String(length=20), nullable=False),
        sa.Column("source", sa.String(length=20), nullable=False),
        sa.Column("source_message_id", sa.Integer(), nullable=True),
        sa.Column("command_id", sa.String(length=128), nullable=True),
        sa.Column("old_content", sa.String(length=1000), nullable=True),
        sa.Column("new_content", sa.String(length=1000), nullable=True),
        sa.Column("memory_type", sa.String(length=40), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_memory_history_memory", "memory_history", ["memory_id"], unique=False)
    op.create_index(
        "ix_memory_history_user_created", "memory_history", ["user_id", "created_at"], unique=False
    )
    op.create_table(
        "outbox",
        sa.Column("id", sa.BigInteger(), nullable=False),
        sa.Column("topic", sa.String(length=255), nullable=False),
        sa.Column("message_key", sa.String(length=255), nullable=False),
        sa.Column("event_type", sa.String(length=120), nullable=False),
        sa.Column("aggregate_id", sa.Integer(), nullable=True),
        sa.Column("payload", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_outbox_aggregate", "outbox", ["aggregate_id"], unique=False)
    op.create_index(
        "ix_outbox_published_at",
        "outbox",
        ["published_at"],
        unique=False,
        postgresql_where=sa.text("published_at IS NOT NULL"),
    )
    op.create_index(
        "ix_outbox_unpublished",
        "outbox",
        ["id"],
        unique=False,
        postgresql_where=sa.text("published_at IS NULL"),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("external_id", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("external_id"),
    )
    op.create_table(
        "vector_collections",
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("model", sa.String(length=120), nullable=False),
        sa.Column("dim", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("active", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_index(
        "uq_vector_collections_active",
        "vector_collections",
        ["active"],
        unique=True,
        postgresql_where=sa.text("active"),
    )
    op.create_table(
        "conversations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("external_id", sa.String(length=128), nullable=False),
        sa.Column("summary", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "external_id", name="uq_conversations_user_external"),
    )
    op.create_table(
        "processed_commands",
        sa.Column("command_id", sa.String(length=128), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("result", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column(
            "processed_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("command_id"),
    )
    op.create_table(
        "messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("upstream_message_id", sa.String(length=128), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("conversation_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("memory_status", sa.String(length=20), server_default="PENDING", nullable=False),
        sa.Column("memory_attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("memory_error", sa.Text(), nullable=True),
        sa.Column("extractor_version", sa.String(length=40), nullable=True),
        sa.Column("source_topic", sa.String(length=255), nullable=True),
        sa.Column("source_partition", sa.Integer(), nullable=True),
        sa.Column("source_offset", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("processed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(["conversation_id"], ["conversations.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("upstream_message_id"),
    )
    op.create_index(
        "ix_messages_conversation_created", "messages", ["conversation_id", "created_at"], unique=False
    )
    op.create_index(
        "ix_messages_redrive",
        "messages",
        ["memory_status", "updated_at"],
        unique=False,
        postgresql_where=sa.text("memory_status IN ('PENDING', 'FAILED')"),
    )
    op.create_index("ix_messages_user_created", "messages", ["user_id", "created_at"], unique=False)
    op.create_table(
        "long_term_memories",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("conversation_id", sa.Integer(), nullable=True),
        sa.Column("source_message_id", sa.Integer(), nullable=True),
        sa.Column("memory_key", sa.String(length=160), nullable=False),
        sa.Column("memory_type", sa.String(length=40), server_default="fact", nullable=True),
        sa.Column("content", sa.String(length=1000), nullable=True),
        sa.Column("importance", sa.Integer(), server_default="3", nullable=True),
        sa.Column("confidence", sa.Float(), server_default="0.8", nullable=True),
        sa.Column("is_active", sa.Boolean(), server_default=sa.text("true"), nullable=True),
        sa.Column("last_accessed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("vector_status", sa.String(length=20), server_default="DIRTY", nullable=True),
        sa.Column("vector_synced_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("vector_error", sa.Text(), nullable=True),
        sa.Column("vector_model", sa.String(length=120), nullable=True),
        sa.Column("vector_version", sa.Integer(), nullable=True),
        sa.Column("vector_text_hash", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["conversation_id"],
            ["conversations.id"],
        ),
        sa.ForeignKeyConstraint(
            ["source_message_id"],
            ["messages.id"],
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "memory_key"),
    )
    op.create_index(
        "ix_ltm_expires_at",
        "long_term_memories",
        ["expires_at"],
        unique=False,
        postgresql_where=sa.text("is_active AND expires_at IS NOT NULL"),
    )
    op.create_index("ix_ltm_user_active", "long_term_memories", ["user_id", "is_active"], unique=False)
    op.create_index(
        "ix_ltm_vector_status",
        "long_term_memories",
        ["vector_status", "updated_at"],
        unique=False,
        postgresql_where=sa.text("vector_status IN ('DIRTY', 'FAILED')"),
    )
    op.execute(OUTBOX_NOTIFY_UP)


def downgrade() -> None:
    op.execute(OUTBOX_NOTIFY_DOWN)
    op.drop_index(
        "ix_ltm_vector_status",
        table_name="long_term_memories",
        postgresql_where=sa.text("vector_status IN ('DIRTY', 'FAILED')"),
    )
    op.drop_index("ix_ltm_user_active", table_name="long_term_memories")
    op.drop_index(
        "ix_ltm_expires_at",
        table_name="long_term_memories",
        postgresql_where=sa.text("is_active AND expires_at IS NOT NULL"),
    )
    op.drop_table("long_term_memories")
    op.drop_index("ix_messages_user_created", table_name="messages")
    op.drop_index(
        "ix_messages_redrive",
        table_name="messages",
        postgresql_where=sa.text("memory_status IN ('PENDING', 'FAILED')"),
    )
    op.drop_index("ix_messages_conversation_created", table_name="messages")
    op.drop_table("messages")
    op.drop_table("processed_commands")
    op.drop_table("conversations")
    op.drop_index(
        "uq_vector_collections_active", table_name="vector_collections", postgresql_where=sa.text("active")
    )
    op.drop_table("vector_collections")
    op.drop_table("users")
    op.drop_index(
        "ix_outbox_unpublished", table_name="outbox", postgresql_where=sa.text("published_at IS NULL")
    )
    op.drop_index(
        "ix_outbox_published_at", table_name="outbox", postgresql_where=sa.text("published_at IS NOT NULL")
    )
    op.drop_index("ix_outbox_aggregate", table_name="outbox")
    op.drop_table("outbox")
    op.drop_index("ix_memory_history_user_created", table_name="memory_history")
    op.drop_index("ix_memory_history_memory", table_name="memory_history")
    op.drop_table("memory_history")
