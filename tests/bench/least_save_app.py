"""bench_api's two references between the bare insert and our save: the least a correct API save
must do, written twice, so that the ratio against the bare insert can be read against what the
stack allows.

Per request, as Referee's save does at the least: read the table row and check its scorer
token, read the seats, judge the hand with Referee's own rules engine (parse and settle), then in
one transaction write the table's state (checked against the version read: the write lock and the
check in one statement), the hand, its deltas and the seats' counters, and answer the hand's
number, deltas and totals. No idempotency key, corrections, two-key entry, places, translations,
security headers or error pages: everything Referee adds on top is missing here.

- ``create_app("raw")``: the statements through Python's sqlite3 module.
- ``create_app("core")``: the same statements through Flask-SQLAlchemy's session and Core
  ``text()`` (the layer Referee is written on), no ORM.

A table is made on its first hand (its id and the token the bench sends); same SQLite pragmas as
referee/db.py. `gunicorn 'tests.bench.least_save_app:create_app("core")'` with BARE_DB=<file>.
"""

from __future__ import annotations

import hmac
import json
import os
import sqlite3
import threading
from collections.abc import Sequence
from typing import Any, Protocol

from flask import Flask, jsonify, request
from flask.typing import ResponseReturnValue
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event, text

from referee.rules import get_game

from .bare_app import connect

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS bench_table (id TEXT PRIMARY KEY, token TEXT NOT NULL, state TEXT NOT NULL,"
    " version INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS seat (table_id TEXT NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL,"
    " net INTEGER NOT NULL, played INTEGER NOT NULL, PRIMARY KEY (table_id, position))",
    "CREATE TABLE IF NOT EXISTS hand (id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, number INTEGER NOT NULL,"
    " record TEXT NOT NULL, result TEXT NOT NULL, UNIQUE (table_id, number))",
    "CREATE TABLE IF NOT EXISTS delta (hand_id INTEGER NOT NULL, seat INTEGER NOT NULL, amount INTEGER NOT NULL)",
)
# Named parameters: the same text runs on sqlite3 and as SQLAlchemy's text().
READ_TABLE = "SELECT token, state, version FROM bench_table WHERE id = :id"
READ_SEATS = "SELECT name FROM seat WHERE table_id = :id ORDER BY position"
NEW_TABLE = "INSERT OR IGNORE INTO bench_table VALUES (:id, :token, :state, 0)"
NEW_SEAT = "INSERT OR IGNORE INTO seat VALUES (:id, :position, :name, 0, 0)"
WRITE_STATE = "UPDATE bench_table SET state = :state, version = :new WHERE id = :id AND version = :read"
WRITE_HAND = "INSERT INTO hand (table_id, number, record, result) VALUES (:id, :number, :record, :result) RETURNING id"
WRITE_DELTA = "INSERT INTO delta VALUES (:hand, :seat, :amount)"
MOVE_SEAT = "UPDATE seat SET net = net + :amount, played = played + 1 WHERE table_id = :id AND position = :seat"

PLAYERS = ("Ana", "Bia", "Caio", "Dani")  # tests/bench/hands.py: the last player deals first
TOKEN = "x" * 43  # what bench_api sends to its references
GAME = get_game("jubileu")
OPTIONS = GAME.parse_options({})


class Store(Protocol):
    """Runs a statement (with one row of parameters, or many) and ends the transaction."""

    def run(self, sql: str, params: dict[str, Any]) -> Any: ...
    def many(self, sql: str, rows: Sequence[dict[str, Any]]) -> None: ...
    def commit(self) -> None: ...
    def rollback(self) -> None: ...


