"""One import at a time per server: a claim row in the database, taken by one ``UPDATE ...
WHERE`` it is free or expired, so it holds across gunicorn workers, processes and app servers
sharing the database (migration 0009).

An import is the app's longest request: judging a large export takes seconds of a worker's
time, and storing it takes the write lock again and again. Several at once filled every worker
and queued the scorers' saves behind their batches (on SQLite one waited past the busy timeout
and answered 500). The second import is therefore refused at once, with a sentence asking to
try again in a minute, and stores nothing.

The claim lapses by itself :data:`LEASE` seconds after it was taken or last renewed, so a
worker killed in the middle of an import (gunicorn's timeout, a crash) frees it; a long import
(the command line has no time limit) renews it as it goes (:meth:`Claim.keep`).
"""

from __future__ import annotations

import os
import secrets
import socket
import time
from datetime import timedelta

import sqlalchemy as sa
from flask_babel import gettext as _
from sqlalchemy import or_, update
from sqlalchemy.dialects import postgresql as sa_pg
from sqlalchemy.dialects import sqlite as sa_sqlite
from sqlalchemy.exc import OperationalError

from referee.db import db
from referee.models import utcnow

#: Seconds a claim lives unless renewed: what a killed import makes the next one wait at most.
LEASE = 60
#: The Retry-After of a refused import, in seconds: the sentence says "in a minute".
RETRY_AFTER = 60
#: The one row's name.
NAME = "import"

#: Who imports now (``holder``, host:pid:nonce, kept after the claim ends to say who ran last)
#: and until when (``held_until``; NULL once done). This module's bookkeeping only, so declared
#: here, next to the statements that use it.
CLAIM = sa.Table(
    "import_claim",
    db.metadata,
    sa.Column("name", sa.String(16), primary_key=True),
    sa.Column("holder", sa.String(120), nullable=False),
    sa.Column("held_until", sa.DateTime(timezone=True), nullable=True),
)


class Busy(Exception):
    """Another import holds the claim: nothing was done; try again in a minute."""


def busy_sentence() -> str:
    """What the refused import reads, on the page and in the API."""
    return _("Another import is running; try again in a minute.")


class Claim:
    """This process's claim on importing, taken by :func:`take`."""

    def __init__(self, holder: str) -> None:
        self.holder = holder
        self.renewed = time.monotonic()

    def keep(self) -> None:
        """Renew the claim when a third of its lease has passed. On a connection of its own,
        so it may be called while ``db.session`` is elsewhere (the import's private database),
        but never while this process holds SQLite's write lock on another connection."""
        if time.monotonic() - self.renewed < LEASE / 3:
            return
        with db.engine.begin() as connection:
            connection.execute(
                update(CLAIM)
                .where(CLAIM.c.name == NAME, CLAIM.c.holder == self.holder)
                .values(held_until=utcnow() + timedelta(seconds=LEASE))
            )
        self.renewed = time.monotonic()

    def release(self) -> None:
        """End the claim (not one taken over since ours expired). Should SQLite stay busy past
        its timeout, the claim is left to lapse: the import itself is done."""
        db.session.rollback()
        try:
            db.session.execute(update(CLAIM).where(CLAIM.c.holder == self.holder).values(held_until=None))
            db.session.commit()
        except OperationalError:
            db.session.rollback()


def take() -> Claim:
    """Claim importing for this process, or raise :class:`Busy` when another import holds it.
    One UPDATE ... WHERE free, which the database runs for one writer at a time (PostgreSQL's
    row lock re-reads the WHERE for the second; SQLite has one writer at all): of two imports
    asking at once exactly one gets it. The row is made first if missing. Commits."""
    holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"[-120:]
    now = utcnow()
    make = sa_pg.insert if db.engine.dialect.name == "postgresql" else sa_sqlite.insert
    db.session.rollback()  # start with the write: a read first could not take SQLite's lock later
    connection = db.session.connection()  # Core: the UPDATE's rowcount is the answer
    try:
        connection.execute(make(CLAIM).values(name=NAME, holder="").on_conflict_do_nothing())
        done = connection.execute(
            update(CLAIM)
            .where(CLAIM.c.name == NAME, or_(CLAIM.c.held_until.is_(None), CLAIM.c.held_until < now))
            .values(holder=holder, held_until=now + timedelta(seconds=LEASE))
        )
    except OperationalError:  # SQLite busy past its timeout: as good as held
        db.session.rollback()
        raise Busy() from None
    db.session.commit()
    if done.rowcount != 1:
        raise Busy()
    return Claim(holder)
