"""The committee's paper and its second thoughts: reopening a signed table (asked first, with a
reason) and the printed súmula of each round's tables, the fallback when phones fail.

A reopening sets a fiscal's signature aside and makes the ranking provisional again, so it is never
one tap: the manager's page links to a page that says what it does, and only the form of that
page (which carries its confirmation) reopens. The súmula carries no way in (no token, no QR
code), only what the seating plan shows and room to write; it is printed from the manager's page.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee import championship
from referee.championship import history
from referee.championship.settings import deals_at, describe
from referee.i18n import render_text
from referee.models import Championship, RoundTable, Table
from referee.rules.errors import RulesError
from referee.views.championship_pages import common, load, load_table, names
from referee.views.organiser import actor, manager_only, require_manager

bp = Blueprint("championship_paper", __name__)

#: The value the reopening form sends to say the manager read what reopening does.
CONFIRMED = "reopen"


def _reopen_page(
    found: Championship, row: RoundTable, table: Table, *, error: str | None = None, status: int = 200
) -> ResponseReturnValue:
    people = names(found)
    return render_template(
        "championship/reopen.html",
        **common(found),
        row=row,
        seated=[people[e] for e in row.entries],
        count=championship.chip_count(found, row, table),
        confirmed=CONFIRMED,
        reason_max=history.DETAIL_TEXT_MAX,
        typed=request.form.get("reason", ""),
        error=error,
    ), status


@bp.route("/c/<championship_id>/r/<int:round_number>/m/<int:table_number>/reopen", methods=["GET", "POST"])
def reopen(championship_id: str, round_number: int, table_number: int) -> ResponseReturnValue:
    """GET: what reopening the table does, its chips as signed, a box for the reason, and the
    button. POST: reopen it, only from that page's form (a bare POST changes nothing). One rule
    for both, so that a table number too large for the database is a 404 for either."""
    found = load(championship_id)
    if request.method == "GET" and (away := manager_only()) is not None:
        return away
    require_manager()
    row, table = load_table(found, round_number, table_number)
    if request.method == "GET":
        return _reopen_page(found, row, table)
    if request.form.get("confirm") != CONFIRMED:
        return _reopen_page(
            found, row, table, error=_("Confirm the reopening on this page: nothing was changed."), status=422
        )
    try:
        championship.reopen(found, row, table, actor=actor(), reason=request.form.get("reason", ""))
    except RulesError as exc:
        return _reopen_page(found, row, table, error=render_text(exc.text), status=422)
    flash(_("Table %(table)s is open again: it takes hands and a new signature.") % {"table": row.number}, "success")
    return redirect(url_for("championship_manage.manage", championship_id=found.id, _anchor="tables"))


@bp.get("/c/<championship_id>/r/<int:round_number>/sumula")
def sumula(championship_id: str, round_number: int) -> ResponseReturnValue:
    """The round's súmulas to print: one A4 sheet per table, with its players in seat order, a box
    per player for his re-entries and his final chips, the stock they must add up to, and the
    fiscal's and the players' signature lines."""
    found = load(championship_id)
    if (away := manager_only()) is not None:
        return away
    tables = championship.round_tables(found, round_number)
    if not tables:
        abort(404)
    people = names(found)
    sheets: list[dict[str, Any]] = [
        {
            "row": row,
            "seated": [people[e] for e in row.entries],
            "stock": found.chips * len(row.entries),
            "deals": deals_at(found, len(row.entries)),
        }
        for row in tables
    ]
    return render_template(
        "championship/sumula.html", champ=found, about=describe(found), round_number=round_number, sheets=sheets
    )
