"""The baseline for bench_api: a bare Flask endpoint that parses the same JSON body and inserts
one row into SQLite, with the pragmas referee/db.py sets (WAL, synchronous=NORMAL,
busy_timeout=15000). `gunicorn 'tests.bench.bare_app:create_app()'` with BARE_DB=<file>.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from typing import Any

from flask import Flask, jsonify, request

SCHEMA = """CREATE TABLE IF NOT EXISTS hand (
    id INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    record TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
)"""

# One connection per thread of a worker, opened after the fork: gunicorn's config sets threads,
# so even ``--worker-class sync`` serves requests from several threads at once, and one sqlite3
# connection cannot be used from another thread than the one that opened it.
_connections = threading.local()


def connect(path: str) -> sqlite3.Connection:
    connection = sqlite3.connect(path, timeout=15)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("PRAGMA busy_timeout=15000")
    return connection


def create_app() -> Flask:
    path = os.environ["BARE_DB"]
    with connect(path) as setup:
        setup.execute(SCHEMA)
    setup.close()
    app = Flask(__name__)

    def db() -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(_connections, "connection", None)
        if connection is None:
            connection = _connections.connection = connect(path)
        return connection

    @app.get("/")
    def index() -> Any:
        return "ok"

    @app.post("/tables/<table_id>/hands")
    def record_hand(table_id: str) -> Any:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            return jsonify({"error": "body"}), 400
        connection = db()
        with connection:  # one transaction: BEGIN ... COMMIT
            cursor = connection.execute(
                "INSERT INTO hand (table_id, record) VALUES (?, ?)", (table_id, json.dumps(body))
            )
        return jsonify({"id": cursor.lastrowid}), 201

    return app
