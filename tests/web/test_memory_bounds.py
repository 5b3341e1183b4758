"""What a worker keeps between requests has a bound, so its memory levels off under a steady load
(tests/bench/bench_soak.py prints it). Counted here, never measured in bytes: the connections a
worker's threads open, the pages each of them may keep, and malloc's arenas."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from gunicorn.http import wsgi
from sqlalchemy import event, text

from referee import gunicorn_conf
from referee.db import db
from tests.bench import hands as jubileu_hands

#: The threads of a worker (referee.gunicorn_conf), each saving hands of its own table.
THREADS = gunicorn_conf.threads
HANDS = 6
#: What SQLite may keep in its page caches, all of a worker's connections together (KiB): a few
#: MB at most, where the default (2,000 KiB a connection) let a worker grow by 8 MB and more.
PAGE_CACHES_KIB = 2048


def _cache_kib(connection: Any) -> int:
    """A connection's page cache bound in KiB (SQLite's cache_size: -KiB, or a count of pages)."""
    size = connection.execute(text("PRAGMA cache_size")).scalar()
    if size < 0:
        return int(-size)
    return int(size * connection.execute(text("PRAGMA page_size")).scalar() // 1024)


def test_a_workers_sqlite_page_caches_are_bounded(
    make_app: Callable[..., Flask], migrated_sqlite_file: Callable[[Path], str], tmp_path: Path
) -> None:
    app = make_app({"SQLALCHEMY_DATABASE_URI": migrated_sqlite_file(tmp_path / "soak.sqlite3")})
    with app.app_context():
        engine = db.engine
    opened: list[object] = []
    event.listen(engine, "connect", lambda dbapi_connection, record: opened.append(dbapi_connection))
    players = list(jubileu_hands.PLAYERS)
    client = app.test_client()
    tables = [
        client.post("/api/v1/tables", json={"game": "jubileu", "players": players}).get_json() for _ in range(THREADS)
    ]
    failures: list[str] = []

    def save(table: dict[str, Any]) -> None:
        mine = app.test_client()
        headers = {"Authorization": f"Bearer {table['token']}", "Content-Type": "application/json"}
        for k in range(HANDS):
            body = json.dumps(jubileu_hands.record(jubileu_hands.PLAYERS, k))
            answer = mine.post(f"/api/v1/tables/{table['id']}/hands", data=body, headers=headers)
            if answer.status_code != 201:
                failures.append(f"{answer.status_code}: {answer.get_data(as_text=True)[:200]}")

    workers = [threading.Thread(target=save, args=(table,)) for table in tables]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert failures == []
    # One connection per thread at most (and the one that made the tables, kept in the pool).
    assert 1 <= len(opened) <= THREADS + 1
    with app.app_context():
        connections = [engine.connect() for _ in opened]
        try:
            kept = sum(_cache_kib(connection) for connection in connections)
        finally:
            for connection in connections:
                connection.close()
    assert kept <= PAGE_CACHES_KIB


def test_each_worker_bounds_mallocs_arenas(monkeypatch) -> None:
    """Before its threads start, each worker caps glibc's arenas (one per thread otherwise, each
    keeping what was freed in it)."""
    calls: list[tuple[int, int]] = []

    class Libc:
        def mallopt(self, parameter: int, value: int) -> int:
            calls.append((parameter, value))
            return 1

    monkeypatch.setattr(gunicorn_conf.ctypes, "CDLL", lambda name: Libc())
    monkeypatch.setattr(wsgi, "Response", wsgi.Response)
    gunicorn_conf.post_fork(None, None)
    assert calls == [(gunicorn_conf.M_ARENA_MAX, 2)]
    assert gunicorn_conf.M_ARENA_MAX == -8  # glibc's malloc.h
