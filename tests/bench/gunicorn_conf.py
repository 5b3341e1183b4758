"""gunicorn config for the benchmarks: the server as `make run` starts it (referee.gunicorn_conf)
plus a readiness hook. Each worker touches $BENCH_READY_DIR/<pid> once its app is loaded, so a run starts
when every worker can answer (not while one is still importing the app)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

# The settings `make run` uses (no Server header; threaded keep-alive workers unless a bench
# asks for sync workers on the command line, as the load benchmarks do).
from referee.gunicorn_conf import keepalive, post_fork, threads, worker_class  # noqa: F401


def post_worker_init(worker: Any) -> None:
    ready = os.environ.get("BENCH_READY_DIR")
    if ready:
        (Path(ready) / str(os.getpid())).touch()
