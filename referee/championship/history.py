"""The day's history: one line per thing the committee, a scorer or a fiscal did, with who and
when, in the order it happened.

A championship is judged after the fact: a player protests at the end of the day that his
re-entry was never his, or that a table's count was changed after it was signed. So the day
keeps every registration, re-entry, count, signature, reopening and correction as a
:class:`~referee.models.ChampEvent`, and the rows it changes (a count, a name) never carry the
only copy of what was there before. Each kind of line has one sentence, written once here, that
every page and export uses; a line is added inside the same transaction as the change it tells,
so there is never a change without its line nor a line without its change.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from flask_babel import gettext
from sqlalchemy import select

from referee.access import OWNER, SCORER, parse_actor
from referee.db import db
from referee.i18n import fmt_money
from referee.models import ChampEvent, Championship, Entry, RoundTable
from referee.rules.text import N_

#: The fiscal's role (``rounds.FISCAL``, which cannot be imported here: the rounds write history).
FISCAL: Final = "fiscal"

#: Every kind of line, with its sentence. The sentence is formatted with the line's ``detail``
#: and with ``name`` and ``number`` (the entry's), ``round`` and ``table``.
KINDS: Final[dict[str, str]] = {
    "registered": N_("%(name)s registered with number %(number)s."),
    "reentered": N_("%(name)s (no. %(number)s) re-entered in round %(round)s at table %(table)s."),
    "settings_changed": N_("Settings changed: %(changes)s."),
    "money_changed": N_("Money settings changed: %(changes)s."),
    "archived": N_("The championship was archived."),
    "unarchived": N_("The championship was taken out of the archive."),
    "reentry_undone": N_("The re-entry of %(name)s (no. %(number)s) in round %(round)s was undone."),
    "renamed": N_("No. %(number)s was renamed from %(old)s to %(new)s."),
    "withdrawn": N_("%(name)s (no. %(number)s) withdrew: no longer drawn."),
    "returned": N_("%(name)s (no. %(number)s) is back in the draws."),
    "absent": N_("%(name)s (no. %(number)s) was marked absent."),
    "present": N_("%(name)s (no. %(number)s) was marked present."),
    "disqualified": N_("%(name)s (no. %(number)s) was disqualified: %(reason)s"),
    "reinstated": N_("The disqualification of %(name)s (no. %(number)s) was lifted."),
    "entry_fee_received": N_("Entry fee of %(name)s (no. %(number)s) received: %(amount)s."),
    "entry_fee_unticked": N_("Entry fee of %(name)s (no. %(number)s) taken off the received (%(amount)s)."),
    "reentry_fee_received": N_("Re-entry fee of %(name)s (no. %(number)s), round %(round)s, received: %(amount)s."),
    "reentry_fee_unticked": N_(
        "Re-entry fee of %(name)s (no. %(number)s), round %(round)s, taken off the received (%(amount)s)."
    ),
    "counted": N_("Table %(table)s of round %(round)s counted: %(chips)s."),
    "signed": N_("Table %(table)s of round %(round)s signed off by its fiscal: %(chips)s."),
    "reopened": N_("Table %(table)s of round %(round)s reopened: its signature is set aside."),
    "cards_renewed": N_("New cards for table %(table)s (set %(generation)s): the old ones no longer work."),
    "prizes_set": N_("Prize table set: %(places)s places with a prize, %(total)s for the places."),
    "round_sealed": N_("The round is sealed: a round's points show once every table has signed off."),
    "round_unsealed": N_("The round is no longer sealed: provisional points show again."),
    "team_formed": N_("Team %(team)s formed with the numbers %(numbers)s."),
    "team_removed": N_("Team %(team)s undone (numbers %(numbers)s)."),
}

#: The money of the day: fees received and the fees, key and city set. The desk and the cash box
#: are the manager's, so are these lines; a watcher's history does not list them.
MANAGER_ONLY: Final = frozenset(
    {
        "money_changed",
        "entry_fee_received",
        "entry_fee_unticked",
        "reentry_fee_received",
        "reentry_fee_unticked",
    }
)

#: A count's and a signature's sentence while their round is sealed, for a reader who may not see
#: the chips yet (a sealed round hides its points until its last table signs off).
SEALED: Final[dict[str, str]] = {
    "counted": N_("Table %(table)s of round %(round)s counted (its chips show once the round's last table signs off)."),
    "signed": N_(
        "Table %(table)s of round %(round)s signed off by its fiscal (its chips show once the round's last "
        "table signs off)."
    ),
}

#: What every sentence may use besides the line's detail.
GIVEN = frozenset({"name", "number", "round", "table"})

#: Detail keys that lines written before they were kept lack, with the given value such a line
#: reads instead: a rename kept only the former name, so its new name reads as the entry's name now.
LATER: Final[dict[str, str]] = {"new": "name"}

#: The longest text a line's detail may carry (a reason, a former name).
DETAIL_TEXT_MAX = 200


def record(
    championship: Championship,
    kind: str,
    *,
    actor: str = "",
    entry: Entry | None = None,
    round: int | None = None,  # noqa: A002 - the model's own name for it
    table: int | None = None,
    **detail: str | int | None,
) -> ChampEvent:
    """Add a line to the day's history, uncommitted: the caller commits it with its change."""
    if kind not in KINDS:
        raise ValueError(f"unknown championship history kind {kind!r}")
    line = ChampEvent(
        championship_id=championship.id,
        kind=kind,
        actor=actor[:60],
        entry_id=None if entry is None else entry.id,
        round=round,
        table=table,
        detail={key: value[:DETAIL_TEXT_MAX] if isinstance(value, str) else value for key, value in detail.items()},
    )
    db.session.add(line)
    return line


