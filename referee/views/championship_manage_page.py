"""The championship manager's page as drawn again after a write: its context (the round's tables
and where each stands, the registrations, the money desk's panel) and a refusal shown on it. The
manager's, the cards' and the settings' pages answer with it; the money desk draws its fee
cards with :func:`desk_line`.
"""

from __future__ import annotations

from typing import Any

from flask import render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee import championship, ledger, members
from referee.championship import lookups, money, signoff
from referee.championship.status import MARKS
from referee.i18n import fmt_money, render_text
from referee.models import Championship
from referee.views.championship_pages import common, names


def desk_link(found: Championship, kind: str, ref: int) -> str | None:
    """The ``desk`` argument the manage page is sent back with right after an entry or a
    re-entry is recorded, so its fee shows there at once; None when the day charges none."""
    if not money.charges(found) or money.fee_of(found, "entry" if kind == "entry" else "reentry") <= 0:
        return None
    return f"{kind}-{ref}"


def desk_line(found: Championship, line: money.Item, back: str) -> dict[str, Any]:
    """What a desk card shows for one fee: the line, its Pix code and where its tick goes."""
    return {"line": line, "pix": money.pix_code(found, line), "back": back, "fee": fmt_money(line.fee)}


def manage_panel(found: Championship, desk: str | None) -> dict[str, Any] | None:
    """The manage page's money: the fee just recorded (``desk``: "entry-12", "reentry-34") and
    the cash box in one line; None when the day charges nothing."""
    if not money.charges(found):
        return None
    line = None
    kind, _dash, ref = (desk or "").partition("-")
    if ref.isascii() and ref.isdigit() and len(ref) <= 9:
        line = money.item(found, kind, int(ref))
    box = money.cash_box(found)
    return {
        "desk": None if line is None else desk_line(found, line, "manage"),
        "received": fmt_money(box.received),
        "due": fmt_money(box.due),
    }


def _status(found: Championship, row: Any, table: Any, count: signoff.ChipCount) -> str:
    """A round table's state in a few words, for the manager's list."""
    if not count.source:
        return _("nothing recorded")
    if count.source == "hands" and table.deals is not None and not ledger.deals_done(table, count.deals):
        return _("%(played)s of %(deals)s deals", played=count.deals, deals=table.deals)
    problem = signoff.problems(found, row, table, count)
    return _("waiting for the fiscal") if problem is None else render_text(problem)


def manage_context(found: Championship) -> dict[str, Any]:
    data = common(found)
    entries = lookups.entries_by_number(found)
    tables = championship.round_tables(found, data["round_number"]) if data["round_number"] else []
    counts = signoff.round_counts(found, tables)
    referee_tables = lookups.referee_tables(tables)
    statuses = [
        {
            "row": row,
            "count": counts[row.id],
            "status": "" if row.signed_at else _status(found, row, referee_tables[row.table_id], counts[row.id]),
        }
        for row in tables
    ]
    again = lookups.reentered_in(found, data["round_number"])
    seated = {e for row in tables for e in row.entries}
    registered = {e.name_key for e in entries}
    return {
        # The club's members not registered yet, offered as the name is typed.
        "member_names": [m.name for m in members.active() if m.name_key not in registered],
        **data,
        "entries": entries,
        "tables": statuses,
        "people": names(found),
        "reentered": again,
        "seated": seated,
        "open_registration": data["round_number"] <= found.late_until and data["round_number"] < found.rounds,
        "signed": sum(1 for row in tables if row.signed_at is not None),
        "marks": MARKS,
        "money": manage_panel(found, request.args.get("desk")),
    }


def refused(found: Championship, error: str, status: int = 422, **extra: Any) -> ResponseReturnValue:
    """The manager's page again with ``error`` next to the form, nothing stored."""
    return render_template("championship/manage.html", **manage_context(found), error=error, **extra), status
