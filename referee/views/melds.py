"""The Samba meld checker page: type (or tap) the cards of each meld, and see whether each is
legal, what it is worth, and whether the whole reaches the opening meld the team needs.

Nothing is stored: the form is a GET, so a checked opening can be shared as a link. The cards
are written as on the cards themselves ("K♥ K♦ 2♣ JK", or "Kc Ko 2p"); the card keyboard of
``static/js/app.js`` types them on a phone. The judging is :mod:`referee.rules.samba_melds`.
The API's check (``POST /api/v1/samba/meld-check``) is :mod:`referee.api.melds`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue

from referee import inputs, ledger
from referee.i18n import render_text
from referee.rules.cards import Suit
from referee.rules.errors import RulesError
from referee.rules.samba_melds import RANKS, Card, MeldVerdict, OpeningVerdict, check_meld, check_opening, parse_card
from referee.views import labels

bp = Blueprint("melds", __name__)

FIELDS = 3  # meld fields shown at first
MAX_FIELDS = 12
MINIMUMS = (15, 50, 90, 120, 150, 160)


@dataclass
class MeldRow:
    """One meld field of the form: what was typed, and the verdict (or the typing error)."""

    text: str
    verdict: MeldVerdict | None = None
    error: str | None = None


def _cards(text: str, *, field: str) -> tuple[Card, ...]:
    return tuple(parse_card(token, field=field) for token in re.split(r"[\s,;]+", text.strip()) if token)


def _table_minimum() -> tuple[int | None, str | None, Any]:
    """The opening minimum of a team at a table (``?t=<id>&team=<i>``), with the team's name."""
    table_id, team = request.args.get("t"), inputs.whole_number(request.args.get("team"), low=0, high=9)
    if not table_id or team is None:
        return None, None, None
    try:
        table = ledger.get_table(table_id)
    except ledger.NotFound:
        return None, None, None
    match = ledger.standing(table)
    if match is None or team >= len(match["teams"]):
        return None, None, None
    entry = match["teams"][team]
    return int(entry["min_meld"]), labels.team_name(entry["players"]), table


@bp.get("/samba/melds")
def checker() -> ResponseReturnValue:
    texts = [request.args.get(f"m{i}", "")[:200] for i in range(MAX_FIELDS)]
    shown = _shown(texts)
    going_out = request.args.get("going_out") == "1"
    table_minimum, team_name, table = _table_minimum()
    required_text = request.args.get("required", "")
    required = table_minimum if table_minimum is not None else _asked_minimum(required_text)
    rows, melds = _judged_rows(texts[:shown], going_out=going_out)
    top_text = request.args.get("top", "")[:20]
    top, top_error = _discard_top(top_text)
    opening = None
    if melds and required is not None and not any(row.error for row in rows) and top_error is None:
        opening = _opening(rows, melds, required=required, top=top, going_out=going_out)
    return render_template(
        "melds/checker.html",
        rows=rows,
        shown=shown,
        going_out=going_out,
        required=required,
        required_text=required_text,
        minimums=MINIMUMS,
        table_minimum=table_minimum,
        team_name=team_name,
        table=table,
        top_text=top_text,
        top_error=top_error,
        opening=opening,
        ranks=RANKS,
        suits=list(Suit),
        checked=any(t.strip() for t in texts),
    )


def _shown(texts: list[str]) -> int:
    """How many meld fields the form shows: three at first, every one filled in, and one more
    when asked (up to MAX_FIELDS)."""
    shown = max(FIELDS, max((i + 1 for i, t in enumerate(texts) if t.strip()), default=0))
    if request.args.get("more"):
        shown = min(MAX_FIELDS, shown + 1)
    return shown


def _asked_minimum(required_text: str) -> int | None:
    """The opening minimum chosen on the form, when it is one of the game's."""
    asked = inputs.whole_number(required_text)
    return asked if asked in MINIMUMS else None


def _judged_rows(texts: list[str], *, going_out: bool) -> tuple[list[MeldRow], list[tuple[Card, ...]]]:
    """Each shown field with its verdict (or why its cards could not be read), and the melds
    read, in order."""
    rows = [MeldRow(text=text) for text in texts]
    melds: list[tuple[Card, ...]] = []
    for i, row in enumerate(rows):
        if not row.text.strip():
            continue
        try:
            cards = _cards(row.text, field=f"m{i}")
        except RulesError as exc:
            row.error = render_text(exc.text)
            continue
        row.verdict = check_meld(cards, going_out=going_out)
        melds.append(cards)
    return rows, melds


def _discard_top(top_text: str) -> tuple[Card | None, str | None]:
    """The top card of the discard pile, if given, or why it could not be read."""
    if not top_text.strip():
        return None, None
    try:
        return parse_card(top_text.strip(), field="top"), None
    except RulesError as exc:
        return None, render_text(exc.text)


def _opening(
    rows: list[MeldRow], melds: list[tuple[Card, ...]], *, required: int, top: Card | None, going_out: bool
) -> OpeningVerdict:
    """The opening's verdict; with the discard top added, the verdict of the meld it joined is
    the opening's."""
    opening = check_opening(melds, required=required, discard_top=top, going_out=going_out)
    if opening.discard_meld is not None:
        judged = [row for row in rows if row.verdict is not None]
        judged[opening.discard_meld].verdict = opening.melds[opening.discard_meld]
    return opening
