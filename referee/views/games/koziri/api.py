"""Koziri's two referee helpers in the API: stateless, nothing is stored
and no token is needed.

``POST /api/v1/koziri/deal``: the suit choice and the cards of his own suits the dealer turned
up; answers both players' full hands as the rule text's dealing procedure gives them.

``POST /api/v1/koziri/answer``: the suit choice, who answers, the card on top of the pile and
the answer (a card or ``"take"``), optionally the answerer's hand; answers whether the answer is
legal and why (a trump of the other player is a plain card; taking is compulsory when nothing
beats the card), and the cards of the pack that would beat the top card for him.

Both take an optional ``"table"`` (the id of a Koziri table: the pack size, the players' names,
the dealer by rotation and who leads first come from it) or, without a table, ``"deck"`` (20, 24
or 32; default 32). Without a table, the answerer is named by his seat: ``"dealer"`` or
``"opponent"``. The judging is :mod:`referee.rules.koziri_play`; errors are the API's usual
``{"error": {...}}`` (400 malformed, 404 no such table, 422 against the rules).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask.typing import ResponseReturnValue

from referee import ledger
from referee.api.blueprint import bp, judge_body
from referee.i18n import render_text
from referee.rules import koziri, seats
from referee.rules.errors import InconsistentHand, InvalidInput
from referee.rules.koziri_play import (
    DECK_SIZES,
    TAKE,
    Card,
    Role,
    check_answer_in_pack,
    parse_answer,
    parse_cards,
    parse_deal,
    parse_suits,
)
from referee.rules.text import N_, Text


@dataclass(frozen=True)
class Setting:
    """What a helper needs besides the body: the pack, the seats and who leads first."""

    deck: int
    players: tuple[str, ...] | None  # the table's two players, or None without a table
    dealer: str | None
    first_lead: Role

    def names(self) -> dict[str, str] | None:
        if self.players is None or self.dealer is None:
            return None
        return {"dealer": self.dealer, "opponent": koziri.opponent_of(self.players, self.dealer)}


def _setting(body: dict[str, Any]) -> Setting:
    """Pops ``table``, ``deck`` and (with a table) ``dealer`` from ``body``. Raises
    :class:`ledger.NotFound` for an unknown table id."""
    table_id = body.pop("table", None)
    if table_id is None:
        deck = body.pop("deck", 32)
        if isinstance(deck, bool) or deck not in DECK_SIZES:
            raise InvalidInput(Text(N_("deck is the number of cards in the pack: 20, 24 or 32.")), field="deck")
        if "dealer" in body:
            raise InvalidInput(
                Text(N_("dealer names a player of a table; without a table, leave it out.")), field="dealer"
            )
        return Setting(deck=int(deck), players=None, dealer=None, first_lead=Role.OPPONENT)
    if not isinstance(table_id, str):
        raise InvalidInput(Text(N_("table must be a table id.")), field="table")
    table = ledger.get_table(table_id)
    if table.game != koziri.SLUG:
        raise InconsistentHand(Text(N_("This table does not play Koziri.")), field="table")
    options = ledger.options_of(table)
    if "deck" in body:
        raise InvalidInput(
            Text(
                N_("The pack is the table's (%(deck)s cards): leave deck out when a table is given."), deck=options.deck
            ),
            field="deck",
        )
    players = ledger.players_of(table)
    dealer = ledger.current_dealer(table)
    if body.get("dealer") is not None:
        dealer = seats.require_player(players, body["dealer"], field="dealer")
    body.pop("dealer", None)
    return Setting(deck=options.deck, players=players, dealer=dealer, first_lead=koziri.leader_role(options))


def _table_locale(body: Mapping[str, Any], fallback: str) -> str:
    """A table's own language for its answers (like every table-bound endpoint)."""
    table_id = body.get("table")
    if isinstance(table_id, str):
        try:
            return str(ledger.get_table(table_id).locale)
        except ledger.NotFound:
            pass
    return fallback


def _deal(body: dict[str, Any]) -> dict[str, Any]:
    setting = _setting(body)
    dealt = parse_deal(body, deck=setting.deck)
    return {**dealt.to_json(), "first_lead": setting.first_lead.value, "players": setting.names()}


def _answer(body: dict[str, Any]) -> dict[str, Any]:
    setting = _setting(body)
    if setting.players is not None and setting.dealer is not None:
        players, dealer = setting.players, setting.dealer
        answers = body.get("answers")
        role = Role.DEALER if answers == dealer else Role.OPPONENT
    else:
        # Without a table the answerer is a seat; the engine names him by its seat word.
        answers = body.get("answers")
        if answers is not None and answers not in ("dealer", "opponent"):
            raise InvalidInput(Text(N_('Without a table, answers is "dealer" or "opponent".')), field="answers")
        names = {role: render_text(role.word) for role in Role}
        players, dealer = (names[Role.DEALER], names[Role.OPPONENT]), names[Role.DEALER]
        role = Role.DEALER if answers == "dealer" else Role.OPPONENT
        if answers is not None:
            body["answers"] = names[role]
    parse_answer(body, players=players, dealer=dealer, deck=setting.deck)  # every check, with its field
    # Well formed now: judge again with the whole pack in view (a take is compulsory whatever
    # the hand when nothing in the pack beats the top card).
    deck, suits = setting.deck, parse_suits(body)
    answer = body["answer"]
    hand = body.get("hand")
    verdict, in_pack = check_answer_in_pack(
        deck=deck,
        top=Card.parse(body["top"], field="top", deck=deck),
        answer=None if answer == TAKE else Card.parse(answer, field="answer", deck=deck),
        trump=suits.trump(role),
        other_trump=suits.trump(role.other),
        who=body["answers"],
        hand=None if hand is None else parse_cards(hand, field="hand", deck=deck),
    )
    return {
        **verdict.to_json(render_text),
        "answers": role.value,
        "beating_in_pack": [c.to_json() for c in in_pack],
        "players": setting.names(),
    }


@bp.post("/koziri/deal")
def koziri_deal() -> ResponseReturnValue:
    """Koziri deal helper: both full hands from the dealer's turned-up cards."""
    return judge_body(_deal, _table_locale)


@bp.post("/koziri/answer")
def koziri_answer() -> ResponseReturnValue:
    """Koziri answer checker: legal or not, and why."""
    return judge_body(_answer, _table_locale)
