"""A worker's memory under a long steady API load: does it stay near its warm level?

`.venv/bin/python -m tests.bench.bench_soak` (part of `make bench`). gunicorn as `make run` serves
(the production config: threaded workers), the real factory, a temp SQLite file; 20 closed-loop
clients post Jubileu hands through the API, one table each, for BENCH_SOAK_SECONDS (600; 10 in
quick mode). Every worker's resident memory (VmRSS) is read at the end of the warm-up (the first
tenth of the run, at least 5 s: templates, catalogues and the statements' caches are filled by
then) and at the end; the growth between the two is the figure. A memory that grows with every
request (a cache or a registry without a bound) grows linearly here, and a worker would in time
eat the machine. What keeps it flat: each SQLite connection's page cache is bounded (referee/db.py)
and so are each worker's malloc arenas (referee/gunicorn_conf.py); before, a worker grew by about
3 KB a request for its first ten thousand saves (tests/web/test_memory_bounds.py counts both).

Prints; judges the growth only in the full run (a quick run is too short to say anything).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from ._common import (
    drive,
    figure,
    hand_clients,
    machine,
    new_table,
    quick,
    referee_server,
    report_load,
    sized,
    status_kb,
)
from .bench_api import bodies
from .hands import PLAYERS

CLIENTS = 20
SECONDS = float(os.environ.get("BENCH_SOAK_SECONDS", sized("600", "10")))
WARM_UP = max(5.0, SECONDS / 10)
SAMPLE_EVERY = max(1.0, SECONDS / 20)
#: A worker's growth from its warm level to the end of a full run, at most (MB).
GROWTH_TARGET_MB = 5.0


@dataclass
class Samples:
    """Each worker's VmRSS (kB) over the run, read every SAMPLE_EVERY seconds by a thread."""

    pids: list[int]
    by_pid: dict[int, list[tuple[float, int]]] = field(default_factory=dict)
    #: The last read's split of VmRSS: the process's own heap (RssAnon) and the files and shared
    #: memory it maps (RssFile, RssShmem: SQLite's WAL index), which grow for other reasons.
    split: dict[int, str] = field(default_factory=dict)

    def read(self, at: float) -> None:
        for pid in self.pids:
            rss = status_kb(pid, "VmRSS")
            if rss is not None:
                self.by_pid.setdefault(pid, []).append((at, rss))
                parts = ((key, status_kb(pid, key)) for key in ("RssAnon", "RssFile", "RssShmem"))
                self.split[pid] = ", ".join(f"{key} {kb / 1024:.1f} MB" for key, kb in parts if kb is not None)

    def at(self, pid: int, moment: float) -> int:
        """The first sample at or after ``moment`` seconds (the last one if none)."""
        taken = self.by_pid[pid]
        return next((rss for t, rss in taken if t >= moment), taken[-1][1])


def sample(samples: Samples, stop: threading.Event) -> None:
    started = 0.0
    while True:
        samples.read(started)
        if stop.wait(SAMPLE_EVERY):
            break
        started += SAMPLE_EVERY
    samples.read(started)


def main() -> None:
    machine()
    print(
        f"  load: {CLIENTS} clients posting Jubileu hands for {SECONDS:.0f} s after a 2 s warm-up, one table each; "
        f"warm level read at {WARM_UP:.0f} s; gunicorn with the production config",
        flush=True,
    )
    workdir = Path(tempfile.mkdtemp(prefix="referee-bench-soak-"))
    try:
        with referee_server(workdir, worker_class=None) as server:
            tables = [new_table(server.base, "jubileu", PLAYERS, n) for n in range(CLIENTS)]
            samples = Samples(server.worker_pids())
            stop = threading.Event()
            sampler = threading.Thread(target=sample, args=(samples, stop), daemon=True)
            sampler.start()
            try:
                result = drive(server.port, hand_clients(tables, bodies()), SECONDS)
            finally:
                stop.set()
                sampler.join()
        report_load("soak", result)
        print(f"  [soak] {result.ok:,} requests, about {result.ok // CLIENTS} hands per table at the end", flush=True)
        grown = []
        for pid in samples.pids:
            if pid not in samples.by_pid:
                print(f"  worker {pid}: no memory read (gone?)", flush=True)
                continue
            warm = samples.at(pid, WARM_UP) / 1024
            end = samples.by_pid[pid][-1][1] / 1024
            figure(f"worker {pid}: VmRSS warm ({WARM_UP:.0f} s)", warm, "MB", "", None)
            figure(f"worker {pid}: VmRSS at the end", end, "MB", "", None)
            growth = end - warm
            ok = None if quick() else growth <= GROWTH_TARGET_MB
            figure(f"worker {pid}: growth", growth, "MB", f"<= {GROWTH_TARGET_MB:.0f} MB", ok)
            curve = " ".join(f"{rss / 1024:.0f}" for _t, rss in samples.by_pid[pid])
            print(f"    VmRSS every {SAMPLE_EVERY:.0f} s (MB): {curve}", flush=True)
            print(f"    at the end: {samples.split.get(pid, '')}", flush=True)
            if ok is False:
                grown.append(f"worker {pid} grew {growth:.1f} MB")
        if grown:
            raise RuntimeError(f"under a steady load, {', '.join(grown)}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
