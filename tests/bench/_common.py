"""Shared helpers for the benchmarks: the machine line, a gunicorn server started and stopped
(by PID, or by process group for one in a session of its own), a closed-loop HTTP load
generator and figure printing. Benchmarks PRINT, never assert on a figure; but a benchmark whose
requests fail (ours or the reference it is compared with) says so and fails (:func:`failed_requests`),
and BENCH_QUICK=1 runs each one small (:func:`quick`), so that `make test` finds one a change broke."""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"  # loopback only
GUNICORN = Path(sys.executable).with_name("gunicorn")

_machine_printed = False


def quick() -> bool:
    """BENCH_QUICK=1: run once, small (a few iterations, small sizes, short loads), so that a
    benchmark a change broke fails `make test`; its figures are printed but mean nothing."""
    return os.environ.get("BENCH_QUICK", "") not in ("", "0")


def sized(full: T, small: T) -> T:
    """``small`` in quick mode, else ``full``: how every benchmark picks its sizes and lengths."""
    return small if quick() else full


#: Failed requests per label since the runner last asked (:func:`take_failures`).
_failures: dict[str, int] = {}


def failed_requests(label: str, count: int) -> None:
    """Count ``count`` failed requests (a non-2xx answer that was not expected, an exception) of
    one side of a benchmark, ours or its reference: a figure measured against errors is not one.
    The runner (tests/bench/run.py) fails the benchmark once it has ended, so that every side
    still prints what it measured."""
    if count:
        _failures[label] = _failures.get(label, 0) + count
        print(f"  [{label}] FAIL: {count:,} requests failed; the figures above do not hold", flush=True)


def take_failures() -> dict[str, int]:
    """The failures counted since the last call, and forget them."""
    taken = dict(_failures)
    _failures.clear()
    return taken


def machine() -> None:
    """Print the machine once per process (each bench module calls it; the runner shares it)."""
    global _machine_printed
    if _machine_printed:
        return
    _machine_printed = True
    print(
        f"machine: nproc={os.cpu_count()} python={platform.python_version()} "
        f"({platform.python_implementation()}) {platform.system()} {platform.machine()}",
        flush=True,
    )
    load()


def load() -> None:
    """The load average: other work on the machine skews every figure, so say so."""
    one, five, _fifteen = os.getloadavg()
    busy = one > 0.5 * (os.cpu_count() or 1)
    note = "  (BUSY: other processes are using the CPUs; figures will be low and noisy)" if busy else ""
    print(f"  load average now: {one:.2f} (1 min), {five:.2f} (5 min){note}", flush=True)


def figure(label: str, value: float, unit: str, target: str, ok: bool | None) -> None:
    """One line per figure, with its target and PASS/MISS, so a reader sees it at a glance."""
    verdict = "" if ok is None else ("PASS" if ok else "MISS")
    print(f"  {label:<44} {value:>12,.1f} {unit:<8} target {target:<14} {verdict}", flush=True)


def free_port() -> int:
    """A port free a moment ago: another process may take it before ours binds it. Servers the
    tests start do not use it: gunicorn binds port 0 itself (:func:`gunicorn_port`), Caddy
    shares a port held for it (:func:`reserved_port`)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


#: Where gunicorn says which address it bound (at log level info): ``--bind 127.0.0.1:0`` lets
#: the kernel pick a free port, with no window for another process to take it first.
LISTENING = re.compile(rb"Listening at: http://[^\s:]+:(\d+) ")


def gunicorn_port(proc: subprocess.Popen[bytes], log: Path, timeout: float = 60.0) -> int:
    """The port a gunicorn started with ``--bind HOST:0 --log-level info`` bound."""
    return said_port(proc, log, LISTENING, timeout)


def said_port(proc: subprocess.Popen[bytes], log: Path, said: re.Pattern[bytes], timeout: float = 60.0) -> int:
    """The port a server started on port 0 says in its log (the first group of ``said``), read
    as soon as it says so (polled, with a deadline far above any start-up)."""
    deadline = time.monotonic() + timeout
    while not (found := said.search(log.read_bytes() if log.exists() else b"")):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the server never said its port:\n{log.read_text(errors='replace')[-3000:]}")
        time.sleep(0.05)
    return int(found[1])


@contextmanager
def reserved_port() -> Iterator[int]:
    """A port kept for Caddy as long as the block runs. Caddy cannot bind port 0 and say which
    it got, but it binds with SO_REUSEPORT (to reload without dropping a connection): so this
    socket, bound with it too and never listened on, holds the port while Caddy shares it, and
    no other program can bind it in between (the race of a port freed, then bound again)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        s.bind((HOST, 0))
        yield int(s.getsockname()[1])


