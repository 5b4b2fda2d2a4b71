"""erased users: suppression list written by pai-memory forget-user

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02 13:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "erased_users",
        sa.Column("user_hash", sa.String(length=64), nullable=False),
        sa.Column("user_pk", sa.Integer(), nullable=False),
        sa.Column("erased_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.PrimaryKeyConstraint("user_hash"),
    )


def downgrade() -> None:
    op.drop_table("erased_users")
