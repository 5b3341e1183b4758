"""Every page a phone opens or polls at a table reads only what it shows: the same SQL
statements, returning the same number of rows, at 10 hands as at 300, and on SQLite the same
work to find them (the virtual machine's steps: a count or a DISTINCT over the whole history
returns one row but takes steps in proportion to it). Counted, not timed, so no load on the
machine can fail it (the times are printed by ``python -m tests.bench.run page``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from referee import ledger
from referee.extensions import db
from referee.views import tables as tables_view

from .api_support import API, create_table, solo_record
from .test_live import owner_phone

#: The pages, as (name, path, headers); ``{id}`` is the table's id.
PAGES = (
    ("table page", "/t/{id}", {}),
    ("live redraw of <main>", "/t/{id}", {"HX-Request": "true", "HX-Boosted": "true"}),
    ("live poll", "/t/{id}/version", {}),
    ("history, first page", "/t/{id}/history", {}),
    ("watch page", "/w/{id}", {}),
    ("shared screen", "/tv/{id}", {}),
)


def grow(app: Flask, table_id: str, hands: int) -> None:
    """Record ``hands`` hands (one corrected, one voided on the way) through the ledger."""
    with app.app_context():
        table = ledger.get_table(table_id)
        for k in range(hands):
            ledger.record_hand(table, solo_record(ledger.current_dealer(table), 5 + k % 9), commit=False)
        ledger.record_hand(table, solo_record("Dani", 9), replaces=1, reason="fix", commit=False)
        ledger.void_hand(table, 2, owner=True, reason="slip", commit=False)
        db.session.commit()


@contextmanager
def counted(app: Flask) -> Iterator[list[tuple[str, int, int]]]:
    """Every statement the app sends while in the block, with the rows it returns and, on
    SQLite, the virtual machine's steps it takes (counted by running it again on a cursor of the
    same connection; 0 on PostgreSQL, whose plans may change with the table's size)."""
    seen: list[tuple[str, int, int]] = []

    def after(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool) -> None:
        rows = steps = 0
        if statement.lstrip().upper().startswith("SELECT") and not executemany:
            raw = cursor.connection
            again = raw.cursor()
            stepper = getattr(raw, "set_progress_handler", None)

            def step() -> int:
                nonlocal steps
                steps += 1
                return 0

            if stepper is not None:
                stepper(step, 1)
            try:
                again.execute(statement, parameters)
                rows = len(again.fetchall())
            finally:
                if stepper is not None:
                    stepper(None, 1)
                again.close()
        seen.append((statement, rows, steps))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "after_cursor_execute", after)
    try:
        yield seen
    finally:
        event.remove(engine, "after_cursor_execute", after)


def reads(app: Flask, phone: FlaskClient, path: str, headers: dict[str, str]) -> list[tuple[str, int, int]]:
    phone.get(path, headers=headers)  # warm: what a first visit stores (the phone's seen tables)
    with counted(app) as seen:
        response = phone.get(path, headers=headers)
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return seen


@pytest.fixture
def tables(app: Flask) -> dict[int, tuple[dict[str, Any], FlaskClient]]:
    made = {}
    for hands in (10, 300):
        table = create_table(app.test_client(), language="en")
        grow(app, table["id"], hands)
        made[hands] = (table, owner_phone(app, table))
    return made


@pytest.mark.parametrize(("name", "path", "headers"), PAGES, ids=[p[0] for p in PAGES])
def test_a_page_reads_the_same_at_10_hands_as_at_300(
    app: Flask,
    tables: dict[int, tuple[dict[str, Any], FlaskClient]],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    path: str,
    headers: dict[str, str],
) -> None:
    # The history's page holds fewer places than the small table has: both pages are full.
    monkeypatch.setattr(tables_view, "HISTORY_PAGE", 5)
    small, large = (reads(app, phone, path.format(id=t["id"]), headers) for t, phone in tables.values())
    assert len(small) == len(large), [statement[:300] for statement, _, _ in large[len(small) - 5 :]]
    assert [rows for _, rows, _ in small] == [rows for _, rows, _ in large], [
        (statement[:160], a, b) for (statement, a, _), (_, b, _) in zip(small, large) if a != b
    ]
    # A step or two apart (the hands' values take other branches); a read of the history, 30 times more.
    assert all(b <= 2 * a + 20 for (_, _, a), (_, _, b) in zip(small, large)), [
        (statement[:160], a, b) for (statement, _, a), (_, _, b) in zip(small, large) if a != b
    ]


def test_the_api_table_reads_the_same_statements_at_10_hands_as_at_300(
    app: Flask, tables: dict[int, tuple[dict[str, Any], FlaskClient]]
) -> None:
    """The API's table lists every hand (so its rows grow with them), in the same statements."""
    small, large = (reads(app, phone, f"{API}/tables/{t['id']}", {}) for t, phone in tables.values())
    assert len(small) == len(large)


def test_the_places_kept_in_the_state_follow_every_write(app: Flask) -> None:
    """The history's page count is kept in the table's state: one more for a new hand, none for
    a correction (it takes its hand's place) or a void (the hand keeps its place); a state kept
    before the places were has them counted on its next write."""
    table_id = create_table(app.test_client(), language="en")["id"]
    grow(app, table_id, 6)  # six places, one corrected, one voided
    with app.app_context():
        table = ledger.get_table(table_id)
        assert ledger.place_count(table) == 6 == ledger.rebuild_state(table)["places"]
        table.state = {name: value for name, value in table.state.items() if name != "places"}
        db.session.commit()
        assert ledger.place_count(table) == 6  # counted from the hands
        ledger.record_hand(table, solo_record(ledger.current_dealer(table), 8))
        assert table.state["places"] == 7 and table.state == ledger.rebuild_state(table)
