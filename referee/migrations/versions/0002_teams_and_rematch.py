"""Teams (a seat's team, for Samba) and rematches (a table that follows another).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22

Both columns are plain nullable additions: ``ALTER TABLE ... ADD COLUMN`` on SQLite and
PostgreSQL alike, with no table rebuild. ``follows`` is deliberately not a foreign key: adding
one on SQLite would mean rebuilding ``game_table``, and with foreign keys on, dropping the old
copy would cascade to every seat and hand. The ledger only ever writes ids it has just read.
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("seat", sa.Column("team", sa.Integer(), nullable=True))
    op.add_column("game_table", sa.Column("follows", sa.String(length=32), nullable=True))
    # Unique: two phones asking for a rematch at once make one, the other gets a conflict.
    op.create_index("ix_game_table_follows", "game_table", ["follows"], unique=True)


def downgrade():
    op.drop_index("ix_game_table_follows", table_name="game_table")
    op.drop_column("game_table", "follows")
    op.drop_column("seat", "team")
