"""The league at club scale: standings and ratings over 1,000 members and up to 1,000,000 hands,
on SQLite and on PostgreSQL, time and memory; and the settle-up of 20 players.

    .venv/bin/python -m tests.bench.bench_league                      # SQLite (a temp file, WAL)
    pg_virtualenv sh -c 'TEST_DATABASE_URL=postgresql+psycopg:// \\
        .venv/bin/python -m tests.bench.bench_league'                 # PostgreSQL (`make bench-pg`)

BENCH_LEAGUE_SIZES=100000,300000 picks the league sizes in hands (default 100k, 300k and 1M);
BENCH_LEAGUE_RUNS the timed runs per figure (default 10). Prints figures; asserts only that the
generated data is consistent (standings from the seats equal standings from the hands).

Why the data is generated rather than recorded through the API: a million hands through the
ledger would take hours. Instead a few *prototype* tables of every game are played once through
the real ledger (tests/bench hand mixes), and each generated table copies the first hands of a
prototype, names put in. So every stored row (hand record and result, deltas, the table's state,
the seats' counters) is exactly what the ledger wrote, and the league is bulk-inserted with plain
executemany (SQLite) or COPY (PostgreSQL) in minutes.

Each measurement runs in a child process of its own, after the generator is done. Memory is
tracemalloc's peak (Python's allocations) and the process's peak RSS during the call: the kernel's
high-water mark (VmHWM) reset just before the call through /proc/self/clear_refs. Not getrusage's
ru_maxrss: it cannot be reset, and Linux carries the parent's peak into a child over exec.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import random
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from flask import Flask
from sqlalchemy import func, select, text
from sqlalchemy.engine import make_url

from ..web.league_audit import standings_from_hands
from . import hands as jubileu_hands
from . import quatrilho_hands, rotation, samba_hands
from ._common import ROOT, figure, load, machine, sized, status_kb

SIZES = [
    int(s)
    for s in os.environ.get("BENCH_LEAGUE_SIZES", sized("100000,300000,1000000", "2000")).replace("_", "").split(",")
    if s.strip()
]
RUNS = int(os.environ.get("BENCH_LEAGUE_RUNS", sized("10", "1")))
MEMBERS = 1000
CHECK_HANDS = sized(5000, 500)  # the size at which the generated data is checked against the hands
REFRESH_HANDS = sized(1000, 100)
YEAR = 2025
ZONE = ZoneInfo("America/Sao_Paulo")
GAMES = ("jubileu", "quatrilho", "samba")
STANDINGS_TARGET_S = 1.0
SETTLE_TARGET_MS = 100.0
SETTLE_RUNS = sized(200, 3)
SETTLE_BUDGET_S = 30.0  # per case: fewer runs if each is slow
CHUNK_HANDS = 50_000  # hands per insert batch (one transaction each)
MAX_TABLE_HANDS = 60
FIRST_GET = "GET, first (no ratings stored yet)"


def database_url() -> str | None:
    """The PostgreSQL server to bench on, if the environment names one (as the tests read it)."""
    for key in ("TEST_DATABASE_URL", "DATABASE_URL"):
        url = os.environ.get(key, "")
        if url.startswith(("postgresql", "postgres:")):
            return url
    return None


# --------------------------------------------------------------------------- the app


def make_app(url: str, instance: Path) -> Flask:
    """The production factory on ``url``; a fresh database gets its schema from the migrations
    (their log is kept out of the figures)."""
    from referee import create_app

    with contextlib.redirect_stderr(io.StringIO()):
        return create_app(
            {
                "SQLALCHEMY_DATABASE_URI": url,
                "SECRET_KEY": "bench",
                "CLUB_CODE": "000000",
                "INSTANCE_PATH": str(instance),
                # No catch-up process started by a page: it would run beside the next figures.
                # measure_standings runs the catch-up itself, where the timer would.
                "RATINGS_SPAWN_CATCH_UP": False,
            }
        )


def dispose(app: Flask) -> None:
    from referee.extensions import db

    with app.app_context():
        db.session.remove()
        db.engine.dispose()


# --------------------------------------------------------------------------- prototypes


@dataclass(frozen=True)
class ProtoHand:
    """One hand as the ledger stored it, and the table as the ledger left it after that hand.
    JSON texts are str.format templates: {0}..{n-1} stand for the players' names (as JSON)."""

    record: str
    result: str
    dealer: int
    next_dealer: int
    deltas: tuple[tuple[int, int], ...]  # (seat, amount): a row per player who took part
    state: str
    seats: tuple[tuple[int, int, bool], ...]  # (net, played, won) per seat


@dataclass(frozen=True)
class Proto:
    game: str
    players: int
    options: str
    first_dealer: int
    teams: tuple[int | None, ...]
    hands: tuple[ProtoHand, ...]
    minutes: int  # a hand's length, for the hands' timestamps


def _template(value: Any, names: Sequence[str]) -> str:
    """``value`` as JSON text with each name (a whole JSON string) turned into a placeholder."""
    out = json.dumps(value).replace("{", "{{").replace("}", "}}")
    for i, name in enumerate(names):
        out = out.replace(json.dumps(name), "{" + str(i) + "}")
    return out