def save(store: Store, table_id: str) -> ResponseReturnValue:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return jsonify({"error": "the body must be a JSON object"}), 400
    row = store.run(READ_TABLE, {"id": table_id}).fetchone() or _new_table(store, table_id)
    token, state_text, version = row
    if not hmac.compare_digest(request.headers.get("Authorization", "").partition(" ")[2], token):
        return jsonify({"error": "unauthorized"}), 401
    seats = [name for (name,) in store.run(READ_SEATS, {"id": table_id}).fetchall()]
    state = json.loads(state_text)
    hand = GAME.parse_hand(body, players=seats, options=OPTIONS, dealer=state["dealer"])
    deltas = dict(GAME.settle(hand, OPTIONS).deltas)
    totals = {name: state["totals"][name] + deltas.get(name, 0) for name in seats}
    number = state["next"]
    after = {"totals": totals, "next": number + 1, "dealer": GAME.next_dealer(seats, hand, OPTIONS)}
    try:
        moved = store.run(
            WRITE_STATE, {"state": json.dumps(after), "new": version + 1, "id": table_id, "read": version}
        )
        if moved.rowcount != 1:
            store.rollback()
            return jsonify({"error": "conflict"}), 409
        record = json.dumps(GAME.hand_json(hand))
        result = json.dumps({"deltas": deltas, "totals": totals})
        (hand_id,) = store.run(
            WRITE_HAND, {"id": table_id, "number": number, "record": record, "result": result}
        ).fetchone()
        moves = [
            {"hand": hand_id, "id": table_id, "seat": i, "amount": deltas.get(name, 0)} for i, name in enumerate(seats)
        ]
        store.many(WRITE_DELTA, moves)
        store.many(MOVE_SEAT, moves)
        store.commit()
    except BaseException:
        store.rollback()
        raise
    return jsonify({"number": number, "deltas": deltas, "totals": totals, "contract": GAME.contract_json(hand)}), 201


def _new_table(store: Store, table_id: str) -> Any:
    """The table of a first hand, as ``POST /tables`` would have made it."""
    state = {"totals": dict.fromkeys(PLAYERS, 0), "next": 1, "dealer": PLAYERS[-1]}
    store.run(NEW_TABLE, {"id": table_id, "token": TOKEN, "state": json.dumps(state)})
    store.many(NEW_SEAT, [{"id": table_id, "position": i, "name": name} for i, name in enumerate(PLAYERS)])
    store.commit()
    return store.run(READ_TABLE, {"id": table_id}).fetchone()


def create_app(layer: str = "core") -> Flask:
    path = os.environ["BARE_DB"]
    with connect(path) as setup:
        for statement in SCHEMA:
            setup.execute(statement)
    setup.close()
    app = Flask(__name__)
    store: Store = RawStore(path) if layer == "raw" else CoreStore(app, path)
    app.post("/tables/<table_id>/hands")(lambda table_id: save(store, table_id))
    return app


class RawStore:
    """sqlite3, one connection per thread (gunicorn's workers run threads)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.local = threading.local()

    def connection(self) -> sqlite3.Connection:
        found: sqlite3.Connection | None = getattr(self.local, "connection", None)
        if found is None:
            found = self.local.connection = connect(self.path)
        return found

    def run(self, sql: str, params: dict[str, Any]) -> Any:
        return self.connection().execute(sql, params)

    def many(self, sql: str, rows: Sequence[dict[str, Any]]) -> None:
        self.connection().executemany(sql, rows)

    def commit(self) -> None:
        self.connection().commit()

    def rollback(self) -> None:
        self.connection().rollback()


class CoreStore:
    """Flask-SQLAlchemy's request-scoped session, Core statements built once."""

    def __init__(self, app: Flask, path: str) -> None:
        app.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{path}"
        self.db = SQLAlchemy(app)
        with app.app_context():
            event.listen(self.db.engine, "connect", _pragmas)
            self.db.engine.dispose()
        self.statements: dict[str, Any] = {}

    def built(self, sql: str) -> Any:
        found = self.statements.get(sql)
        if found is None:
            found = self.statements[sql] = text(sql)
        return found

    def run(self, sql: str, params: dict[str, Any]) -> Any:
        return self.db.session.connection().execute(self.built(sql), params)

    def many(self, sql: str, rows: Sequence[dict[str, Any]]) -> None:
        self.db.session.connection().execute(self.built(sql), list(rows))

    def commit(self) -> None:
        self.db.session.commit()

    def rollback(self) -> None:
        self.db.session.rollback()


def _pragmas(dbapi_connection: Any, _record: Any) -> None:
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=15000"):
        dbapi_connection.execute(f"PRAGMA {pragma}")