@contextmanager
def refused_port() -> Iterator[int]:
    """A port on which every connection is refused for as long as the block runs: bound by us,
    never listened on (so no other process can start listening there meanwhile)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        yield int(s.getsockname()[1])


# --------------------------------------------------------------------------- the server


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def worker_pids(self) -> list[int]:
        """The gunicorn workers: the master's children (from /proc/<pid>/task/*/children)."""
        pids: list[int] = []
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            try:
                pids += [int(p) for p in (task / "children").read_text().split()]
            except OSError:
                pass
        return sorted(pids)


def status_kb(pid: int, key: str) -> int | None:
    """A /proc/<pid>/status field in kB (VmHWM, VmRSS), or None when the process is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


@contextmanager
def gunicorn(app: str, env: dict[str, str], workers: int = 2, worker_class: str | None = "sync") -> Iterator[Server]:
    """Serve `app` (a gunicorn app spec) on 127.0.0.1:<free port>; stop it by PID on exit.

    ``worker_class`` None keeps the one referee.gunicorn_conf sets (threaded, keep-alive); the
    load benchmarks use sync workers, one request per connection, as their generator does."""
    scratch = Path(tempfile.mkdtemp(prefix="bench-gunicorn-"))
    log = scratch / "gunicorn.log"
    ready = scratch / "ready"
    ready.mkdir()
    full_env = {**os.environ, **env, "PYTHONPATH": str(ROOT), "BENCH_READY_DIR": str(ready)}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                str(GUNICORN),
                "--config",
                str(Path(__file__).with_name("gunicorn_conf.py")),
                "--bind",
                f"{HOST}:0",
                "--workers",
                str(workers),
                *(["--worker-class", worker_class] if worker_class else []),
                "--log-level",
                "info",
                app,
            ],
            cwd=ROOT,
            env=full_env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        server = Server(proc=proc, port=gunicorn_port(proc, log), log=log)
        _wait_ready(server, ready, workers)
        yield server
    finally:
        stop(proc)
        shutil.rmtree(scratch, ignore_errors=True)


def _wait_ready(server: Server, ready: Path, workers: int, timeout: float = 120.0) -> None:
    """Until every worker has loaded the app (gunicorn_conf.post_worker_init) and answers."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited ({server.proc.returncode}):\n{server.log.read_text()[-3000:]}")
        if len(list(ready.iterdir())) >= workers:
            try:
                with socket.create_connection((HOST, server.port), timeout=5):
                    return
            except OSError:
                pass
        time.sleep(0.05)
    raise RuntimeError(f"gunicorn was not ready in {timeout:.0f} s:\n{server.log.read_text()[-3000:]}")


#: Workers for our server and the bare one alike (BENCH_WORKERS), as `make run` would use.
WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))


@contextmanager
def referee_server(workdir: Path, worker_class: str | None = "sync", database_url: str = "") -> Iterator[Server]:
    """Our production server: gunicorn, WORKERS sync workers (or ``worker_class``, None for the
    production config's), the real factory (tests/bench/wsgi.py), DATABASE_URL at
    ``database_url`` or else a temp SQLite file, and a temp instance folder, under `workdir`."""
    env = {
        "DATABASE_URL": database_url or f"sqlite:///{workdir / 'referee.sqlite3'}",
        "BENCH_INSTANCE_PATH": str(workdir / "instance"),
    }
    prepare({**os.environ, **env, "PYTHONPATH": str(ROOT)})
    with gunicorn("tests.bench.wsgi:referee()", env, workers=WORKERS, worker_class=worker_class) as server:
        yield server


