"""Entries that leave the draw (withdrawn, absent, disqualified with a reason), re-entries undone
rather than erased, and when a table recorded hand by hand takes a re-entry.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("champ_entry") as batch:
        batch.add_column(sa.Column("status", sa.String(length=16), nullable=False, server_default=""))
        batch.add_column(sa.Column("status_reason", sa.String(length=200), nullable=False, server_default=""))
    with op.batch_alter_table("champ_reentry") as batch:
        batch.add_column(sa.Column("undone_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("undone_by", sa.String(length=60), nullable=False, server_default=""))
    with op.batch_alter_table("championship") as batch:
        batch.add_column(sa.Column("reentry_when", sa.String(length=16), nullable=False, server_default="out"))


def downgrade():
    with op.batch_alter_table("championship") as batch:
        batch.drop_column("reentry_when")
    with op.batch_alter_table("champ_reentry") as batch:
        batch.drop_column("undone_by")
        batch.drop_column("undone_at")
    with op.batch_alter_table("champ_entry") as batch:
        batch.drop_column("status_reason")
        batch.drop_column("status")
