"""Every statement the app issues while serving a club's request names that club.

This is the property that lets a distributed database keep each club on one shard
(docs/scale.md): a statement that reads or writes a club's rows without saying which club would
have to ask every shard. It also shows the scope (referee/club_scope.py) reached every statement:
a statement that escaped it would read or write every club's rows.

A listener on every engine reads the SQL each request sends; the ``club_audit`` fixture (autouse,
tests/conftest.py) fails a test in which a statement touched a club-owned table without limiting it
to a club: each reference to such a table (``FROM``, ``JOIN``, ``UPDATE``) needs a ``club_id``
comparison, and an ``INSERT`` into one needs a ``club_id`` column. The operator's reads across
clubs (the ``all_clubs`` execution option) are his to make.
"""

from __future__ import annotations

import re
from typing import Any

from flask import has_request_context, request
from sqlalchemy import event
from sqlalchemy.engine import Engine

from referee.club_scope import ALL_CLUBS
from referee.db import db

_REFERENCE = re.compile(r'\b(?:FROM|JOIN|UPDATE)\s+"?(\w+)"?', re.IGNORECASE)
_INSERT = re.compile(r'\bINSERT\s+(?:OR\s+\w+\s+)?INTO\s+"?(\w+)"?\s*\(([^)]*)\)', re.IGNORECASE)
_LIMIT = re.compile(r"\bclub_id\b\s*(?:=|IN\b)", re.IGNORECASE)

#: What the listener found since the fixture last emptied it: (path, statement).
unlimited: list[tuple[str, str]] = []
_owned: set[str] = set()


def owned_names() -> set[str]:
    if not _owned:
        _owned.update(name for name, table in db.metadata.tables.items() if "club_id" in table.c)
    return _owned


def misses(statement: str) -> bool:
    """Whether ``statement`` touches a club-owned table without naming the club for each use."""
    owned = owned_names()
    insert = _INSERT.search(statement)
    if insert and insert.group(1) in owned and "club_id" not in insert.group(2):
        return True
    references = sum(1 for name in _REFERENCE.findall(statement) if name in owned)
    return references > len(_LIMIT.findall(statement))


def _audit(connection: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
    if not has_request_context() or (context is not None and context.execution_options.get(ALL_CLUBS)):
        return
    if misses(statement):
        unlimited.append((request.path, statement))


def install() -> None:
    if not event.contains(Engine, "before_cursor_execute", _audit):
        event.listen(Engine, "before_cursor_execute", _audit)
