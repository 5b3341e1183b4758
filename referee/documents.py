"""The pieces of the club's JSON documents (exports, backups) and their CSV cells.

An export, a backup and a backup's championships are read by the same field checkers, each
refusal an :class:`~referee.rules.errors.InvalidInput` naming the place in the document
(``tables[0].hands[3].created_at``), and write their moments the same way. They live here, below
both :mod:`referee.exports` and :mod:`referee.championship`, because each of those uses them and
:mod:`referee.exports` also calls :mod:`referee.championship.backup`: kept in
:mod:`referee.exports`, they made the two import each other.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text

from referee import league, ledger
from referee.club_scope import ALL_CLUBS
from referee.db import db
from referee.models import aware
from referee.rules.errors import InconsistentHand, InvalidInput, RulesError
from referee.rules.text import N_, Text

#: A table id as the ledger makes them (``secrets.token_urlsafe(16)``: 22 characters). The id is
#: what lets a watcher read a table, so an imported one must be as hard to guess.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{16,32}")


ACTOR_MAX = 60  # Hand.created_by, HandEvent.actor
MEMBER_NAME_MAX = 40

#: A spreadsheet runs a cell starting with one of these as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def iso(moment: datetime | None) -> str | None:
    """A moment as a document holds it: ISO 8601, in UTC."""
    if moment is None:
        return None
    return aware(moment).astimezone(UTC).isoformat()


def csv_cell(value: str) -> str:
    """A text cell a spreadsheet will not run as a formula: a leading apostrophe where needed."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def invalid(sentence: str, where: str, **values: Any) -> InvalidInput:
    """The refusal of a document, naming where in it."""
    return InvalidInput(Text(sentence, **values), field=where)


def field(obj: Mapping[str, Any], key: str, kind: type, where: str, *, optional: bool = False) -> Any:
    """``obj[key]`` if it has the type asked for (None allowed when ``optional``)."""
    value = obj.get(key)
    if value is None and optional:
        return None
    # bool is an int in Python; a number must not be true or false.
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise invalid(N_("%(field)s is missing or has the wrong type."), f"{where}.{key}", field=key)
    return value


def row_id(obj: Mapping[str, Any], key: str, where: str, *, optional: bool = False) -> Any:
    """A row id (a member's, a season's, a scoring link's): what the database's integers hold."""
    value = field(obj, key, int, where, optional=optional)
    if value is not None and not 1 <= value < 2**31:
        raise invalid(N_("%(field)s is missing or has the wrong type."), f"{where}.{key}", field=key)
    return value


def whole(obj: Mapping[str, Any], key: str, where: str, low: int, high: int, *, optional: bool = False) -> Any:
    """A whole number from ``low`` to ``high``."""
    value = field(obj, key, int, where, optional=optional)
    if value is not None and not low <= value <= high:
        raise invalid(N_("%(field)s is missing or has the wrong type."), f"{where}.{key}", field=key)
    return value


def short_text(obj: Mapping[str, Any], key: str, where: str, *, limit: int, optional: bool = False) -> Any:
    """Text of at most ``limit`` characters, without control characters."""
    value = field(obj, key, str, where, optional=optional)
    if value is not None and (len(value) > limit or any(ord(ch) < 32 or ord(ch) == 127 for ch in value)):
        raise invalid(
            N_("%(field)s must be text of at most %(max)s characters."), f"{where}.{key}", field=key, max=limit
        )
    return value


def timestamp(obj: Mapping[str, Any], key: str, where: str) -> datetime:
    """An ISO 8601 date and time, in UTC (a time without a zone is taken as UTC), within the
    league's calendar: a table stored at the year 1 would break every page that shows its day."""
    try:
        moment = datetime.fromisoformat(field(obj, key, str, where))
        moment = aware(moment).astimezone(UTC)
    except (ValueError, OverflowError):  # OverflowError: the year 1 or 9999 moved to UTC
        moment = None
    if moment is None or not league.in_calendar(moment.date()):
        raise invalid(N_("%(field)s must be a date and time (ISO 8601)."), f"{where}.{key}", field=key)
    return moment


def maybe_timestamp(obj: Mapping[str, Any], key: str, where: str) -> datetime | None:
    """A :func:`timestamp`, or None."""
    return None if obj.get(key) is None else timestamp(obj, key, where)


@contextmanager
def naming(where: str) -> Iterator[None]:
    """Name the place in the document in a refusal; a ledger conflict while replaying (a hand
    after the end of a match, a confirmation of a hand that needs none) is a refused hand."""
    try:
        yield
    except RulesError as exc:
        raise type(exc)(exc.text, field=f"{where}.{exc.field}" if exc.field else where) from None
    except ledger.Conflict as exc:
        raise InconsistentHand(exc.text, field=where) from None
    except ledger.NotFound:
        raise InconsistentHand(Text(N_("This refers to a hand that does not exist.")), field=where) from None


def continue_ids(*models: Any) -> None:
    """After rows were inserted with their own ids, make PostgreSQL's sequences go on from the
    largest (SQLite's integer keys do so by themselves)."""
    if db.session.get_bind().dialect.name != "postgresql":
        return
    for model in models:
        name = model.__tablename__
        db.session.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), COALESCE((SELECT MAX(id) FROM {name}), 0) + 1, false)"
            ),
            execution_options={ALL_CLUBS: True},  # the ids every club's rows took: a sequence is the server's
        )