def _play(game: str, names: tuple[str, ...], record_of: Callable[[int], dict[str, Any]], *, minutes: int) -> Proto:
    """Play one table through the ledger and keep every hand with the state it left behind."""
    from referee import ledger
    from referee.extensions import db
    from referee.models import Hand, HandDelta, Seat

    table, _token = ledger.create_table(game=game, players=list(names))
    kept = []
    for k in range(MAX_TABLE_HANDS):
        if ledger.match_over(table):
            break
        number, _answer, _replayed = ledger.record_hand(table, record_of(k), actor=ledger.BY_SCORER)
        hand = db.session.scalars(select(Hand).where(Hand.table_id == table.id, Hand.number == number)).one()
        deltas = db.session.execute(
            select(HandDelta.seat, HandDelta.amount).where(HandDelta.hand_id == hand.id).order_by(HandDelta.seat)
        )
        seats = db.session.execute(
            select(Seat.net, Seat.played, Seat.won).where(Seat.table_id == table.id).order_by(Seat.position)
        )
        kept.append(
            ProtoHand(
                record=_template(hand.record, names),
                result=_template(hand.result, names),
                dealer=names.index(hand.dealer),
                next_dealer=names.index(hand.next_dealer),
                deltas=tuple((int(s), int(a)) for s, a in deltas),
                state=_template(table.state, names),
                seats=tuple((int(n), int(p), bool(w)) for n, p, w in seats),
            )
        )
    return Proto(
        game=game,
        players=len(names),
        options=json.dumps(table.options),
        first_dealer=table.first_dealer,
        teams=tuple(s.team for s in table.seats),
        hands=tuple(kept),
        minutes=minutes,
    )


def _rotating(
    render: Callable[..., dict[str, Any]],
    templates: Sequence[tuple[str, dict[str, Any]]],
    players: tuple[str, ...],
    offset: int,
) -> Callable[[int], dict[str, Any]]:
    """Hand k of a table whose mix starts at template ``offset``, dealt in rotation."""
    return lambda k: render(templates[(k + offset) % len(templates)][1], players, rotation.dealer_of(players, k))


def _samba(offset: int) -> Callable[[int], dict[str, Any]]:
    """Samba's mix from template ``offset`` (its records name the fixed seats, not the dealer's)."""
    return lambda k: {**samba_hands.record(k + offset), "dealer": rotation.dealer_of(samba_hands.PLAYERS, k)}


def prototypes(workdir: Path) -> list[Proto]:
    """Tables of every game, each starting at another template of its mix (so tables differ):
    Jubileu at four, Quatrilho at five and at four, Samba matches played to their end."""
    four, five = jubileu_hands.PLAYERS, quatrilho_hands.PLAYERS

    def starts(templates: Sequence[Any]) -> range:
        return range(sized(len(templates), 1))  # quick mode: one table of each game

    app = make_app("sqlite://", workdir / "proto-instance")
    try:
        with app.app_context():
            return [
                *(
                    _play("jubileu", four, _rotating(jubileu_hands.render, jubileu_hands.TEMPLATES, four, j), minutes=4)
                    for j in starts(jubileu_hands.TEMPLATES)
                ),
                *(
                    _play(
                        "quatrilho",
                        players,
                        _rotating(quatrilho_hands.render, quatrilho_hands.TEMPLATES, players, j),
                        minutes=4,
                    )
                    for players in (five, five[:4])
                    for j in starts(quatrilho_hands.TEMPLATES)
                ),
                *(_play("samba", samba_hands.PLAYERS, _samba(j), minutes=12) for j in starts(samba_hands.TEMPLATES)),
            ]
    finally:
        dispose(app)


# --------------------------------------------------------------------------- the league's plan


FIRST_NAMES = (
    "Ana",
    "Bia",
    "Caio",
    "Dani",
    "Edu",
    "Fabi",
    "Gabi",
    "Hugo",
    "Iara",
    "João",
    "Kaio",
    "Lia",
    "Malu",
    "Nina",
    "Otávio",
    "Paulo",
    "Quim",
    "Rafa",
    "Sara",
    "Téo",
    "Ugo",
    "Vivi",
    "Wagner",
    "Xande",
    "Yara",
    "Zeca",
    "Bruno",
    "Carla",
    "Diego",
    "Elisa",
    "Flávia",
    "Guto",
    "Helena",
    "Igor",
    "Júlia",
    "Léo",
    "Marta",
    "Nando",
    "Olga",
    "Pedro",
)
LAST_NAMES = (
    "Silva",
    "Souza",
    "Costa",
    "Santos",
    "Oliveira",
    "Pereira",
    "Lima",
    "Carvalho",
    "Ferreira",
    "Rodrigues",
    "Almeida",
    "Nascimento",
    "Araújo",
    "Melo",
    "Barbosa",
    "Ribeiro",
    "Martins",
    "Rocha",
    "Gomes",
    "Teixeira",
    "Correia",
    "Cardoso",
    "Moura",
    "Dias",
    "Cavalcanti",
)


