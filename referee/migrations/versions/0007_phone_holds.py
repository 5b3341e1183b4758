"""What each phone holds moves from its cookie to the server (``phone_hold``: hashes only), and
an access remembers the access its maker came through (revoking one revokes what it made) and
the hand-over link it was opened with (such a link works once).

Phones with an older cookie move their tokens here on their next request (referee.keyring).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("access") as batch:
        batch.add_column(sa.Column("created_by", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("spent_hash", sa.String(length=64), nullable=True))
        batch.create_foreign_key("fk_access_created_by", "access", ["created_by"], ["id"])
        batch.create_unique_constraint("uq_access_spent_hash", ["spent_hash"])
        batch.create_index("ix_access_created_by", ["created_by"])
    op.create_table(
        "phone_hold",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("phone_hash", sa.String(length=64), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("owned", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("phone_hash", "table_id"),
    )
    op.create_index("ix_phone_hold_phone_hash", "phone_hold", ["phone_hash"])
    op.create_index("ix_phone_hold_table_id", "phone_hold", ["table_id"])


def downgrade():
    # What every phone holds lives only in phone_hold (their cookies carry a key, no token):
    # dropping it would take the scoring and owner's rights of every phone at once.
    if op.get_bind().execute(sa.text("SELECT 1 FROM phone_hold LIMIT 1")).first() is not None:
        raise RuntimeError(
            "Refusing to downgrade below 0007: phone_hold holds what each phone may do at its tables "
            "(their cookies carry no token any more), so every phone would lose its scoring and owner's rights."
        )
    op.drop_index("ix_phone_hold_table_id", table_name="phone_hold")
    op.drop_index("ix_phone_hold_phone_hash", table_name="phone_hold")
    op.drop_table("phone_hold")
    with op.batch_alter_table("access") as batch:
        batch.drop_index("ix_access_created_by")
        batch.drop_constraint("uq_access_spent_hash", type_="unique")
        batch.drop_constraint("fk_access_created_by", type_="foreignkey")
        batch.drop_column("spent_hash")
        batch.drop_column("created_by")
