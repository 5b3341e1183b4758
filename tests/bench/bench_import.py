"""A large import next to a table being scored, on the production server (SQLite, WAL).

    .venv/bin/python -m tests.bench.bench_import

On SQLite one writer at a time holds the database's write lock: while an import holds it,
every scorer in the club waits. This bench prints how long that can be:

- the longest wait of a *probe*, a writer that takes the write lock (``BEGIN IMMEDIATE``) every
  few milliseconds on its own connection while the import runs: the longest wait is the
  longest time the import held the lock at once;
- the latency a scorer sees recording hands through the API meanwhile (p50, p99, max), and any
  answer that is not a 201 (a 500 "database is locked" was the symptom);
- how long the import took, and whether it was stored.

The document is made with the Jubileu hand mix of tests/bench/hands.py, played through the
real ledger into a scratch database and exported: BENCH_IMPORT_TABLES tables of
BENCH_IMPORT_HANDS hands each (default 12 of 1,000: about 4 MB). It is imported twice: with
``flask import`` (any size) and, if it fits, cut down to the HTTP limit, by ``POST /api/v1/import``.
Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import hands as jubileu_hands
from ._common import ROOT, failed_requests, figure, machine, new_table, post_json, referee_server, sized

TABLES = int(os.environ.get("BENCH_IMPORT_TABLES", sized("12", "2")))
HANDS = int(os.environ.get("BENCH_IMPORT_HANDS", sized("1000", "50")))
PROBE_PAUSE = 0.005  # seconds between two probes


def make_document(workdir: Path, tables: int, hands: int) -> dict[str, Any]:
    """An export of ``tables`` Jubileu tables of ``hands`` hands, made by the real ledger."""
    from referee import create_app, exports, ledger
    from referee.extensions import db

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{workdir / 'source.sqlite3'}",
            "SECRET_KEY": "bench",
            "INSTANCE_PATH": str(workdir / "source-instance"),
        }
    )
    with app.app_context():
        for _ in range(tables):
            table, _token = ledger.create_table(game="jubileu", players=list(jubileu_hands.PLAYERS), commit=False)
            for k in range(hands):
                ledger.record_hand(table, jubileu_hands.record(jubileu_hands.PLAYERS, k), commit=False)
            db.session.commit()
        document = exports.export_tables(exports.season_tables(None))
        db.session.remove()
        db.engine.dispose()
    return document


@dataclass
class Watch:
    """What the probe and the scorer saw while an import ran."""

    probe_waits: list[float] = field(default_factory=list)
    scorer_latencies: list[float] = field(default_factory=list)
    scorer_errors: dict[int, int] = field(default_factory=dict)


def _probe(database: Path, table_id: str, stop: threading.Event, watch: Watch) -> None:
    """Take the write lock, write nothing of consequence, let go; note how long taking it took."""
    connection = sqlite3.connect(database, isolation_level=None, timeout=120)
    try:
        while not stop.is_set():
            started = time.perf_counter()
            connection.execute("BEGIN IMMEDIATE")
            watch.probe_waits.append(time.perf_counter() - started)
            connection.execute("UPDATE game_table SET version = version WHERE id = ?", (table_id,))
            connection.execute("COMMIT")
            time.sleep(PROBE_PAUSE)
    finally:
        connection.close()


def _scorer(base: str, table: tuple[str, str], stop: threading.Event, watch: Watch) -> None:
    """Record the table's next hand, again and again, as a phone at the table would."""
    table_id, token = table
    headers = {"Authorization": f"Bearer {token}"}
    k = 0
    while not stop.is_set():
        started = time.perf_counter()
        try:
            status, _answer = post_json(
                base, f"/api/v1/tables/{table_id}/hands", jubileu_hands.record(jubileu_hands.PLAYERS, k), headers
            )
        except OSError:  # no answer within post_json's 10 s
            status = 0
        if status == 201:
            watch.scorer_latencies.append(time.perf_counter() - started)
            k += 1
        else:
            watch.scorer_errors[status] = watch.scorer_errors.get(status, 0) + 1
        time.sleep(0.05)


@contextmanager
def watching(base: str, database: Path) -> Iterator[Watch]:
    """A probe and a scorer at work for as long as the block runs."""
    table = new_table(base, "jubileu", jubileu_hands.PLAYERS, 0)
    watch, stop = Watch(), threading.Event()
    threads = [
        threading.Thread(target=_probe, args=(database, table[0], stop, watch), daemon=True),
        threading.Thread(target=_scorer, args=(base, table, stop, watch), daemon=True),
    ]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # both at work before the import starts
    try:
        yield watch
    finally:
        time.sleep(0.5)
        stop.set()
        for thread in threads:
            thread.join(150)


