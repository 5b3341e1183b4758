"""Eight large imports sent at once to the production server (gunicorn with referee's own
config: threaded workers, ``make run``'s two) while a scorer saves hands:

    .venv/bin/python -m tests.bench.run imports
    BENCH_DATABASE_URL=postgresql+psycopg://... .venv/bin/python -m tests.bench.run imports

Prints the scorer's save latency (p50, p95, max) while the imports are attempted, how each
import was answered (201 stored, 429 told another import runs, anything else), and how long the
wave took. The database is a temp SQLite file, or the (empty) PostgreSQL database
BENCH_DATABASE_URL names. Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from . import _common
from . import hands as jubileu_hands
from ._common import Server, figure, machine, new_table, post_json, referee_server
from .import_documents import seed, sized

IMPORTS = int(os.environ.get("BENCH_IMPORTS", _common.sized("8", "1")))
DOCUMENT_BYTES = int(os.environ.get("BENCH_IMPORT_BYTES", _common.sized("750000", "60000")))
SEED_HANDS = 100


def server(workdir: Path) -> AbstractContextManager[Server]:
    """gunicorn as ``make run`` starts it (the production config's workers), on BENCH_DATABASE_URL
    when set."""
    return referee_server(workdir, worker_class=None, database_url=os.environ.get("BENCH_DATABASE_URL", ""))


def _scorer(base: str, stop: threading.Event, latencies: list[float], errors: Counter[int]) -> None:
    table_id, token = new_table(base, "jubileu", jubileu_hands.PLAYERS, 0)
    k = 0
    while not stop.is_set():
        started = time.perf_counter()
        try:
            status, _body = post_json(
                base,
                f"/api/v1/tables/{table_id}/hands",
                jubileu_hands.record(jubileu_hands.PLAYERS, k),
                {"Authorization": f"Bearer {token}"},
            )
        except OSError:  # no answer within post_json's 10 s
            status = 0
        if status == 201:
            latencies.append(time.perf_counter() - started)
            k += 1
        else:
            errors[status] += 1
        time.sleep(0.05)


def _import(base: str, code: str, document: dict[str, Any], gate: threading.Barrier) -> str:
    gate.wait(timeout=60)
    request = urllib.request.Request(
        base + "/api/v1/import",
        data=json.dumps(document).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "X-Referee-Club-Code": code},
    )
    try:
        with urllib.request.urlopen(request, timeout=600) as response:
            return str(response.status)
    except urllib.error.HTTPError as exc:
        return f"{exc.code} {exc.read()[:80].decode(errors='replace')}"
    except OSError as exc:
        return f"no answer ({exc!r})"


def main() -> None:
    machine()
    with tempfile.TemporaryDirectory(prefix="bench-imports-") as scratch:
        workdir = Path(scratch)
        base_document = seed(workdir, SEED_HANDS)
        documents = [sized(base_document, DOCUMENT_BYTES, f"bench-wave-{n}") for n in range(IMPORTS)]
        size = len(json.dumps(documents[0]))
        hands = sum(len(t["hands"]) for t in documents[0]["tables"])
        print(f"  {IMPORTS} documents of {size / 1e3:.0f} KB ({hands:,} hands each)", flush=True)
        with server(workdir) as running:
            base = running.base
            code = (workdir / "instance" / "club_code").read_text(encoding="ascii").strip()
            stop, latencies, errors = threading.Event(), [], Counter()
            scorer = threading.Thread(target=_scorer, args=(base, stop, latencies, errors), daemon=True)
            scorer.start()
            time.sleep(1)  # the scorer at work before the imports come
            gate = threading.Barrier(IMPORTS)
            started = time.perf_counter()
            with ThreadPoolExecutor(IMPORTS) as pool:
                outcomes = list(pool.map(lambda d: _import(base, code, d, gate), documents))
            seconds = time.perf_counter() - started
            time.sleep(1)
            stop.set()
            scorer.join(60)
        answered = Counter(o.split(" ", 1)[0] for o in outcomes)
        print(f"  imports answered: {dict(sorted(answered.items()))} in {seconds:.1f} s", flush=True)
        for outcome in sorted({o for o in outcomes if not o.startswith(("201", "429"))}):
            print(f"  import answer: {outcome}", flush=True)
        ordered = sorted(latencies)
        if ordered:
            figure("scorer save p50", 1000 * statistics.median(ordered), "ms", "", None)
            p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
            figure("scorer save p95", 1000 * p95, "ms", "< 1000 ms", p95 < 1)
            figure("scorer save max", 1000 * ordered[-1], "ms", "", None)
        figure("scorer saves", len(ordered), "", "", None)
        figure("scorer answers not 201", sum(errors.values()), "", "0", not errors)
        for status, n in sorted(errors.items()):
            print(f"  scorer got {f'HTTP {status}' if status else 'no answer in 10 s'} x{n}", flush=True)
        _common.failed_requests("scorer", sum(errors.values()))


if __name__ == "__main__":
    main()
