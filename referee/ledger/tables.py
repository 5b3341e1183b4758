"""A table as stored: loading it, its game and house rules, who sits where, and its rematch.

Reads only. What a request needs to know about a table (its players and teams, its parsed house
rules, its standing, the places its hands show, the answer kept under a write's key) is worked
out once and kept on the loaded table itself (:func:`kept`), so that the view, the flow, the
ledger and the page drawn after a save all read one copy: the table object of the request's
session is the context handed along. Each fact that a write can change is kept with what it was
worked out from (the table's version, or its raw options), so a write in the same request makes it
be worked out again. The players and teams are kept without one: who sits where, and in which
team, is written when the table is created and never changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import bindparam, select

from referee.db import db
from referee.models import Seat, Table
from referee.rules import Game, get_game

from .errors import NotFound

T = TypeVar("T")

#: The languages a table can be kept in, as given (API, form) and as stored.
LOCALES = {"pt_BR": "pt_BR", "pt-BR": "pt_BR", "pt": "pt_BR", "en": "en"}

# Built once: building a statement and its cache key costs more than running it on SQLite, and
# these run on every hand recorded.
_TABLE = select(Table).where(Table.id == bindparam("table_id"))
# Plain Core on the session's connection (the ORM's execution path costs more than the read).
_SEATS = Seat.__table__.c
_PLAYERS = select(_SEATS.name, _SEATS.team).where(_SEATS.table_id == bindparam("table_id")).order_by(_SEATS.position)


def get_table(table_id: str) -> Table:
    """The table of this id, or NotFound. An id holding a NUL byte (a forged JSON body) names no
    table, and PostgreSQL would refuse it in the query, so it is not sent."""
    table = None if "\x00" in table_id else db.session.scalar(_TABLE, {"table_id": table_id})
    if table is None:
        raise NotFound()
    return table


def rules_of(table: Table) -> Game[Any, Any]:
    """The table's game, looked up once per request (and again if the table's game changed)."""
    found: Game[Any, Any] | None = table.__dict__.get("_rules")
    if found is None or found.slug != table.game:
        found = table.__dict__["_rules"] = get_game(table.game)
    return found


def kept(table: Table, name: str, basis: object, make: Callable[[], T]) -> T:
    """The fact ``name`` about ``table`` for this request: worked out by ``make`` the first time,
    and again only when its ``basis`` (what it was worked out from) changed."""
    found = table.__dict__.get(name)
    if found is not None and found[0] == basis:
        value: T = found[1]
        return value
    value = make()
    table.__dict__[name] = (basis, value)
    return value


def options_of(table: Table) -> Any:
    """The table's house rules, parsed once per request (and again if they change)."""
    raw = table.options
    return kept(
        table, "_options", dict(raw) if isinstance(raw, dict) else raw, lambda: rules_of(table).parse_options(raw)
    )


def players_of(table: Table) -> tuple[str, ...]:
    """The players in order of play (read once per request: seats never change)."""
    players: tuple[str, ...] | None = table.__dict__.get("_players")
    if players is None:
        seats = db.session.connection().execute(_PLAYERS, {"table_id": table.id}).all()
        players = tuple(name for name, _team in seats)
        table.__dict__["_players"] = players
        table.__dict__["_teams"] = group_teams(seats)
    return players


def teams_of(table: Table) -> tuple[tuple[str, ...], ...]:
    """The table's teams, in order of their index (each player alone where there are none)."""
    players_of(table)
    teams: tuple[tuple[str, ...], ...] = table.__dict__["_teams"]
    return teams


def group_teams(seats: Sequence[Any]) -> tuple[tuple[str, ...], ...]:
    """Teams from (name, team index) pairs in order of play."""
    if any(team is None for _name, team in seats):  # tables made before teams were stored
        return tuple((name,) for name, _team in seats)
    groups: dict[int, list[str]] = {}
    for name, team in seats:
        groups.setdefault(int(team), []).append(name)
    return tuple(tuple(groups[i]) for i in sorted(groups))


def rematch_of(table: Table) -> str | None:
    """The id of the table that follows this one (its rematch), if there is one."""
    return db.session.scalar(select(Table.id).where(Table.follows == table.id).order_by(Table.created_at).limit(1))


def match_rematch(table: Table) -> str | None:
    """The rematch that follows a match (a game scored toward a target); None, and nothing
    read, for a game played without matches, which no table follows."""
    return rematch_of(table) if rules_of(table).kind.points_match else None


def tables_created(start: datetime, end: datetime, *, among: Iterable[str] | None = None) -> list[Table]:
    """The tables created from ``start`` up to ``end``, oldest first: all of them, or only those
    whose ids are ``among`` (the tables a phone knows)."""
    query = select(Table).where(Table.created_at >= start, Table.created_at < end).order_by(Table.created_at)
    if among is not None:
        query = query.where(Table.id.in_(list(among)))
    return list(db.session.scalars(query))


def tables_of_ids(ids: Sequence[str]) -> list[Table]:
    """The tables of these ids that exist, oldest first."""
    if not ids:
        return []
    return list(db.session.scalars(select(Table).where(Table.id.in_(ids)).order_by(Table.created_at)))


def forget(table: Table, name: str) -> None:
    """Drop a kept fact (after a rollback: what was read may have changed)."""
    table.__dict__.pop(name, None)
