"""Lift Smoke hand records, options, seats and settlement.

Every check the record allows is refused with one sentence and the field it points
at; the winner takes every ante and deals next; LS-2's shared last trick is recorded.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.rules.errors import InconsistentHand, InvalidInput, RulesError, UnknownPlayer
from referee.rules.game import player_after_dealer as first_speaker
from referee.rules.lift_smoke import (
    GAME,
    OPTIONS,
    SLUG,
    LiftSmokeHand,
    LiftSmokeOptions,
    cards_each,
    next_dealer,
    parse_hand,
    settle,
    stock_size,
)

PLAYERS = ("Ana", "Bia", "Caio", "Dani")
DEFAULT = LiftSmokeOptions()


def record(**over: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {"dealer": "Dani", "ante": 2, "winner": "Bia", "out_order": ["Caio", "Ana", "Dani"]}
    raw.update(over)
    return {k: v for k, v in raw.items() if v is not None}


def parse(raw: dict[str, Any], players: tuple[str, ...] = PLAYERS, options: LiftSmokeOptions = DEFAULT) -> Any:
    return parse_hand(raw, players=players, options=options, dealer=players[-1])


def refused(raw: dict[str, Any], kind: type[RulesError], field: str | None, players: tuple[str, ...] = PLAYERS) -> str:
    with pytest.raises(kind) as info:
        parse(raw, players)
    assert info.value.field == field
    message = str(info.value)
    assert message.endswith(".") and "\n" not in message
    return message


# --------------------------------------------------------------------------- options and deal


def test_options_defaults_and_surface() -> None:
    assert SLUG == "lift_smoke" and GAME.slug == SLUG
    assert (GAME.min_players, GAME.max_players) == (4, 6)
    assert [spec.name for spec in OPTIONS] == ["ante", "starting_chips", "chip_value"]
    assert GAME.parse_options(None) == DEFAULT
    assert GAME.options_json(DEFAULT) == {"ante": 1, "starting_chips": 0, "chip_value": "0"}
    assert GAME.stock_option == "starting_chips" and GAME.money_option == "chip_value"
    with pytest.raises(InvalidInput):
        GAME.parse_options({"ante": -1})
    with pytest.raises(InvalidInput):
        GAME.parse_options({"reshuffle": True})


@pytest.mark.parametrize("count, each, stock", [(4, 4, 36), (5, 5, 27), (6, 6, 16)])
def test_the_deal_gives_as_many_cards_as_players(count: int, each: int, stock: int) -> None:
    """4 players get 4 cards, 5 get 5, 6 get 6; the rest is the stock."""
    assert cards_each(count) == each and stock_size(count) == stock


def test_seats_the_left_of_the_dealer_leads_and_the_winner_deals_next() -> None:
    """The player to the dealer's left leads; the winner deals the next hand."""
    hand = parse(record())
    assert first_speaker(PLAYERS, "Dani") == "Ana"
    assert GAME.first_speaker(PLAYERS, "Bia", DEFAULT) == "Caio"
    assert GAME.next_dealer(PLAYERS, hand, DEFAULT) == "Bia"
    assert next_dealer(PLAYERS, parse(record(winner="Caio", out_order=None))) == "Caio"
    assert GAME.sitting_out(PLAYERS, "Dani", DEFAULT) is None
    assert GAME.dealer_of(hand) == "Dani"


# --------------------------------------------------------------------------- the record


def test_a_full_record_reads_back() -> None:
    hand = parse(record())
    assert hand.to_json() == {
        "dealer": "Dani",
        "ante": 2,
        "winner": "Bia",
        "out_order": ["Caio", "Ana", "Dani"],
        "carried_in": 0,
    }
    assert GAME.hand_json(hand) == hand.to_json()
    assert GAME.contract_json(hand) == {
        "winner": "Bia",
        "ante": 2,
        "out_order": ["Caio", "Ana", "Dani"],
        "carried_in": 0,
    }


def test_the_minimal_record_fills_in_the_dealer_and_the_ante() -> None:
    """Players, ante and winner; the order of going out is optional."""
    hand = parse({"winner": "Caio"}, options=LiftSmokeOptions(ante=3))
    assert hand.to_json() == {"dealer": "Dani", "ante": 3, "winner": "Caio", "carried_in": 0}
    assert GAME.contract_json(hand)["out_order"] is None


def test_players_out_on_the_same_trick_are_a_group() -> None:
    """After the first round of tricks everyone who won none is out at once."""
    hand = parse(record(out_order=[["Caio", "Ana"], "Dani"]))
    assert hand.out_order == (("Caio", "Ana"), ("Dani",))
    assert hand.to_json()["out_order"] == [["Caio", "Ana"], "Dani"]
    assert parse(record(out_order=[["Caio"], ["Ana"], ["Dani"]])).to_json()["out_order"] == ["Caio", "Ana", "Dani"]


def test_the_winner_may_close_the_order() -> None:
    """The whole order, the winner last (the last one holding cards)."""
    hand = parse(record(out_order=["Caio", "Ana", "Dani", "Bia"]))
    assert hand.out_order == (("Caio",), ("Ana",), ("Dani",), ("Bia",))
    assert not hand.last_trick_tie


def test_ls2_the_last_players_run_out_together_and_the_trick_winner_takes_the_pot() -> None:
    """The last players all run out on the same trick; the winner of that trick wins."""
    hand = parse(record(out_order=["Caio", ["Ana", "Bia", "Dani"]]))
    assert hand.last_trick_tie
    s = settle(hand, DEFAULT)
    assert dict(s.deltas) == {"Ana": -2, "Bia": 6, "Caio": -2, "Dani": -2}
    assert any("same trick" in str(line.text) for line in s.lines)


# --------------------------------------------------------------------------- every check refused


