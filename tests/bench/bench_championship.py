"""A championship day at the issue's size: 300 players, 75 tables, 5 rounds of 40 deals a table
(Quatrilho, 100 chips), with the prizes of a national day (20 places, a round prize, 75 quartets
for the team prize), on a SQLite file, on one machine. Prints figures; never asserts a timing.

`.venv/bin/python -m tests.bench.bench_championship [--seconds 60] [--burst-seconds 15] [--pace 3]
[--baseline-seconds 20] [--sync-workers]` (or `make bench-championship`; BENCH_CHAMP_SECONDS,
BENCH_CHAMP_BURST_SECONDS, BENCH_CHAMP_PACE, BENCH_CHAMP_BASELINE_SECONDS and
BENCH_CHAMP_SYNC_WORKERS=1 set the same from `make bench`). About 3 minutes with the defaults on
2 cores (150-200 s: the day is built in ~20 s, the loads take ~100 s).

- Server: gunicorn as `make run` serves the app (referee.gunicorn_conf: WORKERS threaded
  workers of 4 threads), or with --sync-workers the sync workers of the other load benches (one
  request at a time per worker: a hand waits behind whole ranking renders); the real factory, a
  temp SQLite file in WAL mode (_common.referee_server), up for the whole run. The day itself is built in this process, by
  the app's own functions on the same file and the same secret key (the instance folder).
- The day: the championship (referee.championship.create: deals=40, rounds=5, 100 chips), 300
  entries (register). Each round: draw_round, timed (target < 1 s); then every table's 40 deals
  through referee.ledger.record_hand, one commit a hand as a phone's request makes, with
  chamadas that move the chips (who calls, his partner and whether they win drawn from a seeded
  generator; a player low on chips calls and wins, so nobody ends below zero and every table
  signs); the dealer is left to the ledger (a record without one deals in rotation). Then every
  table signed off by its fiscal (signoff.sign with the fiscal's Grant).
- The ranking (target < 300 ms at any moment, so its verdict is on the max): GET /c/<id>, /tv,
  /ranking.csv and standings() alone, REQUESTS times each (after a warm-up), in-process (Flask's
  test client) and through gunicorn, at three moments: round 1 drawn (nothing played), midway
  through round 3 (a third of the tables signed, a third played out, a third at 20 of their 40
  deals: provisional points) and at the end (5 rounds, 15,000 hands).
- The wall (/c/<id>/tv, round 1 drawn): its pages a cycle, the tables and ranking lines a page and
  the cycle's length, read off the page as served, beside what it showed before it paged.
- The load, during a round in progress (rounds 4 and 5, so the file holds 9,000 to 12,000 hands
  already): 75 scorer phones, each posting its table's hands to POST /api/v1/tables/<id>/hands
  with its scorer card's token as Bearer (the HMAC token the cards page prints:
  rounds.card_token), and 20 watchers doing what static/js/app.js does on the ranking page:
  GET /c/<id>/version every 1.5 s with If-None-Match, and GET /c/<id> (the redraw) when the
  version moved. One raw HTTP/1.1 exchange per request, Connection: close (bench_watchers).
  Unwatched (round 2, --baseline-seconds): the paced phones alone, no watcher, to tell what the
  watchers cost the hands. Paced (round 4, --seconds): a hand every --pace seconds per phone,
  jittered uniformly between half and one and a half times that: ~25 hands/s for 75 tables at
  3 s, where a real day makes about 0.4/s (a Quatrilho deal takes some 3 minutes), so every
  table ending a deal at the same moment, with room to spare. Burst (round 5, --burst-seconds): every phone posts its next hand
  as soon as the previous one is answered, until its table has its 40 deals. Any answer but 201
  is an error, except 409 (counted apart: a table that has played its 40 deals answers 409, and
  its phone stops). Target: the hands' p95 < 100 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask

from referee import gunicorn_conf

from ._common import WORKERS, Server, failed_requests, figure, load, machine, referee_server, sized
from .bench_watchers import HAND_P95_TARGET_MS, POLL_EVERY, exchange, follow, percentile

PLAYERS = sized(300, 16)
ROUNDS = 5
DEALS = sized(40, 4)
CHIPS = 100
#: The press reports' fees (R$20-150 entries, R$10 re-entries), to a key: the manager's pages
#: then carry the desk's Pix code and the cash box.
FEES = {"entry_fee": "50", "reentry_fee": "10", "pix_key": "clube@example.com", "pix_city": "Porto Alegre"}
WATCHERS = sized(20, 2)
REQUESTS = sized(10, 2)  # timed requests per page and moment (after a warm-up)
SECONDS = float(os.environ.get("BENCH_CHAMP_SECONDS", sized("60", "2")))
BASELINE_SECONDS = float(os.environ.get("BENCH_CHAMP_BASELINE_SECONDS", sized("20", "1")))
SYNC_WORKERS = os.environ.get("BENCH_CHAMP_SYNC_WORKERS", "") not in ("", "0")
BURST_SECONDS = float(os.environ.get("BENCH_CHAMP_BURST_SECONDS", sized("15", "1")))
PACE = float(os.environ.get("BENCH_CHAMP_PACE", "3"))
DRAW_TARGET_MS = 1000.0
PAGE_TARGET_MS = 300.0

# A chamada by seat: (declarer, partner, opponent, opponent) as (figures, tricks). The callers
# win with 20 of the 35 figures (tests/web/test_championship.py's hand: 6 chips from each
# opponent to each caller), or lose with 13 and a mancha (the declarer pays 7 to each opponent).
CALLERS_WIN = ((11, 3), (9, 3), (8, 2), (7, 2))
CALLERS_LOSE = ((5, 2), (8, 2), (13, 3), (9, 3))
LOW = 60  # chips under which a player calls and wins (a hand moves 14 at most: nobody goes below 0)


def deal(players: Sequence[str], rng: random.Random, totals: Mapping[str, int]) -> dict[str, Any]:
    """The next hand of a table of four, with no dealer (the ledger deals in rotation): who calls,
    his partner and the outcome drawn from ``rng``; the players lowest on chips are made the
    winning callers, so that no stack ends below zero (the fiscal could not sign it)."""
    chips = {p: CHIPS + int(totals.get(p, 0)) for p in players}
    poor = sorted((p for p in players if chips[p] < LOW), key=lambda p: (chips[p], p))
    declarer = poor[0] if poor else rng.choice(players)
    partner = poor[1] if len(poor) > 1 else rng.choice([p for p in players if p != declarer])
    wins = bool(poor) or rng.random() < 0.5
    order = (declarer, partner, *(p for p in players if p not in (declarer, partner)))
    split = CALLERS_WIN if wins else CALLERS_LOSE
    return {
        "mode": "chamada",
        "declarer": declarer,
        "called_card": {"rank": "3", "suit": "paus"},
        "partner": partner,
        "figures": {p: f for p, (f, _t) in zip(order, split)},
        "tricks": {p: t for p, (_f, t) in zip(order, split)},
    }


# --------------------------------------------------------------------------- the day, in-process


@dataclass
class Day:
    app: Flask
    port: int
    cid: str = ""
    hands: int = 0  # recorded so far, all rounds

    def create(self) -> None:
        from referee import championship

        with self.app.app_context():
            started = time.perf_counter()
            found = championship.create(
                name="Copa de banca", game="quatrilho", chips=CHIPS, rounds=ROUNDS, deals=DEALS, money=FEES
            )
            self.cid = found.id
            for n in range(1, PLAYERS + 1):
                championship.register(found, f"Jogador {n:03d}")
            print(f"  {PLAYERS} entries registered in {time.perf_counter() - started:.1f} s", flush=True)
            self.prizes(found)

    def prizes(self, found: Any) -> None:
        """The national day's prizes: 20 places, a round prize, 10 team places and a quartet for
        every four players (75 teams at 300)."""
        from referee.championship import prizes

        places = "\n".join(["R$ 1.000 + troféu", *(f"{600 - 25 * k}" for k in range(1, 20))])
        prizes.set_table(found, places=places, round_prize="100", teams="\n".join(["800", *["200"] * 9]), actor="bench")
        for k in range(PLAYERS // 4):
            numbers = [4 * k + i for i in range(1, 5)]
            prizes.form_team(found, f"Quarteto {k + 1}", numbers, actor="bench")

    def draw(self, number: int) -> float:
        from referee import championship

        with self.app.app_context():
            found = championship.get(self.cid)
            started = time.perf_counter()
            drawn = championship.draw_round(found, seed=f"banca {number}")
            ms = (time.perf_counter() - started) * 1000
            tables = championship.round_tables(found, number)
            sizes = sorted({len(t.entries) for t in tables})
            assert drawn.number == number
        figure(
            f"round {number}: draw_round ({len(tables)} tables of {sizes})", ms, "ms", "< 1000 ms", ms < DRAW_TARGET_MS
        )
        return ms

    def play(self, number: int, upto: Callable[[int], int], *, sign: Callable[[int], bool]) -> None:
        """Table n of round ``number`` played on to ``upto(n)`` deals through the ledger (from
        wherever it stands), then signed off by its fiscal if ``sign(n)``."""
        from referee import championship, ledger
        from referee.access import Grant
        from referee.championship.rounds import FISCAL
        from referee.db import db
        from referee.models import Table

        with self.app.app_context():
            found = championship.get(self.cid)
            rows = championship.round_tables(found, number)
            recorded = 0
            started = time.perf_counter()
            for row in rows:
                table = db.session.get(Table, row.table_id)
                assert table is not None
                players = list(ledger.players_of(table))
                rng = random.Random(f"ledger-{number}-{row.number}")
                while ledger.next_number(table) - 1 < upto(row.number):
                    ledger.record_hand(table, deal(players, rng, ledger.totals(table)), actor="bench")
                    recorded += 1
            played = time.perf_counter() - started
            started = time.perf_counter()
            signed = 0
            for row in rows:
                if sign(row.number) and row.signed_at is None:
                    table = db.session.get(Table, row.table_id)
                    assert table is not None and row.fiscal_access is not None
                    championship.sign(found, row, table, Grant(FISCAL, row.fiscal_access), actor="fiscal@bench")
                    signed += 1
            signing = time.perf_counter() - started
        self.hands += recorded
        rate = f" ({1000 * played / recorded:.2f} ms a hand)" if recorded else ""
        print(
            f"  round {number}: {recorded:,} hands recorded through the ledger in {played:.1f} s{rate}; "
            f"{signed} tables signed off in {signing:.1f} s",
            flush=True,
        )

    def phones(self, number: int) -> list[tuple[str, str, list[str]]]:
        """Round ``number``'s tables as their scorer phones know them: the table's id, the
        scorer card's token (as the cards page prints it) and the players."""
        from referee import championship, ledger
        from referee.championship.rounds import card_token
        from referee.db import db
        from referee.models import Table

        with self.app.app_context():
            found = championship.get(self.cid)
            out = []
            for row in championship.round_tables(found, number):
                table = db.session.get(Table, row.table_id)
                assert table is not None and row.scorer_access is not None
                out.append((row.table_id, card_token(row.scorer_access), list(ledger.players_of(table))))
            return out

    # ----------------------------------------------------------------------- the ranking pages

    def ranking(self, moment: str) -> None:
        """The ranking pages and standings() alone, in-process and through gunicorn."""
        from referee import championship
        from referee.views import championship as views

        print(f"  -- the ranking, {moment} ({self.hands:,} hands in the file)", flush=True)
        paths = [
            ("GET /c/<id>", f"/c/{self.cid}"),
            ("GET /c/<id>/tv", f"/c/{self.cid}/tv"),
            ("GET /c/<id>/ranking.csv", f"/c/{self.cid}/ranking.csv"),
        ]

        def alone() -> None:
            with self.app.app_context():  # a fresh session: nothing cached from the call before
                championship.standings(championship.get(self.cid))

        def prize_list() -> None:
            from referee.championship import prizes

            with self.app.app_context():
                prizes.prize_list(championship.get(self.cid))

        timings = [
            ("standings() alone", "in-process", repeat(alone)),
            ("prize_list() alone", "in-process", repeat(prize_list)),
        ]
        client = self.app.test_client()
        sizes = {}
        for label, path in paths:

            def in_process(path: str = path) -> None:
                # Drawn anew each time: the ranking a page shares between its watchers is dropped,
                # so these are the render right after a change (gunicorn's figures below include
                # the shared render, as the wall sees it).
                views._BLOCKS.clear()
                answer = client.get(path)
                if answer.status_code != 200:
                    raise RuntimeError(f"GET {path} answered {answer.status_code}")
                sizes[path] = len(answer.get_data())

            timings.append((label, "test client, drawn anew", repeat(in_process)))
        for label, path in paths:

            def served(path: str = path) -> None:
                answer = exchange(self.port, "GET", path)
                if answer.status != 200:
                    raise RuntimeError(f"GET {path} through gunicorn answered {answer.status}")

            # every worker warmed up (its first request of a page loads the templates)
            timings.append((label, "gunicorn", repeat(served, warm=2 * WORKERS)))
        for label, where, seconds in timings:
            page = not label.endswith("alone")
            median, top = statistics.median(seconds) * 1000, max(seconds) * 1000
            figure(f"{label}, {where}, median", median, "ms", "", None)
            figure(
                f"{label}, {where}, max",
                top,
                "ms",
                f"< {PAGE_TARGET_MS:.0f} ms" if page else "(track)",
                top < PAGE_TARGET_MS if page else None,
            )
        print(
            "     sizes: " + ", ".join(f"{label} {sizes[path] / 1024:,.0f} KB" for label, path in paths),
            flush=True,
        )

    def wall(self) -> None:
        """The wall's paging, read off the TV page as served (referee.championship.wall), beside
        what it showed before it paged: one screen, no paging, the top 20 lines of the ranking in
        its HTML, of which 15 tables and 8 ranking lines fit a 1280x720 screen."""
        from referee.championship import wall

        page = self.app.test_client().get(f"/c/{self.cid}/tv").get_data(as_text=True)
        keys = re.findall(r'data-page="([^"]+)"', page)
        sections = page.split('<section class="wall-page')[1:]
        plan = [s.count('class="wall-table') for s in sections if "wall-plan" in s[:40]]
        ranking = [s.count('class="wall-rank') for s in sections if "wall-ranking" in s[:40]]
        seconds = wall.SECONDS_PER_PAGE
        print("  -- the wall (/c/<id>/tv), round 1 drawn", flush=True)
        print("     before: 1 screen, no paging; 15 of 75 tables and 8 of 300 ranking lines on screen", flush=True)
        print(
            f"     now:    {len(keys)} pages a cycle ({len(plan)} of the plan, {len(ranking)} of the ranking), "
            f"{max(plan, default=0)} tables and {max(ranking, default=0)} ranking lines a page, "
            f"{seconds} s a page",
            flush=True,
        )
        figure("the wall: tables reached a cycle", sum(plan), "tables", f"= {PLAYERS // 4}", sum(plan) == PLAYERS // 4)
        figure(
            "the wall: ranking lines reached a cycle", sum(ranking), "lines", f"= {PLAYERS}", sum(ranking) == PLAYERS
        )
        figure("the wall: one cycle", len(keys) * seconds, "s", "(track)", None)

    def manager_page(self) -> None:
        """The manager's page (/c/<id>/manage: every table of the round and its state), in-process:
        not one of the issue's targets, printed to track."""
        client = self.app.test_client()
        page = client.get("/club").get_data(as_text=True)
        match = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page)
        form = {"code": self.app.config["CLUB_CODE"], **({"csrf_token": match.group(1)} if match else {})}
        if client.post("/club", data=form).status_code != 302:
            print("  (could not type the club's code: the manager's page not measured)", flush=True)
            return
        for label, path in (
            ("GET /c/<id>/manage", f"/c/{self.cid}/manage"),
            ("GET /c/<id>/manage with a fee's Pix code", f"/c/{self.cid}/manage?desk=entry-{PLAYERS}"),
            ("GET /c/<id>/cashbox", f"/c/{self.cid}/cashbox"),
            ("GET /c/<id>/cashbox.csv", f"/c/{self.cid}/cashbox.csv"),
        ):

            def manage(path: str = path) -> None:
                answer = client.get(path)
                if answer.status_code != 200:
                    raise RuntimeError(f"GET {path} answered {answer.status_code}")

            seconds = repeat(manage)
            figure(f"{label}, test client, median", statistics.median(seconds) * 1000, "ms", "(track)", None)
            figure(f"{label}, test client, max", max(seconds) * 1000, "ms", "(track)", None)
        prizes_path = f"/c/{self.cid}/prizes"

        def prize_page() -> None:
            answer = client.get(prizes_path)
            if answer.status_code != 200:
                raise RuntimeError(f"GET {prizes_path} answered {answer.status_code}")

        seconds = repeat(prize_page)
        top = max(seconds) * 1000
        label = "GET /c/<id>/prizes (20 places, round prizes, 75 teams), test client"
        figure(f"{label}, median", statistics.median(seconds) * 1000, "ms", "", None)
        figure(f"{label}, max", top, "ms", f"< {PAGE_TARGET_MS:.0f} ms", top < PAGE_TARGET_MS)


