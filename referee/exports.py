"""Exports, imports, backups: tables out of the database and back in.

An **export** (:func:`export_tables`) is JSON meant to leave the club: each table as created
(players, teams, options, first dealer, times) and each hand as the API's hand record it was stored
as, with who wrote it, when, and what happened to it after (voids, confirmations, disputes). It
holds no secret: no token hash, no Pix key. It is lossless: :func:`import_tables` rebuilds the
same tables, hand numbers, corrections, voids, confirmations and times.

An import does not copy rows: it replays the tables' history through the ledger, so every hand
is judged by the rules again (a doctored hand is refused with the engine's sentence) and the
derived state (balances, rotation, the seats' league counters) is the ledger's own. It is
replayed twice: first into a private database, where the rules judge the whole document without
holding the club database's write lock, then into the club's database in short transactions, so
scorers never wait for more than one of them. A refusal anywhere stores nothing.

A **backup** (:func:`backup`) is everything a club would miss after losing its database: the
tables with their secrets (the owner's token hash, the scoring links and join codes) and their set
number of deals, the members with their Pix keys and merges, the seasons, the championships (their
entries, re-entries, rounds and round tables); taken on the server, also the server's secret key
and club code (:mod:`referee.server_keys`). :func:`restore` puts it into an empty database, where
every token and scoring link works again, and, under the backup's secret key, every phone's
session and championship card. Ratings are left out: they are
derived from the hands and recomputed.

The **CSV** (:func:`tables_csv`) is for spreadsheets: one row per player per hand.
"""

from __future__ import annotations

import csv
import heapq
import io
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from flask import current_app
from sqlalchemy import bindparam, create_engine, delete, exists, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased
from sqlalchemy.pool import StaticPool

from referee import access, import_claim, league, ledger
from referee import server_keys as server_keys_module
from referee.championship import backup as championship_backup
from referee.db import db
from referee.documents import (
    ACTOR_MAX,
    MEMBER_NAME_MAX,
    TABLE_ID,
    continue_ids,
    csv_cell,
    field,
    invalid,
    iso,
    maybe_timestamp,
    naming,
    row_id,
    short_text,
    timestamp,
    whole,
)
from referee.league import local_date
from referee.members import name_key
from referee.models import (
    Access,
    Championship,
    Hand,
    HandEvent,
    Member,
    PhoneHold,
    Rating,
    RatingRun,
    Season,
    Seat,
    Table,
    aware,
    utcnow,
)
from referee.rules import get_game
from referee.rules.errors import InconsistentHand
from referee.rules.text import N_, Text

FORMAT = "referee-export"
BACKUP_FORMAT = "referee-backup"
VERSION = 1

EVENT_KINDS = ("void", "confirm", "dispute")

CSV_COLUMNS = (
    "table_id",
    "table_name",
    "game",
    "date",
    "hand",
    "status",
    "dealer",
    "player",
    "member",
    "delta",
    "total",
)


# --------------------------------------------------------------------------- export


def export_tables(tables: Iterable[Table]) -> dict[str, Any]:
    """The tables (in the order given) as an export document."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": iso(utcnow()),
        "tables": [_table_json(t) for t in tables],
    }


def season_tables(season: Season | None) -> list[Table]:
    """The tables a season holds (every table for None), oldest first, for an export."""
    return list(db.session.scalars(league.season_tables(season)))


def _table_json(table: Table) -> dict[str, Any]:
    players = ledger.players_of(table)
    return {
        "id": table.id,
        "game": table.game,
        "name": table.name,
        "players": list(players),
        "teams": [list(team) for team in ledger.teams_of(table)],
        "options": table.options,
        "dealer": players[table.first_dealer],
        "locale": table.locale,
        "two_key": table.two_key,
        "created_at": iso(table.created_at),
        "finished_at": iso(table.finished_at),
        "ends_at": iso(table.ends_at),
        "last_round_from": table.last_round_from,
        "follows": table.follows,
        "members": _member_names(table),
        "hands": [_hand_json(hand) for hand in ledger.all_hands(table)],
    }


def _member_names(table: Table) -> dict[str, str]:
    """Each seat's name and the name of the club member sitting there."""
    rows = db.session.execute(
        select(Seat.name, Member.name).join(Member, Member.id == Seat.member_id).where(Seat.table_id == table.id)
    )
    return dict(rows.all())


def _hand_json(hand: Hand) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "number": hand.number,
        "record": hand.record,
        "created_at": iso(hand.created_at),
        "created_by": hand.created_by,
        "events": [{"kind": e.kind, "reason": e.reason, "actor": e.actor, "at": iso(e.at)} for e in hand.events],
    }
    if hand.result.get("two_key"):
        answer["two_key"] = True  # recorded under two-key entry: it waited for a confirmation
    if "replaces" in hand.result:
        answer["replaces"] = hand.result["replaces"]
    return answer


