"""The day's table cards (:mod:`referee.championship.cards`): opening a card, following it to
the next round, printing the set (the club's code) and replacing one number's cards.

A card's link names the championship and the number (both public: they are on the plan) and
carries the derived token that makes it a way in; the printed set is answered with
``Cache-Control: no-store`` and shown only with the club's code, as the per-round cards are.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee import inputs, qr
from referee.championship import cards, lookups
from referee.championship.rounds import FISCAL
from referee.i18n import render_text
from referee.models import Championship, RoundTable
from referee.rules.errors import RulesError
from referee.views.championship_manage_page import refused as _manage_refused
from referee.views.championship_pages import load
from referee.views.organiser import actor, manager_only, require_manager
from referee.views.phone_tables import held, remember_hash

bp = Blueprint("championship_cards", __name__)


def _refused(message: str, status: int) -> ResponseReturnValue:
    return render_template("sharing/refused.html", message=message), status


def _enter(found: Championship, row: RoundTable, role: str) -> ResponseReturnValue:
    """Give this phone ``role`` at the round's table ``row`` (what the per-round card gave) and
    take it there: the scorer to the table's own page, the fiscal to the round table's page."""
    table = lookups.referee_table(row.table_id)
    way_in = lookups.way_in(cards.access_of(row, role))
    assert table is not None and way_in is not None and way_in.token_hash is not None
    # The hash as stored at the draw, not recomputed: after a restore under another secret key
    # the round's accesses keep the hashes they were made with.
    hashed = way_in.token_hash
    if held().get(table.id) != hashed:
        remember_hash(table, hashed)
    if role == FISCAL:
        return redirect(
            url_for(
                "championship.table_page", championship_id=found.id, round_number=row.round, table_number=row.number
            )
        )
    return redirect(url_for("tables.show", table_id=table.id))


#: The day's cards this phone opened, most recent last: [championship id, number, role, generation].
OPENED = "day_cards"
#: How many it remembers (a fiscal of two tables, a scorer moving along the day...).
OPENED_MAX = 8


def _remember_card(found: Championship, number: int, role: str) -> None:
    """This phone opened that card: it may follow it to the next rounds (no token kept: the
    session is signed, and the generation tells a replaced card)."""
    kept = [c for c in session.get(OPENED, []) if isinstance(c, list) and c[:2] != [found.id, number]]
    session[OPENED] = [*kept, [found.id, number, role, cards.generation(found, number)]][-OPENED_MAX:]
    session.permanent = True


def _opened_role(found: Championship, number: int) -> str | None:
    """The role of the card of ``number`` this phone opened, if it is still that number's card."""
    for card in session.get(OPENED, []):
        if isinstance(card, list) and len(card) == 4 and card[:2] == [found.id, number] and card[2] in cards.ROLES:
            return str(card[2]) if card[3] == cards.generation(found, number) else None
    return None


@bp.get("/c/<championship_id>/m/<int:number>/card/<token>")
def open_card(championship_id: str, number: int, token: str) -> ResponseReturnValue:
    """A day card's QR code: this phone becomes the scorer (or the fiscal) of the table played
    at this number in the current round."""
    found = load(championship_id)
    try:
        role = cards.role_of(found, number, token)
    except RulesError as exc:
        return _refused(render_text(exc.text), 403)
    try:
        row = cards.table_now(found, number)
    except RulesError as exc:
        return _refused(render_text(exc.text), 404)
    _remember_card(found, number, role)
    if role == FISCAL:
        flash(_("This phone is the fiscal of table %(table)s.", table=number), "success")
    else:
        flash(_("This phone can now record hands at this table."), "success")
    return _enter(found, row, role)


@bp.get("/c/<championship_id>/m/<int:number>")
def table_now(championship_id: str, number: int) -> ResponseReturnValue:
    """The table played at this number now. A phone that opened this number's card (and no new
    cards were printed since) keeps its role here; any other phone reads."""
    found = load(championship_id)
    try:
        row = cards.table_now(found, number)
    except RulesError as exc:
        return _refused(render_text(exc.text), 404)
    role = _opened_role(found, number)
    if role is not None:
        return _enter(found, row, role)
    return redirect(
        url_for("championship.table_page", championship_id=found.id, round_number=row.round, table_number=row.number)
    )


def card_url(found: Championship, number: int, role: str) -> str:
    token = cards.token(found.id, number, role, cards.generation(found, number))
    return url_for("championship_cards.open_card", championship_id=found.id, number=number, token=token, _external=True)


@bp.get("/c/<championship_id>/cards/tables")
def day_cards(championship_id: str) -> ResponseReturnValue:
    """The day's table cards to print, once: per number, the scorer's card (to stand on the
    table) and the fiscal's (``role=fiscal``); ``table=N`` prints one number's pair only (after
    new cards)."""
    found = load(championship_id)
    if (away := manager_only()) is not None:
        return away
    role = FISCAL if request.args.get("role") == FISCAL else cards.SCORER
    last = cards.numbers(found)
    wanted = request.args.get("table", "")
    if wanted:
        one = inputs.whole_number(wanted, high=last)
        if one is None:
            abort(404)
        chosen = [one]
    else:
        chosen = list(range(1, last + 1))
    shown = []
    for number in chosen:
        url = card_url(found, number, role)
        if role == FISCAL:
            label = _("QR code of the fiscal's card of table %(table)s", table=number)
        else:
            label = _("QR code that makes a phone the scorer of table %(table)s", table=number)
        shown.append({"number": number, "qr": qr.svg(url, label=label), "url": url})
    page = render_template("championship/day_cards.html", champ=found, role=role, cards=shown, one=bool(wanted))
    return page, 200, {"Cache-Control": "no-store"}


@bp.post("/c/<championship_id>/m/<int:number>/cards")
def renew(championship_id: str, number: int) -> ResponseReturnValue:
    """New cards for one number: the old scorer's and fiscal's cards stop working at once."""
    found = load(championship_id)
    require_manager()
    try:
        cards.renew(found, number, actor=actor())
    except RulesError as exc:
        return _manage_refused(found, render_text(exc.text))
    flash(_("Table %(table)s has new cards: the old ones no longer work. Print them.") % {"table": number}, "success")
    return redirect(url_for("championship_cards.day_cards", championship_id=found.id, table=number))


@bp.post("/c/<championship_id>/cards/tables/new")
def renew_typed(championship_id: str) -> ResponseReturnValue:
    """New cards for the number typed on the manager's page (between rounds too, when no table
    of the round lists its own button)."""
    found = load(championship_id)
    require_manager()
    typed = (request.form.get("number") or "").strip()
    number = inputs.whole_number(typed, high=100_000)
    if number is None:
        return _manage_refused(found, _("There is no table %(table)s in this championship.", table=typed[:6]))
    return renew(found.id, number)
