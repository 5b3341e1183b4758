"""POST /api/v1/tables/{id}/hands for Quatrilho under load on the production server.

`.venv/bin/python -m tests.bench.bench_quatrilho_api`. Prints figures; never asserts a timing.

The machinery of bench_api (Jubileu): gunicorn with WORKERS sync workers and the real factory,
a temp SQLite file, the closed-loop generator of _common.drive with 20 clients for ~10 s
(BENCH_SECONDS), one table per client posting valid hands in order. The tables have five
players, so every hand runs the rotation and the sit-out (the dealer sits out); the hands are
the mix of tests/bench/quatrilho_hands.py. No bare baseline here: bench_api measures it.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from ._common import LoadResult, drive, figure, machine, post_json, referee_server, report_load
from .bench_api import CLIENTS, P95_TARGET_MS, SECONDS
from .quatrilho_hands import PLAYERS, TEMPLATES, period, record


def bodies() -> list[bytes]:
    """The hand records of one table in order; the sequence repeats every `period()` hands
    (templates x dealer rotation), so hand k of a table is always bodies()[k % period]."""
    return [json.dumps(record(PLAYERS, k)).encode() for k in range(period())]


def clients_for(tables: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    sequence = bodies()

    def make(table_id: str, token: str):  # type: ignore[no-untyped-def]
        path = f"/api/v1/tables/{table_id}/hands"
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}

        def client(i: int) -> tuple[str, bytes, dict[str, str]]:
            return path, sequence[i % len(sequence)], headers

        return client

    return [make(t, tok) for t, tok in tables]


def new_table(base: str, n: int) -> tuple[str, str]:
    status, answer = post_json(base, "/api/v1/tables", {"game": "quatrilho", "players": list(PLAYERS), "name": f"bench {n}"})
    if status != 201:
        raise RuntimeError(f"POST /api/v1/tables answered {status}: {answer}")
    return answer["id"], answer["token"]


def check_sequence(base: str) -> None:
    """Two full periods on a scratch table, one by one: every hand must be accepted (a refused
    record would turn the load run into an error count, not a latency figure)."""
    table_id, token = new_table(base, -1)
    sequence = bodies()
    for k in range(2 * len(sequence)):
        status, answer = post_json(base, f"/api/v1/tables/{table_id}/hands", json.loads(sequence[k % len(sequence)]),
                                   {"Authorization": f"Bearer {token}"})
        if status != 201:
            raise RuntimeError(f"hand {k + 1} ({TEMPLATES[k % len(TEMPLATES)][0]}) answered {status}: {answer}")


def run(workdir: Path) -> tuple[LoadResult, int]:
    with referee_server(workdir) as server:
        check_sequence(server.base)
        tables = [new_table(server.base, n) for n in range(CLIENTS)]
        result = drive(server.port, clients_for(tables), SECONDS)
        return result, result.ok // CLIENTS


def main() -> None:
    machine()
    print(f"  load: {CLIENTS} clients, {SECONDS:.0f} s, one {len(PLAYERS)}-player Quatrilho table per client "
          f"(the dealer sits out), {len(TEMPLATES)} kinds of hand in rotation")
    workdir = Path(tempfile.mkdtemp(prefix="referee-bench-quatrilho-"))
    try:
        result, per_table = run(workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    report_load("quatrilho", result)
    figure(f"quatrilho: requests/s ({CLIENTS} clients)", result.rate, "req/s", "(none: track)", None)
    figure("quatrilho: p50 latency", result.percentile(50), "ms", "", None)
    p95 = result.percentile(95)
    figure("quatrilho: p95 latency", p95, "ms", f"< {P95_TARGET_MS:.0f} ms", p95 < P95_TARGET_MS)
    figure("quatrilho: p99 latency", result.percentile(99), "ms", "", None)
    print(f"  [quatrilho] about {per_table} hands per table at the end of the run")
    windows = result.rate_by_window()
    peak = max(windows, default=0.0)
    if peak and windows[-1] < 0.7 * peak:
        print(f"  [quatrilho] NOTE: throughput falls as tables grow ({peak:,.0f} -> {windows[-1]:,.0f} req/s):"
              " the cost of a POST grows with the hands already at the table")


if __name__ == "__main__":
    main()
