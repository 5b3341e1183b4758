"""One set of table cards for the day (champ_card): per table number, the generation its
scorer's and fiscal's cards are derived from; new cards move it on.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "champ_card",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("championship_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["championship_id"], ["championship.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("championship_id", "number"),
    )
    op.create_index("ix_champ_card_championship_id", "champ_card", ["championship_id"])


def downgrade():
    op.drop_index("ix_champ_card_championship_id", table_name="champ_card")
    op.drop_table("champ_card")
