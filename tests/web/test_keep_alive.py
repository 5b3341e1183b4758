"""The production server (gunicorn with ``referee.gunicorn_conf``, as `make run` starts it) keeps a
connection open between requests: a phone at the table pays one TCP handshake, not one per tap."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.bench import _common


@contextmanager
def served(workdir: Path) -> Iterator[int]:
    """gunicorn with the settings `make run` uses (no worker class given on the command line)."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{workdir / 'referee.sqlite3'}",
        "BENCH_INSTANCE_PATH": str(workdir / "instance"),
        "PYTHONPATH": str(_common.ROOT),
    }
    subprocess.run(
        [sys.executable, "-c", "from tests.bench.wsgi import referee; referee()"],
        cwd=_common.ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    with (workdir / "gunicorn.log").open("wb") as log:
        proc = subprocess.Popen(
            [str(_common.GUNICORN), "--config", "python:referee.gunicorn_conf", "--bind", f"{_common.HOST}:0"]
            + ["--workers", "1", "--log-level", "info", "tests.bench.wsgi:referee()"],
            cwd=_common.ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        port = _common.gunicorn_port(proc, workdir / "gunicorn.log")
        _wait(proc, port, workdir)
        yield port
    finally:
        _common.stop(proc)


def _wait(proc: subprocess.Popen[bytes], port: int, workdir: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, (workdir / "gunicorn.log").read_text()
        try:
            conn = http.client.HTTPConnection(_common.HOST, port, timeout=5)
            conn.request("GET", "/")
            if conn.getresponse().status == 200:
                conn.close()
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError("gunicorn did not answer:\n" + (workdir / "gunicorn.log").read_text())


def test_two_requests_share_one_connection(tmp_path: Path) -> None:
    with served(tmp_path) as port:
        conn = http.client.HTTPConnection(_common.HOST, port, timeout=10)
        answers = []
        local_ports = []
        for path in ("/", "/static/css/app.css"):
            conn.request("GET", path)
            reply = conn.getresponse()
            reply.read()
            assert conn.sock is not None  # not closed after the answer
            local_ports.append(conn.sock.getsockname()[1])
            answers.append((reply.status, reply.getheader("Connection"), reply.getheader("Server")))
        conn.close()
    assert answers == [(200, "keep-alive", None), (200, "keep-alive", None)]
    assert local_ports[0] == local_ports[1]
