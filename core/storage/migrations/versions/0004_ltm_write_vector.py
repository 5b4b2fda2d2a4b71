"""write-side vector on long_term_memories: the indexer reuses what semantic dedup computed

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03 16:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("long_term_memories", sa.Column("write_vector", sa.LargeBinary(), nullable=True))
    op.add_column("long_term_memories", sa.Column("write_vector_model", sa.String(length=120), nullable=True))
    op.add_column("long_term_memories", sa.Column("write_vector_hash", sa.String(length=64), nullable=True))


def downgrade() -> None:
    op.drop_column("long_term_memories", "write_vector_hash")
    op.drop_column("long_term_memories", "write_vector_model")
    op.drop_column("long_term_memories", "write_vector")
