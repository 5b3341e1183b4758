"""The manager's side of a championship (the club's code): registering players and
re-entries, drawing each round, printing the cards, reopening a table signed off too soon. Its
settings, from its creation to its archive, are :mod:`referee.views.championship_settings`.

The tables' cards carry the ways in that write (a scorer's and a fiscal's QR code per table), so
they are printed from here only, never shown on a public page, and answered with
``Cache-Control: no-store``.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee import championship, inputs, qr
from referee.championship import cards, lookups
from referee.championship.rounds import card_token
from referee.championship.settings import GAMES
from referee.i18n import render_text
from referee.ledger import Conflict
from referee.rules import get_game
from referee.rules.errors import RulesError
from referee.views.championship_manage_page import desk_link, manage_context, refused
from referee.views.championship_pages import load, load_table, names, player_card
from referee.views.organiser import actor, manager_only, require_manager

bp = Blueprint("championship_manage", __name__)


@bp.get("/c")
def index() -> ResponseReturnValue:
    """The club's championships (with the club's code), newest first."""
    if (away := manager_only()) is not None:
        return away
    rows = lookups.all_championships()
    return render_template("championship/index.html", rows=rows, games=[get_game(g) for g in GAMES])


@bp.get("/c/<championship_id>/manage")
def manage(championship_id: str) -> ResponseReturnValue:
    found = load(championship_id)
    if (away := manager_only()) is not None:
        return away
    return render_template("championship/manage.html", **manage_context(found))


@bp.post("/c/<championship_id>/entries")
def register(championship_id: str) -> ResponseReturnValue:
    found = load(championship_id)
    require_manager()
    try:
        entry = championship.register(found, request.form.get("name"), actor=actor())
    except RulesError as exc:
        return refused(found, render_text(exc.text), typed=request.form.get("name", ""))
    except Conflict as exc:
        return refused(found, render_text(exc.text), 409, typed=request.form.get("name", ""))
    if entry.first_round > 1:
        flash(
            _("Number %(number)s: %(name)s, registered late: he plays from round %(round)s.")
            % {"number": entry.number, "name": entry.name, "round": entry.first_round},
            "success",
        )
    else:
        flash(_("Number %(number)s: %(name)s.") % {"number": entry.number, "name": entry.name}, "success")
    fee = desk_link(found, "entry", entry.number)
    return redirect(
        url_for("championship_manage.manage", championship_id=found.id, desk=fee, _anchor="desk" if fee else "register")
    )


@bp.post("/c/<championship_id>/reentries")
def reentry_by_number(championship_id: str) -> ResponseReturnValue:
    """A re-entry, by the player's card number (what the manager has in front of him)."""
    found = load(championship_id)
    require_manager()
    typed = (request.form.get("number") or "").strip()
    entry = championship.card_number(found, inputs.whole_number(typed))
    if entry is None:
        return refused(found, _("No player has the number %(number)s.", number=typed[:6]))
    try:
        again = championship.reenter(found, entry, actor=actor())
    except RulesError as exc:
        return refused(found, render_text(exc.text))
    flash(
        _("Re-entry for %(name)s: %(chips)s more chips at his table.") % {"name": entry.name, "chips": found.chips},
        "success",
    )
    fee = desk_link(found, "reentry", again.id)
    return redirect(
        url_for("championship_manage.manage", championship_id=found.id, desk=fee, _anchor="desk" if fee else "reentry")
    )


@bp.post("/c/<championship_id>/rounds")
def draw(championship_id: str) -> ResponseReturnValue:
    found = load(championship_id)
    require_manager()
    try:
        drawn = championship.draw_round(found, seed=request.form.get("seed"))
    except RulesError as exc:
        return refused(found, render_text(exc.text))
    flash(_("Round %(round)s drawn with the seed %(seed)s.") % {"round": drawn.number, "seed": drawn.seed}, "success")
    return redirect(url_for("championship.plan", championship_id=found.id, round_number=drawn.number))


@bp.post("/c/<championship_id>/r/<int:round_number>/m/<int:table_number>/cards")
def replace_cards(championship_id: str, round_number: int, table_number: int) -> ResponseReturnValue:
    """New cards for the number of one round's table (the day's cards: referee.championship.cards)."""
    found = load(championship_id)
    require_manager()
    load_table(found, round_number, table_number)
    try:
        cards.renew(found, table_number, actor=actor())
    except RulesError as exc:
        return refused(found, render_text(exc.text))
    flash(
        _("Table %(table)s has new cards: the old ones no longer work. Print them.") % {"table": table_number},
        "success",
    )
    return redirect(url_for("championship_cards.day_cards", championship_id=found.id, table=table_number))


@bp.get("/c/<championship_id>/r/<int:round_number>/cards")
def table_cards(championship_id: str, round_number: int) -> ResponseReturnValue:
    """One round's own table cards: per table, the scorer's QR code (``role=scorer``) or the
    fiscal's (``role=fiscal``). The day's cards (referee.views.championship_cards) replace them
    at the tables; these stay for a scorer's app, whose API token is the round table's own."""
    found = load(championship_id)
    if (away := manager_only()) is not None:
        return away
    role = "fiscal" if request.args.get("role") == "fiscal" else "scorer"
    tables = championship.round_tables(found, round_number)
    if not tables:
        abort(404)
    people = names(found)
    cards = []
    for row in tables:
        access_id = row.fiscal_access if role == "fiscal" else row.scorer_access
        assert access_id is not None
        token = card_token(access_id)
        if role == "fiscal":
            url = url_for("championship.fiscal_link", token=token, _external=True)
            label = _("QR code of the fiscal's card of table %(table)s", table=row.number)
        else:
            url = url_for("sharing.join_link", token=token, _external=True)
            label = _("QR code that makes a phone the scorer of table %(table)s", table=row.number)
        cards.append(
            {"row": row, "seated": [people[e] for e in row.entries], "qr": qr.svg(url, label=label), "url": url}
        )
    page = render_template(
        "championship/table_cards.html", champ=found, round_number=round_number, role=role, cards=cards
    )
    return page, 200, {"Cache-Control": "no-store"}


@bp.get("/c/<championship_id>/cards")
def player_cards(championship_id: str) -> ResponseReturnValue:
    """Every player's card, to print on A4 (eight to a page)."""
    found = load(championship_id)
    if (away := manager_only()) is not None:
        return away
    entries = lookups.entries_by_number(found)
    return render_template("championship/cards.html", champ=found, cards=[player_card(found, e) for e in entries])
