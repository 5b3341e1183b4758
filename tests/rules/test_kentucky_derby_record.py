"""Kentucky Derby race records: shapes (400), rule breaks (422) with the sentence and the field
they point at, the options, the seats and the round trip."""

from __future__ import annotations

from typing import Any

import pytest

from referee.rules.cards import Suit
from referee.rules.errors import InconsistentHand, InvalidInput, RulesError, UnknownPlayer
from referee.rules.game import deal_passes_on as next_dealer
from referee.rules.game import player_after_dealer as first_speaker
from referee.rules.kentucky_derby import (
    GAME,
    OPTIONS,
    Bet,
    DerbyHand,
    DerbyOptions,
    parse_hand,
)
from tests.rules.derby_bookkeeper import bookkeeper
from tests.rules.test_kentucky_derby_race import BOTH_PAUS, SOLO, cards

PLAYERS = ("Ana", "Bia", "Caio", "Dani")
SEVEN = ("Ana", "Bia", "Caio", "Dani", "Edu", "Fabi", "Gil")
DEFAULT = DerbyOptions()


def bets(
    players: tuple[str, ...] = PLAYERS, horses: str = "copas ouros espadas paus", amount: int = 1
) -> dict[str, Any]:
    cycle = horses.split()
    return {p: {"horse": cycle[i % len(cycle)], "amount": amount} for i, p in enumerate(players)}


