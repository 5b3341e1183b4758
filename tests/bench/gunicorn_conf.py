"""gunicorn config for the benchmarks: the server as `make run` starts it (referee.gunicorn_conf)
plus a readiness hook. Each worker touches $BENCH_READY_DIR/<pid> once its app is loaded, so a run starts
when every worker can answer (not while one is still importing the app)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from referee.gunicorn_conf import post_fork  # noqa: F401 (a setting: no Server header, as `make run`)


def post_worker_init(worker: Any) -> None:
    ready = os.environ.get("BENCH_READY_DIR")
    if ready:
        (Path(ready) / str(os.getpid())).touch()
