"""El Gato hand records, options, seats and result.

Only 2, 4, 5, 8 or 10 players; the loser is seated. The optional order of running out
never names the loser and accounts for everyone else. The stake (default 0)
is paid by the loser to each other player; with 0 nothing moves.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.rules.el_gato import (
    GAME,
    OPTIONS,
    PLAYER_COUNTS,
    SLUG,
    ElGatoHand,
    ElGatoOptions,
    cards_each,
    parse_hand,
    rank_order,
    settle,
)
from referee.rules.errors import InconsistentHand, InvalidInput, RulesError, UnknownPlayer
from referee.rules.game import deal_passes_on as next_dealer
from referee.rules.game import player_after_dealer as first_speaker

PLAYERS = ("Ana", "Bia", "Caio", "Dani")
DEFAULT = ElGatoOptions()


def parse(raw: Any, players: tuple[str, ...] = PLAYERS, options: ElGatoOptions = DEFAULT) -> Any:
    return parse_hand(raw, players=players, options=options, dealer=players[-1])


def test_options_defaults_and_surface() -> None:
    assert SLUG == "el_gato" and GAME.slug == SLUG
    assert (GAME.min_players, GAME.max_players) == (2, 10) and GAME.player_counts == (2, 4, 5, 8, 10)
    assert [spec.name for spec in OPTIONS] == ["stake", "ranks", "war", "chip_value"]
    assert GAME.parse_options({}) == DEFAULT
    assert GAME.options_json(DEFAULT) == {"stake": 0, "ranks": "sota_high", "war": "highest_only", "chip_value": "0"}
    assert GAME.parse_options({"ranks": "ace_high", "war": "any_tie", "stake": 5}) == ElGatoOptions(
        stake=5, ranks="ace_high", war="any_tie"
    )
    assert GAME.stock_option is None and GAME.money_option == "chip_value"
    for bad in ({"stake": -1}, {"ranks": "king_high"}, {"gato": "5"}):
        with pytest.raises(InvalidInput):
            GAME.parse_options(bad)


def test_rank_orders() -> None:
    """Sota (10) high down to the ace by default; ace high as the alternative."""
    assert rank_order(DEFAULT) == ("10", "9", "8", "7", "6", "5", "4", "3", "2", "1")
    assert rank_order(ElGatoOptions(ranks="ace_high")) == ("1", "10", "9", "8", "7", "6", "5", "4", "3", "2")


@pytest.mark.parametrize("count", PLAYER_COUNTS)
def test_every_card_is_dealt(count: int) -> None:
    """The 40 cards divide exactly among the players."""
    assert cards_each(count) * count == 40


@pytest.mark.parametrize("count", [1, 3, 6, 7, 9, 11])
def test_player_counts_that_do_not_divide_40_are_refused(count: int) -> None:
    """3, 6, 7 and 9 are rejected (and anything outside 2-10)."""
    players = tuple(f"P{i}" for i in range(count))
    with pytest.raises(RulesError) as info:
        parse({"loser": "P0"}, players)
    assert (
        not isinstance(info.value, InvalidInput)
        and info.value.field == "players"
        and "2, 4, 5, 8 or 10" in str(info.value)
    )
    with pytest.raises(RulesError) as seated:
        GAME.seat_teams(players, None, GAME.parse_options({}))
    assert seated.value.field == "players"


@pytest.mark.parametrize("count", PLAYER_COUNTS)
def test_legal_counts_are_accepted(count: int) -> None:
    players = tuple(f"P{i}" for i in range(count))
    assert parse({"loser": "P1"}, players).loser == "P1"


def test_seats() -> None:
    """The player to the dealer's left plays first; the deal then passes on."""
    hand = parse({"loser": "Bia"})
    assert first_speaker(PLAYERS, "Dani") == "Ana" and GAME.first_speaker(PLAYERS, "Ana", DEFAULT) == "Bia"
    assert GAME.next_dealer(PLAYERS, hand, DEFAULT) == "Ana" == next_dealer(PLAYERS, hand)
    assert GAME.sitting_out(PLAYERS, "Dani", DEFAULT) is None
    assert GAME.dealer_of(hand) == "Dani"