def race(players: tuple[str, ...] = PLAYERS, **over: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {"dealer": players[-1], "pingo": 1, "bets": bets(players), "cards": cards(*SOLO)}
    raw.update(over)
    return {k: v for k, v in raw.items() if v is not ...}


def parse(raw: Any, options: DerbyOptions = DEFAULT, players: tuple[str, ...] = PLAYERS) -> Any:
    return parse_hand(raw, players=players, options=options, dealer=players[-1])


def refused(
    raw: Any,
    kind: type[RulesError],
    field: str | None,
    words: list[str],
    options: DerbyOptions = DEFAULT,
    players: tuple[str, ...] = PLAYERS,
) -> None:
    with pytest.raises(kind) as info:
        parse(raw, options, players)
    error = info.value
    assert type(error) is kind, f"{type(error).__name__}: {error}"
    assert error.field == field
    for word in words:
        assert word in str(error), f"{word!r} not in {str(error)!r}"
    assert str(error).endswith(".")


# --------------------------------------------------------------------------- legal records


def test_a_full_race_parses_and_round_trips() -> None:
    hand = parse(race())
    assert hand.winners == (Suit.COPAS,) and hand.second == () and hand.carried_in == 0
    assert hand.race is not None and len(hand.cards) == 16
    out = hand.to_json()
    assert out["winner"] == "copas" and "second" not in out
    assert out["cards"] == cards(*SOLO)
    assert parse(out) == hand
    assert GAME.hand_json(hand) == out


def test_amounts_and_pingo_default_to_the_table_options() -> None:
    options = DerbyOptions(pingo=2, bet=3)
    raw = race(pingo=..., bets={p: {"horse": "copas"} for p in PLAYERS})
    hand = parse(raw, options)
    assert hand.pingo == 2 and {b.amount for b in hand.bets.values()} == {3}
    assert parse({**raw, "bets": dict.fromkeys(PLAYERS, "paus")}, options).bets["Ana"].horse is Suit.PAUS


def test_the_result_alone_is_enough() -> None:
    """ "or simply the winning horse (and second-place horse for more than 6 players)"."""
    hand = parse(race(cards=..., winner="paus"))
    assert hand.winners == (Suit.PAUS,) and hand.cards is None and hand.race is None
    assert parse(hand.to_json()) == hand
    seven = parse(race(SEVEN, cards=..., winner="paus", second="copas"), players=SEVEN)
    assert seven.second == (Suit.COPAS,)
    shared = parse(race(cards=..., winner=["paus", "copas"]))
    assert shared.winners == (Suit.COPAS, Suit.PAUS) and shared.to_json()["winner"] == ["copas", "paus"]


def test_winner_and_second_may_be_given_with_the_cards_when_they_agree() -> None:
    assert parse(race(winner="copas")).winners == (Suit.COPAS,)
    raw = race(SEVEN, cards=cards(*BOTH_PAUS, "9♥ 9♠"), winner="copas", second="paus")
    hand = parse(raw, players=SEVEN)
    assert hand.second == (Suit.PAUS,) and hand.to_json()["second"] == "paus"


def test_carried_in_is_kept() -> None:
    hand = parse(race(carried_in=5))
    assert hand.carried_in == 5 and hand.to_json()["carried_in"] == 5


def test_dealer_from_the_record_wins_over_rotation() -> None:
    assert parse(race(dealer="Bia")).dealer == "Bia"
    assert parse(race(dealer=...)).dealer == "Dani"


# --------------------------------------------------------------------------- refused


@pytest.mark.parametrize(
    ("raw", "kind", "field", "words"),
    [
        ([], InvalidInput, None, ["JSON object"]),
        (race(horse="copas"), InvalidInput, "horse", ["no field called horse"]),
        (race(dealer="Zé"), UnknownPlayer, "dealer", ["Zé is not seated"]),
        (race(pingo=-1), InconsistentHand, "pingo", ["from 0"]),
        (race(pingo="1"), InvalidInput, "pingo", ["whole number"]),
        (race(carried_in=-2), InconsistentHand, "carried_in", ["from 0"]),
        (race(carried_in=1.5), InvalidInput, "carried_in", ["whole number"]),
        (race(bets=...), InvalidInput, "bets", ["each player's bet"]),
        (race(bets=[["Ana", "copas"]]), InvalidInput, "bets", ["each player's bet"]),
        # each player bets on exactly one horse
        (race(bets={k: v for k, v in bets().items() if k != "Caio"}), InvalidInput, "bets.Caio", ["Caio has no bet"]),
        (
            race(bets={**bets(), "Ana": {"horse": ["copas", "paus"], "amount": 1}}),
            InconsistentHand,
            "bets.Ana.horse",
            ["exactly one horse", "not 2"],
        ),
        (race(bets={**bets(), "Zé": {"horse": "copas", "amount": 1}}), UnknownPlayer, "bets.Zé", ["not seated"]),
        (race(bets={**bets(), "Ana": {"amount": 1}}), InvalidInput, "bets.Ana.horse", ["which horse"]),
        (
            race(bets={**bets(), "Ana": {"horse": "cavalo", "amount": 1}}),
            InvalidInput,
            "bets.Ana.horse",
            ["cavalo is not a suit"],
        ),
        (
            race(bets={**bets(), "Ana": {"horse": "copas", "amount": 0}}),
            InconsistentHand,
            "bets.Ana.amount",
            ["at least 1 chip"],
        ),
        (
            race(bets={**bets(), "Ana": {"horse": "copas", "amount": True}}),
            InvalidInput,
            "bets.Ana.amount",
            ["whole number"],
        ),
        (race(bets={**bets(), "Ana": {"horse": "copas", "odds": 2}}), InvalidInput, "bets.Ana", ["horse", "amount"]),
        # cards one per ace in turn, ♥ ♦ ♠ ♣
        (
            race(cards=cards(*SOLO)[:1] + [{"rank": "3", "suit": "espadas", "horse": "paus"}]),
            InconsistentHand,
            "cards[1].horse",
            ["in turn"],
        ),
        (race(cards=[{"rank": "A", "suit": "paus"}]), InconsistentHand, "cards[0]", ["aces"]),
        (race(cards=cards(*SOLO)[:15]), InconsistentHand, "cards", ["not over", "ace of clubs"]),
        (race(cards=cards(*SOLO, "2♥")), InconsistentHand, "cards[16]", ["already decided"]),
        (race(cards=cards(*SOLO)[:3] + cards("K♥")), InconsistentHand, "cards[3]", ["already turned"]),
        (race(cards="K♥ Q♥"), InvalidInput, "cards", ["list"]),
        (race(cards=[{"rank": "K", "suit": "copas"}] * 42), InconsistentHand, "cards", ["Only 41 cards"]),
        (race(winner="paus"), InconsistentHand, "winner", ["cards make hearts the winner"]),
        (race(cards=..., winner=...), InvalidInput, "winner", ["winning horse"]),
        (race(cards=..., winner="cavalo"), InvalidInput, "winner", ["not a suit"]),
        (race(cards=..., winner=["paus", "paus"]), InconsistentHand, "winner", ["named twice"]),
        (race(cards=..., winner=[]), InvalidInput, "winner", ["Name the horse"]),
        # second place only with more than 6 players
        (race(second="paus"), InconsistentHand, "second", ["more than 6 players", "has 4"]),
        (race(cards=..., winner="copas", second="paus"), InconsistentHand, "second", ["more than 6"]),
    ],
)
def test_refused(raw: Any, kind: type[RulesError], field: str | None, words: list[str]) -> None:
    refused(raw, kind, field, words)


def test_refused_at_seven_players() -> None:
    refused(race(SEVEN, cards=..., winner="copas"), InvalidInput, "second", ["second horse"], players=SEVEN)
    refused(
        race(SEVEN, cards=..., winner="copas", second="copas"),
        InconsistentHand,
        "second",
        ["cannot also"],
        players=SEVEN,
    )
    refused(
        race(SEVEN, cards=..., winner=["copas", "ouros", "espadas"], second=["paus", "ouros"]),
        InconsistentHand,
        "second",
        ["cannot also"],
        players=SEVEN,
    )
    refused(
        race(SEVEN, cards=cards(*BOTH_PAUS, "9♥ 9♠"), second="ouros"),
        InconsistentHand,
        "second",
        ["second place"],
        players=SEVEN,
    )


def test_second_place_options() -> None:
    six = SEVEN[:6]
    refused(
        race(six, cards=..., winner="copas", second="paus"), InconsistentHand, "second", ["more than 6"], players=six
    )
    hand = parse(race(six, cards=..., winner="copas", second="paus"), DerbyOptions(second_place="from_6"), six)
    assert hand.second == (Suit.PAUS,)
    refused(
        race(SEVEN, cards=..., winner="copas", second="paus"),
        InconsistentHand,
        "second",
        ["first place only"],
        options=DerbyOptions(second_place="never"),
        players=SEVEN,
    )


def test_three_players_at_least() -> None:
    """A table of another size breaks a rule (422, as when it is seated), every game alike."""
    refused(race(("Ana", "Bia"), bets=bets(("Ana", "Bia"))), RulesError, "players", ["3 to 40"], players=("Ana", "Bia"))
    assert parse(race(("Ana", "Bia", "Caio")), players=("Ana", "Bia", "Caio")).winners == (Suit.COPAS,)


def test_a_race_built_by_hand_checks_itself() -> None:
    """A race object cannot hold a stranger, a pingo out of bounds, a missing or empty bet, no
    winner or a horse in both places, however it was made."""
    fields: dict[str, Any] = {
        "players": PLAYERS,
        "dealer": "Dani",
        "pingo": 1,
        "bets": {p: Bet(horse=Suit.COPAS, amount=1) for p in PLAYERS},
        "cards": None,
        "race": None,
        "winners": (Suit.COPAS,),
        "second": (),
        "carried_in": 0,
    }
    assert DerbyHand(**fields).to_json()["winner"] == "copas"
    cases: list[tuple[dict[str, Any], type[RulesError], str]] = [
        ({"dealer": "Zé"}, UnknownPlayer, "dealer"),
        ({"pingo": -1}, InconsistentHand, "pingo"),
        ({"carried_in": 10**7}, InconsistentHand, "carried_in"),
        ({"bets": {**fields["bets"], "Zé": Bet(horse=Suit.PAUS, amount=1)}}, UnknownPlayer, "bets.Zé"),
        ({"bets": {p: fields["bets"][p] for p in PLAYERS[1:]}}, InvalidInput, "bets.Ana"),
        ({"bets": {**fields["bets"], "Bia": Bet(horse=Suit.PAUS, amount=0)}}, InconsistentHand, "bets.Bia.amount"),
        ({"winners": ()}, InvalidInput, "winner"),
        ({"second": (Suit.COPAS,)}, InconsistentHand, "second"),
    ]
    for change, kind, field in cases:
        with pytest.raises(kind) as info:
            DerbyHand(**{**fields, **change})
        assert info.value.field == field


# --------------------------------------------------------------------------- options and seats


def test_options_defaults_are_the_chosen_readings() -> None:
    options = GAME.parse_options(None)
    assert options == DerbyOptions()
    assert GAME.options_json(options) == {
        "pingo": 1,
        "bet": 1,
        "track_length": 7,
        "own_suit_bonus": "forward",
        "finish": "round_end",
        "second_place": "above_6",
        "second_by": "most_advanced",
        "unbacked": "carry",
        "split": "equal",
        "starting_chips": 0,
        "chip_value": "0",
    }
    assert [spec.name for spec in OPTIONS] == list(GAME.options_json(options))
    assert GAME.parse_options({"finish": "first_to_line", "track_length": 9}).finish_line == 18


@pytest.mark.parametrize("raw", [{"finish": "photo"}, {"track_length": 2}, {"odds": 3}, {"split": True}])
def test_bad_options_are_refused(raw: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput):
        GAME.parse_options(raw)


def test_seats() -> None:
    """The player to the dealer's left moves the horses, the one to his right keeps the
    bets, and the deal passes to the left (the next player in order of play)."""
    assert first_speaker(PLAYERS, "Dani", DEFAULT) == "Ana" == GAME.first_speaker(PLAYERS, "Dani", DEFAULT)
    assert bookkeeper(PLAYERS, "Dani") == "Caio"
    assert next_dealer(PLAYERS, parse(race()), DEFAULT) == "Ana"
    hand = parse(race(dealer="Bia"))
    assert GAME.next_dealer(PLAYERS, hand, DEFAULT) == "Caio"
    assert GAME.sitting_out(PLAYERS, "Bia", DEFAULT) is None
    assert GAME.dealer_of(hand) == "Bia"
    assert GAME.min_players == 3 and GAME.slug == "kentucky_derby"


def test_contract_json() -> None:
    hand = parse(race(SEVEN, cards=cards(*BOTH_PAUS, "9♥ 9♠"), carried_in=2), players=SEVEN)
    assert GAME.contract_json(hand) == {
        "winner": ["copas"],
        "second": ["paus"],
        "backers": {"copas": ["Ana", "Edu"], "ouros": ["Bia", "Fabi"], "espadas": ["Caio", "Gil"], "paus": ["Dani"]},
        "carried_in": 2,
    }


def test_registered_behind_the_game_surface() -> None:
    from referee.rules import GAMES, get_game

    assert get_game("kentucky_derby") is GAMES["kentucky_derby"] is GAME and GAME.pots
