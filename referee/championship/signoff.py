"""A round's table closes: its chips add up, and its fiscal signs it off.

A table recorded hand by hand counts its chips from the hands: every stack is the chips each
player received (his entry's and his re-entries') plus his net over the live hands, and since
every hand moves chips from some players to others, they always add up; what can still be wrong
is a player below zero (he played on without the re-entry he needed) or, in a round of a set
number of deals, deals still to play. A paper table brings its final counts instead, and they
must add up to the table's stock (the chips handed out: entries and re-entries) or are refused
with the difference.

The sign-off is two-key: it takes the table's fiscal access, which is not the scorer's; the
scorer's phone cannot sign, and the fiscal's phone cannot record hands or counts. Signing closes
the Referee table (no hand, void or correction after it); the manager can reopen it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import func, select

from referee import ledger
from referee.access import Grant
from referee.db import db
from referee.models import Championship, Entry, Hand, Reentry, RoundTable, Seat, Table, utcnow, voided
from referee.rules.errors import InvalidInput, RulesError
from referee.rules.text import N_, Text

from . import history
from .entries import live, reentries_at
from .lock import lock
from .rounds import FISCAL, current_round
from .trail import chips_text


@dataclass(frozen=True)
class ChipCount:
    """A round table's chips now: per entry id, the stock they must add up to, where they come
    from ("hands" or "counts", or "" before anything was recorded) and the deals played."""

    chips: dict[int, int]
    stock: int
    source: str
    deals: int

    @property
    def total(self) -> int:
        return sum(self.chips.values())


def _take(championship: Championship, row: RoundTable) -> None:
    """Lock the championship for this write and read the table's row as it is now (a count or a
    signature another phone made a moment ago)."""
    lock(championship)
    db.session.refresh(row)


def final_chips(
    championship: Championship, row: RoundTable, bought: Mapping[int, int], nets: Mapping[int, int]
) -> dict[int, int]:
    """Each player's chips at a round's table (by entry id): a paper table's counts, else the
    chips he received (his entry's and his re-entries', ``bought``) plus his net over the live
    hands (``nets``, by seat position). The one place the ranking and the sign-off count them."""
    if row.counts is not None:
        return {int(k): int(v) for k, v in row.counts.items()}
    return {
        entry_id: championship.chips + bought.get(entry_id, 0) + int(nets.get(position, 0))
        for position, entry_id in enumerate(row.entries)
    }


def _count(
    championship: Championship, row: RoundTable, bought: Mapping[int, int], nets: Mapping[int, int], deals: int
) -> ChipCount:
    """A table's chips from what was read: the re-entries' chips per entry id, the seats' nets by
    position, the live deals."""
    stock = championship.chips * len(row.entries) + sum(bought.get(entry_id, 0) for entry_id in row.entries)
    source = "counts" if row.counts is not None else "hands" if deals else ""
    return ChipCount(final_chips(championship, row, bought, nets), stock, source, deals)


def chip_count(championship: Championship, row: RoundTable, table: Table) -> ChipCount:
    """One table's chips now."""
    nets = dict(db.session.execute(select(Seat.position, Seat.net).where(Seat.table_id == table.id)).all())
    return _count(championship, row, reentries_at(row), nets, ledger.live_hands(table))


def round_counts(championship: Championship, rows: Sequence[RoundTable]) -> dict[int, ChipCount]:
    """The chips of a round's tables (by RoundTable id) in three queries, whatever their number:
    the manager's page lists 75 tables."""
    if not rows:
        return {}
    ids = [row.table_id for row in rows]
    nets: dict[str, dict[int, int]] = defaultdict(dict)
    for table_id, position, net in db.session.execute(
        select(Seat.table_id, Seat.position, Seat.net).where(Seat.table_id.in_(ids))
    ):
        nets[table_id][position] = net
    deals = dict(
        db.session.execute(
            select(Hand.table_id, func.count()).where(Hand.table_id.in_(ids), ~voided()).group_by(Hand.table_id)
        ).all()
    )
    bought = dict(
        db.session.execute(
            live(select(Reentry.entry_id, func.sum(Reentry.chips)))
            .where(Reentry.championship_id == championship.id, Reentry.round == rows[0].round)
            .group_by(Reentry.entry_id)
        ).all()
    )
    return {row.id: _count(championship, row, bought, nets[row.table_id], deals.get(row.table_id, 0)) for row in rows}


def _chips(raw: object, *, field: str) -> int:
    if isinstance(raw, str) and raw.strip().isascii() and raw.strip().isdigit() and len(raw.strip()) <= 7:
        raw = int(raw.strip())
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise InvalidInput(Text(N_("Each player's chips are a whole number, 0 or more.")), field=field)
    return raw


def _difference(total: int, stock: int) -> Text:
    if total < stock:
        return Text(
            N_("The chips add up to %(total)s and the table has %(stock)s: %(gap)s missing. Count again."),
            total=total,
            stock=stock,
            gap=stock - total,
        )
    return Text(
        N_("The chips add up to %(total)s and the table has %(stock)s: %(gap)s too many. Count again."),
        total=total,
        stock=stock,
        gap=total - stock,
    )


