"""A championship's public pages and its tables' pages: the ranking (live), a player's own page
and card, the round's seating plan (printable) and the TV view; and at each round's table, the
scorer's final counts and the fiscal's sign-off.

The championship's id is the permission to read it, as a table's is: it is in the player cards'
QR codes and on the TV. Nothing public shows a way to write: the scorers' and the fiscals' cards
are printed from the manager's page (:mod:`referee.views.championship_manage`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, flash, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup

from referee import access, championship, club, clubs, ledger, qr
from referee.championship import history, lookups, trail, wall
from referee.championship.ranking import ranking_csv, visible_standings
from referee.championship.rounds import FISCAL, round_table_of
from referee.championship.settings import deals_at, describe, played_at
from referee.championship.signoff import is_fiscal, problems
from referee.i18n import render_text
from referee.models import Championship, RoundTable, Table
from referee.phone import device
from referee.rules.errors import RulesError
from referee.views import organiser
from referee.views.championship_pages import common, live_version, load, load_table, names, player_card
from referee.views.phone_tables import grant_of, remember_token, shown_tables
from referee.views.polling import table_version

bp = Blueprint("championship", __name__)


_BLOCKS: dict[tuple[str, int | None, bool, str], tuple[str, Markup]] = {}
_KEPT = 256  # rankings kept per process, at most


def ranking_block(found: Championship, version: str, *, limit: int | None = None, link: bool = True) -> Markup:
    """The ranking and its legend as HTML, rendered once per version and language: twenty phones
    redrawing the wall's ranking share one render. Nothing in it depends on who reads it."""

    def render() -> str:
        board = visible_standings(found)
        return render_template(
            "championship/_ranking_block.html",
            lines=board.lines,
            sealed=board.sealed,
            champ=found,
            about=describe(found),
            limit=limit,
            link=link,
        )

    return _shared(_BLOCKS, (found.id, limit, link, str(get_locale())), version, render)


def _shared(kept: dict[Any, tuple[str, Markup]], key: Any, version: str, render: Callable[[], str]) -> Markup:
    """``render()`` once per ``key`` (the championship, the reader's language...) and version:
    what every watcher of one championship is shown, shared by them all (at most :data:`_KEPT`
    renders kept per process)."""
    found = kept.get(key)
    if found is not None and found[0] == version:
        return found[1]
    html = Markup(render())  # noqa: S704 - rendered by Jinja with autoescape
    if len(kept) > _KEPT:
        kept.clear()
    kept[key] = (version, html)
    return html


_WALLS: dict[tuple[str, str], tuple[str, Markup]] = {}


def wall_block(found: Championship, version: str, round_number: int, tables: list[RoundTable]) -> Markup:
    """The wall's pages (:mod:`referee.championship.wall`) as HTML, rendered once per version and
    language as the ranking is: the screens on the walls of a hall share one render."""

    def render() -> str:
        board = visible_standings(found)
        return render_template(
            "championship/_wall.html",
            champ=found,
            about=describe(found),
            round_number=round_number,
            plan_pages=wall.plan_pages(tables),
            ranking_pages=wall.ranking_pages(board.lines),
            sealed=board.sealed,
            people=names(found),
            seconds=wall.SECONDS_PER_PAGE,
        )

    return _shared(_WALLS, (found.id, str(get_locale())), version, render)


@bp.get("/c/<championship_id>")
def show(championship_id: str) -> ResponseReturnValue:
    """The ranking, live while a round is played, with the links of the day."""
    found = load(championship_id)
    data = common(found)
    return render_template("championship/show.html", **data, ranking_html=ranking_block(found, data["version"]))


@bp.get("/c/<championship_id>/history")
def day_history(championship_id: str) -> ResponseReturnValue:
    """The day's history, newest first: who did what and when (:mod:`referee.championship.history`)."""
    found = load(championship_id)
    entries = names(found)
    manager = club.is_manager()
    hidden = set() if manager else history.sealed_rounds(found)
    tables = history.seats(found)
    shown = [
        {
            "at": line.at,
            "actor": history.who(line.actor, tables),
            "text": history.sentence(line, entries, hide_chips=line.round in hidden),
            "note": history.note(line),
        }
        for line in reversed(history.readable(history.lines(found), manager=manager))
    ]
    return render_template("championship/history.html", **common(found), lines=shown)