def repeat(call: Callable[[], None], *, warm: int = 1, times: int = REQUESTS) -> list[float]:
    for _ in range(warm):
        call()
    out = []
    for _ in range(times):
        started = time.perf_counter()
        call()
        out.append(time.perf_counter() - started)
    return out


# --------------------------------------------------------------------------- the load


@dataclass
class PhoneLog:
    table: str
    hands: list[tuple[float, float]] = field(default_factory=list)  # (started, 201 at)
    conflicts: dict[str, int] = field(default_factory=dict)  # 409s, by message
    errors: dict[str, int] = field(default_factory=dict)
    full: bool = False  # its table answered that it has played its deals


@dataclass
class WatcherLog:
    polls: list[tuple[float, float, int]] = field(default_factory=list)  # (started, ended, status)
    pages: list[tuple[float, float]] = field(default_factory=list)  # redraws: (started, ended)
    errors: int = 0


def phone(
    port: int,
    log: PhoneLog,
    token: str,
    players: list[str],
    rng: random.Random,
    start: float,
    until: float,
    pace: float | None,
) -> None:
    """A scorer's phone: its table's next hand every ``pace`` seconds (jittered), or as fast as
    the answers come (``pace`` None), until ``until`` or its table's last deal."""
    path = f"/api/v1/tables/{log.table}/hands"
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    totals: dict[str, int] = {}
    next_at = start + (rng.uniform(0, pace) if pace else 0.0)
    while True:
        now = time.perf_counter()
        if next_at > now:
            time.sleep(next_at - now)
        if time.perf_counter() >= until:
            break
        body = json.dumps(deal(players, rng, totals)).encode()
        try:
            answer = exchange(port, "POST", path, headers, body)
        except OSError as exc:
            log.errors[type(exc).__name__] = log.errors.get(type(exc).__name__, 0) + 1
            continue
        if pace:  # a human: the next deal is played whatever the server took to answer this one
            next_at = max(next_at + rng.uniform(0.5 * pace, 1.5 * pace), answer.ended)
        if answer.status == 201:
            log.hands.append((answer.started, answer.ended))
            reply = json.loads(answer.body)
            totals = reply["totals"]
            if int(reply["number"]) >= DEALS:  # the table's last deal (its phone is its only writer)
                log.full = True
                break
            continue
        bucket = log.conflicts if answer.status == 409 else log.errors
        key = f"HTTP {answer.status}: {message_of(answer.body)}"
        bucket[key] = bucket.get(key, 0) + 1
        if answer.status == 409:  # the table takes no more hands: its scorer stops
            break


