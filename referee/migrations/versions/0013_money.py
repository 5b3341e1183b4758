"""The money of a championship day: the entry and re-entry fees, the Pix key that receives them,
and on each entry and re-entry the fee the desk ticked as received.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("championship") as batch:
        batch.add_column(sa.Column("entry_fee", sa.String(length=16), nullable=False, server_default="0"))
        batch.add_column(sa.Column("reentry_fee", sa.String(length=16), nullable=False, server_default="0"))
        batch.add_column(sa.Column("pix_key", sa.String(length=77), nullable=False, server_default=""))
        batch.add_column(sa.Column("pix_city", sa.String(length=15), nullable=False, server_default=""))
    with op.batch_alter_table("champ_entry") as batch:
        batch.add_column(sa.Column("fee_paid", sa.String(length=16), nullable=True))
    with op.batch_alter_table("champ_reentry") as batch:
        batch.add_column(sa.Column("fee_paid", sa.String(length=16), nullable=True))


def downgrade():
    with op.batch_alter_table("champ_reentry") as batch:
        batch.drop_column("fee_paid")
    with op.batch_alter_table("champ_entry") as batch:
        batch.drop_column("fee_paid")
    with op.batch_alter_table("championship") as batch:
        for name in ("pix_city", "pix_key", "reentry_fee", "entry_fee"):
            batch.drop_column(name)
