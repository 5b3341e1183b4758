"""The draw plans the rounds left together: each round keeps how many it planned, so running
its draw again gives the same tables (None for a round drawn alone, as before).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("champ_round") as batch:
        batch.add_column(sa.Column("planned", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("champ_round") as batch:
        batch.drop_column("planned")
