"""POST /api/v1/tables/{id}/hands for any game under load on the production server.

The machinery of bench_api (Jubileu): gunicorn with WORKERS sync workers and the real factory,
a temp SQLite file, the closed-loop generator of _common.drive with 20 clients for ~10 s
(BENCH_SECONDS), one table per client posting valid hands in order. A game's bench gives its
players, its records in rotation order (hand k of a table is ``records[k % len(records)]``)
and, if needed, table options. Prints figures; never asserts a timing.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from . import _common
from ._common import LoadResult, drive, figure, hand_clients, post_json, referee_server, report_load
from .bench_api import CLIENTS, P95_TARGET_MS, SECONDS


def api_figures(
    game: str,
    players: Sequence[str],
    records: Sequence[Mapping[str, Any]],
    kinds: Sequence[str],
    *,
    options: Mapping[str, Any] | None = None,
) -> None:
    bodies = [json.dumps(r).encode() for r in records]
    workdir = Path(tempfile.mkdtemp(prefix=f"referee-bench-{game}-"))

    def new_table(base: str, n: int) -> tuple[str, str]:
        return _common.new_table(base, game, players, n, options)

    def check_sequence(base: str) -> None:
        """Two full periods on a scratch table, one by one: every hand must be accepted (a
        refused record would turn the load run into an error count, not a latency figure)."""
        table_id, token = new_table(base, -1)
        for k in range(2 * len(bodies)):
            status, answer = post_json(
                base,
                f"/api/v1/tables/{table_id}/hands",
                json.loads(bodies[k % len(bodies)]),
                {"Authorization": f"Bearer {token}"},
            )
            if status != 201:
                raise RuntimeError(f"hand {k + 1} ({kinds[k % len(kinds)]}) answered {status}: {answer}")

    def run() -> tuple[LoadResult, int]:
        with referee_server(workdir) as server:
            check_sequence(server.base)
            tables = [new_table(server.base, n) for n in range(CLIENTS)]
            result = drive(server.port, hand_clients(tables, bodies), SECONDS)
            return result, result.ok // CLIENTS

    try:
        result, per_table = run()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    report_load(game, result)
    figure(f"{game}: requests/s ({CLIENTS} clients)", result.rate, "req/s", "(none: track)", None)
    figure(f"{game}: p50 latency", result.percentile(50), "ms", "", None)
    p95 = result.percentile(95)
    figure(f"{game}: p95 latency", p95, "ms", f"< {P95_TARGET_MS:.0f} ms", p95 < P95_TARGET_MS)
    figure(f"{game}: p99 latency", result.percentile(99), "ms", "", None)
    print(f"  [{game}] about {per_table} hands per table at the end of the run")
    windows = result.rate_by_window()
    peak = max(windows, default=0.0)
    if peak and windows[-1] < 0.7 * peak:
        print(
            f"  [{game}] NOTE: throughput falls as tables grow ({peak:,.0f} -> {windows[-1]:,.0f} req/s):"
            " the cost of a POST grows with the hands already at the table"
        )
