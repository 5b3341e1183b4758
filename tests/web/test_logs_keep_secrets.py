"""No secret reaches a log: the production server (gunicorn with ``referee.gunicorn_conf``, as
`make run` and deploy/referee.service start it, access log on) writes neither a link's token
(``/j/``, ``/f/``, also in the Referer), nor the API's bearer token, nor the session cookie,
nor a token in a query; and the app's own log of an exception leaves the path's token out."""

from __future__ import annotations

import http.client
import logging
import os
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask

from referee import access, redact
from referee.serve import caddy
from tests.bench import _common

#: The default access-log format (what `make run` writes) and, after it, every atom that could
#: carry a secret: the path, the query, and the bearer and cookie headers.
FORMAT = (
    '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" '
    '%(U)s %(q)s "%({authorization}i)s" "%({cookie}i)s" "%({raw_uri}e)s" "%({http_referer}e)s"'
)


@contextmanager
def served(workdir: Path) -> Iterator[tuple[int, Path, Path]]:
    """gunicorn on a port the system picks (read from its log), logging requests to a file."""
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
    access_log, error_log = workdir / "access.log", workdir / "error.log"
    proc = subprocess.Popen(
        [str(_common.GUNICORN), "--config", "python:referee.gunicorn_conf", "--bind", f"{_common.HOST}:0"]
        + ["--workers", "1", "--log-level", "info", "--access-logfile", str(access_log)]
        + ["--access-logformat", FORMAT, "--error-logfile", str(error_log), "tests.bench.wsgi:referee()"],
        cwd=_common.ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield _common.gunicorn_port(proc, error_log), access_log, error_log
    finally:
        _common.stop(proc)


def _lines(path: Path, count: int, timeout: float = 30.0) -> str:
    """The access log once it holds ``count`` lines (gunicorn writes each after its answer)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = path.read_text() if path.exists() else ""
        if text.count("\n") >= count:
            return text
        time.sleep(0.05)
    raise AssertionError(f"the access log has fewer than {count} lines:\n{text}")


def test_the_production_server_logs_no_token(tmp_path: Path) -> None:
    link, card, bearer, cookie, query = (secrets.token_urlsafe(32) for _ in range(5))
    with served(tmp_path) as (port, access_log, error_log):
        # The first answer waits for the worker to load the app: no bound a loaded machine meets.
        conn = http.client.HTTPConnection(_common.HOST, port, timeout=300)
        requests = [
            ("GET", f"/j/{link}", {}),
            ("GET", f"/f/{card}?x=1", {}),
            ("GET", "/static/css/app.css", {"Referer": f"http://{_common.HOST}:{port}/j/{link}"}),
            ("GET", "/api/v1/tables/nothing", {"Authorization": f"Bearer {bearer}", "Cookie": f"session={cookie}"}),
            ("GET", f"/?token={query}&lang=en", {}),
        ]
        for method, path, headers in requests:
            conn.request(method, path, headers=headers)
            conn.getresponse().read()
        conn.close()
        logged = _lines(access_log, len(requests))
    for secret in (link, card, bearer, cookie, query):
        assert secret not in logged
        assert secret not in error_log.read_text()
    assert logged.count("/j/…") >= 2 and "/f/…?x=1" in logged and "token=…&lang=en" in logged
    assert '"Bearer' not in logged and '"…"' in logged  # the headers' atoms are hidden whole
    assert "/static/css/app.css" in logged  # what carries no secret is logged as it was


def test_every_route_with_a_token_in_its_path_is_hidden(app: Flask) -> None:
    """A route added with a ``<token>`` in its path must be covered by the log's redaction."""
    token = access.new_token()
    routes = [rule for rule in app.url_map.iter_rules() if "token" in rule.arguments]
    assert {rule.rule for rule in routes} >= {"/j/<token>", "/f/<token>"}
    for rule in routes:
        path = rule.rule.replace("<token>", token)
        assert token not in redact.text(f"GET {path} HTTP/1.1"), rule.rule


def test_a_token_behind_an_encoded_slash_is_hidden_too() -> None:
    """gunicorn decodes ``%2F`` in the path, so ``/j%2F<token>`` opens the link like ``/j/<token>``."""
    token = access.new_token()
    for path in (f"/j%2F{token}", f"/%6A%2f{token}", f"/F/{token}"):
        assert token not in redact.text(f"GET {path} HTTP/1.1"), path


def test_the_app_logs_an_exception_without_the_link_s_token(
    app: Flask, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = access.new_token()

    def broken(*_args: object) -> None:
        raise RuntimeError(f"while opening /j/{token}")  # the traceback is rewritten too

    monkeypatch.setattr(access, "hash_secret", broken)
    app.config.update(TESTING=False, PROPAGATE_EXCEPTIONS=False)
    with caplog.at_level(logging.ERROR):
        assert app.test_client().get(f"/j/{token}").status_code == 500
    assert "Exception on /j/…" in caplog.text
    assert token not in caplog.text
    assert all(token not in record.getMessage() for record in caplog.records)


def test_caddys_own_log_keeps_no_token(tmp_path: Path) -> None:
    """Caddy, in front for `make run` and the service, logs a request when it fails it (here:
    gunicorn gone, a 502): that line keeps the path without the link's token or the query."""
    if shutil.which("caddy") is None:
        pytest.skip("Caddy is not installed (make system-deps installs it): nothing of Caddy's to read")
    with _common.reserved_port() as port, _common.refused_port() as dead:
        _caddys_log_of_failed_requests(tmp_path, port, dead)


def _caddys_log_of_failed_requests(tmp_path: Path, port: int, dead: int) -> None:
    config = tmp_path / "Caddyfile"
    config.write_text(caddy.caddyfile(upstreams=[f"127.0.0.1:{dead}"], http_port=port, bind=_common.HOST))
    folders = {"XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    log = tmp_path / "caddy.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            ["caddy", "run", "--adapter", "caddyfile", "--config", str(config)],
            env={**os.environ, **folders},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    link, query = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    # A path gunicorn decodes to /j/<token> (or /f/) routes there however it was spelled: every
    # spelling is hidden, not only the plain one.
    spellings = [f"/{prefix}/{link}" for prefix in ("j", "%6a", "%6A", "%66", "F")]
    spellings += [f"//j/{link}", f"/j%2f{link}", f"/%6A%2F{link}"]
    spellings += [f"/k/clube/j/{link}", f"/k/clube/%66/{link}"]  # in a club's address (referee/clubs.py)
    spellings += [f"/eu/{link}", f"/%65%75/{link}", f"/k/clube/EU/{link}"]  # a phone's binding link
    try:
        statuses = []
        requests = [(path, {}) for path in spellings]
        requests.append((f"/?token={query}", {"Referer": f"http://x/j/{link}"}))
        for path, headers in requests:
            statuses.append(_status_when_up(port, path, headers, proc))
        logged = _lines(log, len(requests))
        deadline = time.monotonic() + 30
        while logged.count('"uri": "') < len(requests) and time.monotonic() < deadline:
            time.sleep(0.05)
            logged = log.read_text()
    finally:
        _common.stop(proc)
    assert statuses == [502] * len(requests)
    assert link not in logged and query not in logged
    assert '"uri": "/j/…"' in logged and '"uri": "/…"' in logged and '"uri": "/%6A/…"' in logged
    assert '"uri": "/k/clube/j/…"' in logged


def _status_when_up(port: int, path: str, headers: dict[str, str], proc: subprocess.Popen[bytes]) -> int:
    """The status Caddy answers ``path`` with, once it listens."""
    deadline = time.monotonic() + 30
    while True:
        assert proc.poll() is None, "Caddy stopped"
        try:
            conn = http.client.HTTPConnection(_common.HOST, port, timeout=10)
            conn.request("GET", path, headers=headers)
            status = conn.getresponse().status
            conn.close()
            return status
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