def member_names() -> list[str]:
    """1,000 distinct names (40 first names x 25 surnames)."""
    names = [f"{first} {last}" for last in LAST_NAMES for first in FIRST_NAMES]
    assert len(names) >= MEMBERS
    return names[:MEMBERS]


@dataclass(frozen=True)
class Planned:
    at: datetime  # UTC
    proto: Proto
    hands: int
    members: tuple[int, ...]  # member id per seat


def _draw(rng: random.Random, count: int) -> tuple[int, ...]:
    """``count`` distinct members; regulars more often than the rest (a skewed draw)."""
    chosen: dict[int, None] = {}
    while len(chosen) < count:
        chosen[1 + int(MEMBERS * rng.random() ** 1.5)] = None
    return tuple(chosen)


def _evening(rng: random.Random, day: date) -> datetime:
    """A table opened between 19:00 and 23:00 (club time) on ``day``, as UTC."""
    local = datetime.combine(day, clock(19), tzinfo=ZONE) + timedelta(
        minutes=rng.randrange(240), seconds=rng.randrange(60)
    )
    return local.astimezone(UTC)


def plan(
    protos: Sequence[Proto], total: int, rng: random.Random, *, first: date, days: int, game: str | None = None
) -> list[Planned]:
    """Tables until ``total`` hands: by table, 45% Jubileu, 40% Quatrilho (half at five), 15%
    Samba; 20-60 hands a table (a Samba match to its end, or a quarter of them cut short)."""
    pools = {
        "jubileu": [p for p in protos if p.game == "jubileu"],
        "quatrilho5": [p for p in protos if p.game == "quatrilho" and p.players == 5],
        "quatrilho4": [p for p in protos if p.game == "quatrilho" and p.players == 4],
        "samba": [p for p in protos if p.game == "samba"],
    }
    kinds, weights = zip(
        *[
            (k, w)
            for k, w in (("jubileu", 45), ("quatrilho5", 20), ("quatrilho4", 20), ("samba", 15))
            if game is None or k.startswith(game)
        ]
    )
    out: list[Planned] = []
    left = total
    while left > 0:
        proto = rng.choice(pools[rng.choices(kinds, weights)[0]])
        most = len(proto.hands)
        if proto.game == "samba":
            count = most if rng.random() < 0.75 else rng.randint(1, most - 1)
        else:
            count = rng.randint(20, most)
        count = min(count, left)
        left -= count
        out.append(
            Planned(_evening(rng, first + timedelta(days=rng.randrange(days))), proto, count, _draw(rng, proto.players))
        )
    out.sort(key=lambda p: p.at)
    return out


# --------------------------------------------------------------------------- writing rows


COLUMNS = {
    "member": ("id", "name", "name_key", "pix_key", "pix_city", "merged_into", "created_at"),
    "season": ("id", "name", "starts_on", "ends_on"),
    "game_table": (
        "id",
        "game",
        "name",
        "options",
        "locale",
        "scorer_token_hash",
        "first_dealer",
        "created_at",
        "finished_at",
        "state",
        "last_round_from",
        "follows",
        "version",
        "two_key",
        "ends_at",
    ),
    "seat": ("id", "table_id", "position", "name", "team", "member_id", "net", "played", "won"),
    "hand": (
        "id",
        "table_id",
        "number",
        "record",
        "result",
        "created_at",
        "created_by",
        "position",
        "dealer",
        "next_dealer",
    ),
    "hand_delta": ("id", "hand_id", "seat", "amount"),
}


class Writer:
    """Bulk inserts through the driver's own connection: executemany on SQLite, COPY on
    PostgreSQL. JSON columns get their text as it is; timestamps are stored as SQLAlchemy stores
    them (SQLite: UTC text 'YYYY-MM-DD HH:MM:SS.ffffff'; PostgreSQL: timestamptz)."""

    def __init__(self, app: Flask) -> None:
        from referee.extensions import db

        with app.app_context():
            self.connection = db.engine.raw_connection()
            self.postgresql = db.engine.dialect.name == "postgresql"

    def stamp(self, moment: datetime | None) -> Any:
        if moment is None or self.postgresql:
            return moment
        return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")

    def day(self, value: date) -> Any:
        return value if self.postgresql else value.isoformat()

    def rows(self, table: str, rows: Sequence[tuple[Any, ...]]) -> None:
        columns = COLUMNS[table]
        cursor = self.connection.cursor()
        if self.postgresql:
            with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            cursor.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", rows
            )
        cursor.close()

    def commit(self) -> None:
        self.connection.commit()

    def finish(self) -> None:
        """PostgreSQL: move the id sequences past the rows given explicit ids, and VACUUM ANALYZE
        as autovacuum would soon do on a live server (the planner needs the statistics)."""
        if self.postgresql:
            cursor = self.connection.cursor()
            for table in ("member", "season", "seat", "hand", "hand_delta"):
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM {table}), false)"
                )
            self.connection.commit()
            driver = self.connection.driver_connection
            assert driver is not None
            driver.autocommit = True
            driver.execute("VACUUM ANALYZE")
            driver.autocommit = False
        self.connection.close()


