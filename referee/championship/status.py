"""Who is in play: the entries the next draw seats, and the committee's decisions that leave a
player out of it.

A championship day loses players: one goes home after round 2 (withdrawn: he keeps the points
he made and is no longer drawn), one never turned up (absent: not drawn until he is marked
present), one is caught cheating (disqualified, with the reason: not drawn, and no place in
the ranking). Each can be taken back, since a committee errs too; each decision is a line of the
day's history, and the row keeps only the present state.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import select

from referee.db import db
from referee.models import Championship, Entry
from referee.rules.errors import InvalidInput, RulesError
from referee.rules.text import N_, Text

from . import history
from .lock import lock

#: The states that leave an entry out of the draws, with the short mark the ranking shows.
MARKS: Final[dict[str, str]] = {
    "withdrawn": N_("withdrawn"),
    "absent": N_("absent"),
    "disqualified": N_("disqualified"),
}

#: The history line of each change: leaving play for a state, or coming back from one.
LEAVING: Final[dict[str, str]] = {"withdrawn": "withdrawn", "absent": "absent", "disqualified": "disqualified"}
COMING_BACK: Final[dict[str, str]] = {"withdrawn": "returned", "absent": "present", "disqualified": "reinstated"}

REASON_MAX = 200


def in_play(championship: Championship, round_number: int) -> list[Entry]:
    """The entries round ``round_number``'s draw seats, by number: registered by then, and
    neither withdrawn, absent nor disqualified. The one place the draw asks who plays."""
    return list(
        db.session.scalars(
            select(Entry)
            .where(
                Entry.championship_id == championship.id,
                Entry.first_round <= round_number,
                Entry.status == "",
            )
            .order_by(Entry.number)
        )
    )


def change(championship: Championship, entry: Entry, status: object, reason: object = "", *, actor: str) -> None:
    """Put ``entry`` in ``status`` ("" brings him back into play), committed with its history
    line. A disqualification needs its reason; a state he is already in is refused."""
    if status != "" and status not in MARKS:
        raise InvalidInput(Text(N_("Choose withdrawn, absent or disqualified.")), field="status")
    why = " ".join(reason.split()) if isinstance(reason, str) else ""
    if status == "disqualified" and not why:
        raise RulesError(Text(N_("Write the reason for the disqualification.")), field="reason")
    if len(why) > REASON_MAX or not why.isprintable():
        raise InvalidInput(Text(N_("A reason is up to %(max)s letters."), max=REASON_MAX), field="reason")
    lock(championship)
    db.session.refresh(entry)
    if entry.status == status:
        if status == "":
            raise RulesError(Text(N_("%(name)s is already in play."), name=entry.name), field="status")
        raise RulesError(
            Text(N_("%(name)s is already %(state)s."), name=entry.name, state=Text(MARKS[str(status)])), field="status"
        )
    before = entry.status
    if before:  # a change of state is a return from the old one, then the new one
        history.record(championship, COMING_BACK[before], actor=actor, entry=entry, reason=entry.status_reason)
    if status:
        history.record(championship, LEAVING[str(status)], actor=actor, entry=entry, reason=why)
    entry.status = str(status)
    entry.status_reason = why if status == "disqualified" else ""
    db.session.commit()
