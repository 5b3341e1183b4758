"""Clubs: the server's clubs, and every row marked with the club it belongs to.

What the server held before becomes its first club (id 1, the one `make run` serves); every
other table gains ``club_id`` (1 for the rows already there) and an index on it.

On SQLite the column is added in place: a NOT NULL column with a plain default needs no table
rebuild (a rebuild would drop tables whose children cascade on delete). No foreign key to
``club``: SQLite cannot add one in place while foreign keys are on, and a club's rows are removed
with it by the application, which owns that boundary.

``rating_claim`` (who brings a game's ratings up to date now) becomes one row per club and game:
made again with that key, its leases dropped (a claim lapses by itself within a minute anyway).

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-29
"""

from datetime import datetime, timezone

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

#: Every table but ``club``: what a club holds.
OWNED = (
    "game_table",
    "seat",
    "hand",
    "hand_delta",
    "hand_event",
    "access",
    "phone_hold",
    "join_attempt",
    "idempotency_key",
    "member",
    "season",
    "rating",
    "rating_run",
    "championship",
    "champ_entry",
    "champ_reentry",
    "champ_event",
    "champ_round",
    "champ_table",
    "champ_card",
    "champ_team",
)


def upgrade():
    club = op.create_table(
        "club",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("slug"),
    )
    op.bulk_insert(club, [{"slug": "clube", "name": "Clube", "created_at": datetime.now(timezone.utc)}])
    for table in OWNED:
        op.add_column(table, sa.Column("club_id", sa.Integer(), server_default="1", nullable=False))
        op.create_index(f"ix_{table}_club_id", table, ["club_id"])
    op.drop_table("rating_claim")
    _rating_claim(sa.Column("club_id", sa.Integer(), server_default="1", nullable=False), key=("club_id", "game"))


def _rating_claim(*extra, key):
    op.create_table(
        "rating_claim",
        *extra,
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("holder", sa.String(length=120), nullable=False),
        sa.Column("held_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("asked_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("taken", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint(*key),
    )


def downgrade():
    op.drop_table("rating_claim")
    _rating_claim(key=("game",))
    for table in OWNED:
        op.drop_index(f"ix_{table}_club_id", table_name=table)
        op.drop_column(table, "club_id")
    op.drop_table("club")
