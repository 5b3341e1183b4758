"""On PostgreSQL the boundary between clubs also holds below the application.

Row-level security (migration 0021) shows a statement only the rows of the club the application
told the database for its transaction (referee/club_scope.py): a query written without any club
filter, on a connection as the app's own role (not a superuser, which PostgreSQL lets past every
policy), sees one club's rows; told nothing, it sees none; a row cannot be moved to another club.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import ProgrammingError

from referee.club_scope import HOME_CLUB, serving
from referee.db import db
from tests.conftest import TEST_DATABASE_URL

from .club_support import add_club, phone_at
from .test_ratings import play, table_of

pytestmark = pytest.mark.skipif(
    not TEST_DATABASE_URL.startswith("postgresql"),
    reason="row-level security is PostgreSQL's: the PostgreSQL pass of make test (TEST_DATABASE_URL) runs this",
)

ROLE = "referee_rls_probe"


@pytest.fixture
def two_clubs(app: Flask, client: FlaskClient) -> Iterator[int]:
    other = add_club(app, "outro")
    phone = phone_at(app, "outro")
    play(
        client,
        table_of(client, "jubileu", ("Ana", "Bia", "Caio", "Dani")),
        "jubileu",
        ("Ana", "Bia", "Caio", "Dani"),
        range(2),
    )
    play(
        phone, table_of(phone, "jubileu", ("Lia", "Rui", "Gal", "Zé")), "jubileu", ("Lia", "Rui", "Gal", "Zé"), range(3)
    )
    with app.app_context(), db.engine.begin() as setup:
        setup.exec_driver_sql(
            f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{ROLE}') THEN"
            f" CREATE ROLE {ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS; END IF; END $$"
        )
        setup.exec_driver_sql(f"GRANT SELECT, UPDATE ON ALL TABLES IN SCHEMA public TO {ROLE}")
    yield other
    with app.app_context(), db.engine.begin() as teardown:
        teardown.exec_driver_sql(f"DROP OWNED BY {ROLE}")
        teardown.exec_driver_sql(f"DROP ROLE {ROLE}")


def _clubs_seen(connection: Connection, told: str) -> dict[int, int]:
    """Hands per club that an unfiltered query sees, the database told ``told``."""
    connection.exec_driver_sql("SELECT set_config('referee.club', %(v)s, true)", {"v": told})
    rows = connection.exec_driver_sql("SELECT club_id, count(*) FROM hand GROUP BY club_id").all()
    return {int(club): int(n) for club, n in rows}


def test_a_query_without_the_clubs_filter_sees_one_clubs_rows(app: Flask, two_clubs: int) -> None:
    other = two_clubs
    with app.app_context(), db.engine.connect() as raw, raw.begin():
        raw.exec_driver_sql(f"SET LOCAL ROLE {ROLE}")
        assert _clubs_seen(raw, str(HOME_CLUB)) == {HOME_CLUB: 2}
        assert _clubs_seen(raw, str(other)) == {other: 3}
        assert _clubs_seen(raw, "") == {}
        assert _clubs_seen(raw, "all") == {HOME_CLUB: 2, other: 3}
        # Another club's rows cannot be changed, nor a row moved to another club.
        raw.exec_driver_sql("SELECT set_config('referee.club', %(v)s, true)", {"v": str(other)})
        assert raw.exec_driver_sql(f"UPDATE game_table SET name = 'x' WHERE club_id = {HOME_CLUB}").rowcount == 0
    with app.app_context(), pytest.raises(ProgrammingError, match="row-level security"):
        with db.engine.connect() as raw, raw.begin():
            raw.exec_driver_sql(f"SET LOCAL ROLE {ROLE}")
            raw.exec_driver_sql("SELECT set_config('referee.club', %(v)s, true)", {"v": str(other)})
            raw.exec_driver_sql(f"UPDATE game_table SET club_id = {HOME_CLUB}")


def test_the_app_tells_the_database_its_club_for_every_transaction(app: Flask, two_clubs: int) -> None:
    """The app's own session, as its own role, with a statement that names no club."""
    other = two_clubs
    unfiltered = text("SELECT count(*) FROM hand")
    with app.app_context():
        for club, hands in ((HOME_CLUB, 2), (other, 3)):
            with serving(club):
                db.session.connection().exec_driver_sql(f"SET LOCAL ROLE {ROLE}")
                assert db.session.execute(unfiltered).scalar() == hands
                db.session.rollback()
