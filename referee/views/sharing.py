"""One table on every phone: QR codes and links, scoring links and join codes, revoking them,
and the owner's controls (two-key entry, house rules before the first hand, ending the table).

The rules of who may do what live in :mod:`referee.access`; these views only show them. A new
scoring link's token or a new join code is shown once, on the page answering the POST that made
it (``Cache-Control: no-store``): only its hash is kept.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee import access, guesses, ledger, member_phones, members, qr, redact
from referee.db import db
from referee.errorpages import Refused
from referee.forms import OPTION_PREFIX, field_for, option_values, table_form
from referee.i18n import render_text
from referee.inputs import local_path
from referee.models import Table
from referee.phone import device, guesser
from referee.rules.errors import RulesError
from referee.views.phone_tables import grant_of, held, is_owner, load, remember_hash, remember_token, require_owner

bp = Blueprint("sharing", __name__)


@bp.record_once
def _quiet_logs(state: BlueprintSetupState) -> None:
    """The app logs an exception with its request's path, and the development server every
    request line: a link's token must not go with them (referee.redact)."""
    redact.guard(state.app.logger)
    redact.guard(logging.getLogger("werkzeug"))


def _page(table: Table, *, status: int = 200, **extra: Any) -> ResponseReturnValue:
    watch_url = url_for("tables.watch", table_id=table.id, _external=True)
    context = {
        "table": table,
        "game_name": ledger.rules_of(table).name,
        "grant": grant_of(table),
        "watch_url": watch_url,
        "watch_qr": qr.svg(watch_url, label=_("QR code of the link to watch this table")),
        "accesses": access.accesses(table) if is_owner(table) else [],
        "hands": ledger.next_number(table) - 1,
        "code_minutes": access.CODE_MINUTES,
        **extra,
    }
    response = render_template("sharing/share.html", **context)
    headers = {"Cache-Control": "no-store"} if ("new_link" in extra or "new_code" in extra) else {}
    return response, status, headers


@bp.get("/t/<table_id>/share")
def share(table_id: str) -> ResponseReturnValue:
    return _page(load(table_id))


@bp.post("/t/<table_id>/share/link")
def new_link(table_id: str) -> ResponseReturnValue:
    table = load(table_id)
    require_owner(table)
    row, token = access.create_link(table, request.form.get("label"), by=grant_of(table).access_id)
    url = url_for("sharing.join_link", token=token, _external=True)
    return _page(table, new_link={"access": row, "url": url, "qr": qr.svg(url, label=_("QR code of the scoring link"))})


@bp.post("/t/<table_id>/share/owner")
def new_owner_link(table_id: str) -> ResponseReturnValue:
    """Hand the table over: a link that gives another phone the owner's controls."""
    table = load(table_id)
    require_owner(table)
    row, token = access.create_link(table, request.form.get("label"), role=access.OWNER, by=grant_of(table).access_id)
    url = url_for("sharing.join_link", token=token, _external=True)
    qr_label = _("QR code of the link that hands the table over")
    return _page(table, new_link={"access": row, "url": url, "qr": qr.svg(url, label=qr_label), "owner": True})


@bp.post("/t/<table_id>/share/phone/<int:seat>")
def new_phone_link(table_id: str, seat: int) -> ResponseReturnValue:
    """A one-time link that binds a player's phone to her (referee.member_phones): her own
    page on it, for a player at this table (seat 1 is the first) who is one of the club's members."""
    table = load(table_id)
    require_owner(table)
    member = members.get(next((s.member_id for s in table.seats if s.position == seat - 1), None))
    if member is None:
        abort(404)
    try:
        token = member_phones.make_link(member, made_by=member_phones.by_table(table.id))
    except member_phones.TooMany as refused:
        db.session.rollback()
        raise Refused(str(refused)) from None
    db.session.commit()
    url = url_for("players.bind_page", token=token, _external=True)
    label = _("QR code that binds a phone to %(name)s", name=member.name)
    return _page(table, new_link={"url": url, "qr": qr.svg(url, label=label), "member": member.name})


@bp.post("/t/<table_id>/share/code")
def new_code(table_id: str) -> ResponseReturnValue:
    table = load(table_id)
    require_owner(table)
    row, code = access.create_code(table, request.form.get("label"), by=grant_of(table).access_id)
    return _page(table, new_code={"access": row, "code": access.spaced(code)})


@bp.post("/t/<table_id>/access/<int:access_id>/revoke")
def revoke(table_id: str, access_id: int) -> ResponseReturnValue:
    table = load(table_id)
    require_owner(table)
    if access.revoke(table, access_id):
        flash(_("Revoked: the phones that used it, and every way in they made, can no longer score."), "success")
    else:
        flash(_("That access was already revoked."), "error")
    return redirect(url_for("sharing.share", table_id=table.id))