@dataclass
class Ids:
    """The next id of every table with an integer key (rows get explicit ids, so a hand's deltas
    can name it without a round trip)."""

    seat: int = 1
    hand: int = 1
    delta: int = 1

    @classmethod
    def after(cls, app: Flask) -> Ids:
        from referee.extensions import db
        from referee.models import Hand, HandDelta, Seat

        with app.app_context():
            top = [db.session.scalar(select(func.coalesce(func.max(m.id), 0))) or 0 for m in (Seat, Hand, HandDelta)]
        return cls(*(t + 1 for t in top))


def write_tables(
    writer: Writer, planned: Sequence[Planned], names: Sequence[str], ids: Ids, rng: random.Random, *, closed: bool
) -> int:
    """Insert the planned tables with their seats, hands and deltas; answers the hands written.
    ``closed``: the tables were closed after their last hand (past evenings), else still open."""
    quoted = [json.dumps(n) for n in names]  # as a name appears inside JSON text
    token_hash = secrets.token_hex(32)  # nobody scores these tables through the API
    tables: list[tuple[Any, ...]] = []
    seats: list[tuple[Any, ...]] = []
    hands: list[tuple[Any, ...]] = []
    deltas: list[tuple[Any, ...]] = []
    written = 0

    def flush() -> None:
        for name, rows in (("game_table", tables), ("seat", seats), ("hand", hands), ("hand_delta", deltas)):
            writer.rows(name, rows)
            rows.clear()
        writer.commit()

    for number, table in enumerate(planned, 1):
        proto, count = table.proto, table.hands
        table_id = base64.urlsafe_b64encode(rng.randbytes(16)).rstrip(b"=").decode()
        who = [names[m - 1] for m in table.members]
        json_names = [quoted[m - 1] for m in table.members]
        last = proto.hands[count - 1]
        step = timedelta(minutes=proto.minutes)
        ended = table.at + step * count + timedelta(minutes=5)
        tables.append(
            (
                table_id,
                proto.game,
                f"Mesa {number}",
                proto.options,
                "pt_BR",
                token_hash,
                proto.first_dealer,
                writer.stamp(table.at),
                writer.stamp(ended) if closed else None,
                last.state.format(*json_names),
                None,
                None,
                count,
                False,
                None,
            )
        )
        for position, (member, (net, played, won)) in enumerate(zip(table.members, last.seats)):
            seats.append((ids.seat, table_id, position, who[position], proto.teams[position], member, net, played, won))
            ids.seat += 1
        for k in range(count):
            hand = proto.hands[k]
            hands.append(
                (
                    ids.hand,
                    table_id,
                    k + 1,
                    hand.record.format(*json_names),
                    hand.result.format(*json_names),
                    writer.stamp(table.at + step * k),
                    "scorer",
                    k + 1,
                    who[hand.dealer],
                    who[hand.next_dealer],
                )
            )
            for seat, amount in hand.deltas:
                deltas.append((ids.delta, ids.hand, seat, amount))
                ids.delta += 1
            ids.hand += 1
        written += count
        if len(hands) >= CHUNK_HANDS:
            flush()
    flush()
    return written


def seasons(first: date) -> list[tuple[str, date, date]]:
    """The whole year, and its four quarters."""
    year = first.year
    quarters = [
        (
            f"{year} T{q + 1}",
            date(year, 3 * q + 1, 1),
            date(year + (q == 3), (3 * q + 3) % 12 + 1, 1) - timedelta(days=1),
        )
        for q in range(4)
    ]
    return [(str(year), date(year, 1, 1), date(year, 12, 31)), *quarters]


def generate(app: Flask, protos: Sequence[Proto], total: int, *, seed: int = 6) -> dict[str, float]:
    """A year of league on an empty database: members, seasons, tables, seats, hands, deltas."""
    rng = random.Random(seed)
    started = time.perf_counter()
    names = member_names()
    first = date(YEAR, 1, 1)
    writer = Writer(app)
    joined = writer.stamp(datetime(YEAR - 1, 12, 1, tzinfo=UTC))
    writer.rows("member", [(i, n, n.casefold(), "", "", None, joined) for i, n in enumerate(names, 1)])
    writer.rows("season", [(i, n, writer.day(a), writer.day(b)) for i, (n, a, b) in enumerate(seasons(first), 1)])
    planned = plan(protos, total, rng, first=first, days=365)
    written = write_tables(writer, planned, names, Ids(), rng, closed=True)
    inserted = time.perf_counter() - started
    writer.finish()
    return {
        "hands": written,
        "tables": len(planned),
        "seconds": time.perf_counter() - started,
        "insert_seconds": inserted,
    }


def append(app: Flask, protos: Sequence[Proto], game: str, total: int) -> int:
    """``total`` more hands of ``game``, at tables opened after everything else (tonight's, still open)."""
    ids = Ids.after(app)
    rng = random.Random(ids.hand)  # another seed for every batch: new table ids
    writer = Writer(app)
    planned = plan(protos, total, rng, first=date(YEAR + 1, 1, 1), days=7, game=game)
    written = write_tables(writer, planned, member_names(), ids, rng, closed=False)
    writer.finish()
    return written


