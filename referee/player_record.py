"""What a member's page reads: the players' list, his seats, the other seats at his tables and
his hands at the games with partners hand by hand.

Each read is bounded by the member (his seats, his tables, his hands; never the whole league),
so his page costs the same however large the club grows. The page (``referee.views.players``)
turns these rows into figures; the queries live here, below the views.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, case, func, select
from sqlalchemy.orm import aliased

from referee import league
from referee.db import db
from referee.models import Hand, Member, Seat, Table, aware, counted
from referee.rules.patience import PatienceStats


@dataclass(frozen=True)
class Listed:
    """A line of the players' list."""

    member_id: int
    name: str
    tables: int
    last: datetime | None


def listed() -> list[Listed]:
    """Every active member with the tables he played (with at least one hand) and when he last
    did: one grouped query over the seats."""
    played = func.coalesce(func.sum(case((Seat.played > 0, 1), else_=0)), 0)
    last = func.max(case((Seat.played > 0, Table.created_at), else_=None))
    query = (
        select(Member.id, Member.name, played, last)
        .outerjoin(Seat, Seat.member_id == Member.id)
        .outerjoin(Table, Table.id == Seat.table_id)
        .where(Member.merged_into.is_(None))
        .group_by(Member.id, Member.name, Member.name_key)
        .order_by(Member.name_key, Member.id)
    )
    return [
        Listed(int(i), name, int(count), _instant(when) if when is not None else None)
        for i, name, count, when in db.session.execute(query)
    ]


def _instant(moment: Any) -> datetime:
    """An instant as an aware UTC datetime: SQLite hands back naive ones (UTC), and an
    aggregate over a datetime may come back as text."""
    when = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
    assert isinstance(when, datetime)
    return aware(when)


@dataclass(frozen=True)
class Sitting:
    """One of the member's seats, with its table."""

    table_id: str
    game: str
    table_name: str
    created_at: datetime
    position: int
    seat_name: str
    team: int | None
    net: int
    played: int
    won: bool


def sittings(member: Member) -> list[Sitting]:
    """Every seat the member held, the newest table first."""
    query = (
        select(
            Table.id,
            Table.game,
            Table.name,
            Table.created_at,
            Seat.position,
            Seat.name,
            Seat.team,
            Seat.net,
            Seat.played,
            Seat.won,
        )
        .join(Seat, Seat.table_id == Table.id)
        .where(Seat.member_id == member.id)
        .order_by(Table.created_at.desc(), Table.id)
    )
    return [
        Sitting(t, g, n, _instant(c), p, s, team, int(net), int(played), bool(won))
        for t, g, n, c, p, s, team, net, played, won in db.session.execute(query)
    ]


@dataclass(frozen=True)
class Other:
    """Another seat at one of the member's tables, and the member sitting there."""

    position: int
    seat_name: str
    team: int | None
    member_id: int
    name: str


def others(member: Member) -> dict[str, list[Other]]:
    """The other seats at the member's tables, by table: one query, bounded by his tables."""
    mine = aliased(Seat)
    query = (
        select(Seat.table_id, Seat.position, Seat.name, Seat.team, Member.id, Member.name)
        .join(mine, and_(mine.table_id == Seat.table_id, mine.member_id == member.id))
        .join(Member, Member.id == Seat.member_id)
        .where(Seat.member_id != member.id)
    )
    found: dict[str, list[Other]] = {}
    for table_id, position, seat_name, team, member_id, name in db.session.execute(query):
        found.setdefault(table_id, []).append(Other(position, seat_name, team, int(member_id), name))
    return found


def hands_at(member: Member, games: Sequence[str]) -> list[tuple[str, str, str, dict[str, Any]]]:
    """His live hands at tables of ``games``: (game, table id, his seat's name, the hand's
    stored result), for finding who played on his side hand by hand."""
    query = (
        select(Table.game, Hand.table_id, Seat.name, Hand.result)
        .join(Seat, and_(Seat.table_id == Hand.table_id, Seat.member_id == member.id))
        .join(Table, Table.id == Hand.table_id)
        .where(Table.game.in_(games), counted())
    )
    return [(game, table_id, seat_name, result) for game, table_id, seat_name, result in db.session.execute(query)]


def patience_stats(member: Member, games: Sequence[str]) -> dict[str, PatienceStats]:
    """His record per patience over his live hands at tables of ``games``."""
    return league.patience_stats(Seat.member_id == member.id, Table.game.in_(games))


def seats_held(member: Member) -> int:
    """How many seats (tables) the member held: what merging him moves."""
    return db.session.scalar(select(func.count()).select_from(Seat).where(Seat.member_id == member.id)) or 0
