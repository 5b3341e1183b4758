"""Slow clients against the server `make run` starts, and a scorer saving hands meanwhile: the
pieces the proof test (tests/proof/test_slow_clients.py) and the benchmark
(tests/bench/bench_slow_clients.py) share.

Two ways to serve, both on 127.0.0.1 and a free port, the real factory (tests/bench/wsgi.py) on
a temp database:

- ``"caddy"``: ``python -m referee.serve``, exactly as `make run` calls it (Caddy in front of gunicorn);
- ``"gunicorn"``: gunicorn alone with the production settings, as `make run` served before.

A slow client is one of two kinds, half and half: one byte of a request line and then silence,
or whole headers announcing a body and then one byte now and then. Whenever the server drops
one (Caddy does, past its deadlines), it connects again at once: the pressure never lets up.
"""

from __future__ import annotations

import http.client
import itertools
import json
import os
import re
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from . import _common, hands

HOST = _common.HOST
WAYS = ("gunicorn", "caddy")
#: Seconds a scorer's request may take before it counts as failed: a frozen server fails the
#: test instead of hanging it, and no slow-but-alive server comes near it.
REQUEST_TIMEOUT = 30.0
#: How often a slow body sends its next byte.
TRICKLE = 0.5


@dataclass
class Served:
    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    def output(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""


#: Where the launcher says, once it answers, the address the phones should open.
ANNOUNCED = re.compile(rb"http://127\.0\.0\.1:(\d+)/")
#: Numbers the servers' logs within a work folder (the port is not known before gunicorn starts).
_served = itertools.count(1)


@contextmanager
def serve(
    way: str,
    workdir: Path,
    env: dict[str, str] | None = None,
    workers: int = 2,
    app: str = "tests.bench.wsgi:referee()",
) -> Iterator[Served]:
    """The server started ``way`` (see the module's docstring), answering, then stopped with its
    whole process group (it runs in a session of its own)."""
    full_env = {
        **os.environ,
        "DATABASE_URL": os.environ.get("SLOW_DATABASE_URL") or f"sqlite:///{workdir / 'referee.sqlite3'}",
        "BENCH_INSTANCE_PATH": str(workdir / "instance"),
        "PYTHONPATH": str(_common.ROOT),
        **(env or {}),
    }
    full_env.pop("SECRET_KEY", None)
    if way == "caddy":
        # Port 0: the launcher picks a free one and prints it (its announcement, unbuffered). It
        # may serve with gunicorn alone (no Caddy), so no port can be held for it beforehand.
        command = [sys.executable, "-m", "referee.serve", "--host", HOST, "--port", "0"]
        command += ["--workers", str(workers), "--app", app, "--instance", str(workdir / "instance")]
        full_env["PYTHONUNBUFFERED"] = "1"
    else:
        _common.prepare(full_env)
        # gunicorn binds a port the kernel picks, and says which in its log.
        command = [str(_common.GUNICORN), "--config", "python:referee.gunicorn_conf", "--bind", f"{HOST}:0"]
        command += ["--log-level", "info", "--workers", str(workers), app]
    log = workdir / f"serve-{way}-{next(_served)}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            command, cwd=_common.ROOT, env=full_env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        said = ANNOUNCED if way == "caddy" else _common.LISTENING
        served = Served(proc=proc, port=_common.said_port(proc, log, said), log=log)
        wait_answering(served)
        yield served
    finally:
        _common.stop(proc)


def wait_answering(served: Served, seconds: float = 60.0) -> None:
    """Until the home page answers 200 (every worker may still be loading: one is enough)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if served.proc.poll() is not None:
            raise RuntimeError(f"the server exited ({served.proc.returncode}):\n{served.output()[-3000:]}")
        with suppress(OSError, http.client.HTTPException):
            if request(served.port, "GET", "/", timeout=5)[0] == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"the server did not answer in {seconds:.0f} s:\n{served.output()[-3000:]}")


def request(
    port: int, method: str, path: str, body: object = None, headers: dict[str, str] | None = None, timeout: float = 30
) -> tuple[int, object]:
    """One request on a new connection: (status, parsed JSON or text)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        sent = {"Connection": "close", **(headers or {})}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        connection.request(method, path, body=payload, headers=sent)
        response = connection.getresponse()
        raw = response.read()
        try:
            return response.status, json.loads(raw) if raw else None
        except ValueError:
            return response.status, raw.decode(errors="replace")
    finally:
        connection.close()


class SlowClients:
    """``count`` slow connections kept open (reopened when dropped) by one thread until
    :meth:`close`. ``connected`` is set once every one of them has sent its first bytes."""

    def __init__(self, port: int, count: int) -> None:
        self.port = port
        self.count = count
        self.reconnects = 0
        self.connected = threading.Event()
        self._stop = threading.Event()
        self._selector = selectors.DefaultSelector()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> SlowClients:
        self._thread.start()
        if not self.connected.wait(30) and self.count:
            raise RuntimeError("the slow clients could not connect")
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def _open(self, kind: str) -> None:
        sock = socket.create_connection((HOST, self.port), timeout=REQUEST_TIMEOUT)
        if kind == "byte":
            sock.sendall(b"P")  # the first byte of "POST ...", then nothing
        else:
            sock.sendall(
                f"POST /api/v1/tables HTTP/1.1\r\nHost: {HOST}:{self.port}\r\nContent-Type: application/json\r\n"
                "Content-Length: 4000\r\n\r\n{".encode()
            )
        sock.setblocking(False)
        self._selector.register(sock, selectors.EVENT_READ, kind)

    def _run(self) -> None:
        kinds = ["byte" if i % 2 == 0 else "body" for i in range(self.count)]
        try:
            for kind in kinds:
                self._open(kind)
            self.connected.set()
            next_trickle = time.monotonic() + TRICKLE
            while not self._stop.is_set():
                for key, _ in self._selector.select(timeout=max(0.0, next_trickle - time.monotonic())):
                    self._drop_if_closed(key.fileobj, key.data)  # type: ignore[arg-type]
                if time.monotonic() >= next_trickle:
                    next_trickle += TRICKLE
                    for key in list(self._selector.get_map().values()):
                        if key.data == "body":
                            self._send(key.fileobj, b" ", key.data)  # type: ignore[arg-type]
        finally:
            for key in list(self._selector.get_map().values()):
                key.fileobj.close()  # type: ignore[union-attr]
            self._selector.close()

    def _drop_if_closed(self, sock: socket.socket, kind: str) -> None:
        try:
            data = sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the server hung up (or answered and closed): come back at once
            self._reopen(sock, kind)

    def _send(self, sock: socket.socket, data: bytes, kind: str) -> None:
        try:
            sock.send(data)
        except BlockingIOError:
            pass
        except OSError:
            self._reopen(sock, kind)

    def _reopen(self, sock: socket.socket, kind: str) -> None:
        self._selector.unregister(sock)
        sock.close()
        self.reconnects += 1
        with suppress(OSError):
            self._open(kind)


@dataclass
class Saves:
    ok: int
    failures: list[str]
    latencies: list[float]  # seconds, successful saves only

    def percentile(self, p: float) -> float:
        """Nearest-rank percentile in milliseconds (nan without a success)."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5))) - 1] * 1000


def scorer(port: int, saves: int, timeout: float = REQUEST_TIMEOUT, pace: float = 0.0) -> Saves:
    """A scorer's phone: a new table through the API, then ``saves`` hands saved one after the
    other (``pace`` seconds apart, as at a table; none by default), each on its own connection
    and failed after ``timeout`` seconds without an answer. The first such failure ends the
    run: the server is frozen, waiting longer proves nothing."""
    failures: list[str] = []
    latencies: list[float] = []
    try:
        body = {"game": "jubileu", "players": list(hands.PLAYERS)}
        status, table = request(port, "POST", "/api/v1/tables", body, timeout=timeout)
    except (OSError, http.client.HTTPException) as exc:
        return Saves(0, [f"creating the table: {type(exc).__name__} {exc}"], [])
    if status != 201 or not isinstance(table, dict):
        return Saves(0, [f"creating the table: {status} {table}"], [])
    headers = {"Authorization": f"Bearer {table['token']}"}
    for k in range(saves):
        started = time.perf_counter()
        try:
            status, answer = request(
                port, "POST", f"/api/v1/tables/{table['id']}/hands", hands.record(hands.PLAYERS, k), headers, timeout
            )
        except (OSError, http.client.HTTPException) as exc:
            failures.append(f"hand {k + 1}: {type(exc).__name__} {exc}")
            break
        if status == 201:
            latencies.append(time.perf_counter() - started)
        else:
            failures.append(f"hand {k + 1}: {status} {answer}")
        if pace:
            time.sleep(pace)
    return Saves(len(latencies), failures, latencies)


def scratch() -> Path:
    return Path(tempfile.mkdtemp(prefix="slow-clients-"))
