"""Skill ratings: openskill's Plackett-Luce model fed by the stored hands, per game.

What one rated "game" is
    * Games settled in chips or units (Jubileu, Quatrilho): every live hand, in the order the
      hands were stored (``hand.id``). Each player who took part (a ``hand_delta`` row) is a team
      of one, ranked by what he won in that hand: the higher delta ranks higher, equal deltas
      tie. *Partial play*: the player sitting a hand out (the dealer at a five-player Quatrilho
      table) has no delta row, so he is simply not in that hand and his rating does not move.
    * Games scored to a target (Samba): every finished match is one game, its teams are
      openskill teams ranked by their final totals, fed in the order the matches' last live
      hands were stored (that hand's id).

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
    id and the last event id read). If a void event newer than the run voided a hand already
    applied, or changed a Samba match already rated (or finished one whose last hand was
    already read), it recomputes from scratch instead; the ratings then equal :func:`recompute`
    exactly (the tests hold incremental == recompute). A run reads hands up to a *horizon*:
    on PostgreSQL, ids are handed out before their transactions commit, so a hand numbered
    below one already visible may still appear; a short ``LOCK TABLE ... IN SHARE MODE`` waits
    for the writers in flight and reads the highest ids, below which nothing more can appear.
    (SQLite has one writer at a time, so its highest committed id is already a horizon.)
    Every query of a run sees the hands up to the horizon and the voids up to the event
    horizon only, so a run is a function of those two numbers.

    Two phones opening the standings at once: each run reads ``rating_run`` first and writes it
    back with ``version + 1`` under ``WHERE version = v``; the loser of the race rolls back and
    keeps the winner's ratings, so no hand is ever applied twice. Merging members
    (``members.merge``) deletes every rating and run; the next refresh recomputes.

The loop keeps a dict of member -> openskill rating in memory, reads the hands with one streamed
query ordered by hand id, and writes the rows back with bulk statements at the end.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, NamedTuple

import click
from flask import current_app
from flask.cli import AppGroup
from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import Select, delete, exists, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError, OperationalError

from referee import ledger, members
from referee.db import db
from referee.models import Hand, HandDelta, HandEvent, Member, Rating, RatingRun, Seat, Table
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
    return PROVISIONAL_MATCHES if get_game(game).scored else PROVISIONAL_HANDS


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


#: Up to this many stored hands a rebuild of the ratings runs while the page loads (well under
#: a second); beyond, it runs in the background and the page shows the ratings it has.
INLINE_REBUILD = 20_000
_rebuilding: set[str] = set()
_rebuilding_lock = threading.Lock()


def catch_up(game: str) -> bool:
    """Bring ``game``'s ratings up to date for a page about to show them; answers whether a
    rebuild is still running in the background (a correction in a big league: the page does
    not wait for it, and shows the ratings it has)."""
    if pending(game) == "rebuild" and size() > INLINE_REBUILD:
        _rebuild_in_background(game)
    elif game not in _rebuilding:
        refresh(game)
    return game in _rebuilding


def _rebuild_in_background(game: str) -> None:
    """Recompute ``game``'s ratings in a thread of this process, once at a time."""
    with _rebuilding_lock:
        if game in _rebuilding:
            return
        _rebuilding.add(game)
    app = current_app._get_current_object()  # type: ignore[attr-defined]

    def work() -> None:
        try:
            with app.app_context():
                recompute(game)
        finally:
            with _rebuilding_lock:
                _rebuilding.discard(game)

    threading.Thread(target=work, name=f"ratings-{game}", daemon=True).start()


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


def _live(events: int) -> Any:
    """The hand has no void event at or below the event horizon."""
    return ~exists().where(HandEvent.hand_id == Hand.id, HandEvent.kind == "void", HandEvent.id <= events)


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


