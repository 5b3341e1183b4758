"""A new hand's save takes the table's write lock by writing the table's new state: one UPDATE,
conditional on the version the request read, is the lock and the check (no separate lock
statement first). When another write reached the table between the read and that UPDATE, nothing
is written by it: the save takes the lock, reads the table again and judges the hand on what the
other write left."""

from __future__ import annotations

import re

from flask import Flask
from sqlalchemy import select

from referee import ledger
from referee.extensions import db
from referee.models import Hand
from tests.bench.save_path import api_save

from .api_support import PLAYERS, solo_record

_TABLE_WRITE = re.compile(r"^\s*UPDATE game_table\b", re.I)


def test_an_api_save_writes_the_table_row_once_and_locks_nothing_apart(app: Flask) -> None:
    figures = api_save(app, profile=False)
    assert figures.status == 201
    assert sum(1 for s in figures.statements if _TABLE_WRITE.match(s)) == 1
    # PostgreSQL's lock apart (SQLite has none: this line holds on the PostgreSQL pass)
    assert not [s for s in figures.statements if "FOR UPDATE" in s.upper()]
    # the hand, its deltas, the table's state, the seats' counters, the Idempotency-Key
    assert figures.writes == 5


def test_a_save_read_before_another_write_is_judged_again_after_it(app: Flask) -> None:
    with app.test_request_context():
        table, _token = ledger.create_table(game="jubileu", players=list(PLAYERS))
        table_id, read_version = table.id, table.version
        record = solo_record(ledger.current_dealer(table), 9)
        with app.app_context():  # another request, its own session, writes first: two-key entry on
            ledger.set_two_key(ledger.get_table(table_id), on=True)
            db.session.remove()
        # This request still holds the table as read before that write: the hand, judged on it
        # first, is judged again once locked, and stored as the table now is (waiting for a
        # confirmation from another phone).
        assert table.version == read_version and not table.two_key
        number, saved, replayed = ledger.record_hand(table, record)
        assert (number, replayed) == (1, False)
        assert table.two_key
        assert table.version == read_version + 2
        stored = db.session.scalar(select(Hand.result).where(Hand.table_id == table_id, Hand.number == 1))
        assert stored is not None and stored.get("two_key") is True
        assert table.state == ledger.rebuild_state(table)
