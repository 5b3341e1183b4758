"""The one mechanism that keeps a club's rows its own: every statement the app issues is limited
to the club being served, and every row it adds is stamped with that club.

No view, query or domain function names the club. Three hooks do it for all of them:

- an ORM statement (``select(Hand)``, ``db.session.get``, a relationship's load, an ORM
  ``update``/``delete``) gains a loader criterion on every club-owned entity it touches, joins,
  aliases and subqueries included (``do_orm_execute``);
- a Core statement on a club-owned table (the save path's prepared statements, a flush's
  ``UPDATE … WHERE id = ?``, a bulk ``DELETE``) gains ``AND <table>.club_id = <club>`` on every
  club-owned table it reads or writes at its surface (``before_execute``);
- a new row's ``club_id`` defaults to the club being served (the column's default, which a flush
  and a Core insert both apply).

So a table, member or championship of another club is simply not found: its id in a link, a form or
the API answers what an unknown id answers. A flush that would change another club's row changes
nothing and fails. The same property lets a distributed database keep each club on one shard
(docs/scale.md): every statement a club's request issues names the club.

The club served is the request's (``g.club_id``, set from its address by :mod:`referee.clubs`),
the first club outside a request (the command line, the app's start), or the one a statement's
``club_id`` execution option names (a connection of its own, outside the app). The server's
operator reads across clubs with the ``all_clubs`` execution option, and only he.

On PostgreSQL the same boundary holds below the application: row-level security (migration 0021)
shows a statement only the rows of the club this module told the database, for each transaction.
A statement the application forgot to limit still sees one club's rows; a connection that told
nothing sees none.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import g, has_app_context
from sqlalchemy import Table, event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Mapped, ORMExecuteState, Session, mapped_column, with_loader_criteria
from sqlalchemy.sql import Delete, Select, Update
from sqlalchemy.sql.selectable import Alias, Join

from referee.db import db

#: The club an installation's data belongs to before it hosts others (migration 0017): the one
#: `make run` serves, at the server's root.
HOME_CLUB = 1
#: The execution option that lifts the limit: the operator's reads and deletions across clubs.
ALL_CLUBS = "all_clubs"
#: The execution option that names the club for a statement run outside the app's context.
CLUB = "club_id"


def current_club_id() -> int:
    """The club being served: the request's, else the first club (the command line, start-up)."""
    if has_app_context():
        return int(g.get("club_id", HOME_CLUB))
    return HOME_CLUB


def session_key(name: str) -> str:
    """Where a phone's session keeps ``name`` for the club served: a phone may be known to
    several clubs (the first club's key is the one it always was)."""
    club = current_club_id()
    return name if club == HOME_CLUB else f"{name}:{club}"


@contextmanager
def serving(club_id: int) -> Iterator[None]:
    """Serve ``club_id`` inside the current app context (the command line acting for one club)."""
    before = g.get("club_id")
    g.club_id = club_id
    try:
        yield
    finally:
        if before is None:
            g.pop("club_id", None)
        else:
            g.club_id = before


class ClubOwned:
    """A row that belongs to one club. Every table carries the club's id but ``club`` itself and
    the server's own bookkeeping (``import_claim``: one import at a time per server), so that a
    club's rows can be told apart, exported, deleted, and on a distributed database kept together
    (tests/web/test_app.py holds every table to it)."""

    club_id: Mapped[int] = mapped_column(default=current_club_id, server_default=str(HOME_CLUB), index=True)


def _owned_tables() -> frozenset[Table]:
    """The tables a club's rows live in: every one of the app's tables with a ``club_id``."""
    return frozenset(table for table in db.metadata.tables.values() if "club_id" in table.c)


#: The execution option _limit_orm leaves on the statements it limited.
_LIMITED = "referee_club_limited"


@functools.lru_cache(maxsize=4096)
def _criterion(club: int) -> Any:
    """The loader criterion that limits every club-owned entity of a statement to ``club``."""
    return with_loader_criteria(ClubOwned, lambda cls: cls.club_id == club, include_aliases=True)


