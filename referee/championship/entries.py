"""Registration and re-entries.

Every entry gets the next number (its card and its line in the ranking). A name typed finds the
club member of that name as at any table, so the championship's tables count in his league
standings and ratings. New entries are taken until the round the manager set has been played: a
late entry sits from the next round drawn, and counts no points for the rounds he missed.

A re-entry is a new stack (the championship's chips) for a player who ran out during a round,
recorded with his table's round: the table's stock grows by it, and the championship's setting
says whether those chips count as points (:data:`~.settings.REENTRY_POINTS`). A card number
mistyped at the desk must never make a fiscal invent chips to balance his table: the desk sees
the player's name and table before it records anything, and a re-entry is undone (kept, marked
undone, counted nowhere) until his table is signed off.

"Out" at a table recorded hand by hand is his chips there, read from the hands: none left at
the trick games (Jubileu, Quatrilho: a hand is paid after it is played), fewer than the ante at
the games that ante before the deal (Injun, Kentucky Derby, Lift Smoke). A paper table's chips
are known only at the end, so there the desk takes the fiscal's word. A round takes as many re-entries per
player as the championship's limit, or any number where it has none.
"""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from referee import ledger, members
from referee.db import db
from referee.ledger.cleaning import clean_name
from referee.ledger.errors import Conflict
from referee.models import Championship, Entry, Reentry, RoundTable, Seat, Table, utcnow
from referee.rules import get_game
from referee.rules.errors import RulesError
from referee.rules.text import N_, NP_, Text

from . import history
from .lock import lock
from .rounds import current_round, seat_of

#: When a table recorded hand by hand takes a re-entry, with the sentence the form and the
#: pages state. "out" is the reading a referee defends (a re-entry is for a player who cannot go
#: on); "asked" follows the regulations that let a player re-enter whenever he wants.
REENTRY_WHEN: Final[dict[str, str]] = {
    "out": N_("Only a player who is out: no chips left (at Injun, Kentucky Derby and Lift Smoke, fewer than the ante)"),
    "asked": N_("Whenever the player asks, chips left or not"),
}


def register(championship: Championship, name: object, *, actor: str = "") -> Entry:
    """A new entry with the next number (committed), in the day's history."""
    clean = clean_name(name, field="name")
    key = members.name_key(clean)
    lock(championship)
    drawn = current_round(championship)
    if drawn > championship.late_until or drawn >= championship.rounds:
        raise RulesError(Text(N_("Registration is closed: round %(round)s has been drawn."), round=drawn), field="name")
    _name_free(championship, key)
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


def _name_free(championship: Championship, key: str, *, but: Entry | None = None) -> None:
    """Refuse a name another entry already has (the same key: case and accents aside)."""
    taken = db.session.scalar(select(Entry).where(Entry.championship_id == championship.id, Entry.name_key == key))
    if taken is not None and taken is not but:
        raise RulesError(
            Text(
                N_("%(name)s is already registered, number %(number)s: add a surname to tell them apart."),
                name=taken.name,
                number=taken.number,
            ),
            field="name",
        )


def rename(championship: Championship, entry: Entry, name: object, *, actor: str) -> None:
    """Correct an entry's name (committed, with the old name in the history line): the member
    behind it follows the new name as registration would find it, and so do the seats of his
    tables not signed off where no hand was recorded yet. A table with hands keeps the name its
    hands were recorded with (a hand's record names its players), as every Referee table does."""
    clean = clean_name(name, field="name")
    key = members.name_key(clean)
    lock(championship)
    db.session.refresh(entry)
    if clean == entry.name:
        raise RulesError(Text(N_("That is already his name.")), field="name")
    _name_free(championship, key, but=entry)
    old = entry.name
    member = members.resolve([clean])[0]
    entry.name, entry.name_key, entry.member_id = clean, key, member.id
    for row in db.session.scalars(
        select(RoundTable).where(RoundTable.championship_id == championship.id, RoundTable.signed_at.is_(None))
    ):
        if entry.id not in row.entries:
            continue
        table = db.session.get(Table, row.table_id)
        if table is None or table.hands:
            continue
        seat = db.session.scalar(
            select(Seat).where(Seat.table_id == row.table_id, Seat.position == row.entries.index(entry.id))
        )
        if seat is not None:
            seat.name, seat.member_id = clean, member.id
    history.record(championship, "renamed", actor=actor, entry=entry, old=old, new=clean)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(Text(N_("Another phone changed the players at the same moment: try again."))) from None


