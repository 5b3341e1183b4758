"""Eight phones, one hand: the production server (gunicorn, 4 sync workers, the real factory) on
SQLite (WAL) or PostgreSQL, hit by 8 clients at the same instant with the same write.

Per round exactly one hand is stored, every client is answered 201 or 409 (a retry with the
winner's Idempotency-Key gets the winner's answer back, marked Idempotent-Replayed), never a
5xx; at the end each table's hands are numbered 1..N without a gap or a duplicate, its totals are
the sum of the hands' deltas, and the cached state equals the state rebuilt from the hands.
"""

from __future__ import annotations

import random
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask

from tests.bench import hands as jubileu_hands
from tests.bench import quatrilho_hands, samba_hands

from .conftest import (
    API,
    BACKEND,
    Reply,
    Running,
    api_problems,
    bearer,
    call,
    create_table,
    dispose,
    fresh_database,
    in_process_app,
    ledger_problems,
    production_server,
    sqlite_path,
)

CLIENTS = 8
ROUNDS = 200  # per variant, spread over one table of each game
WORKERS = 4


@dataclass(frozen=True)
class Game:
    slug: str
    players: tuple[str, ...]
    record: Callable[[int], dict[str, Any]]  # the k-th hand (0-based), valid as hand k + 1
    options: dict[str, Any]


GAMES = (
    Game("jubileu", jubileu_hands.PLAYERS, lambda k: jubileu_hands.record(jubileu_hands.PLAYERS, k), {}),
    Game("quatrilho", quatrilho_hands.PLAYERS, lambda k: quatrilho_hands.record(quatrilho_hands.PLAYERS, k), {}),
    Game("samba", samba_hands.PLAYERS, samba_hands.record, samba_hands.OPTIONS),  # a target no run reaches
)


@dataclass
class Seat:
    """One table under test: its game, id, token and how many hands it holds."""

    game: Game
    id: str
    token: str
    hands: int = 0


@dataclass
class Env:
    running: Running
    inspect: Flask  # the real app in-process on the same database, to read what was stored
    pool: ThreadPoolExecutor

    @property
    def port(self) -> int:
        return self.running.port

    def tables(self) -> list[Seat]:
        out = []
        for game in GAMES:
            table_id, token = create_table(self.port, game.slug, game.players, options=game.options)
            out.append(Seat(game, table_id, token))
        return out

    def fire(self, requests: Sequence[tuple[str, str, Any, dict[str, str]]]) -> list[Reply | BaseException]:
        """Send the requests from as many threads, released together by a barrier."""
        return fire(self.pool, self.port, requests)

    def record(self, seat: Seat) -> dict[str, Any]:
        """Store the table's next hand (one client, no race); answers the 201 body."""
        reply = call(
            self.port, "POST", f"{API}/tables/{seat.id}/hands", seat.game.record(seat.hands), bearer(seat.token)
        )
        assert reply.status == 201, reply
        seat.hands += 1
        return reply.body

    def check_tables(self, seats: Sequence[Seat], *, writes: dict[str, int] | None = None) -> list[str]:
        problems = []
        for seat in seats:
            problems += api_problems(self.port, seat.id, expect_hands=seat.hands)
            problems += ledger_problems(self.inspect, seat.id, writes=(writes or {}).get(seat.id))
        return problems


def fire(
    pool: ThreadPoolExecutor, port: int, requests: Sequence[tuple[str, str, Any, dict[str, str]]]
) -> list[Reply | BaseException]:
    """Send the requests from ``pool``'s threads (at least as many as requests), released
    together by a barrier."""
    gate = threading.Barrier(len(requests))

    def one(request: tuple[str, str, Any, dict[str, str]]) -> Reply | BaseException:
        gate.wait(timeout=30)
        try:
            return call(port, *request)
        except Exception as exc:  # noqa: BLE001 - a dropped connection is a finding, not a crash
            return exc

    return list(pool.map(one, requests))


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Env]:
    workdir = tmp_path_factory.mktemp("concurrent")
    with fresh_database(workdir) as url, production_server(url, workdir, workers=WORKERS) as running:
        inspect = in_process_app(url, workdir / "inspect")
        try:
            with ThreadPoolExecutor(CLIENTS, thread_name_prefix="phone") as pool:
                yield Env(running, inspect, pool)
        finally:
            dispose(inspect)
        server_errors = [line for line in running.log().splitlines() if "Traceback" in line or "ERROR" in line]
        assert not server_errors, running.log()[-4000:]


