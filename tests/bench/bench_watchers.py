"""Watching phones while scorers record: GET /t/<id>/version polling under load, on the
production server. `.venv/bin/python -m tests.bench.bench_watchers`. Prints figures; never
asserts a timing.

- Server: gunicorn, WORKERS sync workers, the real factory, a temp SQLite file (_common).
- 5 tables, each with one scorer (the API, the table's token, valid Jubileu hands in order:
  tests/bench/hands.py) and 10 watchers: 50 watchers in all.
- A watcher does what static/js/app.js does: every 1.5 s (a fixed schedule, a random phase per
  watcher, a tick skipped while the previous one is still out) GET /t/<id>/version with
  If-None-Match: the last ETag; on a 200 with a new version it fetches the page again (the
  watch view, /w/<id>) to redraw it. One raw HTTP/1.1 exchange per request, Connection: close,
  as gunicorn's sync workers close after every answer.
- Phase 0, "idle": the watchers alone (a real table between two hands: every poll is a 304).
  Phase 1, "paced": each scorer records a hand every 2 s (a quick scorer at a real table).
  Phase 2, "full speed": each scorer records its next hand as soon as the previous one is in.
- Figures: the watchers' update latency, from a hand's 201 (as the scorer got it) to the first
  poll that shows that version or a later one ("seen"), and to the redrawn page ("redrawn"):
  p50/p95/max, target < 2 s; the scorers' hand latency while being watched (p50/p95, target
  p95 < 100 ms); polls per second, the share of 304s and the poll latency.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ._common import HOST, WORKERS, failed_requests, figure, load, machine, new_table, referee_server, sized
from .hands import PLAYERS, record

TABLES = 5
WATCHERS_PER_TABLE = 10
POLL_EVERY = 1.5  # seconds, as static/js/app.js
PACE = 2.0  # seconds between a paced scorer's hands
PACED_SECONDS = float(os.environ.get("BENCH_WATCH_PACED_SECONDS", sized("20", "3")))
FULL_SECONDS = float(os.environ.get("BENCH_WATCH_FULL_SECONDS", os.environ.get("BENCH_SECONDS", sized("10", "2"))))
IDLE_SECONDS = float(os.environ.get("BENCH_WATCH_IDLE_SECONDS", sized("10", "2")))
DRAIN = 3.0  # seconds the watchers go on after the scorers stop, to see the last hands
SEEN_TARGET_S = 2.0
HAND_P95_TARGET_MS = 100.0


# --------------------------------------------------------------------------- HTTP


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    started: float
    ended: float

    @property
    def seconds(self) -> float:
        return self.ended - self.started


def exchange(port: int, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b"") -> Answer:
    """One raw HTTP/1.1 request on a new connection; the answer read to EOF."""
    head = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    request = (
        f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n{head}"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body
    started = time.perf_counter()
    chunks = []
    with socket.create_connection((HOST, port), timeout=30) as sock:
        sock.sendall(request)
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    ended = time.perf_counter()
    raw = b"".join(chunks)
    top, _sep, payload = raw.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    status = int(lines[0][9:12]) if lines and lines[0].startswith("HTTP/1.") else 0
    fields = {}
    for line in lines[1:]:
        name, _colon, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    return Answer(status, fields, payload, started, ended)


# --------------------------------------------------------------------------- the clients


@dataclass
class WatcherLog:
    table: str
    polls: list[tuple[float, float, int]] = field(default_factory=list)  # (started, ended, status)
    seen: list[tuple[float, int]] = field(default_factory=list)  # (poll answered, version shown)
    redrawn: list[tuple[float, int]] = field(default_factory=list)  # (page answered, version)
    errors: int = 0


@dataclass
class ScorerLog:
    table: str
    hands: list[tuple[float, float, int, str]] = field(default_factory=list)  # (started, 201 at, version, phase)
    errors: dict[str, int] = field(default_factory=dict)


#: What static/js/app.js sends when it redraws a live page: <main> only, gzipped.
REDRAW_HEADERS = {"X-Swap": "true", "X-Swap-Main": "true", "Accept-Encoding": "gzip"}


def follow(
    port: int,
    version_path: str,
    page_path: str,
    start: float,
    stop: threading.Event,
    *,
    polled: Callable[[Answer], None],
    seen: Callable[[Answer, str], None],
    redrawn: Callable[[Answer, str], None],
    failed: Callable[[], None],
) -> None:
    """static/js/app.js on a live page, until ``stop``: every POLL_EVERY s (a fixed schedule from
    a random phase; a tick that passed while busy is skipped, as setInterval does) the version
    with If-None-Match, and the page again (as app.js asks for it) when the version moved. The
    callbacks record each poll, each version read, each redraw and each failure."""
    etag: str | None = None
    version: str | None = None
    tick = start + random.uniform(0, POLL_EVERY)
    while not stop.is_set():
        delay = tick - time.perf_counter()
        if delay > 0 and stop.wait(delay):
            break
        try:
            answer = exchange(port, "GET", version_path, {"If-None-Match": etag} if etag else {})
            polled(answer)
            if answer.status == 200:
                shown = str(json.loads(answer.body)["version"])
                etag = answer.headers.get("etag")
                seen(answer, shown)
                if version is not None and shown != version:
                    page = exchange(port, "GET", page_path, REDRAW_HEADERS)
                    if page.status == 200:
                        redrawn(page, shown)
                    else:
                        failed()
                version = shown
            elif answer.status != 304:
                failed()
        except OSError:
            failed()
        tick += POLL_EVERY
        now = time.perf_counter()
        while tick < now:
            tick += POLL_EVERY


def watcher(port: int, log: WatcherLog, start: float, stop: threading.Event) -> None:
    """A phone watching a table's read-only page."""

    def failed() -> None:
        log.errors += 1

    follow(
        port,
        f"/t/{log.table}/version",
        f"/w/{log.table}",
        start,
        stop,
        polled=lambda answer: log.polls.append((answer.started, answer.ended, answer.status)),
        seen=lambda answer, shown: log.seen.append((answer.ended, int(shown))),
        redrawn=lambda page, shown: log.redrawn.append((page.ended, int(shown))),
        failed=failed,
    )


