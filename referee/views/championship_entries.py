"""The committee's page per entry (the club's code): correct the name, withdraw a player, mark
him absent or present, disqualify him with the reason, bring him back, undo one of his
re-entries; and the re-entry's confirmation, which names the player and his table before
anything is recorded (a card number mistyped at the desk is seen there, not at the table).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee import championship, inputs
from referee.championship import entries, history, lookups, status
from referee.db import db
from referee.i18n import render_text
from referee.ledger import Conflict
from referee.models import Championship, Entry
from referee.rules.errors import RulesError
from referee.views.championship_pages import common, load, names
from referee.views.organiser import actor, manager_only, require_manager

bp = Blueprint("championship_entries", __name__)


def _entry(found: Championship, number: int) -> Entry:
    entry = championship.card_number(found, number)
    if entry is None:
        abort(404)
    return entry


def _page(
    found: Championship, entry: Entry, *, error: str | None = None, status_code: int = 200
) -> ResponseReturnValue:
    """The entry's page: his state, his re-entries (the live ones can be undone until his table
    is signed off), what the committee can do, and his lines of the day's history."""
    data = common(found)
    at = {row.round: row for row in lookups.round_tables_of(found) if entry.id in row.entries}
    again = [{"row": r, "table": at.get(r.round)} for r in lookups.reentries_of(entry)]
    people = names(found)
    tables = history.seats(found)
    lines = [
        {"at": line.at, "actor": history.who(line.actor, tables), "text": history.sentence(line, people)}
        for line in reversed(history.lines(found, entry_id=entry.id))
    ]
    context: dict[str, Any] = {
        **data,
        "entry": entry,
        "reentries": again,
        "lines": lines,
        "marks": status.MARKS,
        "error": error,
        "typed": request.form.get("name", "") if error else "",
    }
    return render_template("championship/entry_manage.html", **context), status_code


@bp.get("/c/<championship_id>/n/<int:number>/manage")
def entry_page(championship_id: str, number: int) -> ResponseReturnValue:
    found = load(championship_id)
    if (away := manager_only()) is not None:
        return away
    return _page(found, _entry(found, number))


def _back(found: Championship, entry: Entry) -> ResponseReturnValue:
    return redirect(url_for("championship_entries.entry_page", championship_id=found.id, number=entry.number))


@bp.post("/c/<championship_id>/n/<int:number>/name")
def rename(championship_id: str, number: int) -> ResponseReturnValue:
    found = load(championship_id)
    require_manager()
    entry = _entry(found, number)
    try:
        entries.rename(found, entry, request.form.get("name"), actor=actor())
    except RulesError as exc:
        db.session.rollback()
        return _page(found, entry, error=render_text(exc.text), status_code=422)
    except Conflict as exc:
        return _page(found, entry, error=render_text(exc.text), status_code=409)
    flash(_("Number %(number)s is now %(name)s.") % {"number": entry.number, "name": entry.name}, "success")
    return _back(found, entry)


@bp.post("/c/<championship_id>/n/<int:number>/status")
def change_status(championship_id: str, number: int) -> ResponseReturnValue:
    """Withdraw, mark absent, disqualify (``status``, with ``reason``) or bring back (``status`` empty)."""
    found = load(championship_id)
    require_manager()
    entry = _entry(found, number)
    try:
        status.change(found, entry, request.form.get("status", ""), request.form.get("reason", ""), actor=actor())
    except RulesError as exc:
        db.session.rollback()
        return _page(found, entry, error=render_text(exc.text), status_code=422)
    if entry.status:
        flash(
            _("%(name)s: %(state)s.") % {"name": entry.name, "state": _(status.MARKS[entry.status])},
            "success",
        )
    else:
        flash(_("%(name)s is in play: the next draw seats him.") % {"name": entry.name}, "success")
    return _back(found, entry)


@bp.get("/c/<championship_id>/reentries/new")
def reentry_preview(championship_id: str) -> ResponseReturnValue:
    """The re-entry's first tap: who this card number is and where he sits, or why he cannot
    re-enter; nothing is recorded until the second tap."""
    found = load(championship_id)
    if (away := manager_only()) is not None:
        return away
    typed = (request.args.get("number") or "").strip()
    entry = championship.card_number(found, inputs.whole_number(typed))
    data = common(found)
    if entry is None:
        error = _("No player has the number %(number)s.", number=typed[:6])
        return render_template("championship/reentry_confirm.html", **data, entry=None, error=error), 404
    try:
        seated = entries.reentry_table(found, entry)
    except RulesError as exc:
        error = render_text(exc.text)
        return render_template("championship/reentry_confirm.html", **data, entry=entry, error=error), 422
    return render_template("championship/reentry_confirm.html", **data, entry=entry, table=seated, error=None)


@bp.post("/c/<championship_id>/reentries/<int:reentry_id>/undo")
def undo_reentry(championship_id: str, reentry_id: int) -> ResponseReturnValue:
    found = load(championship_id)
    require_manager()
    row = lookups.reentry(reentry_id)
    if row is None or row.championship_id != found.id:
        abort(404)
    owner = lookups.entry(row.entry_id)
    assert owner is not None
    try:
        entry = entries.undo_reentry(found, row, actor=actor())
    except RulesError as exc:
        db.session.rollback()
        return _page(found, owner, error=render_text(exc.text), status_code=422)
    except Conflict as exc:
        db.session.rollback()
        return _page(found, owner, error=render_text(exc.text), status_code=409)
    flash(_("The re-entry of %(name)s was undone: its chips are off his table.") % {"name": entry.name}, "success")
    return _back(found, entry)
