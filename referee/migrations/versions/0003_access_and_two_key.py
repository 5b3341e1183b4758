"""Scoring links and join codes (access), the join-code rate limit, two-key entry.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("game_table", sa.Column("two_key", sa.Boolean(), nullable=False, server_default=sa.text("false")))
    op.create_table(
        "access",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("label", sa.String(length=40), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=True),
        sa.Column("code_hash", sa.String(length=64), nullable=True),
        sa.Column("code_expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
        sa.UniqueConstraint("code_hash"),
    )
    op.create_index(op.f("ix_access_table_id"), "access", ["table_id"], unique=False)
    op.create_table(
        "join_attempt",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ok", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_join_attempt_client"), "join_attempt", ["client"], unique=False)
    op.create_index(op.f("ix_join_attempt_at"), "join_attempt", ["at"], unique=False)


def downgrade():
    op.drop_index(op.f("ix_join_attempt_at"), table_name="join_attempt")
    op.drop_index(op.f("ix_join_attempt_client"), table_name="join_attempt")
    op.drop_table("join_attempt")
    op.drop_index(op.f("ix_access_table_id"), table_name="access")
    op.drop_table("access")
    op.drop_column("game_table", "two_key")
