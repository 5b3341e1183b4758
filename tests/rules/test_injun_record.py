"""Injun hand records: shapes (400), every check of the rule text refused with one sentence and
the field it points at (422), the options, the seats and the record read back after storage."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from referee.rules import injun
from referee.rules.errors import IllegalCall, InconsistentHand, InvalidInput, RulesError, UnknownPlayer
from referee.rules.injun import GAME, OPTIONS, End, InjunOptions, Kind, System, parse_hand

P4 = ("Ana", "Bia", "Caio", "Dani")
DEFAULT = InjunOptions()
BRAG = InjunOptions(system="brag")
MATCH = InjunOptions(poker_amounts="match_highest")

#: The text's example: 20, then 20 + 2, then 22 + 5; Dani's equal bet closes.
TEXT_BETS: list[list[Any]] = [["Ana", {"bet": 20}], ["Bia", {"bet": 22}], ["Caio", {"bet": 27}], ["Dani", {"bet": 27}]]
TEXT_CARDS = {"Ana": "K", "Bia": "5", "Caio": "Q", "Dani": "3"}


def parse(
    raw: Any, options: InjunOptions = DEFAULT, players: tuple[str, ...] = P4, dealer: str = "Dani"
) -> injun.InjunHand:
    return parse_hand(raw, players=players, options=options, dealer=dealer)


def refused(
    raw: Any,
    kind: type[RulesError],
    field: str | None,
    *words: str,
    options: InjunOptions = DEFAULT,
    players: tuple[str, ...] = P4,
) -> RulesError:
    with pytest.raises(kind) as info:
        parse(raw, options, players)
    error = info.value
    assert type(error) is kind, f"{type(error).__name__}: {error}"
    assert error.field == field, f"field {error.field!r}: {error}"
    message = str(error)
    assert message.endswith(".") and message[0].isupper(), message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return error


def test_the_text_example_is_a_legal_poker_betting() -> None:
    """ "20 fichas, o segundo 20 mais 2, o terceiro 22 mais 5"; an equal bet closes."""
    hand = parse({"actions": TEXT_BETS, "cards": TEXT_CARDS})
    assert hand.system is System.POKER and hand.end is End.CALLED and hand.closed_by == "Dani"
    assert hand.finalists == P4 and dict(hand.paid) == {"Ana": 21, "Bia": 23, "Caio": 28, "Dani": 28}
    assert hand.chips == 100


# --------------------------------------------------------------------------- the checks, Poker


def test_the_table_has_2_to_15_players() -> None:
    """A table of another size breaks a rule (422, as when it is seated), every game alike."""
    refused({"actions": []}, RulesError, "players", "2 to 15", players=("Ana",))
    sixteen = tuple(f"P{i}" for i in range(16))
    refused({"actions": []}, RulesError, "players", "16", players=sixteen)
    fifteen = tuple(f"P{i}" for i in range(15))
    actions = [[p, "drop"] for p in fifteen[:14]]
    hand = parse_hand({"actions": actions}, players=fifteen, options=DEFAULT, dealer="P14")
    assert hand.finalists == ("P14",) and hand.end is End.LAST_STANDING


def test_a_bet_lower_than_the_one_before_is_refused() -> None:
    refused(
        {"actions": [["Ana", {"bet": 20}], ["Bia", {"bet": 19}]]},
        IllegalCall,
        "actions[1]",
        "more than the previous bet of 20",
        "19",
    )


def test_a_lower_bet_is_judged_against_the_last_bet_not_the_last_action() -> None:
    """Drops are not bets: the bet just before is still Bia's 22."""
    raw = {"actions": [["Ana", {"bet": 20}], ["Bia", {"bet": 22}], ["Caio", "drop"], ["Dani", {"bet": 21}]]}
    refused(raw, IllegalCall, "actions[3]", "22")


def test_the_first_bet_is_free_but_at_least_one_chip() -> None:
    assert parse({"actions": [["Ana", {"bet": 1}], ["Bia", {"bet": 1}]], "cards": TEXT_CARDS}).end is End.CALLED
    refused({"actions": [["Ana", {"bet": 0}]]}, IllegalCall, "actions[0]", "at least one chip", "drops out")
    refused({"actions": [["Ana", {"bet": -3}]]}, IllegalCall, "actions[0]", "at least one chip")