def _limit_orm(state: ORMExecuteState) -> None:
    """An ORM query sees the served club's rows of every club-owned entity in it, in its joins
    and subqueries too (the loads it triggers later inherit the criterion)."""
    if state.execution_options.get(ALL_CLUBS) or not state.is_select or not state.is_orm_statement:
        return  # a Core statement run through the session is the engine hook's to limit
    if state.is_column_load or state.is_relationship_load:
        return  # the engine's hook limits these: the criterion they inherit may be another's
    state.update_execution_options(**{_LIMITED: True})
    state.statement = state.statement.options(_criterion(state.execution_options.get(CLUB, current_club_id())))


def _surface(element: Any) -> Iterator[Any]:
    """The tables (and aliases of tables) a statement's FROM names directly, through its joins."""
    if isinstance(element, Join):
        yield from _surface(element.left)
        yield from _surface(element.right)
    elif isinstance(element, Table) or (isinstance(element, Alias) and isinstance(element.element, Table)):
        yield element


class _CoreLimit:
    """A Core statement on a club-owned table is limited to the served club's rows."""

    def __init__(self) -> None:
        self.owned: frozenset[Table] | None = None

    def _is_owned(self, table: Any) -> bool:
        if self.owned is None:
            self.owned = _owned_tables()
        target = table.element if isinstance(table, Alias) else table
        return target in self.owned

    def __call__(
        self,
        connection: Connection,
        statement: Any,
        multiparams: Any,
        params: Any,
        execution_options: Any,
    ) -> tuple[Any, Any, Any]:
        options = {**connection.get_execution_options(), **execution_options}
        club = int(options[CLUB]) if CLUB in options else current_club_id() if has_app_context() else None
        if connection.dialect.name == "postgresql" and not isinstance(statement, str):
            _tell_the_database(connection, ALL if options.get(ALL_CLUBS) else club)
        if options.get(ALL_CLUBS) or options.get(_LIMITED) or club is None:
            # the operator's; a query _limit_orm limited; a connection of its own, outside the app
            return statement, multiparams, params
        orm = getattr(statement, "_propagate_attrs", {}).get("compile_state_plugin") == "orm"
        if isinstance(statement, Select):
            if orm:  # built of the models but run past the session's hook, or a refresh
                statement = statement.options(_criterion(club))
            tables = [found for frm in statement.get_final_froms() for found in _surface(frm)]
        elif isinstance(statement, (Update, Delete)):
            if orm:  # the models' subqueries in its WHERE
                statement = statement.options(_criterion(club))
            tables = [statement.table]
        else:
            return statement, multiparams, params  # inserts take the club from the column's default
        for table in tables:
            if self._is_owned(table):
                statement = statement.where(table.c.club_id == club)
        return statement, multiparams, params


#: The database setting PostgreSQL's row-level security reads (migration 0021): the served
#: club's id, or :data:`ALL` for the operator's reads across clubs; unset, no club's row is seen.
SETTING = "referee.club"
ALL = "all"
#: Where a connection notes what it told the database in its transaction.
_TOLD = "referee_club_told"


def _tell_the_database(connection: Connection, club: int | str | None) -> None:
    """On PostgreSQL, the club the rows are limited to below the application too (row-level
    security, migration 0021): set for the transaction, before its first statement and whenever
    the club served changes within it (the operator's command acting for one club, then all)."""
    wanted = "" if club is None else str(club)
    if connection.info.get(_TOLD) == wanted:
        return
    connection.exec_driver_sql("SELECT set_config(%(name)s, %(value)s, true)", {"name": SETTING, "value": wanted})
    connection.info[_TOLD] = wanted  # after: the statement may begin the transaction, which forgets


def _forget_told(connection: Connection, *_args: Any) -> None:
    """What was told ends with its transaction (``set_config(..., true)``), and with a rollback
    to a savepoint: the next statement tells again."""
    connection.info.pop(_TOLD, None)


def init_app() -> None:
    """Install the hooks, once for the process (they act on every app's sessions and engines)."""
    if not event.contains(Session, "do_orm_execute", _limit_orm):
        event.listen(Session, "do_orm_execute", _limit_orm)
        event.listen(Engine, "before_execute", _CoreLimit(), retval=True)
        for moment in ("begin", "commit", "rollback", "rollback_savepoint"):
            event.listen(Engine, moment, _forget_told)