def card_number(championship: Championship, number: object) -> Entry | None:
    """The entry with this card number, or None."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 100_000:
        return None
    return db.session.scalar(select(Entry).where(Entry.championship_id == championship.id, Entry.number == number))


def live(query: Any) -> Any:
    """``query`` on re-entries, narrowed to those not undone: the only ones that count."""
    return query.where(Reentry.undone_at.is_(None))


def chips_now(championship: Championship, row: RoundTable, entry: Entry) -> int | None:
    """``entry``'s chips at a table recorded hand by hand, read from its hands (his entry's
    chips, his live re-entries', his net); None at a table with no hand (a paper table, or
    nothing played yet), whose chips only its fiscal knows."""
    table = db.session.get(Table, row.table_id)
    if table is None or not ledger.live_hands(table):
        return None
    net = db.session.scalar(
        select(Seat.net).where(Seat.table_id == row.table_id, Seat.position == row.entries.index(entry.id))
    )
    return championship.chips + reentries_at(row).get(entry.id, 0) + int(net or 0)


def out_below(championship: Championship) -> int:
    """The chips under which a player is out at his game: the ante where the game antes before
    each deal (he cannot put it in: :attr:`~referee.rules.game.Game.ante_option`), else one
    (nothing left to pay a hand with)."""
    ante = get_game(championship.game).ante_in(championship.options)
    return max(1, ante) if isinstance(ante, int) and not isinstance(ante, bool) else 1


#: Why a player out of play cannot re-enter, by his status (:mod:`.status`): a re-entry buys
#: chips to play on, and he is not playing.
NOT_IN_PLAY: Final[dict[str, str]] = {
    "disqualified": N_("%(name)s is disqualified."),
    "withdrawn": N_("%(name)s withdrew from the day: bring him back into the draws before a re-entry."),
    "absent": N_("%(name)s is marked absent: mark him present before a re-entry."),
}


def reentry_table(championship: Championship, entry: Entry) -> RoundTable:
    """The table ``entry`` would re-enter at, or the sentence that refuses it: he must be
    seated in the round being played, at a table not yet signed off, within the round's
    re-entries allowed and, at a table recorded hand by hand, out of chips (unless the
    championship takes a re-entry whenever the player asks)."""
    if entry.status:
        raise RulesError(Text(NOT_IN_PLAY[entry.status], name=entry.name), field="entry")
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
    already = db.session.scalar(
        live(select(func.count()).where(Reentry.entry_id == entry.id, Reentry.round == round_number))
    )
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
    if championship.reentry_when == "out":
        chips = chips_now(championship, seated, entry)
        if chips is not None and chips >= out_below(championship):
            raise RulesError(
                Text(
                    N_("%(name)s still has %(chips)s chips at table %(table)s: a re-entry is for a player who is out."),
                    name=entry.name,
                    chips=chips,
                    table=seated.number,
                ),
                field="entry",
            )
    return seated


def reenter(championship: Championship, entry: Entry, *, actor: str = "") -> Reentry:
    """A new stack for ``entry`` in the current round (committed), when :func:`reentry_table`
    allows it."""
    lock(championship)
    seated = reentry_table(championship, entry)
    row = Reentry(
        championship_id=championship.id, entry_id=entry.id, round=seated.round, chips=championship.chips, actor=actor
    )
    db.session.add(row)
    history.record(championship, "reentered", actor=actor, entry=entry, round=seated.round, table=seated.number)
    db.session.commit()
    return row


def undo_reentry(championship: Championship, row: Reentry, *, actor: str) -> Entry:
    """Take a re-entry back (committed): kept, marked undone with who and when, counted nowhere
    after. Refused once his table is signed off (its chips are the round's points)."""
    lock(championship)
    db.session.refresh(row)
    entry = db.session.get(Entry, row.entry_id)
    assert entry is not None
    if row.undone_at is not None:
        raise Conflict(Text(N_("This re-entry was already undone.")))
    seated = seat_of(championship, row.round, entry)
    if seated is not None and seated.signed_at is not None:
        raise RulesError(
            Text(N_("Table %(table)s was signed off: its chips can no longer change."), table=seated.number)
        )
    if row.fee_paid is not None:
        # The money was taken: the desk gives it back (and takes the tick off) first, so the
        # cash box never holds a fee for a re-entry that no longer exists.
        raise RulesError(
            Text(N_("Its fee was received: give it back and take the tick off at the desk first, then undo it."))
        )
    row.undone_at = utcnow()
    row.undone_by = actor[:60]
    history.record(
        championship,
        "reentry_undone",
        actor=actor,
        entry=entry,
        round=row.round,
        table=None if seated is None else seated.number,
    )
    db.session.commit()
    return entry


def reentries_at(table: RoundTable) -> dict[int, int]:
    """The chips re-entries brought to a round's table, per entry id."""
    rows = db.session.execute(
        live(select(Reentry.entry_id, func.sum(Reentry.chips)))
        .where(
            Reentry.championship_id == table.championship_id,
            Reentry.round == table.round,
            Reentry.entry_id.in_(table.entries),
        )
        .group_by(Reentry.entry_id)
    )
    return {entry_id: int(chips) for entry_id, chips in rows}