def test_a_poker_bet_names_its_amount() -> None:
    refused({"actions": [["Ana", "bet"]]}, IllegalCall, "actions[0]", "names its amount")


def test_seeing_and_closing_are_brag_only() -> None:
    refused({"actions": [["Ana", {"bet": 2}], ["Bia", "see"]]}, IllegalCall, "actions[1]", "only in Brag")
    refused({"actions": [["Ana", "close"]]}, IllegalCall, "actions[0]", "only in Brag")


def test_acting_out_of_turn_is_refused() -> None:
    refused({"actions": [["Bia", {"bet": 2}]]}, IllegalCall, "actions[0]", "not Bia's turn", "Ana acts now")
    refused({"actions": [["Ana", {"bet": 2}], ["Caio", {"bet": 3}]]}, IllegalCall, "actions[1]", "Bia acts now")


def test_the_first_to_bet_is_the_player_after_the_dealer() -> None:
    hand = parse(
        {"dealer": "Bia", "actions": [["Caio", {"bet": 3}], ["Dani", "drop"], ["Ana", "drop"], ["Bia", "drop"]]}
    )
    assert hand.dealer == "Bia" and hand.finalists == ("Caio",)
    refused({"dealer": "Bia", "actions": [["Ana", {"bet": 3}]]}, IllegalCall, "actions[0]", "Caio acts now")


def test_a_player_who_dropped_bets_no_more() -> None:
    raw = {
        "actions": [
            ["Ana", "drop"],
            ["Bia", {"bet": 2}],
            ["Caio", {"bet": 3}],
            ["Dani", {"bet": 4}],
            ["Ana", {"bet": 5}],
        ]
    }
    refused(raw, IllegalCall, "actions[4]", "Ana has dropped out")


def test_nothing_follows_the_closing_bet() -> None:
    raw = {"actions": [*TEXT_BETS, ["Ana", {"bet": 30}]], "cards": TEXT_CARDS}
    refused(raw, IllegalCall, "actions[4]", "betting is over")


def test_an_unfinished_betting_is_refused() -> None:
    refused({"actions": TEXT_BETS[:3]}, IllegalCall, "actions", "not finished", "Dani")
    refused({"actions": []}, IllegalCall, "actions", "Ana still has to act")


def test_under_match_highest_the_players_still_in_match_or_drop() -> None:
    """Alternative: after Dani's closing 27, Ana owes 7 and Bia 5 (Caio and Dani are level)."""
    refused({"actions": TEXT_BETS, "cards": TEXT_CARDS}, IllegalCall, "actions", "Ana still has to act", options=MATCH)
    refused({"actions": [*TEXT_BETS, ["Ana", {"bet": 8}]]}, IllegalCall, "actions[4]", "exactly 7", options=MATCH)
    refused(
        {"actions": [*TEXT_BETS, ["Ana", {"bet": 7}], ["Caio", {"bet": 1}]]},
        IllegalCall,
        "actions[5]",
        "Bia acts now",
        options=MATCH,
    )
    hand = parse(
        {
            "actions": [*TEXT_BETS, ["Ana", {"bet": 7}], ["Bia", "drop"]],
            "cards": {"Ana": "K", "Caio": "Q", "Dani": "3"},
        },
        MATCH,
    )
    assert hand.end is End.CALLED and hand.owed and dict(hand.paid) == {"Ana": 28, "Bia": 23, "Caio": 28, "Dani": 28}


# --------------------------------------------------------------------------- the checks, Brag


