"""Skill ratings: openskill's Plackett-Luce model fed by the stored hands, per game.

What counts
    What a hand waits for does not count yet, here as in the league and the player pages
    (:func:`referee.models.counted`): a hand counts once it is live (not voided) and, if it was
    recorded under two-key entry, confirmed (its latest confirmation or dispute is a
    confirmation). A hand waiting for its confirmation, or disputed, moves no rating; from its
    confirmation on it counts in its place, as if it had never waited.

What one rated "game" is
    * Games settled in chips or units (Jubileu, Quatrilho): every counted hand, in the order the
      hands were played (:func:`played_order`: the time each was recorded, then its table and
      number; not ``hand.id``, which a restore gives out table by table). Each player who took part (a ``hand_delta`` row) is a team
      of one, ranked by what he won in that hand: the higher delta ranks higher, equal deltas
      tie. *Partial play*: the player sitting a hand out (the dealer at a five-player Quatrilho
      table) has no delta row, so he is simply not in that hand and his rating does not move.
    * Games scored to a target (Samba): every finished match is one game, its teams are
      openskill teams ranked by their final totals, fed in the order the matches ended (their
      last counted hand's time, then the table).

Partnerships are not made teams. Jubileu's partner and Quatrilho's called partner form for
one hand only, often unknown until the called card shows, and their deltas already say it: the
partners win or lose the same amount, so they tie with each other and rank together against
the others. Teams of one keep every hand the same shape (the partnership would have to be read
from each record, a JSON decode per hand on the hot path) and credit each partner for the
result as an individual, which is what a chip game measures. Samba's teams are fixed for the
whole match, so there they are real teams.

A quirk of openskill's Plackett-Luce to know when reading the figures: after a tie at the top,
the next rank moves like the tied players (deltas 6, 6, 2, -14 leave the first three with
equal means). With four players or fewer a better result never ends lower; with five or more
ranked teams the library can even invert two ranks, which no hand here has.

A hand that ranks nobody above anybody (everybody passed, every delta equal, or fewer than two
rated players) is not fed: openskill would read it as a draw, pull the players' means together
and shrink their uncertainty on no evidence. Hands stored before a delta row was kept for every
player (older data has rows only for non-zero deltas) lose their zero-delta players the same
way a sit-out does; recomputing cannot recover them. Seats with no member are left out.

Display: the table shows ``mu ± 2·sigma`` (about 95% of belief) and sorts by openskill's
ordinal, ``mu - 3·sigma`` (a conservative estimate: a player must prove himself to rise).
A rating is *provisional* until it was fed :data:`PROVISIONAL_HANDS` hands (chip games) or
:data:`PROVISIONAL_MATCHES` matches (scored games). Tie-break of the table: the higher
ordinal, then the higher mu, then more games, then the name, then the member id.

Keeping them current
    :func:`refresh` applies what was stored since the last run (``rating_run``: the last hand
    id and the last event id read). If an event newer than the run (a void, a confirmation, a
    dispute) changed whether a hand already read counts, in a chip game, or changed a Samba
    match already rated (or finished one whose last hand was already read), it recomputes
    from scratch instead: a hand confirmed after a run passed it is rated in its place, not
    appended. So does a hand stored since the run but played before a hand it read (an imported
    table, or two hands stored in the other order than recorded); the ratings then equal :func:`recompute`
    exactly (the tests hold incremental == recompute). A run reads hands up to a *horizon*:
    on PostgreSQL, ids are handed out before their transactions commit, so a hand numbered
    below one already visible may still appear; a short ``LOCK TABLE ... IN SHARE MODE`` waits
    for the writers in flight and reads the highest ids, below which nothing more can appear.
    (SQLite has one writer at a time, so its highest committed id is already a horizon.)
    Every query of a run sees the hands up to the horizon and the voids, confirmations
    and disputes up to the event horizon only, so a run is a function of those two numbers.

    Two phones opening the standings at once: each run reads ``rating_run`` first and writes it
    back with ``version + 1`` under ``WHERE version = v``; the loser of the race rolls back and
    keeps the winner's ratings, so no hand is ever applied twice. Merging members
    (``members.merge``) deletes every rating and run; the next refresh recomputes.

Who does the work, and where
    A rebuild reads every hand of the game: about 20 s at a million hands. It never runs in a
    web worker, whose threads answer the phones: a page (:func:`catch_up`) does the work itself
    only when it reads at most :data:`INLINE_REBUILD` hands (a small league, or the few hands
    stored since the last run, well under a second), because handing that to another process
    would leave the page a minute behind for work of milliseconds; otherwise it shows the
    ratings it has and says they are being brought up to date. The big work is done by
    ``flask --app referee ratings catch-up``, a process of its own, which a systemd timer or
    cron runs every minute on a server. For ``make run`` on one machine with no timer, a page that finds big work
    pending starts that command itself, as a separate process (not a thread), unless the
    config key ``RATINGS_SPAWN_CATCH_UP`` is false: on by default, because a club that just
    runs ``make run`` expects the standings to come right by themselves; a server with the
    timer may turn it off, or leave it (the claim below keeps the two from doubling up).

    Once, not once per worker or per server: whoever brings a game up to date first takes its
    claim, a row of ``rating_claim`` set by one ``UPDATE ... WHERE`` the claim is free or
    expired, which the database grants to one writer at a time, so it holds across processes
    and machines. Another process finding it held leaves the game alone (the page shows the
    ratings it has). The claim lasts :data:`LEASE` seconds and a long run renews it, so a run
    that crashed frees it within a minute and the next run takes over; should a run outlive an
    expired claim anyway, the version guard above still keeps a hand from counting twice. A page
    starts at most one catch-up process per game across every worker (``asked_until``, set the
    same way), and none while the claim is held.

The loop keeps a dict of member -> openskill rating in memory, reads the hands with one streamed
query in play order, and writes the rows back with bulk statements at the end.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import secrets
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from operator import itemgetter
from typing import Any, NamedTuple

import click
import sqlalchemy as sa
from flask import current_app
from flask.cli import AppGroup
from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import Select, and_, delete, exists, func, insert, or_, select, text, update
from sqlalchemy.dialects import postgresql as sa_pg
from sqlalchemy.dialects import sqlite as sa_sqlite
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError

from referee import clubs, ledger, members
from referee.club_scope import CLUB, HOME_CLUB, current_club_id, serving
from referee.db import db
from referee.models import Hand, HandDelta, HandEvent, Member, Rating, RatingRun, Seat, Table, utcnow
from referee.rules import GAMES, get_game

#: A chip game's rating is provisional until fed this many hands.
PROVISIONAL_HANDS = 20
#: A scored game's (Samba's) rating is provisional until fed this many matches.
PROVISIONAL_MATCHES = 5
#: How many standard deviations the shown "±" spans (about 95%).
SHOWN_SIGMAS = 2
#: How long a refresh waits for PostgreSQL's writers in flight before trying again next time.
HORIZON_WAIT = "2s"
#: Rows per DELETE ... IN (...) and per streamed batch.
CHUNK = 500
STREAM = 10_000

#: openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): the model every game uses.
MODEL = PlackettLuce()


def provisional_after(game: str) -> int:
    """Games (hands, or matches for a scored game) a rating needs to stop being provisional."""
    return PROVISIONAL_MATCHES if get_game(game).kind.rates_matches else PROVISIONAL_HANDS


@dataclass(frozen=True)
class RatingRow:
    """One member's rating in one game, as the pages and the API show it."""

    member_id: int
    name: str
    game: str
    mu: float
    sigma: float
    games: int
    provisional: bool

    @property
    def ordinal(self) -> float:
        """openskill's ordinal, mu - 3 sigma: what the table sorts by."""
        return self.mu - 3 * self.sigma

    @property
    def margin(self) -> float:
        """The "±" shown after mu."""
        return SHOWN_SIGMAS * self.sigma

    def as_json(self) -> dict[str, Any]:
        return {
            "member_id": self.member_id,
            "name": self.name,
            "game": self.game,
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "margin": round(self.margin, 3),
            "ordinal": round(self.ordinal, 3),
            "games": self.games,
            "provisional": self.provisional,
        }