# --------------------------------------------------------------------------- consistency


def check(app: Flask) -> str:
    """The generated league is what the ledger would have left: every table's state equals the
    one rebuilt from its hands, every seat's counters equal its state, and the standings from
    the seats equal the standings recomputed from the hands, for every game and season."""
    from referee import league, ledger
    from referee.extensions import db
    from referee.models import Table

    with app.app_context():
        tables = list(db.session.scalars(select(Table)))
        for table in tables:
            assert ledger.rebuild_state(table) == table.state, f"table {table.id}: state differs from its hands"
            for seat in table.seats:
                assert (
                    seat.net == table.state["balances"][seat.name] and seat.played == table.state["played"][seat.name]
                ), seat
        compared = 0
        for game in GAMES:
            for season in [None, *league.seasons()]:
                fast = league.standings(game, season)
                assert fast == standings_from_hands(game, season), f"{game} {season and season.name}: standings differ"
                compared += len(fast)
    return f"{len(tables)} tables' states rebuilt from their hands, {compared} standings rows equal from seats and from hands"


# --------------------------------------------------------------------------- measuring (child processes)


def _status_mb(key: str) -> float:
    """A /proc/self/status figure (VmRSS, VmHWM) in MB. Not getrusage's ru_maxrss: Linux
    carries the parent's peak over an exec, so a child would report the generator's."""
    return (status_kb(os.getpid(), key) or 0) / 1024


def _rss_peak(call: Callable[[], Any]) -> tuple[float, float]:
    """The process's peak RSS during one call and how far above the RSS before the call it
    went, in MB (the kernel's high-water mark is reset first, through /proc/self/clear_refs)."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")
    before = _status_mb("VmRSS")
    call()
    peak = _status_mb("VmHWM")
    return peak, peak - before


def _traced(call: Callable[[], Any]) -> float:
    """Python allocations' peak during one call, in MB."""
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def _spread(times: Sequence[float]) -> dict[str, float]:
    ordered = sorted(times)
    p95 = ordered[max(0, min(len(ordered) - 1, round(0.95 * len(ordered) + 0.5) - 1))]
    return {"median": statistics.median(ordered), "p95": p95, "max": ordered[-1], "runs": len(ordered)}