def brag(*actions: list[Any], cards: dict[str, str] | None = None, **extra: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {"system": "brag", "actions": [list(a) for a in actions], **extra}
    if cards is not None:
        raw["cards"] = cards
    return raw


def test_every_brag_bet_is_one_chip() -> None:
    refused(brag(["Ana", {"bet": 2}]), IllegalCall, "actions[0]", "exactly one chip")
    hand = parse(brag(["Ana", {"bet": 1}], ["Bia", "drop"], ["Caio", "drop"], ["Dani", "drop"]))
    assert hand.actions[0][1].amount == 1 and hand.to_json()["actions"] == [
        ["Ana", "bet"],
        ["Bia", "drop"],
        ["Caio", "drop"],
        ["Dani", "drop"],
    ]


def test_paying_to_see_needs_exactly_two_players_left() -> None:
    refused(brag(["Ana", "bet"], ["Bia", "see"]), IllegalCall, "actions[1]", "exactly two players", "there are 4")
    refused(brag(["Ana", "bet"], ["Bia", "drop"], ["Caio", "see"]), IllegalCall, "actions[2]", "there are 3")
    hand = parse(
        brag(["Ana", "bet"], ["Bia", "drop"], ["Caio", "drop"], ["Dani", "see"], cards={"Ana": "K", "Dani": "Q"})
    )
    assert hand.end is End.SEEN and hand.paid["Dani"] == 3


def test_a_player_who_closed_a_pot_bets_no_more() -> None:
    raw = brag(["Ana", "close"], ["Bia", "bet"], ["Caio", "bet"], ["Dani", "bet"], ["Ana", "bet"])
    refused(raw, IllegalCall, "actions[4]", "Ana closed a pot")


def test_closing_starts_a_new_pot() -> None:
    hand = parse(
        brag(
            ["Ana", "bet"],
            ["Bia", "bet"],
            ["Caio", "close"],
            ["Dani", "drop"],
            ["Ana", "bet"],
            ["Bia", "see"],
            cards={"Ana": "2", "Bia": "3", "Caio": "4"},
        )
    )
    assert [(p.chips, p.closer, p.contenders) for p in hand.pots] == [
        (6, "Caio", ("Ana", "Bia", "Caio")),
        (3, None, ("Ana", "Bia")),
    ]


def test_the_ante_is_paid_in_brag_too() -> None:
    """The ante is stated before the two systems split."""
    hand = parse(brag(["Ana", "drop"], ["Bia", "drop"], ["Caio", "drop"], ante=3))
    assert dict(hand.paid) == {"Ana": 3, "Bia": 3, "Caio": 3, "Dani": 3}


# --------------------------------------------------------------------------- the showdown's cards


def test_the_cards_of_every_player_still_in_are_shown() -> None:
    cards = dict(TEXT_CARDS)
    del cards["Caio"]
    refused({"actions": TEXT_BETS, "cards": cards}, InvalidInput, "cards.Caio", "card of Caio", "showdown")
    refused({"actions": TEXT_BETS}, InvalidInput, "cards.Ana", "card of Ana")


def test_a_player_who_dropped_shows_no_card() -> None:
    raw = {
        "actions": [["Ana", {"bet": 2}], ["Bia", "drop"], ["Caio", {"bet": 2}]],
        "cards": {"Ana": "K", "Bia": "A", "Caio": "Q", "Dani": "2"},
    }
    refused(raw, InconsistentHand, "cards.Bia", "Bia dropped out")


def test_no_card_is_shown_without_a_showdown() -> None:
    raw = {"actions": [["Ana", {"bet": 2}], ["Bia", "drop"], ["Caio", "drop"], ["Dani", "drop"]], "cards": {"Ana": "K"}}
    refused(raw, InconsistentHand, "cards.Ana", "No cards are compared")


def test_a_survivor_who_takes_every_pot_shows_no_card() -> None:
    """Alternative: the survivor takes the closed pot too, so nothing is compared."""
    raw = brag(["Ana", "close"], ["Bia", "bet"], ["Caio", "drop"], ["Dani", "drop"], cards={"Ana": "A"})
    refused(raw, InvalidInput, "cards.Bia", "card of Bia")  # default: Bia compares with Ana
    refused(
        raw,
        InconsistentHand,
        "cards.Ana",
        "No cards are compared",
        options=InjunOptions(surrender_closed="survivor_takes_all"),
    )


def test_ranks_are_the_french_decks() -> None:
    refused(
        {"actions": TEXT_BETS, "cards": {**TEXT_CARDS, "Ana": "1"}},
        InvalidInput,
        "cards.Ana",
        "no card rank 1",
        "A, K, Q, J, 10",
    )
    refused({"actions": TEXT_BETS, "cards": {**TEXT_CARDS, "Ana": 10}}, InvalidInput, "cards.Ana", "no card rank")
    refused({"actions": TEXT_BETS, "cards": ["K"]}, InvalidInput, "cards", "player and rank")


def test_no_rank_is_shown_more_than_four_times() -> None:
    five = ("Ana", "Bia", "Caio", "Dani", "Edu")
    actions = [["Ana", {"bet": 1}], ["Bia", {"bet": 1}]]
    with pytest.raises(InconsistentHand) as info:
        parse_hand({"actions": actions, "cards": dict.fromkeys(five, "A")}, players=five, options=DEFAULT, dealer="Edu")
    assert info.value.field == "cards" and "5 players show a A" in str(info.value)
    hand = parse_hand(
        {"actions": actions, "cards": {**dict.fromkeys(five[:4], "A"), "Edu": "K"}},
        players=five,
        options=DEFAULT,
        dealer="Edu",
    )
    assert hand.cards["Edu"] == "K"


def test_a_card_of_someone_not_seated_is_refused() -> None:
    refused(
        {"actions": TEXT_BETS, "cards": {**TEXT_CARDS, "Zeca": "2"}}, UnknownPlayer, "cards.Zeca", "Zeca is not seated"
    )


# --------------------------------------------------------------------------- shapes


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        ([], None, "JSON object"),
        ({"actions": [], "trump": "copas"}, "trump", "no field called trump"),
        ({}, "actions", "betting actions"),
        ({"actions": "drop"}, "actions", "list of [player, action]"),
        ({"actions": [["Ana"]]}, "actions[0]", "[player, action] pair"),
        ({"actions": [["Ana", "fold"]]}, "actions[0]", "no action fold"),
        ({"actions": [["Ana", {"raise": 3}]]}, "actions[0]", "no action"),
        ({"actions": [["Ana", {"bet": "3"}]]}, "actions[0]", "whole number"),
        ({"actions": [["Ana", {"bet": True}]]}, "actions[0]", "whole number"),
        ({"actions": [["Ana", {"bet": 10**7}]]}, "actions[0]", "at most"),
        ({"actions": [], "system": "pôquer"}, "system", "poker or brag"),
        ({"actions": [], "ante": -1}, "ante", "ante"),
        ({"actions": [], "ante": "1"}, "ante", "ante"),
        ({"actions": [], "carried_in": -2}, "carried_in", "carried in"),
    ],
)
def test_malformed_records_are_refused_as_input(raw: Any, field: str | None, words: str) -> None:
    refused(raw, InvalidInput, field, words)