def _describe(reply: Reply | BaseException) -> str:
    if isinstance(reply, BaseException):
        return f"{type(reply).__name__}: {reply}"
    return f"{reply.status}{' (replayed)' if reply.replayed else ''} {str(reply.body)[:200]}"


def judge_hand_round(
    label: str, replies: Sequence[Reply | BaseException], keys: Sequence[str | None], number: int
) -> tuple[list[str], Reply | None, int | None]:
    """Problems with one round of the same hand from every client; the winner's reply and index."""
    problems: list[str] = []
    seen = [f"client {i} key={keys[i]!r}: {_describe(r)}" for i, r in enumerate(replies)]
    where = f"{label}: " + "; ".join(seen)
    fresh = [i for i, r in enumerate(replies) if isinstance(r, Reply) and r.status == 201 and not r.replayed]
    for i, reply in enumerate(replies):
        if isinstance(reply, BaseException) or reply.status not in (201, 409):
            problems.append(f"client {i} was answered {_describe(reply)} ({where})")
        elif reply.status == 409 and (
            not isinstance(reply.body, dict) or reply.body.get("error", {}).get("code") != "conflict"
        ):
            problems.append(f"client {i}: a 409 without the conflict error body ({where})")
    if len(fresh) != 1:
        problems.append(f"{len(fresh)} clients stored the hand, not exactly one ({where})")
        return problems, None, None
    winner_index = fresh[0]
    winner = replies[winner_index]
    assert isinstance(winner, Reply)
    if winner.body.get("number") != number:
        problems.append(f"the hand was stored as number {winner.body.get('number')}, not {number} ({where})")
    for i, reply in enumerate(replies):
        if isinstance(reply, Reply) and reply.replayed:
            if keys[i] is None or keys[i] != keys[winner_index]:
                problems.append(f"client {i} got a replay without sharing the winner's key ({where})")
            elif reply.status != 201 or reply.body != winner.body:
                problems.append(f"client {i}'s replay differs from the first answer ({where})")
        elif isinstance(reply, Reply) and i != winner_index and reply.status == 201:
            problems.append(f"client {i} got a 201 that is neither the first answer nor a replay ({where})")
        elif isinstance(reply, Reply) and reply.status == 409 and keys[i] is not None and keys[i] == keys[winner_index]:
            problems.append(f"client {i} shares the winner's key but got 409, not the replay ({where})")
    return problems, winner, winner_index


def _next_number(env: Env, seat: Seat) -> int:
    reply = call(env.port, "GET", f"{API}/tables/{seat.id}")
    return int(reply.body["next_number"]) - 1


