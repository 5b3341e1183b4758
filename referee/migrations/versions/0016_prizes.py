"""A championship's prize table, its teams for the team prize, and the option to seal the round.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("championship") as batch:
        batch.add_column(sa.Column("sealed", sa.Boolean(), nullable=False, server_default=sa.text("false")))
        batch.add_column(sa.Column("prizes", sa.JSON(), nullable=False, server_default=sa.text("'{}'")))
    op.create_table(
        "champ_team",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("championship_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=40), nullable=False),
        sa.Column("entries", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["championship_id"], ["championship.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("championship_id", "name_key"),
    )
    op.create_index("ix_champ_team_championship_id", "champ_team", ["championship_id"])


def downgrade():
    op.drop_index("ix_champ_team_championship_id", table_name="champ_team")
    op.drop_table("champ_team")
    with op.batch_alter_table("championship") as batch:
        batch.drop_column("prizes")
        batch.drop_column("sealed")
