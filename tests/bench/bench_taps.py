"""A hand's taps through the Jubileu flow, as a phone with the page's script (static/js/swap.js) sends them: milliseconds per tap.

`.venv/bin/python -m tests.bench.bench_taps`. The server is gunicorn with the production settings
(referee.gunicorn_conf: threaded workers, keep-alive). Three columns, the median of ROUNDS hands:

- loopback: the server's own time plus the loopback;
- +75 ms: through a loopback proxy that holds every chunk 75 ms each way (a 150 ms round trip, a
  phone on a weak network; this kernel has no netem), on one kept-open connection;
- +75 ms, new conn.: the same, but a new connection for every tap, which costs one more round
  trip for the TCP handshake (the proxy holds a connection's first chunk one round trip longer):
  what every tap cost when each answer said ``Connection: close``.

The last tap (confirm) is one POST answered with the table page itself (the outbox's fetch with
``X-Swap``). Prints; never asserts.
"""

from __future__ import annotations

import http.client
import json
import queue
import re
import shutil
import socket
import statistics
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from html import unescape
from pathlib import Path

from ._common import HOST, machine, new_table, quick, referee_server, sized

DELAY = 0.075  # seconds, each way
ROUNDS = sized(5, 1)
PLAYERS = ("Ana", "Bia", "Caio", "Dani")
MAIN = {"X-Swap": "true", "X-Swap-Main": "true"}


# --------------------------------------------------------------------------- the delaying proxy


def _pump(src: socket.socket, dst: socket.socket, delay: float, first_extra: float) -> None:
    """Forward src to dst, each chunk ``delay`` seconds after it arrived: a reader stamps the
    chunks as they come, a writer sends each when due (order kept, delays not added up)."""
    chunks: queue.Queue[tuple[float, bytes]] = queue.Queue()

    def write() -> None:
        try:
            while True:
                due, chunk = chunks.get()
                if not chunk:
                    break
                time.sleep(max(0.0, due - time.monotonic()))
                dst.sendall(chunk)
        except OSError:
            pass
        finally:
            _shut(dst)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    extra = first_extra
    try:
        while chunk := src.recv(65536):
            chunks.put((time.monotonic() + delay + extra, chunk))
            extra = 0.0
    except OSError:
        pass
    chunks.put((time.monotonic() + delay, b""))
    writer.join()
    _shut(src)


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


