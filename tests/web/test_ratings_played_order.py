"""Ratings follow the order the hands were played (referee.ratings.played_order), not the order
their rows were stored: a backup restored into an empty database, and an import, give every
player the same rating as the live server, to the last digit. A restore stores each table's
hands together, so two tables played at the same time get their hands' ids in another order
than on the live server. Runs on SQLite and on PostgreSQL (TEST_DATABASE_URL).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from referee import exports
from referee.extensions import db
from referee.models import Table
from tests.web.api_support import record_ok
from tests.web.test_api_samba import stock_out
from tests.web.test_ratings import play, recompute, refresh, samba_table, stored, table_of

FIRST = ("Ana", "Bia", "Caio", "Dani")
SECOND = ("Ana", "Edu", "Fábio", "Gil")  # Ana plays both tables at once


def interleaved(client: FlaskClient) -> None:
    """Two Jubileu tables whose hands alternate in time, and two Samba matches that end in the
    other order than their tables were opened."""
    first, second = table_of(client, "jubileu", FIRST), table_of(client, "jubileu", SECOND)
    for k in range(6):
        play(client, first, "jubileu", FIRST, range(k, k + 1))
        play(client, second, "jubileu", SECOND, range(k, k + 1))
    early, late = samba_table(client, FIRST), samba_table(client, SECOND)
    record_ok(client, early, stock_out(50, 0))
    record_ok(client, late, stock_out(0, 50))
    assert record_ok(client, late, stock_out(20, 100))["finished"] is True
    assert record_ok(client, early, stock_out(100, 20))["finished"] is True


def test_ratings_after_a_backup_and_restore_equal_the_live_ones_to_the_last_digit(
    app: Flask, client: FlaskClient, make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    interleaved(client)
    live = {}
    for game in ("jubileu", "samba"):
        recompute(app, game)
        live[game] = stored(app, game)
    assert live["jubileu"]["Ana"][2] > 6 and live["samba"]["Ana"][2] == 2, live
    with app.app_context():
        document = exports.backup()

    restored = make_app({"INSTANCE_PATH": str(tmp_path / "restored")}, empty=True)
    with restored.app_context():
        exports.restore(document)
    for game in ("jubileu", "samba"):
        refresh(restored, game)
        assert stored(restored, game) == live[game], game  # exactly: not approximately


def test_an_imported_table_played_earlier_is_rated_in_its_place_by_a_refresh(app: Flask, client: FlaskClient) -> None:
    first = table_of(client, "jubileu", FIRST)
    play(client, first, "jubileu", FIRST, range(4))
    with app.app_context():
        document = exports.export_tables([db.session.get(Table, first["id"])])
    second = table_of(client, "jubileu", SECOND)
    play(client, second, "jubileu", SECOND, range(3))
    refresh(app, "jubileu")
    play(client, second, "jubileu", SECOND, range(3, 4))
    assert not refresh(app, "jubileu").rebuilt  # a hand played after those read is appended

    with app.app_context():
        document["tables"][0]["id"] = "played-earlier-elsewhere"  # the same table, on another server
        exports.import_tables(document)  # its hands were recorded before the second table's
    outcome = refresh(app, "jubileu")
    assert outcome.rebuilt, "a hand played before those already read is rated in its place"
    incremental = stored(app, "jubileu")
    recompute(app, "jubileu")
    assert stored(app, "jubileu") == incremental