def test_players_are_seated_players() -> None:
    refused({"actions": [["Zeca", {"bet": 2}]]}, UnknownPlayer, "actions[0]", "Zeca is not seated")
    refused({"dealer": "Zeca", "actions": []}, UnknownPlayer, "dealer", "Zeca")


# --------------------------------------------------------------------------- options, seats, the record


def test_options_defaults_are_the_chosen_readings() -> None:
    assert GAME.options_json(GAME.parse_options(None)) == {
        "system": "poker",
        "ante": 1,
        "poker_amounts": "literal",
        "odd_chip": "carry",
        "surrender_closed": "compare",
        "starting_chips": 0,
        "chip_value": "0",
    }
    assert [spec.name for spec in OPTIONS] == list(InjunOptions().to_json())
    assert GAME.parse_options({"system": "brag", "ante": 5}) == InjunOptions(system="brag", ante=5)
    with pytest.raises(InvalidInput):
        GAME.parse_options({"odd_chip": "burn"})
    with pytest.raises(InvalidInput):
        GAME.parse_options({"pot": 3})


def test_the_record_may_name_its_system_and_ante_over_the_tables() -> None:
    hand = parse(brag(["Ana", "drop"], ["Bia", "drop"], ["Caio", "drop"], ante=2), DEFAULT)
    assert hand.system is System.BRAG and hand.ante == 2
    hand = parse({"actions": [["Ana", "bet"], ["Bia", "drop"], ["Caio", "drop"], ["Dani", "drop"]]}, BRAG)
    assert hand.system is System.BRAG and hand.ante == 1


