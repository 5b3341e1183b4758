"""A round table's trail: every count, signature, reopening and re-entry it had, with who and when.

A paper table can be counted again, signed, reopened and signed again; the row keeps only what
stands now, so a protest ("my 120 were written down as 80, and then it was signed") is answered
from the history lines this module reads back for one table. A line that a later one set aside is
kept and marked: a count by the next count, a signature by the next reopening (as a table's
voided hands stay on its page, struck through).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from referee.db import db
from referee.models import Championship, Entry, RoundTable

from . import history
from .history import DETAIL_TEXT_MAX

#: What sets a line aside: a later line of this kind at the same table.
REPLACED_BY = {"counted": "counted", "signed": "reopened"}


@dataclass(frozen=True)
class TrailLine:
    """One line of a table's trail, ready to show."""

    at: datetime
    actor: history.Who
    kind: str
    text: str
    note: str
    replaced: bool


def chips_text(chips: Mapping[int, int], order: list[int]) -> str:
    """A table's chips as one short line in seat order, "Ana 120 · Bia 80 · …", kept in a history
    line's detail; with card numbers instead of names ("nº 3: 120") where the names would not fit."""
    seated = {
        e: (number, name)
        for e, number, name in db.session.execute(select(Entry.id, Entry.number, Entry.name).where(Entry.id.in_(order)))
    }
    text = " · ".join(f"{seated[e][1]} {chips.get(e, 0)}" for e in order)
    if len(text) <= DETAIL_TEXT_MAX:
        return text
    return " · ".join(f"nº {seated[e][0]}: {chips.get(e, 0)}" for e in order)


def table_trail(
    championship: Championship, row: RoundTable, entries: Mapping[int, Entry], *, hide_chips: bool = False
) -> list[TrailLine]:
    """The table's lines, newest first, each marked ``replaced`` when a later line set it aside
    (``entries`` by id, for the names in the sentences); ``hide_chips`` while its round is sealed
    to this reader."""
    lines = history.lines(championship, round=row.round, table=row.number)
    tables = history.seats(championship)
    shown: list[TrailLine] = []
    later: set[str] = set()
    for line in reversed(lines):
        shown.append(
            TrailLine(
                at=line.at,
                actor=history.who(line.actor, tables),
                kind=line.kind,
                text=history.sentence(line, entries, hide_chips=hide_chips),
                note=history.note(line),
                replaced=REPLACED_BY.get(line.kind) in later,
            )
        )
        later.add(line.kind)
    return shown
