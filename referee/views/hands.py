"""Recording a hand: one route per table, handed to the game's own guided flow (its
registration in :mod:`referee.views.games`). Showing a step and saving the draft are the same
for every game: retries, conflicts, corrections and undo are handled here, once."""

from __future__ import annotations

import secrets

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee import ledger
from referee.i18n import render_text
from referee.models import Table
from referee.rules.errors import RulesError
from referee.views import boost, games, labels
from referee.views.flow import Flow, small_int
from referee.views.phone_tables import actor_code, load, offer_undo, require_scorer
from referee.views.table_page import board, table_page

bp = Blueprint("hands", __name__)


def _table_and_flow(table_id: str) -> tuple[Table, type[Flow]]:
    table = load(table_id)
    require_scorer(table)
    return table, games.pages_of(table.game).flow


@bp.get("/t/<table_id>/hand")
def record(table_id: str) -> ResponseReturnValue:
    return page(*_table_and_flow(table_id))


@bp.post("/t/<table_id>/hand")
def save(table_id: str) -> ResponseReturnValue:
    return store(*_table_and_flow(table_id))


@bp.post("/t/<table_id>/hand/all-pass")
def all_pass(table_id: str) -> ResponseReturnValue:
    """Jubileu's two-tap "everybody passed" (the form carries all_pass=1)."""
    return store(*_table_and_flow(table_id))


def page(table: Table, flow_class: type[Flow]) -> ResponseReturnValue:
    """GET: show the step the draft is at, after applying the button pressed (if any)."""
    draft = flow_class.draft_class.load(request.args.get("d"))
    if draft.replaces is None and request.args.get("replaces") is None and ledger.deals_done(table):
        return redirect(url_for("tables.show", table_id=table.id))  # the round is over at this table
    if not draft.key:
        draft.key = secrets.token_urlsafe(16)
        draft.n = ledger.next_number(table)
    replaces = small_int(request.args.get("replaces"), 1_000_000)
    prefill = None
    if replaces is not None and draft.replaces is None:
        old = ledger.get_hand(table, replaces)
        if old is None or old.is_void:
            abort(404)
        draft.replaces = replaces
        prefill = dict(old.record)
    flow = flow_class(table, draft)
    flow.start(request.args)
    if prefill is not None:
        flow.prefill(prefill)
        flow.sanitize()
    action = request.args.get("action")
    if action:
        draft.reopen = ""  # any answer closes a step opened again with its counts
        flow.apply(action)
        flow.sanitize()
    return flow.render()


def store(table: Table, flow_class: type[Flow]) -> ResponseReturnValue:
    """POST: store the hand the draft describes; a retry of a stored draft just redirects."""
    draft = flow_class.draft_class.load(request.form.get("d"))
    done = ledger.stored_number(table, draft.key) if draft.key else None
    if done is not None:
        return _saved(table, already=done)  # a double tap, or a retry
    replace = small_int(request.form.get("replace"), 1_000_000)
    if replace is not None and draft.replaces is None:
        # Two phones recorded the same hand: this one's version voids and replaces the other.
        draft.replaces = replace
        draft.reason = _("Replaced by the version entered on another phone at the same time.")
        draft.n = ledger.next_number(table)
    flow = flow_class(table, draft, sanitize=False)
    flow.before_save(request.form)
    flow.sanitize_to_save()  # once, with what before_save filled in: judged like any draft (a forged post)
    if draft.replaces is not None:
        draft.reason = " ".join(str(request.form.get("reason") or draft.reason).split())[:200]
        if not draft.reason:  # as voiding does: the history keeps why the hand changed
            return flow.render(422, reason_error=_("Say why the hand is corrected: the history keeps the reason."))
    if request.form.get("renumber"):
        draft.n = ledger.next_number(table)
    # A correction keeps its hand's number on the pages (a new hand's is not needed to save it).
    shown = flow.shown_number() if draft.replaces is not None else 0
    try:
        number, replayed = _record(table, flow)
    except ledger.Conflict as exc:
        flow.read_again()
        taken = ledger.get_hand(table, exc.taken) if exc.taken else None  # the hand the sentence names
        # A table of a set number of deals that has played them all takes no next hand.
        over = draft.replaces is None and ledger.deals_done(table)
        return flow.render(409, conflict=render_text(exc.text), taken=taken, round_over=over)
    except RulesError as exc:
        return flow.render(422, error=render_text(exc.text))
    if replayed:  # sent twice: nothing new happened, the page says so
        return _saved(table, already=number)
    if draft.replaces is not None:
        flash(labels.about_one(table.game, "corrected", shown), "success")
    else:
        offer_undo(table, number)
    return _saved(table)


def _record(table: Table, flow: Flow) -> tuple[int, bool]:
    """Store the draft's hand: ``(number, replayed)``. The engine judges it (the auction is
    replayed once, by the engine); if it refuses, the draft is sanitized in full as any page's
    (a forged call cut, its sentence shown) and what is left judged, as a page would have sent it."""
    try:
        return _stored(table, flow)
    except RulesError:
        if flow.in_full:
            raise
        sent = flow.draft.dump()
        flow.sanitize()
        if flow.draft.dump() == sent:
            raise
        return _stored(table, flow)


def _stored(table: Table, flow: Flow) -> tuple[int, bool]:
    draft = flow.draft
    number, _saved_hand, replayed = ledger.record_hand(
        table,
        flow.record(),
        expected_number=draft.n or None,
        actor=actor_code(table),
        idempotency_key=draft.key or None,
        replaces=draft.replaces,
        reason=draft.reason,
    )
    return number, replayed


@bp.get("/t/<table_id>/hands/<int:number>/saved")
def already_saved(table_id: str, number: int) -> ResponseReturnValue:
    """Where a save sent twice lands (a double tap, a retry, the outbox re-sending it): the hand
    as it was stored the first time, not an error. It shows what the history shows anyone."""
    return _already_page(load(table_id), number)


def _already_page(table: Table, number: int) -> str:
    """The page of a hand saved before, drawn from the table already loaded."""
    hand = ledger.get_hand(table, number)
    if hand is None:
        abort(404)
    return render_template("tables/saved.html", **board(table), hand=hand)


def _saved(table: Table, *, already: int | None = None) -> ResponseReturnValue:
    """After a save (``already``: the number a save sent twice got the first time): a redirect to
    the table, or to the page saying it was already saved; or, for the page's own fetch (the outbox in
    app.js), where to go, so the flashed message waits for that page. When that fetch can swap
    a page in (it says ``X-Swap``), the table page itself, with its address: one round trip
    instead of the answer and then the page."""
    if already is not None:  # sent before: the page that says so, with the hand
        target = url_for("hands.already_saved", table_id=table.id, number=already)
    else:
        target = url_for("tables.show", table_id=table.id)
    if not request.headers.get("X-Referee-Outbox"):
        return redirect(target)
    if not boost.from_script():
        return jsonify({"location": target})
    page = _already_page(table, already) if already is not None else table_page(table)
    return page, {"X-Swap-Push-Url": target}
