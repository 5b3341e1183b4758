"""A table's hands as stored, with their events (void, confirm, dispute): reads only.

A hand's stored ``number`` is never reused (the API and links name hands by it); what the
pages, the flashes, the ledger's sentences and the API's ``display_number`` show is its place in
play: the live hands in ``position`` order, numbered 1..N (:class:`Numbering`, worked out by
:func:`numbering` alone; nothing else counts places). A correction is stored as a new hand in the place of the one it voids,
so on the pages it keeps that place and number, with the versions it replaced behind it
(:class:`Entry`); a hand only voided takes no number.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import selectinload

from referee.db import db
from referee.models import Hand, Table, voided

from .tables import kept

_LIVE_PLACES = (
    select(Hand.number).where(Hand.table_id == bindparam("table_id"), ~voided()).order_by(Hand.position, Hand.number)
)
_PLACES = select(func.count(func.distinct(Hand.position))).where(Hand.table_id == bindparam("table_id"))
_LIVE_COUNT = select(func.count()).select_from(Hand).where(Hand.table_id == bindparam("table_id"), ~voided())


def all_hands(table: Table) -> list[Hand]:
    """Every hand of the table with its events (two queries), for the history and the API."""
    query = select(Hand).where(Hand.table_id == table.id).order_by(Hand.number).options(selectinload(Hand.events))
    return list(db.session.scalars(query))


def recent_hands(table: Table, count: int) -> list[Hand]:
    """The last ``count`` hands, newest first, with their events."""
    query = (
        select(Hand)
        .where(Hand.table_id == table.id)
        .order_by(Hand.number.desc())
        .limit(count)
        .options(selectinload(Hand.events))
    )
    return list(db.session.scalars(query))


def last_live_hand(table: Table) -> Hand | None:
    """The table's latest hand that is not void, or None: what the next hand may start from
    (the same bets, the same betting system)."""
    query = select(Hand).where(Hand.table_id == table.id, ~voided()).order_by(Hand.number.desc()).limit(1)
    return db.session.scalar(query)


def live_count(table: Table) -> int:
    """The table's live hands: kept in its state by every write (counted for a state written
    before it kept them)."""
    live = table.state.get("live") if isinstance(table.state, dict) else None
    if live is not None:
        return int(live)
    return db.session.scalar(_LIVE_COUNT, {"table_id": table.id}) or 0


def deals_done(table: Table, played: int | None = None) -> bool:
    """A table of a set number of deals (a championship's round) that has played them all
    (``played``: its live hands, when already counted): it takes no further deal."""
    if table.deals is None:
        return False
    return (live_count(table) if played is None else played) >= table.deals


def get_hand(table: Table, number: object) -> Hand | None:
    """Hand ``number`` of the table with its events (one indexed query), or None. A number
    beyond what a database integer holds names no hand (and must not reach the query)."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 2**31 - 1:
        return None
    query = select(Hand).where(Hand.table_id == table.id, Hand.number == number).options(selectinload(Hand.events))
    return db.session.scalar(query)


@dataclass(frozen=True)
class Numbering:
    """The numbers the pages show: each live hand's place in play (1..N, no gaps)."""

    shown: Mapping[int, int]  # stored number -> number on the pages, live hands only

    def of(self, hand: Hand | None) -> int | None:
        """The number a hand shows (None for a void one, which takes no place)."""
        return self.shown.get(hand.number) if hand is not None else None

    def place(self, number: int | None) -> int | None:
        """The number the hand stored as ``number`` shows (None for a void or unknown one)."""
        return self.shown.get(number) if number is not None else None

    @property
    def count(self) -> int:
        return len(self.shown)

    @property
    def next(self) -> int:
        """The number the next hand will show."""
        return len(self.shown) + 1


def numbering(table: Table) -> Numbering:
    """The one place computation: every number shown for a hand comes from here. One query of
    small integers, whatever the history's length, once per version of the table and request
    (every write moves the version on)."""

    def places() -> Numbering:
        numbers = db.session.scalars(_LIVE_PLACES, {"table_id": table.id})
        return Numbering({number: place for place, number in enumerate(numbers, start=1)})

    return kept(table, "_numbering", table.version, places)


def next_place(table: Table) -> int:
    """The place the next hand takes: from the places when this request has them, else from the
    live hands the table's state keeps."""
    found = table.__dict__.get("_numbering")
    if found is not None and found[0] == table.version:
        return int(found[1].next)
    return live_count(table) + 1


def renumber(table: Table, read_version: int, number: int, replaced: int | None) -> None:
    """After a write that stored hand ``number`` (in the place of ``replaced``, a correction):
    the places as the write leaves them, worked out from those read at ``read_version`` rather
    than read again. A new or restored hand takes the next place; a correction its hand's."""
    found = table.__dict__.get("_numbering")
    if found is None or found[0] != read_version:
        return
    shown = dict(found[1].shown)
    place = shown.pop(replaced, None) if replaced is not None else None
    shown[number] = place or len(shown) + 1
    table.__dict__["_numbering"] = (table.version, Numbering(shown))


@dataclass
class Entry:
    """One place in play: the version of the hand that stands (or the last, voided, one) and
    the earlier versions it corrected, newest first."""

    hand: Hand
    before: list[Hand] = field(default_factory=list)


def place_count(table: Table) -> int:
    """How many places the history lists (a correction shares its hand's place)."""
    return db.session.scalar(_PLACES, {"table_id": table.id}) or 0


def recent_entries(table: Table, count: int, skip: int = 0) -> list[Entry]:
    """The last ``count`` places in play after skipping ``skip``, newest first, each with the
    versions corrected there (two queries)."""
    places = (
        select(Hand.position)
        .where(Hand.table_id == table.id)
        .distinct()
        .order_by(Hand.position.desc())
        .limit(count)
        .offset(skip)
    )
    query = (
        select(Hand)
        .where(Hand.table_id == table.id, Hand.position.in_(places.scalar_subquery()))
        .order_by(Hand.position.desc(), Hand.number.desc())
        .options(selectinload(Hand.events))
    )
    entries: list[Entry] = []
    for hand in db.session.scalars(query):
        if entries and entries[-1].hand.position == hand.position:
            entries[-1].before.append(hand)
        else:
            entries.append(Entry(hand))
    return entries
