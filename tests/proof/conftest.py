"""What the proof tests share: a database of their own, the production server, an HTTP client,
and the consistency checks every test ends with.

The database follows TEST_DATABASE_URL like the rest of the suite: by default a temp SQLite
file (WAL, as in production; the server needs a file, not the in-memory default), and a fresh
PostgreSQL database, created and dropped here, when TEST_DATABASE_URL is a PostgreSQL URL:

    pg_virtualenv sh -c 'TEST_DATABASE_URL=postgresql+psycopg:// .venv/bin/pytest -q tests/proof'

The server is the one `make run` starts: gunicorn, sync workers, the real factory
(tests/bench/wsgi.py), on 127.0.0.1, schema created once before the workers start. It is built
from tests/bench/_common.py's pieces (free port, readiness hook, wait, stop); only the launch is
ours, because the crash test must SIGKILL the master *and* its workers as one process group, so
gunicorn runs in a session of its own.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from referee import create_app, ledger
from referee.extensions import db
from referee.models import Hand, HandDelta, HandEvent, IdempotencyKey, Table
from tests.bench import _common

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "sqlite://")
BACKEND = "postgresql" if TEST_DATABASE_URL.startswith(("postgresql", "postgres:")) else "sqlite"
API = "/api/v1"
HOST = _common.HOST


# --------------------------------------------------------------------------- databases


@contextmanager
def fresh_database(workdir: Path) -> Iterator[str]:
    """A new, empty database for one test (a SQLite file, or a PostgreSQL database dropped after)."""
    if BACKEND == "sqlite":
        yield f"sqlite:///{workdir / 'referee.sqlite3'}"
        return
    import psycopg

    base = make_url(TEST_DATABASE_URL)
    name = f"proof_{secrets.token_hex(6)}"
    params = {
        k: v
        for k, v in {
            "host": base.host,
            "port": base.port,
            "user": base.username,
            "password": base.password,
            "dbname": base.database,
        }.items()
        if v is not None
    }
    with psycopg.connect(autocommit=True, **params) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(autocommit=True, **params) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def sqlite_path(database_url: str) -> Path | None:
    url = make_url(database_url)
    return Path(url.database) if url.get_backend_name() == "sqlite" and url.database else None


def in_process_app(database_url: str, instance: Path, **config: Any) -> Flask:
    """The real factory on the same database (to read what the server stored, or to fuzz)."""
    return create_app(
        {
            "SQLALCHEMY_DATABASE_URI": database_url,
            "SECRET_KEY": "proof",
            "INSTANCE_PATH": str(instance),
            **config,
        }
    )


def dispose(app: Flask) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


# --------------------------------------------------------------------------- the server


@dataclass
class Running:
    server: _common.Server
    workdir: Path

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def pid(self) -> int:
        return self.server.proc.pid

    def log(self) -> str:
        try:
            return self.server.log.read_text(errors="replace")
        except OSError:
            return ""


@contextmanager
def production_server(database_url: str, workdir: Path, workers: int = 4) -> Iterator[Running]:
    """gunicorn with the real factory on ``database_url``; stopped (by PID) on exit.

    gunicorn runs in a new session: its process group (master + workers, pgid = master's PID)
    is what :func:`kill_group` SIGKILLs. The log is kept in ``workdir`` across restarts."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "BENCH_INSTANCE_PATH": str(workdir / "instance"),
        "PYTHONPATH": str(_common.ROOT),
    }
    env.pop("SECRET_KEY", None)
    # Schema and secret key once, before the workers start (as `make run` does).
    subprocess.run(
        [sys.executable, "-c", "from tests.bench.wsgi import referee; referee()"],
        cwd=_common.ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    ready = Path(tempfile.mkdtemp(prefix="proof-ready-", dir=workdir))
    log = workdir / f"gunicorn-{ready.name}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                str(_common.GUNICORN),
                "--config",
                str(Path(_common.__file__).with_name("gunicorn_conf.py")),
                "--bind",
                f"{HOST}:0",
                "--workers",
                str(workers),
                "--worker-class",
                "sync",
                "--graceful-timeout",
                "5",
                "--log-level",
                "info",
                "tests.bench.wsgi:referee()",
            ],
            cwd=_common.ROOT,
            env={**env, "BENCH_READY_DIR": str(ready)},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        server = _common.Server(proc=proc, port=_common.gunicorn_port(proc, log), log=log)
        _common._wait_ready(server, ready, workers)
        yield Running(server=server, workdir=workdir)
    finally:
        if proc.poll() is None:
            _common.stop(proc)
        _reap_group(proc.pid)
        shutil.rmtree(ready, ignore_errors=True)


