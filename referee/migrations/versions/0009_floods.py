"""One import at a time (referee/import_claim.py: a claim row that lapses by itself), and wrong
guesses remember the client's network (its IPv4 address, or its IPv6 /64 prefix), so a
script changing cookies is held by its own network's ceiling and a flood from one network no
longer locks out the others. Older rows have none: they count for their phone and all together.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "import_claim",
        sa.Column("name", sa.String(length=16), nullable=False),
        sa.Column("holder", sa.String(length=120), nullable=False),
        sa.Column("held_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("name"),
    )
    with op.batch_alter_table("join_attempt") as batch:
        batch.add_column(sa.Column("network", sa.String(length=64), nullable=True))
    op.create_index(op.f("ix_join_attempt_network"), "join_attempt", ["network"], unique=False)


def downgrade():
    op.drop_table("import_claim")
    op.drop_index(op.f("ix_join_attempt_network"), table_name="join_attempt")
    with op.batch_alter_table("join_attempt") as batch:
        batch.drop_column("network")