def scorer(port: int, log: ScorerLog, token: str, start: float, paced_until: float, full_until: float) -> None:
    path = f"/api/v1/tables/{log.table}/hands"
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    k = 0
    next_at = start + random.uniform(0, PACE)
    while True:
        now = time.perf_counter()
        if now >= full_until:
            break
        phase = "paced" if now < paced_until else "full"
        if phase == "paced":
            if next_at >= paced_until:
                time.sleep(max(0.0, paced_until - now))
                continue
            if next_at > now:
                time.sleep(next_at - now)
            next_at += PACE
        body = json.dumps(record(PLAYERS, k)).encode()
        try:
            answer = exchange(port, "POST", path, headers, body)
        except OSError as exc:
            log.errors[type(exc).__name__] = log.errors.get(type(exc).__name__, 0) + 1
            continue
        if answer.status == 201:
            number = int(json.loads(answer.body)["number"])
            log.hands.append((answer.started, answer.ended, number, phase))  # one write a hand: version == number
            k += 1
        else:
            key = f"HTTP {answer.status}: {answer.body[:120].decode(errors='replace')}"
            log.errors[key] = log.errors.get(key, 0) + 1


# --------------------------------------------------------------------------- figures


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(round(p / 100 * len(ordered) + 0.5))))
    return ordered[rank - 1]


def update_latencies(
    scorers: list[ScorerLog], watchers: list[WatcherLog], phase: str, kind: str
) -> tuple[list[float], int]:
    """For every hand of ``phase`` and every watcher of its table: seconds from the hand's 201
    to the first poll (kind "seen") or redrawn page (kind "redrawn") showing that version or a
    later one. Answers the latencies and how many were never seen."""
    latencies: list[float] = []
    missed = 0
    by_table: dict[str, list[WatcherLog]] = {}
    for w in watchers:
        by_table.setdefault(w.table, []).append(w)
    for s in scorers:
        for _started, at, version, hand_phase in s.hands:
            if hand_phase != phase:
                continue
            for w in by_table.get(s.table, []):
                events = w.seen if kind == "seen" else w.redrawn
                first = next((t for t, shown in events if shown >= version and t >= at - 1.0), None)
                if first is None:
                    missed += 1
                else:
                    latencies.append(max(0.0, first - at))
    return latencies, missed


def report(
    phase: str, label: str, scorers: list[ScorerLog], watchers: list[WatcherLog], window: tuple[float, float]
) -> None:
    hands = [end - start for s in scorers for start, end, _v, p in s.hands if p == phase]
    seconds = window[1] - window[0]
    polls = [(st, en, status) for w in watchers for st, en, status in w.polls if window[0] <= en < window[1]]
    not_modified = sum(1 for _st, _en, status in polls if status == 304)
    print(
        f"  [{label}] {len(hands)} hands in {seconds:.0f} s ({len(hands) / seconds:.1f}/s) by {len(scorers)} scorers; "
        f"{len(polls)} polls by {len(watchers)} watchers",
        flush=True,
    )
    for kind in ("seen", "redrawn"):
        values, missed = update_latencies(scorers, watchers, phase, kind)
        p50, p95, top = (percentile(values, 50), percentile(values, 95), max(values, default=float("nan")))
        figure(f"{label}: watchers' update, {kind}, p50", p50 * 1000, "ms", "", None)
        figure(
            f"{label}: watchers' update, {kind}, p95",
            p95 * 1000,
            "ms",
            f"< {SEEN_TARGET_S * 1000:.0f} ms",
            p95 < SEEN_TARGET_S,
        )
        figure(
            f"{label}: watchers' update, {kind}, max",
            top * 1000,
            "ms",
            f"< {SEEN_TARGET_S * 1000:.0f} ms",
            top < SEEN_TARGET_S,
        )
        if missed:
            print(f"  [{label}] {missed} hand/watcher pairs never {kind} (before the watchers stopped)", flush=True)
    figure(f"{label}: hand POST p50 (being watched)", percentile(hands, 50) * 1000, "ms", "", None)
    p95 = percentile(hands, 95) * 1000
    figure(
        f"{label}: hand POST p95 (being watched)", p95, "ms", f"< {HAND_P95_TARGET_MS:.0f} ms", p95 < HAND_P95_TARGET_MS
    )
    figure(f"{label}: hand POST max", max(hands, default=float("nan")) * 1000, "ms", "", None)
    figure(f"{label}: polls/s", len(polls) / seconds, "req/s", "(track)", None)
    figure(f"{label}: polls answered 304", 100 * not_modified / max(1, len(polls)), "%", "(track)", None)
    poll_seconds = [en - st for st, en, _status in polls]
    figure(f"{label}: poll latency p50", percentile(poll_seconds, 50) * 1000, "ms", "", None)
    figure(f"{label}: poll latency p95", percentile(poll_seconds, 95) * 1000, "ms", "", None)


