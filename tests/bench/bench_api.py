"""POST /api/v1/tables/{id}/hands under load on the production server, against a bare baseline.

`.venv/bin/python -m tests.bench.bench_api`. Prints figures; never asserts a timing.

- Ours: gunicorn, 2 sync workers, the real factory (tests/bench/wsgi.py: `create_app()` with a
  temp instance folder), DATABASE_URL pointing at a temp SQLite file.
- Bare: tests/bench/bare_app.py (Flask + one INSERT into SQLite, same pragmas), same gunicorn.
- Between the two, the least a correct save must do (tests/bench/least_save_app.py: the table and
  its seats read, the hand judged by our rules engine, state, hand, deltas and seats written in
  one transaction), once on Python's sqlite3 and once on Flask-SQLAlchemy with Core statements:
  what the stack itself costs, apart from what Referee adds on top.
- Load: a Python closed-loop generator (_common.drive: threads, one raw HTTP/1.1 exchange per
  request on a new connection, as gunicorn's sync workers close after each answer), 20 clients
  for ~10 s, each posting valid hands, in order, to its own table: we measure throughput, not
  numbering conflicts. wrk cannot give each connection its own table (its Lua request() does not
  know the connection), and a shared table would turn the run into a 409 storm. Same generator
  for both servers, so the ratio is fair; its CPU use is printed (it shares the 2 cores).
- The bare server is also driven by wrk for 5 s, as a check that the Python generator is not
  the bottleneck.
- Then the peak RSS (VmHWM) of each worker of our server, read from /proc after the load.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import rotation
from ._common import (
    HOST,
    WORKERS,
    LoadResult,
    drive,
    figure,
    gunicorn,
    hand_clients,
    load,
    machine,
    new_table,
    quick,
    referee_server,
    report_load,
    sized,
    status_kb,
)
from .hands import PLAYERS, TEMPLATES, record

CLIENTS = 20
SECONDS = float(os.environ.get("BENCH_SECONDS", sized("10", "2")))
P95_TARGET_MS = 50.0
#: The API's save against a bare Flask insert, both on the same gunicorn settings.
RATIO_TARGET = 0.6
RSS_TARGET_MB = 80.0
WRK_SECONDS = sized(5.0, 1.0)


def bodies() -> list[bytes]:
    """The hand records of one table in order; the sequence repeats every `period` hands."""
    period = rotation.period(TEMPLATES, PLAYERS)  # templates x dealer rotation
    return [json.dumps(record(PLAYERS, k)).encode() for k in range(period)]


def print_latency(name: str, result: LoadResult) -> None:
    report_load(name, result)
    figure(f"{name}: requests/s ({CLIENTS} clients)", result.rate, "req/s", "(see ratio)", None)
    figure(f"{name}: p50 latency", result.percentile(50), "ms", "", None)
    figure(
        f"{name}: p95 latency",
        result.percentile(95),
        "ms",
        f"< {P95_TARGET_MS:.0f} ms" if name == "ours" else "",
        result.percentile(95) < P95_TARGET_MS if name == "ours" else None,
    )
    figure(f"{name}: p99 latency", result.percentile(99), "ms", "", None)


def run_ours(workdir: Path) -> tuple[LoadResult, list[tuple[int, int | None, int | None]], int]:
    with referee_server(workdir) as server:
        tables = [new_table(server.base, "jubileu", PLAYERS, n) for n in range(CLIENTS)]
        result = drive(server.port, hand_clients(tables, bodies()), SECONDS)
        memory = [(pid, status_kb(pid, "VmHWM"), status_kb(pid, "VmRSS")) for pid in server.worker_pids()]
        return result, memory, result.ok // CLIENTS


def run_bare(workdir: Path) -> tuple[LoadResult, str | None]:
    env = {"BARE_DB": str(workdir / "bare.sqlite3")}
    with gunicorn("tests.bench.bare_app:create_app()", env) as server:
        tables = [(f"bare{n}", "x" * 43) for n in range(CLIENTS)]
        result = drive(server.port, hand_clients(tables, bodies(), prefix=""), SECONDS)
        return result, wrk_cross_check(server.port, workdir)


#: The references between the bare insert and our save: label and gunicorn app spec.
LEAST_SAVES = (
    ("least save, sqlite3", 'tests.bench.least_save_app:create_app("raw")'),
    ("least save, SQLAlchemy Core", 'tests.bench.least_save_app:create_app("core")'),
)


def run_least(workdir: Path, label: str, spec: str) -> LoadResult:
    env = {"BARE_DB": str(workdir / f"least-{len(label)}.sqlite3")}
    with gunicorn(spec, env) as server:
        tables = [(f"least{n}", "x" * 43) for n in range(CLIENTS)]
        return drive(server.port, hand_clients(tables, bodies(), prefix=""), SECONDS)


def wrk_cross_check(port: int, workdir: Path) -> str | None:
    """The bare server under wrk too (it has no per-table numbering, so wrk can drive it): if wrk
    gets much more out of it than the Python generator, the generator is the bottleneck."""
    wrk = shutil.which("wrk") or "/usr/bin/wrk"
    if not Path(wrk).exists():
        return None
    script = workdir / "bare.lua"
    body = bodies()[0].decode()
    script.write_text(
        f'wrk.method = "POST"\nwrk.body = {json.dumps(body)}\nwrk.headers["Content-Type"] = "application/json"\n'
    )
    seconds = max(1, round(WRK_SECONDS))
    try:
        out = subprocess.run(
            [
                wrk,
                "-t2",
                f"-c{CLIENTS}",
                f"-d{seconds}s",
                "--latency",
                "-s",
                str(script),
                f"http://{HOST}:{port}/tables/wrk/hands",
            ],
            capture_output=True,
            text=True,
            timeout=seconds + 30,
        ).stdout
    except subprocess.TimeoutExpired:
        return "wrk did not finish in time"
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    pct = dict(re.findall(r"^\s+(50|90|99)%\s+(\S+)$", out, re.M))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if not rate:
        return "wrk gave no figure:\n" + out[-1000:]
    return f"{float(rate.group(1)):,.0f} req/s, p50 {pct.get('50')}, p90 {pct.get('90')}, p99 {pct.get('99')}" + (
        f", {non2xx.group(1)} non-2xx" if non2xx else ""
    )


def main() -> None:
    machine()
    print(
        f"  load: {CLIENTS} clients, {SECONDS:.0f} s each run, Python threads + raw sockets "
        f"(closed loop, one table per client, after a 2 s warm-up that is not measured), gunicorn {WORKERS} sync workers on {HOST}"
    )
    workdir = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    try:
        ours, memory, per_table = run_ours(workdir)
        print_latency("ours", ours)
        print(f"  [ours] about {per_table} hands per table at the end of the run")
        windows = ours.rate_by_window()
        if windows[-1] < 0.7 * max(windows):
            print(
                f"  [ours] NOTE: throughput falls as tables grow ({max(windows):,.0f} -> {windows[-1]:,.0f} req/s):"
                " the cost of a POST grows with the hands already at the table"
            )
        for pid, hwm, rss in memory:
            figure(
                f"worker {pid}: peak RSS (VmHWM)",
                (hwm or 0) / 1024,
                "MB",
                f"< {RSS_TARGET_MB:.0f} MB",
                hwm is not None and hwm / 1024 < RSS_TARGET_MB,
            )
            print(f"    (VmRSS now {(rss or 0) / 1024:.1f} MB)")
        if not memory:
            print("  workers' memory: no worker found under the gunicorn master")

        load()
        bare, wrk_line = run_bare(workdir)
        print_latency("bare", bare)
        if wrk_line:
            print(f"  [bare] cross-check with wrk -t2 -c{CLIENTS} -d{WRK_SECONDS:.0f}s (same body): {wrk_line}")
        least: dict[str, float] = {}
        for label, spec in LEAST_SAVES:
            load()
            result = run_least(workdir, label, spec)
            report_load(label, result)
            least[label] = result.rate
        for label, rate in least.items():
            share = rate / bare.rate if bare.rate else 0.0
            print(f"  {label} / bare insert: {share:.2f}")
        core = least[LEAST_SAVES[-1][0]]
        print(f"  API save / {LEAST_SAVES[-1][0]}: {ours.rate / core if core else 0.0:.2f}")
        ratio = ours.rate / bare.rate if bare.rate else 0.0
        print(f"  API save / bare insert at {CLIENTS} connections: {ratio:.2f} (target >= {RATIO_TARGET})")
        figure(
            "throughput ratio ours / bare",
            100 * ratio,
            "%",
            f">= {100 * RATIO_TARGET:.0f} %",
            None if quick() else ratio >= RATIO_TARGET,
        )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