# --------------------------------------------------------------------------- the pure core


@dataclass
class Board:
    """Ratings held in memory while hands are fed: member -> openskill rating, games fed, and
    which members changed (the rows to write)."""

    ratings: dict[int, PlackettLuceRating] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)
    touched: set[int] = field(default_factory=set)

    def feed(self, teams: Sequence[Sequence[int]], scores: Sequence[float]) -> bool:
        """One game: ``teams`` of member ids, each with its score (higher is better; equal
        scores tie). Answers whether it was rated (see the module docstring for what is not).

        The teams are put in a canonical order (best first, then by member id) before openskill
        sees them, so the result does not depend on where anybody sat."""
        if len(teams) < 2 or len(set(scores)) < 2:
            return False
        order = sorted((-score, sorted(team)) for team, score in zip(teams, scores))
        ratings = self.ratings
        rated = MODEL.rate(
            [[ratings.get(m) or MODEL.rating() for m in team] for _rank, team in order],
            ranks=[rank for rank, _team in order],
        )
        games = self.games
        for (_rank, team), new in zip(order, rated):
            for member, rating in zip(team, new):
                ratings[member] = rating
                games[member] = games.get(member, 0) + 1
                self.touched.add(member)
        return True

    def feed_hand(self, deltas: Iterable[tuple[int | None, int]]) -> bool:
        """One hand of a chip game: (member, delta) per player who took part. A member at two
        seats (two members merged after playing together) counts once, with both deltas."""
        per: dict[int, int] = {}
        for member, amount in deltas:
            if member is not None:
                per[member] = per.get(member, 0) + amount
        return self.feed([[m] for m in per], list(per.values()))

    def feed_match(self, teams: Sequence[Sequence[int | None]], totals: Sequence[int]) -> bool:
        """One finished match: each team's members and its final total. A member found in two
        teams (a merge) is left out of the match; a team left with nobody is dropped."""
        seen: dict[int, int] = {}
        for team in teams:
            for member in set(team):
                if member is not None:
                    seen[member] = seen.get(member, 0) + 1
        kept = [
            (sorted({m for m in team if m is not None and seen[m] == 1}), total) for team, total in zip(teams, totals)
        ]
        kept = [(team, total) for team, total in kept if team]
        return self.feed([team for team, _ in kept], [total for _, total in kept])


