"""Relógio's web side: a Relógio table records two patiences, Relógio and Relógio Real, each
game saying which; its record's fields (the short-record flow, :mod:`referee.views.short_flow`),
its rules page, its wording and its figures on the player page."""

from __future__ import annotations

from typing import Any

from flask_babel import format_decimal, ngettext
from flask_babel import gettext as _

from referee.rules import relogio
from referee.rules.patience import GAME_LABELS, PatienceStats
from referee.rules.text import N_
from referee.views.games.pages import GamePages
from referee.views.short_flow import WON_LOST, Answers, ShortFlow, asked

#: The two patiences, by the names their records carry.
CLOCK, ROYAL = "relogio", "relogio_real"


def _clock(answers: Answers, options: Any) -> bool:
    return answers.get("game") == CLOCK


FIELDS = (
    asked(
        relogio.RECORD,
        "game",
        label=N_("Patience"),
        question=N_("Which patience?"),
        choices=((CLOCK, GAME_LABELS[CLOCK]), (ROYAL, GAME_LABELS[ROYAL])),
    ),
    asked(relogio.RECORD, "won", label=N_("Result"), question=N_("Did it come out?"), choices=WON_LOST, when=_clock),
    asked(
        relogio.RECORD,
        "king_exchanges",
        kind="yesno",
        label=N_("King exchange"),
        question=N_("Was the King exchange used?"),
        help=N_("Once in a game, a King may be swapped for a card still face down."),
        choices=(("yes", N_("Used")), ("no", N_("Not used"))),
        when=lambda answers, options: _clock(answers, options) and bool(options.king_exchange),
    ),
    asked(
        relogio.RECORD,
        "sequences",
        label=N_("Sequences"),
        question=N_("How many sequences from Ace to King were removed?"),
        help=N_("%(need)s or more win."),
        when=lambda answers, options: answers.get("game") == ROYAL,
    ),
)


def rules_context() -> dict[str, Any]:
    return {"max_sequences": relogio.MAX_SEQUENCES, "to_win": relogio.RelogioOptions().sequences_to_win}


def king_exchanges(stats: PatienceStats) -> str:
    """How often Relógio's King exchange was used."""
    used = int(stats.averages.get("king_exchanges", 0) * stats.games)
    return ngettext("King exchange used in %(num)d game.", "King exchange used in %(num)d games.", used)


def sequences(stats: PatienceStats) -> str:
    """Relógio Real's sequences per game."""
    average = stats.averages.get("sequences", 0)
    return _("%(avg)s sequences removed per game on average.", avg=format_decimal(float(average), format="#,##0.0"))


REGISTRATION = GamePages(
    round_kind="game",
    slug=relogio.SLUG,
    flow=ShortFlow.for_game(relogio.SLUG, FIELDS),
    rules_context=rules_context,
    # A patience has one player and no deal to speak of: say whose game it is.
    turn_line=N_("%(dealer)s plays the patience."),
    numbers_title=N_("The game"),
    chooser_note=N_("and Relógio Real"),
    patience_figures={CLOCK: king_exchanges, ROYAL: sequences},
)
