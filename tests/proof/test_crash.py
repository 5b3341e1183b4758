"""A crash in the middle of the evening: the production server is SIGKILLed (the gunicorn master
and its workers, as one process group) while phones are recording hands, then restarted on the
same database.

Every hand a phone saw acknowledged (201) is there with the same answer; a hand that was in
flight is either wholly stored or not at all (no hand without its delta rows, no idempotency key
without its hand, no state version that does not count the writes); SQLite's integrity check
passes; the cached table state equals the state rebuilt from the hands; and the phone's retry of
the request in flight (same Idempotency-Key) ends with exactly that hand stored once.

The kill moments are random; a failure prints its seed, and PROOF_SEED=<seed> replays the same
delays (the server's timing still varies).
"""

from __future__ import annotations

import http.client
import os
import random
import sqlite3
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .conftest import (
    API,
    BACKEND,
    api_problems,
    bearer,
    call,
    create_table,
    dispose,
    fresh_database,
    in_process_app,
    kill_group,
    ledger_problems,
    production_server,
    sqlite_path,
)
from .test_concurrent_writes import GAMES, Game

CYCLES = 4
WRITERS_PER_GAME = 2  # several requests in flight at any moment, so a kill lands mid-write
WORKERS = 2  # as `make run`


@dataclass
class Phone:
    """One scorer recording hands at one table, one request at a time."""

    game: Game
    table_id: str
    token: str
    acked: dict[int, dict[str, Any]] = field(default_factory=dict)  # number -> the 201 body
    pending: tuple[int, str, dict[str, Any]] | None = None  # (number, key, body) sent, no answer
    problems: list[str] = field(default_factory=list)
    checked: int = 0  # hands already compared one by one after an earlier crash

    def write(self, port: int, stop: threading.Event) -> None:
        while not stop.is_set():
            number = len(self.acked) + 1
            key = f"{self.table_id}-{number}"
            body = {**self.game.record(number - 1), "expected_number": number}
            self.pending = (number, key, body)
            try:
                reply = call(
                    port,
                    "POST",
                    f"{API}/tables/{self.table_id}/hands",
                    body,
                    {**bearer(self.token), "Idempotency-Key": key},
                    timeout=15,
                )
            except (OSError, http.client.HTTPException):
                return  # the server died under us: the answer never came (or only part of it)
            if reply.status != 201:
                self.problems.append(f"{self.game.slug} hand {number}: {reply.status} {reply.body}")
                return
            self.acked[number] = reply.body
            self.pending = None


