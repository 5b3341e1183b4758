"""Ratings: a claim per game, so one process at a time brings a game's ratings up to date.

A row names the process at work (``holder``) and when its claim lapses unless renewed
(``held_until``: a crashed run's claim frees itself), counts the runs that took it (``taken``),
and says until when a catch-up process a page started is awaited (``asked_until``). See
referee/ratings.py. Nothing to backfill: a game without a row is free.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "rating_claim",
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("holder", sa.String(length=120), nullable=False),
        sa.Column("held_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("asked_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("taken", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("game"),
    )


def downgrade():
    op.drop_table("rating_claim")