@bp.get("/j/<token>")
def join_link(token: str) -> ResponseReturnValue:
    """A scoring link (from a QR code): this phone becomes a scorer of the table, at once; or a
    hand-over link: the first phone that opens it gets the owner's controls, nobody after it."""
    try:
        opened = access.open_link(token, held())
    except access.SpentLink:
        return render_template(
            "sharing/refused.html",
            message=_("This link handed the table over already and works only once: ask the owner for a new one."),
        ), 403
    if opened is None:
        return render_template(
            "sharing/refused.html", message=_("This scoring link does not work: it was revoked, or it is not complete.")
        ), 403
    table, hashed = opened
    remember_hash(table, hashed)
    if grant_of(table).is_owner:
        flash(_("This phone now has the owner's controls at this table."), "success")
    else:
        flash(_("This phone can now record hands at this table."), "success")
    return redirect(url_for("tables.show", table_id=table.id))


@bp.route("/join", methods=["GET", "POST"])
def join_code() -> ResponseReturnValue:
    """Type the join code the owner reads out."""
    error, status = None, 200
    typed = ""
    if request.method == "POST":
        typed = (request.form.get("code") or "")[:40]
        device()  # a phone's first code is counted for this phone, not for its Wi-Fi
        try:
            table, token = access.redeem_code(typed, client=guesser())
        except access.TooManyAttempts as exc:
            mine = exc.limit is guesses.Limit.PHONE
            error = (
                _("Too many codes were tried from this phone. Wait ten minutes and try again.")
                if mine
                else guesses.shared_sentence()
            )
            status = 429
        except access.BadCode:
            error, status = (
                _("That code does not work. Check it with the table's owner: a code works once, for 30 minutes."),
                422,
            )
        else:
            remember_token(table, token)
            flash(_("This phone can now record hands at this table."), "success")
            return redirect(url_for("tables.show", table_id=table.id))
    return render_template("sharing/join.html", error=error, typed=typed), status


@bp.post("/t/<table_id>/two-key")
def two_key(table_id: str) -> ResponseReturnValue:
    table = load(table_id)
    require_owner(table)
    try:
        ledger.set_two_key(table, on=request.form.get("on") == "1")
    except ledger.Conflict as exc:
        flash(render_text(exc.text), "error")
        return redirect(url_for("sharing.share", table_id=table.id))
    flash(
        _("Two-key entry is on: each hand waits for a confirmation from another phone.")
        if table.two_key
        else _("Two-key entry is off."),
        "success",
    )
    return redirect(local_path(request.form.get("next"), url_for("sharing.share", table_id=table.id)))


@bp.route("/t/<table_id>/end", methods=["GET", "POST"])
def end(table_id: str) -> ResponseReturnValue:
    """Close the table: the button asks first (GET, its own page); the answer (POST, with the
    form's confirm=1) closes it. The owner can reopen it (:func:`reopen`)."""
    table = load(table_id)
    require_owner(table)
    if request.method == "GET":
        if table.finished_at is not None:
            return redirect(url_for("tables.show", table_id=table.id))
        return render_template("sharing/end.html", table=table, game_name=ledger.rules_of(table).name)
    if request.form.get("confirm") != "1":
        abort(400)
    ledger.finish_table(table)
    flash(_("The table is closed. Its history and balances stay readable."), "success")
    # A table played for payments ends at its settle-up; a match (Samba) at its scoreboard.
    target = "tables.settle" if ledger.rules_of(table).kind.settle_up else "tables.show"
    return redirect(url_for(target, table_id=table.id))


@bp.post("/t/<table_id>/reopen")
def reopen(table_id: str) -> ResponseReturnValue:
    """The owner takes a closing back: the table takes hands again."""
    table = load(table_id)
    require_owner(table)
    ledger.reopen_table(table)
    flash(_("The table is open again."), "success")
    return redirect(url_for("tables.show", table_id=table.id))


@bp.route("/t/<table_id>/options", methods=["GET", "POST"])
def options(table_id: str) -> ResponseReturnValue:
    """The owner changes the house rules, only before the first hand."""
    table = load(table_id)
    require_owner(table)
    rules = ledger.rules_of(table)
    if ledger.has_hands(table):
        flash(_("House rules can only change before the first hand."), "error")
        return redirect(url_for("sharing.share", table_id=table.id))
    form = table_form(rules, request.form if request.method == "POST" else None)
    if request.method == "GET":
        for spec in rules.option_specs:
            value = table.options.get(spec.name, spec.default)
            getattr(form, OPTION_PREFIX + spec.name).data = value if spec.kind in ("bool", "choice") else str(value)
    error = None
    if request.method == "POST":
        try:
            ledger.change_options(table, option_values(form, rules))
        except (RulesError, ledger.Conflict) as exc:
            error = render_text(exc.text)
            target = field_for(getattr(exc, "field", None))
            if target and hasattr(form, target):
                getattr(form, target).errors = [error]
        else:
            flash(_("House rules saved."), "success")
            return redirect(url_for("tables.show", table_id=table.id))
    return render_template(
        "sharing/options.html", table=table, rules=rules, form=form, error=error
    ), 422 if error else 200