@contextmanager
def delaying_proxy(port: int, delay: float) -> Iterator[int]:
    """A loopback TCP proxy to ``port`` adding ``delay`` each way; yields its own port.

    Each direction is one thread that sleeps before forwarding, so a chunk waits behind the one
    before it: fine for one request at a time, as a phone taps."""
    listener = socket.create_server((HOST, 0))
    done = threading.Event()

    def serve() -> None:
        while not done.is_set():
            try:
                client, _addr = listener.accept()
            except OSError:
                return
            upstream = socket.create_connection((HOST, port))
            for sock in (client, upstream):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            # A new connection's handshake: one round trip before the request can leave.
            threading.Thread(target=_pump, args=(client, upstream, delay, 2 * delay), daemon=True).start()
            threading.Thread(target=_pump, args=(upstream, client, delay, 0.0), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        done.set()
        listener.close()


# --------------------------------------------------------------------------- a phone


class Phone:
    """A browser, reduced to what the flow needs: cookies, one connection (kept open or not)."""

    def __init__(self, port: int, keep_alive: bool) -> None:
        self.port = port
        self.keep_alive = keep_alive
        self.cookies: dict[str, str] = {}
        #: The page's CSRF token, read once from a whole page's <meta> as static/js/swap.js does:
        #: a swapped step's answer is only its <main>, without the <head> that carries it.
        self.csrf = ""
        self.conn: http.client.HTTPConnection | None = None

    def send(self, method: str, path: str, body: dict[str, str] | None = None, **headers: str) -> tuple[int, str]:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
        sent = {**headers, "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        if not self.keep_alive:
            sent["Connection"] = "close"
        self.conn.request(method, path, body=data, headers=sent)
        reply = self.conn.getresponse()
        text = reply.read().decode()
        for header in reply.headers.get_all("Set-Cookie") or []:
            name, _, value = header.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value
        if not self.keep_alive or reply.will_close:
            self.conn.close()
            self.conn = None
        return reply.status, text


def _draft(html: str) -> str:
    found = re.search(r'name="d" value="([^"]*)"', html)
    assert found is not None, html[:300]
    return unescape(found.group(1))


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', html)
    if found is None:
        raise RuntimeError(f"no CSRF token in the page: {html[:300]}")
    return unescape(found.group(1))


def one_hand(phone: Phone, tid: str) -> list[tuple[str, float]]:
    """The taps of a Solo Sete by the first speaker, 9 tricks: (label, seconds) per tap."""
    status, table = phone.send("GET", f"/api/v1/tables/{tid}")
    dealer = PLAYERS.index(json.loads(table)["next_dealer"])
    seats = [(dealer + k) % 4 for k in range(1, 5)]
    taps = [("última", "ultima:copas"), ("aces: nobody", "aces:none")]
    taps += [(f"call {n + 1}", f"call:{seat}:{'solo_sete' if n == 0 else 'passo'}") for n, seat in enumerate(seats)]
    taps += [("trump", "trump:espadas")]
    timed: list[tuple[str, float]] = []
    query: dict[str, str] = {}
    html = ""
    for label, action in taps:
        started = time.perf_counter()
        status, html = phone.send(
            "GET", f"/t/{tid}/hand?" + urllib.parse.urlencode({**query, "action": action}), **MAIN
        )
        timed.append((label, time.perf_counter() - started))
        assert status == 200, (label, status)
        query = {"d": _draft(html)}
    tricks = {f"t{seat}": n for seat, n in zip(seats, ("9", "2", "1", ""))}
    started = time.perf_counter()
    status, html = phone.send(
        "GET", f"/t/{tid}/hand?" + urllib.parse.urlencode({**query, "action": "tricks", **tricks}), **MAIN
    )
    timed.append(("tricks", time.perf_counter() - started))
    assert status == 200 and "preview-deltas" in html
    form = {"d": _draft(html)}
    started = time.perf_counter()
    status, html = phone.send(
        "POST", f"/t/{tid}/hand", form, **{"X-Referee-Outbox": "1", "X-Swap": "true", "X-CSRFToken": phone.csrf}
    )
    timed.append(("confirm (table page)", time.perf_counter() - started))
    assert status == 200 and "undo-bar" in html, status
    return timed


def scorer(port: int, keep_alive: bool, tid: str, token: str) -> Phone:
    phone = Phone(port, keep_alive)
    _status, home = phone.send("GET", "/")
    phone.csrf = _csrf(home)
    status, _ = phone.send("POST", f"/t/{tid}/scorer", {"token": token, "csrf_token": phone.csrf})
    assert status == 302, status
    return phone


def main() -> None:
    machine()
    workdir = Path(tempfile.mkdtemp(prefix="bench-taps-"))
    try:
        with referee_server(workdir, worker_class=None) as server:
            columns: dict[str, dict[str, list[float]]] = {}
            routes = [("loopback", server.port, True), ("+75 ms", None, True), ("+75 ms, new conn.", None, False)]
            with delaying_proxy(server.port, DELAY) as slow_port:
                for name, port, keep in sized(routes, routes[:1]):
                    tid, token = new_table(server.base, "jubileu", PLAYERS, len(columns))
                    phone = scorer(port or slow_port, keep, tid, token)
                    if not quick():
                        one_hand(phone, tid)  # warm-up: templates, catalogues
                    per_tap: dict[str, list[float]] = {}
                    for _ in range(ROUNDS):
                        for label, seconds in one_hand(phone, tid):
                            per_tap.setdefault(label, []).append(seconds * 1000)
                    columns[name] = per_tap
        labels = list(columns["loopback"])
        print(f"  ms per tap, median of {ROUNDS} Jubileu hands (Solo Sete), swap requests", flush=True)
        print(f"  {'tap':<24}" + "".join(f"{name:>20}" for name in columns), flush=True)
        for label in [*labels, "whole hand"]:
            cells = []
            for per_tap in columns.values():
                if label == "whole hand":
                    value = sum(statistics.median(v) for v in per_tap.values())
                else:
                    value = statistics.median(per_tap[label])
                cells.append(f"{value:>20,.1f}")
            print(f"  {label:<24}" + "".join(cells), flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