def report(name: str, seconds: float, outcome: str, watch: Watch) -> None:
    print(f"  [{name}] {outcome} in {seconds:.1f} s", flush=True)
    figure(
        f"{name}: longest write-lock wait (probe)",
        1000 * max(watch.probe_waits, default=0),
        "ms",
        "< 1000 ms",
        max(watch.probe_waits, default=0) < 1,
    )
    latencies = sorted(watch.scorer_latencies)
    if latencies:
        figure(f"{name}: scorer p50", 1000 * statistics.median(latencies), "ms", "", None)
        figure(
            f"{name}: scorer p99", 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))], "ms", "", None
        )
        figure(f"{name}: scorer max", 1000 * latencies[-1], "ms", "< 1000 ms", latencies[-1] < 1)
    figure(f"{name}: scorer hands recorded", len(latencies), "", "", None)
    figure(f"{name}: scorer answers not 201", sum(watch.scorer_errors.values()), "", "0", not watch.scorer_errors)
    for status, n in sorted(watch.scorer_errors.items()):
        print(f"  [{name}] scorer got {f'HTTP {status}' if status else 'no answer in 10 s'} x{n}", flush=True)
    failed_requests(f"{name}: scorer", sum(watch.scorer_errors.values()))


def _timed(action: Callable[[], str]) -> tuple[float, str]:
    started = time.perf_counter()
    outcome = action()
    return time.perf_counter() - started, outcome


def main() -> None:
    machine()
    from referee.api import IMPORT_MAX_BYTES

    with tempfile.TemporaryDirectory(prefix="bench-import-") as scratch:
        workdir = Path(scratch)
        started = time.perf_counter()
        document = make_document(workdir, TABLES, HANDS)
        path = workdir / "export.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        total = TABLES * HANDS
        print(
            f"  document: {TABLES} tables, {total:,} hands, {path.stat().st_size / 1e6:.1f} MB (made in {time.perf_counter() - started:.0f} s)",
            flush=True,
        )
        with referee_server(workdir) as server:
            database = workdir / "referee.sqlite3"
            env = {
                **os.environ,
                "DATABASE_URL": f"sqlite:///{database}",
                "BENCH_INSTANCE_PATH": str(workdir / "instance"),
                "PYTHONPATH": str(ROOT),
            }

            def by_command() -> str:
                done = subprocess.run(
                    [
                        str(Path(sys.executable).with_name("flask")),
                        "--app",
                        "tests.bench.wsgi:referee()",
                        "import",
                        str(path),
                    ],
                    cwd=ROOT,
                    env=env,
                    capture_output=True,
                    text=True,
                )
                return "stored" if done.returncode == 0 else f"FAILED ({done.stderr.strip().splitlines()[-1:]})"

            with watching(server.base, database) as watch:
                seconds, outcome = _timed(by_command)
            report(f"flask import, {total:,} hands", seconds, outcome, watch)

            fitting = _fit(document, IMPORT_MAX_BYTES)
            if fitting is None:
                print("  [HTTP import] skipped: not one table of the document fits the HTTP limit", flush=True)
                return
            club = (workdir / "instance" / "club_code").read_text().strip()
            hands = sum(len(t["hands"]) for t in fitting["tables"])

            def by_http() -> str:
                request = urllib.request.Request(
                    server.base + "/api/v1/import",
                    data=json.dumps(fitting).encode(),
                    method="POST",
                    headers={"Content-Type": "application/json", "X-Referee-Club-Code": club},
                )
                try:
                    with urllib.request.urlopen(request, timeout=120) as response:
                        return "stored" if response.status == 201 else f"FAILED (HTTP {response.status})"
                except urllib.error.HTTPError as exc:
                    return f"FAILED (HTTP {exc.code}: {exc.read()[:160].decode(errors='replace')})"
                except OSError as exc:
                    return f"FAILED ({exc!r})"

            with watching(server.base, database) as watch:
                seconds, outcome = _timed(by_http)
            report(f"HTTP import, {hands:,} hands", seconds, outcome, watch)


def _fit(document: dict[str, Any], limit: int) -> dict[str, Any] | None:
    """The document with new table ids (so it can be imported again), as many whole tables as
    fit under ``limit`` bytes, and then cut to the hands that fit."""
    tables: list[dict[str, Any]] = []
    for n, table in enumerate(document["tables"]):
        copy = {**table, "id": f"bench-http-import-{n:04d}", "follows": None}
        if len(json.dumps({**document, "tables": [*tables, copy]})) > limit:
            break
        tables.append(copy)
    return {**document, "tables": tables} if tables else None


if __name__ == "__main__":
    main()
