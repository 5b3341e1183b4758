"""Lift Smoke's web side: its record's fields (the short-record flow,
:mod:`referee.views.short_flow`), its rules page and its wording."""

from __future__ import annotations

from typing import Any

from referee.rules import lift_smoke
from referee.rules.text import N_
from referee.views.games.pages import GamePages
from referee.views.short_flow import ShortFlow, asked

FIELDS = (
    asked(
        lift_smoke.RECORD,
        "winner",
        label=N_("Winner"),
        question=N_("Who was the last player holding cards?"),
        help=N_("The winner takes the pot of %(pot)s chips and deals the next hand."),
    ),
    asked(
        lift_smoke.RECORD,
        "out_order",
        label=N_("Order of going out"),
        question=N_("Who went out first?"),
        next_question=N_("Who went out next?"),
        help=N_(
            "Tap the players in the order they ran out of cards. Players who ran out on the same trick: tap “same trick”."
        ),
        optional="skip",
        survivor="winner",
        tie=N_("%(winner)s also ran out on that last trick and won it"),
    ),
    asked(
        lift_smoke.RECORD,
        "ante",
        label=N_("Ante"),
        question=N_("Chips each player put in"),
        default=lambda options: options.ante,
    ),
)


def rules_context() -> dict[str, Any]:
    return {"deals": [(n, lift_smoke.cards_each(n), lift_smoke.stock_size(n)) for n in lift_smoke.PLAYER_COUNTS]}


REGISTRATION = GamePages(
    slug=lift_smoke.SLUG,
    flow=ShortFlow.for_game(lift_smoke.SLUG, FIELDS),
    rules_context=rules_context,
    turn_line=N_("%(dealer)s deals; %(speaker)s leads the first trick."),
    dealer_help=N_(
        "Each player draws a card: the highest deals first. By default the last player deals, so player 1 leads the first trick."
    ),
)
