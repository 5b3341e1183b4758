"""On PostgreSQL, every club-owned table shows a statement only the rows of the club the
application told the database (``referee.club``, set per transaction by referee/club_scope.py):
row-level security, forced on the tables' owner too. A statement the application forgot to limit
still sees one club's rows; a connection that told nothing sees none; ``all`` is the operator's
reads across clubs. (A superuser bypasses row-level security: the app connects as its own role.)

SQLite has no row-level security: there the application's scope is the boundary.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-29
"""

from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

#: Every table that carries ``club_id`` (0017, and member_phone from 0020).
OWNED = (
    "game_table",
    "seat",
    "hand",
    "hand_delta",
    "hand_event",
    "access",
    "phone_hold",
    "join_attempt",
    "idempotency_key",
    "member",
    "season",
    "rating",
    "rating_run",
    "rating_claim",
    "championship",
    "champ_entry",
    "champ_reentry",
    "champ_event",
    "champ_round",
    "champ_table",
    "champ_card",
    "champ_team",
    "member_phone",
)

CLUB_FUNCTIONS = """
CREATE OR REPLACE FUNCTION referee_club() RETURNS integer LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN current_setting('referee.club', true) ~ '^[0-9]{1,9}$'
                THEN current_setting('referee.club', true)::integer END
$$;
CREATE OR REPLACE FUNCTION referee_all_clubs() RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT coalesce(current_setting('referee.club', true) = 'all', false)
$$;
"""


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(CLUB_FUNCTIONS)
    for table in OWNED:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(
            f"CREATE POLICY club_rows ON {table}"
            " USING (referee_all_clubs() OR club_id = referee_club())"
            " WITH CHECK (referee_all_clubs() OR club_id = referee_club())"
        )


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in OWNED:
        op.execute(f"DROP POLICY club_rows ON {table}")
        op.execute(f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
    op.execute("DROP FUNCTION referee_all_clubs(); DROP FUNCTION referee_club();")
