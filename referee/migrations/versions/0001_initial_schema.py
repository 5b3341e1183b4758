"""Initial schema: tables, seats, hands, hand events, idempotency keys.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "game_table",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("locale", sa.String(length=8), nullable=False),
        sa.Column("scorer_token_hash", sa.String(length=64), nullable=False),
        sa.Column("first_dealer", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("last_round_from", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_table")),
    )
    op.create_table(
        "hand",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.String(length=60), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("dealer", sa.String(length=40), nullable=False),
        sa.Column("next_dealer", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_table.id"],
            name=op.f("fk_hand_table_id_game_table"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand")),
        sa.UniqueConstraint("table_id", "number", name=op.f("uq_hand_table_id_number")),
    )
    op.create_index(op.f("ix_hand_table_id"), "hand", ["table_id"], unique=False)
    op.create_index("ix_hand_table_id_position", "hand", ["table_id", "position"], unique=False)
    op.create_table(
        "hand_delta",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hand.id"], name=op.f("fk_hand_delta_hand_id_hand"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand_delta")),
        sa.UniqueConstraint("hand_id", "seat", name=op.f("uq_hand_delta_hand_id_seat")),
    )
    op.create_table(
        "idempotency_key",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_table.id"],
            name=op.f("fk_idempotency_key_table_id_game_table"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_idempotency_key")),
        sa.UniqueConstraint("table_id", "key", name=op.f("uq_idempotency_key_table_id_key")),
    )
    op.create_index(
        op.f("ix_idempotency_key_table_id"), "idempotency_key", ["table_id"], unique=False
    )
    op.create_table(
        "seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_table.id"],
            name=op.f("fk_seat_table_id_game_table"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat")),
        sa.UniqueConstraint("table_id", "name", name=op.f("uq_seat_table_id_name")),
        sa.UniqueConstraint("table_id", "position", name=op.f("uq_seat_table_id_position")),
    )
    op.create_index(op.f("ix_seat_table_id"), "seat", ["table_id"], unique=False)
    op.create_table(
        "hand_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("actor", sa.String(length=60), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hand.id"], name=op.f("fk_hand_event_hand_id_hand"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand_event")),
    )
    op.create_index(op.f("ix_hand_event_hand_id"), "hand_event", ["hand_id"], unique=False)
    # One void per hand, even when two phones void it at the same moment.
    op.create_index(
        "uq_hand_event_one_void",
        "hand_event",
        ["hand_id"],
        unique=True,
        sqlite_where=sa.text("kind = 'void'"),
        postgresql_where=sa.text("kind = 'void'"),
    )


def downgrade():
    op.drop_table("hand_delta")
    op.drop_index("ix_hand_table_id_position", table_name="hand")
    op.drop_index("uq_hand_event_one_void", table_name="hand_event")
    op.drop_index(op.f("ix_hand_event_hand_id"), table_name="hand_event")
    op.drop_table("hand_event")
    op.drop_index(op.f("ix_seat_table_id"), table_name="seat")
    op.drop_table("seat")
    op.drop_index(op.f("ix_idempotency_key_table_id"), table_name="idempotency_key")
    op.drop_table("idempotency_key")
    op.drop_index(op.f("ix_hand_table_id"), table_name="hand")
    op.drop_table("hand")
    op.drop_table("game_table")
