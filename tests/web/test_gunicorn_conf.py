"""gunicorn with Referee's settings (referee/gunicorn_conf.py), as the service starts it: no
control socket. gunicorn 25+ opens one by default in ``$XDG_RUNTIME_DIR`` or ``$HOME/.gunicorn``:
under the unit's read-only file system that logs an ``[ERROR]`` at every start, and two servers
run by one user would share it. Referee never uses ``gunicornc``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

HELLO = """
def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"hello"]
"""


def serve_once(tmp_path: Path, home: Path) -> str:
    """Start gunicorn with the settings on a free port, fetch one page, stop it: its log."""
    (tmp_path / "hello.py").write_text(HELLO)
    env = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "gunicorn", "--config", "python:referee.gunicorn_conf"]
    command += ["--bind", "127.0.0.1:0", "--workers", "1", "--pythonpath", str(tmp_path), "hello:app"]
    server = subprocess.Popen(command, env=env, cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    assert server.stderr is not None
    log = []
    try:
        deadline = time.monotonic() + 30
        while not (port := re.search(r"Listening at: http://127\.0\.0\.1:(\d+)", "".join(log))):
            assert time.monotonic() < deadline and server.poll() is None, "".join(log)
            log.append(server.stderr.readline())
        while True:  # the worker may still be booting
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port[1]}/", timeout=2) as answer:
                    assert answer.read() == b"hello"
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.1)
    finally:
        server.terminate()
        log.append(server.communicate(timeout=30)[1])
    return "".join(log)


def test_no_control_socket_and_no_error_at_start(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    log = serve_once(tmp_path, home)
    assert "[ERROR]" not in log, log
    assert not (home / ".gunicorn").exists()  # so two servers of one user share nothing either


def test_a_home_it_cannot_write_logs_no_error(tmp_path: Path) -> None:
    """As under ProtectSystem=strict, where the service user's home (/opt/referee) is read-only;
    a home below a plain file cannot be written even by root."""
    (tmp_path / "file").write_text("")
    log = serve_once(tmp_path, tmp_path / "file" / "home")
    assert "[ERROR]" not in log and "control socket" not in log.lower(), log