# --------------------------------------------------------------------------- reading the hands


class Run(NamedTuple):
    """A game's ``rating_run`` row as read: how far the stored ratings have read, and its version."""

    hand_id: int
    event_id: int
    version: int


@dataclass(frozen=True)
class Horizon:
    """The highest hand id and event id a run reads: nothing at or below them can still appear."""

    hand_id: int
    event_id: int


def _counted(events: int) -> Any:
    """The hand counts at the event horizon ``events``: what a hand waits for does not count
    yet (:func:`referee.models.counted`), read as of that horizon so a run stays a function of
    its two numbers. It has no void event up to there, and if it was recorded under two-key
    entry, its latest confirmation or dispute up to there is a confirmation. Never NULL, so
    :func:`_changed_tables` can compare two horizons."""
    upto = HandEvent.id <= events
    # Correlated to the hand only: a caller's own join of HandEvent (_changed_tables) is another.
    void = exists().where(HandEvent.hand_id == Hand.id, HandEvent.kind == "void", upto).correlate_except(HandEvent)
    latest = (
        select(HandEvent.kind)
        .where(HandEvent.hand_id == Hand.id, HandEvent.kind.in_(("confirm", "dispute")), upto)
        .order_by(HandEvent.id.desc())
        .limit(1)
        .correlate_except(HandEvent)
        .scalar_subquery()
    )
    two_key = func.coalesce(Hand.result["two_key"].as_boolean(), False)
    return and_(~void, or_(~two_key.is_(True), func.coalesce(latest, "") == "confirm"))


def _visible() -> Horizon:
    ids = db.session.execute(
        select(select(func.max(Hand.id)).scalar_subquery(), select(func.max(HandEvent.id)).scalar_subquery())
    ).one()
    return Horizon(int(ids[0] or 0), int(ids[1] or 0))


def _horizon(*, wait: bool) -> Horizon:
    """The ids below which every hand and event is committed (module docstring). On
    PostgreSQL a separate short transaction takes a SHARE lock on the two tables: it waits for
    the writers in flight and holds new ones back for a moment. Unless ``wait``, it gives up
    after :data:`HORIZON_WAIT` with an :class:`OperationalError`."""
    if db.engine.dialect.name != "postgresql":
        return _visible()
    with db.engine.connect() as connection, connection.begin():
        if not wait:
            connection.execute(text(f"SET LOCAL lock_timeout = '{HORIZON_WAIT}'"))
        connection.execute(text("LOCK TABLE hand, hand_event IN SHARE MODE"))
        ids = connection.execute(select(func.max(Hand.id), select(func.max(HandEvent.id)).scalar_subquery())).one()
    return Horizon(int(ids[0] or 0), int(ids[1] or 0))


def played_order(hand: Any) -> tuple[Any, Any, Any]:
    """The order the hands were played in: when each was recorded, then its table's id and its
    number (a total order: a table has one hand of each number). All three are what an export
    and a backup keep of a hand, so a restore or an import rates the hands in the same order as
    the live server did, to the last digit; the hand's id is not (a restore stores each table's
    hands together)."""
    return hand.created_at, hand.table_id, hand.number


def _hand_rows(game: str, after: int, horizon: Horizon) -> Iterator[tuple[int, int | None, int]]:
    """(hand id, member, delta) for every player of every counted hand of ``game`` with
    ``after < id <= horizon``, in the order they were played: one streamed query."""
    query = (
        select(Hand.id, Seat.member_id, HandDelta.amount)
        .join(Table, Table.id == Hand.table_id)
        .join(HandDelta, HandDelta.hand_id == Hand.id)
        .join(Seat, (Seat.table_id == Hand.table_id) & (Seat.position == HandDelta.seat))
        .where(Table.game == game, Hand.id > after, Hand.id <= horizon.hand_id, _counted(horizon.event_id))
        .order_by(*played_order(Hand))
        .execution_options(yield_per=STREAM)
    )
    yield from db.session.connection().execute(query)  # Core rows: no ORM result processing


def _feed_hands(board: Board, game: str, after: int, horizon: Horizon) -> int:
    fed = 0
    for _hand, rows in itertools.groupby(_hand_rows(game, after, horizon), key=itemgetter(0)):
        fed += board.feed_hand((member, amount) for _h, member, amount in rows)
    return fed


@dataclass(frozen=True)
class Match:
    """A finished match: its last counted hand's id (what a run has read), when it ended (its
    last counted hand's time, then its table: the order matches are rated in), its teams and
    their totals."""

    last_hand: int
    ended: tuple[Any, str]
    teams: tuple[tuple[int | None, ...], ...]
    totals: tuple[int, ...]


