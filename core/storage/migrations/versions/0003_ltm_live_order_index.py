"""index for SQL-side list_live: a user's active memories in read order

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03 13:20:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_ltm_user_live_order",
        "long_term_memories",
        ["user_id", sa.text("importance DESC"), sa.text("updated_at DESC"), "id"],
        unique=False,
        postgresql_where=sa.text("is_active IS TRUE"),
    )


def downgrade() -> None:
    op.drop_index("ix_ltm_user_live_order", table_name="long_term_memories",
                  postgresql_where=sa.text("is_active IS TRUE"))