def prepare(env: Mapping[str, str]) -> None:
    """The schema and the secret key of the database ``env`` names, made once before a server's
    workers start (as `make run` does): two workers migrating a fresh database at the same
    moment would race."""
    subprocess.run(
        [sys.executable, "-c", "from tests.bench.wsgi import referee; referee()"],
        cwd=ROOT,
        env=dict(env),
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stop(proc: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    """Stop a process we started, SIGTERM first and SIGKILL whatever is left after ``timeout``
    seconds, and return once it is gone, so the next server finds its port and the CPUs free.

    One started in a session of its own (``start_new_session``: the proof tests' servers, Caddy)
    leads a process group: the whole group is signalled and waited for, so a gunicorn worker
    whose master died first is not left behind. Any other is signalled by its PID (a gunicorn
    master stops its workers), never by its group, which is ours."""
    if _leads_group(proc):
        _stop_group(proc, timeout)
    elif proc.poll() is None:
        _stop_by_pid(proc, timeout)


def _leads_group(proc: subprocess.Popen[bytes]) -> bool:
    """Whether ``proc`` leads a process group of its own. Until ``proc`` is collected (alive, or
    a zombie) its PID is surely its, so the kernel is asked. Once collected, a group by that
    number can only be the one it left behind (the number of a group that still has a process is
    given to no new process), unless a new process holds the number already: then it is free,
    and whatever group it names is another's."""
    if proc.returncode is None:
        try:
            return os.getpgid(proc.pid) == proc.pid
        except ProcessLookupError:
            return False
    return not Path(f"/proc/{proc.pid}").exists() and _group_alive(proc)


def _stop_group(proc: subprocess.Popen[bytes], timeout: float) -> None:
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _group_alive(proc):
        time.sleep(0.05)
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=timeout)
    deadline = time.monotonic() + timeout
    while _group_alive(proc):
        if time.monotonic() > deadline:
            raise RuntimeError(f"process group {proc.pid} would not end")
        time.sleep(0.05)


def _group_alive(proc: subprocess.Popen[bytes]) -> bool:
    proc.poll()  # collect the leader, or it stays in its group as a zombie
    try:
        os.killpg(proc.pid, 0)
    except ProcessLookupError:
        return False
    return True


def _stop_by_pid(proc: subprocess.Popen[bytes], timeout: float) -> None:
    """SIGTERM the master by its PID (it stops its workers), SIGKILL if it lingers, and SIGKILL
    its workers too should it have died without collecting them."""
    workers = []
    try:
        workers = [
            int(p) for t in Path(f"/proc/{proc.pid}/task").iterdir() for p in (t / "children").read_text().split()
        ]
    except OSError:
        pass
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)
    for pid in workers:  # orphans, should the master have died without reaping them
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


# --------------------------------------------------------------------------- HTTP


