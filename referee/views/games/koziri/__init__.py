"""Koziri's web side, all in this package: its record's fields (the short-record flow,
:mod:`referee.views.short_flow`), its rules page and its wording here; its two referee helpers as
phone pages (:mod:`.tools`, with what a phone told the deal helper, :mod:`.deal`) and in the API
(:mod:`.api`).

Koziri is the one game with pages and API routes of its own besides recording a hand. They live
with its registration, as every game's web side lives in ``referee/views/games/<slug>``, so the
game is read, changed or removed in one place; the rules stay in :mod:`referee.rules.koziri` and
:mod:`referee.rules.koziri_play`. The pages' blueprint is registered by the app through
``REGISTRATION.blueprint``; the API routes go onto the API's blueprint
(:mod:`referee.api.blueprint`, below the views) when this package is imported, which the games'
registry does before the app registers that blueprint.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, url_for

from referee.rules import koziri, koziri_play
from referee.rules.text import N_
from referee.views.games.pages import GamePages
from referee.views.short_flow import ShortFlow, asked

from . import (
    api,  # noqa: F401 (its routes go on the API's blueprint)
    tools,
)
from . import deal as koziri_deal

FIELDS = (
    asked(
        koziri.RECORD,
        "dealer_trump",
        label=N_("%(dealer)s's trump"),
        question=N_("%(dealer)s's trump"),
        help=N_("The dealer chose two suits before the shuffle: first his trump."),
    ),
    asked(
        koziri.RECORD, "dealer_second", label=N_("%(dealer)s's second suit"), question=N_("%(dealer)s's second suit")
    ),
    asked(
        koziri.RECORD,
        "opponent_trump",
        label=N_("%(opponent)s's trump"),
        question=N_("%(opponent)s's trump"),
        help=N_("One of the two suits the dealer left; the other is %(opponent)s's second suit."),
    ),
    asked(koziri.RECORD, "winner", label=N_("Winner"), question=N_("Who got rid of all the cards first?")),
)


def rules_context() -> dict[str, Any]:
    packs = [(size, " ".join(koziri_play.deck_ranks(size)), size // 2) for size in koziri_play.DECK_SIZES]
    return {"packs": packs, "default_pack": koziri.KoziriOptions().deck, "helpers": _helpers()}


def _helpers() -> dict[str, str]:
    """The Koziri helper pages this app serves (the deal helper, the answer checker), by kind:
    found in the URL map, so the rules page links only to what exists."""
    found: dict[str, str] = {}
    for rule in current_app.url_map.iter_rules():
        if not rule.rule.startswith("/koziri") or rule.arguments or "GET" not in (rule.methods or ()):
            continue
        for kind in ("deal", "answer"):
            if kind in rule.rule and kind not in found:
                found[kind] = url_for(rule.endpoint)
    return found


class KoziriFlow(ShortFlow.for_game(koziri.SLUG, FIELDS, koziri.open_choices)):  # type: ignore[misc]
    """The short flow, opened with the suits this phone already told the deal helper for this
    hand (:mod:`.deal`): only the winner is left to ask."""

    def start(self, args: Any) -> None:
        d = self.draft
        if args.get("d") or d.replaces is not None:
            return  # a draft under way, or a correction: its own answers stand
        told = koziri_deal.suits_of(koziri_deal.recall(self.table, self.dealer))
        if told:
            d.v = {**told, **d.v}
            self.sanitize()


REGISTRATION = GamePages(
    slug=koziri.SLUG,
    flow=KoziriFlow,
    rules_context=rules_context,
    turn_line=N_("%(dealer)s deals; %(speaker)s leads first."),
    # The table form's numbers are the pack's size and the stake, not only stakes.
    numbers_title=N_("The pack and the stake"),
    dealer_help=N_(
        "Whoever draws the highest card deals first. By default the second player deals, so player 1 is the opponent."
    ),
    blueprint=tools.bp,
)
