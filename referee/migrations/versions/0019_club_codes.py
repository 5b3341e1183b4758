"""A hosted club's own code (kept as a slow hash), its suspension by the server's operator, and
the network a club made from the home page came from (hashed: what the limit per address counts).

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade():
    # On SQLite the table is made again with AUTOINCREMENT: a deleted club's id is never given to
    # a new club (whatever a request in flight during the deletion wrote under it stays nobody's).
    # Nothing refers to club, so the rebuild touches no other table.
    kwargs = {"recreate": "always", "table_kwargs": {"sqlite_autoincrement": True}}
    with op.batch_alter_table("club", **(kwargs if op.get_bind().dialect.name == "sqlite" else {})) as batch:
        batch.add_column(sa.Column("code_digest", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("created_from", sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table("club") as batch:
        batch.drop_column("created_from")
        batch.drop_column("suspended_at")
        batch.drop_column("code_digest")