def _matches(game: str, tables: Select | Sequence[str], horizon: Horizon) -> list[Match]:
    """The finished matches among ``tables`` counting the hands and voids up to ``horizon``,
    in the order they ended (:func:`played_order`): one grouped query for the totals, one for the seats, one for
    the options, whatever the number of tables."""
    rules = get_game(game)
    seats: dict[str, list[tuple[str, int | None, int | None]]] = {}
    for table_id, name, team, member in db.session.execute(
        select(Seat.table_id, Seat.name, Seat.team, Seat.member_id)
        .where(Seat.table_id.in_(tables))
        .order_by(Seat.table_id, Seat.position)
    ):
        seats.setdefault(table_id, []).append((name, team, member))
    options: dict[str, Any] = dict(
        db.session.execute(select(Table.id, Table.options).where(Table.id.in_(tables))).all()
    )
    totals: dict[str, dict[str, int]] = {}
    last: dict[str, int] = {}
    ended: dict[str, Any] = {}
    for table_id, name, amount, top, at in db.session.execute(
        select(Hand.table_id, Seat.name, func.sum(HandDelta.amount), func.max(Hand.id), func.max(Hand.created_at))
        .join(HandDelta, HandDelta.hand_id == Hand.id)
        .join(Seat, (Seat.table_id == Hand.table_id) & (Seat.position == HandDelta.seat))
        .where(Hand.table_id.in_(tables), Hand.id <= horizon.hand_id, _counted(horizon.event_id))
        .group_by(Hand.table_id, Seat.name)
    ):
        totals.setdefault(table_id, {})[name] = int(amount)
        last[table_id] = max(last.get(table_id, 0), int(top))
        ended[table_id] = max(ended.get(table_id, at), at)
    found = []
    for table_id, balances in totals.items():
        placed = seats[table_id]
        # The ledger's own grouping of seats into teams, so ratings and the scoreboard agree.
        teams = ledger.group_teams([(name, team) for name, team, _member in placed])
        match = rules.standing(teams, balances, rules.parse_options(options[table_id]))
        if not match or not match["finished"]:
            continue
        member_of = {name: member for name, _team, member in placed}
        found.append(
            Match(
                last_hand=last[table_id],
                ended=(ended[table_id], table_id),
                teams=tuple(tuple(member_of[name] for name in team) for team in teams),
                totals=tuple(int(team["total"]) for team in match["teams"]),
            )
        )
    return sorted(found, key=lambda m: m.ended)


def _played_tables(game: str, after: int, horizon: Horizon) -> Select:
    """The tables of ``game`` with a counted hand stored after ``after`` (up to the horizon)."""
    return (
        select(Hand.table_id)
        .join(Table, Table.id == Hand.table_id)
        .where(Table.game == game, Hand.id > after, Hand.id <= horizon.hand_id, _counted(horizon.event_id))
        .distinct()
    )


def _feed(board: Board, game: str, after: int, horizon: Horizon) -> int:
    """Feed everything of ``game`` stored after hand ``after``; answers how many games fed."""
    if not get_game(game).kind.rates_matches:
        return _feed_hands(board, game, after, horizon)
    matches = _matches(game, _played_tables(game, after, horizon), horizon)
    return sum(board.feed_match(m.teams, m.totals) for m in matches if m.last_hand > after)


def _changed_tables(game: str, run: Run, horizon: Horizon) -> list[str]:
    """The tables of ``game`` where an event newer than ``run`` (a void, a confirmation, a
    dispute) changed whether a hand the run had read counts: what the run applied is no
    longer what counts. An event that changes nothing (a dispute of a hand still waiting, a
    void of one never counted) leaves the run as it was."""
    query = (
        select(Hand.table_id)
        .join(HandEvent, HandEvent.hand_id == Hand.id)
        .join(Table, Table.id == Hand.table_id)
        .where(
            Table.game == game,
            HandEvent.id > run.event_id,
            HandEvent.id <= horizon.event_id,
            Hand.id <= run.hand_id,
            _counted(run.event_id) != _counted(horizon.event_id),
        )
        .distinct()
    )
    return list(db.session.scalars(query))


def _played_before_the_run(game: str, run: Run, horizon: Horizon) -> bool:
    """A hand of ``game`` stored after ``run`` was recorded no later than a hand the run already
    read (:func:`played_order`): an import of an old table, or two phones whose hands were
    stored in the other order than recorded. Appending it would rate it out of its place. A
    hand recorded at the very moment of the last one read counts as before it (rebuilt rather
    than guessed). Two cheap reads: the new hands' times (a few in play, found by their ids),
    and the newest time read, by the hands' index on their time from its end."""
    new = db.session.scalars(
        select(Hand.created_at)
        .join(Table, Table.id == Hand.table_id)
        .where(Table.game == game, Hand.id > run.hand_id, Hand.id <= horizon.hand_id)
    )
    first = min(new, default=None)
    if first is None:
        return False
    # "id + 0" keeps the planner off the ids' index (nearly every hand is below the run), and the
    # game is asked of each hand's table rather than joined: SQLite then walks the time index
    # from its end and stops at the first hand of the game (0.1 ms at 100,000 hands, against a
    # sort of every hand of the game otherwise).
    last_read = db.session.scalar(
        select(Hand.created_at)
        .where((Hand.id + 0) <= run.hand_id, exists().where(Table.id == Hand.table_id, Table.game == game))
        .order_by(Hand.created_at.desc())
        .limit(1)
    )
    return last_read is not None and first <= last_read


