"""When the evening ends: the session clock (the time the players agreed to play) and the last
round. Times are stored in UTC; SQLite hands them back without a time zone."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from referee.db import db
from referee.models import Hand, Table, aware, utcnow, voided
from referee.rules.errors import InvalidInput
from referee.rules.text import N_, Text

from .errors import Conflict
from .state import lock_for_write, next_number, touch
from .tables import players_of

#: The session clock takes from a quarter of an hour to a whole day.
CLOCK_MINUTES = (15, 24 * 60)


def iso(moment: datetime) -> str:
    """A stored moment as the API writes it (ISO 8601, in UTC)."""
    return aware(moment).isoformat()


def duration(raw: object) -> timedelta | None:
    """The agreed playing time in minutes (None, "" or 0: no clock)."""
    if raw is None or raw == "" or raw == 0:
        return None
    if isinstance(raw, str) and raw.strip().isascii() and raw.strip().isdigit() and len(raw.strip()) <= 5:
        raw = int(raw.strip())
        if raw == 0:
            return None
    low, high = CLOCK_MINUTES
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise InvalidInput(
            Text(N_("The agreed time is a number of minutes from %(low)s to %(high)s."), low=low, high=high),
            field="duration_minutes",
        )
    return timedelta(minutes=raw)


def clock(table: Table, now: datetime | None = None) -> dict[str, Any] | None:
    """The session clock, when the players agreed on a time: when it ends, the whole minutes
    left (rounded up, 0 once over) and whether time is up."""
    if table.ends_at is None:
        return None
    ends = aware(table.ends_at)
    left = (ends - (now or utcnow())).total_seconds()
    return {"ends_at": iso(ends), "left": max(0, math.ceil(left / 60)), "over": left <= 0}


def set_clock(table: Table, minutes: object) -> None:
    """Start the clock again with ``minutes`` from now, or stop it (None, 0)."""
    lock_for_write(table)
    if table.finished_at is not None:
        raise Conflict(Text(N_("This table is finished: its hands can no longer change.")))
    length = duration(minutes)
    table.ends_at = utcnow() + length if length else None
    touch(table)


def last_round(table: Table) -> dict[str, int] | None:
    """The last round ("la tonda"), once declared: it lasts one deal per player, so the evening
    ends when that many live hands have been recorded since it began."""
    if table.last_round_from is None:
        return None
    played = (
        db.session.scalar(
            select(func.count())
            .select_from(Hand)
            .where(Hand.table_id == table.id, Hand.number >= table.last_round_from, ~voided())
        )
        or 0
    )
    hands = len(players_of(table))
    return {"from": table.last_round_from, "hands": hands, "played": int(played), "left": max(0, hands - int(played))}


def declare_last_round(table: Table, *, on: bool) -> None:
    """Start the last round with the next hand, or take the declaration back. A table playing a
    set number of deals (a championship's round) ends with them: it has no last round to call."""
    lock_for_write(table)
    if table.finished_at is not None:
        raise Conflict(Text(N_("This table is finished: its hands can no longer change.")))
    if table.deals is not None:
        raise Conflict(Text(N_("This table plays %(deals)s deals: the round ends with them."), deals=table.deals))
    table.last_round_from = next_number(table) if on else None
    touch(table)
