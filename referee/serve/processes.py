"""The launcher's processes: the app prepared once, gunicorn started, waited for and stopped.

gunicorn runs as ``python -m gunicorn`` from the launcher's own interpreter, so a venv that only
lends its packages (or a wheel installed without gunicorn's script on the PATH) still starts it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

#: gunicorn's access log, with the client's address as Caddy saw it (gunicorn's own would be
#: the socket's, empty).
PROXIED_ACCESS_LOG = '%({x-forwarded-for}i)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s"'

#: Run in a fresh interpreter by :func:`prepare_app`: the factory named like gunicorn's app spec
#: (``module:expression``), then its data folder and the club's code in force, grouped as it is
#: typed, one a line.
PREPARE = """
import importlib, sys
from referee import club
module, _, expression = sys.argv[1].partition(":")
app = eval(expression or "app", vars(importlib.import_module(module)))
print(app.instance_path)
print(club.shown(str(app.config["CLUB_CODE"])))
"""


class Prepared(NamedTuple):
    """What the app said once it was ready: its data folder, and the club's code in force."""

    data: str
    code: str


def prepare_app(env: Mapping[str, str] | None = None, spec: str = "referee:create_app()") -> Prepared:
    """Start the app once, before any worker: it creates or upgrades the schema and makes the
    secret key and the club's code on a first run, so that workers starting together race for
    none of them. Answers its data folder and the club's code in force, as the app's config
    decides it (CLUB_CODE, CLUB_CODE_FILE, instance/config.py, else instance/club_code): the
    one to print."""
    run = subprocess.run(
        [sys.executable, "-c", PREPARE, spec],
        env=dict(os.environ if env is None else env),
        stdout=subprocess.PIPE,
        text=True,
        check=False,
    )
    lines = [line.strip() for line in run.stdout.splitlines() if line.strip()]
    if run.returncode != 0 or len(lines) < 2:
        raise SystemExit("The app did not start: see its messages above.")
    return Prepared(data=lines[-2], code=lines[-1])


def gunicorn_command(*, bind: str, workers: int, app: str, proxied: bool) -> list[str]:
    """gunicorn with the production settings (referee.gunicorn_conf), as every mode starts it."""
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        "python:referee.gunicorn_conf",
        "--bind",
        bind,
        "--workers",
        str(workers),
        "--access-logfile",
        "-",
        *(["--access-logformat", PROXIED_ACCESS_LOG] if proxied else []),
        app,
    ]


def wait_until(
    ready: Callable[[], bool], processes: Sequence[subprocess.Popen[bytes]], what: str, seconds: float = 30
) -> None:
    """Poll ``ready()`` until it is true; give up when a process died or after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not ready():
        if any(p.poll() is not None for p in processes) or time.monotonic() > deadline:
            raise SystemExit(f"{what} did not start: see the messages above.")
        time.sleep(0.1)


def answers(address: str | tuple[str, int]) -> bool:
    """Whether something accepts connections there (a Unix socket's path, or a TCP address)."""
    family = socket.AF_UNIX if isinstance(address, str) else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.settimeout(1)
        try:
            s.connect(address)
        except OSError:
            return False
    return True


def serves(address: str | tuple[str, int]) -> bool:
    """Whether the app answers there (any HTTP status): a worker has loaded it, and its start-up
    lines are out before the addresses are printed."""
    family = socket.AF_UNIX if isinstance(address, str) else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.settimeout(5)
        try:
            s.connect(address)
            s.sendall(b"GET /manifest.webmanifest HTTP/1.0\r\nHost: localhost\r\n\r\n")
            return s.recv(16).startswith(b"HTTP/")
        except OSError:
            return False


def free_port(host: str) -> int:
    """A port nobody listens on at ``host`` now, for ``--port 0``: Caddy (Debian's 2.6) cannot
    say which port it took, so the launcher picks one and tells it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def stop(processes: Sequence[subprocess.Popen[bytes]]) -> None:
    """gunicorn first (it finishes the requests under way), then Caddy; killed after 10 s."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