def _needs_recompute(game: str, run: Run, horizon: Horizon) -> bool:
    """Something since ``run`` changed what was applied, or would be applied out of its place
    (module docstring). A hand stored since but played before one already read. For a chip
    game, a void, confirmation or dispute that changed whether a hand already read counts. For
    a scored game, such a change in a match the run had rated, or one that finished a match
    whose last hand the run had already read (an incremental run would rate it out of order)."""
    if _played_before_the_run(game, run, horizon):
        return True
    tables = _changed_tables(game, run, horizon)
    if not tables or not get_game(game).kind.rates_matches:
        return bool(tables)
    before = Horizon(run.hand_id, run.event_id)
    if _matches(game, tables, before):
        return True
    return any(m.last_hand <= run.hand_id for m in _matches(game, tables, horizon))


# --------------------------------------------------------------------------- storing


def _load(game: str) -> Board:
    board = Board()
    for member, mu, sigma, games in db.session.execute(
        select(Rating.member_id, Rating.mu, Rating.sigma, Rating.games).where(Rating.game == game)
    ):
        board.ratings[member] = MODEL.rating(mu=mu, sigma=sigma)
        board.games[member] = games
    return board


def _advance(game: str, run: Run | None, horizon: Horizon) -> bool:
    """Move the game's run to ``horizon`` if nobody else moved it since we read it: the guard
    that makes two simultaneous refreshes apply a hand once. False (rolled back) if we lost."""
    connection = db.session.connection()  # Core: the UPDATE's rowcount is the guard
    try:
        if run is None:
            connection.execute(
                insert(RatingRun.__table__).values(
                    game=game, hand_id=horizon.hand_id, event_id=horizon.event_id, version=1
                )
            )
            return True
        done = connection.execute(
            update(RatingRun.__table__)
            .where(RatingRun.game == game, RatingRun.version == run.version)
            .values(hand_id=horizon.hand_id, event_id=horizon.event_id, version=run.version + 1)
        )
    except (IntegrityError, OperationalError):
        db.session.rollback()
        return False
    if done.rowcount != 1:
        db.session.rollback()
        return False
    return True


def _chunks(values: Sequence[int]) -> Iterator[Sequence[int]]:
    for start in range(0, len(values), CHUNK):
        yield values[start : start + CHUNK]


def _write(game: str, board: Board, *, everything: bool) -> None:
    """Replace the game's rating rows: every row (``everything``), or the touched members'."""
    if everything:
        db.session.execute(delete(Rating.__table__).where(Rating.game == game))
        written = sorted(board.ratings)
    else:
        written = sorted(board.touched)
        for part in _chunks(written):
            db.session.execute(delete(Rating.__table__).where(Rating.game == game, Rating.member_id.in_(part)))
    rows = [
        {
            "member_id": m,
            "game": game,
            "mu": board.ratings[m].mu,
            "sigma": board.ratings[m].sigma,
            "games": board.games[m],
        }
        for m in written
    ]
    if rows:
        db.session.execute(insert(Rating.__table__), rows)


@dataclass(frozen=True)
class Outcome:
    """What a run did: whether it rebuilt from scratch, how many games it fed, and whether it
    stored them (False when nothing was new, or another run got there first). ``busy``: it did
    nothing because another process holds the game's claim (:func:`bring_up_to_date`)."""

    rebuilt: bool
    fed: int
    stored: bool
    busy: bool = False


def _rated(game: str) -> str:
    """The game's slug, checked (:class:`UnknownGame` or :class:`RulesError` otherwise)."""
    return get_game(game).slug


def _run(game: str) -> Run | None:
    """The game's run as it is now (read before anything else: see :func:`_advance`)."""
    row = db.session.execute(
        select(RatingRun.hand_id, RatingRun.event_id, RatingRun.version).where(RatingRun.game == game)
    ).first()
    return Run(int(row[0]), int(row[1]), int(row[2])) if row else None


def _rebuild(game: str, run: Run | None, horizon: Horizon) -> Outcome:
    board = Board()
    fed = _feed(board, game, 0, horizon)
    if not _advance(game, run, horizon):
        return Outcome(rebuilt=True, fed=fed, stored=False)
    _write(game, board, everything=True)
    db.session.commit()
    return Outcome(rebuilt=True, fed=fed, stored=True)


def recompute(game: str) -> Outcome:
    """Every rating of ``game`` from scratch, from the stored hands. Commits."""
    game = _rated(game)
    run = _run(game)
    return _rebuild(game, run, _horizon(wait=True))


def pending(game: str) -> str:
    """What a :func:`refresh` of ``game`` would do now, without locking or writing: "none"
    (up to date), "incremental" (new hands to apply) or "rebuild" (from scratch)."""
    return _plan(_rated(game))[0]