def integrity_check(path: Path) -> list[str]:
    """PRAGMA integrity_check and foreign_key_check on the file, opened read-only."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        problems = []
        verdict = [row[0] for row in connection.execute("PRAGMA integrity_check")]
        if verdict != ["ok"]:
            problems.append(f"integrity_check: {verdict}")
        orphans = connection.execute("PRAGMA foreign_key_check").fetchall()
        if orphans:
            problems.append(f"foreign_key_check: {orphans}")
        return problems
    finally:
        connection.close()


def test_acknowledged_hands_survive_sigkill_of_the_whole_server(tmp_path: Path) -> None:
    seed = int(os.environ.get("PROOF_SEED", time.time_ns() % 1_000_000))
    rng = random.Random(seed)
    problems: list[str] = []
    kills: list[str] = []
    outcomes: list[str] = []  # what became of each request in flight at a kill
    with ExitStack() as stack:
        url = stack.enter_context(fresh_database(tmp_path))
        server = stack.enter_context(production_server(url, tmp_path, workers=WORKERS))
        inspect = in_process_app(url, tmp_path / "inspect")
        stack.callback(dispose, inspect)
        phones = []
        for game in GAMES:
            for _ in range(WRITERS_PER_GAME):
                table_id, token = create_table(server.port, game.slug, game.players, options=game.options)
                phones.append(Phone(game, table_id, token))
        for cycle in range(CYCLES):
            stop = threading.Event()
            threads = [threading.Thread(target=p.write, args=(server.port, stop), daemon=True) for p in phones]
            for thread in threads:
                thread.start()
            delay = rng.uniform(0.15, 1.2)
            time.sleep(delay)
            in_flight = sum(1 for p in phones if p.pending is not None)
            kill_group(server)
            stop.set()
            for thread in threads:
                thread.join(30)
            kills.append(
                f"cycle {cycle}: killed after {delay:.2f} s with {in_flight} requests in flight; "
                f"{sum(len(p.acked) for p in phones)} hands acknowledged so far"
            )

            # The database as the crash left it, before any server touches it again.
            path = sqlite_path(url)
            if path is not None:
                problems += [f"cycle {cycle}: {p}" for p in integrity_check(path)]
            for phone in phones:
                problems += [f"cycle {cycle} after the kill: {p}" for p in ledger_problems(inspect, phone.table_id)]

            server = stack.enter_context(production_server(url, tmp_path, workers=WORKERS))
            for phone in phones:
                problems += [f"cycle {cycle}: {p}" for p in phone.problems]
                phone.problems.clear()
                table = call(server.port, "GET", f"{API}/tables/{phone.table_id}").body
                stored = len(table["hands"])
                acked = len(phone.acked)
                if not acked <= stored <= acked + (1 if phone.pending else 0):
                    problems.append(
                        f"cycle {cycle} {phone.game.slug}: {stored} hands stored, {acked} acknowledged, "
                        f"in flight: {phone.pending[0] if phone.pending else None}"
                    )
                # Both carry the number the pages show (its place in play): no hand is voided here.
                listed = {h["number"]: h for h in table["hands"]}
                for number, answer in phone.acked.items():
                    if number > phone.checked:  # acknowledged since the last crash: ask for it alone
                        again = call(server.port, "GET", f"{API}/tables/{phone.table_id}/hands/{number}")
                        if again.status != 200 or again.body != answer:
                            problems.append(
                                f"cycle {cycle} {phone.game.slug} hand {number}: acknowledged {answer}, now {again.status} {again.body}"
                            )
                    if listed.get(number) != answer:
                        problems.append(
                            f"cycle {cycle} {phone.game.slug} hand {number}: acknowledged {answer}, listed {listed.get(number)}"
                        )
                if phone.pending is not None:
                    # The phone retries what it sent: the stored answer if it got in, else it is stored now.
                    number, key, body = phone.pending
                    was_stored = stored == acked + 1
                    outcomes.append("stored" if was_stored else "lost")
                    retry = call(
                        server.port,
                        "POST",
                        f"{API}/tables/{phone.table_id}/hands",
                        body,
                        {**bearer(phone.token), "Idempotency-Key": key},
                    )
                    if retry.status != 201 or retry.replayed != was_stored or retry.body.get("number") != number:
                        problems.append(
                            f"cycle {cycle} {phone.game.slug}: the retry of hand {number} (stored before: {was_stored}) "
                            f"got {retry.status} replayed={retry.replayed} {retry.body}"
                        )
                    else:
                        if was_stored:
                            first = call(server.port, "GET", f"{API}/tables/{phone.table_id}/hands/{number}").body
                            if first != retry.body:
                                problems.append(
                                    f"cycle {cycle} {phone.game.slug}: hand {number} replayed {retry.body}, stored {first}"
                                )
                        phone.acked[number] = retry.body
                    phone.pending = None
                phone.checked = len(phone.acked)
                problems += [
                    f"cycle {cycle}: {p}"
                    for p in api_problems(server.port, phone.table_id, expect_hands=len(phone.acked))
                ]
                problems += [
                    f"cycle {cycle}: {p}" for p in ledger_problems(inspect, phone.table_id, writes=len(phone.acked))
                ]
        assert sum(len(p.acked) for p in phones) >= 2 * CYCLES, "the writers hardly wrote: " + "; ".join(kills)
    print(
        f"seed {seed}: " + "; ".join(kills) + f"; in flight at the kills: {outcomes.count('stored')} stored "
        f"without their answer, {outcomes.count('lost')} not stored"
    )
    assert not problems, f"seed {seed} ({BACKEND}); " + "; ".join(kills) + "\n" + "\n".join(problems[:20])