def test_records_read_back() -> None:
    hand = parse({"loser": "Bia", "dealer": "Caio", "out_order": [["Ana", "Dani"], "Caio"]})
    assert GAME.hand_json(hand) == {"dealer": "Caio", "loser": "Bia", "out_order": [["Ana", "Dani"], "Caio"]}
    assert GAME.contract_json(hand) == {"loser": "Bia", "out_order": [["Ana", "Dani"], "Caio"]}
    assert GAME.contract_json(parse({"loser": "Bia"})) == {"loser": "Bia", "out_order": None}


@pytest.mark.parametrize(
    "raw, kind, field, words",
    [
        ({}, InvalidInput, "loser", "Name the loser"),
        ({"loser": "Zé"}, UnknownPlayer, "loser", "not seated"),
        ({"loser": ["Bia"]}, InvalidInput, "loser", "by name"),
        ({"loser": "Bia", "dealer": "Zé"}, UnknownPlayer, "dealer", "not seated"),
        ({"loser": "Bia", "winner": "Ana"}, InvalidInput, "winner", "no field"),
        ({"loser": "Bia", "out_order": {"Ana": 1}}, InvalidInput, "out_order", "list"),
        (
            {"loser": "Bia", "out_order": ["Ana", "Bia", "Caio", "Dani"]},
            InconsistentHand,
            "out_order[1]",
            "Bia is the loser",
        ),
        ({"loser": "Bia", "out_order": ["Ana", "Caio", "Dani", "Bia"]}, InconsistentHand, "out_order[3]", "not among"),
        ({"loser": "Bia", "out_order": ["Ana", "Caio"]}, InconsistentHand, "out_order", "Dani is missing"),
        ({"loser": "Bia", "out_order": ["Ana", ["Caio", "Ana"], "Dani"]}, InconsistentHand, "out_order[1][1]", "twice"),
        ({"loser": "Bia", "out_order": ["Ana", "Caio", "Zé"]}, UnknownPlayer, "out_order[2]", "not seated"),
    ],
)
def test_every_check_is_refused_with_its_field(
    raw: dict[str, Any], kind: type[RulesError], field: str, words: str
) -> None:
    with pytest.raises(kind) as info:
        parse(raw)
    assert info.value.field == field
    assert words in str(info.value) and str(info.value).endswith(".")


def test_not_a_json_object() -> None:
    with pytest.raises(InvalidInput):
        parse("Bia")


def test_no_stake_only_records_the_result() -> None:
    """The text has no stakes; with the default stake 0 every delta is 0."""
    s = GAME.settle(parse({"loser": "Caio"}), DEFAULT)
    assert dict(s.deltas) == dict.fromkeys(PLAYERS, 0) and not s.payments and s.carry == 0
    assert [str(line.text) for line in s.lines] == [
        "Caio was left holding all the cards and loses.",
        "The table plays for no stake: nothing is paid.",
    ]


@pytest.mark.parametrize("count", PLAYER_COUNTS)
def test_the_loser_pays_each_other_player_the_stake(count: int) -> None:
    players = tuple(f"P{i}" for i in range(count))
    options = ElGatoOptions(stake=3)
    s = settle(parse({"loser": "P0"}, players), options)
    assert dict(s.deltas) == {p: -3 * (count - 1) if p == "P0" else 3 for p in players}
    assert sum(s.deltas.values()) == 0 and len(s.payments) == count - 1
    assert str(s.lines[1].text) == (
        "P0 pays the stake of 3 to the other player."
        if count == 2
        else f"P0 pays the stake of 3 to each of the other {count - 1} players."
    )


def test_a_record_built_by_hand_checks_itself() -> None:
    """A hand object cannot hold a stranger, however it was made."""
    fields: dict[str, Any] = {"players": PLAYERS, "dealer": "Dani", "loser": "Bia", "out_order": None}
    assert settle(ElGatoHand(**fields), ElGatoOptions(stake=1)).deltas["Bia"] == -3
    with pytest.raises(UnknownPlayer) as info:
        ElGatoHand(**{**fields, "loser": "Nobody"})
    assert info.value.field == "loser"
    with pytest.raises(UnknownPlayer) as info:
        ElGatoHand(**{**fields, "dealer": "Zé"})
    assert info.value.field == "dealer"