@pytest.mark.parametrize("keys", ["half-shared-key", "no-key"])
def test_the_same_hand_from_eight_clients_is_stored_once(env: Env, keys: str) -> None:
    seats = env.tables()
    problems: list[str] = []
    for r in range(ROUNDS):
        seat = seats[r % len(seats)]
        number = seat.hands + 1
        body = {**seat.game.record(seat.hands), "expected_number": number}
        if keys == "no-key":
            client_keys: list[str | None] = [None] * CLIENTS
        else:  # half the clients retry one request (same key), the others are other phones
            shared = f"r{r}-shared"
            client_keys = [shared if i < CLIENTS // 2 else f"r{r}-own-{i}" for i in range(CLIENTS)]
        requests = [
            (
                "POST",
                f"{API}/tables/{seat.id}/hands",
                body,
                {**bearer(seat.token), **({"Idempotency-Key": k} if k else {})},
            )
            for k in client_keys
        ]
        replies = env.fire(requests)
        found, winner, winner_index = judge_hand_round(
            f"round {r} {seat.game.slug} hand {number}", replies, client_keys, number
        )
        problems += found
        if winner is None:
            seat.hands = _next_number(env, seat)
            continue
        seat.hands += 1
        if keys != "no-key":
            # A late retry of the shared request: the first answer again if it won, else 409.
            retry = call(env.port, *requests[0])
            if winner_index is not None and winner_index < CLIENTS // 2:
                if not (retry.status == 201 and retry.replayed and retry.body == winner.body):
                    problems.append(f"round {r}: a late retry with the winning key got {_describe(retry)}")
            elif retry.status != 409:
                problems.append(f"round {r}: a late retry with a losing key got {_describe(retry)}")
    problems += env.check_tables(seats, writes={s.id: s.hands for s in seats})
    assert not problems, f"{len(problems)} problems; first ones:\n" + "\n".join(problems[:15])


def test_concurrent_voids_of_one_hand_store_one_void(env: Env) -> None:
    seats = env.tables()
    for seat in seats:
        for _ in range(10):
            env.record(seat)
    targets = [(seat, n) for seat in seats for n in range(1, seat.hands + 1)]
    random.Random(5).shuffle(targets)
    problems: list[str] = []
    for seat, number in targets:
        request = ("POST", f"{API}/tables/{seat.id}/hands/{number}/void", {"reason": "race"}, bearer(seat.token))
        replies = env.fire([request] * CLIENTS)
        statuses = sorted(r.status if isinstance(r, Reply) else -1 for r in replies)
        if statuses != [200] + [409] * (CLIENTS - 1):
            problems.append(f"void of {seat.game.slug} hand {number}: " + "; ".join(_describe(r) for r in replies))
    for seat in seats:
        table = call(env.port, "GET", f"{API}/tables/{seat.id}").body
        if not all(h.get("void") for h in table["hands"]):
            problems.append(
                f"{seat.game.slug}: hands left unvoided: {[h['number'] for h in table['hands'] if not h.get('void')]}"
            )
        if any(table["totals"].values()):
            problems.append(f"{seat.game.slug}: every hand is void but the totals are {table['totals']}")
    problems += env.check_tables(seats, writes={s.id: 2 * s.hands for s in seats})
    assert not problems, f"{len(problems)} problems; first ones:\n" + "\n".join(problems[:15])


def test_hands_and_voids_racing_keep_the_state_derived_from_the_hands(env: Env) -> None:
    """Half the clients record the next hand, the other half void earlier hands, at once: every
    answer is 200/201/409, at most one hand per round, and the state still follows the hands."""
    seats = env.tables()
    for seat in seats:
        for _ in range(8):
            env.record(seat)
    rng = random.Random(7)
    problems: list[str] = []
    voided: dict[str, set[int]] = {seat.id: set() for seat in seats}
    for r in range(60):
        seat = seats[r % len(seats)]
        number = seat.hands + 1
        body = {**seat.game.record(seat.hands), "expected_number": number}
        hand_requests = [
            ("POST", f"{API}/tables/{seat.id}/hands", body, bearer(seat.token)) for _ in range(CLIENTS // 2)
        ]
        candidates = [n for n in range(1, seat.hands + 1) if n not in voided[seat.id]]
        # When the voids have won every race so far, every hand may be void: then this round
        # only records (a hand loses its race to a void with a 409, by design).
        targets = [rng.choice(candidates) for _ in range(CLIENTS // 2)] if candidates else []
        void_requests = [
            ("POST", f"{API}/tables/{seat.id}/hands/{n}/void", {"reason": "race"}, bearer(seat.token)) for n in targets
        ]
        replies = env.fire(hand_requests + void_requests)
        hand_replies, void_replies = replies[: CLIENTS // 2], replies[CLIENTS // 2 :]
        where = f"round {r} {seat.game.slug}: " + "; ".join(_describe(x) for x in replies)
        stored = [x for x in hand_replies if isinstance(x, Reply) and x.status == 201]
        if len(stored) > 1 or any(not isinstance(x, Reply) or x.status not in (201, 409) for x in hand_replies):
            problems.append(f"hands: {where}")
        if any(not isinstance(x, Reply) or x.status not in (200, 409) for x in void_replies):
            problems.append(f"voids: {where}")
        done = [n for n, x in zip(targets, void_replies) if isinstance(x, Reply) and x.status == 200]
        if len(done) != len(set(done)):
            problems.append(f"one hand voided twice: {where}")
        voided[seat.id].update(done)
        seat.hands = _next_number(env, seat)
    for seat in seats:
        table = call(env.port, "GET", f"{API}/tables/{seat.id}").body
        now_void = {h["number"] for h in table["hands"] if h.get("void")}
        if now_void != voided[seat.id]:
            problems.append(
                f"{seat.game.slug}: voids answered 200 {sorted(voided[seat.id])}, stored {sorted(now_void)}"
            )
    problems += env.check_tables(seats)
    assert not problems, f"{len(problems)} problems; first ones:\n" + "\n".join(problems[:15])


def test_the_server_ran_on_sqlite_in_wal_mode_or_on_postgresql(env: Env) -> None:
    """The database these races ran on is the one meant: a SQLite file the server put in WAL mode
    (read here with the bare sqlite3 module, no app hook), or PostgreSQL when TEST_DATABASE_URL
    says so."""
    from referee.extensions import db

    with env.inspect.app_context():
        url = str(db.engine.url)
        dialect = db.engine.dialect.name
    path = sqlite_path(url)
    if BACKEND == "sqlite":
        assert path is not None and path.exists()
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        finally:
            connection.close()
    else:
        assert dialect == "postgresql"


APPENDERS = 20
APPEND_ROUNDS = 10


def test_twenty_phones_appending_different_hands_store_every_one(env: Env) -> None:
    """20 clients x 10 rounds, each posting a different valid hand to one table at the same
    instant, none sending ``expected_number``: nothing in the contract allows a refusal, so all
    200 are stored, numbered 1..200 without a gap, every answer a 201, and the cached totals are
    the hands' sum. (Before writes took the table's lock, 22-54% were refused with a 409.)

    El Gato's record is only the loser, valid whoever deals, so any order of arrival is legal."""
    players = ("Ana", "Bia", "Caio", "Dani", "Edu")
    table_id, token = create_table(env.port, "el_gato", players, options={"stake": 2})
    statuses: list[int] = []
    with ThreadPoolExecutor(APPENDERS, thread_name_prefix="appender") as pool:
        for r in range(APPEND_ROUNDS):
            requests = [
                ("POST", f"{API}/tables/{table_id}/hands", {"loser": players[(r + i) % len(players)]}, bearer(token))
                for i in range(APPENDERS)
            ]
            statuses += [reply.status if isinstance(reply, Reply) else 599 for reply in fire(pool, env.port, requests)]
    figures = {
        "requests": len(statuses),
        "stored": statuses.count(201),
        "refused": sum(1 for s in statuses if 400 <= s < 500),
        "5xx": sum(1 for s in statuses if s >= 500),
    }
    print(f"\n{BACKEND}: {figures}")
    assert figures == {"requests": 200, "stored": 200, "refused": 0, "5xx": 0}, figures
    table = call(env.port, "GET", f"{API}/tables/{table_id}").body
    losses = {name: sum(1 for h in table["hands"] if h["record"]["loser"] == name) for name in players}
    assert losses == dict.fromkeys(players, 40)  # every posted hand, once
    problems = api_problems(env.port, table_id, expect_hands=200) + ledger_problems(env.inspect, table_id, writes=200)
    assert not problems, "\n".join(problems[:15])
