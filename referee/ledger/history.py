"""A table's hands as stored, with their events (void, confirm, dispute): reads only."""

from __future__ import annotations

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import selectinload

from referee.db import db
from referee.models import Hand, Table, voided

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
    return db.session.scalar(_LIVE_COUNT, {"table_id": table.id}) or 0


def get_hand(table: Table, number: object) -> Hand | None:
    """Hand ``number`` of the table with its events (one indexed query), or None. A number
    beyond what a database integer holds names no hand (and must not reach the query)."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 2**31 - 1:
        return None
    query = select(Hand).where(Hand.table_id == table.id, Hand.number == number).options(selectinload(Hand.events))
    return db.session.scalar(query)
