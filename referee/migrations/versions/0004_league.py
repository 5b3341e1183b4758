"""The league: club members, seasons, ratings; the seats' running counters; the session clock.

Existing seats get a member each (one per distinct name, matched without regard to case) and
their counters from the live hands, so standings include the tables played before this schema.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from collections import defaultdict
from datetime import datetime, timezone

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "member",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=40), nullable=True),
        sa.Column("pix_key", sa.String(length=77), server_default="", nullable=False),
        sa.Column("pix_city", sa.String(length=15), server_default="", nullable=False),
        sa.Column("merged_into", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["merged_into"], ["member.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name_key"),
    )
    op.create_table(
        "season",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=False),
        sa.Column("ends_on", sa.Date(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "rating",
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"]),
        sa.PrimaryKeyConstraint("member_id", "game"),
    )
    op.create_table(
        "rating_run",
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("game"),
    )
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("member_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("net", sa.Integer(), server_default=sa.text("0"), nullable=False))
        batch.add_column(sa.Column("played", sa.Integer(), server_default=sa.text("0"), nullable=False))
        batch.add_column(sa.Column("won", sa.Boolean(), server_default=sa.text("false"), nullable=False))
        batch.create_foreign_key("fk_seat_member_id_member", "member", ["member_id"], ["id"])
        batch.create_index("ix_seat_member_id", ["member_id"], unique=False)
    op.add_column("game_table", sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_game_table_game_created_at", "game_table", ["game", "created_at"], unique=False)
    _backfill()


def _backfill():
    """Members for the seats already there, and the seats' net and played counts."""
    bind = op.get_bind()
    seats = bind.execute(sa.text("SELECT id, table_id, position, name FROM seat ORDER BY id")).all()
    members = {}
    now = datetime.now(timezone.utc)
    for seat_id, _table, _position, name in seats:
        key = name.casefold()[:40]
        if key not in members:
            bind.execute(
                sa.text("INSERT INTO member (name, name_key, pix_key, pix_city, created_at) VALUES (:n, :k, '', '', :at)"),
                {"n": name, "k": key, "at": now},
            )
            members[key] = bind.execute(sa.text("SELECT id FROM member WHERE name_key = :k"), {"k": key}).scalar_one()
        bind.execute(sa.text("UPDATE seat SET member_id = :m WHERE id = :s"), {"m": members[key], "s": seat_id})
    live = "NOT EXISTS (SELECT 1 FROM hand_event e WHERE e.hand_id = h.id AND e.kind = 'void')"
    net = defaultdict(int)
    for table_id, position, amount in bind.execute(
        sa.text(f"SELECT h.table_id, d.seat, SUM(d.amount) FROM hand_delta d JOIN hand h ON h.id = d.hand_id WHERE {live} GROUP BY h.table_id, d.seat")
    ):
        net[(table_id, position)] = int(amount)
    played = dict(bind.execute(sa.text(f"SELECT h.table_id, COUNT(*) FROM hand h WHERE {live} GROUP BY h.table_id")).all())
    for seat_id, table_id, position, _name in seats:
        bind.execute(
            sa.text("UPDATE seat SET net = :net, played = :played WHERE id = :s"),
            {"net": net[(table_id, position)], "played": int(played.get(table_id, 0)), "s": seat_id},
        )


def downgrade():
    op.drop_index("ix_game_table_game_created_at", table_name="game_table")
    op.drop_column("game_table", "ends_at")
    with op.batch_alter_table("seat") as batch:
        batch.drop_index("ix_seat_member_id")
        batch.drop_constraint("fk_seat_member_id_member", type_="foreignkey")
        batch.drop_column("won")
        batch.drop_column("played")
        batch.drop_column("net")
        batch.drop_column("member_id")
    op.drop_table("rating_run")
    op.drop_table("rating")
    op.drop_table("season")
    op.drop_table("member")
