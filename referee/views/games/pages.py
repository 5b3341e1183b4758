"""What the web side knows of one game, in one value: :class:`GamePages`.

The pages never name a game: they ask its registration (:mod:`referee.views.games`) for its
recording flow, its templates, its wording and what the new-table form and the player page do
for it. The defaults are what most games do, so a game's module states only what is its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint

from referee.rules.patience import PatienceStats
from referee.rules.text import N_, NP_
from referee.views.flow import Flow

#: A rules page's context: the engine's tables its template draws (ladder, card values, deals).
RulesContext = Callable[[], dict[str, Any]]
#: The two players of a hand's contract who played as partners, if any (the player page).
PairOf = Callable[[Mapping[str, Any]], tuple[str, str] | None]
#: A patience's record on the player page, in words, besides games and wins.
PatienceFigure = Callable[[PatienceStats], str]


@dataclass(frozen=True, kw_only=True)
class Partnerships:
    """A game whose new-table form seats fixed partnerships (Samba): how the form's teams and
    its partnership draw become the seats, the teams and the first dealer."""

    #: The cards the partnership draw offers, lowest first.
    draw_ranks: tuple[str, ...]
    #: (names, dealer, posted form) -> (seats, teams or None for the game's default, dealer);
    #: raises RulesError for a seating the form cannot make.
    seat: Callable[[list[str], str | None, Mapping[str, str]], tuple[list[str], list[list[str]] | None, str | None]]


@dataclass(frozen=True, kw_only=True)
class GamePages:
    """One game's web side. Wordings are English msgids (marked with ``N_``), translated where
    they are shown (:mod:`referee.views.labels`). Its templates find it as
    ``game_pages[table.game]``, and its ``words`` as ``words``."""

    slug: str
    #: The guided "record a hand" page.
    flow: type[Flow]
    #: The context of its rules page (``games/<slug>/rules.html``).
    rules_context: RulesContext
    #: Who deals and who goes first (the default: "speaks", an auction).
    turn_line: str = N_("%(dealer)s deals; %(speaker)s speaks first.")
    #: What one round of play is called on the pages every game shares (``templates/_rounds.html``):
    #: "hand", a Kentucky Derby "race", a patience's "game".
    round_kind: str = "hand"
    #: Who deals first and what that means for the first player (the default: the lowest card).
    dealer_help: str = N_(
        "Whoever draws the lowest card deals first. By default the last player deals, so player 1 speaks first."
    )
    #: How to write the names in order of play.
    seating_help: str = N_(
        "Write the names in the order the game goes round: after player 1 comes the player who plays next, and so on."
    )
    #: The heading of the new-table section with the numbers.
    numbers_title: str = N_("Stakes")
    #: The last round's banner and its button (Quatrilho's la tonda).
    last_round_title: str = N_("Last round!")
    last_round_start: str = N_("Start the last round")
    #: What to do when the agreed time runs out.
    time_up: str = N_("Start the last round: each player deals once more.")
    #: What a player has left of his starting stock (singular, plural; ``%(num)s``).
    stock_left: tuple[str, str] = NP_("%(num)s chip left", "%(num)s chips left")
    #: Under a settle-up: what the amounts count, without and with a money value (``%(value)s``).
    unit_note: tuple[str, str] = (N_("Amounts in chips."), N_("Amounts in chips; %(value)s per chip."))
    #: A hand's net for one player on its preview, paid and received (singular, plural; ``%(num)s``).
    pays: tuple[str, str] = NP_("pays %(num)s chip", "pays %(num)s chips")
    receives: tuple[str, str] = NP_("receives %(num)s chip", "receives %(num)s chips")
    #: A few words beside its name on the new-table chooser ("and Relógio Real").
    chooser_note: str = ""
    #: Fixed partnerships on the new-table form (Samba); None: no teams to choose.
    partnerships: Partnerships | None = None
    #: Partners hand by hand, for the player page's best partners (Jubileu, Quatrilho).
    declaring_pair: PairOf | None = None
    #: The patiences its table records, each with its figure for the player page.
    patience_figures: Mapping[str, PatienceFigure] = field(default_factory=dict)
    #: The game's own terms in words, for its templates (``words.call(c)`` in Jubileu's).
    words: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    #: The game's own pages besides recording a hand (Koziri's helpers), registered by the app.
    blueprint: Blueprint | None = None

    def template(self, name: str) -> str:
        """One of the game's own templates (``hand.html``, ``contract.html``, ``rules.html``,
        ``start.html``): the game's folder holds what it has."""
        return f"games/{self.slug}/{name}"


__all__ = ["GamePages", "PairOf", "Partnerships", "PatienceFigure", "RulesContext"]
