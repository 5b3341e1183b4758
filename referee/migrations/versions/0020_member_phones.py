"""Phones bound to a member through a one-time link (``member_phone``).

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "member_phone",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("link_hash", sa.String(length=64), nullable=False),
        sa.Column("link_expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=True),
        sa.Column("device", sa.String(length=16), nullable=False),
        sa.Column("made_by", sa.String(length=60), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("bound_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("club_id", sa.Integer(), server_default="1", nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key_hash"),
        sa.UniqueConstraint("link_hash"),
    )
    op.create_index("ix_member_phone_club_id", "member_phone", ["club_id"])
    op.create_index("ix_member_phone_member_id", "member_phone", ["member_id"])


def downgrade():
    op.drop_table("member_phone")
