"""A championship day's history (champ_event): every registration, re-entry, count, signature
and correction the committee makes is kept with who and when, never overwritten.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "champ_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("championship_id", sa.String(length=32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=60), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=True),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("table", sa.Integer(), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["championship_id"], ["championship.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["entry_id"], ["champ_entry.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_champ_event_championship_id", "champ_event", ["championship_id"])


def downgrade():
    op.drop_index("ix_champ_event_championship_id", table_name="champ_event")
    op.drop_table("champ_event")
