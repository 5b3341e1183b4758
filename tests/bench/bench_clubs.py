"""Many clubs on one server: a club's table page, its standings page and a hand's write, with the
club alone on the server and then among 1,000 clubs; and one server process's memory after
serving one club, then after serving every one of the 1,000.

    .venv/bin/python -m tests.bench.run clubs                                   # SQLite (a temp file)
    pg_virtualenv sh -c 'TEST_DATABASE_URL=postgresql+psycopg:// \\
        .venv/bin/python -m tests.bench.run clubs'                              # PostgreSQL (make bench-pg)

The big club is the league benchmark's (tests/bench/bench_league.py): 1,000 members and
BENCH_CLUBS_HANDS hands (default 1,000,000 on PostgreSQL, 100,000 on SQLite), generated from
tables played through the real ledger. The other 999 clubs are made as the operator makes them
and play through the API: a table of four and BENCH_CLUBS_SMALL_HANDS hands each (default 10), so
every index holds rows of all of them, in a copy of the big club's database: the two databases
are then measured in turn, BENCH_CLUBS_ROUNDS times each (alone, among, among, alone, ...), so
that the machine's speed, which drifts on a shared machine, weighs on both alike. Each measure
is taken in a fresh interpreter (a warm-up, then BENCH_CLUBS_RUNS timed runs), after a VACUUM
(ANALYZE) of both, not while autovacuum works through the rows just written.
Prints figures; asserts only that every request answered as it should.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median
from typing import Any

from . import hands as jubileu_hands
from ._common import ROOT, load, machine, sized, status_kb
from .bench_league import append, database_url, dispose, fresh_database, generate, make_app, member_names, prototypes

CLUBS = int(os.environ.get("BENCH_CLUBS", sized("1000", "20")))
SMALL_HANDS = int(os.environ.get("BENCH_CLUBS_SMALL_HANDS", sized("10", "2")))
RUNS = int(os.environ.get("BENCH_CLUBS_RUNS", sized("30", "2")))
#: Measures of each database, in turn: alone, among, among, alone, alone, ...
ROUNDS = int(os.environ.get("BENCH_CLUBS_ROUNDS", sized("5", "1")))
API = "/api/v1"
#: The players of the table the write is timed at: four of the big club's members.
PLAYERS = tuple(member_names()[:4])
#: The other clubs' players: every club has its own Ana, Bia, Caio and Dani.
SMALL_PLAYERS = ("Ana", "Bia", "Caio", "Dani")


def big_hands(backend_url: str | None) -> int:
    default = sized("1000000" if backend_url else "100000", "2000")
    return int(os.environ.get("BENCH_CLUBS_HANDS", default).replace("_", ""))


def _rss_mb() -> float:
    return (status_kb(os.getpid(), "VmRSS") or 0) / 1024


def _ok(answer: Any, status: int, what: str) -> Any:
    if answer.status_code != status:
        raise RuntimeError(f"{what}: {answer.status_code} {answer.get_data(as_text=True)[:300]}")
    return answer


# --------------------------------------------------------------------------- in a child process


def measure(url: str, instance: Path, table_id: str, token: str) -> dict[str, Any]:
    """The big club's three figures (ms, median and p95 of RUNS after a warm-up), in this fresh process."""
    app = make_app(url, instance)
    client = app.test_client()
    auth = {"Authorization": f"Bearer {token}"}
    number = _ok(client.get(f"{API}/tables/{table_id}"), 200, "the table")
    k = int(number.get_json()["next_number"]) - 1

    def table_page() -> None:
        _ok(client.get(f"/t/{table_id}"), 200, "the table page")

    def standings() -> None:
        _ok(client.get("/league/jubileu?season=all"), 200, "the standings page")

    def write() -> None:
        nonlocal k
        _ok(
            client.post(f"{API}/tables/{table_id}/hands", json=jubileu_hands.record(PLAYERS, k), headers=auth),
            201,
            "a hand",
        )
        k += 1

    figures = {}
    for name, call in (("table page", table_page), ("standings page", standings), ("hand write", write)):
        call()  # warm: statement cache, templates, the database's pages
        times = []
        for _ in range(RUNS):
            started = time.perf_counter()
            call()
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        figures[name] = {"median": times[len(times) // 2], "p95": times[min(len(times) - 1, int(0.95 * len(times)))]}
    dispose(app)
    return figures


def memory(url: str, instance: Path, table_id: str) -> dict[str, Any]:
    """One process serves the big club's pages, then every club's home and standings pages, then
    the big club's again: its RSS after one club and after all of them."""
    from sqlalchemy import select

    from referee.club_scope import ALL_CLUBS
    from referee.extensions import db
    from referee.models import Club

    app = make_app(url, instance)
    client = app.test_client()
    for _ in range(20):
        _ok(client.get(f"/t/{table_id}"), 200, "the table page")
        _ok(client.get("/league/jubileu?season=all"), 200, "the standings page")
        _ok(client.get("/"), 200, "the home page")
    one = _rss_mb()
    with app.app_context():
        slugs = db.session.scalars(select(Club.slug).order_by(Club.id), execution_options={ALL_CLUBS: True}).all()
    for slug in slugs:
        _ok(client.get(f"/k/{slug}/"), 200, f"{slug}'s home page")
        _ok(client.get(f"/k/{slug}/league/jubileu?season=all"), 200, f"{slug}'s standings")
    for _ in range(20):
        _ok(client.get(f"/t/{table_id}"), 200, "the table page")
        _ok(client.get("/league/jubileu?season=all"), 200, "the standings page")
    every = _rss_mb()
    dispose(app)
    return {"clubs": len(slugs), "one_mb": one, "every_mb": every}


def _child(mode: str, url: str, workdir: Path, *extra: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "tests.bench.bench_clubs", mode, url, str(workdir / f"instance-{mode}"), *extra],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{mode} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    answer: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return answer


# --------------------------------------------------------------------------- the server's clubs


def the_others(url: str, instance: Path, count: int) -> float:
    """``count`` more clubs, each with a table of four and SMALL_HANDS hands through the API at
    its own address; answers the seconds it took."""
    from referee.extensions import db
    from referee.models import Club

    started = time.perf_counter()
    app = make_app(url, instance)
    with app.app_context():
        db.session.add_all(Club(slug=f"clube-{n:04d}", name=f"Clube {n}") for n in range(count))
        db.session.commit()
    client = app.test_client()
    for n in range(count):
        at = f"/k/clube-{n:04d}{API}"
        made = _ok(
            client.post(f"{at}/tables", json={"game": "jubileu", "players": list(SMALL_PLAYERS)}), 201, "a table"
        )
        table = made.get_json()
        auth = {"Authorization": f"Bearer {table['token']}"}
        for k in range(SMALL_HANDS):
            record = jubileu_hands.record(SMALL_PLAYERS, k)
            _ok(client.post(f"{at}/tables/{table['id']}/hands", json=record, headers=auth), 201, "a small club's hand")
    dispose(app)
    return time.perf_counter() - started


def the_write_table(url: str, instance: Path) -> tuple[str, str]:
    """A table of four of the big club's members, made through the API: its id and token."""
    app = make_app(url, instance)
    made = _ok(
        app.test_client().post(f"{API}/tables", json={"game": "jubileu", "players": list(PLAYERS)}), 201, "the table"
    )
    dispose(app)
    return made.get_json()["id"], made.get_json()["token"]


def settle(url: str, instance: Path) -> None:
    """The database as a server's would be after a quiet moment: its statistics current and its
    new rows vacuumed (PostgreSQL's autovacuum would otherwise be at it during the figures)."""
    from referee.extensions import db

    app = make_app(url, instance)
    with app.app_context(), db.engine.connect() as connection:
        if db.engine.dialect.name == "postgresql":
            connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql("VACUUM (ANALYZE)")
        else:
            connection.exec_driver_sql("ANALYZE")
    dispose(app)


def _print(label: str, figures: dict[str, Any]) -> None:
    line = ", ".join(f"{name} {f['median']:.1f} ms (p95 {f['p95']:.1f})" for name, f in figures.items())
    print(f"  {label}: {line}", flush=True)


def _pooled(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """Each figure's median and p95, each the median over the rounds."""
    return {name: {key: median(r[name][key] for r in rounds) for key in ("median", "p95")} for name in rounds[0]}


def main() -> None:
    machine()
    backend_url = database_url()
    backend = "PostgreSQL" if backend_url else "SQLite (a temp file, WAL)"
    hands = big_hands(backend_url)
    print(f"  clubs on {backend}: one club of 1,000 members and {hands:,} hands, then {CLUBS:,} clubs", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="referee-bench-clubs-"))
    instance = workdir / "instance"
    try:
        protos = prototypes(workdir)
        with fresh_database(backend_url, workdir, "clubs") as alone_url:
            app = make_app(alone_url, instance)
            made = generate(app, protos, hands)
            append(app, protos, "jubileu", 30)  # tonight's tables, still open
            dispose(app)
            print(f"  the big club: {made['hands']:,} hands generated in {made['seconds']:.0f} s", flush=True)
            table_id, token = the_write_table(alone_url, instance)
            # The same club among the others is a copy of this database that then gains them; the
            # two are measured in turn, so that a change in the machine's speed meanwhile (these
            # machines are shared) weighs on both alike.
            with fresh_database(backend_url, workdir, "among", copy_of=alone_url) as among_url:
                seconds = the_others(among_url, instance, CLUBS - 1)
                print(
                    f"  {CLUBS - 1:,} more clubs made and played ({SMALL_HANDS} hands each) in {seconds:.0f} s",
                    flush=True,
                )
                settle(alone_url, instance)
                settle(among_url, instance)
                load()
                alone: list[dict[str, Any]] = []
                among: list[dict[str, Any]] = []
                for turn in range(ROUNDS):
                    pair = ((alone, alone_url), (among, among_url))
                    for rounds, url in pair if turn % 2 == 0 else reversed(pair):
                        rounds.append(_child("measure", url, workdir, table_id, token))
                print(
                    f"  {ROUNDS} measures of each in turn, {RUNS} runs each; per figure, the median measure:",
                    flush=True,
                )
                _print("alone on the server", _pooled(alone))
                _print(f"among {CLUBS:,} clubs", _pooled(among))
                ratios = ", ".join(
                    f"{name} {median(b[name]['median'] / a[name]['median'] for a, b in zip(alone, among)):.2f}"
                    for name in alone[0]
                )
                print(f"  among / alone (medians, round by round; the median ratio): {ratios}", flush=True)
                rss = _child("memory", among_url, workdir, table_id)
                print(
                    f"  one server process: {rss['one_mb']:.0f} MB after serving one club, {rss['every_mb']:.0f} MB"
                    f" after serving all {rss['clubs']:,} clubs ({rss['every_mb'] - rss['one_mb']:+.0f} MB)",
                    flush=True,
                )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _child_main(argv: list[str]) -> None:
    mode, url, instance, *extra = argv
    if mode == "measure":
        answer = measure(url, Path(instance), extra[0], extra[1])
    elif mode == "memory":
        answer = memory(url, Path(instance), extra[0])
    else:
        raise SystemExit(f"unknown mode {mode}")
    print(json.dumps(answer))


if __name__ == "__main__":
    if len(sys.argv) > 1:
        _child_main(sys.argv[1:])
    else:
        main()