def test_seats_and_rotation() -> None:
    """Betting starts at the dealer's left; INJ-1: the deal passes to the left."""
    hand = parse({"actions": TEXT_BETS, "cards": TEXT_CARDS})
    assert GAME.first_speaker(P4, "Dani", DEFAULT) == "Ana"
    assert GAME.next_dealer(P4, hand, DEFAULT) == "Ana"
    assert GAME.sitting_out(P4, "Dani", DEFAULT) is None
    assert GAME.dealer_of(hand) == "Dani"
    assert GAME.min_players == 2 and GAME.max_players == 15 and GAME.slug == "injun" == injun.SLUG
    assert GAME.stock_option == "starting_chips" and GAME.money_option == "chip_value"


def test_the_record_reads_back_the_same() -> None:
    raw = brag(
        ["Ana", "bet"],
        ["Bia", "close"],
        ["Caio", {"bet": 1}],
        ["Dani", "drop"],
        ["Ana", "see"],
        cards={"Ana": "K", "Bia": "A", "Caio": "Q"},
        carried_in=1,
    )
    hand = parse(raw)
    stored = GAME.hand_json(hand)
    assert stored == {
        "dealer": "Dani",
        "system": "brag",
        "ante": 1,
        "actions": [["Ana", "bet"], ["Bia", "close"], ["Caio", "bet"], ["Dani", "drop"], ["Ana", "see"]],
        "cards": {"Ana": "K", "Bia": "A", "Caio": "Q"},
        "carried_in": 1,
    }
    assert parse(stored) == hand


def test_a_hand_built_by_hand_checks_itself() -> None:
    """A hand object cannot hold a stranger, an ante out of bounds, an unknown system or a
    showdown without its cards, however it was made."""
    hand = parse({"actions": TEXT_BETS, "cards": TEXT_CARDS})
    assert dataclasses.replace(hand, ante=2).ante == 2
    cases: list[tuple[dict[str, Any], type[RulesError], str]] = [
        ({"dealer": "Zeca"}, UnknownPlayer, "dealer"),
        ({"ante": -1}, InvalidInput, "ante"),
        ({"carried_in": 10**7}, InvalidInput, "carried_in"),
        ({"system": "pôquer"}, InvalidInput, "system"),
        ({"cards": {**TEXT_CARDS, "Zeca": "2"}}, UnknownPlayer, "cards.Zeca"),
        ({"cards": {**TEXT_CARDS, "Ana": "1"}}, InvalidInput, "cards.Ana"),
        ({"cards": {k: v for k, v in TEXT_CARDS.items() if k != "Bia"}}, InvalidInput, "cards.Bia"),
    ]
    for change, kind, field in cases:
        with pytest.raises(kind) as info:
            dataclasses.replace(hand, **change)
        assert info.value.field == field


def test_the_contract_says_how_the_betting_ended() -> None:
    hand = parse({"actions": TEXT_BETS, "cards": TEXT_CARDS})
    assert GAME.contract_json(hand) == {
        "system": "poker",
        "ante": 1,
        "end": "called",
        "finalists": ["Ana", "Bia", "Caio", "Dani"],
        "chips": 100,
        "carried_in": 0,
        "pots": [{"chips": 100, "closer": None, "contenders": ["Ana", "Bia", "Caio", "Dani"]}],
    }


def test_action_kinds_in_the_record() -> None:
    hand = parse(
        brag(
            ["Ana", "bet"],
            ["Bia", "close"],
            ["Caio", "bet"],
            ["Dani", "drop"],
            ["Ana", "drop"],
            cards={"Caio": "K", "Bia": "A"},
        )
    )
    assert [a.kind for _, a in hand.actions] == [Kind.BET, Kind.CLOSE, Kind.BET, Kind.DROP, Kind.DROP]
    assert hand.end is End.LAST_STANDING and hand.finalists == ("Caio",)
