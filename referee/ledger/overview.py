"""The home page's overview of the tables a phone plays at: the open ones, most recently active
first, in three queries whatever their number."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select

from referee.db import db
from referee.models import Hand, Seat, Table, aware, voided


@dataclass(frozen=True)
class Overview:
    table: Table
    players: tuple[str, ...]
    hands: int  # live hands
    last: datetime  # last activity


def overview(table_ids: Sequence[str]) -> list[Overview]:
    """Open tables among ``table_ids``, most recently active first (three queries in all)."""
    if not table_ids:
        return []
    tables = list(db.session.scalars(select(Table).where(Table.id.in_(table_ids), Table.finished_at.is_(None))))
    if not tables:
        return []
    ids = [t.id for t in tables]
    activity = {
        tid: (last, live)
        for tid, last, live in db.session.execute(
            select(Hand.table_id, func.max(Hand.created_at), func.count().filter(~voided()))
            .where(Hand.table_id.in_(ids))
            .group_by(Hand.table_id)
        )
    }
    names: dict[str, list[str]] = {tid: [] for tid in ids}
    for tid, name in db.session.execute(
        select(Seat.table_id, Seat.name).where(Seat.table_id.in_(ids)).order_by(Seat.table_id, Seat.position)
    ):
        names[tid].append(name)
    rows = [
        Overview(
            table=t,
            players=tuple(names[t.id]),
            hands=int(activity.get(t.id, (None, 0))[1] or 0),
            last=activity.get(t.id, (None, 0))[0] or t.created_at,
        )
        for t in tables
    ]
    return sorted(rows, key=lambda r: aware(r.last), reverse=True)
