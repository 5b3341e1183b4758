"""Idempotency keys: a write sent again with the same key (a retry, a double tap on "confirm")
gets the first answer back and stores nothing new; the same key with another hand is refused.

What is kept is the hand as the write saved it (no sentence rendered: the API renders its
answer from it, in the table's language, the first time and on a retry alike), without its
running figures: a retry answers them as they stand then (:func:`stored_answer`). A key kept
before that holds the API's answer itself, given back under :data:`RENDERED`."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from sqlalchemy import bindparam, insert, select

from referee.db import db
from referee.models import IdempotencyKey, Table, utcnow
from referee.rules.errors import InconsistentHand
from referee.rules.text import N_, Text

from .history import get_hand
from .results import as_it_stands, with_figures
from .state import standing, totals
from .tables import forget, kept


def digest(raw: Mapping[str, object], replaces: object) -> str:
    """A fingerprint of a write, so a reused Idempotency-Key with another hand is refused."""
    body = json.dumps({"record": raw, "replaces": replaces}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(body.encode()).hexdigest()


# Plain Core on the session's connection, as referee.ledger.tables reads.
_KEYS = IdempotencyKey.__table__.c
_ROW = select(_KEYS.body).where(_KEYS.table_id == bindparam("table_id"), _KEYS.key == bindparam("key"))
_INSERT = insert(IdempotencyKey.__table__)


def _stored(table: Table, key: str) -> dict[str, Any] | None:
    """What was stored under ``key``: read once per request and version of the table (the page
    asks whether its draft was saved, then the ledger asks for the answer to give back)."""

    def read() -> dict[str, Any] | None:
        body = db.session.connection().execute(_ROW, {"table_id": table.id, "key": key}).scalar()
        return dict(body) if body is not None else None

    return kept(table, "_idempotency", (table.version, key), read)


def forget_stored(table: Table) -> None:
    """After a rollback: a key may have been stored meanwhile by another request."""
    forget(table, "_idempotency")


def stored_number(table: Table, key: str) -> int | None:
    """The hand already stored under an Idempotency-Key, if any (a double tap on "confirm"). A
    key with control characters was never stored (and PostgreSQL refuses a NUL in a query)."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in key):
        return None
    body = _stored(table, key[:100])
    return int(body["number"]) if body is not None else None


#: The key of a saved hand that is an answer the API rendered whole (kept by an older version).
RENDERED = "rendered"


def stored_answer(table: Table, key: str, fingerprint: str) -> tuple[int, dict[str, Any]] | None:
    """The number and the hand saved under ``key``, if any; refused when they were stored for
    another hand (``fingerprint`` differs)."""
    body = _stored(table, key)
    if body is None:
        return None
    if body.get("digest", fingerprint) != fingerprint:
        raise InconsistentHand(
            Text(N_("This Idempotency-Key was already used for a different hand; send a new key for a new hand.")),
            field="Idempotency-Key",
        )
    if "hand" in body:
        return int(body["number"]), _as_it_stands(table, int(body["number"]), body["hand"])
    return int(body["number"]), {RENDERED: dict(body["answer"])}


#: What a saved hand says that follows from the hands before it (see referee.ledger.results).
_FIGURES = ("totals", "teams", "finished", "winner")


def _as_it_stands(table: Table, number: int, saved: Mapping[str, Any]) -> dict[str, Any]:
    """The hand saved under a key, its running figures as they stand now: a correction or a void
    of an earlier hand since the first answer has changed them. Its other fields are the saved
    ones (the place in play it took, the next dealer after it).

    A correction's answer gives the table's figures (what the scoreboard shows once the hand is
    put right), not those up to the place it took: so does its replay."""
    if "replaces" in saved:
        return with_figures(saved, totals(table), standing(table))
    hand = get_hand(table, number)
    if hand is None:  # gone with its table's hands (never, but a replay still answers)
        return dict(saved)
    now = as_it_stands(table, [hand])[number]
    return {**saved, **{name: now[name] for name in _FIGURES if name in now}}


def remember(table: Table, key: str, fingerprint: str, number: int, saved: dict[str, Any]) -> None:
    """Keep the hand a write saved under its key, in the write's transaction: a plain Core
    insert at once (nothing reads the row back in this request, so the ORM's unit of work, a
    third of a save's commit, is spared; a key stored meanwhile raises its IntegrityError here,
    inside the write's guard)."""
    db.session.connection().execute(
        _INSERT,
        {
            "table_id": table.id,
            "key": key,
            "status": 201,
            "body": {"number": number, "digest": fingerprint, "hand": saved},
            "created_at": utcnow(),
        },
    )