def _hand_rows(game: str, after: int, horizon: Horizon) -> Iterator[tuple[int, int | None, int]]:
    """(hand id, member, delta) for every player of every live hand of ``game`` with
    ``after < id <= horizon``, by hand id: one streamed query."""
    query = (
        select(Hand.id, Seat.member_id, HandDelta.amount)
        .join(Table, Table.id == Hand.table_id)
        .join(HandDelta, HandDelta.hand_id == Hand.id)
        .join(Seat, (Seat.table_id == Hand.table_id) & (Seat.position == HandDelta.seat))
        .where(Table.game == game, Hand.id > after, Hand.id <= horizon.hand_id, _live(horizon.event_id))
        .order_by(Hand.id)
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
    """A finished match: when it ended (its last live hand's id), its teams and their totals."""

    last_hand: int
    teams: tuple[tuple[int | None, ...], ...]
    totals: tuple[int, ...]


def _matches(game: str, tables: Select | Sequence[str], horizon: Horizon) -> list[Match]:
    """The finished matches among ``tables`` counting the hands and voids up to ``horizon``,
    ordered by their last hand: one grouped query for the totals, one for the seats, one for
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
    for table_id, name, amount, top in db.session.execute(
        select(Hand.table_id, Seat.name, func.sum(HandDelta.amount), func.max(Hand.id))
        .join(HandDelta, HandDelta.hand_id == Hand.id)
        .join(Seat, (Seat.table_id == Hand.table_id) & (Seat.position == HandDelta.seat))
        .where(Hand.table_id.in_(tables), Hand.id <= horizon.hand_id, _live(horizon.event_id))
        .group_by(Hand.table_id, Seat.name)
    ):
        totals.setdefault(table_id, {})[name] = int(amount)
        last[table_id] = max(last.get(table_id, 0), int(top))
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
                teams=tuple(tuple(member_of[name] for name in team) for team in teams),
                totals=tuple(int(team["total"]) for team in match["teams"]),
            )
        )
    return sorted(found, key=lambda m: m.last_hand)


def _played_tables(game: str, after: int, horizon: Horizon) -> Select:
    """The tables of ``game`` with a live hand stored after ``after`` (up to the horizon)."""
    return (
        select(Hand.table_id)
        .join(Table, Table.id == Hand.table_id)
        .where(Table.game == game, Hand.id > after, Hand.id <= horizon.hand_id, _live(horizon.event_id))
        .distinct()
    )


def _feed(board: Board, game: str, after: int, horizon: Horizon) -> int:
    """Feed everything of ``game`` stored after hand ``after``; answers how many games fed."""
    if not get_game(game).scored:
        return _feed_hands(board, game, after, horizon)
    matches = _matches(game, _played_tables(game, after, horizon), horizon)
    return sum(board.feed_match(m.teams, m.totals) for m in matches if m.last_hand > after)


def _voided_tables(game: str, run: Run, horizon: Horizon) -> list[str]:
    """The tables of ``game`` where a void newer than ``run`` hit a hand the run had read."""
    query = (
        select(Hand.table_id)
        .join(HandEvent, HandEvent.hand_id == Hand.id)
        .join(Table, Table.id == Hand.table_id)
        .where(
            Table.game == game,
            HandEvent.kind == "void",
            HandEvent.id > run.event_id,
            HandEvent.id <= horizon.event_id,
            Hand.id <= run.hand_id,
        )
        .distinct()
    )
    return list(db.session.scalars(query))


def _needs_recompute(game: str, run: Run, horizon: Horizon) -> bool:
    """A void since ``run`` changed what was applied (module docstring). For a chip game, any
    void of a hand already read. For a scored game, a void in a match the run had rated, or
    one that finished a match whose last hand the run had already read (an incremental run
    would rate it out of order)."""
    tables = _voided_tables(game, run, horizon)
    if not tables or not get_game(game).scored:
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


def _claim(game: str, run: Run | None, horizon: Horizon) -> bool:
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
    stored them (False when nothing was new, or another run got there first)."""

    rebuilt: bool
    fed: int
    stored: bool


def _rated(game: str) -> str:
    """The game's slug, checked (:class:`UnknownGame` or :class:`RulesError` otherwise)."""
    return get_game(game).slug


def _run(game: str) -> Run | None:
    """The game's run as it is now (read before anything else: see :func:`_claim`)."""
    row = db.session.execute(
        select(RatingRun.hand_id, RatingRun.event_id, RatingRun.version).where(RatingRun.game == game)
    ).first()
    return Run(int(row[0]), int(row[1]), int(row[2])) if row else None


def _rebuild(game: str, run: Run | None, horizon: Horizon) -> Outcome:
    board = Board()
    fed = _feed(board, game, 0, horizon)
    if not _claim(game, run, horizon):
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
    (up to date), "incremental" (new hands to apply) or "rebuild" (from scratch). Lets a page
    send a big rebuild to the background instead of making its reader wait."""
    game = _rated(game)
    run = _run(game)
    if run is None:
        return "rebuild"
    seen = _visible()
    if seen.hand_id <= run.hand_id and seen.event_id <= run.event_id:
        return "none"
    return "rebuild" if _needs_recompute(game, run, seen) else "incremental"


def size() -> int:
    """A cheap measure of how much a rebuild reads: the highest hand id stored."""
    return _visible().hand_id


def refresh(game: str) -> Outcome:
    """Bring ``game``'s ratings up to date: apply what was stored since the last run, or
    recompute when a void changed what was applied (module docstring). Commits the session:
    call it where a commit is harmless (a page that reads), not in the middle of a write."""
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
    if not _claim(game, run, horizon):
        return Outcome(rebuilt=False, fed=fed, stored=False)
    _write(game, board, everything=False)
    db.session.commit()
    return Outcome(rebuilt=False, fed=fed, stored=True)


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


@cli.command("recompute")
@click.option("--game", type=click.Choice(sorted(GAMES)), default=None, help="One game (default: every game).")
def recompute_command(game: str | None) -> None:
    """Recompute the ratings from scratch."""
    for slug in [game] if game else sorted(GAMES):
        outcome = recompute(slug)
        kind = "matches" if get_game(slug).scored else "hands"
        if outcome.stored:
            click.echo(f"{slug}: {outcome.fed} {kind} rated.")
        else:
            click.echo(f"{slug}: another run stored the ratings at the same moment; kept them.")