def enter_counts(
    championship: Championship, row: RoundTable, table: Table, raw: Mapping[int, object], *, actor: str
) -> None:
    """Store a paper table's final counts (committed), or refuse them with a sentence: every
    player counted, whole chips, adding up to the stock, on a table that records no hands and is
    not signed off. Counting again replaces the counts (until the sign-off); each count stays as a
    line of the day's history."""
    _take(championship, row)
    if row.signed_at is not None:
        raise RulesError(Text(N_("This table was signed off: its chips can no longer change.")))
    if ledger.live_hands(table):
        raise RulesError(
            Text(N_("This table records its hands: its chips are counted from them, not typed.")), field="counts"
        )
    counts = {entry_id: _chips(raw.get(entry_id), field=f"chips_{entry_id}") for entry_id in row.entries}
    stock = chip_count(championship, row, table).stock
    if sum(counts.values()) != stock:
        raise RulesError(_difference(sum(counts.values()), stock), field="counts")
    row.counts = {str(k): v for k, v in counts.items()}
    row.counted_by = actor[:60]
    history.record(
        championship, "counted", actor=actor, round=row.round, table=row.number, chips=chips_text(counts, row.entries)
    )
    db.session.commit()


def problems(championship: Championship, row: RoundTable, table: Table, count: ChipCount | None = None) -> Text | None:
    """Why the table cannot be signed off yet, or None (``count``: its chips, when already read)."""
    count = count or chip_count(championship, row, table)
    if not count.source:
        return Text(N_("Nothing was recorded at this table yet: its hands, or its final chips."))
    if count.source == "counts" and count.deals:
        return Text(N_("Hands were recorded after the final chips were typed: void them, or type the chips again."))
    if count.total != count.stock:
        return _difference(count.total, count.stock)
    names = dict(db.session.execute(select(Entry.id, Entry.name).where(Entry.id.in_(row.entries))).all())
    short = next((entry_id for entry_id, chips in count.chips.items() if chips < 0), None)
    if short is not None:
        return Text(
            N_("%(name)s ends with %(chips)s chips: record his re-entry, or correct the hands."),
            name=names.get(short, ""),
            chips=count.chips[short],
        )
    if count.source == "hands" and table.deals is not None and not ledger.deals_done(table, count.deals):
        return Text(
            N_("This table has played %(played)s of its %(deals)s deals."), played=count.deals, deals=table.deals
        )
    if count.source == "hands" and table.two_key and ledger.to_confirm(ledger.recent_hands(table, 50)):
        return Text(N_("A hand is still waiting for its confirmation."))
    return None


def is_fiscal(row: RoundTable, grant: Grant) -> bool:
    """The phone came in through this table's fiscal access (and nothing else signs)."""
    return grant.role == FISCAL and grant.access_id is not None and grant.access_id == row.fiscal_access


def sign(championship: Championship, row: RoundTable, table: Table, grant: Grant, *, actor: str) -> None:
    """The fiscal's signature (committed): the table's chips become the round's points, and the
    chips he signed stay in the day's history whatever happens to the table later."""
    _take(championship, row)
    if not is_fiscal(row, grant):
        raise RulesError(Text(N_("Only this table's fiscal signs it off, from the fiscal's card.")))
    if row.signed_at is not None:
        raise RulesError(Text(N_("This table is already signed off.")))
    problem = problems(championship, row, table)
    if problem is not None:
        raise RulesError(problem)
    signed = chip_count(championship, row, table).chips
    ledger.finish_table(table)
    row.signed_at = utcnow()
    row.signed_by = actor[:60]
    history.record(
        championship, "signed", actor=actor, round=row.round, table=row.number, chips=chips_text(signed, row.entries)
    )
    db.session.commit()


def reopen(championship: Championship, row: RoundTable, table: Table, *, actor: str, reason: str = "") -> None:
    """The manager takes a signature back (a slip found after it): the table takes hands, counts
    and a new signature again. Refused once the next round is drawn, whose seating it fed. The
    signature set aside stays in the day's history, with the reason the manager gave, if any."""
    if len(reason.strip()) > history.DETAIL_TEXT_MAX:
        raise InvalidInput(
            Text(N_("Say the reason in %(max)s characters at most."), max=history.DETAIL_TEXT_MAX), field="reason"
        )
    _take(championship, row)
    if row.signed_at is None:
        raise RulesError(Text(N_("This table is not signed off.")))
    if current_round(championship) > row.round:
        raise RulesError(Text(N_("The next round is already drawn: this table's result stays.")))
    ledger.reopen_table(table)
    row.signed_at = None
    row.signed_by = ""
    history.record(championship, "reopened", actor=actor, round=row.round, table=row.number, reason=reason.strip())
    db.session.commit()