# --------------------------------------------------------------------------- CSV


def tables_csv(tables: Iterable[Table]) -> str:
    """One row per player per hand (RFC 4180, CRLF, a header row): the hand's local date, its
    status, the player's delta and his running total over the live hands so far. Text cells a
    spreadsheet would run as a formula get a leading apostrophe; numbers are written as numbers
    (a negative delta is not a formula)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for table in tables:
        players = ledger.players_of(table)
        members = _member_names(table)
        running = dict.fromkeys(players, 0)
        for hand in ledger.all_hands(table):
            live = not hand.is_void
            for player in players:
                delta = int(hand.result["deltas"].get(player, 0))
                running[player] += delta if live else 0
                writer.writerow(
                    [
                        csv_cell(table.id),
                        csv_cell(table.name),
                        table.game,
                        local_date(hand.created_at).isoformat(),
                        hand.number,
                        "live" if live else "void",
                        csv_cell(hand.dealer),
                        csv_cell(player),
                        csv_cell(members.get(player, "")),
                        delta,
                        running[player],
                    ]
                )
    return out.getvalue()


# --------------------------------------------------------------------------- reading a document
#
# Everything is checked before anything is written: a malformed document is an InvalidInput
# (400) naming where (``tables[0].hands[3].created_at``). Whether the hands are legal is the
# rules' business, asked while replaying. The readers of fields are referee.documents': a
# backup's championships are read with them too (referee.championship.backup).


@dataclass(frozen=True)
class _Event:
    kind: str
    reason: str
    actor: str
    at: datetime


@dataclass(frozen=True)
class _Hand:
    number: int
    record: dict[str, Any]
    created_at: datetime
    created_by: str
    two_key: bool
    replaces: int | None
    events: tuple[_Event, ...]


@dataclass(frozen=True)
class _Table:
    where: str  # "tables[i]", for error fields
    raw: Mapping[str, Any]  # what create_table checks itself (game, name, players, options, ...)
    id: str
    created_at: datetime
    finished_at: datetime | None
    ends_at: datetime | None
    last_round_from: int | None
    follows: str | None
    two_key: bool
    members: dict[str, str]
    hands: tuple[_Hand, ...]


def _day(obj: Mapping[str, Any], key: str, where: str) -> date:
    try:
        return league.parse_day(field(obj, key, str, where))
    except ValueError:
        raise invalid(N_("%(field)s must be a date (year-month-day)."), f"{where}.{key}", field=key) from None


def _document(data: object, expected: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping) or data.get("format") != expected:
        raise invalid(N_("This is not a Referee file of the expected kind (%(format)s)."), "format", format=expected)
    if data.get("version") != VERSION or isinstance(data.get("version"), bool):
        raise invalid(N_("This file's version is not one this Referee can read."), "version")
    return data


def _tables(data: Mapping[str, Any]) -> list[_Table]:
    raw_tables = field(data, "tables", list, "")
    tables = [_table(raw, f"tables[{i}]") for i, raw in enumerate(raw_tables)]
    seen: set[str] = set()
    for table in tables:
        if table.id in seen:
            raise invalid(N_("Two tables have the same id."), f"{table.where}.id")
        seen.add(table.id)
    return tables


def _table(raw: object, where: str) -> _Table:
    if not isinstance(raw, Mapping):
        raise invalid(N_("Each table must be a JSON object."), where)
    table_id = field(raw, "id", str, where)
    if not TABLE_ID.fullmatch(table_id):
        raise invalid(N_("A table id has 16 to 32 letters, digits, - or _."), f"{where}.id")
    follows = field(raw, "follows", str, where, optional=True)
    if follows is not None and not TABLE_ID.fullmatch(follows):
        raise invalid(N_("A table id has 16 to 32 letters, digits, - or _."), f"{where}.follows")
    last_round = field(raw, "last_round_from", int, where, optional=True)
    members = field(raw, "members", dict, where)
    for seat in members:
        short_text(members, seat, f"{where}.members", limit=MEMBER_NAME_MAX)
        if not members[seat].strip():
            raise invalid(N_("Each player needs a name."), f"{where}.members.{seat}")
    for key, kind in (
        ("game", str),
        ("players", list),
        ("options", dict),
        ("dealer", str),
        ("locale", str),
        ("name", str),
    ):
        field(raw, key, kind, where)
    field(raw, "teams", list, where, optional=True)
    hands = tuple(_hand(h, f"{where}.hands[{i}]", i + 1) for i, h in enumerate(field(raw, "hands", list, where)))
    _check_corrections(hands, where)
    if last_round is not None and not 1 <= last_round <= len(hands) + 1:  # declared for the next hand at the latest
        raise invalid(
            N_("%(field)s must be the number of a hand of the table."),
            f"{where}.last_round_from",
            field="last_round_from",
        )
    return _Table(
        where=where,
        raw=raw,
        id=table_id,
        created_at=timestamp(raw, "created_at", where),
        finished_at=maybe_timestamp(raw, "finished_at", where),
        ends_at=maybe_timestamp(raw, "ends_at", where),
        last_round_from=last_round,
        follows=follows,
        two_key=field(raw, "two_key", bool, where),
        members=dict(members),
        hands=hands,
    )


def _hand(raw: object, where: str, number: int) -> _Hand:
    if not isinstance(raw, Mapping):
        raise invalid(N_("Each hand must be a JSON object."), where)
    if field(raw, "number", int, where) != number:
        raise invalid(N_("Hands are numbered 1, 2, 3, … in order, without gaps."), f"{where}.number")
    replaces = field(raw, "replaces", int, where, optional=True)
    if replaces is not None and not 1 <= replaces < number:
        raise invalid(N_("A correction replaces an earlier hand."), f"{where}.replaces")
    events = []
    for i, event in enumerate(field(raw, "events", list, where)):
        at = f"{where}.events[{i}]"
        if not isinstance(event, Mapping) or event.get("kind") not in EVENT_KINDS:
            raise invalid(N_("An event is a void, a confirmation or a dispute."), at)
        events.append(
            _Event(
                kind=event["kind"],
                reason=short_text(event, "reason", at, limit=ledger.REASON_MAX),
                actor=short_text(event, "actor", at, limit=ACTOR_MAX),
                at=timestamp(event, "at", at),
            )
        )
    kinds = [e.kind for e in events]
    if "void" in kinds and kinds.index("void") != len(kinds) - 1:
        raise invalid(N_("Nothing can happen to a hand after it was voided."), f"{where}.events")
    two_key = field(raw, "two_key", bool, where, optional=True)
    return _Hand(
        number=number,
        record=dict(field(raw, "record", dict, where)),
        created_at=timestamp(raw, "created_at", where),
        created_by=short_text(raw, "created_by", where, limit=ACTOR_MAX),
        two_key=bool(two_key),
        replaces=replaces,
        events=tuple(events),
    )


def _check_corrections(hands: Sequence[_Hand], where: str) -> None:
    """A corrected hand is replaced once, and its void (the correction's) is its last event."""
    replaced: set[int] = set()
    for hand in hands:
        if hand.replaces is None:
            continue
        old = hands[hand.replaces - 1]
        if hand.replaces in replaced or not old.events or old.events[-1].kind != "void":
            raise invalid(
                N_("A corrected hand must be voided once, by its correction."),
                f"{where}.hands[{hand.number - 1}].replaces",
            )
        replaced.add(hand.replaces)


def _check_follows(tables: Sequence[_Table]) -> None:
    """A table of an import may follow (be the rematch of) only a table of the same document.
    Naming any other would make it the rematch of a stored table it was never played after
    (taking that table's one rematch, and showing on its page), or of none at all."""
    ids = {t.id for t in tables}
    for table in tables:
        if table.follows is not None and table.follows not in ids:
            raise invalid(
                N_("This table follows table %(id)s, which is not in this file: export and import the two together."),
                f"{table.where}.follows",
                id=table.follows,
            )


def _followers_last(tables: Sequence[_Table]) -> list[_Table]:
    """Tables in an order where a rematch comes after the table it follows (when both are in
    the document); otherwise as given."""
    by_id = {t.id: t for t in tables}
    done: set[str] = set()
    order: list[_Table] = []
    for table in tables:
        chain: list[_Table] = []  # this table, the one it follows, and so on up
        current: _Table | None = table
        while current is not None and current.id not in done:
            if any(current.id == link.id for link in chain):
                raise invalid(N_("Rematches cannot follow each other in a circle."), f"{current.where}.follows")
            chain.append(current)
            current = by_id.get(current.follows) if current.follows else None
        for link in reversed(chain):
            done.add(link.id)
            order.append(link)
    return order


# --------------------------------------------------------------------------- import


#: An import stores its tables in write transactions of at most this many writes (a table, a
#: hand, an event) each. Each holds the database's write lock (SQLite has one for the whole
#: file) for its own time only, a few tenths of a second (tests/bench/bench_import.py): a
#: scorer recording a hand meanwhile waits for one batch, not for the whole import.
IMPORT_BATCH = 200
#: The pause between two batches on SQLite. It hands its write lock to no one in particular: a
#: writer waiting on the busy timeout looks again every 100 ms at most, and would miss the
#: instant between two batches, again and again (measured: a scorer waited 7 s, a probe 22 s).
#: A pause longer than that lets every waiting writer in.
IMPORT_PAUSE = 0.12
#: A batch also ends when it has held the lock this long, whatever it wrote: a void or a
#: correction rebuilds its table's state from every hand, so 200 of them on a long table would
#: hold the lock for seconds.
IMPORT_BATCH_SECONDS = 0.2


def import_tables(data: object) -> list[tuple[Table, str]]:
    """Rebuild the tables of an export through the ledger; answers each table (in the order
    stored: rematches after the tables they follow) with a new owner token (an export has none).

    Raises :class:`InvalidInput` for a malformed document, :class:`RulesError` for a hand the
    rules refuse (its field names the table and the hand), :class:`ledger.Conflict` when a table
    id is already taken. In every case nothing is stored.

    Raises :class:`import_claim.Busy`, before reading anything, while another import runs:
    one at a time per server (referee.import_claim), or a few large ones would fill every
    worker and queue the scorers' saves behind their batches.

    Two passes, so that a large import neither holds the write lock for long nor leaves half a
    document behind: the whole document is first judged in a private database (:func:`_judge`),
    without the lock; only then is it stored, in short transactions (:func:`_store`)."""
    claim = import_claim.take()
    try:
        tables = _tables(_document(data, FORMAT))
        _check_follows(tables)
        ordered = _followers_last(tables)
        _check_free(ordered)
        _judge(ordered, claim)
        return _store(ordered, claim)
    finally:
        claim.release()


def _clash() -> Text:
    return Text(N_("These tables clash with tables already stored (the same id, or a second rematch of one table)."))


def _check_free(tables: Sequence[_Table]) -> None:
    """Refuse early (a read, no lock) a table id already stored."""
    taken = db.session.scalar(select(Table.id).where(Table.id.in_([t.id for t in tables])).limit(1))
    db.session.rollback()  # end the read: the writes begin with the write lock (_begin)
    if taken is not None:
        raise ledger.Conflict(Text(N_("A table with the id %(id)s already exists."), id=taken))


def _judge(tables: Sequence[_Table], claim: import_claim.Claim) -> None:
    """Replay every table through the ledger into a private, empty database: whatever the rules
    or the ledger refuse is refused here, before anything reaches the club's database, and the
    replay (most of an import's time) takes none of its locks (the claim is renewed as it goes)."""
    with _private_database():
        try:
            for spec in tables:
                _rebuild(spec, wrote=claim.keep)
        except IntegrityError:  # two tables of the document following the same one
            raise ledger.Conflict(_clash()) from None


@contextmanager
def _private_database() -> Iterator[None]:
    """For the block, ``db.session`` is a session of its own on a new in-memory SQLite database
    with the app's schema, thrown away afterwards. A new app context scopes it: the caller's
    session, and what it holds, are untouched."""
    engine = create_engine("sqlite://", poolclass=StaticPool)
    try:
        db.metadata.create_all(engine)
        with current_app.app_context():  # db.session is scoped by app context
            db.session.registry.set(Session(bind=engine, expire_on_commit=False))
            yield  # leaving the context removes (closes) that session
    finally:
        engine.dispose()


class _Batches:
    """Commits every ``size`` writes, and opens each new transaction with the write lock taken
    (:func:`_begin`). Knows which tables it has committed: those are this import's to remove
    should a later batch fail."""

    def __init__(self, size: int, claim: import_claim.Claim) -> None:
        self.size = size
        self.claim = claim
        self.written = 0
        self.started = 0.0  # when the open transaction took the lock
        self.pending: list[str] = []  # tables created in the open transaction
        self.stored: list[str] = []  # tables whose creation is committed

    def begin(self) -> None:
        _begin()
        self.started = time.monotonic()

    def created(self, table_id: str) -> None:
        self.pending.append(table_id)

    def wrote(self) -> None:
        self.written += 1
        if self.written >= self.size or time.monotonic() - self.started >= IMPORT_BATCH_SECONDS:
            self.commit()
            if db.session.get_bind().dialect.name == "sqlite":
                time.sleep(IMPORT_PAUSE)  # PostgreSQL's writers wait in a queue: nothing to do
            self.claim.keep()  # between batches: SQLite's write lock is free
            self.begin()

    def commit(self) -> None:
        db.session.commit()
        self.stored += self.pending
        self.pending, self.written = [], 0


def _store(tables: Sequence[_Table], claim: import_claim.Claim) -> list[tuple[Table, str]]:
    """Replay the judged tables into the club's database, :data:`IMPORT_BATCH` writes per
    transaction. A batch can still fail (another import of the same file stored a table first,
    the disk is full): then what the earlier batches stored is removed, so a refused import
    stores nothing. Until the last batch commits, a table being imported is visible to whoever
    knows its id, growing; nobody can write to it (its owner's token is not given out yet)."""
    batches = _Batches(IMPORT_BATCH, claim)
    names = {name for spec in tables for name in _member_names_of(spec)}
    known = {name_key(n) for n in names} & _stored_member_keys(names)
    made = []
    try:
        batches.begin()
        for spec in tables:
            batches.created(spec.id)
            made.append(_rebuild(spec, wrote=batches.wrote))
        batches.commit()
    except BaseException as exc:
        db.session.rollback()
        _forget(batches.stored, {name_key(n) for n in names} - known)
        if isinstance(exc, IntegrityError):
            raise ledger.Conflict(_clash()) from None
        raise
    return made


def _member_names_of(spec: _Table) -> list[str]:
    """The names the ledger will look its members up by (as create_table is given them)."""
    return [spec.members.get(p, p) for p in spec.raw["players"] if isinstance(p, str)]


def _stored_member_keys(names: Iterable[str]) -> set[str]:
    keys = [name_key(n) for n in names]
    found = set(db.session.scalars(select(Member.name_key).where(Member.name_key.in_(keys))))
    db.session.rollback()
    return found


def _forget(table_ids: Sequence[str], member_keys: set[str]) -> None:
    """Delete what a failed import committed: its tables (their seats, hands, events and links
    go with them: ON DELETE CASCADE), and the members it created that nobody has sat down as,
    been rated as or been merged into since."""
    if not table_ids and not member_keys:
        return
    _begin()
    if table_ids:
        games = list(db.session.scalars(select(Table.game).where(Table.id.in_(table_ids)).distinct()))
        db.session.execute(delete(Table).where(Table.id.in_(table_ids)))
        # A ratings refresh may have read the removed hands meanwhile: those games are rated
        # again from scratch at the next refresh (no run row, no rating row), which also rates
        # the hands stored after them.
        db.session.execute(delete(RatingRun).where(RatingRun.game.in_(games)))
        db.session.execute(delete(Rating).where(Rating.game.in_(games)))
    if member_keys:
        merged = aliased(Member)
        db.session.execute(
            delete(Member).where(
                Member.name_key.in_(member_keys),
                ~exists().where(Seat.member_id == Member.id),
                ~exists().where(Rating.member_id == Member.id),
                ~exists().where(merged.merged_into == Member.id),
            )
        )
    db.session.commit()


@contextmanager
def _one_transaction(clash: Text) -> Iterator[None]:
    """Commit everything at the end, or roll everything back (the ledger's writes are made with
    ``commit=False``). A row that clashes with one already stored is a :class:`ledger.Conflict`
    saying ``clash``."""
    _begin()
    try:
        yield
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise ledger.Conflict(clash) from None
    except BaseException:
        db.session.rollback()
        raise


def _begin() -> None:
    """Really open the transaction, and on SQLite with the write lock taken (``BEGIN
    IMMEDIATE``). The driver would open one only at the first INSERT, UPDATE or DELETE: a
    SAVEPOINT before that (members.resolve creating a member) opens its own, and its RELEASE
    commits, so a refused write would leave its new members behind. And a transaction that
    reads first fails at once with "database is locked" if another writer commits before its
    first write; one that starts with the lock waits its turn on the busy timeout instead."""
    connection = db.session.connection()
    if connection.dialect.name == "sqlite" and not getattr(
        connection.connection.dbapi_connection, "in_transaction", True
    ):
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def _rebuild(spec: _Table, *, wrote: Callable[[], None] = lambda: None) -> tuple[Table, str]:
    """Create the table and replay its hands and events; ``wrote`` is called after each write
    (see :class:`_Batches`)."""
    if db.session.scalar(select(Table.id).where(Table.id == spec.id)) is not None:
        raise ledger.Conflict(Text(N_("A table with the id %(id)s already exists."), id=spec.id))
    raw = spec.raw
    players = raw["players"]
    with naming(spec.where):
        rules = get_game(raw["game"])
        table, token = ledger.create_table(
            game=raw["game"],
            players=players,
            dealer=raw["dealer"],
            name=raw["name"],
            options=raw["options"],
            locale=raw["locale"],
            teams=raw.get("teams") if rules.kind.points_match else None,  # a match's teams score together
            follows=spec.follows,
            two_key=spec.two_key,
            table_id=spec.id,
            member_names=[spec.members.get(p, p) if isinstance(p, str) else p for p in players],
            commit=False,
        )
    wrote()
    _replay(table, spec, wrote)
    table.created_at = spec.created_at
    table.finished_at = spec.finished_at
    table.ends_at = spec.ends_at
    table.last_round_from = spec.last_round_from
    table.two_key = spec.two_key
    db.session.flush()
    _restore_times(table, spec)
    return table, token


def _replay(table: Table, spec: _Table, wrote: Callable[[], None]) -> None:
    """Record the hands in number order and apply their events between them in the order they
    happened (a void can change what a later hand may be: a Samba match that is no longer
    over). Each hand's own events keep their order; a correction's void is made by the
    correction itself."""
    corrected = {h.replaces for h in spec.hands if h.replaces is not None}
    queues = {h.number: deque(h.events[:-1] if h.number in corrected else h.events) for h in spec.hands}
    pending: list[tuple[datetime, int]] = []  # (when, hand number) of each hand's next event

    def apply_until(moment: datetime | None) -> None:
        while pending and (moment is None or pending[0][0] < moment):
            _when, number = heapq.heappop(pending)
            event = queues[number].popleft()
            with naming(f"{spec.where}.hands[{number - 1}].events"):
                _apply(table, number, event)
            wrote()
            if queues[number]:
                heapq.heappush(pending, (queues[number][0].at, number))

    for hand in spec.hands:
        apply_until(hand.created_at)
        table.two_key = hand.two_key
        reason = spec.hands[hand.replaces - 1].events[-1].reason if hand.replaces is not None else ""
        with naming(f"{spec.where}.hands[{hand.number - 1}]"):
            ledger.record_hand(
                table,
                hand.record,
                expected_number=hand.number,
                actor=hand.created_by,
                replaces=hand.replaces,
                reason=reason,
                commit=False,
            )
        wrote()
        if queues[hand.number]:
            heapq.heappush(pending, (queues[hand.number][0].at, hand.number))
    apply_until(None)


def _apply(table: Table, number: int, event: _Event) -> None:
    if event.kind == "void":
        ledger.void_hand(table, number, owner=True, reason=event.reason, actor=event.actor, commit=False)
    elif event.kind == "confirm":
        ledger.confirm_hand(table, number, actor=event.actor, commit=False)
    else:
        ledger.dispute_hand(table, number, actor=event.actor, reason=event.reason, commit=False)


def _restore_times(table: Table, spec: _Table) -> None:
    """Put back when each hand and event happened, and who made each event (the ledger stores a
    correction's void under the correction's writer; the document may say otherwise)."""
    if not spec.hands:
        return
    hand_table, event_table = Hand.__table__, HandEvent.__table__
    connection = db.session.connection()
    connection.execute(
        update(hand_table)
        .where(hand_table.c.table_id == bindparam("t"), hand_table.c.number == bindparam("n"))
        .values(created_at=bindparam("at")),
        [{"t": table.id, "n": h.number, "at": h.created_at} for h in spec.hands],
    )
    stored: dict[int, list[tuple[int, str]]] = {}
    for event_id, number, kind in connection.execute(
        select(event_table.c.id, hand_table.c.number, event_table.c.kind)
        .join(hand_table, hand_table.c.id == event_table.c.hand_id)
        .where(hand_table.c.table_id == table.id)
        .order_by(event_table.c.id)
    ):
        stored.setdefault(number, []).append((event_id, kind))
    rows: list[dict[str, Any]] = []
    for hand in spec.hands:
        made = stored.get(hand.number, [])
        if [kind for _id, kind in made] != [e.kind for e in hand.events]:  # the replay is faithful; say so if not
            raise InconsistentHand(
                Text(N_("The events of this hand could not be replayed.")),
                field=f"{spec.where}.hands[{hand.number - 1}].events",
            )
        rows.extend({"i": event_id, "at": e.at, "actor": e.actor} for (event_id, _kind), e in zip(made, hand.events))
    if rows:
        connection.execute(
            update(event_table)
            .where(event_table.c.id == bindparam("i"))
            .values(at=bindparam("at"), actor=bindparam("actor")),
            rows,
        )
    db.session.expire_all()  # the hands' rows changed under the session


# --------------------------------------------------------------------------- backup and restore


def backup(*, live_codes: bool = True, server_keys: bool = False) -> dict[str, Any]:
    """Everything needed to start again from an empty database: every table (as exported, plus
    its owner's token hash, its scoring links and join codes, what each phone holds there (by
    hashes: referee.keyring) and its set number of deals), every
    member (Pix keys and merges included), every season and every championship (its settings,
    entries, re-entries, rounds and round tables: :func:`referee.championship.backup.dump`).
    Ratings are derived; they are left out.

    Without ``live_codes`` (the backup a phone downloads), a join code still open is left out: its
    hash covers only 31**8 codes, few enough to try them all within its thirty minutes, and it
    would have expired before any restore anyway.

    With ``server_keys`` (the backups taken on the server itself, never the phone's download),
    it also carries the server's secret key and club code (:mod:`referee.server_keys`), without
    which the phones' sessions and the printed championship cards do not survive a restore."""

    now = datetime.now(UTC)
    tables = list(db.session.scalars(select(Table).order_by(Table.created_at, Table.id)))
    accesses: dict[str, list[dict[str, Any]]] = {}
    for row in db.session.scalars(select(Access).order_by(Access.id)):
        open_code = row.code_expires_at is not None and aware(row.code_expires_at) > now
        accesses.setdefault(row.table_id, []).append(
            {
                "id": row.id,
                "role": row.role,
                "label": row.label,
                "token_hash": row.token_hash,
                "code_hash": None if open_code and not live_codes else row.code_hash,
                "code_expires_at": iso(row.code_expires_at),
                "created_at": iso(row.created_at),
                "revoked_at": iso(row.revoked_at),
                "created_by": row.created_by,
                "spent_hash": row.spent_hash,
            }
        )
    phones: dict[str, list[dict[str, Any]]] = {}
    for hold in db.session.scalars(select(PhoneHold).order_by(PhoneHold.id)):
        phones.setdefault(hold.table_id, []).append(
            {
                "id": hold.id,
                "phone_hash": hold.phone_hash,
                "token_hash": hold.token_hash,
                "owned": hold.owned,
                "created_at": iso(hold.created_at),
            }
        )
    document = export_tables(tables)
    for table, entry in zip(tables, document["tables"]):
        entry.update(
            scorer_token_hash=table.scorer_token_hash,
            accesses=accesses.get(table.id, []),
            phones=phones.get(table.id, []),
            deals=table.deals,
        )
    result: dict[str, Any] = {
        "format": BACKUP_FORMAT,
        "version": VERSION,
        "created_at": document["exported_at"],
        "members": [
            {
                "id": m.id,
                "name": m.name,
                "name_key": m.name_key,
                "pix_key": m.pix_key,
                "pix_city": m.pix_city,
                "merged_into": m.merged_into,
                "created_at": iso(m.created_at),
            }
            for m in db.session.scalars(select(Member).order_by(Member.id))
        ],
        "seasons": [
            {"id": s.id, "name": s.name, "starts_on": s.starts_on.isoformat(), "ends_on": s.ends_on.isoformat()}
            for s in db.session.scalars(select(Season).order_by(Season.id))
        ],
        "tables": document["tables"],
        "championships": championship_backup.dump(),
    }
    if server_keys:
        result[server_keys_module.FIELD] = server_keys_module.carried()
    return result


def is_empty() -> bool:
    """No table, member, season or championship: a database a backup can be restored into."""
    return not any(
        db.session.scalar(select(func.count()).select_from(model)) for model in (Table, Member, Season, Championship)
    )


def restore(data: object, *, replace: bool = False) -> dict[str, int]:
    """Put a backup into the database; answers how many tables, members, seasons and
    championships.

    Refuses (:class:`ledger.Conflict`) a club that holds anything, unless ``replace``: then
    everything the club holds is deleted first, in the same transaction (the server's clubs and
    its own bookkeeping stay). Members, seasons, scoring
    links and championship entries keep their ids (pages and the history's "by a scorer (Bia)"
    name them by id, a championship card's token is derived from its access's id, a round table
    names its players by entry id); the tables are rebuilt through the ledger like an import,
    then get their secrets and their set number of deals back. A backup made before
    championships existed has none."""
    document = _document(data, BACKUP_FORMAT)
    tables = _tables(document)
    people = [_member(m, f"members[{i}]") for i, m in enumerate(field(document, "members", list, ""))]
    seasons = [_season(s, f"seasons[{i}]") for i, s in enumerate(field(document, "seasons", list, ""))]
    secrets = {t.id: _secrets(t) for t in tables}
    holds = {t.id: _holds(t) for t in tables}
    deals = {t.id: _deals(t) for t in tables}
    championships = _championships(document, tables, secrets, people)
    if not replace and not is_empty():
        raise ledger.Conflict(
            Text(N_("The database is not empty: restore a backup only into an empty one, or replace everything."))
        )
    with _one_transaction(Text(N_("This backup does not fit this database: two rows would have the same id or name."))):
        connection = db.session.connection()
        if replace:  # the club's rows (referee.club_scope limits each delete to it), not the server's
            for model_table in reversed(db.metadata.sorted_tables):
                if "club_id" in model_table.c:
                    connection.execute(model_table.delete())
        if people:
            connection.execute(insert(Member.__table__), [{**m, "merged_into": None} for m in people])
            merged = [{"i": m["id"], "into": m["merged_into"]} for m in people if m["merged_into"] is not None]
            if merged:
                member = Member.__table__
                connection.execute(
                    update(member).where(member.c.id == bindparam("i")).values(merged_into=bindparam("into")), merged
                )
        if seasons:
            connection.execute(insert(Season.__table__), seasons)
        continue_ids(Member, Season)  # a seat whose member the backup lacks gets a new one
        for spec in _followers_last(tables):
            table, _token = _rebuild(spec)
            table.deals = deals[spec.id]  # after the replay, which it would not change
            _put_secrets_back(table, *secrets[spec.id], holds[spec.id])
        db.session.flush()
        continue_ids(Access, PhoneHold)
        championship_backup.insert(championships)  # after the tables, accesses and members they name
    return {"tables": len(tables), "members": len(people), "seasons": len(seasons), "championships": len(championships)}


def _put_secrets_back(table: Table, owner_hash: str, links: list[dict[str, Any]], holds: list[dict[str, Any]]) -> None:
    """A rebuilt table's owner token hash, its ways in, and what phones hold there."""
    table.scorer_token_hash = owner_hash
    connection = db.session.connection()
    if links:
        connection.execute(insert(Access.__table__), [{**link, "table_id": table.id} for link in links])
    if holds:
        connection.execute(insert(PhoneHold.__table__), [{**hold, "table_id": table.id} for hold in holds])


def _member(raw: object, where: str) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise invalid(N_("Each member must be a JSON object."), where)
    return {
        "id": row_id(raw, "id", where),
        "name": short_text(raw, "name", where, limit=MEMBER_NAME_MAX),
        "name_key": short_text(raw, "name_key", where, limit=MEMBER_NAME_MAX, optional=True),
        "pix_key": short_text(raw, "pix_key", where, limit=77),
        "pix_city": short_text(raw, "pix_city", where, limit=15),
        "merged_into": row_id(raw, "merged_into", where, optional=True),
        "created_at": timestamp(raw, "created_at", where),
    }


def _season(raw: object, where: str) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise invalid(N_("Each season must be a JSON object."), where)
    return {
        "id": row_id(raw, "id", where),
        "name": short_text(raw, "name", where, limit=league.SEASON_NAME_MAX),
        "starts_on": _day(raw, "starts_on", where),
        "ends_on": _day(raw, "ends_on", where),
    }


def _secrets(spec: _Table) -> tuple[str, list[dict[str, Any]]]:
    """The owner's token hash and the table's ways in for scorers, as rows to insert."""
    raw, where = spec.raw, spec.where
    owner = short_text(raw, "scorer_token_hash", where, limit=64)
    links = []
    for i, link in enumerate(field(raw, "accesses", list, where)):
        at = f"{where}.accesses[{i}]"
        if not isinstance(link, Mapping):
            raise invalid(N_("Each scoring link must be a JSON object."), at)
        links.append(
            {
                "id": row_id(link, "id", at),
                "role": short_text(link, "role", at, limit=16),
                "label": short_text(link, "label", at, limit=access.LABEL_MAX),
                "token_hash": short_text(link, "token_hash", at, limit=64, optional=True),
                "code_hash": short_text(link, "code_hash", at, limit=64, optional=True),
                "code_expires_at": maybe_timestamp(link, "code_expires_at", at),
                "created_at": timestamp(link, "created_at", at),
                "revoked_at": maybe_timestamp(link, "revoked_at", at),
                "created_by": row_id(link, "created_by", at, optional=True),
                "spent_hash": short_text(link, "spent_hash", at, limit=64, optional=True),
            }
        )
    links.sort(key=lambda link: link["id"])  # an access is made after the one it was made through
    ids = {link["id"] for link in links}
    for link in links:
        if link["created_by"] is not None and link["created_by"] not in ids:
            raise invalid(N_("%(field)s is missing or has the wrong type."), f"{where}.accesses", field="created_by")
    return owner, links


def _holds(spec: _Table) -> list[dict[str, Any]]:
    """What phones hold at the table, as rows to insert (none in a backup made before phones
    kept their ways in on the server)."""
    raw, where = spec.raw, spec.where
    rows = []
    for i, hold in enumerate(field(raw, "phones", list, where, optional=True) or []):
        at = f"{where}.phones[{i}]"
        if not isinstance(hold, Mapping):
            raise invalid(N_("Each phone's way in must be a JSON object."), at)
        rows.append(
            {
                "id": row_id(hold, "id", at),
                "phone_hash": short_text(hold, "phone_hash", at, limit=64),
                "token_hash": short_text(hold, "token_hash", at, limit=64),
                "owned": field(hold, "owned", bool, at),
                "created_at": timestamp(hold, "created_at", at),
            }
        )
    return rows


def _championships(
    document: Mapping[str, Any],
    tables: Sequence[_Table],
    secrets: Mapping[str, tuple[str, list[dict[str, Any]]]],
    people: Sequence[Mapping[str, Any]],
) -> list[championship_backup.Rows]:
    """The backup's championships, read against the tables, scoring links and members it holds
    (:func:`referee.championship.backup.read`)."""
    return championship_backup.read(
        document,
        seats={t.id: len(t.raw["players"]) for t in tables},
        accesses={t.id: {link["id"] for link in secrets[t.id][1]} for t in tables},
        members={m["id"] for m in people},
    )


def _deals(spec: _Table) -> int | None:
    """The table's set number of deals (a championship round's), or None (a backup made before
    tables had one, or a table without)."""
    deals: int | None = whole(spec.raw, "deals", spec.where, 1, 2**31 - 1, optional=True)
    return deals
