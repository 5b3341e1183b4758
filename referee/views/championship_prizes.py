"""The committee's prize page (the club's code): the prize table, the quartets of the team prize,
the option to seal the round, and who wins what with the Pix code to pay each winner.

Everything here is the manager's: the page carries the winners' Pix codes, so it is answered
with ``Cache-Control: no-store`` as the cards are.
"""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee.championship import prizes
from referee.championship.ranking import visible_standings
from referee.i18n import fmt_money, render_text
from referee.rules.errors import RulesError
from referee.views.championship_pages import common, load
from referee.views.organiser import actor, manager_only, require_manager

bp = Blueprint("championship_prizes", __name__)


def _context(found: Any) -> dict[str, Any]:
    chosen = prizes.table_of(found)
    board = visible_standings(found)
    return {
        **common(found),
        "chosen": chosen,
        "places_text": prizes.as_lines(chosen.places),
        "teams_text": prizes.as_lines(chosen.teams),
        "round_text": prizes.as_lines([prizes.Prize(chosen.round)]) if chosen.round else "",
        "result": prizes.prize_list(found, board),
        "team_size": prizes.TEAM_SIZE,
        # A tie of many shares the same amount: formatted once (Babel's currency format is slow).
        "money": lru_cache(maxsize=None)(lambda cents: fmt_money(Decimal(cents) / 100)),
    }


def _page(found: Any, status: int = 200, **extra: Any) -> ResponseReturnValue:
    context = {**_context(found), **extra}
    return render_template("championship/prizes.html", **context), status, {"Cache-Control": "no-store"}


@bp.get("/c/<championship_id>/prizes")
def page(championship_id: str) -> ResponseReturnValue:
    found = load(championship_id)
    if (away := manager_only()) is not None:
        return away
    return _page(found)


@bp.post("/c/<championship_id>/prizes")
def set_prizes(championship_id: str) -> ResponseReturnValue:
    found = load(championship_id)
    require_manager()
    form = request.form
    try:
        prizes.set_table(
            found, places=form.get("places"), round_prize=form.get("round"), teams=form.get("teams"), actor=actor()
        )
    except RulesError as exc:
        typed = {"places_typed": form.get("places", ""), "teams_typed": form.get("teams", "")}
        return _page(found, 422, error=render_text(exc.text), round_typed=form.get("round", ""), **typed)
    flash(_("Prize table saved."), "success")
    return redirect(url_for("championship_prizes.page", championship_id=found.id))


@bp.post("/c/<championship_id>/seal")
def seal(championship_id: str) -> ResponseReturnValue:
    found = load(championship_id)
    require_manager()
    value = request.form.get("sealed")
    if value not in ("0", "1"):
        return _page(found, 422, error=_("Say whether the round is sealed."))
    try:
        prizes.set_sealed(found, value == "1", actor=actor())
    except RulesError as exc:
        return _page(found, 422, error=render_text(exc.text))
    if value == "1":
        flash(_("The round is sealed: a round's points show once every table has signed off."), "success")
    else:
        flash(_("The round is no longer sealed: provisional points show again."), "success")
    return redirect(url_for("championship_prizes.page", championship_id=found.id, _anchor="seal"))


@bp.post("/c/<championship_id>/teams")
def form_team(championship_id: str) -> ResponseReturnValue:
    found = load(championship_id)
    require_manager()
    form = request.form
    numbers = [form.get(f"number_{i}", "") for i in range(prizes.TEAM_SIZE)]
    try:
        team = prizes.form_team(found, form.get("team_name"), numbers, actor=actor())
    except RulesError as exc:
        return _page(
            found, 422, team_error=render_text(exc.text), team_typed=form.get("team_name", ""), numbers=numbers
        )
    flash(_("Team %(team)s formed.", team=team.name), "success")
    return redirect(url_for("championship_prizes.page", championship_id=found.id, _anchor="teams"))


@bp.post("/c/<championship_id>/teams/<int:team_id>/delete")
def remove_team(championship_id: str, team_id: int) -> ResponseReturnValue:
    found = load(championship_id)
    require_manager()
    try:
        team = prizes.remove_team(found, team_id, actor=actor())
    except RulesError as exc:
        return _page(found, 422, error=render_text(exc.text))
    if team is None:
        abort(404)
    flash(_("Team %(team)s undone.", team=team.name), "success")
    return redirect(url_for("championship_prizes.page", championship_id=found.id, _anchor="teams"))
