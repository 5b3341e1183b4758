"""A member's name is unique within his club, and a game's ratings run is kept per club.

Two clubs may each have an "Ana": ``member.name_key`` was unique on the whole server (0004) and
is now unique per club; ``rating_run`` (how far a game's ratings have read) is keyed by club and
game, as ``rating_claim`` is since 0017.

On SQLite a table's UNIQUE constraint goes only with the table, so ``member`` is made again.
Seats, ratings, entries and merged members refer to it while foreign keys are enforced: its rows
wait in a plain table while it is dropped and made again, and the deferred check (counted per
missing parent, settled as each parent row comes back) finds every reference whole at commit.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade():
    _member_unique(("club_id", "name_key"), old="uq_member_name_key", new="uq_member_club_id_name_key")
    _rating_run_key(("club_id", "game"))


def downgrade():
    clubs = op.get_bind().exec_driver_sql("SELECT count(*) FROM club").scalar()
    if clubs and clubs > 1:
        raise RuntimeError(
            "This server hosts several clubs: below 0018 two clubs' members could not share a name."
            " Delete the other clubs first (flask --app referee clubs delete)."
        )
    _rating_run_key(("game",))
    _member_unique(("name_key",), old="uq_member_club_id_name_key", new="uq_member_name_key")


def _member_unique(columns, *, old, new):
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(old, "member", type_="unique")
        op.create_unique_constraint(new, "member", list(columns))
        return
    if not op.get_bind().connection.driver_connection.in_transaction:
        op.execute("BEGIN")  # Python's sqlite3 runs DDL outside a transaction: the deferral needs one
    op.execute("PRAGMA defer_foreign_keys = ON")  # until this transaction's end
    op.execute("CREATE TABLE _member_rows AS SELECT * FROM member")
    op.drop_index("ix_member_club_id", table_name="member")
    op.execute("DROP TABLE member")
    op.create_table(
        "member",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=40), nullable=True),
        sa.Column("pix_key", sa.String(length=77), server_default="", nullable=False),
        sa.Column("pix_city", sa.String(length=15), server_default="", nullable=False),
        sa.Column("merged_into", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("club_id", sa.Integer(), server_default="1", nullable=False),
        sa.ForeignKeyConstraint(["merged_into"], ["member.id"], name="fk_member_merged_into_member"),
        sa.PrimaryKeyConstraint("id", name="pk_member"),
        sa.UniqueConstraint(*columns, name=new),
    )
    names = "id, name, name_key, pix_key, pix_city, merged_into, created_at, club_id"
    op.execute(f"INSERT INTO member ({names}) SELECT {names} FROM _member_rows")
    op.execute("DROP TABLE _member_rows")
    op.create_index("ix_member_club_id", "member", ["club_id"])


def _rating_run_key(columns):
    with op.batch_alter_table("rating_run", recreate="always") as batch:
        batch.drop_constraint("pk_rating_run", type_="primary")
        batch.create_primary_key("pk_rating_run", list(columns))
