"""A table's derived state, kept on its row so that recording a hand reads nothing else.

``Table.state`` holds the balances, the next hand number, the next dealer, the hands each
player took part in and the live hands (the place the next hand takes, without counting them). It is derived from the hands (:func:`rebuild_state` is what it must always
equal); every write replaces it under a version check (:func:`save_state`), holding the
table's write lock (:func:`lock_for_write`), and copies the seats' league counters with it.

For a game scored toward a target the standing (teams' totals, the end of the match) is derived
from the balances too; it is computed once per state and request (:func:`standing`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.orm.attributes import set_committed_value

from referee.db import db
from referee.models import Hand, HandDelta, Seat, Table, voided, waiting
from referee.rules.text import N_, Text

from .errors import Conflict
from .tables import options_of, players_of, rules_of, teams_of

# The write path's statements, built once (see referee.ledger.tables).
_NEXT_NUMBER = select(func.max(Hand.number)).where(Hand.table_id == bindparam("table_id"))
_LIVE = select(func.count()).select_from(Hand).where(Hand.table_id == bindparam("table_id"), ~voided())
_ROTATION = select(
    _NEXT_NUMBER.scalar_subquery(),
    _LIVE.scalar_subquery(),
    select(Hand.next_dealer)
    .where(Hand.table_id == bindparam("table_id"), ~voided())
    .order_by(Hand.position.desc(), Hand.number.desc())
    .limit(1)
    .scalar_subquery(),
)
_TOTALS = (
    select(HandDelta.seat, func.sum(HandDelta.amount), func.count())
    .join(Hand, Hand.id == HandDelta.hand_id)
    .where(Hand.table_id == bindparam("table_id"), ~voided())
    .group_by(HandDelta.seat)
)
_PLACES = select(func.count(func.distinct(Hand.position))).where(Hand.table_id == bindparam("table_id"))
#: What the live hands still waiting for a confirmation add per seat: the seats' league
#: counters leave it out until the hand is confirmed (models.counted).
_WAITING = (
    select(HandDelta.seat, func.sum(HandDelta.amount), func.count())
    .join(Hand, Hand.id == HandDelta.hand_id)
    .where(Hand.table_id == bindparam("table_id"), ~voided(), waiting())
    .group_by(HandDelta.seat)
)
# Plain Core, run on the session's connection: the ORM's bulk-update path costs more than the
# statement itself, and the table object is updated by hand (set_committed_value).
_SAVE_STATE = (
    update(Table.__table__)
    .where(Table.__table__.c.id == bindparam("table_id"), Table.__table__.c.version == bindparam("read_version"))
    .values(state=bindparam("new_state"), version=bindparam("new_version"))
)
_SAVE_SEAT = (
    update(Seat.__table__)
    .where(Seat.__table__.c.table_id == bindparam("seat_table"), Seat.__table__.c.position == bindparam("seat"))
    .values(net=bindparam("net"), played=bindparam("hands"), won=bindparam("winner"))
)
#: A hand that counts at once (a new one, not waiting for a confirmation) moves the seats'
#: counters by its own deltas: nothing to read to know them.
_ADD_TO_SEAT = (
    update(Seat.__table__)
    .where(Seat.__table__.c.table_id == bindparam("seat_table"), Seat.__table__.c.position == bindparam("seat"))
    .values(
        net=Seat.__table__.c.net + bindparam("net"),
        played=Seat.__table__.c.played + bindparam("hands"),
        won=bindparam("winner"),
    )
)
# SQLite has one write lock for the whole file. A transaction that reads first and writes later
# fails at once ("database is locked") when another writer committed in between, whatever the
# busy timeout; one whose first statement writes waits for the lock instead. This no-op update
# is that first statement, and answers the version it found.
_LOCK_SQLITE = (
    update(Table.__table__)
    .where(Table.__table__.c.id == bindparam("table_id"))
    .values(version=Table.__table__.c.version)
    .returning(Table.__table__.c.version)
)
# PostgreSQL locks the table's row, the version read with it.
_VERSION = select(Table.__table__.c.version).where(Table.__table__.c.id == bindparam("table_id"))
_LOCK_ROW = _VERSION.with_for_update()

#: ``save_state`` was not told the standing of the state it saves: it works it out.
_UNKNOWN: Any = object()


def next_number(table: Table) -> int:
    """Hand numbers are never reused: a voided hand 3 keeps its number and the next is 4."""
    return int(table.state["next_number"])


def current_dealer(table: Table) -> str:
    """Who deals the next hand (kept in the table's state; see :func:`rebuild_state`)."""
    return str(table.state["next_dealer"])


def totals(table: Table) -> dict[str, int]:
    """Net result per player: the live hands' deltas added up (kept in the table's state and
    rebuilt from the hands by :func:`rebuild_state`); the starting stock is reported apart."""
    balances = table.state["balances"]
    return {name: int(balances.get(name, 0)) for name in players_of(table)}


def new_state(
    *,
    balances: Mapping[str, int],
    next_number: int,
    next_dealer: str,
    played: Mapping[str, int],
    live: int | None = None,
    places: int | None = None,
) -> dict[str, Any]:
    """``played``: the live hands each player took part in (not sitting out), for the league;
    ``live``: how many live hands the table has (left out, :func:`save_state` counts it on);
    ``places``: how many places in play the history lists, void ones included (left out,
    :func:`save_state` counts them)."""
    state = {"balances": dict(balances), "next_number": next_number, "next_dealer": next_dealer, "played": dict(played)}
    if live is not None:
        state["live"] = live
    if places is not None:
        state["places"] = places
    return state


def live_hands(table: Table) -> int:
    """How many live hands the table has: kept in its state (a page showing the count reads
    nothing more), counted from the hands for a state written before it was kept."""
    kept = table.state.get("live")
    return int(kept) if kept is not None else _count_live(table)


def _count_live(table: Table) -> int:
    """The live hands counted: every hand less the voided ones (one void event per hand)."""
    return int(db.session.scalar(_LIVE, {"table_id": table.id}) or 0)


def place_count(table: Table) -> int:
    """How many places in play the history lists (a correction shares its hand's place, a void
    hand keeps its own): kept in the table's state, so the history's first page reads only its
    page; counted from the hands for a state written before it was kept."""
    kept = table.state.get("places")
    return int(kept) if kept is not None else _count_places(table)


def places_after(table: Table, *, new_place: bool) -> int | None:
    """The places once a hand is stored: one more when it takes a new place (not a correction
    nor a restored hand, which deal where the hand they stand for did); None (counted when
    saved) for a state written before the places were kept."""
    before = table.state.get("places")
    return None if before is None else int(before) + new_place


def _count_places(table: Table) -> int:
    """The distinct positions of the table's hands (an index-only count, growing with them)."""
    return int(db.session.scalar(_PLACES, {"table_id": table.id}) or 0)


def rebuild_state(table: Table) -> dict[str, Any]:
    """The table's state derived from its hands alone: what the cached state must always equal.

    Balances are one aggregate over the live hands' deltas; the next dealer follows the latest
    live hand by position (a correction takes the place of the hand it replaced, so correcting
    hand 3 after hand 5 does not pull the deal back); numbers are never reused.
    """
    players = players_of(table)
    balances = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    for seat, amount, count in db.session.execute(_TOTALS, {"table_id": table.id}):
        balances[players[seat]] = int(amount)
        played[players[seat]] = int(count)
    top, live, dealer = db.session.execute(_ROTATION, {"table_id": table.id}).one()
    return new_state(
        balances=balances,
        next_number=(top or 0) + 1,
        next_dealer=dealer if dealer is not None else players[table.first_dealer],
        played=played,
        live=int(live or 0),
        places=_count_places(table),
    )


def standing(table: Table, balances: Mapping[str, int] | None = None, options: Any = None) -> Mapping[str, Any] | None:
    """For a game scored toward a target: the teams' totals, what each needs next, whether the
    match is over and who won (None for games settled in payments).

    Without ``balances`` (or with the table's own), the table's: worked out once per state (its
    version) and kept on the table object for the rest of the request. ``options``: the parsed house rules, when the
    caller has them."""
    rules = rules_of(table)
    if not rules.kind.points_match:
        return None
    if balances is not None and balances != totals(table):  # other totals than the table's own
        return rules.standing(teams_of(table), balances, options_of(table) if options is None else options)
    kept = table.__dict__.get("_standing")
    if kept is not None and kept[0] == table.version:
        known: Mapping[str, Any] | None = kept[1]
        return known
    match = rules.standing(teams_of(table), totals(table), options_of(table) if options is None else options)
    table.__dict__["_standing"] = (table.version, match)
    return match


def match_over(table: Table, options: Any = None) -> bool:
    """A scored game's match has ended (a team passed the target)."""
    match = standing(table, options=options)
    return bool(match and match["finished"])


def match_winners(table: Table, balances: Mapping[str, int]) -> set[str]:
    """The players of the team that won the match with these totals (none while a game played
    to a target goes on, and never for a game settled in payments)."""
    return _winners(table, standing(table, balances))


def _winners(table: Table, match: Mapping[str, Any] | None) -> set[str]:
    return set(teams_of(table)[match["winner"]]) if match and match.get("winner") is not None else set()


def lock_for_write(table: Table) -> bool:
    """Take the table's write lock; True when no write reached the table since this request
    read it (the version under the lock is the one read), else read the table again.

    Held until the write commits or rolls back, so writes to one table are serial: SQLite's
    database lock (taken by a first-statement write, waiting on the busy timeout), PostgreSQL's
    row lock (``SELECT ... FOR UPDATE``). Every write to a table moves its version on, so when
    the version moved, whatever else this request read of the table (a hand and its
    confirmations, read to offer an undo) is read again when next used."""
    read = table.version
    db.session.flush()
    statement = _LOCK_SQLITE if db.session.get_bind().dialect.name == "sqlite" else _LOCK_ROW
    if db.session.connection().execute(statement, {"table_id": table.id}).scalar_one() == read:
        return True
    db.session.expire_all()
    db.session.refresh(table)
    return False


def version_moved(table: Table) -> bool:
    """True when a write reached the table since this request read it; read without a lock (a
    refusal judged on the table as it stands holds, and needs no lock to be answered). What
    this request changed and has not flushed reads as moved: the caller then takes the lock."""
    return bool(db.session.connection().execute(_VERSION, {"table_id": table.id}).scalar_one() != table.version)


def claim_state(table: Table, state: Mapping[str, Any]) -> bool:
    """Write the table's new state if its version is still the one this request read: True when
    written, False (nothing written) when another write reached the table meanwhile.

    As a transaction's first statement this is the write lock and the check in one statement
    (see :func:`lock_for_write`): SQLite's write lock is taken by the UPDATE whether or not a row
    matches, PostgreSQL's row lock by the row it updates (a concurrent writer's row lock is
    waited for, then the version compared with what it committed). A state complete with its
    counts (``live``, ``places``) is expected: nothing is counted here."""
    done = db.session.connection().execute(
        _SAVE_STATE,
        {"table_id": table.id, "read_version": table.version, "new_state": state, "new_version": table.version + 1},
    )
    return bool(done.rowcount == 1)


def save_state(
    table: Table,
    state: dict[str, Any],
    match: Mapping[str, Any] | None = _UNKNOWN,
    *,
    added: Mapping[str, int] | None = None,
    claimed: bool = False,
) -> None:
    """Replace the table's state if nobody else did since we read it; else :class:`Conflict`.

    The seats' league counters (net, hands played, match won) are copied from the state in the
    same transaction, so standings never disagree with the scoreboard. ``match`` is the
    standing of ``state``'s balances when the caller worked it out already; it is kept as the
    table's standing for the rest of the request. ``added``: the deltas of the one new hand this
    state counts, when it counts at once (no confirmation awaited), by the players who took part:
    the seats' counters move by them, rather than being worked out from the hands that wait.
    ``claimed``: :func:`claim_state` already wrote this very state (and answered True)."""
    if match is _UNKNOWN:
        match = standing(table, state["balances"])
    if "live" not in state:  # one hand more (a correction's state is rebuilt, count included)
        state = {**state, "live": _live_after(table, state)}
    if "places" not in state:  # a state written before the places were kept: counted once
        state = {**state, "places": _count_places(table)}
    if not claimed and not claim_state(table, state):
        db.session.rollback()
        raise Conflict(Text(N_("Another phone changed this table at the same moment. Check the table and try again.")))
    connection = db.session.connection()
    winners = _winners(table, match)
    if added is None:
        connection.execute(_SAVE_SEAT, _seat_counters(table, state, winners))
    else:
        connection.execute(
            _ADD_TO_SEAT,
            [
                {
                    "seat_table": table.id,
                    "seat": position,
                    "net": int(added.get(name, 0)),
                    "hands": int(name in added),
                    "winner": name in winners,
                }
                for position, name in enumerate(players_of(table))
            ],
        )
    set_committed_value(table, "state", state)
    set_committed_value(table, "version", table.version + 1)
    if match is not None:
        table.__dict__["_standing"] = (table.version, match)


def _live_after(table: Table, state: Mapping[str, Any]) -> int:
    """The live hands once ``state`` is saved, for a state counted on from the table's (a new
    hand or a restored one: each takes a new number and stands)."""
    before = table.state.get("live")
    if before is None:
        return _count_live(table)  # flushed: the new hand is among those counted
    return int(before) + max(0, int(state["next_number"]) - int(table.state["next_number"]))


def _seat_counters(table: Table, state: Mapping[str, Any], winners: set[str]) -> list[dict[str, Any]]:
    """The seats' rows for :data:`_SAVE_SEAT`: net and hands played from the state, less what
    the hands still waiting for a confirmation add (the league counts a hand once confirmed),
    and for a game played to a target whether the seat's team won the match."""
    balances = state["balances"]
    played = state.get("played") or {}
    pending = {int(seat): (int(amount), int(count)) for seat, amount, count in _pending(table)}
    return [
        {
            "seat_table": table.id,
            "seat": position,
            "net": int(balances.get(name, 0)) - pending.get(position, (0, 0))[0],
            "hands": int(played.get(name, 0)) - pending.get(position, (0, 0))[1],
            "winner": name in winners,
        }
        for position, name in enumerate(players_of(table))
    ]


def _pending(table: Table) -> list[Any]:
    """Per seat, the deltas and the count of the live hands still waiting for a confirmation
    (asked even with two-key entry off now: hands recorded while it was on still wait)."""
    return list(db.session.connection().execute(_WAITING, {"table_id": table.id}))


def end_write(commit: bool) -> None:
    """Commit a write, or with ``commit=False`` only flush it: an import replays many writes
    and commits (or rolls back) them all at once."""
    if commit:
        db.session.commit()
    else:
        db.session.flush()


def touch(table: Table, *, commit: bool = True) -> None:
    """Commit a change to the table row and move its version on, so every phone watching sees
    it (the live view's ETag is the version) and a concurrent writer gets a Conflict."""
    db.session.flush()
    save_state(table, dict(table.state))
    end_write(commit)