def kill_group(running: Running) -> None:
    """SIGKILL the master and every worker at once (their process group), then reap them."""
    try:
        os.killpg(running.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    running.server.proc.wait(timeout=10)
    _reap_group(running.pid)


def _reap_group(pgid: int) -> None:
    """Wait until no process of our gunicorn's group is left (orphaned workers included)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        except PermissionError:
            return
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError(f"gunicorn's process group {pgid} would not die")


# --------------------------------------------------------------------------- HTTP


@dataclass
class Reply:
    status: int
    headers: Mapping[str, str]
    body: Any

    @property
    def replayed(self) -> bool:
        return self.headers.get("idempotent-replayed") == "true"


def call(
    port: int, method: str, path: str, body: Any = None, headers: Mapping[str, str] | None = None, timeout: float = 30
) -> Reply:
    """One request on a new connection (gunicorn's sync workers close after each answer)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        sent = {"Connection": "close", **(headers or {})}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        connection.request(method, path, body=payload, headers=sent)
        response = connection.getresponse()
        raw = response.read()
        answer_headers = {k.lower(): v for k, v in response.getheaders()}
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw.decode(errors="replace")
        return Reply(response.status, answer_headers, parsed)
    finally:
        connection.close()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create_table(port: int, game: str, players: list[str] | tuple[str, ...], **fields: Any) -> tuple[str, str]:
    reply = call(port, "POST", f"{API}/tables", {"game": game, "players": list(players), **fields})
    assert reply.status == 201, reply
    return reply.body["id"], reply.body["token"]


# --------------------------------------------------------------------------- consistency


def api_problems(port: int, table_id: str, *, expect_hands: int | None = None) -> list[str]:
    """What the API says of a table that it must never say: numbers with gaps or duplicates,
    totals that are not the sum of the live hands' deltas, a wrong next number."""
    reply = call(port, "GET", f"{API}/tables/{table_id}")
    if reply.status != 200:
        return [f"GET table {table_id}: {reply.status} {reply.body}"]
    return table_problems(reply.body, expect_hands=expect_hands)


def table_problems(table: Mapping[str, Any], *, expect_hands: int | None = None) -> list[str]:
    problems = []
    numbers = [h["number"] for h in table["hands"]]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"{table['id']}: hand numbers are {numbers}, not 1..{len(numbers)}")
    if expect_hands is not None and len(numbers) != expect_hands:
        problems.append(f"{table['id']}: {len(numbers)} hands stored, expected {expect_hands}")
    summed = dict.fromkeys(table["players"], 0)
    for hand in table["hands"]:
        if not hand.get("void"):
            for name, delta in hand["deltas"].items():
                summed[name] += delta
    if table["totals"] != summed:
        problems.append(f"{table['id']}: totals {table['totals']} but the live hands add up to {summed}")
    if table["next_number"] != len(numbers) + 1:
        problems.append(f"{table['id']}: next_number {table['next_number']} after {len(numbers)} hands")
    return problems


def ledger_problems(app: Flask, table_id: str, *, writes: int | None = None) -> list[str]:
    """What the database must never hold: a cached state other than the one rebuilt from the
    hands, a hand whose delta rows differ from its stored result (half stored), an idempotency
    key without its hand, a state version that does not count the writes."""
    problems: list[str] = []
    with app.app_context():
        db.session.remove()
        table = db.session.get(Table, table_id)
        if table is None:
            return [f"{table_id}: no such table in the database"]
        rebuilt = ledger.rebuild_state(table)
        if table.state != rebuilt:
            problems.append(f"{table_id}: cached state {table.state} != rebuilt {rebuilt}")
        hands = list(db.session.scalars(select(Hand).where(Hand.table_id == table_id).order_by(Hand.number)))
        players = ledger.players_of(table)
        for hand in hands:
            rows = {
                players[seat]: amount
                for seat, amount in db.session.execute(
                    select(HandDelta.seat, HandDelta.amount).where(HandDelta.hand_id == hand.id)
                )
            }
            # A row for every player who took part (zero included), none for one sitting out.
            out = ledger.rules_of(table).sitting_out(players, hand.dealer, ledger.options_of(table))
            wanted = {name: int(v) for name, v in hand.result["deltas"].items() if name != out}
            if rows != wanted:
                problems.append(f"{table_id} hand {hand.number}: delta rows {rows} != result {wanted}")
            if hand.result.get("number") != hand.number:
                problems.append(f"{table_id} hand {hand.number}: result says number {hand.result.get('number')}")
        numbers = {h.number for h in hands}
        for key in db.session.scalars(select(IdempotencyKey).where(IdempotencyKey.table_id == table_id)):
            if int(key.body["number"]) not in numbers:
                problems.append(f"{table_id}: idempotency key {key.key!r} names hand {key.body['number']}, not stored")
        if writes is None:
            voids = (
                db.session.scalar(
                    select(func.count())
                    .select_from(HandEvent)
                    .join(Hand, Hand.id == HandEvent.hand_id)
                    .where(Hand.table_id == table_id, HandEvent.kind == "void")
                )
                or 0
            )
            corrections = sum(1 for h in hands if "replaces" in h.result)  # a hand and a void, one write
            writes = len(hands) + int(voids) - corrections
        if table.version != writes:
            problems.append(f"{table_id}: state version {table.version} after {writes} writes")
        db.session.remove()
    return problems


# --------------------------------------------------------------------------- known bugs

#: Bugs the proof tests found, each with a strict-xfail test of its own that reproduces it. The
#: fuzzers let exactly these through (and count them) so that they go on looking for others; when
#: a bug is fixed its xfail test passes, fails as strict, and its entry here goes.
KNOWN_BUGS: dict[str, str] = {}


def known_bug(exc: BaseException) -> str | None:
    """The KNOWN_BUGS entry an exception raised by a request is, if any (none are open: the
    four this suite found are fixed and their tests now pass; see git history)."""
    del exc
    return None