def _measure(call: Callable[[], Any], runs: int = RUNS) -> dict[str, float]:
    """``runs`` timed calls (already warm), then one under tracemalloc and one for the RSS peak."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    rss, grew = _rss_peak(call)
    return {**_spread(times), "traced_mb": _traced(call), "rss_mb": rss, "rss_grew_mb": grew}


def _once(call: Callable[[], Any]) -> dict[str, float]:
    """One call that cannot be repeated the same way (the first page, the first refresh). If it
    left work running in threads (a ratings rebuild the page does not wait for), wait for them
    too, so the next figures are not taken beside it: how long until they were done is a figure
    of its own, and the peak RSS covers them."""
    before = set(threading.enumerate())
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")
    rss_before = _status_mb("VmRSS")
    started = time.perf_counter()
    call()
    seconds = time.perf_counter() - started
    behind = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    for thread in behind:
        thread.join()
    done = time.perf_counter() - started
    peak = _status_mb("VmHWM")
    return {
        "median": seconds,
        "p95": seconds,
        "max": seconds,
        "runs": 1,
        "rss_mb": peak,
        "rss_grew_mb": peak - rss_before,
        "background": len(behind),
        "background_s": done if behind else 0.0,
    }


def measure_standings(url: str, instance: Path) -> dict[str, Any]:
    """Standings of every game for the whole year's season and for one quarter: the function,
    and the page through the Flask test client once it exists. The page also brings the game's
    ratings up to date, so it is timed four ways: the first GET (no ratings stored yet), GETs
    with nothing new, a GET after one more table of hands, and (for the first game) a GET after
    a void, which makes the ratings rebuild from scratch. A big league's rebuild is not the
    page's: it is left to the catch-up command, run here after the first GET as a timer would."""
    from referee import league, ratings

    app = make_app(url, instance)
    page = "league.standings" in app.view_functions
    figures: list[dict[str, Any]] = []
    protos = prototypes(instance) if page else []
    with app.app_context():
        every = {s.name: s for s in league.seasons()}
    chosen = [(str(YEAR), every[str(YEAR)].id), (f"{YEAR} T4", every[f"{YEAR} T4"].id)]
    for game in GAMES:
        with app.app_context():
            for label, season_id in chosen:
                season = league.get_season(season_id)
                rows = league.standings(game, season)  # warm: statement cache, pages in memory
                figures.append(
                    {
                        "what": "league.standings()",
                        "game": game,
                        "season": label,
                        "rows": len(rows),
                        **_measure(lambda game=game, season=season: league.standings(game, season)),
                    }
                )
        if not page:
            continue
        client = app.test_client()
        paths = {label: _path(app, game, season_id) for label, season_id in chosen}
        first = paths[str(YEAR)]
        figures.append({"what": FIRST_GET, "game": game, "season": str(YEAR), **_get(client, first, once=True)})
        with app.app_context():  # what the timer's `ratings catch-up` does: the GETs below see current ratings
            ratings.bring_up_to_date(game, renew=True)
        for label, path in paths.items():
            figures.append({"what": "GET", "game": game, "season": label, **_get(client, path)})
        added = append(app, protos, game, MAX_TABLE_HANDS // 2)
        figures.append(
            {
                "what": f"GET after {added} new hands",
                "game": game,
                "season": str(YEAR),
                **_get(client, first, once=True),
            }
        )
        if game == GAMES[0]:  # the same rebuild as the first GET's: once is enough to show it
            void_latest(app, game)
            figures.append(
                {
                    "what": "GET after a void (ratings to rebuild)",
                    "game": game,
                    "season": str(YEAR),
                    **_get(client, first, once=True),
                }
            )
    answer = {"page": page, "figures": figures, "rss_mb": _status_mb("VmHWM")}
    dispose(app)
    return answer


def void_latest(app: Flask, game: str) -> None:
    """Void the last hand of the game's latest table, as a correction at the end of a night does."""
    from referee import ledger
    from referee.extensions import db
    from referee.models import Table

    with app.app_context():
        table = db.session.scalars(
            select(Table).where(Table.game == game).order_by(Table.created_at.desc()).limit(1)
        ).one()
        ledger.void_hand(table, int(table.state["next_number"]) - 1, owner=True, reason="bench", actor=ledger.BY_SCORER)


def _path(app: Flask, game: str, season_id: int) -> str:
    from flask import url_for

    with app.test_request_context():
        return url_for("league.standings", game=game, season=season_id)


def _get(client: Any, path: str, *, once: bool = False) -> dict[str, Any]:
    """GET ``path`` through the test client (already warm unless ``once``), and its answer's size."""

    def call() -> Any:
        return client.get(path)

    figures = _once(call) if once else _measure(call)
    answer = client.get(path)
    return {**figures, "status": answer.status_code, "bytes": len(answer.data)}


def measure_ratings(url: str, instance: Path, game: str) -> dict[str, Any]:
    """One game's ratings recomputed from scratch (hands/s), then refreshed after 1,000 new hands."""
    from referee import ratings
    from referee.extensions import db
    from referee.models import Hand, Table

    app = make_app(url, instance)
    protos = prototypes(instance)
    with app.app_context():
        count = db.session.scalar(select(func.count()).select_from(Hand).join(Table).where(Table.game == game)) or 0
        recompute = _once(lambda: ratings.recompute(game))
        rated = len(ratings.table(game, fresh=False))
    added = append(app, protos, game, REFRESH_HANDS)
    with app.app_context():
        refresh = _once(lambda: ratings.refresh(game))
    dispose(app)
    return {"game": game, "hands": count, "rated": rated, "recompute": recompute, "added": added, "refresh": refresh}


def _child(mode: str, url: str, workdir: Path, *extra: str) -> dict[str, Any] | None:
    """Run one measurement in a fresh interpreter; its last stdout line is the JSON answer."""
    proc = subprocess.run(
        [sys.executable, "-m", "tests.bench.bench_league", mode, url, str(workdir / f"instance-{mode}"), *extra],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        print(f"  {mode} {' '.join(extra)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}", flush=True)
        return None
    answer: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return answer


def ratings_available() -> str | None:
    """None when referee.ratings has recompute, refresh and table; else why not."""
    try:
        from referee import ratings
    except ImportError as exc:
        return f"referee/ratings.py is not there yet ({exc})"
    missing = [name for name in ("recompute", "refresh", "table") if not hasattr(ratings, name)]
    return f"referee.ratings has no {', '.join(missing)}" if missing else None


# --------------------------------------------------------------------------- databases


@contextlib.contextmanager
def fresh_database(backend_url: str | None, workdir: Path, label: str, *, copy_of: str | None = None) -> Iterator[str]:
    """An empty database: a SQLite file under ``workdir``, or a PostgreSQL database created on
    the server of ``backend_url`` and dropped afterwards. With ``copy_of`` (the URL of another
    database of this function's, nobody connected to it), a copy of that one instead: two
    databases that differ in one respect can then be measured in turn, in the same minutes."""
    if backend_url is None:
        path = workdir / f"{label}.sqlite3"
        if copy_of is not None:
            import sqlite3

            with contextlib.closing(sqlite3.connect(make_url(copy_of).database or "")) as source:
                with contextlib.closing(sqlite3.connect(path)) as target:
                    source.backup(target)
        try:
            yield f"sqlite:///{path}"
        finally:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
        return
    import psycopg

    base = make_url(backend_url)
    params: dict[str, Any] = {
        k: v
        for k, v in {
            "host": base.host,
            "port": base.port,
            "user": base.username,
            "password": base.password,
            "dbname": base.database,
        }.items()
        if v is not None
    }
    name = f"bench_league_{label}_{secrets.token_hex(4)}"
    template = f' TEMPLATE "{make_url(copy_of).database}"' if copy_of is not None else ""
    with psycopg.connect(autocommit=True, **params) as admin:
        admin.execute(f'CREATE DATABASE "{name}"{template}')
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(autocommit=True, **params) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def database_size(app: Flask) -> float:
    """The database's size on disk in MB (SQLite: file and WAL; PostgreSQL: pg_database_size)."""
    from referee.extensions import db

    with app.app_context():
        if db.engine.dialect.name == "postgresql":
            return float(db.session.scalar(text("SELECT pg_database_size(current_database())"))) / 1e6
        path = Path(make_url(str(db.engine.url)).database or "")
        return sum(Path(f"{path}{s}").stat().st_size for s in ("", "-wal") if Path(f"{path}{s}").exists()) / 1e6


# --------------------------------------------------------------------------- settle-up


def _balances(rng: random.Random, players: int, kind: str) -> dict[str, int]:
    """Zero-sum balances of ``players`` non-zero players. "groups": many small zero-sum groups
    (pairs and threes: the plans where grouping saves the most transfers);
    "random": one random zero-sum set."""
    amounts: list[int] = []
    if kind == "groups":
        while len(amounts) < players:
            size = min(rng.choice((2, 2, 3)), players - len(amounts))
            if size == 1:  # one left over: fold it into the last group (nobody at zero)
                extra = rng.choice([x for x in range(1, 41) if x != amounts[-1]])
                amounts[-1] -= extra
                amounts.append(extra)
                break
            group = [rng.choice((-1, 1)) * rng.randint(1, 40) for _ in range(size - 1)]
            if sum(group) == 0:
                group[0] += 1
            amounts += [*group, -sum(group)]
    else:
        amounts = [rng.choice((-1, 1)) * rng.randint(1, 200) for _ in range(players - 1)]
        while sum(amounts) == 0:
            amounts[0] += 1
        amounts.append(-sum(amounts))
    rng.shuffle(amounts)
    return {f"Jogador {i + 1}": a for i, a in enumerate(amounts)}


def bench_settle() -> None:
    from referee.rules.settle import EXACT_LIMIT, fewest_transfers

    print(
        f"  settle-up: fewest_transfers on {SETTLE_RUNS} random zero-sum balances per case "
        f"(exact up to {EXACT_LIMIT} non-zero players, greedy beyond)",
        flush=True,
    )
    rng = random.Random(20)
    for players, kind, runs in (
        (EXACT_LIMIT, "groups", SETTLE_RUNS),
        (EXACT_LIMIT, "random", SETTLE_RUNS),
        (EXACT_LIMIT + 1, "groups", SETTLE_RUNS),
        (50, "random", SETTLE_RUNS),
    ):
        times, transfers = [], []
        budget = time.perf_counter() + SETTLE_BUDGET_S  # a slow exact search must not hold the whole bench
        for _ in range(runs):
            balances = _balances(rng, players, kind)
            started = time.perf_counter()
            answer = fewest_transfers(balances)
            times.append(time.perf_counter() - started)
            transfers.append(len(answer))
            assert len(answer) <= players - 1
            if time.perf_counter() > budget:
                break
        spread = _spread(times)
        label = f"{players} players, {kind}" + (" (greedy)" if players > EXACT_LIMIT else " (exact)")
        cut = f" (stopped at the {SETTLE_BUDGET_S:.0f} s budget)" if len(times) < runs else ""
        print(f"    {label}: {len(times)} runs{cut}, transfers {min(transfers)}-{max(transfers)}", flush=True)
        target = f"< {SETTLE_TARGET_MS:.0f} ms" if players <= EXACT_LIMIT else ""
        for key in ("median", "p95", "max"):
            ok = spread[key] * 1000 < SETTLE_TARGET_MS if players <= EXACT_LIMIT and key == "p95" else None
            figure(f"settle-up {label}: {key}", spread[key] * 1000, "ms", target if key == "p95" else "", ok)


# --------------------------------------------------------------------------- the run


def _growth(label: str, points: Sequence[tuple[int, float]]) -> None:
    """Cost per hand at each size, and the verdict over the whole range: the cost may grow at
    most as fast as the hands (25% slack; a step between two sizes is noisier than the span)."""
    print(
        f"    {label}: "
        + ", ".join(
            f"{hands:,} hands {1000 * seconds:,.1f} ms ({1e6 * seconds / hands:.2f} µs/hand)"
            for hands, seconds in points
        ),
        flush=True,
    )
    if len(points) > 1:
        (low, first), (high, last) = points[0], points[-1]
        grew, more = last / first if first else float("inf"), high / low
        verdict = "PASS" if grew <= 1.25 * more else "MISS"
        print(f"      x{grew:.2f} for x{more:.2f} hands: {verdict} (grows no faster than the hands)", flush=True)


def _memory(label: str, f: dict[str, Any]) -> None:
    """The process's peak RSS during the call, and how much of it the call added."""
    print(f"  {label:<44} {f['rss_mb']:>12,.1f} MB       (+{f['rss_grew_mb']:.1f} MB during the call)", flush=True)


def _print_standings(answer: dict[str, Any]) -> None:
    if not answer["page"]:
        print(
            "    the standings page (endpoint league.standings) is not there yet: league.standings() alone", flush=True
        )
    for f in answer["figures"]:
        extra = f" (HTTP {f['status']}, {f['bytes']:,} bytes)" if "status" in f else f" ({f['rows']} rows)"
        print(f"    {f['what']} {f['game']} {f['season']}{extra}, {f['runs']} run(s):", flush=True)
        target = f"< {STANDINGS_TARGET_S * 1000:.0f} ms"
        if f["runs"] > 1:
            figure("  median", f["median"] * 1000, "ms", "", None)
        figure("  p95" if f["runs"] > 1 else "  time", f["p95"] * 1000, "ms", target, f["p95"] < STANDINGS_TARGET_S)
        if "traced_mb" in f:
            figure("  tracemalloc peak", f["traced_mb"], "MB", "", None)
        if f.get("background"):
            print(
                f"      the page left {f['background']} thread(s) running (a ratings rebuild it does not wait for): "
                f"done {f['background_s']:.1f} s after the request began",
                flush=True,
            )
        _memory("  peak RSS", f)
    figure("standings process: peak RSS", answer["rss_mb"], "MB", "", None)


def _print_ratings(r: dict[str, Any]) -> None:
    once = r["recompute"]
    print(f"    ratings {r['game']}: {r['rated']} members rated from {r['hands']:,} hands", flush=True)
    figure("  recompute from scratch", once["median"], "s", "", None)
    figure("  recompute rate", r["hands"] / once["median"] if once["median"] else 0, "hands/s", "", None)
    _memory("  recompute: peak RSS", once)
    figure(f"  refresh after {r['added']:,} new hands", r["refresh"]["median"] * 1000, "ms", "", None)
    _memory("  refresh: peak RSS", r["refresh"])


def run_size(backend_url: str | None, workdir: Path, protos: Sequence[Proto], total: int) -> dict[str, Any]:
    with fresh_database(backend_url, workdir, f"n{total}") as url:
        app = make_app(url, workdir / "instance")
        made = generate(app, protos, total)
        size = database_size(app)
        dispose(app)
        print(
            f"  [{total:,} hands] generated {made['hands']:,} hands at {made['tables']:,} tables for {MEMBERS:,} members "
            f"in {made['seconds']:.1f} s ({made['hands'] / made['seconds']:,.0f} hands/s); database {size:,.0f} MB",
            flush=True,
        )
        load()
        out: dict[str, Any] = {
            "hands": made["hands"],
            "standings": _child("measure-standings", url, workdir),
            "ratings": [],
        }
        if out["standings"]:
            _print_standings(out["standings"])
        why = ratings_available()
        if why:
            print(f"    ratings: skipped, {why}", flush=True)
        else:
            for game in GAMES:
                if (r := _child("measure-ratings", url, workdir, game)) is not None:
                    out["ratings"].append(r)
                    _print_ratings(r)
    return out


def main() -> None:
    machine()
    backend_url = database_url()
    backend = "PostgreSQL" if backend_url else "SQLite (a temp file, WAL)"
    if backend_url is None:
        bench_settle()
    print(
        f"  league on {backend}: {MEMBERS:,} members, sizes {', '.join(f'{n:,}' for n in SIZES)} hands, "
        f"{RUNS} warm runs per figure",
        flush=True,
    )
    if backend_url is None:
        print("  (the PostgreSQL half runs under pg_virtualenv: `make bench-pg`)", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="referee-bench-league-"))
    try:
        started = time.perf_counter()
        protos = prototypes(workdir)
        print(
            f"  {len(protos)} prototype tables played through the ledger in {time.perf_counter() - started:.1f} s",
            flush=True,
        )
        with fresh_database(backend_url, workdir, "check") as url:
            app = make_app(url, workdir / "instance")
            generate(app, protos, CHECK_HANDS)
            started = time.perf_counter()
            print(f"  check at {CHECK_HANDS:,} hands: {check(app)} ({time.perf_counter() - started:.1f} s)", flush=True)
            dispose(app)
        results = [run_size(backend_url, workdir, protos, n) for n in SIZES]
        print(f"  growth on {backend}:", flush=True)
        for game in GAMES:
            for what in ("league.standings()", "GET", FIRST_GET):
                for season in (str(YEAR), f"{YEAR} T4"):
                    points = [
                        (r["hands"], f["median"])
                        for r in results
                        if r["standings"]
                        for f in r["standings"]["figures"]
                        if (f["what"], f["game"], f["season"]) == (what, game, season)
                    ]
                    if points:
                        _growth(f"standings {what} {game} {season} (median)", points)
        for game in GAMES:
            points = [
                (x["hands"], x["recompute"]["median"]) for r in results for x in r["ratings"] if x["game"] == game
            ]
            if points:
                _growth(f"ratings.recompute {game} (its own hands)", points)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _child_main(argv: Sequence[str]) -> None:
    mode, url, instance, *extra = argv
    if mode == "measure-standings":
        answer = measure_standings(url, Path(instance))
    elif mode == "measure-ratings":
        answer = measure_ratings(url, Path(instance), extra[0])
    else:
        raise SystemExit(f"unknown mode {mode}")
    print(json.dumps(answer))


if __name__ == "__main__":
    if len(sys.argv) > 1:
        _child_main(sys.argv[1:])
    else:
        main()
