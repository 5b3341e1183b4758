"""gunicorn config for the benchmarks: only a readiness hook, the server is otherwise as `make run`
starts it. Each worker touches $BENCH_READY_DIR/<pid> once its app is loaded, so a run starts
when every worker can answer (not while one is still importing the app)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def post_worker_init(worker: Any) -> None:
    ready = os.environ.get("BENCH_READY_DIR")
    if ready:
        (Path(ready) / str(os.getpid())).touch()
