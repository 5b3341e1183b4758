"""The table page's drawing: everything its scoreboard shows (:func:`board`) and the page drawn
from a table already loaded (:func:`table_page`). The table's routes (:mod:`referee.views.tables`),
the answer to a saved hand (:mod:`referee.views.hands`) and the live pages
(:mod:`referee.views.live`) all draw from here, so none of them is another's library.
"""

from __future__ import annotations

from typing import Any

from flask import render_template

from referee import access, league, ledger
from referee.championship.rounds import round_table_of
from referee.models import Table
from referee.views import labels
from referee.views.phone_tables import (
    PENDING_WINDOW,
    actor_code,
    can_score,
    is_owner,
    redoable,
    refuse_revoked,
    remember_seen,
    undoable,
)

RECENT = 3


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
    chips_left = ledger.chips_left(table, totals)  # None but at a pot game's table with chips on it
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
        "on_the_table": ledger.pot_shown(table, totals),
        # And who gets them if the night ends now, told in one sentence (settle/_chips_left.html);
        # not at a championship's table, whose ranking counts each player's own chips, never paid.
        "chips_left": chips_left if chips_left and not round_table_of(table.id) else None,
        # A patience (one player, nothing paid): games and wins per patience instead of chips.
        "solo": rules.kind.solo,
        "patience": league.table_patience(table),
        "scoreboard": rules.kind.board_template,
        # A game scored toward a target (Samba): the teams, their totals and opening melds,
        # the end of the match and its rematch.
        "match": ledger.standing(table),  # the table's own totals: worked out once per request
        "target": rules.goal(options),
        # The options that differ from the game's default: a result may depend on them.
        "house_rules": labels.house_rules(rules, options),
        "rematch": ledger.match_rematch(table),
        "dealer": dealer,
        "speaker": rules.first_speaker(players, dealer, options),
        "sitting_out": rules.sitting_out(players, dealer, options),
        "next_number": ledger.next_number(table),
        # The last places in play (a correction in its hand's place), with what each corrected.
        **hand_list(recent),
        "numbering": ledger.numbering(table, [h for e in recent for h in (e.hand, *e.before)]),
        "live_count": ledger.live_hands(table),
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


def hand_list(entries: list[ledger.Entry]) -> dict[str, Any]:
    """A list of hands for tables/_hand.html (newest first): ``recent``, and ``corrected_from``,
    the versions each one corrected (by stored number)."""
    return {
        "recent": [e.hand for e in entries],
        "corrected_from": {e.hand.number: e.before for e in entries if e.before},
    }


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