def test_table_size_4_to_6() -> None:
    """4 ≤ players ≤ 6: a table of another size breaks a rule (422, as when it is seated), every game alike."""
    for players in (("Ana", "Bia", "Caio"), tuple("ABCDEFG")):
        with pytest.raises(RulesError) as info:
            parse({"winner": "Ana" if "Ana" in players else "A"}, players)
        assert info.value.field == "players" and "4 to 6" in str(info.value)
        assert info.value.code == "rules_error"


@pytest.mark.parametrize(
    "over, kind, field, words",
    [
        ({"winner": None}, InvalidInput, "winner", "Name the winner"),
        ({"winner": "Zé"}, UnknownPlayer, "winner", "not seated"),
        ({"winner": 3}, InvalidInput, "winner", "by name"),
        ({"dealer": "Zé"}, UnknownPlayer, "dealer", "not seated"),
        ({"ante": "2"}, InvalidInput, "ante", "whole number"),
        ({"ante": True}, InvalidInput, "ante", "whole number"),
        ({"ante": -1}, InconsistentHand, "ante", "from 0"),
        ({"carried_in": -3}, InconsistentHand, "carried_in", "from 0"),
        ({"carried_in": 1.5}, InvalidInput, "carried_in", "whole number"),
        ({"trump": "copas"}, InvalidInput, "trump", "no field"),
        ({"out_order": "Caio"}, InvalidInput, "out_order", "list"),
        ({"out_order": ["Caio", 7, "Dani"]}, InvalidInput, "out_order[1]", "a player, or a list"),
        ({"out_order": ["Caio", ["Ana", 7], "Dani"]}, InvalidInput, "out_order[1][1]", "by name"),
        ({"out_order": ["Caio", [], "Dani"]}, InvalidInput, "out_order[1]", "same trick"),
        ({"out_order": ["Caio", "Zé", "Dani"]}, UnknownPlayer, "out_order[1]", "not seated"),
        ({"out_order": ["Caio", ["Ana", "Caio"], "Dani"]}, InconsistentHand, "out_order[1][1]", "twice"),
        ({"out_order": ["Caio", "Ana"]}, InconsistentHand, "out_order", "Dani is missing"),
        ({"out_order": ["Caio", "Bia", "Ana", "Dani"]}, InconsistentHand, "out_order[1]", "before the last trick"),
        ({"out_order": [["Caio", "Bia"], "Ana", "Dani"]}, InconsistentHand, "out_order[0][1]", "cannot be the winner"),
    ],
)
def test_every_check_is_refused_with_its_field(
    over: dict[str, Any], kind: type[RulesError], field: str, words: str
) -> None:
    assert words in refused(record(**over), kind, field)


def test_not_a_json_object() -> None:
    with pytest.raises(InvalidInput):
        parse(["Bia"])  # type: ignore[arg-type]


# --------------------------------------------------------------------------- settlement


@pytest.mark.parametrize("players", [PLAYERS, PLAYERS + ("Eva",), PLAYERS + ("Eva", "Fábio")])
@pytest.mark.parametrize("ante", [1, 2, 5])
def test_the_winner_takes_every_ante(players: tuple[str, ...], ante: int) -> None:
    """Winner +(n − 1) × ante, everyone else −ante."""
    hand = parse({"winner": "Bia", "ante": ante}, players)
    s = settle(hand, DEFAULT)
    n = len(players)
    assert dict(s.deltas) == {p: (n - 1) * ante if p == "Bia" else -ante for p in players}
    assert s.carry == 0 and sum(s.deltas.values()) == 0
    assert sum(p.amount for p in s.payments) == (n - 1) * ante
    assert all(p.payee == "Bia" for p in s.payments)
    assert [(str(line.text), line.amount, line.total) for line in s.lines] == [
        (f"{n} players put in an ante of {ante} each.", n * ante, False),
        ("The pot", n * ante, True),
        ("Bia is the last player holding cards and takes the pot.", n * ante, False),
        ("Bia's own ante was in the pot.", -ante, False),
        ("What Bia gains", (n - 1) * ante, True),
    ]


def test_an_ante_of_zero_moves_nothing() -> None:
    s = GAME.settle(parse(record(ante=0)), DEFAULT)
    assert set(s.deltas.values()) == {0} and not s.payments


def test_chips_carried_in_go_to_the_winner_and_the_carry_is_reported() -> None:
    """Extension: chips already on the table; Lift Smoke leaves none, so carry = −carried_in."""
    hand = parse(record(carried_in=3))
    s = settle(hand, DEFAULT)
    assert dict(s.deltas) == {"Ana": -2, "Bia": 9, "Caio": -2, "Dani": -2}
    assert s.carry == -3 and s.carried_in == 3 and s.carried_out == 0
    assert sum(s.deltas.values()) == -s.carry
    assert "3 chips left on the table by the last deal are in the pot." in [str(line.text) for line in s.lines]
    assert [line.amount for line in s.lines if line.total] == [11, 9]


def test_a_record_built_by_hand_checks_itself() -> None:
    """A hand object cannot hold a stranger or a negative ante, however it was made."""
    fields: dict[str, Any] = {
        "players": PLAYERS,
        "dealer": "Dani",
        "ante": 1,
        "winner": "Bia",
        "out_order": None,
        "carried_in": 0,
    }
    assert LiftSmokeHand(**fields).pot == 4
    with pytest.raises(UnknownPlayer) as info:
        LiftSmokeHand(**{**fields, "winner": "Nobody"})
    assert info.value.field == "winner"
    with pytest.raises(InconsistentHand):
        LiftSmokeHand(**{**fields, "ante": -1})
    with pytest.raises(UnknownPlayer):
        LiftSmokeHand(**{**fields, "dealer": "Zé"})
