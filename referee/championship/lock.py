"""Taking a championship for one write.

Every module that changes a championship (its settings, entries, fees, draws, cards, sign-offs)
takes it here first; it sits below all of them, so the fees' desk (:mod:`.money`), which the
settings read, does not import the settings back.
"""

from __future__ import annotations

from sqlalchemy import update

from referee.db import db
from referee.models import Championship
from referee.rules.errors import RulesError
from referee.rules.text import N_, Text


def lock(championship: Championship, *, archived_ok: bool = False) -> None:
    """Take the championship for one write, first thing: its version moves on (the pages
    following it redraw) in an UPDATE that holds the row (PostgreSQL) or the database's write
    lock (SQLite) until the transaction ends, so two phones registering, drawing or signing at
    the same moment take turns, and each decides on what the other wrote. An archived
    championship refuses the write, unless it is the one that takes it out of the archive
    (``archived_ok``)."""
    db.session.execute(
        update(Championship).where(Championship.id == championship.id).values(version=Championship.version + 1)
    )
    db.session.refresh(championship)
    if championship.archived_at is not None and not archived_ok:
        db.session.rollback()  # the version's move with it: nothing is written
        raise RulesError(Text(N_("This championship is archived: it can be read, not changed.")))
