"""Two app servers behind Caddy's load balancer on one PostgreSQL, as a federation or a big club
runs them (docs/club-server.md): nothing one server keeps in memory may be needed by the other.

Each server is gunicorn with the production settings (two threaded workers), on a database of
its own made for this module on the test cluster; Caddy balances between them round robin.
Checked: hands for one table sent at once through both servers and the balancer are each stored
once and numbered without gaps (a retry sent to the other server stores nothing new); a phone
watching the table on one server sees a hand recorded through the other within 2 s; the limit on
wrong join codes counts one phone's guesses on both servers together. (That a ratings rebuild
runs once across servers is the database claim tested in tests/web/test_ratings.py.)

Runs on the PostgreSQL pass of `make test`, where Caddy is installed (.ci/run installs it).
"""

from __future__ import annotations

import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.bench._common import ROOT, free_port, gunicorn, stop
from tests.conftest import TEST_DATABASE_URL
from tests.web.api_support import all_pass_record

pytestmark = [
    pytest.mark.pg,
    pytest.mark.skipif(not TEST_DATABASE_URL.startswith("postgresql"), reason="needs PostgreSQL (the PG pass)"),
    pytest.mark.skipif(shutil.which("caddy") is None, reason="Caddy is not installed (apt-get install caddy)"),
]

PLAYERS = ["Ana", "Bia", "Caio", "Dani"]


