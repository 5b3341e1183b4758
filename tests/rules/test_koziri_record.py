"""Koziri hand records, options, seats and settlement.

Every check on the record is refused with one sentence and the field it points at;
the options take the chosen readings as defaults; the loser pays the winner the stake.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.rules.cards import Suit
from referee.rules.errors import InconsistentHand, InvalidInput, RulesError, UnknownPlayer
from referee.rules.game import deal_passes_on as next_dealer
from referee.rules.koziri import (
    GAME,
    OPTIONS,
    SLUG,
    KoziriHand,
    KoziriOptions,
    first_speaker,
    leader_role,
    parse_hand,
    settle,
)
from referee.rules.koziri_play import Role, SuitChoice

PLAYERS = ("Ana", "Bia")
DEFAULT = KoziriOptions()


def record(**over: Any) -> dict[str, Any]:
    """The rule text's example game ("Exemplo prático"): dealer ♠ trump and ♥ second, the
    opponent ♦ trump (so ♣ second). Bia deals (the last player listed, docs/api.md)."""
    raw: dict[str, Any] = {
        "dealer": "Bia",
        "dealer_trump": "espadas",
        "dealer_second": "copas",
        "opponent_trump": "ouros",
        "winner": "Ana",
    }
    raw.update(over)
    return {k: v for k, v in raw.items() if v is not ...}


def parse(
    raw: Any, options: KoziriOptions = DEFAULT, players: tuple[str, ...] = PLAYERS, dealer: str = "Bia"
) -> KoziriHand:
    return parse_hand(raw, players=players, options=options, dealer=dealer)


def refused(
    raw: Any, kind: type[RulesError], field: str | None, *words: str, players: tuple[str, ...] = PLAYERS
) -> RulesError:
    with pytest.raises(kind) as info:
        parse(raw, players=players)
    error = info.value
    assert type(error) is kind, f"{type(error).__name__}: {error}"
    assert error.field == field
    for word in words:
        assert word in str(error), f"{word!r} not in {str(error)!r}"
    assert str(error).endswith(".")
    return error


# --------------------------------------------------------------------------- legal records


def test_the_example_record_parses_and_fills_in_the_opponents_second_suit() -> None:
    hand = parse(record())
    assert hand.dealer == "Bia" and hand.opponent == "Ana" and hand.winner == "Ana" and hand.loser == "Bia"
    assert hand.to_json() == {**record(), "opponent_second": "paus"}
    assert parse(hand.to_json()) == hand
    assert GAME.hand_json(hand) == hand.to_json() and GAME.dealer_of(hand) == "Bia"


def test_the_dealer_defaults_to_the_rotation() -> None:
    assert parse(record(dealer=...), dealer="Ana").dealer == "Ana"
    assert parse(record(dealer=None), dealer="Ana").dealer == "Ana"


def test_any_legal_suit_choice_is_accepted() -> None:
    """The opponent may take either of the two suits the dealer left as his trump."""
    assert parse(record(opponent_trump="paus")).suits.opponent_second.value == "ouros"
    assert (
        parse(record(dealer_trump="ouros", dealer_second="paus", opponent_trump="copas")).to_json()["opponent_second"]
        == "espadas"
    )


def test_the_dealer_can_win() -> None:
    assert parse(record(winner="Bia")).loser == "Ana"


# --------------------------------------------------------------------------- the checks on the record


def test_the_dealers_two_suits_must_differ() -> None:
    refused(record(dealer_second="espadas"), InconsistentHand, "dealer_second", "two different suits", "spades")


@pytest.mark.parametrize("suit", ["espadas", "copas"])
def test_the_opponents_trump_must_be_a_suit_the_dealer_left(suit: str) -> None:
    refused(record(opponent_trump=suit), InconsistentHand, "opponent_trump", "diamonds or clubs")


def test_a_given_opponent_second_suit_must_be_the_one_left() -> None:
    refused(record(opponent_second="ouros"), InconsistentHand, "opponent_second", "clubs")
    assert parse(record(opponent_second="paus")).suits.opponent_second.value == "paus"


@pytest.mark.parametrize("field", ["dealer_trump", "dealer_second", "opponent_trump"])
def test_each_suit_is_required(field: str) -> None:
    refused(record(**{field: ...}), InvalidInput, field, "Give")


@pytest.mark.parametrize("value", ["hearts", "", 3, ["copas"]])
def test_a_suit_must_be_a_suit(value: object) -> None:
    refused(record(dealer_trump=value), InvalidInput, "dealer_trump", "is not a suit")


def test_the_winner_is_required_and_seated() -> None:
    refused(record(winner=...), InvalidInput, "winner", "Name the winner")
    refused(record(winner="Caio"), UnknownPlayer, "winner", "Caio")
    refused(record(winner=7), InvalidInput, "winner")


def test_the_dealer_must_be_seated() -> None:
    refused(record(dealer="Caio"), UnknownPlayer, "dealer", "Caio")


def test_no_pot_so_no_carried_in_and_no_unknown_fields() -> None:
    """Koziri leaves nothing on the table, so there is nothing to carry."""
    refused(record(carried_in=2), InvalidInput, "carried_in", "no field called carried_in")
    refused(record(moves=[]), InvalidInput, "moves")


def test_a_record_is_an_object() -> None:
    refused(["Ana"], InvalidInput, None, "JSON object")


@pytest.mark.parametrize("players", [("Ana",), ("Ana", "Bia", "Caio")])
def test_two_players_exactly(players: tuple[str, ...]) -> None:
    """A table of another size breaks a rule (422, as when it is seated), every game alike."""
    refused(record(winner="Ana"), RulesError, "players", "exactly 2 players", players=players)


# --------------------------------------------------------------------------- options


def test_the_defaults_are_the_chosen_readings() -> None:
    assert GAME.parse_options(None) == DEFAULT
    assert GAME.options_json(DEFAULT) == {
        "deck": 32,
        "stake": 1,
        "first_lead": "opponent",
        "going_out": "last_card",
        "chip_value": "0",
    }
    assert [s.name for s in GAME.option_specs] == ["deck", "stake", "first_lead", "going_out", "chip_value"]
    assert {s.name: s.rule_ref for s in OPTIONS}["going_out"] == "docs/rules.md#koziri-options"
    assert GAME.money_option == "chip_value" and GAME.stock_option is None


@pytest.mark.parametrize("deck", [20, 24, 32])
def test_the_three_pack_sizes(deck: int) -> None:
    assert GAME.parse_options({"deck": deck}).deck == deck


@pytest.mark.parametrize("deck", [28, 52, 0, "32", True, 32.0])
def test_other_pack_sizes_are_refused(deck: object) -> None:
    """The pack has 20, 24 or 32 cards."""
    with pytest.raises(InvalidInput) as info:
        GAME.parse_options({"deck": deck})
    assert info.value.field == "options.deck" and "20, 24, 32" in str(info.value)


@pytest.mark.parametrize(
    ("name", "value"),
    [("stake", -1), ("stake", "1"), ("first_lead", "winner"), ("going_out", True), ("chip_value", "abc"), ("talha", 5)],
)
def test_bad_options_are_refused(name: str, value: object) -> None:
    with pytest.raises(InvalidInput) as info:
        GAME.parse_options({name: value})
    assert info.value.field == f"options.{name}"


def test_options_round_trip() -> None:
    options = GAME.parse_options(
        {"deck": 20, "stake": 5, "first_lead": "dealer", "going_out": "unbeaten", "chip_value": "0,50"}
    )
    assert options == KoziriOptions(deck=20, stake=5, first_lead="dealer", going_out="unbeaten", chip_value="0.50")
    assert GAME.parse_options(GAME.options_json(options)) == options


# --------------------------------------------------------------------------- seats


def test_the_opponent_leads_first_by_the_text() -> None:
    """ "Quem inicia o jogo é o adversário do carteador"; KOZ-4 lets the dealer lead."""
    assert first_speaker(PLAYERS, "Bia", DEFAULT) == "Ana" == GAME.first_speaker(PLAYERS, "Bia", DEFAULT)
    assert first_speaker(PLAYERS, "Ana", DEFAULT) == "Bia"
    dealer_leads = KoziriOptions(first_lead="dealer")
    assert first_speaker(PLAYERS, "Bia", dealer_leads) == "Bia"
    assert leader_role(DEFAULT) is Role.OPPONENT and leader_role(dealer_leads) is Role.DEALER


def test_the_deal_alternates_and_nobody_sits_out() -> None:
    hand = parse(record())
    assert GAME.next_dealer(PLAYERS, hand, DEFAULT) == "Ana" == next_dealer(PLAYERS, hand, DEFAULT)
    assert next_dealer(PLAYERS, parse(record(dealer="Ana")), DEFAULT) == "Bia"
    assert GAME.sitting_out(PLAYERS, "Bia", DEFAULT) is None
    assert GAME.seat_teams(PLAYERS, None, DEFAULT) == (("Ana",), ("Bia",))
    with pytest.raises(InvalidInput):
        GAME.seat_teams(PLAYERS, [["Ana", "Bia"]], DEFAULT)


def test_the_surface() -> None:
    assert GAME.slug == SLUG == "koziri" and GAME.name == "Koziri"
    assert (GAME.min_players, GAME.max_players, GAME.scored) == (2, 2, False)
    assert GAME.standing((("Ana",), ("Bia",)), {"Ana": 1, "Bia": -1}, DEFAULT) is None
    assert GAME.contract_json(parse(record())) == {
        "dealer": "Bia",
        "opponent": "Ana",
        "dealer_trump": "espadas",
        "dealer_second": "copas",
        "opponent_trump": "ouros",
        "opponent_second": "paus",
        "winner": "Ana",
    }


# --------------------------------------------------------------------------- settlement


def test_the_loser_pays_the_winner_the_stake() -> None:
    """A stake per game, default 1."""
    s = GAME.settle(parse(record()), DEFAULT)
    assert dict(s.deltas) == {"Ana": 1, "Bia": -1} and s.carry == 0
    assert [(p.payer, p.payee, p.amount) for p in s.payments] == [("Bia", "Ana", 1)]
    words = [str(line.text) for line in s.lines]
    assert words == ["Ana got rid of every card first and wins the game.", "Bia pays Ana the stake of 1."]


def test_the_dealer_winning_is_paid_by_the_opponent() -> None:
    s = settle(parse(record(winner="Bia")), KoziriOptions(stake=7))
    assert dict(s.deltas) == {"Ana": -7, "Bia": 7}


def test_no_stake_only_records_the_result() -> None:
    """As the rule text has it: "There are no stakes"."""
    s = settle(parse(record()), KoziriOptions(stake=0))
    assert dict(s.deltas) == {"Ana": 0, "Bia": 0} and s.payments == ()
    assert "nothing is paid" in str(s.lines[1].text)


def test_a_record_built_by_hand_checks_itself() -> None:
    """A hand object cannot hold a stranger, however it was made."""
    suits = SuitChoice(dealer_trump=Suit.ESPADAS, dealer_second=Suit.COPAS, opponent_trump=Suit.OUROS)
    fields: dict[str, Any] = {"players": PLAYERS, "dealer": "Bia", "suits": suits, "winner": "Ana"}
    assert KoziriHand(**fields) == parse(record())
    with pytest.raises(UnknownPlayer) as info:
        KoziriHand(**{**fields, "winner": "Nobody"})
    assert info.value.field == "winner"
    with pytest.raises(UnknownPlayer) as info:
        KoziriHand(**{**fields, "dealer": "Zé"})
    assert info.value.field == "dealer"