@bp.get("/c/<championship_id>/version")
def version(championship_id: str) -> ResponseReturnValue:
    """The live pages' version (app.js asks it every few seconds): 304 when nothing moved."""
    found = load(championship_id)
    etag = live_version(found)
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        response = jsonify({"version": etag})
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/c/<championship_id>/tv")
def tv(championship_id: str) -> ResponseReturnValue:
    """For the wall: the round's tables and the whole ranking, a screen at a time in very large
    type (:mod:`referee.championship.wall`), updating itself."""
    found = load(championship_id)
    data = common(found)
    tables = championship.round_tables(found, data["round_number"]) if data["round_number"] else []
    url = url_for("championship.show", championship_id=found.id, _external=True)
    return render_template(
        "championship/tv.html",
        **data,
        wall_html=wall_block(found, data["version"], data["round_number"], tables),
        tables=tables,
        page_qr=qr.svg(url, label=_("QR code of the championship's page")),
    )


@bp.get("/c/<championship_id>/ranking.csv")
def ranking_export(championship_id: str) -> ResponseReturnValue:
    found = load(championship_id)
    body = ranking_csv(found, visible_standings(found).lines)
    response = Response(body, mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="ranking-{found.id[:8]}.csv"'
    return response


@bp.get("/c/<championship_id>/ranking/print")
def ranking_print(championship_id: str) -> ResponseReturnValue:
    found = load(championship_id)
    board = visible_standings(found)
    return render_template("championship/ranking_print.html", **common(found), lines=board.lines, sealed=board.sealed)


@bp.get("/c/<championship_id>/r/<int:round_number>")
def plan(championship_id: str, round_number: int) -> ResponseReturnValue:
    """The round's seating plan, printable on A4 in large numbers; and whether its draw, run
    again from the seed shown, gives the same tables (``?check=1``)."""
    found = load(championship_id)
    tables = championship.round_tables(found, round_number)
    if not tables:
        abort(404)
    drawn = lookups.drawn_round(found, round_number)
    checked = championship.redraw(found, round_number) if request.args.get("check") else None
    people = names(found)
    return render_template(
        "championship/plan.html",
        **common(found),
        plan_round=drawn,
        tables=tables,
        people=people,
        # The number -> table index, in card number order: a player finds himself at a glance.
        index=sorted((people[e].number, t.number) for t in tables for e in t.entries),
        checked=checked,
        again=championship.pairs_again(found)[round_number],
        deals_of={t.number: deals_at(found, len(t.entries)) for t in tables},
        played_of={t.number: played_at(found, len(t.entries)) for t in tables},
    )


@bp.get("/c/<championship_id>/n/<int:number>")
def player(championship_id: str, number: int) -> ResponseReturnValue:
    """A player's own page (his card's QR code): where he sits now (table and seat, at the top,
    from the moment the round is drawn: the page follows the championship's live version, so an
    open page shows the next table by itself), his place, his tables, his points per round."""
    found = load(championship_id)
    entry = championship.card_number(found, number)
    if entry is None:
        abort(404)
    board = visible_standings(found)
    line = next(line for line in board.lines if line.number == number)
    seats = [t for t in lookups.round_tables_of(found) if entry.id in t.entries]
    data = common(found)
    now = next((t for t in seats if t.round == data["round_number"]), None)
    return render_template(
        "championship/player.html",
        **data,
        entry=entry,
        line=line,
        seats=seats,
        now=now,
        seat=now.entries.index(entry.id) + 1 if now is not None else None,
        sealed=board.sealed,
    )


@bp.get("/c/<championship_id>/n/<int:number>/card")
def card(championship_id: str, number: int) -> ResponseReturnValue:
    """A player's card, to print or to show on his phone: number, name, and the QR code of his page."""
    found = load(championship_id)
    entry = championship.card_number(found, number)
    if entry is None:
        abort(404)
    return render_template("championship/cards.html", champ=found, cards=[player_card(found, entry)])


# --------------------------------------------------------------------------- a round's table


def table_context(found: Championship, row: RoundTable, table: Table) -> dict[str, Any]:
    grant = grant_of(table)
    count = championship.chip_count(found, row, table)
    people = names(found)
    # A sealed round's chips: only for the manager and the phones that hold this table's cards.
    own = club.is_manager() or is_fiscal(row, grant) or (grant.can_score and grant.access_id == row.scorer_access)
    hide = not own and row.round in history.sealed_rounds(found)
    problem = problems(found, row, table) if row.signed_at is None else None
    return {
        **common(found),
        "row": row,
        "table": table,
        "seated": [people[e] for e in row.entries],
        "count": count,
        "problem": render_text(problem) if problem is not None else None,
        "scorer": grant.can_score and (grant.access_id == row.scorer_access or grant.is_owner),
        "fiscal": is_fiscal(row, grant),
        "deals": table.deals,
        # The Referee table's own pages (its hands, its settle-up) only for a phone that may
        # already name it: the scorer's and the fiscal's cards, the manager. Its id is the
        # permission to read it, Pix keys included, and this page is read with the
        # championship's public link.
        "table_link": table.id in shown_tables([table.id]),
        "trail": trail.table_trail(found, row, people, hide_chips=hide),
        "chips_hidden": hide,
    }


@bp.get("/c/<championship_id>/r/<int:round_number>/m/<int:table_number>")
def table_page(championship_id: str, round_number: int, table_number: int) -> ResponseReturnValue:
    """A round's table: its players and their chips now, where they come from, and what is
    missing before its sign-off; the scorer's counts form and the fiscal's button."""
    found = load(championship_id)
    row, table = load_table(found, round_number, table_number)
    return render_template("championship/table.html", **table_context(found, row, table))


@bp.get("/c/<championship_id>/r/<int:round_number>/m/<int:table_number>/version")
def table_live_version(championship_id: str, round_number: int, table_number: int) -> ResponseReturnValue:
    """The round table's version for its live page: the table's own, under the championship's
    address, so that the page follows its hands without naming the table."""
    found = load(championship_id)
    _row, table = load_table(found, round_number, table_number)
    return table_version(table)


def _refused(
    found: Championship, row: RoundTable, table: Table, error: str, status: int, *, counts: bool = False
) -> ResponseReturnValue:
    """The table page again with the sentence that refused a write: next to the counts typed
    (``counts``), or at the top."""
    place = "counts_error" if counts else "error"
    return render_template("championship/table.html", **table_context(found, row, table), **{place: error}), status


@bp.post("/c/<championship_id>/r/<int:round_number>/m/<int:table_number>/counts")
def counts(championship_id: str, round_number: int, table_number: int) -> ResponseReturnValue:
    """A paper table's final chips, typed by its scorer (or the manager)."""
    found = load(championship_id)
    row, table = load_table(found, round_number, table_number)
    grant = grant_of(table)
    manager = club.is_manager()
    if not (manager or (grant.can_score and grant.access_id == row.scorer_access)):
        abort(403)
    raw = {entry_id: request.form.get(f"chips_{entry_id}", "") for entry_id in row.entries}
    who = organiser.actor() if manager and grant.access_id != row.scorer_access else access.actor(grant, device())
    try:
        championship.enter_counts(found, row, table, raw, actor=who)
    except RulesError as exc:
        return _refused(found, row, table, render_text(exc.text), 422, counts=True)
    flash(_("Counts saved: they add up. The fiscal can sign the table off."), "success")
    return redirect(clubs.here().rsplit("/", 1)[0])


@bp.post("/c/<championship_id>/r/<int:round_number>/m/<int:table_number>/sign")
def sign(championship_id: str, round_number: int, table_number: int) -> ResponseReturnValue:
    """The fiscal signs the table off: its chips become the round's points."""
    found = load(championship_id)
    row, table = load_table(found, round_number, table_number)
    grant = grant_of(table)
    if not is_fiscal(row, grant):
        abort(403)
    try:
        championship.sign(found, row, table, grant, actor=access.actor(grant, device()))
    except RulesError as exc:
        return _refused(found, row, table, render_text(exc.text), 422)
    except ledger.Conflict as exc:
        return _refused(found, row, table, render_text(exc.text), 409)
    flash(_("Table %(table)s signed off: its chips are the round's points.", table=row.number), "success")
    return redirect(clubs.here().rsplit("/", 1)[0])


@bp.get("/f/<token>")
def fiscal_link(token: str) -> ResponseReturnValue:
    """A fiscal's card (its QR code): this phone becomes the fiscal of that table."""
    table = access.redeem_link(token)
    row = round_table_of(table.id) if table else None
    if table is None or row is None or access.grant(table, token).role != FISCAL:
        return render_template(
            "sharing/refused.html",
            message=_("This fiscal's card does not work: it was revoked, or it is not complete."),
        ), 403
    remember_token(table, token)
    flash(_("This phone is the fiscal of table %(table)s.", table=row.number), "success")
    return redirect(
        url_for(
            "championship.table_page",
            championship_id=row.championship_id,
            round_number=row.round,
            table_number=row.number,
        )
    )