@dataclass
class Servers:
    a: str
    b: str
    caddy: str

    def all(self) -> list[str]:
        return [self.a, self.b, self.caddy]


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """A database of its own on the test cluster (libpq's settings from the environment)."""
    import psycopg

    name = "referee_two_" + secrets.token_hex(4)
    with psycopg.connect(dbname="postgres", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+psycopg:///{name}"
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def servers(database: str) -> Iterator[Servers]:
    work = Path(tempfile.mkdtemp(prefix="two-servers-"))
    common = {
        "DATABASE_URL": database,
        "SECRET_KEY": "one-key-for-both-servers",
        "CLUB_CODE": "1111-2222-3333",
        "REFEREE_PROXIES": "1",
        "RATINGS_SPAWN_CATCH_UP": "0",
    }
    # The schema once, before any worker, as the service's ExecStartPre does.
    subprocess.run(
        [sys.executable, "-c", "from tests.bench.wsgi import referee; referee()"],
        cwd=ROOT,
        env={**_environ(), **common, "BENCH_INSTANCE_PATH": str(work / "setup"), "PYTHONPATH": str(ROOT)},
        check=True,
        capture_output=True,
    )
    with (
        gunicorn("tests.bench.wsgi:referee()", {**common, "BENCH_INSTANCE_PATH": str(work / "a")}, 2, None) as a,
        gunicorn("tests.bench.wsgi:referee()", {**common, "BENCH_INSTANCE_PATH": str(work / "b")}, 2, None) as b,
    ):
        port = free_port()
        caddyfile = work / "Caddyfile"
        caddyfile.write_text(
            "{\n\tadmin off\n\tauto_https off\n}\n"
            f":{port} {{\n\treverse_proxy 127.0.0.1:{a.port} 127.0.0.1:{b.port} {{\n\t\tlb_policy round_robin\n\t}}\n}}\n"
        )
        env = {**_environ(), "XDG_DATA_HOME": str(work / "data"), "XDG_CONFIG_HOME": str(work / "config")}
        caddy = subprocess.Popen(
            ["caddy", "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            _wait(f"http://127.0.0.1:{port}/", caddy)
            yield Servers(f"http://127.0.0.1:{a.port}", f"http://127.0.0.1:{b.port}", f"http://127.0.0.1:{port}")
        finally:
            stop(caddy)  # type: ignore[arg-type]
    shutil.rmtree(work, ignore_errors=True)


def _environ() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY")}


def _wait(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            if requests.get(url, timeout=2).status_code == 200:
                return
        except requests.RequestException:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("Caddy did not start")
        time.sleep(0.1)


def new_table(base: str) -> dict[str, Any]:
    answer = requests.post(base + "/api/v1/tables", json={"game": "jubileu", "players": PLAYERS}, timeout=10)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def post_hand(base: str, table: dict[str, Any], key: str, dealer: str) -> requests.Response:
    return requests.post(
        f"{base}/api/v1/tables/{table['id']}/hands",
        json=all_pass_record(dealer),
        headers={"Authorization": f"Bearer {table['token']}", "Idempotency-Key": key},
        timeout=30,
    )


def dealer_of(base: str, table: dict[str, Any]) -> str:
    answer = requests.get(f"{base}/api/v1/tables/{table['id']}", timeout=10)
    return str(answer.json()["next_dealer"])


def test_hands_sent_through_both_servers_at_once_are_stored_once_and_numbered_without_gaps(servers: Servers) -> None:
    table = new_table(servers.caddy)
    numbers: dict[str, set[int]] = {}
    refused: list[str] = []
    lock = threading.Lock()

    def send(worker: int) -> None:
        for i in range(5):
            key = f"w{worker}-h{i}"
            # Each hand goes to one server, and its retry (the same key) to the other or the balancer.
            first, again = servers.all()[(worker + i) % 3], servers.all()[(worker + i + 1) % 3]
            for base in (first, again):
                for _ in range(20):  # an all-pass names the next dealer: ask again when another hand got in first
                    answer = post_hand(base, table, key, dealer_of(base, table))
                    if answer.status_code in (200, 201):
                        with lock:
                            numbers.setdefault(key, set()).add(int(answer.json()["number"]))
                        break
                    if answer.status_code != 422:
                        with lock:
                            refused.append(f"{answer.status_code} {answer.text[:200]}")
                        break

    threads = [threading.Thread(target=send, args=(w,)) for w in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert refused == []
    assert len(numbers) == 30
    assert all(len(seen) == 1 for seen in numbers.values()), numbers  # a retry got the first answer
    stored = requests.get(f"{servers.b}/api/v1/tables/{table['id']}", timeout=10).json()["hands"]
    listed = sorted(h["number"] for h in stored)
    assert listed == list(range(1, 31))
    assert sorted(n for seen in numbers.values() for n in seen) == listed


def test_a_watcher_on_one_server_sees_a_hand_recorded_through_the_other_within_two_seconds(servers: Servers) -> None:
    table = new_table(servers.a)
    watch = requests.Session()
    first = watch.get(f"{servers.a}/t/{table['id']}/version", timeout=10)
    etag = first.headers["ETag"]
    assert (
        watch.get(f"{servers.a}/t/{table['id']}/version", headers={"If-None-Match": etag}, timeout=10).status_code
        == 304
    )
    assert post_hand(servers.b, table, "watched", dealer_of(servers.b, table)).status_code == 201
    written = time.monotonic()
    while True:  # the page asks every 1.5 s; here as fast as it answers
        answer = watch.get(f"{servers.a}/t/{table['id']}/version", headers={"If-None-Match": etag}, timeout=10)
        if answer.status_code == 200:
            break
        assert time.monotonic() - written < 2.0, "server A still answers 304 two seconds after the write"
        time.sleep(0.05)
    assert answer.json()["version"] > first.json()["version"]


def test_one_phone_s_wrong_join_codes_count_on_both_servers_together(servers: Servers) -> None:
    phone = requests.Session()
    page = phone.get(servers.a + "/join", timeout=10).text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token, "the join page has no CSRF token"
    statuses = []
    for attempt in range(12):
        base = (servers.a, servers.b)[attempt % 2]
        answer = phone.post(base + "/join", data={"code": "0000-0000", "csrf_token": token.group(1)}, timeout=10)
        statuses.append(answer.status_code)
    # Ten wrong codes from one phone in ten minutes (guesses.PHONE_WRONG), then it is refused, on
    # either server: five on each would not reach the limit if each server counted alone.
    assert statuses[:10] == [422] * 10 and statuses[10:] == [429, 429], statuses
