"""POST /api/v1/tables/{id}/hands under load on the production server, against a bare baseline.

`.venv/bin/python -m tests.bench.bench_api`. Prints figures; never asserts a timing.

- Ours: gunicorn, 2 sync workers, the real factory (tests/bench/wsgi.py: `create_app()` with a
  temp instance folder), DATABASE_URL pointing at a temp SQLite file.
- Bare: tests/bench/bare_app.py (Flask + one INSERT into SQLite, same pragmas), same gunicorn.
- Load: a Python closed-loop generator (threads + http.client), 20 clients for ~10 s, each client
  posting valid hands to its own table, so we measure throughput, not numbering conflicts. wrk
  cannot give each connection its own table (its Lua request() does not know the connection), and
  a shared table would turn the run into a 409 storm. Same generator for both servers, so the
  ratio is fair; its own CPU use is printed (it shares the 2 cores with the server).
- Then the peak RSS (VmHWM) of each worker of our server, read from /proc after the load.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ._common import ROOT, HOST, LoadResult, drive, figure, gunicorn, machine, post_json, report_load, status_kb
from .hands import PLAYERS, TEMPLATES, record

CLIENTS = 20
SECONDS = float(os.environ.get("BENCH_SECONDS", "10"))
P95_TARGET_MS = 50.0
RATIO_TARGET = 0.5
RSS_TARGET_MB = 80.0


def bodies() -> list[bytes]:
    """The hand records of one table in order; the sequence repeats every `period` hands."""
    period = len(TEMPLATES) * len(PLAYERS) // 4  # templates x dealer rotation (lcm of 8 and 4)
    return [json.dumps(record(PLAYERS, k)).encode() for k in range(period)]


def clients_for(tables: list[tuple[str, str]], prefix: str):  # type: ignore[no-untyped-def]
    sequence = bodies()

    def make(table_id: str, token: str):  # type: ignore[no-untyped-def]
        path = f"{prefix}/tables/{table_id}/hands"
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}

        def client(i: int) -> tuple[str, bytes, dict[str, str]]:
            return path, sequence[i % len(sequence)], headers

        return client

    return [make(t, tok) for t, tok in tables]


def print_latency(name: str, result: LoadResult) -> None:
    report_load(name, result)
    figure(f"{name}: requests/s ({CLIENTS} clients)", result.rate, "req/s", "(see ratio)", None)
    figure(f"{name}: p50 latency", result.percentile(50), "ms", "", None)
    figure(f"{name}: p95 latency", result.percentile(95), "ms",
           f"< {P95_TARGET_MS:.0f} ms" if name == "ours" else "", result.percentile(95) < P95_TARGET_MS if name == "ours" else None)
    figure(f"{name}: p99 latency", result.percentile(99), "ms", "", None)


def run_ours(workdir: Path) -> tuple[LoadResult, list[tuple[int, int | None, int | None]], int]:
    instance = workdir / "instance"
    env = {
        "DATABASE_URL": f"sqlite:///{workdir / 'referee.sqlite3'}",
        "BENCH_INSTANCE_PATH": str(instance),
    }
    # Schema and secret key once, before the workers start (as `make run` does): two workers
    # migrating a fresh database at the same moment would race.
    subprocess.run(
        [sys.executable, "-c", "from tests.bench.wsgi import referee; referee()"],
        cwd=ROOT, env={**os.environ, **env, "PYTHONPATH": str(ROOT)}, check=True,
    )
    with gunicorn("tests.bench.wsgi:referee()", env, ready_path="/api/v1/openapi.json") as server:
        tables = []
        for n in range(CLIENTS):
            status, answer = post_json(server.base, "/api/v1/tables", {
                "game": "jubileu", "players": list(PLAYERS), "name": f"bench {n}"})
            if status != 201:
                raise RuntimeError(f"POST /api/v1/tables answered {status}: {answer}")
            tables.append((answer["id"], answer["token"]))
        # each table's first hand must be accepted, or the whole run is errors
        result = drive(server.port, clients_for(tables, "/api/v1"), SECONDS)
        memory = [(pid, status_kb(pid, "VmHWM"), status_kb(pid, "VmRSS")) for pid in server.worker_pids()]
        return result, memory, result.ok // CLIENTS


def run_bare(workdir: Path) -> LoadResult:
    env = {"BARE_DB": str(workdir / "bare.sqlite3")}
    with gunicorn("tests.bench.bare_app:create_app()", env) as server:
        tables = [(f"bare{n}", "x" * 43) for n in range(CLIENTS)]
        return drive(server.port, clients_for(tables, ""), SECONDS)


def main() -> None:
    machine()
    print(f"  load: {CLIENTS} clients, {SECONDS:.0f} s each run, Python threads + http.client "
          f"(closed loop, one table per client), gunicorn 2 sync workers on {HOST}")
    workdir = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    try:
        ours, memory, per_table = run_ours(workdir)
        print_latency("ours", ours)
        print(f"  [ours] about {per_table} hands per table at the end of the run")
        for pid, hwm, rss in memory:
            figure(f"worker {pid}: peak RSS (VmHWM)", (hwm or 0) / 1024, "MB", f"< {RSS_TARGET_MB:.0f} MB",
                   hwm is not None and hwm / 1024 < RSS_TARGET_MB)
            print(f"    (VmRSS now {(rss or 0) / 1024:.1f} MB)")
        if not memory:
            print("  workers' memory: no worker found under the gunicorn master")

        bare = run_bare(workdir)
        print_latency("bare", bare)
        ratio = ours.rate / bare.rate if bare.rate else 0.0
        figure("throughput ratio ours / bare", 100 * ratio, "%", f">= {100 * RATIO_TARGET:.0f} %", ratio >= RATIO_TARGET)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