def main() -> None:
    machine()
    print(
        f"  load: {TABLES} tables x (1 scorer + {WATCHERS_PER_TABLE} watchers polling every {POLL_EVERY} s); "
        f"{WORKERS} sync workers; idle phase {IDLE_SECONDS:.0f} s, paced phase {PACED_SECONDS:.0f} s (a hand every {PACE:.0f} s per scorer), "
        f"full-speed phase {FULL_SECONDS:.0f} s",
        flush=True,
    )
    workdir = Path(tempfile.mkdtemp(prefix="referee-bench-watchers-"))
    try:
        with referee_server(workdir) as server:
            tables = [new_table(server.base, "jubileu", PLAYERS, n) for n in range(TABLES)]
            # Warm every worker up (templates, catalogues) before measuring.
            for table_id, _token in tables:
                for _ in range(2 * WORKERS):
                    exchange(server.port, "GET", f"/w/{table_id}")
                    exchange(server.port, "GET", f"/t/{table_id}/version")

            stop = threading.Event()
            start = time.perf_counter() + 0.2
            watchers = [WatcherLog(table_id) for table_id, _token in tables for _ in range(WATCHERS_PER_TABLE)]
            threads = [
                threading.Thread(target=watcher, args=(server.port, w, start, stop), daemon=True) for w in watchers
            ]
            # The watchers poll alone first (the idle phase), so each has a version and an ETag.
            scorers_from = start + POLL_EVERY + IDLE_SECONDS
            paced_until = scorers_from + PACED_SECONDS
            full_until = paced_until + FULL_SECONDS
            scorers = [ScorerLog(table_id) for table_id, _token in tables]
            threads += [
                threading.Thread(
                    target=scorer, args=(server.port, s, token, scorers_from, paced_until, full_until), daemon=True
                )
                for s, (_table_id, token) in zip(scorers, tables)
            ]
            cpu0 = time.process_time()
            for thread in threads:
                thread.start()
            time.sleep(max(0.0, full_until + DRAIN - time.perf_counter()))
            stop.set()
            for thread in threads:
                thread.join(30)
            client_cpu = time.process_time() - cpu0
            versions = {
                t: json.loads(exchange(server.port, "GET", f"/t/{t}/version").body)["version"] for t, _tok in tables
            }
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    for s in scorers:
        if s.hands and versions[s.table] != s.hands[-1][2]:
            print(f"  NOTE: table {s.table} is at version {versions[s.table]} after {s.hands[-1][2]} hands", flush=True)
        for key, n in s.errors.items():
            print(f"  [scorer] ERROR x{n}: {key}", flush=True)
    failed_requests("scorers", sum(n for s in scorers for n in s.errors.values()))
    failed_requests("watchers", sum(w.errors for w in watchers))
    total = full_until + DRAIN - start
    print(f"  load generator CPU {client_cpu:.1f} s ({100 * client_cpu / total:.0f}% of one core)", flush=True)
    idle = [(st, en, status) for w in watchers for st, en, status in w.polls if start + POLL_EVERY <= en < scorers_from]
    print(f"  [idle] {len(idle)} polls by {len(watchers)} watchers in {IDLE_SECONDS:.0f} s, no hand", flush=True)
    figure("idle: polls/s", len(idle) / IDLE_SECONDS, "req/s", "(track)", None)
    figure(
        "idle: polls answered 304",
        100 * sum(1 for *_t, status in idle if status == 304) / max(1, len(idle)),
        "%",
        "(track)",
        None,
    )
    figure("idle: poll latency p50", percentile([en - st for st, en, _s in idle], 50) * 1000, "ms", "", None)
    figure("idle: poll latency p95", percentile([en - st for st, en, _s in idle], 95) * 1000, "ms", "", None)
    report("paced", "paced", scorers, watchers, (scorers_from, paced_until))
    report("full", "full speed", scorers, watchers, (paced_until, full_until))
    load()


if __name__ == "__main__":
    main()
