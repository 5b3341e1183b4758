"""Two app servers behind Caddy's load balancer on one PostgreSQL, as a federation or a big club
runs them (docs/club-server.md): nothing one server keeps in memory may be needed by the other.

Each server is gunicorn with the production settings (referee.gunicorn_conf: threaded workers,
two here) and the production configuration, read as the service reads it: DATABASE_URL, the
secret key and the club's code from files (SECRET_KEY_FILE, CLUB_CODE_FILE, the same for both),
REFEREE_PROXIES=1. They share one database, made for this module on the test cluster and dropped
after it. Caddy balances between them round robin and names, in a header of its answer,
the server that answered. Checked, each through HTTP:

- hands for one table sent at once through both servers and the balancer are each stored once and
  numbered without gaps; the same hand sent again with its Idempotency-Key to another server, at
  the same moment or later, gets the first answer back and stores nothing;
- a phone watching the table on one server sees a hand recorded through the other within its next
  poll;
- the limit on wrong join codes counts one phone's guesses on both servers together, and the limit
  for a client without a session counts the address Caddy forwards, on both servers together;
- after a correction, two ratings catch-ups started at the same moment rebuild the ratings once,
  and both servers then show the same ratings: those of the hands still live;
- several clubs at once, each at its own address: each club's hands stored once and numbered
  without gaps, read alike from both servers and unknown at another club's address, its live page
  following a hand written through the other server, its wrong club codes counted within it.

Needs a PostgreSQL TEST_DATABASE_URL (the PostgreSQL pass of `make test`) and `caddy` on PATH;
skipped otherwise.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests
from sqlalchemy.engine import URL, make_url

from referee import access, club, guesses, ratings
from tests.bench import _common
from tests.bench import hands as jubileu_hands
from tests.conftest import TEST_DATABASE_URL

if not TEST_DATABASE_URL.startswith(("postgresql", "postgres:")):
    pytest.skip(
        "needs PostgreSQL: TEST_DATABASE_URL is not a postgresql URL (the PostgreSQL pass of make test sets it)",
        allow_module_level=True,
    )
if shutil.which("caddy") is None:
    pytest.skip("needs Caddy as the load balancer: no `caddy` on PATH (apt-get install caddy)", allow_module_level=True)

pytestmark = pytest.mark.pg

ROOT = _common.ROOT
HOST = _common.HOST
API = "/api/v1"
TIMEOUT = 30
#: Workers per server: two, so each server is itself several processes.
WORKERS = 2
#: The players of the tables whose hands are sent at once and watched.
PLAYERS = ("Ana", "Bia", "Caio", "Dani")
#: The players of the rated table: nobody else plays with them, so their ratings depend on that
#: table's hands only, whatever the other tests of this module stored.
RATED = ("Edu", "Fabi", "Gil", "Hugo")


@dataclass
class Cluster:
    """The two servers and the balancer, their shared environment and database."""

    a: str
    b: str
    caddy: str
    upstreams: set[str]  # host:port of A and B, as Caddy names them in X-Served-By
    env: dict[str, str]  # what the servers run with (the catch-up commands run with it too)
    connect: dict[str, Any]  # psycopg's arguments for the database
    work: Path

    def all(self) -> list[str]:
        return [self.a, self.b, self.caddy]

    def upstream(self, base: str) -> str:
        """A server as Caddy's X-Served-By names it."""
        return base.removeprefix("http://")


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def database() -> Iterator[tuple[str, dict[str, Any]]]:
    """A new database on the test cluster: its SQLAlchemy URL and psycopg's arguments for it.
    Made from TEST_DATABASE_URL's server (a bare ``postgresql+psycopg://`` means libpq's settings
    from the environment, as pg_virtualenv sets them), so the suite's own database is not touched;
    dropped at the end, whatever the servers still hold open."""
    import psycopg

    base = make_url(TEST_DATABASE_URL)
    server = _libpq(base)
    name = f"referee_two_{secrets.token_hex(4)}"
    with psycopg.connect(autocommit=True, **server) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(database=name).render_as_string(hide_password=False), {**server, "dbname": name}
    finally:
        with psycopg.connect(autocommit=True, **server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _libpq(url: URL) -> dict[str, Any]:
    """psycopg's arguments for ``url``'s server: what the URL leaves out, libpq takes from PG*."""
    given = {"host": url.host, "port": url.port, "user": url.username, "password": url.password, "dbname": url.database}
    return {k: v for k, v in given.items() if v is not None}


@pytest.fixture(scope="module")
def cluster(database: tuple[str, dict[str, Any]]) -> Iterator[Cluster]:
    """Servers A and B (gunicorn, each in a process group of its own) and Caddy in front of both,
    all stopped at the end even when a test failed."""
    url, connect = database
    work = Path(tempfile.mkdtemp(prefix="two-servers-"))
    try:
        env = _environment(url, work)
        # The schema once, before any worker starts, as the service's ExecStartPre does.
        schema = subprocess.run(
            [sys.executable, "-c", "from tests.bench.wsgi import referee; referee()"],
            cwd=ROOT,
            env={**env, "BENCH_INSTANCE_PATH": str(work / "instance-setup")},
            capture_output=True,
            text=True,
        )
        assert schema.returncode == 0, f"the schema could not be made:\n{schema.stderr[-3000:]}"
        with contextlib.ExitStack() as stack:
            started = []
            for name in ("a", "b"):  # both start at once, then both are waited for
                server, ready = _start_gunicorn(name, env, work)
                stack.callback(_common.stop, server.proc)
                started.append((server, ready))
            for server, ready in started:
                _common._wait_ready(server, ready, WORKERS)
            (a, _), (b, _) = started
            port = stack.enter_context(_common.reserved_port())
            caddy = _start_caddy(port, [a.port, b.port], work)
            stack.callback(_common.stop, caddy)
            _wait_for_caddy(f"http://{HOST}:{port}/", caddy, work)
            yield Cluster(
                a=a.base,
                b=b.base,
                caddy=f"http://{HOST}:{port}",
                upstreams={f"{HOST}:{a.port}", f"{HOST}:{b.port}"},
                env=env,
                connect=connect,
                work=work,
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _environment(url: str, work: Path) -> dict[str, str]:
    """The servers' environment: this one's (libpq's PG* settings included) without any app
    setting of its own, plus the production ones, the secrets in files readable by us only."""
    secret = _private_file(work / "secret_key", secrets.token_urlsafe(32))
    code = _private_file(work / "club_code", club.new_code())
    ours = ("DATABASE_URL", "SECRET_KEY", "CLUB_CODE", "REFEREE_", "FLASK_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(ours)}
    env.update(
        DATABASE_URL=url,
        SECRET_KEY_FILE=str(secret),
        CLUB_CODE_FILE=str(code),
        REFEREE_PROXIES="1",
        PYTHONPATH=str(ROOT),
    )
    return env


def _private_file(path: Path, text: str) -> Path:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(text + "\n")
    return path


def _start_gunicorn(name: str, env: dict[str, str], work: Path) -> tuple[_common.Server, Path]:
    """gunicorn with referee.gunicorn_conf's settings (tests/bench/gunicorn_conf.py adds only a
    hook that says when each worker has loaded the app) on the real factory, with an instance
    folder in ``work`` (never the checkout's), in a new session: its process group is its own,
    and _common.stop ends the whole group."""
    ready = work / f"ready-gunicorn-{name}"
    ready.mkdir()
    log = work / f"gunicorn-{name}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                str(_common.GUNICORN),
                "--config",
                str(ROOT / "tests/bench/gunicorn_conf.py"),
                "--bind",
                f"{HOST}:0",
                "--workers",
                str(WORKERS),
                "--graceful-timeout",
                "5",
                "--log-level",
                "info",
                "tests.bench.wsgi:referee()",
            ],
            cwd=ROOT,
            env={**env, "BENCH_INSTANCE_PATH": str(work / f"instance-{name}"), "BENCH_READY_DIR": str(ready)},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        port = _common.gunicorn_port(proc, log)
    except BaseException:
        _common.stop(proc)
        raise
    return _common.Server(proc=proc, port=port, log=log), ready


def _start_caddy(port: int, upstreams: Sequence[int], work: Path) -> subprocess.Popen[bytes]:
    """Caddy on plain http, balancing round robin; X-Served-By names the server that answered."""
    caddyfile = work / "Caddyfile"
    targets = " ".join(f"{HOST}:{p}" for p in upstreams)
    caddyfile.write_text(
        "{\n\tadmin off\n\tauto_https off\n}\n"
        f":{port} {{\n\treverse_proxy {targets} {{\n\t\tlb_policy round_robin\n"
        "\t\theader_down X-Served-By {http.reverse_proxy.upstream.hostport}\n\t}\n}\n"
    )
    env = {**os.environ, "XDG_DATA_HOME": str(work / "caddy-data"), "XDG_CONFIG_HOME": str(work / "caddy-config")}
    with (work / "caddy.log").open("wb") as out:
        return subprocess.Popen(
            ["caddy", "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _wait_for_caddy(url: str, caddy: subprocess.Popen[bytes], work: Path) -> None:
    """Until Caddy has answered from both servers."""
    seen: set[str] = set()
    deadline = time.monotonic() + 30
    while len(seen) < 2:
        with contextlib.suppress(requests.RequestException):
            answer = requests.get(url, timeout=5)
            if answer.status_code == 200:
                seen.add(answer.headers.get("X-Served-By", ""))
                continue
        if caddy.poll() is not None or time.monotonic() > deadline:
            log = (work / "caddy.log").read_text(errors="replace")[-3000:]
            raise RuntimeError(f"Caddy did not answer from both servers (saw {seen}):\n{log}")
        time.sleep(0.1)


# --------------------------------------------------------------------------- HTTP


@dataclass
class Sent:
    """One hand sent, and its answer."""

    key: str
    base: str
    status: int
    body: Any
    replayed: bool
    served_by: str | None
    started: float = 0.0  # time.monotonic() when sent, and when answered
    ended: float = 0.0


def new_table(base: str, players: Sequence[str]) -> dict[str, Any]:
    answer = requests.post(f"{base}{API}/tables", json={"game": "jubileu", "players": list(players)}, timeout=TIMEOUT)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def post_hand(base: str, table: Mapping[str, Any], record: Mapping[str, Any], key: str | None = None) -> Sent:
    headers = {"Authorization": f"Bearer {table['token']}"}
    if key is not None:
        headers["Idempotency-Key"] = key
    started = time.monotonic()
    answer = requests.post(f"{base}{API}/tables/{table['id']}/hands", json=record, headers=headers, timeout=TIMEOUT)
    return Sent(
        key=key or "",
        base=base,
        status=answer.status_code,
        body=answer.json(),
        replayed=answer.headers.get("Idempotent-Replayed") == "true",
        served_by=answer.headers.get("X-Served-By"),
        started=started,
        ended=time.monotonic(),
    )


def get_table(base: str, table: Mapping[str, Any]) -> dict[str, Any]:
    answer = requests.get(f"{base}{API}/tables/{table['id']}", timeout=TIMEOUT)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def at_once(jobs: Sequence[Callable[[], Sent]], threads: int) -> list[Sent]:
    """Run ``jobs`` on ``threads`` threads released together, each taking the next job as soon as
    it is done with one: neighbouring jobs are sent at about the same moment."""
    todo: queue.SimpleQueue[Callable[[], Sent]] = queue.SimpleQueue()
    for job in jobs:
        todo.put(job)
    done: list[Sent] = []
    failed: list[BaseException] = []
    lock = threading.Lock()
    start = threading.Barrier(threads)

    def work() -> None:
        start.wait()
        while True:
            try:
                job = todo.get_nowait()
            except queue.Empty:
                return
            try:
                sent = job()
            except BaseException as exc:  # reported below, not lost in the thread
                with lock:
                    failed.append(exc)
                return
            with lock:
                done.append(sent)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    assert not failed, failed
    assert len(done) == len(jobs), f"{len(jobs) - len(done)} requests never answered"
    return done


# --------------------------------------------------------------------------- hands at once

HANDS = 40
THREADS = 8


def test_hands_sent_at_once_through_both_servers_are_stored_once_and_numbered_without_gaps(cluster: Cluster) -> None:
    """Hands are numbered under a row lock on their table in the database, and an idempotency
    key is looked up there too: with two servers, nothing a process remembers would help. Forty
    hands go to A, B and the balancer in turn from eight threads at once. Eight of them are sent
    twice at the same moment, to two servers (a phone's retry on a new connection while the
    first try is still under way); eight others again to another server once every hand was
    answered. Each record names its dealer, so it is valid whatever number it gets: nobody is
    refused for having been second (docs/api.md), and every refusal is a failure here."""
    table = new_table(cluster.caddy, PLAYERS)
    bases = cluster.all()
    records = {f"hand-{i:02}": jubileu_hands.record(PLAYERS, i) for i in range(HANDS)}

    def send(key: str, base: str) -> Callable[[], Sent]:
        return lambda: post_hand(base, table, records[key], key)

    now: list[Callable[[], Sent]] = []
    later: list[Callable[[], Sent]] = []
    for i, key in enumerate(records):
        now.append(send(key, bases[i % 3]))
        if i % 5 == 0:  # next in the queue: taken by another thread at once, sent to another server
            now.append(send(key, bases[(i + 1) % 3]))
        if i % 5 == 2:  # once every hand has been answered
            later.append(send(key, bases[(i + 2) % 3]))
    answers = at_once(now, THREADS) + at_once(later, THREADS)

    assert [(a.key, a.status, a.body) for a in answers if a.status != 201] == []
    first: dict[str, Sent] = {}
    for sent in answers:
        if not sent.replayed:
            assert sent.key not in first, (
                f"{sent.key} stored twice: hands {first[sent.key].body['number']} and {sent.body['number']}"
            )
            first[sent.key] = sent
    assert sorted(first) == sorted(records), "a hand was answered as a replay only, never stored"
    for sent in answers:  # a replay is the first answer, number and all (docs/api.md)
        assert sent.body == first[sent.key].body, sent.key
    assert sum(a.replayed for a in answers) == len(answers) - HANDS == 8 + 8
    assert sorted(s.body["number"] for s in first.values()) == list(range(1, HANDS + 1))
    pairs = [[a for a in answers[: len(now)] if a.key == key] for key in records]
    together = [p for p in pairs if len(p) == 2 and max(a.started for a in p) < min(a.ended for a in p)]
    print(f"\n{len(together)} of the 8 hands sent twice at once had both sends under way together")
    assert together, "no hand's two sends were ever under way at the same moment"
    assert {a.served_by for a in answers if a.base == cluster.caddy} == cluster.upstreams, "Caddy used one server only"

    by_number = {s.body["number"]: s for s in first.values()}
    totals = dict.fromkeys(PLAYERS, 0)
    for s in first.values():
        for name, amount in s.body["deltas"].items():
            totals[name] += amount
    for base in (cluster.a, cluster.b):  # each server reads the same table from the database
        stored = get_table(base, table)
        assert [h["number"] for h in stored["hands"]] == list(range(1, HANDS + 1))
        for hand in stored["hands"]:  # hand n is the one whose key was answered with n
            sent = by_number[hand["number"]]
            assert hand["dealer"] == records[sent.key]["dealer"] and hand["deltas"] == sent.body["deltas"]
        assert stored["totals"] == totals and stored["next_number"] == HANDS + 1


# --------------------------------------------------------------------------- a watcher


def test_a_watcher_on_one_server_sees_hands_recorded_through_the_other_within_its_next_poll(
    cluster: Cluster,
) -> None:
    """A watching phone asks its server for the table's version at every poll of its page and
    redraws when it moved; a server that kept the version in memory, or cached the answer,
    would go on answering 304 for a hand written through the other. Here the phone asks server
    A right after the write was answered: that very answer has the new version, so a polling
    phone sees the hand at its next poll. No clock is read: how fast the machine is does not
    matter. Written through B, then through Caddy (sent on to B), then through B again."""
    table = new_table(cluster.a, PLAYERS)
    phone = requests.Session()
    page = phone.get(f"{cluster.a}/w/{table['id']}", timeout=TIMEOUT).text
    main = re.search(r'<main[^>]*data-live-version="([^"]+)" data-version="(\d+)"', page)
    assert main, "the watch page has no live version to poll"
    live, version = cluster.a + main[1], int(main[2])
    first = phone.get(live, timeout=TIMEOUT)
    assert first.status_code == 200 and first.json()["version"] == version
    etag = first.headers["ETag"]
    assert phone.get(live, headers={"If-None-Match": etag}, timeout=TIMEOUT).status_code == 304

    for k, writer in enumerate((cluster.b, cluster.caddy, cluster.b)):
        if writer == cluster.caddy:
            caddy_sends_next_to(cluster, cluster.b)
        sent = post_hand(writer, table, jubileu_hands.record(PLAYERS, k))
        assert sent.status == 201, sent.body
        assert sent.served_by == (cluster.upstream(cluster.b) if writer == cluster.caddy else None)
        # The write was answered, so it is committed: A's very next answer has it (no copy kept
        # in memory, no cached answer), however long the machine took between the two.
        answer = phone.get(live, headers={"If-None-Match": etag}, timeout=TIMEOUT)
        assert answer.status_code == 200, "server A still answers 304 after the write through the other"
        assert answer.json()["version"] > version
        version, etag = answer.json()["version"], answer.headers["ETag"]
        redrawn = phone.get(f"{cluster.a}/w/{table['id']}", timeout=TIMEOUT).text  # the page's redraw
        assert f'data-version="{version}"' in redrawn


def caddy_sends_next_to(cluster: Cluster, base: str) -> None:
    """Round robin: once Caddy sent a request to the other server, the next one goes to ``base``."""
    other = cluster.upstreams - {cluster.upstream(base)}
    for _ in range(10):
        if requests.get(f"{cluster.caddy}/", timeout=TIMEOUT).headers.get("X-Served-By") in other:
            return
    raise AssertionError(f"Caddy sent ten requests in a row to {base}")


# --------------------------------------------------------------------------- wrong codes


def wrong_join_codes(phone: requests.Session, bases: Sequence[str]) -> list[int]:
    """One phone (its session cookie kept) types a wrong join code once at each of ``bases``
    in turn, on the join page's form; answers the statuses."""
    page = phone.get(f"{bases[0]}/join", timeout=TIMEOUT).text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token, "the join page has no CSRF token"
    statuses = []
    for base in bases:
        code = access.spaced(access.new_code())
        answer = phone.post(f"{base}/join", data={"code": code, "csrf_token": token[1]}, timeout=TIMEOUT)
        statuses.append(answer.status_code)
    return statuses


def test_one_phone_s_wrong_join_codes_count_on_both_servers_together(cluster: Cluster) -> None:
    """The wrong guesses are rows in the database, counted per phone by the device id its
    session cookie carries (signed with the key both servers share). A phone alternating
    between the servers meets the limit after the same number of wrong codes as a phone on one
    server; counted per process it would get twice as many (or four times, per worker). Another
    phone is still heard: the refusal is this phone's limit, not the one every phone shares."""
    limit = guesses.PHONE_WRONG
    alone = wrong_join_codes(requests.Session(), [cluster.a] * (limit + 1))
    assert alone == [422] * limit + [429], alone
    both = [(cluster.a, cluster.b)[i % 2] for i in range(limit + 2)] + [cluster.caddy, cluster.caddy]
    together = wrong_join_codes(requests.Session(), both)
    assert together == [422] * limit + [429] * 4, together
    assert wrong_join_codes(requests.Session(), [cluster.b]) == [422]


def test_a_script_s_wrong_club_codes_count_by_the_address_caddy_forwards(cluster: Cluster) -> None:
    """A client without a session (a script on the API) is counted by its address; behind Caddy
    every request reaches the servers from Caddy's, and with REFEREE_PROXIES=1 the app takes the
    client's from X-Forwarded-For, which Caddy writes. The balancer sends the script's requests
    to A and B in turn, and the limit still comes after the same number of wrong codes; writing
    its own X-Forwarded-For does not make the script someone else. A request from another
    address (as Caddy would forward another client's) is not refused: the count is per address."""
    statuses, servers = [], set()
    for i in range(guesses.PHONE_WRONG + 2):
        answer = requests.get(
            f"{cluster.caddy}{API}/seasons/1/export",
            headers={"X-Referee-Club-Code": club.new_code(), "X-Forwarded-For": f"10.0.0.{i + 1}"},
            timeout=TIMEOUT,
        )
        assert "Set-Cookie" not in answer.headers
        statuses.append(answer.status_code)
        servers.add(answer.headers.get("X-Served-By"))
    assert servers == cluster.upstreams
    assert statuses == [401] * guesses.PHONE_WRONG + [429, 429], statuses
    other = requests.get(
        f"{cluster.a}{API}/seasons/1/export",
        headers={"X-Referee-Club-Code": club.new_code(), "X-Forwarded-For": "192.0.2.7"},
        timeout=TIMEOUT,
    )
    assert other.status_code == 401, other.text


# --------------------------------------------------------------------------- ratings

RATED_HANDS = 10


def test_two_catch_ups_at_once_after_a_correction_rebuild_the_ratings_once(cluster: Cluster) -> None:
    """A correction (here a void) of a hand already rated leaves a rebuild pending, done by the
    command a timer runs every minute on each server: ``flask ratings catch-up``. Two of them
    start at once, as two servers' timers would: the one that takes the game's claim (a row in
    the database) rebuilds, the other finds it held and leaves the game alone. Left alone, the
    two would rarely overlap (the rebuild of a small league takes milliseconds), so this test
    holds the claim row locked until both are waiting for it, then lets them go together.
    Afterwards both servers show the same ratings, those of the live hands fed from scratch,
    and opening them rebuilds nothing more."""
    table = new_table(cluster.caddy, RATED)
    for k in range(RATED_HANDS):
        sent = post_hand((cluster.a, cluster.b)[k % 2], table, jubileu_hands.record(RATED, k))
        assert sent.status == 201, sent.body
    before = standings_ratings(cluster.a)  # a page brings small work up to date itself
    assert set(before) == set(RATED) and all(r["games"] > 0 for r in before.values())
    run, taken, _held = claim_and_run(cluster)

    void = requests.post(
        f"{cluster.b}{API}/tables/{table['id']}/hands/1/void",
        json={"reason": "wrong sheet"},
        headers={"Authorization": f"Bearer {table['token']}"},
        timeout=TIMEOUT,
    )
    assert void.status_code == 200, void.text
    outputs = catch_ups_at_once(cluster, 2)

    lines = sorted(out.strip() for out, _err in outputs)
    busy = ratings._said("jubileu", ratings.Outcome(rebuilt=False, fed=0, stored=False, busy=True), catching_up=True)
    assert lines[0] == busy and re.fullmatch(r"jubileu: rebuilt from scratch, \d+ hands rated\.", lines[1]), outputs
    assert claim_and_run(cluster) == (run + 1, taken + 1, None)  # one run stored; claim taken once, released

    seen = {base: standings_ratings(base) for base in cluster.all()}
    assert seen[cluster.a] == seen[cluster.b] == seen[cluster.caddy]
    after = seen[cluster.a]
    assert after != before
    expected = live_ratings(get_table(cluster.a, table), {name: r["member_id"] for name, r in after.items()})
    for name, (mu, sigma, games) in expected.items():
        assert after[name]["games"] == games, name
        assert (after[name]["mu"], after[name]["sigma"]) == pytest.approx((mu, sigma), abs=1e-3), name
    pages = [standings_page(base) for base in (cluster.a, cluster.b)]
    assert pages[0] == pages[1] and all(any(name in row for row in pages[0]) for name in RATED)
    assert claim_and_run(cluster) == (run + 1, taken + 1, None)  # the pages found nothing left to do


def standings_ratings(base: str) -> dict[str, dict[str, Any]]:
    """The rated table's players' ratings in the all-time Jubileu standings, as ``base`` gives them."""
    answer = requests.get(f"{base}{API}/league/jubileu/standings", timeout=TIMEOUT)
    assert answer.status_code == 200, answer.text
    return {row["name"]: row["rating"] for row in answer.json()["standings"] if row["name"] in RATED}


def standings_page(base: str) -> list[str]:
    """The standings page's rows as text (player, hands, net, rating), as ``base`` draws them."""
    page = requests.get(f"{base}/league/jubileu?season=all", timeout=TIMEOUT).text
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in body.split("</tr>") if row.strip()]


def live_ratings(table: Mapping[str, Any], members: Mapping[str, int]) -> dict[str, tuple[float, float, int]]:
    """The ratings rebuilt by hand: openskill fed the table's live hands in order (ratings.Board)."""
    board = ratings.Board()
    for hand in sorted(table["hands"], key=lambda h: h["number"]):
        if not hand.get("void"):
            board.feed_hand((members[name], amount) for name, amount in hand["deltas"].items())
    return {name: (board.ratings[m].mu, board.ratings[m].sigma, board.games[m]) for name, m in members.items()}


def claim_and_run(cluster: Cluster) -> tuple[int, int, Any]:
    """Jubileu's rating run version, how many runs took its claim, and until when it is held."""
    import psycopg

    with psycopg.connect(**cluster.connect) as connection:
        version = connection.execute("SELECT version FROM rating_run WHERE game = 'jubileu'").fetchone()
        claim = connection.execute("SELECT taken, held_until FROM rating_claim WHERE game = 'jubileu'").fetchone()
    assert version is not None and claim is not None
    return int(version[0]), int(claim[0]), claim[1]


def catch_ups_at_once(cluster: Cluster, count: int) -> list[tuple[str, str]]:
    """Start ``count`` catch-up commands while the claim row is locked here, wait until each is
    waiting for that lock, then let them go: they ask for the claim at the same moment. Answers
    each one's (stdout, stderr)."""
    import psycopg

    instance = cluster.work / "instance-catch-up"
    factory = f"referee:create_app({{'INSTANCE_PATH': {str(instance)!r}}})"
    command = [sys.executable, "-m", "flask", "--app", factory, "ratings", "catch-up", "--game", "jubileu"]
    with (
        psycopg.connect(**cluster.connect) as holder,
        psycopg.connect(autocommit=True, **cluster.connect) as look,
    ):
        locked = holder.execute("SELECT taken FROM rating_claim WHERE game = 'jubileu' FOR UPDATE").fetchone()
        assert locked is not None, "no claim row to hold"
        procs = [
            subprocess.Popen(
                command,
                cwd=ROOT,
                env=cluster.env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
            for _ in range(count)
        ]
        try:
            deadline = time.monotonic() + 60
            while _waiting_for_claim(look) < count:
                finished = [p for p in procs if p.poll() is not None]
                assert not finished, f"a catch-up ended before asking for the claim: {finished[0].communicate()}"
                assert time.monotonic() < deadline, "the catch-ups never asked for the claim"
                time.sleep(0.05)
            holder.commit()
            outputs = [p.communicate(timeout=120) for p in procs]
        finally:
            for proc in procs:
                _common.stop(proc)
    assert [p.returncode for p in procs] == [0] * count, outputs
    return [(out.decode(), err.decode()) for out, err in outputs]


def _waiting_for_claim(connection: Any) -> int:
    row = connection.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        " AND wait_event_type = 'Lock' AND query ILIKE '%rating_claim%'"
    ).fetchone()
    return int(row[0])


# --------------------------------------------------------------------------- several clubs

CLUBS = ("bolinha", "copas", "espadas")


def make_clubs(cluster: Cluster) -> dict[str, str]:
    """The clubs the operator made on the shared database (as `clubs create` does): slug -> code."""
    import psycopg

    codes = {slug: club.new_code() for slug in CLUBS}
    with psycopg.connect(**cluster.connect) as connection:
        for slug, code in codes.items():
            connection.execute(
                "INSERT INTO club (slug, name, created_at, code_digest) VALUES (%s, %s, now(), %s)",
                (slug, slug.title(), club.digest(code)),
            )
    return codes


def club_code_tries(phone: requests.Session, addresses: Sequence[str]) -> list[int]:
    """One phone types a wrong club code once at each of ``addresses`` (a club's, on a server)."""
    statuses = []
    for address in addresses:
        page = phone.get(f"{address}/club", timeout=TIMEOUT).text
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)
        assert token, f"{address}/club has no form"
        answer = phone.post(f"{address}/club", data={"code": club.new_code(), "csrf_token": token[1]}, timeout=TIMEOUT)
        statuses.append(answer.status_code)
    return statuses


def test_several_clubs_at_once_keep_their_hands_pages_and_limits_apart(cluster: Cluster) -> None:
    """Three clubs on the two servers at once. Each club's table takes hands sent at once through
    A, B and the balancer at the club's address: each stored once, numbered without gaps, and
    read the same from both servers there, while another club's address does not know the
    table. A phone watching a club's table on A sees a hand written through B at its next poll.
    A phone's wrong club codes count within the club on both servers together: refused at one
    club, the same phone is still heard at another."""
    make_clubs(cluster)
    at = {slug: {base: f"{base}/k/{slug}" for base in cluster.all()} for slug in CLUBS}
    tables = {slug: new_table(at[slug][cluster.caddy], PLAYERS) for slug in CLUBS}
    per_club = 9
    jobs = [
        (
            lambda slug=slug, k=k: post_hand(
                at[slug][cluster.all()[k % 3]], tables[slug], jubileu_hands.record(PLAYERS, k), f"{slug}-{k}"
            )
        )
        for k in range(per_club)
        for slug in CLUBS
    ]
    answers = at_once(jobs, THREADS)
    assert [(a.status, a.body) for a in answers if a.status != 201] == []
    for slug in CLUBS:
        numbers = sorted(a.body["number"] for a in answers if a.key.startswith(f"{slug}-"))
        assert numbers == list(range(1, per_club + 1)), slug
        for base in (cluster.a, cluster.b):
            stored = get_table(at[slug][base], tables[slug])
            assert [h["number"] for h in stored["hands"]] == list(range(1, per_club + 1))
        others = [s for s in CLUBS if s != slug] + [""]
        for other in others:  # another club (or the first, at the root) does not know the table
            elsewhere = f"{cluster.a}/k/{other}" if other else cluster.a
            assert requests.get(f"{elsewhere}{API}/tables/{tables[slug]['id']}", timeout=TIMEOUT).status_code == 404

    # A watcher at one club's address on A, a hand through B.
    slug = CLUBS[0]
    phone = requests.Session()
    page = phone.get(f"{at[slug][cluster.a]}/w/{tables[slug]['id']}", timeout=TIMEOUT).text
    main = re.search(r'<main[^>]*data-live-version="([^"]+)" data-version="(\d+)"', page)
    assert main and main[1].startswith(f"/k/{slug}/"), "the watch page polls outside its club"
    live, version = cluster.a + main[1], int(main[2])
    sent = post_hand(at[slug][cluster.b], tables[slug], jubileu_hands.record(PLAYERS, per_club))
    assert sent.status == 201, sent.body
    assert phone.get(live, timeout=TIMEOUT).json()["version"] > version

    # Wrong club codes: counted within the club, on both servers together.
    limit = guesses.PHONE_WRONG
    guesser = requests.Session()
    first, second = CLUBS[1], CLUBS[2]
    alternating = [at[first][(cluster.a, cluster.b)[i % 2]] for i in range(limit + 1)]
    assert club_code_tries(guesser, alternating) == [422] * limit + [429]
    assert club_code_tries(guesser, [at[second][cluster.b]]) == [422]
