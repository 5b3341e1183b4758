"""Table pages: create, scoreboard, history, void and correct, settle-up, watch.

Thin views in the POST-redirect-GET style: read the form, call one ledger function, flash,
redirect. Who may write is decided by the way in the phone holds at the table: the hash of a
token, kept on the server under the phone's key (referee.keyring), never in its cookie.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import format_datetime
from flask_babel import gettext as _

from referee import access, league, ledger, members, settleup
from referee.api import answers
from referee.championship.rounds import round_table_of
from referee.forms import field_for, option_values, table_form
from referee.i18n import render_text
from referee.inputs import local_path
from referee.models import Table
from referee.rules import GAMES, get_game
from referee.rules.errors import RulesError
from referee.rules.settle import EXACT_LIMIT
from referee.views import games, labels, new_table
from referee.views.phone_tables import (
    PENDING_WINDOW,
    UNDO,
    actor_code,
    adopt_old_tokens,
    can_score,
    forget_replaced_key,
    is_owner,
    load,
    offer_undo,
    redoable,
    refuse_revoked,
    remember_seen,
    remember_token,
    require_scorer,
    undoable,
)

bp = Blueprint("tables", __name__)
bp.add_app_template_global(settleup.chips_left_sentence, "chips_left_sentence")
bp.before_app_request(forget_replaced_key)
bp.before_app_request(adopt_old_tokens)

RECENT = 3
#: Hands on one page of the history, newest first: a long night's 2,000 hands would be megabytes.
HISTORY_PAGE = 50


def board(table: Table) -> dict[str, Any]:
    """Everything the scoreboard shows. A handful of small queries whatever the number of
    hands; the history page loads its own page of hands."""
    totals = ledger.totals(table)
    players = ledger.players_of(table)
    dealer = ledger.current_dealer(table)
    rules = ledger.rules_of(table)
    options = ledger.options_of(table)
    settlement = ledger.settlement(table, balances=totals)
    recent = ledger.recent_entries(table, RECENT)
    return {
        "table": table,
        "game_name": rules.name,
        "players": players,
        "totals": totals,
        "stock": ledger.stock(table),
        "left": ledger.stock_left(table, totals),
        "money": settlement.get("money"),
        "transfers": settlement.get("transfers", []),
        # A pot game (Injun, Kentucky Derby, Lift Smoke): the chips left on the table for the
        # next deal (odd chips, a pot nobody won), which the balances do not show.
        "on_the_table": ledger.on_the_table(table, totals) if rules.kind.carries_pot else None,
        # And who gets them if the night ends now, told in one sentence (settle/_chips_left.html);
        # not at a championship's table, whose ranking counts each player's own chips, never paid.
        "chips_left": (
            ledger.chips_left(table, totals) if rules.kind.carries_pot and not round_table_of(table.id) else None
        ),
        # A patience (one player, nothing paid): games and wins per patience instead of chips.
        "solo": rules.kind.solo,
        "patience": league.table_patience(table) if rules.kind.counts_wins else None,
        "scoreboard": rules.kind.board_template,
        # A game scored toward a target (Samba): the teams, their totals and opening melds,
        # the end of the match and its rematch.
        "match": ledger.standing(table),  # the table's own totals: worked out once per request
        "target": rules.goal(options),
        # The options that differ from the game's default: a result may depend on them.
        "house_rules": labels.house_rules(rules, options),
        "rematch": ledger.rematch_of(table) if rules.kind.points_match else None,
        "dealer": dealer,
        "speaker": rules.first_speaker(players, dealer, options),
        "sitting_out": rules.sitting_out(players, dealer, options),
        "next_number": ledger.next_number(table),
        # The last places in play (a correction in its hand's place), with what each corrected.
        **_listed(recent),
        "numbering": ledger.numbering(table, [h for e in recent for h in (e.hand, *e.before)]),
        "live_count": ledger.live_count(table),
        "last_round": ledger.last_round(table),
        "clock": ledger.clock(table),
        "can_score": can_score(table),
        "is_owner": is_owner(table),
        "two_key": table.two_key,
        # Two-key entry: whether this phone may confirm a hand (asked only on a scorer's phone).
        "may_confirm": lambda hand: access.may_confirm(hand.created_by, actor_code(table)),
        "access_labels": access.labels(table),
        "pending": ledger.to_confirm(ledger.recent_hands(table, PENDING_WINDOW)) if table.two_key else [],
    }


def _listed(entries: list[ledger.Entry]) -> dict[str, Any]:
    """A list of hands for tables/_hand.html (newest first): ``recent``, and ``corrected_from``,
    the versions each one corrected (by stored number)."""
    return {
        "recent": [e.hand for e in entries],
        "corrected_from": {e.hand.number: e.before for e in entries if e.before},
    }


def lines_of(hand: Any) -> list[dict[str, Any]]:
    return answers.breakdown(hand.result)


@bp.app_context_processor
def inject_helpers() -> dict[str, Any]:
    return {
        "hand_lines": lines_of,
        "labels": labels,
        "clock_choices": CLOCK_CHOICES,
        "game_pages": games.PAGES,
    }


# --------------------------------------------------------------------------- create


@bp.route("/tables/new", methods=["GET", "POST"])
def new() -> ResponseReturnValue:
    game = request.args.get("game")
    if game is None:
        return render_template("tables/choose_game.html", games=list(GAMES.values()))
    if game not in GAMES:
        abort(404)
    rules = get_game(game)
    partnerships = games.pages_of(game).partnerships
    form = table_form(rules, request.form if request.method == "POST" else None)
    error = None
    if request.method == "POST":
        # Every mistake at once, each next to its field; the engine judges only a clean form.
        valid = form.validate()
        mistakes = new_table.mark_mistakes(form, rules)
        created = _create(form, rules, partnerships) if valid and not mistakes else _("Check the fields marked below.")
        if not isinstance(created, str):
            table, token = created
            remember_token(table, token)
            flash(_("Table created. Good game!"), "success")
            return redirect(url_for("tables.show", table_id=table.id))
        error = created
    status = 422 if request.method == "POST" else 200
    return render_template(
        "tables/new.html",
        form=form,
        rules=rules,
        error=error,
        partnerships=partnerships,
        shown_seats=_shown_seats(rules, form),
        drawings=new_table.seating_drawings(rules, new_table.seat_names(form, rules), _shown_seats(rules, form)),
        seat_names=new_table.seat_names(form, rules),
        member_names=[m.name for m in members.active()],
    ), status


def _create(form: Any, rules: Any, partnerships: games.Partnerships | None) -> tuple[Table, str] | str:
    """The table a checked form describes (:func:`new_table.mark_mistakes`), created (with its
    owner's token); else the engine's sentence saying what to fix, next to its field when the
    form has it. The seats beyond the game's minimum are optional (a fifth at Quatrilho)."""
    players = new_table.seat_names(form, rules)
    names = [name for name in players if name]
    dealer = players[new_table.dealer_seat(form, rules)]
    teams = None
    try:
        if partnerships is not None:
            names, teams, dealer = partnerships.seat(names, dealer, request.form)
        return ledger.create_table(
            game=rules.slug,
            players=names,
            dealer=dealer,
            name=form.name.data,
            options=option_values(form, rules),
            locale=None,
            teams=teams,
            duration=request.form.get("duration") or None,
        )
    except RulesError as exc:
        return _refusal(form, exc)


def _refusal(form: Any, exc: RulesError) -> str:
    """The engine's sentence, next to the field it is about when the form has that field."""
    error = render_text(exc.text)
    target = field_for(exc.field)
    if target and hasattr(form, target):
        getattr(form, target).errors = [error]
        error = _("Check the fields marked below.")
    return error


def _shown_seats(rules: Any, form: Any) -> int:
    """How many seats the new-table form shows unfolded: every seat of a game with at most two
    optional ones; else the required ones, at least four, and every seat already named (a
    refused post). The rest wait behind "Add a player" (app.js)."""
    if rules.max_players - rules.min_players <= 2:
        return int(rules.max_players)
    named = [i for i in range(rules.max_players) if getattr(form, f"player_{i}").data]
    return max(rules.min_players, 4, named[-1] + 1 if named else 0)


#: The agreed playing times the forms offer, in minutes (the API takes any from 15 to 1440).
CLOCK_CHOICES = (60, 90, 120, 180, 240)

# --------------------------------------------------------------------------- read


@bp.get("/t/<table_id>")
def show(table_id: str) -> ResponseReturnValue:
    return table_page(load(table_id))


def table_page(table: Table) -> str:
    """The table page drawn from a table already loaded: the page itself, and the answer to a
    save from the page (which has the table, its house rules and its standing in hand)."""
    remember_seen(table)
    if not can_score(table):
        refuse_revoked(table)
    data = board(table)
    shown = {hand.number: hand for hand in data["recent"]}  # the last hands, events and all
    data["undo"] = undoable(table, data["next_number"], shown) if data["can_score"] else None
    data["redo"] = redoable(table, data["next_number"]) if data["can_score"] else None
    return render_template("tables/show.html", **data, watching=False, in_round=round_table_of(table.id))


@bp.get("/w/<table_id>")
def watch(table_id: str) -> ResponseReturnValue:
    """The read-only view: the same scoreboard without any control that writes."""
    table = load(table_id)
    remember_seen(table)
    data = board(table)
    data["can_score"] = False
    return render_template(
        "tables/show.html", **data, watching=True, undo=None, redo=None, in_round=round_table_of(table.id)
    )


@bp.get("/t/<table_id>/history")
def history(table_id: str) -> ResponseReturnValue:
    """The hands, newest first, HISTORY_PAGE places in play at a time (``?page=2`` is the next
    older page); a correction is listed in its hand's place, with the versions it replaced."""
    table = load(table_id)
    pages = max(1, -(-ledger.place_count(table) // HISTORY_PAGE))
    text = request.args.get("page", "1")
    page = int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else 0
    if not 1 <= page <= pages:
        abort(404)
    entries = ledger.recent_entries(table, HISTORY_PAGE, (page - 1) * HISTORY_PAGE)
    listed = _listed(entries)
    data = {**board(table), "corrected_from": listed["corrected_from"]}
    # The page's hands, read at once (the list draws them newest first).
    data["numbering"] = ledger.numbering(table, [h for e in entries for h in (e.hand, *e.before)])
    return render_template("tables/history.html", **data, hands=listed["recent"][::-1], page=page, pages=pages)


def summary_title(name: str | None, game: str) -> str:
    """The settle-up summary's first words: the table's name and its game ("Sexta (Jubileu)"),
    the game once when the table has no name of its own, or is named after the game."""
    return f"{name} ({game})" if name and name != game else game


@bp.get("/t/<table_id>/settle")
def settle(table_id: str) -> ResponseReturnValue:
    """The settle-up: each player's net, the fewest payments (with Pix codes where the payee
    stored a key), a summary to paste in the chat, and, for the owner, closing the table."""
    table = load(table_id)
    data = board(table)
    if data["match"] is None:
        result = settleup.settle_up([table])
        when = format_datetime(table.created_at, "short")
        data.update(
            result=result,
            summary=settleup.summary(result, title=summary_title(table.name, data["game_name"]), when=when),
            unit_note=labels.unit_note(table.game, ledger.money(table, 1)),
            exact_limit=EXACT_LIMIT,
        )
    data["local_day"] = league.local_date(table.created_at).isoformat()
    return render_template("tables/settle.html", **data)


@bp.post("/t/<table_id>/scorer")
def claim(table_id: str) -> ResponseReturnValue:
    """Score on this phone with a token the phone's user already holds: the one the API answered
    when a program created the table, or a scoring link's. No page shows or asks for the
    table's own token: phones join through scoring links and join codes (sharing)."""
    table = load(table_id)
    token = (request.form.get("token") or "").strip()
    if access.grant(table, token).can_score:
        remember_token(table, token)
        flash(_("This phone can now record hands at this table."), "success")
    else:
        flash(_("That scorer code is not right for this table."), "error")
    return redirect(url_for("tables.show", table_id=table.id))


# --------------------------------------------------------------------------- void


@bp.route("/t/<table_id>/hands/<int:number>/void", methods=["GET", "POST"])
def void(table_id: str, number: int) -> ResponseReturnValue:
    table = load(table_id)
    require_scorer(table)
    hand = ledger.get_hand(table, number)
    if hand is None:
        abort(404)
    if hand.is_void:  # voided meanwhile (another phone, a second tap): it has no place to name
        flash(_("That hand is already void."), "error")
        return redirect(url_for("tables.history", table_id=table.id))
    numbering = ledger.numbering(table)
    shown = numbering.of(hand)  # the number the pages show it under
    error = None
    reason = ""
    if request.method == "POST":
        reason = " ".join(str(request.form.get("reason") or "").split())
        if not reason:
            error = _("Say why the hand is voided: the history keeps the reason.")
        else:
            try:
                ledger.void_hand(table, number, owner=is_owner(table), reason=reason, actor=actor_code(table))
            except ledger.Conflict as exc:
                flash(render_text(exc.text), "error")
            except RulesError as exc:
                error = render_text(exc.text)
            else:
                flash(labels.about_one(table.game, "void", shown), "success")
            if error is None:
                return redirect(url_for("tables.show", table_id=table.id))
    page = render_template(
        "tables/void.html", table=table, hand=hand, shown=shown, numbering=numbering, error=error, reason=reason
    )
    return page, (422 if error else 200)


@bp.post("/t/<table_id>/last-round")
def last_round(table_id: str) -> ResponseReturnValue:
    """Declare the last round (la tonda) from the next hand on, or take it back."""
    table = load(table_id)
    require_scorer(table)
    on = request.form.get("on") == "1"
    try:
        ledger.declare_last_round(table, on=on)
    except ledger.Conflict as exc:
        flash(render_text(exc.text), "error")
    else:
        flash(
            _("The last round starts now: each player deals once more.") if on else _("The last round was called off."),
            "success",
        )
    return redirect(url_for("tables.show", table_id=table.id))


@bp.post("/t/<table_id>/clock")
def set_clock(table_id: str) -> ResponseReturnValue:
    """Start the session clock with the time the players agree on from now, or stop it (the
    form's "stop" button, which is sent along with the chosen time; or minutes 0)."""
    table = load(table_id)
    require_scorer(table)
    if round_table_of(table.id) is not None:
        flash(_("A championship's table plays the round's time: only the organiser sets it."), "error")
        return redirect(url_for("tables.show", table_id=table.id))
    minutes = None if request.form.get("stop") else request.form.get("minutes") or None
    try:
        ledger.set_clock(table, minutes)
    except (ledger.Conflict, RulesError) as exc:
        flash(render_text(exc.text), "error")
    else:
        flash(_("The clock is running.") if table.ends_at else _("The clock is off."), "success")
    return redirect(url_for("tables.show", table_id=table.id))


@bp.route("/t/<table_id>/hands/<int:number>/undo", methods=["GET", "POST"])
def undo(table_id: str, number: int) -> ResponseReturnValue:
    """The "undo" right after saving: the link asks first (GET), the answer voids (POST) with a
    standard reason, nothing erased; then this phone may bring the hand back (:func:`redo`)."""
    table = load(table_id)
    require_scorer(table)
    if undoable(table, ledger.next_number(table)) != number:
        flash(_("Only the hand this phone just recorded can be undone; use the history to void another."), "error")
        return redirect(url_for("tables.show", table_id=table.id))
    if request.method == "GET":
        hand = ledger.get_hand(table, number)
        return render_template("tables/undo.html", **board(table), hand=hand)
    session.pop(UNDO, None)
    try:
        ledger.void_hand(
            table, number, owner=False, reason=_("Undone right after it was recorded."), actor=actor_code(table)
        )
    except (ledger.Conflict, ledger.NotFound):
        flash(_("That hand could not be undone."), "error")
    except RulesError as exc:  # confirmed meanwhile by the other side: it is theirs too now
        flash(render_text(exc.text), "error")
    else:
        # No flash: the bar in its place says so, with "Redo", and nothing moves on the page.
        session[UNDO] = {"table": table.id, "number": number, "undone": True}
    return redirect(url_for("tables.show", table_id=table.id))


@bp.post("/t/<table_id>/hands/<int:number>/redo")
def redo(table_id: str, number: int) -> ResponseReturnValue:
    """Bring back the hand this phone just undid: a new entry in the history with the same
    record (ledger.restore_hand); the void stays. A second tap finds it already back."""
    table = load(table_id)
    require_scorer(table)
    offer = session.get(UNDO) or {}
    if not (offer.get("table") == table.id and offer.get("number") == number and offer.get("undone")):
        back = ledger.stored_number(table, ledger.restore_key(number))
        if back is not None:  # a second tap: the first one brought it back already
            flash(labels.about_one(table.game, "back", ledger.numbering(table).place(back)), "success")
        else:
            flash(_("Only the hand this phone just undid can be brought back."), "error")
        return redirect(url_for("tables.show", table_id=table.id))
    try:
        restored, _replayed = ledger.restore_hand(table, number, actor=actor_code(table))
    except (ledger.Conflict, RulesError) as exc:
        flash(render_text(exc.text), "error")
    except ledger.NotFound:
        abort(404)
    else:
        offer_undo(table, restored)
        shown = ledger.numbering(table).place(restored)  # the place it left, taken again
        flash(labels.about_one(table.game, "back", shown), "success")
    return redirect(url_for("tables.show", table_id=table.id))


@bp.post("/t/<table_id>/rematch")
def rematch(table_id: str) -> ResponseReturnValue:
    """A new match with the same players and teams, once this one is over; this phone scores it."""
    table = load(table_id)
    require_scorer(table)
    try:
        new, token = ledger.rematch(table)
    except ledger.Conflict as exc:
        flash(render_text(exc.text), "error")
        return redirect(url_for("tables.show", table_id=table.id))
    remember_token(new, token)
    flash(_("Rematch! Same teams, scores back to zero."), "success")
    return redirect(url_for("tables.show", table_id=new.id))


# --------------------------------------------------------------------------- two-key entry


def _two_key_step(table_id: str, number: int, step: Any, done: str) -> ResponseReturnValue:
    """Confirm or dispute a hand (two-key entry): the ledger decides, the page says what happened
    (``done``: a sentence of labels.about_one), naming the hand by its place in play, never its
    stored number, in the game's own word."""
    table = load(table_id)
    require_scorer(table)
    try:
        hand = step(table, number, actor=actor_code(table))
    except (ledger.Conflict, RulesError) as exc:
        flash(render_text(exc.text), "error")
    except ledger.NotFound:
        abort(404)
    else:
        flash(labels.about_one(table.game, done, ledger.numbering(table).of(hand)), "success")
    return redirect(local_path(request.form.get("next"), url_for("tables.show", table_id=table.id)))


@bp.post("/t/<table_id>/hands/<int:number>/confirm")
def confirm(table_id: str, number: int) -> ResponseReturnValue:
    """Confirm a hand another phone recorded (two-key entry)."""
    return _two_key_step(
        table_id,
        number,
        lambda table, n, actor: ledger.confirm_hand(table, n, actor=actor),
        "confirmed",
    )


@bp.post("/t/<table_id>/hands/<int:number>/dispute")
def dispute(table_id: str, number: int) -> ResponseReturnValue:
    """Flag a hand for the owner (two-key entry)."""
    return _two_key_step(
        table_id,
        number,
        lambda table, n, actor: ledger.dispute_hand(table, n, actor=actor, reason=request.form.get("reason") or ""),
        "disputed",
    )