def post_json(base: str, path: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


@dataclass
class LoadResult:
    duration: float
    latencies: list[float] = field(default_factory=list)  # seconds, successful requests only
    errors: dict[str, int] = field(default_factory=dict)
    finished_at: list[float] = field(default_factory=list)  # completion times since start
    client_cpu: float = 0.0

    @property
    def ok(self) -> int:
        return len(self.latencies)

    @property
    def rate(self) -> float:
        return self.ok / self.duration if self.duration else 0.0

    def percentile(self, p: float) -> float:
        """Nearest-rank percentile in milliseconds."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        rank = max(1, min(len(ordered), int(round(p / 100 * len(ordered) + 0.5))))
        return ordered[rank - 1] * 1000

    def rate_by_window(self, windows: int = 5) -> list[float]:
        step = self.duration / windows
        counts = [0] * windows
        for t in self.finished_at:
            counts[min(windows - 1, int(t / step))] += 1
        return [c / step for c in counts]


def drive(
    port: int,
    clients: list[Callable[[int], tuple[str, bytes, dict[str, str]]]],
    seconds: float,
    expect: int = 201,
    warmup: float | None = None,
) -> LoadResult:
    """Closed loop: one thread per client, each sending its next request as soon as the previous
    answer is in, for `seconds`. A client maps its request index to (path, body, headers).

    The first `warmup` seconds (2, half a second in quick mode) run the same load without
    measuring it (each worker loads its templates and catalogues on first use), for our server
    and the bare one alike.

    Each request is one raw HTTP/1.1 exchange on a new TCP connection with `Connection: close`
    (gunicorn's sync workers close after every answer anyway, as they would with a phone): the
    request bytes are sent at once and the answer read to EOF. No http.client parsing, so the
    generator stays light (a few % of a core) and measures the server, not itself. Latency is
    connect to last byte.
    """
    warmup = sized(2.0, 0.5) if warmup is None else warmup
    result = LoadResult(duration=seconds)
    lock = threading.Lock()
    start_gate = threading.Barrier(len(clients) + 1)
    t0 = 0.0

    def run(client: Callable[[int], tuple[str, bytes, dict[str, str]]]) -> None:
        mine: list[float] = []
        done: list[float] = []
        errors: dict[str, int] = {}
        start_gate.wait()
        measured_from = t0 + warmup
        deadline = measured_from + seconds
        i = 0
        while True:
            path, body, headers = client(i)
            head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
            request = (
                f"POST {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n{head}"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
            ).encode() + body
            started = time.perf_counter()
            if started >= deadline:
                break
            try:
                with socket.create_connection((HOST, port), timeout=30) as sock:
                    sock.sendall(request)
                    chunks = []
                    while chunk := sock.recv(65536):
                        chunks.append(chunk)
                ended = time.perf_counter()
                answer = b"".join(chunks)
                status = int(answer[9:12]) if answer.startswith(b"HTTP/1.") else 0
                if status == expect:
                    if started >= measured_from:
                        mine.append(ended - started)
                        done.append(ended - measured_from)
                    i += 1
                else:
                    _, _, payload = answer.partition(b"\r\n\r\n")
                    key = f"HTTP {status}: {payload[:160].decode(errors='replace')}"
                    errors[key] = errors.get(key, 0) + 1
            except (OSError, ValueError) as exc:
                errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
        with lock:
            result.latencies += mine
            result.finished_at += done
            for key, n in errors.items():
                result.errors[key] = result.errors.get(key, 0) + n

    threads = [threading.Thread(target=run, args=(c,), daemon=True) for c in clients]
    for thread in threads:
        thread.start()
    cpu0 = time.process_time()
    t0 = time.perf_counter() + 0.05
    start_gate.wait()
    for thread in threads:
        thread.join(seconds + 60)
    result.duration = max([seconds, *result.finished_at])
    result.client_cpu = time.process_time() - cpu0
    return result


def report_load(name: str, result: LoadResult) -> None:
    print(
        f"  [{name}] {result.ok} requests OK in {result.duration:.1f} s; "
        f"load generator CPU {result.client_cpu:.1f} s "
        f"({100 * result.client_cpu / result.duration:.0f}% of one core)",
        flush=True,
    )
    windows = result.rate_by_window()
    print(
        "  [{}] req/s per {:.0f} s window: {}".format(
            name, result.duration / len(windows), " ".join(f"{r:,.0f}" for r in windows)
        ),
        flush=True,
    )
    for key, n in sorted(result.errors.items(), key=lambda kv: -kv[1])[:5]:
        print(f"  [{name}] ERROR x{n}: {key}", flush=True)
    failed = sum(result.errors.values())
    if not result.ok and not failed:
        print(f"  [{name}] not one request was answered in {result.duration:.0f} s", flush=True)
    # A run with no answer at all measured nothing either: it counts as one failure.
    failed_requests(name, failed or (0 if result.ok else 1))


# --------------------------------------------------------------------------- tables and their hands


def new_table(
    base: str, game: str, players: Sequence[str], n: int, options: Mapping[str, Any] | None = None
) -> tuple[str, str]:
    """A bench table through the API: its id and its scorer token."""
    body = {"game": game, "players": list(players), "name": f"bench {n}", "options": dict(options or {})}
    status, answer = post_json(base, "/api/v1/tables", body)
    if status != 201:
        raise RuntimeError(f"POST /api/v1/tables answered {status}: {answer}")
    return answer["id"], answer["token"]


def hand_clients(tables: Sequence[tuple[str, str]], bodies: Sequence[bytes], prefix: str = "/api/v1"):  # type: ignore[no-untyped-def]
    """One closed-loop client per table for :func:`drive`: request i of a client posts the
    table's hand i (``bodies`` in rotation order, repeating)."""

    def make(table_id: str, token: str):  # type: ignore[no-untyped-def]
        path = f"{prefix}/tables/{table_id}/hands"
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}

        def client(i: int) -> tuple[str, bytes, dict[str, str]]:
            return path, bodies[i % len(bodies)], headers

        return client

    return [make(t, tok) for t, tok in tables]
