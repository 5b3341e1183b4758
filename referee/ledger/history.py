"""A table's hands as stored, with their events (void, confirm, dispute): reads only.

A hand's stored ``number`` is never reused (the API and links name hands by it); what the
pages, the flashes, the ledger's sentences and the API's ``display_number`` show is its place in
play: the live hands in ``position`` order, numbered 1..N (:class:`Numbering`, worked out by
:func:`numbering` alone; nothing else counts places). A correction is stored as a new hand in the place of the one it voids,
so on the pages it keeps that place and number, with the versions it replaced behind it
(:class:`Entry`); a hand only voided takes no number.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import and_, bindparam, or_, select
from sqlalchemy.orm import selectinload

from referee.db import db
from referee.models import Hand, Table, voided

from .state import live_hands

#: The live hands from a place in play (position, then number) to the end, in order of play.
_LIVE_FROM = (
    select(Hand.number)
    .where(
        Hand.table_id == bindparam("table_id"),
        ~voided(),
        Hand.position >= bindparam("position"),  # an index range; the "or" alone is not one
        or_(
            Hand.position > bindparam("position"),
            and_(Hand.position == bindparam("position"), Hand.number >= bindparam("number")),
        ),
    )
    .order_by(Hand.position, Hand.number)
)
_WHERE = select(Hand).where(Hand.table_id == bindparam("table_id"), Hand.number == bindparam("number"))


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


def deals_done(table: Table, played: int | None = None) -> bool:
    """A table of a set number of deals (a championship's round) that has played them all
    (``played``: its live hands, when already counted): it takes no further deal."""
    if table.deals is None:
        return False
    return (live_hands(table) if played is None else played) >= table.deals


def get_hand(table: Table, number: object) -> Hand | None:
    """Hand ``number`` of the table with its events (one indexed query), or None. A number
    beyond what a database integer holds names no hand (and must not reach the query)."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 2**31 - 1:
        return None
    query = select(Hand).where(Hand.table_id == table.id, Hand.number == number).options(selectinload(Hand.events))
    return db.session.scalar(query)


class Numbering:
    """The numbers the pages show: each live hand's place in play (1..N, no gaps).

    Read only as far back as asked: the live hands count (two index-only counts) and, for a hand
    asked about, the live hands from it to the end, one query that also answers every hand
    after it. A page showing the last hands of a long table reads those few, not the history."""

    def __init__(self, table: Table, hands: Iterable[Hand] = ()) -> None:
        self._table = table
        self._count: int | None = None
        self._shown: dict[int, int] = {}  # stored number -> place, live hands from _start on
        self._start: tuple[int, int] | None = None  # (position, number) the places are known from
        first = min(((hand.position, hand.number) for hand in hands), default=None)
        if first is not None:
            self._load(first)

    def of(self, hand: Hand | None) -> int | None:
        """The number a hand shows (None for a void one, which takes no place)."""
        if hand is None:
            return None
        if self._start is None or (hand.position, hand.number) < self._start:
            self._load((hand.position, hand.number))
        return self._shown.get(hand.number)

    def place(self, number: int | None) -> int | None:
        """The number the hand stored as ``number`` shows (None for a void or unknown one)."""
        if number is None:
            return None
        if number not in self._shown:
            hand = db.session.scalar(_WHERE, {"table_id": self._table.id, "number": number})
            if hand is None:
                return None
            self.of(hand)
        return self._shown.get(number)

    @property
    def count(self) -> int:
        if self._count is None:
            self._count = live_hands(self._table)
        return self._count

    @property
    def next(self) -> int:
        """The number the next hand will show."""
        return self.count + 1

    def _load(self, start: tuple[int, int]) -> None:
        """The places of the live hands from ``start`` (position, number) to the end: counted back
        from the live hands' count."""
        bind = {"table_id": self._table.id, "position": start[0], "number": start[1]}
        tail = list(db.session.scalars(_LIVE_FROM, bind))
        first = self.count - len(tail) + 1
        self._shown.update({number: place for place, number in enumerate(tail, start=first)})
        self._start = start


def numbering(table: Table, hands: Iterable[Hand] = ()) -> Numbering:
    """The one place computation: every number shown for a hand comes from here. ``hands``: the
    hands the caller will ask about, read at once (from the oldest of them to the end)."""
    return Numbering(table, hands)


def next_place(table: Table) -> int:
    """The place the next hand takes: one more than the live hands (kept in the table's state)."""
    return live_hands(table) + 1


@dataclass
class Entry:
    """One place in play: the version of the hand that stands (or the last, voided, one) and
    the earlier versions it corrected, newest first."""

    hand: Hand
    before: list[Hand] = field(default_factory=list)


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
