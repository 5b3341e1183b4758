"""Registration and re-entries.

Every entry gets the next number (its card and its line in the ranking). A name typed finds the
club member of that name as at any table, so the championship's tables count in his league
standings and ratings. New entries are taken until the round the manager set has been played: a
late entry sits from the next round drawn, and counts no points for the rounds he missed.

A re-entry is a new stack (the championship's chips) for a player who ran out during a round,
recorded with his table's round: the table's stock grows by it, and the championship's setting
says whether those chips count as points (:data:`~.settings.REENTRY_POINTS`). A round takes as
many re-entries per player as the championship's limit, or any number where it has none.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from referee import members
from referee.db import db
from referee.ledger.cleaning import clean_name
from referee.ledger.errors import Conflict
from referee.models import Championship, Entry, Reentry, RoundTable
from referee.rules.errors import RulesError
from referee.rules.text import N_, NP_, Text

from . import history
from .rounds import current_round, seat_of
from .settings import lock


def register(championship: Championship, name: object, *, actor: str = "") -> Entry:
    """A new entry with the next number (committed), in the day's history."""
    clean = clean_name(name, field="name")
    key = members.name_key(clean)
    lock(championship)
    drawn = current_round(championship)
    if drawn > championship.late_until or drawn >= championship.rounds:
        raise RulesError(Text(N_("Registration is closed: round %(round)s has been drawn."), round=drawn), field="name")
    taken = db.session.scalar(select(Entry).where(Entry.championship_id == championship.id, Entry.name_key == key))
    if taken is not None:
        raise RulesError(
            Text(
                N_("%(name)s is already registered, number %(number)s: add a surname to tell them apart."),
                name=taken.name,
                number=taken.number,
            ),
            field="name",
        )
    number = (
        db.session.scalar(select(func.max(Entry.number)).where(Entry.championship_id == championship.id)) or 0
    ) + 1
    member = members.resolve([clean])[0]
    entry = Entry(
        championship_id=championship.id,
        number=number,
        name=clean,
        name_key=key,
        member_id=member.id,
        first_round=drawn + 1,
    )
    db.session.add(entry)
    try:
        db.session.flush()
        history.record(championship, "registered", actor=actor, entry=entry, round=drawn or None)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(Text(N_("Another phone registered a player at the same moment: register again."))) from None
    return entry


def card_number(championship: Championship, number: object) -> Entry | None:
    """The entry with this card number, or None."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 100_000:
        return None
    return db.session.scalar(select(Entry).where(Entry.championship_id == championship.id, Entry.number == number))


def reenter(championship: Championship, entry: Entry, *, actor: str = "") -> Reentry:
    """A new stack for ``entry`` in the current round (committed): he must be seated in it, at a
    table not yet signed off, within the round's re-entries allowed."""
    lock(championship)
    round_number = current_round(championship)
    seated = seat_of(championship, round_number, entry) if round_number else None
    if seated is None:
        raise RulesError(Text(N_("%(name)s has no table in the round being played."), name=entry.name), field="entry")
    if seated.signed_at is not None:
        raise RulesError(
            Text(N_("Table %(table)s was signed off: its chips can no longer change."), table=seated.number),
            field="entry",
        )
    if championship.reentries == 0:
        raise RulesError(Text(N_("This championship takes no re-entries.")), field="entry")
    already = db.session.scalar(select(func.count()).where(Reentry.entry_id == entry.id, Reentry.round == round_number))
    if championship.reentries is not None and already >= championship.reentries:
        raise RulesError(
            Text(
                *NP_(
                    "%(name)s already re-entered this round, as many times as the rules allow.",
                    "%(name)s already re-entered %(count)s times this round, as many as the rules allow.",
                ),
                name=entry.name,
                count=already,
            ),
            field="entry",
        )
    row = Reentry(
        championship_id=championship.id, entry_id=entry.id, round=round_number, chips=championship.chips, actor=actor
    )
    db.session.add(row)
    history.record(championship, "reentered", actor=actor, entry=entry, round=round_number, table=seated.number)
    db.session.commit()
    return row


def reentries_at(table: RoundTable) -> dict[int, int]:
    """The chips re-entries brought to a round's table, per entry id."""
    rows = db.session.execute(
        select(Reentry.entry_id, func.sum(Reentry.chips))
        .where(
            Reentry.championship_id == table.championship_id,
            Reentry.round == table.round,
            Reentry.entry_id.in_(table.entries),
        )
        .group_by(Reentry.entry_id)
    )
    return {entry_id: int(chips) for entry_id, chips in rows}
