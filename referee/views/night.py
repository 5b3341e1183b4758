"""A club night: several tables of one evening settled together, so that a player who sat at
two tables pays or collects once (referee.ledger.settlement does the arithmetic)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from flask import Blueprint, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import format_date
from flask_babel import gettext as _

from referee import club, league, ledger, settleup
from referee.i18n import render_text
from referee.ledger.tables import tables_created, tables_of_ids
from referee.models import Table
from referee.rules import get_game
from referee.rules.errors import RulesError
from referee.rules.settle import EXACT_LIMIT
from referee.views import labels
from referee.views.phone_tables import PENDING_WINDOW, known_tables

bp = Blueprint("night", __name__)

#: At most this many tables in one settle-up (a big club night has a dozen).
MAX_TABLES = 40


def _day(raw: str | None) -> date:
    try:
        return league.parse_day(raw) if raw else league.local_date(datetime.now(UTC))
    except ValueError:
        return league.local_date(datetime.now(UTC))


@bp.get("/night")
def index() -> ResponseReturnValue:
    """The tables of one evening (played for payments), to pick the ones to settle together.

    Listing a table hands out its id, which is the permission to read it (its settle page shows
    the payees' Pix keys): a phone with the club's code sees every table of the evening, any
    other phone only the tables it already knows."""
    day = _day(request.args.get("date"))
    start, end = league.day_bounds(day, day)
    manager = club.is_manager()
    known = None if manager else known_tables()
    tables = [t for t in tables_created(start, end, among=known) if get_game(t.game).kind.settle_up]
    rows = _rows(tables)
    return render_template(
        "night/index.html",
        day=day,
        rows=rows,
        day_text=format_date(day, "full"),
        manager=manager,
        together=sum(1 for row in rows if not row.reason),
    )


@dataclass(frozen=True)
class Row:
    """One table in the club night's list: what the list shows of it, and, when it cannot be
    settled with the others, why (``reason``) and whether it can be settled apart (``alone``:
    it has hands, all of them counted; only its unit keeps it out)."""

    table: Table
    game_name: str
    players: list[str]
    hands: int
    reason: str | None
    alone: bool


def _rows(tables: list[Table]) -> list[Row]:
    counts = {t.id: ledger.live_hands(t) for t in tables}
    reasons, alone = _apart(tables, counts)
    return [
        Row(t, get_game(t.game).name, ledger.players_of(t), counts[t.id], reasons.get(t.id), t.id in alone)
        for t in tables
    ]


def _apart(tables: list[Table], counts: dict[str, int]) -> tuple[dict[str, str], set[str]]:
    """The tables the evening's choice leaves unticked, each with the sentence saying why: a
    patience (nobody pays), a table without a hand, one with a hand still waiting for its
    confirmation (its result may change), and those the ledger cannot settle with the largest
    group sharing a unit (ledger.settle_together); these last are the ones to settle apart
    (a table's money value cannot change after its first hand, so that is never the advice)."""
    reasons: dict[str, str] = {}
    paying = []
    for table in tables:
        if get_game(table.game).kind.solo:
            reasons[table.id] = _("A patience is played alone and nobody pays: there is nothing to settle.")
        elif not counts[table.id]:
            reasons[table.id] = _("No hand was recorded at this table.")
        elif table.two_key and ledger.to_confirm(ledger.recent_hands(table, PENDING_WINDOW)):
            reasons[table.id] = _("A hand is still waiting for its confirmation: its result may change.")
        else:
            paying.append(table)
    _group, others = ledger.settle_together(paying)
    reasons.update({table_id: render_text(text) for table_id, text in others.items()})
    return reasons, set(others)


@bp.get("/night/settle")
def settle() -> ResponseReturnValue:
    """The chosen tables settled together."""
    ids = request.args.getlist("t")[:MAX_TABLES]
    tables = tables_of_ids(ids)
    error = None
    result = None
    if len(tables) != len(set(ids)):
        error = _("Some of these tables do not exist (any more). Choose the tables again.")
    else:
        try:
            result = settleup.settle_up(tables)
        except RulesError as exc:
            error = render_text(exc.text)
    if result is None:
        return _refused(tables, error)
    day = league.local_date(tables[0].created_at)
    names = {t.id: t.name or get_game(t.game).name for t in tables}
    summary = settleup.summary(result, title=_("Club night"), when=format_date(day, "medium"))
    summary += "\n\n" + _("Tables: %(names)s", names=", ".join(names[t.id] for t in tables))
    note = (
        _("Amounts in money: each table counted at its own value per chip or unit.")
        if result.in_money
        else labels.unit_note(tables[0].game, ledger.money(tables[0], 1))
    )
    return render_template(
        "night/settle.html",
        error=None,
        tables=tables,
        names=names,
        result=result,
        summary=summary,
        unit_note=note,
        exact_limit=EXACT_LIMIT,
        day=day,
        day_text=format_date(day, "full"),
    )


def _refused(tables: list[Table], error: str | None) -> ResponseReturnValue:
    """Tables that cannot be settled together: the sentence, and the choice again with every
    tick kept, each table that cannot join named with why and a link to settle it apart, and a
    link to settle the others together."""
    rows = _rows(tables)
    joining = [row.table.id for row in rows if not row.reason]
    return render_template(
        "night/settle.html",
        error=error,
        tables=tables,
        result=None,
        rows=rows if any(row.reason for row in rows) else [],
        together_url=url_for("night.settle", t=joining) if len(joining) > 1 else None,
        together=len(joining),
        day=league.local_date(tables[0].created_at) if tables else None,
    ), 422
