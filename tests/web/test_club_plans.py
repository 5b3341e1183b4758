"""On PostgreSQL no statement runs on a plan made for some other club.

psycopg prepares a statement on the server after its fifth run, and PostgreSQL may then keep one
generic plan for every value of its parameters. Clubs share the tables and differ in size by
orders of magnitude, so a plan fit for the average club reads the whole of a big club's index
(referee/db.py). Here a statement the save path issues runs often enough to be prepared, on a
connection the app's pool has handed out and taken back before: every run was planned for its
own values.
"""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from referee.db import db
from referee.models import Seat
from tests.conftest import TEST_DATABASE_URL

from .test_ratings import table_of

pytestmark = pytest.mark.skipif(
    not TEST_DATABASE_URL.startswith("postgresql"),
    reason="plans of prepared statements are PostgreSQL's: the PostgreSQL pass of make test (TEST_DATABASE_URL) runs this",
)


def test_a_prepared_statement_is_planned_for_each_clubs_values(app: Flask, client: FlaskClient) -> None:
    table = table_of(client, "jubileu", ("Ana", "Bia", "Caio", "Dani"))
    with app.app_context():
        db.engine.dispose()  # the connections below are new ones, opened by the app's engine
        with db.engine.connect() as first:
            first.exec_driver_sql("SELECT 1")  # then back to the pool, which rolls it back
        with db.engine.connect() as connection:
            seats = select(Seat.name, Seat.team).where(Seat.table_id == table["id"], Seat.club_id == 1)
            for _ in range(12):
                assert len(connection.execute(seats).all()) == 4
            generic, custom = connection.exec_driver_sql(
                "SELECT coalesce(sum(generic_plans), 0), coalesce(sum(custom_plans), 0) FROM pg_prepared_statements"
                " WHERE strpos(statement, 'FROM seat') > 0"
            ).one()
    assert custom >= 6  # prepared after the fifth run, and planned at every run after that
    assert generic == 0