def message_of(body: bytes) -> str:
    """An API error's sentence (in the table's language), else the start of the body."""
    try:
        return str(json.loads(body)["error"]["message"])[:160]
    except (ValueError, KeyError, TypeError):
        return body[:160].decode(errors="replace")


def watcher(port: int, cid: str, log: WatcherLog, start: float, stop: threading.Event) -> None:
    """A phone on the wall: static/js/app.js on the ranking page (bench_watchers.follow)."""

    def failed() -> None:
        log.errors += 1

    follow(
        port,
        f"/c/{cid}/version",
        f"/c/{cid}",
        start,
        stop,
        polled=lambda answer: log.polls.append((answer.started, answer.ended, answer.status)),
        seen=lambda answer, shown: None,
        redrawn=lambda page, shown: log.pages.append((page.started, page.ended)),
        failed=failed,
    )


def cpu_seconds(pids: Sequence[int]) -> float:
    """User and system CPU time of these processes so far (/proc/<pid>/stat), in seconds."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def drive_round(
    server: Server,
    cid: str,
    tables: list[tuple[str, str, list[str]]],
    seconds: float,
    pace: float | None,
    label: str,
    watching: int = WATCHERS,
) -> int:
    """A phone per table and ``watching`` watchers for ``seconds``; prints the figures; answers
    the hands recorded."""
    port = server.port
    # Each worker's first API write loads the API's code: previews (nothing stored) first.
    table_id, token, players = tables[0]
    for _ in range(2 * WORKERS):
        exchange(
            port,
            "POST",
            f"/api/v1/tables/{table_id}/hands/preview",
            {"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
            json.dumps(deal(players, random.Random(0), {})).encode(),
        )
    stop = threading.Event()
    start = time.perf_counter() + 0.2
    phones_from = start + POLL_EVERY  # the watchers have a version and an ETag by then
    until = phones_from + seconds
    watchers = [WatcherLog() for _ in range(watching)]
    phones = [PhoneLog(t) for t, _tok, _p in tables]
    threads = [threading.Thread(target=watcher, args=(port, cid, w, start, stop), daemon=True) for w in watchers]
    threads += [
        threading.Thread(
            target=phone,
            args=(port, log, token, players, random.Random(f"{label}-{log.table}"), phones_from, until, pace),
            daemon=True,
        )
        for log, (_t, token, players) in zip(phones, tables)
    ]
    workers = server.worker_pids()
    cpu0, served0 = time.process_time(), cpu_seconds(workers)
    for thread in threads:
        thread.start()
    for thread in threads[watching:]:
        thread.join(seconds + 120)
    ended = max([phones_from, *(end for p in phones for _s, end in p.hands)])
    stop.set()
    for thread in threads[:watching]:
        thread.join(30)
    client_cpu = time.process_time() - cpu0
    served = cpu_seconds(workers) - served0
    wall = time.perf_counter() - start

    window = max(1e-9, ended - phones_from)
    latencies = [end - begin for p in phones for begin, end in p.hands]
    conflicts = sum(n for p in phones for n in p.conflicts.values())
    errors: dict[str, int] = {}
    for p in phones:
        for key, n in p.errors.items():
            errors[key] = errors.get(key, 0) + n
    full = sum(1 for p in phones if p.full)
    polls = [(st, en, status) for w in watchers for st, en, status in w.polls if phones_from <= st < ended]
    pages = [(st, en) for w in watchers for st, en in w.pages if phones_from <= st < ended]
    print(
        f"  [{label}] {len(latencies):,} hands in {window:.1f} s ({len(latencies) / window:.1f}/s) by {len(phones)} "
        f"phones; {conflicts} answered 409, {sum(errors.values())} errors; {full} tables reached their {DEALS} deals; "
        f"{len(polls):,} polls and {len(pages):,} redraws by {watching} watchers",
        flush=True,
    )
    print(
        f"  [{label}] CPU: gunicorn's {len(workers)} workers {served:.1f} s in {wall:.1f} s "
        f"({100 * served / wall / (os.cpu_count() or 1):.0f}% of the {os.cpu_count()} cores); "
        f"load generator {client_cpu:.1f} s",
        flush=True,
    )
    for key, n in sorted(errors.items(), key=lambda kv: -kv[1])[:5]:
        print(f"  [{label}] ERROR x{n}: {key}", flush=True)
    shown_conflicts: dict[str, int] = {}
    for p in phones:
        for key, n in p.conflicts.items():
            shown_conflicts[key] = shown_conflicts.get(key, 0) + n
    for key, n in sorted(shown_conflicts.items(), key=lambda kv: -kv[1])[:3]:
        print(f"  [{label}] 409 x{n}: {key}", flush=True)
    failed_requests(f"{label}: phones", sum(errors.values()))
    failed_requests(f"{label}: watchers", sum(w.errors for w in watchers))
    ms = [s * 1000 for s in latencies]
    figure(f"{label}: hand POST p50", percentile(ms, 50), "ms", "", None)
    p95 = percentile(ms, 95)
    figure(f"{label}: hand POST p95", p95, "ms", f"< {HAND_P95_TARGET_MS:.0f} ms", p95 < HAND_P95_TARGET_MS)
    figure(f"{label}: hand POST p99", percentile(ms, 99), "ms", "", None)
    figure(f"{label}: hand POST max", max(ms, default=float("nan")), "ms", "", None)
    figure(f"{label}: hands recorded", len(latencies), "hands", "(track)", None)
    figure(f"{label}: hands/s", len(latencies) / window, "hands/s", "(track)", None)
    if not watching:
        return len(latencies)
    poll_ms = [(en - st) * 1000 for st, en, _status in polls]
    figure(f"{label}: version poll p50", percentile(poll_ms, 50), "ms", "", None)
    figure(f"{label}: version poll p95", percentile(poll_ms, 95), "ms", "", None)
    figure(
        f"{label}: polls answered 304",
        100 * sum(1 for *_t, status in polls if status == 304) / max(1, len(polls)),
        "%",
        "(track)",
        None,
    )
    page_ms = [(en - st) * 1000 for st, en in pages]
    figure(f"{label}: redraws/s", len(pages) / window, "req/s", "(track)", None)
    figure(f"{label}: redraw GET /c/<id> p50", percentile(page_ms, 50), "ms", "", None)
    p95 = percentile(page_ms, 95)
    figure(f"{label}: redraw GET /c/<id> p95", p95, "ms", f"< {PAGE_TARGET_MS:.0f} ms", p95 < PAGE_TARGET_MS)
    top = max(page_ms, default=float("nan"))
    figure(f"{label}: redraw GET /c/<id> max", top, "ms", f"< {PAGE_TARGET_MS:.0f} ms", top < PAGE_TARGET_MS)
    return len(latencies)


# --------------------------------------------------------------------------- the run


def arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tests.bench.bench_championship", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--seconds", type=float, default=SECONDS, help="the paced load's length (default %(default)s)")
    parser.add_argument(
        "--burst-seconds", type=float, default=BURST_SECONDS, help="the burst's length at most (default %(default)s)"
    )
    parser.add_argument(
        "--baseline-seconds",
        type=float,
        default=BASELINE_SECONDS,
        help="the paced load without watchers first, in round 2 (0: none; default %(default)s)",
    )
    parser.add_argument(
        "--sync-workers",
        action="store_true",
        default=SYNC_WORKERS,
        help="serve with sync workers (the other load benches') instead of the production config",
    )
    parser.add_argument(
        "--pace", type=float, default=PACE, help="seconds between a phone's hands (default %(default)s)"
    )
    return parser.parse_args(list(argv))


def main(argv: Sequence[str] = ()) -> None:
    options = arguments(argv)
    machine()
    began = time.perf_counter()
    served = (
        f"{WORKERS} sync workers"
        if options.sync_workers
        else f"{WORKERS} {gunicorn_conf.worker_class} workers x {gunicorn_conf.threads} threads (as `make run`)"
    )
    print(
        f"  a day: {PLAYERS} players, {PLAYERS // 4} tables, {ROUNDS} rounds of {DEALS} deals a table (Quatrilho, "
        f"{CHIPS} chips); SQLite file (WAL); gunicorn, {served}; load: {PLAYERS // 4} phones "
        f"(a hand every {options.pace:g} s +-50% for {options.seconds:g} s, then as fast as they can for up to "
        f"{options.burst_seconds:g} s) and {WATCHERS} watchers polling every {POLL_EVERY} s",
        flush=True,
    )
    workdir = Path(tempfile.mkdtemp(prefix="referee-bench-championship-"))
    try:
        with referee_server(workdir, worker_class="sync" if options.sync_workers else None) as server:
            from referee import create_app

            app = create_app(
                {
                    "INSTANCE_PATH": str(workdir / "instance"),  # the server's: its secret key signs the cards
                    "SQLALCHEMY_DATABASE_URI": f"sqlite:///{workdir / 'referee.sqlite3'}",
                }
            )
            day = Day(app, server.port)
            day.create()
            third = PLAYERS // 4 // 3
            draws = []
            for number in range(1, ROUNDS + 1):
                draws.append(day.draw(number))
                if number == 1:
                    day.ranking("round 1 drawn, nothing played")
                    day.wall()
                if number == 3:  # a third signed, a third played out, a third halfway
                    day.play(3, lambda n: DEALS if n <= 2 * third else DEALS // 2, sign=lambda n: n <= third)
                    day.ranking(f"midway through round 3 ({third} tables signed, the others provisional)")
                    day.manager_page()
                if number == 2 and options.baseline_seconds > 0:  # what the hands take with nobody watching
                    day.hands += drive_round(
                        server, day.cid, day.phones(2), options.baseline_seconds, options.pace, "unwatched", 0
                    )
                if number == 4:
                    day.hands += drive_round(server, day.cid, day.phones(4), options.seconds, options.pace, "paced")
                if number == 5:
                    day.hands += drive_round(server, day.cid, day.phones(5), options.burst_seconds, None, "burst")
                day.play(number, lambda n: DEALS, sign=lambda n: True)
            figure("the draw, worst of the 5 rounds", max(draws), "ms", "< 1000 ms", max(draws) < DRAW_TARGET_MS)
            day.ranking(f"at the end ({ROUNDS} rounds signed off)")
            day.manager_page()
            size = sum(f.stat().st_size for f in workdir.glob("referee.sqlite3*"))
            print(f"  the database file: {size / 2**20:,.1f} MB (with its WAL)", flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"  the whole bench took {time.perf_counter() - began:.0f} s", flush=True)
    load()


if __name__ == "__main__":
    main(sys.argv[1:])
