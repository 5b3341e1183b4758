"""A championship's life: re-entries per round may have no limit (NULL), a table of five's
deals follow a setting, and a championship can be archived.

Existing championships keep what they stored: their limit of re-entries, their reading of a
re-entry's chips, and "per_table" for the tables of five (what they played until now).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("championship") as batch:
        batch.alter_column("reentries", existing_type=sa.Integer(), nullable=True)
        batch.add_column(sa.Column("five_deals", sa.String(length=16), nullable=False, server_default="per_table"))
        batch.add_column(sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True))


def downgrade():
    op.execute("UPDATE championship SET reentries = 9 WHERE reentries IS NULL")
    with op.batch_alter_table("championship") as batch:
        batch.drop_column("archived_at")
        batch.drop_column("five_deals")
        batch.alter_column("reentries", existing_type=sa.Integer(), nullable=False)
