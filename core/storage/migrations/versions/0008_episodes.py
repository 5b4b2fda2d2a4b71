"""episodes: passages of what the user said, indexed beside the memories (issue 25)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 15:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "episodes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("conversation_id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("passage_index", sa.Integer(), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("vector_status", sa.String(length=20), server_default="DIRTY", nullable=False),
        sa.Column("vector_synced_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("vector_error", sa.Text(), nullable=True),
        sa.Column("vector_model", sa.String(length=120), nullable=True),
        sa.Column("vector_text_hash", sa.String(length=64), nullable=True),
        sa.Column("write_vector", sa.LargeBinary(), nullable=True),
        sa.Column("write_vector_model", sa.String(length=120), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["conversation_id"], ["conversations.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["message_id"], ["messages.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("message_id", "passage_index", name="uq_episodes_message_passage"),
    )
    op.create_index("ix_episodes_user_sent", "episodes", ["user_id", "sent_at"])
    op.create_index("ix_episodes_vector_status", "episodes", ["vector_status", "updated_at"],
                    postgresql_where=sa.text("vector_status IN ('DIRTY', 'FAILED')"))
    op.create_index("ix_episodes_expires_at", "episodes", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_episodes_expires_at", table_name="episodes")
    op.drop_index("ix_episodes_vector_status", table_name="episodes")
    op.drop_index("ix_episodes_user_sent", table_name="episodes")
    op.drop_table("episodes")
