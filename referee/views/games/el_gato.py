"""El Gato's web side: its record's fields (the short-record flow,
:mod:`referee.views.short_flow`), its rules page and its wording."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from referee.rules import el_gato
from referee.rules.text import N_
from referee.views.games.pages import GamePages
from referee.views.short_flow import ShortFlow, asked

FIELDS = (
    asked(
        el_gato.RECORD,
        "loser",
        label=N_("Loser"),
        question=N_("Who was left holding all the cards?"),
    ),
    asked(
        el_gato.RECORD,
        "out_order",
        label=N_("Order of running out"),
        question=N_("Who ran out of cards first?"),
        next_question=N_("Who ran out next?"),
        help=N_(
            "Tap the players in the order they ran out of cards. Players who ran out on the same trick: tap “same trick”."
        ),
        optional="later",
        survivor="loser",
    ),
)


def rules_context() -> dict[str, Any]:
    names = {"10": _("sota (10)"), "1": _("ace (1)")}
    refused = [n for n in range(el_gato.MIN_PLAYERS, el_gato.MAX_PLAYERS + 1) if n not in el_gato.PLAYER_COUNTS]
    order = [names.get(rank, rank) for rank in el_gato.rank_order(el_gato.ElGatoOptions())]
    return {
        "deals": [(n, el_gato.cards_each(n)) for n in el_gato.PLAYER_COUNTS],
        "refused": _("%(some)s or %(last)s", some=", ".join(str(n) for n in refused[:-1]), last=refused[-1]),
        "order": order,
        "deck": el_gato.DECK,
    }


REGISTRATION = GamePages(
    slug=el_gato.SLUG,
    flow=ShortFlow.for_game(el_gato.SLUG, FIELDS),
    rules_context=rules_context,
    turn_line=N_("%(dealer)s deals; %(speaker)s plays first."),
    dealer_help=N_(
        "Whoever draws the highest card deals first. By default the last player deals, so player 1 gets the first card and plays first."
    ),
)
