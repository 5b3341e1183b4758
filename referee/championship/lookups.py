"""What the championship's pages look up, each a question asked of the database with a name
saying what it fetches.

The pages (referee.views.championship*) show and check; the queries they need live here, below
them, with the rest of the championship's storage, so a page reads as what it shows and a query
can change (an index, a join) without touching a page.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import func, select

from referee.db import db
from referee.models import Access, Championship, ChampRound, Entry, Reentry, RoundTable, Table


def all_championships() -> list[Championship]:
    """Every championship of the club, newest first."""
    return list(db.session.scalars(select(Championship).order_by(Championship.created_at.desc())))


def round_table(found: Championship, round_number: int, table_number: int) -> RoundTable | None:
    """Table ``table_number`` of round ``round_number``, if the draw made it."""
    return db.session.scalar(
        select(RoundTable).where(
            RoundTable.championship_id == found.id,
            RoundTable.round == round_number,
            RoundTable.number == table_number,
        )
    )


def round_tables_of(found: Championship) -> list[RoundTable]:
    """Every round table of the championship, round by round."""
    return list(
        db.session.scalars(select(RoundTable).where(RoundTable.championship_id == found.id).order_by(RoundTable.round))
    )


def unsigned_tables(found: Championship, round_number: int) -> int:
    """How many tables of the round still wait for the fiscal's signature."""
    return (
        db.session.scalar(
            select(func.count()).where(
                RoundTable.championship_id == found.id,
                RoundTable.round == round_number,
                RoundTable.signed_at.is_(None),
            )
        )
        or 0
    )


def drawn_round(found: Championship, number: int) -> ChampRound | None:
    """Round ``number`` as drawn (its seed), if it was."""
    return db.session.scalar(
        select(ChampRound).where(ChampRound.championship_id == found.id, ChampRound.number == number)
    )


def entries_by_id(found: Championship) -> dict[int, Entry]:
    """The championship's entries, by id."""
    return {e.id: e for e in db.session.scalars(select(Entry).where(Entry.championship_id == found.id))}


def entries_by_number(found: Championship) -> list[Entry]:
    """The championship's entries in card-number order."""
    return list(db.session.scalars(select(Entry).where(Entry.championship_id == found.id).order_by(Entry.number)))


def entry(entry_id: int) -> Entry | None:
    return db.session.get(Entry, entry_id)


def reentry(reentry_id: int) -> Reentry | None:
    return db.session.get(Reentry, reentry_id)


def reentries_of(entry: Entry) -> list[Reentry]:
    """An entry's re-entries, oldest first (the undone ones too)."""
    return list(db.session.scalars(select(Reentry).where(Reentry.entry_id == entry.id).order_by(Reentry.id)))


def reentered_in(found: Championship, round_number: int | None) -> set[int]:
    """The entries with a live re-entry in the round (by entry id)."""
    return set(
        db.session.scalars(
            select(Reentry.entry_id).where(
                Reentry.championship_id == found.id, Reentry.round == round_number, Reentry.undone_at.is_(None)
            )
        )
    )


def referee_table(table_id: str) -> Table | None:
    """The Referee table a round table is played at."""
    return db.session.get(Table, table_id)


def referee_tables(rows: Iterable[RoundTable]) -> dict[str, Table]:
    """The Referee tables of these round tables, by id."""
    return {t.id: t for t in db.session.scalars(select(Table).where(Table.id.in_([r.table_id for r in rows])))}


def way_in(access_id: int | None) -> Access | None:
    """A way in (a scoring link, a fiscal's card) by its id."""
    return None if access_id is None else db.session.get(Access, access_id)