def _plan(game: str) -> tuple[str, int]:
    """:func:`pending`, and how many hands that work reads at most: a page does it only when
    that is small (:data:`INLINE_REBUILD`). The count comes from the hand ids, which every game
    shares, so it is an upper bound read without counting any rows."""
    run = _run(game)
    seen = _visible()
    if run is None:
        return "rebuild", seen.hand_id
    if seen.hand_id <= run.hand_id and seen.event_id <= run.event_id:
        return "none", 0
    if _needs_recompute(game, run, seen):
        return "rebuild", seen.hand_id
    return "incremental", seen.hand_id - run.hand_id


def refresh(game: str) -> Outcome:
    """Bring ``game``'s ratings up to date: apply what was stored since the last run, or
    recompute when a void or a confirmation changed what was applied (module docstring).
    Commits the session: call it where a commit is harmless (a page that reads), not in the
    middle of a write. Pages call :func:`catch_up` instead, which runs this only when the work
    is small, under the game's claim."""
    game = _rated(game)
    run = _run(game)
    if run is not None:
        seen = _visible()
        if seen.hand_id <= run.hand_id and seen.event_id <= run.event_id:
            return Outcome(rebuilt=False, fed=0, stored=False)  # nothing new: no lock, no write
    try:
        horizon = _horizon(wait=False)
    except OperationalError:  # a writer held the hands too long: next time
        return Outcome(rebuilt=False, fed=0, stored=False)
    if run is None or _needs_recompute(game, run, horizon):
        return _rebuild(game, run, horizon)
    board = _load(game)
    fed = _feed(board, game, run.hand_id, horizon)
    if not _advance(game, run, horizon):
        return Outcome(rebuilt=False, fed=fed, stored=False)
    _write(game, board, everything=False)
    db.session.commit()
    return Outcome(rebuilt=False, fed=fed, stored=True)


# --------------------------------------------------------------------------- who does the work

#: Up to this many hands a page brings the ratings up to date itself, while it loads (well
#: under a second). Beyond, the work is left to ``flask --app referee ratings catch-up``, a
#: process of its own, and the page shows the ratings it has.
INLINE_REBUILD = 20_000
#: Seconds a claim lasts unless renewed: a crashed run's claim is free again after this. A
#: long run renews it every third of it (:func:`_renewing`).
LEASE = 60
#: Seconds after a page started a catch-up process before any page may start another for the
#: same game (its start-up, or a failed start, is not met by a crowd of new processes).
ASK = 30
#: The config key that lets a page start the catch-up process itself (module docstring).
SPAWN_SETTING = "RATINGS_SPAWN_CATCH_UP"

#: One row per club and game: who brings its ratings up to date now (``holder``, host:pid:nonce, kept
#: after the claim ends to say who ran last) and until when (``held_until``; NULL once done),
#: how many runs took the claim (``taken``), and until when a started catch-up process is
#: awaited (``asked_until``). Bookkeeping of this module only, so declared here, next to the
#: statements that use it (migration 0005).
CLAIM = sa.Table(
    "rating_claim",
    db.metadata,
    sa.Column("club_id", sa.Integer, primary_key=True, default=current_club_id, server_default=str(HOME_CLUB)),
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("holder", sa.String(120), nullable=False),
    sa.Column("held_until", sa.DateTime(timezone=True), nullable=True),
    sa.Column("asked_until", sa.DateTime(timezone=True), nullable=True),
    sa.Column("taken", sa.Integer, nullable=False),
)

_children: list[subprocess.Popen[bytes]] = []
_children_lock = threading.Lock()


def catch_up(game: str) -> bool:
    """Bring ``game``'s ratings up to date for a page about to show them, if that is quick;
    answers whether they are behind and being brought up to date elsewhere (the page says so
    and shows the ratings it has).

    A rebuild of a big league (or a long backlog of new hands) never runs in the web process,
    not even in a thread of it: it is left to the catch-up command, which a timer runs, or
    which this page starts as a process of its own (:data:`SPAWN_SETTING`). Small work runs
    here, under the same claim, so two workers never do it twice either."""
    _reap()
    game = _rated(game)
    kind, reads = _plan(game)
    if kind == "none":
        return False
    if reads > INLINE_REBUILD:
        _start_catch_up(game)
        return True
    return bring_up_to_date(game).busy


def bring_up_to_date(game: str, *, renew: bool = False) -> Outcome:
    """:func:`refresh` ``game`` under its claim: one process at a time, across every worker
    and server on the database. Another holder's live claim means it is already being done:
    nothing is done here (``busy``). ``renew`` keeps the claim alive during a long run."""
    return _claimed(_rated(game), refresh, renew=renew)


def _claimed(game: str, work: Callable[[str], Outcome], *, renew: bool) -> Outcome:
    holder = _take(game)
    if holder is None:
        return Outcome(rebuilt=False, fed=0, stored=False, busy=True)
    try:
        with _renewing(game, holder) if renew else contextlib.nullcontext():
            outcome = work(game)
    except BaseException:
        db.session.rollback()  # a failed statement leaves the transaction unusable
        _release(game, holder)
        raise
    _release(game, holder)
    return outcome