def needs(kind: str) -> set[str]:
    """The detail keys a kind's sentence cannot do without (a backup's line must carry them, or its
    sentence could not be written)."""
    return set(re.findall(r"%\((\w+)\)", KINDS[kind])) - GIVEN - LATER.keys()


def lines(
    championship: Championship,
    *,
    entry_id: int | None = None,
    round: int | None = None,  # noqa: A002
    table: int | None = None,
) -> list[ChampEvent]:
    """The day's lines, oldest first, narrowed to one entry, one round or one round's table."""
    query = select(ChampEvent).where(ChampEvent.championship_id == championship.id)
    if entry_id is not None:
        query = query.where(ChampEvent.entry_id == entry_id)
    if round is not None:
        query = query.where(ChampEvent.round == round)
    if table is not None:
        query = query.where(ChampEvent.table == table)
    return list(db.session.scalars(query.order_by(ChampEvent.at, ChampEvent.id)))


def sentence(line: ChampEvent, entries: Mapping[int, Entry], *, hide_chips: bool = False) -> str:
    """The line as a sentence in the reader's language (``entries`` by id, for the names); with
    ``hide_chips``, a count or a signature without its chips."""
    if hide_chips and line.kind in SEALED:
        return gettext(SEALED[line.kind], round=line.round or "", table=line.table or "")
    entry = entries.get(line.entry_id) if line.entry_id is not None else None
    values: dict[str, Any] = {
        "name": entry.name if entry is not None else "",
        "number": entry.number if entry is not None else "",
        "round": line.round if line.round is not None else "",
        "table": line.table if line.table is not None else "",
        **(line.detail or {}),
    }
    for key, instead in LATER.items():
        values.setdefault(key, values[instead])
    if isinstance(values.get("amount"), str):  # money travels as a decimal string
        values["amount"] = fmt_money(values["amount"])
    return gettext(KINDS[line.kind], **values)


def note(line: ChampEvent) -> str:
    """The words someone typed with the line (a reason) when its sentence does not already carry
    them: a reopening's reason is optional, and a sentence cannot leave a hole where it is not."""
    reason = (line.detail or {}).get("reason")
    if not isinstance(reason, str) or "%(reason)s" in KINDS[line.kind]:
        return ""
    return reason


def sealed_rounds(championship: Championship) -> frozenset[int]:
    """The rounds whose chips a watcher may not read yet: with the seal on, those with a table not
    signed off (the rounds :func:`~referee.championship.ranking.visible_standings` holds back)."""
    if not championship.sealed:
        return frozenset()
    return frozenset(
        db.session.scalars(
            select(RoundTable.round).where(
                RoundTable.championship_id == championship.id, RoundTable.signed_at.is_(None)
            )
        )
    )


def readable(found: list[ChampEvent], *, manager: bool) -> list[ChampEvent]:
    """The lines a reader may see: the money of the day only for the manager (a sealed round's
    chips are hidden line by line, by :func:`sentence`)."""
    return [line for line in found if manager or line.kind not in MANAGER_ONLY]


@dataclass(frozen=True)
class Who:
    """A line's author as the committee reads him, and the short id of the phone it came from."""

    label: str
    device: str


def seats(championship: Championship) -> dict[int, int]:
    """The table number each scorer's and fiscal's access belongs to (access id → table)."""
    found: dict[int, int] = {}
    for number, scorer, fiscal in db.session.execute(
        select(RoundTable.number, RoundTable.scorer_access, RoundTable.fiscal_access).where(
            RoundTable.championship_id == championship.id
        )
    ):
        for access_id in (scorer, fiscal):
            if access_id is not None:
                found[access_id] = number
    return found


def who(code: str, tables: Mapping[int, int]) -> Who:
    """The stored actor code ("manager@fa9de6", "fiscal:4@4c49d2") as "Committee", "Fiscal of
    table 2" (``tables``: :func:`seats`); a code it does not know, as it was stored."""
    if not code:
        return Who("", "")
    read = parse_actor(code)
    labels = {
        SCORER: (N_("Scorer of table %(table)s"), N_("Scorer")),
        FISCAL: (N_("Fiscal of table %(table)s"), N_("Fiscal")),
    }
    table = tables.get(read.access_id) if read.access_id is not None else None
    if read.role in ("manager", OWNER):
        label = gettext("Committee")
    elif read.role in labels and table is not None:
        label = gettext(labels[read.role][0], table=table)
    elif read.role in labels:
        label = gettext(labels[read.role][1])
    else:
        return Who(code, "")
    return Who(label, read.device)
