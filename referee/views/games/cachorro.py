"""Paciência do Cachorro's web side: its record's fields (the short-record flow,
:mod:`referee.views.short_flow`), its rules page, its wording and its figure on the player page."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from referee.i18n import fmt_int
from referee.rules import cachorro
from referee.rules.patience import PatienceStats
from referee.rules.text import N_
from referee.views.games.pages import GamePages
from referee.views.short_flow import WON_LOST, ShortFlow, asked

FIELDS = (
    asked(cachorro.RECORD, "won", label=N_("Result"), question=N_("Did it come out?"), choices=WON_LOST),
    asked(
        cachorro.RECORD,
        "round",
        label=N_("Round"),
        question=N_("In which round did it come out?"),
        help=N_("There are three deals at most."),
        when=lambda answers, options: answers.get("won") is True,
    ),
)


def rules_context() -> dict[str, Any]:
    return {
        "layouts": [cachorro.deal_layout(n) for n in range(1, cachorro.ROUNDS + 1)],
        "rounds": cachorro.ROUNDS,
        "dealt": cachorro.CARDS_DEALT,
        "kennel": cachorro.FIRST_KENNEL,
    }


def wins_by_round(stats: PatienceStats) -> str:
    """The round each win came out in ("Wins: 2 in round 1, 1 in round 3.")."""
    if not stats.wins:
        return ""
    rounds = ", ".join(
        _("%(wins)s in round %(round)s", wins=fmt_int(count), round=fmt_int(n))
        for n, count in stats.wins_by_figure.items()
    )
    return _("Wins: %(rounds)s.", rounds=rounds)


REGISTRATION = GamePages(
    round_kind="game",
    slug=cachorro.SLUG,
    flow=ShortFlow.for_game(cachorro.SLUG, FIELDS),
    rules_context=rules_context,
    # A patience has one player and no deal to speak of: say whose game it is.
    turn_line=N_("%(dealer)s plays the patience."),
    numbers_title=N_("The game"),
    patience_figures={cachorro.SLUG: wins_by_round},
)