def _clock(dialect: str) -> Any:
    """Now, by the database's clock on PostgreSQL (app servers' clocks may disagree; the
    database's is the one they share; the statement's time, not the transaction's, which may
    have begun a while ago), by this machine's on SQLite (one machine by nature)."""
    return func.statement_timestamp(type_=sa.DateTime(timezone=True)) if dialect == "postgresql" else utcnow()


def _free(column: sa.Column[Any], now: Any) -> Any:
    return or_(column.is_(None), column < now)


def _lease(game: str, free: Sequence[Any], values: Mapping[str, Any]) -> bool:
    """Set ``values`` on the game's claim row if it is ``free``: one UPDATE ... WHERE, which
    the database runs for one writer at a time (PostgreSQL's row lock re-reads the WHERE for
    the second; SQLite has one writer at all), so of two processes asking at once exactly one
    gets it. The row is made first if missing. Commits; False when someone else holds it."""
    dialect = db.engine.dialect.name
    make = sa_pg.insert if dialect == "postgresql" else sa_sqlite.insert
    connection = db.session.connection()  # Core: the UPDATE's rowcount is the answer
    try:
        connection.execute(make(CLAIM).values(game=game, holder="", taken=0).on_conflict_do_nothing())
        done = connection.execute(update(CLAIM).where(CLAIM.c.game == game, *free).values(**values))
    except OperationalError:  # SQLite busy past its timeout: as good as held
        db.session.rollback()
        return False
    db.session.commit()  # not a rollback: the caller's objects stay loaded
    return done.rowcount == 1


def _take(game: str) -> str | None:
    """Claim ``game`` for this run, if free or expired (a crashed holder's): answers the
    holder name written, None if another holds it. Taking it also answers a page's request
    for a catch-up process (``asked_until``)."""
    holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"[-120:]
    now = _clock(db.engine.dialect.name)
    values = {
        "holder": holder,
        "held_until": now + timedelta(seconds=LEASE),
        "asked_until": None,
        "taken": CLAIM.c.taken + 1,
    }
    return holder if _lease(game, [_free(CLAIM.c.held_until, now)], values) else None


def _release(game: str, holder: str) -> None:
    """End our claim (not one taken over since ours expired)."""
    db.session.execute(update(CLAIM).where(CLAIM.c.game == game, CLAIM.c.holder == holder).values(held_until=None))
    db.session.commit()


def _in_memory(engine: sa.Engine) -> bool:
    """An in-memory SQLite database: one process's only, one connection for all (StaticPool)."""
    return engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:")


