"""Hands: an index on when each was recorded, the order the ratings are computed in.

The ratings read the hands in play order (referee.ratings.played_order), and a refresh asks
whether a hand stored since its last run was played before one it read: with this index that
reads only the hands recorded after the new one. Nothing to backfill.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-29
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index("ix_hand_created_at", "hand", ["created_at"])


def downgrade():
    op.drop_index("ix_hand_created_at", table_name="hand")
