"""message ids scoped by user: unique (user_id, upstream_message_id) instead of unique upstream_message_id

Two users may send the same upstream message id (a chat service that numbers conversations per user
does); before this, the second user's message was dropped by ``ON CONFLICT DO NOTHING``.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04 15:20:00
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_unique_constraint("uq_messages_user_upstream", "messages", ["user_id", "upstream_message_id"])
    op.drop_constraint("messages_upstream_message_id_key", "messages", type_="unique")


def downgrade() -> None:
    # fails (unique violation) when two users now share an id: the old schema cannot hold that data
    op.create_unique_constraint("messages_upstream_message_id_key", "messages", ["upstream_message_id"])
    op.drop_constraint("uq_messages_user_upstream", "messages", type_="unique")