@contextlib.contextmanager
def _renewing(game: str, holder: str) -> Iterator[None]:
    """Renew our claim every third of :data:`LEASE` while the block runs: a rebuild may take
    longer than the lease, and must not look crashed. A thread of the catch-up process (never
    of a web worker: pages do not renew) with a connection of its own, since the run's is busy
    streaming hands. A missed renewal is tried again at the next beat."""
    engine = db.engine
    if _in_memory(engine):  # one connection, shared: and no other process could take it
        yield
        return
    stop = threading.Event()
    club = current_club_id()  # the thread is outside the app: its connection names the club

    def beat() -> None:
        while not stop.wait(LEASE / 3):
            try:
                with engine.connect() as connection, connection.execution_options(**{CLUB: club}).begin():
                    connection.execute(
                        update(CLAIM)
                        .where(CLAIM.c.game == game, CLAIM.c.holder == holder)
                        .values(held_until=_clock(engine.dialect.name) + timedelta(seconds=LEASE))
                    )
            except SQLAlchemyError:  # the database busy or away for a moment
                continue

    thread = threading.Thread(target=beat, name=f"ratings-lease-{game}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def spawns(config: Mapping[str, Any]) -> bool:
    """Whether pages start the catch-up process themselves: :data:`SPAWN_SETTING`, on unless
    turned off. A bool, as referee.config leaves it: the words of the environment and config
    files are read there, by the one reader of every on/off setting."""
    return bool(config.get(SPAWN_SETTING, True))


def _start_catch_up(game: str) -> None:
    """Start ``flask --app referee ratings catch-up --game GAME`` as a process of its own, on
    this app's database and instance folder, if the settings allow and no page asked for one
    lately and nobody holds the claim (checked and marked in one UPDATE: one process across
    every worker and server). An in-memory database cannot be shared with another process:
    then nothing is started."""
    app = current_app
    if not spawns(app.config) or _in_memory(db.engine) or not sys.executable:
        return
    now = _clock(db.engine.dialect.name)
    free = [_free(CLAIM.c.asked_until, now), _free(CLAIM.c.held_until, now)]
    if not _lease(game, free, {"asked_until": now + timedelta(seconds=ASK)}):
        return
    factory = f"referee:create_app({{'INSTANCE_PATH': {app.instance_path!r}}})"
    club = clubs.slugs().get(current_club_id(), "")
    command = [sys.executable, "-m", "flask", "--app", factory, "ratings", "catch-up", "--game", game, "--club", club]
    # This app's database, whatever set it (a dict given to create_app included). In the
    # environment, not the arguments: those are readable by every user of the machine (ps).
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL_FILE"}
    environment["DATABASE_URL"] = str(app.config["SQLALCHEMY_DATABASE_URI"])
    try:
        child = subprocess.Popen(command, env=environment, stdin=subprocess.DEVNULL, start_new_session=True)
    except OSError as exc:  # tried again once ASK has passed
        app.logger.warning("could not start the ratings catch-up for %s: %s", game, exc)
        return
    with _children_lock:
        _children.append(child)


def _reap() -> None:
    """Collect the catch-up processes this one started that have ended (no zombies left)."""
    with _children_lock:
        _children[:] = [child for child in _children if child.poll() is None]


# --------------------------------------------------------------------------- reading


def _rows(game: str, query: Select) -> list[RatingRow]:
    after = provisional_after(game)
    return [
        RatingRow(member_id=m, name=name, game=game, mu=mu, sigma=sigma, games=games, provisional=games < after)
        for m, name, mu, sigma, games in db.session.execute(query)
    ]


def _query(game: str) -> Select:
    return (
        select(Rating.member_id, Member.name, Rating.mu, Rating.sigma, Rating.games)
        .join(Member, Member.id == Rating.member_id)
        .where(Rating.game == game)
    )


def table(game: str, *, fresh: bool = True) -> list[RatingRow]:
    """``game``'s ratings, best first (tie-break in the module docstring); refreshed first
    unless ``fresh`` is False."""
    game = _rated(game)
    if fresh:
        refresh(game)
    rows = _rows(game, _query(game))
    return sorted(rows, key=lambda r: (-r.ordinal, -r.mu, -r.games, r.name.casefold(), r.member_id))


def for_member(member_id: object, *, fresh: bool = True) -> dict[str, RatingRow]:
    """A member's rating in every game he was rated in (following merges to the member he
    became); empty for an unknown member."""
    member = members.get(member_id)
    if member is None:
        return {}
    found = {}
    for game in GAMES:
        if fresh:
            refresh(game)
        rows = _rows(game, _query(game).where(Rating.member_id == member.id))
        if rows:
            found[game] = rows[0]
    return found


def stored(game: str) -> Mapping[int, tuple[float, float, int]]:
    """member -> (mu, sigma, games) as stored, without refreshing (tests and audits compare)."""
    return {
        m: (mu, sigma, games)
        for m, mu, sigma, games in db.session.execute(
            select(Rating.member_id, Rating.mu, Rating.sigma, Rating.games).where(Rating.game == _rated(game))
        )
    }


# --------------------------------------------------------------------------- command line

cli = AppGroup("ratings", help="Skill ratings (openskill, Plackett-Luce) from the stored hands.")


_GAME_OPTION = click.option(
    "--game", type=click.Choice(sorted(GAMES)), default=None, help="One game (default: every game)."
)
_CLUB_OPTION = click.option("--club", default=None, help="One club, by its address's name (default: every club).")


def _for_each_club(chosen: str | None) -> Iterator[Callable[[str], str]]:
    """Serve each club the command acts for in turn; yields how a line is said for it (with the
    club's name first when the server holds several)."""
    found = clubs.slugs(chosen)
    if chosen is not None and not found:
        raise click.BadParameter(f"no club is called {chosen!r}.", param_hint="--club")
    several = chosen is None and len(found) > 1
    for club_id, slug in found.items():
        with serving(club_id):
            yield (lambda line, slug=slug: f"{slug}: {line}") if several else (lambda line: line)


@cli.command("catch-up")
@_GAME_OPTION
@_CLUB_OPTION
def catch_up_command(game: str | None, club: str | None) -> None:
    """Bring the ratings up to date: what pages leave to a process of their own (a rebuild
    after a correction in a big league). Run it every minute from a systemd timer or cron; a
    run that finds another at work leaves the game to it. Prints a line per game it did
    something for, nothing when every game was current."""
    for say in _for_each_club(club):
        for slug in [game] if game else sorted(GAMES):
            if pending(slug) != "none":
                click.echo(say(_said(slug, bring_up_to_date(slug, renew=True), catching_up=True)))


@cli.command("recompute")
@_GAME_OPTION
@_CLUB_OPTION
def recompute_command(game: str | None, club: str | None) -> None:
    """Recompute the ratings from scratch."""
    for say in _for_each_club(club):
        for slug in [game] if game else sorted(GAMES):
            click.echo(say(_said(slug, _claimed(slug, recompute, renew=True))))


def _said(game: str, outcome: Outcome, *, catching_up: bool = False) -> str:
    """A command's line about one game's run (a catch-up says which kind of run it was)."""
    kind = get_game(game).kind.rated_by
    if outcome.busy:
        return f"{game}: another process is bringing the ratings up to date; left to it."
    if not outcome.stored and catching_up:
        return (
            f"{game}: nothing stored (another run got there first, or hands were being written); next run tries again."
        )
    if not outcome.stored:
        return f"{game}: another run stored the ratings at the same moment; kept them."
    if not catching_up:
        return f"{game}: {outcome.fed} {kind} rated."
    if outcome.rebuilt:
        return f"{game}: rebuilt from scratch, {outcome.fed} {kind} rated."
    return f"{game}: {outcome.fed} new {kind} rated."
