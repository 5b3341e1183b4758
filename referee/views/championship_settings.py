"""A championship's settings and life, for the manager (the club's code): the new championship's
form, the same form to change them until the first draw (the name always), deleting it before
that draw and archiving it after.

Both forms are one template and one reading of the posted fields (:func:`_fields`), checked by
one function (:func:`referee.championship.settings.check`). The change form is prefilled from
the championship as if it had been posted (:func:`_as_form`); after the first draw its fields
other than the name are shown but not sent, so they are read back from the championship, and a
forged change of one of them is refused with the sentence.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from referee import championship
from referee.championship import life
from referee.championship.entries import REENTRY_WHEN
from referee.championship.settings import DEFAULT_TIEBREAKS, FIVE_DEALS, GAMES, REENTRY_POINTS, TIEBREAKS
from referee.forms import OPTION_PREFIX, option_values, options_form
from referee.i18n import render_text
from referee.models import Championship
from referee.rules import CHAMPIONSHIP_GAME, Game, get_game
from referee.rules.errors import RulesError
from referee.views.championship_manage_page import refused
from referee.views.championship_pages import load
from referee.views.organiser import actor, manager_only, require_manager

bp = Blueprint("championship_settings", __name__)


def _form(rules: Game[Any, Any], formdata: Any) -> Any:
    # The stock is the championship's chips, set above the house rules; a chip is worth a point,
    # never money (championship.settings.for_points), so the form asks no chip value.
    return options_form(rules, formdata, leave_out=rules.stock_and_money)


def _fields(values: Any, form: Any, rules: Game[Any, Any]) -> dict[str, object]:
    """The settings posted, as :func:`referee.championship.settings.check` takes them."""
    ends = values.get("ends", "deals")
    return {
        "name": values.get("name"),
        "game": rules.slug,
        "options": option_values(form, rules),
        "chips": values.get("chips"),
        "rounds": values.get("rounds"),
        "deals": values.get("deals") if ends == "deals" else None,
        "minutes": values.get("minutes") if ends == "clock" else None,
        "table_size": values.get("table_size"),
        "late_until": values.get("late_until"),
        "reentries": values.get("reentries"),
        "reentry_points": values.get("reentry_points", "counted"),
        "five_deals": values.get("five_deals", "per_table"),
        "reentry_when": values.get("reentry_when", "out"),
        "tiebreaks": [values.get(f"tiebreak_{i}") for i in range(len(TIEBREAKS))],
        "money": values,
    }


def _as_form(found: Championship, rules: Game[Any, Any]) -> MultiDict[str, str]:
    """The championship's settings as its form would post them; the house rules only when
    ``rules`` is its game (another game starts from that game's)."""
    data: MultiDict[str, str] = MultiDict(
        {
            "name": found.name,
            "chips": str(found.chips),
            "rounds": str(found.rounds),
            "ends": "deals" if found.deals else "clock",
            "deals": str(found.deals or 40),
            "minutes": str(found.minutes or 90),
            "table_size": str(found.table_size),
            "late_until": str(found.late_until),
            "reentries": "" if found.reentries is None else str(found.reentries),
            "reentry_points": found.reentry_points,
            "five_deals": found.five_deals,
            "reentry_when": found.reentry_when,
            "entry_fee": found.entry_fee,
            "reentry_fee": found.reentry_fee,
            "pix_key": found.pix_key,
            "pix_city": found.pix_city,
        }
    )
    for i in range(len(TIEBREAKS)):
        data[f"tiebreak_{i}"] = found.tiebreaks[i] if i < len(found.tiebreaks) else ""
    if rules.slug == found.game:
        for spec in rules.option_specs:
            value = found.options.get(spec.name, spec.default)
            if spec.kind != "bool":
                data[OPTION_PREFIX + spec.name] = str(value)
            elif value:
                data[OPTION_PREFIX + spec.name] = "y"
    return data


def _page(template: str, status: int = 200, **context: Any) -> ResponseReturnValue:
    return render_template(
        template,
        games=[get_game(g) for g in GAMES],
        reentry_points=REENTRY_POINTS,
        five_deals=FIVE_DEALS,
        reentry_when=REENTRY_WHEN,
        tiebreaks=TIEBREAKS,
        default_tiebreaks=DEFAULT_TIEBREAKS,
        **context,
    ), status


def _refuse_stranger() -> ResponseReturnValue | None:
    """A phone without the club's code: sent to type it (a page), refused (a change)."""
    if request.method == "POST":
        require_manager()
    return manager_only()


def _game(default: str) -> Game[Any, Any]:
    slug = request.values.get("game") or default
    if slug not in GAMES:
        abort(404)
    return get_game(slug)


@bp.route("/c/new", methods=["GET", "POST"])
def new() -> ResponseReturnValue:
    """A new championship: the game, then its settings and house rules on one page."""
    if (away := manager_only()) is not None:
        return away
    rules = _game(CHAMPIONSHIP_GAME if CHAMPIONSHIP_GAME in GAMES else GAMES[0])
    form = _form(rules, request.form if request.method == "POST" else None)
    error = None
    if request.method == "POST":
        try:
            found = championship.create(**_fields(request.form, form, rules))
        except RulesError as exc:
            error = render_text(exc.text)
        else:
            flash(_("Championship created. Register the players."), "success")
            return redirect(url_for("championship_manage.manage", championship_id=found.id))
    return _page(
        "championship/new.html", 422 if error else 200, rules=rules, form=form, values=request.form, error=error
    )


@bp.route("/c/<championship_id>/settings", methods=["GET", "POST"])
def settings(championship_id: str) -> ResponseReturnValue:
    """The championship's settings, prefilled: every one can change until the first draw (the
    game too, keeping the entries), only the name after it."""
    found = load(championship_id)
    if (away := _refuse_stranger()) is not None:
        return away
    rules = _game(found.game)
    locked = life.drawn(found)
    values = _as_form(found, rules)
    if request.method == "POST":
        # Fields not sent (shown but locked after the draw) keep the championship's values.
        for key in request.form:
            values.setlist(key, request.form.getlist(key))
        if not locked:  # an unticked house rule is not sent: the form says it all
            for spec in rules.option_specs:
                if spec.kind == "bool" and OPTION_PREFIX + spec.name not in request.form:
                    values.pop(OPTION_PREFIX + spec.name, None)
    form = _form(rules, values)
    error, status = None, 200
    if request.method == "POST":
        try:
            changed = life.change(found, _fields(values, form, rules), actor=actor())
        except RulesError as exc:
            error, status = render_text(exc.text), 422
        else:
            flash(_("Settings saved.") if changed else _("Nothing changed."), "success")
            return redirect(url_for("championship_manage.manage", championship_id=found.id))
    return _page(
        "championship/settings.html",
        status,
        champ=found,
        about_game=get_game(found.game).name,
        rules=rules,
        form=form,
        values=values,
        error=error,
        locked=locked,
    )


@bp.route("/c/<championship_id>/delete", methods=["GET", "POST"])
def delete(championship_id: str) -> ResponseReturnValue:
    """Delete a championship before its first draw, after a page that names it and says how
    many players go with it."""
    found = load(championship_id)
    if (away := _refuse_stranger()) is not None:
        return away
    error, status = None, 200
    if request.method == "POST":
        name = found.name
        try:
            life.delete(found)
        except RulesError as exc:
            error, status = render_text(exc.text), 409
        else:
            flash(_("%(name)s was deleted.", name=name), "success")
            return redirect(url_for("championship_manage.index"))
    return render_template(
        "championship/delete.html", champ=found, players=life.players(found), drawn=life.drawn(found), error=error
    ), status


@bp.post("/c/<championship_id>/archive")
def archive(championship_id: str) -> ResponseReturnValue:
    """Archive a championship played (its first round drawn), or take it out of the archive."""
    found = load(championship_id)
    require_manager()
    back = url_for("championship_manage.manage", championship_id=found.id)
    try:
        if request.form.get("archived") == "0":
            life.unarchive(found, actor=actor())
            flash(_("The championship is out of the archive: it takes changes again."), "success")
        else:
            life.archive(found, actor=actor())
            flash(_("The championship is archived: it can be read, not changed."), "success")
    except RulesError as exc:
        return refused(found, render_text(exc.text), 409)
    return redirect(back)
