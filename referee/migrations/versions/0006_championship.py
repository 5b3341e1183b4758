"""Championships: entries with numbers, re-entries, drawn rounds and their tables, and a
table's set number of deals (a round that ends after so many deals).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game_table") as batch:
        batch.add_column(sa.Column("deals", sa.Integer(), nullable=True))
    op.create_table(
        "championship",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("locale", sa.String(length=8), nullable=False),
        sa.Column("chips", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=True),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("late_until", sa.Integer(), nullable=False),
        sa.Column("reentries", sa.Integer(), nullable=False),
        sa.Column("reentry_points", sa.String(length=16), nullable=False),
        sa.Column("tiebreaks", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "champ_entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("championship_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=40), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=True),
        sa.Column("first_round", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["championship_id"], ["championship.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("championship_id", "number"),
        sa.UniqueConstraint("championship_id", "name_key"),
    )
    op.create_index("ix_champ_entry_championship_id", "champ_entry", ["championship_id"])
    op.create_table(
        "champ_reentry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("championship_id", sa.String(length=32), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("chips", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=60), nullable=False),
        sa.ForeignKeyConstraint(["championship_id"], ["championship.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["entry_id"], ["champ_entry.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_champ_reentry_championship_id", "champ_reentry", ["championship_id"])
    op.create_table(
        "champ_round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("championship_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(length=40), nullable=False),
        sa.Column("drawn_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["championship_id"], ["championship.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("championship_id", "number"),
    )
    op.create_index("ix_champ_round_championship_id", "champ_round", ["championship_id"])
    op.create_table(
        "champ_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("championship_id", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("entries", sa.JSON(), nullable=False),
        sa.Column("counts", sa.JSON(), nullable=True),
        sa.Column("counted_by", sa.String(length=60), nullable=False),
        sa.Column("scorer_access", sa.Integer(), nullable=True),
        sa.Column("fiscal_access", sa.Integer(), nullable=True),
        sa.Column("signed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("signed_by", sa.String(length=60), nullable=False),
        sa.ForeignKeyConstraint(["championship_id"], ["championship.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"]),
        sa.ForeignKeyConstraint(["scorer_access"], ["access.id"]),
        sa.ForeignKeyConstraint(["fiscal_access"], ["access.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("championship_id", "round", "number"),
        sa.UniqueConstraint("table_id"),
    )
    op.create_index("ix_champ_table_championship_id", "champ_table", ["championship_id"])


def downgrade():
    op.drop_table("champ_table")
    op.drop_table("champ_round")
    op.drop_table("champ_reentry")
    op.drop_table("champ_entry")
    op.drop_table("championship")
    with op.batch_alter_table("game_table") as batch:
        batch.drop_column("deals")
