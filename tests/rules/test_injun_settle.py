"""Injun settlements (the rule text, with the chosen readings): the pot and its winner in
Poker, the Brag endings (a surrender, paying to see, closed pots), ties and the odd chip,
chips carried in from the previous deal; every figure worked by hand from the rule text."""

from __future__ import annotations

from typing import Any

from referee.rules.injun import GAME, InjunOptions, parse_hand, settle
from referee.rules.pot import PotSettlement

P4 = ("Ana", "Bia", "Caio", "Dani")
P3 = ("Ana", "Bia", "Caio")
DEFAULT = InjunOptions()
TEXT_BETS: list[list[Any]] = [["Ana", {"bet": 20}], ["Bia", {"bet": 22}], ["Caio", {"bet": 27}], ["Dani", {"bet": 27}]]


def outcome(raw: dict[str, Any], options: InjunOptions = DEFAULT, players: tuple[str, ...] = P4) -> PotSettlement:
    hand = parse_hand(raw, players=players, options=options, dealer=players[-1])
    result = settle(hand, options)
    assert sum(result.deltas.values()) + result.carry == 0
    assert GAME.settle(hand, options) == result
    return result


def words(result: PotSettlement) -> str:
    return " / ".join(str(line.text) for line in result.lines)


# --------------------------------------------------------------------------- Poker, the settlement


def test_the_text_example_pot_goes_to_the_highest_card() -> None:
    """Bets 20, 22, 27, 27 (closing); antes of 1; the pot is 100 and Ana's K wins.
    Winner: pot minus own chips; every other player: minus own chips."""
    result = outcome({"actions": TEXT_BETS, "cards": {"Ana": "K", "Bia": "5", "Caio": "Q", "Dani": "3"}})
    assert dict(result.deltas) == {"Ana": 79, "Bia": -23, "Caio": -28, "Dani": -28}
    assert result.carry == 0 and result.carried_out == 0
    text = words(result)
    assert "4 players put in an ante of 1 each" in text and "96 chips were bet" in text
    assert "Dani matched the bet before and closed the betting" in text
    assert "The pot: 100 chips; cards shown: Ana K, Bia 5, Caio Q, Dani 3" in text and "Ana wins it with K" in text


def test_the_chips_of_players_who_dropped_stay_in_the_pot() -> None:
    """The pot includes the bets of players who dropped."""
    raw = {
        "actions": [
            ["Ana", {"bet": 5}],
            ["Bia", {"bet": 8}],
            ["Caio", "drop"],
            ["Dani", {"bet": 9}],
            ["Ana", "drop"],
            ["Bia", {"bet": 9}],
        ],
        "cards": {"Bia": "J", "Dani": "10"},
    }
    result = outcome(raw)
    # pot: 4 antes + 5 + 8 + 9 + 9 = 35; Bia put in 18
    assert dict(result.deltas) == {"Ana": -6, "Bia": 17, "Caio": -1, "Dani": -10}


def test_players_who_have_not_bet_yet_go_to_the_showdown_too() -> None:
    """INJ-2 (literal): everyone who did not drop goes to the showdown with what he put in."""
    raw = {
        "actions": [["Ana", {"bet": 3}], ["Bia", {"bet": 3}]],
        "cards": {"Ana": "2", "Bia": "3", "Caio": "A", "Dani": "4"},
    }
    result = outcome(raw)
    assert dict(result.deltas) == {"Ana": -4, "Bia": -4, "Caio": 9, "Dani": -1}


def test_match_highest_changes_the_net_when_the_winner_put_in_the_most() -> None:
    """Ana bets 10, Bia 50, Ana 50 (closing): Ana has 60 in, Bia 50."""
    two = ("Ana", "Bia")
    bets = [["Ana", {"bet": 10}], ["Bia", {"bet": 50}], ["Ana", {"bet": 50}]]
    literal = outcome({"actions": bets, "cards": {"Ana": "A", "Bia": "K"}}, players=two)
    assert dict(literal.deltas) == {"Ana": 51, "Bia": -51}
    options = InjunOptions(poker_amounts="match_highest")
    matched = outcome(
        {"actions": [*bets, ["Bia", {"bet": 10}]], "cards": {"Ana": "A", "Bia": "K"}}, options, players=two
    )
    assert dict(matched.deltas) == {"Ana": 61, "Bia": -61}
    assert "then the players still in matched the highest total" in words(matched)
    folded = outcome({"actions": [*bets, ["Bia", "drop"]]}, options, players=two)
    assert dict(folded.deltas) == {"Ana": 51, "Bia": -51}
    # When the loser put in the most, both readings give the same net.
    lost = outcome({"actions": bets, "cards": {"Ana": "K", "Bia": "A"}}, players=two)
    lost_matched = outcome(
        {"actions": [*bets, ["Bia", {"bet": 10}]], "cards": {"Ana": "K", "Bia": "A"}}, options, players=two
    )
    assert dict(lost.deltas) == {"Ana": -61, "Bia": 61} == dict(lost_matched.deltas)


def test_everyone_drops_but_one() -> None:
    """The survivor takes the pot without a showdown."""
    result = outcome({"actions": [["Ana", {"bet": 4}], ["Bia", "drop"], ["Caio", "drop"], ["Dani", "drop"]]})
    assert dict(result.deltas) == {"Ana": 3, "Bia": -1, "Caio": -1, "Dani": -1}
    text = words(result)
    assert (
        "Everybody else dropped out: Ana is the last player betting" in text
        and "8 chips to Ana, without a showdown" in text
    )


def test_nobody_bets_and_the_last_one_wins_the_antes() -> None:
    result = outcome({"actions": [["Ana", "drop"], ["Bia", "drop"], ["Caio", "drop"]]})
    assert dict(result.deltas) == {"Ana": -1, "Bia": -1, "Caio": -1, "Dani": 3}


# --------------------------------------------------------------------------- ties, INJ-3


TIE = {"actions": [["Ana", {"bet": 2}], ["Bia", {"bet": 2}]], "cards": {"Ana": "A", "Bia": "A", "Caio": "K"}}


def test_a_tie_splits_the_pot_and_the_odd_chip_stays_for_the_next_deal() -> None:
    """Default: pot 3 + 4 = 7, 3 each, 1 chip stays on the table."""
    result = outcome(TIE, players=P3)
    assert dict(result.deltas) == {"Ana": 0, "Bia": 0, "Caio": -1}
    assert result.carry == 1 and result.carried_out == 1
    text = words(result)
    assert (
        "Ana and Bia tie with A and share it: 3 chips each" in text
        and "1 odd chip stays on the table for the next deal" in text
    )


def test_the_odd_chip_to_the_tied_player_nearest_the_dealers_left() -> None:
    result = outcome(TIE, InjunOptions(odd_chip="dealer_left"), players=P3)
    assert dict(result.deltas) == {"Ana": 1, "Bia": 0, "Caio": -1} and result.carry == 0
    assert "The odd chip goes to the tied player nearest the dealer's left: Ana" in words(result)


def test_nearest_the_dealers_left_depends_on_the_dealer() -> None:
    hand = parse_hand(
        {
            **TIE,
            "dealer": "Ana",
            "actions": [["Bia", {"bet": 2}], ["Caio", "drop"], ["Ana", {"bet": 2}]],
            "cards": {"Ana": "A", "Bia": "A"},
        },
        players=P3,
        options=DEFAULT,
        dealer="Caio",
    )
    result = settle(hand, InjunOptions(odd_chip="dealer_left"))
    assert dict(result.deltas) == {"Ana": 0, "Bia": 1, "Caio": -1}


def test_the_chips_carried_in_go_into_the_pot() -> None:
    """The odd chip of the previous deal (``carried_in``) is won with the pot; the deal then
    takes chips from the table, so its net carry is negative."""
    result = outcome({**TIE, "carried_in": 1}, players=P3)
    assert dict(result.deltas) == {"Ana": 1, "Bia": 1, "Caio": -1}
    assert result.carried_in == 1 and result.carried_out == 0 and result.carry == -1
    assert "1 chip left on the table by the last deal is in the pot" in words(result)
    won = outcome({"actions": [["Ana", "drop"], ["Bia", "drop"]], "carried_in": 5}, players=P3)
    assert dict(won.deltas) == {"Ana": -1, "Bia": -1, "Caio": 7} and won.carry == -5


def test_three_way_tie_two_odd_chips() -> None:
    raw = {
        "actions": [["Ana", {"bet": 1}], ["Bia", {"bet": 2}], ["Caio", {"bet": 2}]],
        "cards": {"Ana": "9", "Bia": "9", "Caio": "9", "Dani": "8"},
    }
    # pot: 4 + 5 = 9 -> 3 each, nothing odd
    assert dict(outcome(raw).deltas) == {"Ana": 1, "Bia": 0, "Caio": 0, "Dani": -1}
    raw["actions"] = [["Ana", {"bet": 1}], ["Bia", {"bet": 3}], ["Caio", {"bet": 3}]]
    # pot: 4 + 7 = 11 -> 3 each and 2 odd chips
    assert outcome(raw).carry == 2
    assert dict(outcome(raw, InjunOptions(odd_chip="dealer_left")).deltas) == {
        "Ana": 2,
        "Bia": 0,
        "Caio": -1,
        "Dani": -1,
    }


# --------------------------------------------------------------------------- Brag, the settlement


def brag(*actions: list[Any], cards: dict[str, str] | None = None, **extra: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {"system": "brag", "actions": [list(a) for a in actions], **extra}
    if cards is not None:
        raw["cards"] = cards
    return raw


def test_brag_the_last_of_two_wins_by_persistence() -> None:
    """When one of the last two gives up, the other wins without a showdown, "mesmo
    que a sua carta não seja maior"."""
    raw = brag(["Ana", "bet"], ["Bia", "drop"], ["Caio", "bet"], ["Ana", "bet"], ["Caio", "bet"], ["Ana", "drop"])
    result = outcome(raw, players=P3)
    # pot: 3 antes + Ana 2 + Caio 2 = 7
    assert dict(result.deltas) == {"Ana": -3, "Bia": -1, "Caio": 4}
    assert "without a showdown" in words(result)


def test_brag_paying_to_see() -> None:
    """The one who asks puts in 2 chips; the higher card wins the pot."""
    raw = brag(["Ana", "bet"], ["Bia", "drop"], ["Caio", "bet"], ["Ana", "see"], cards={"Ana": "7", "Caio": "J"})
    result = outcome(raw, players=P3)
    # pot: 3 antes + 1 + 1 + 2 = 7; Caio put in 2
    assert dict(result.deltas) == {"Ana": -4, "Bia": -1, "Caio": 5}
    assert "Ana paid 2 chips to see" in words(result)
    # The 2 chips to see are among the chips bet: the column reads 3 + 4 = 7, once each.
    assert [(str(line.text), line.amount, line.total) for line in result.lines if line.amount] == [
        ("3 players put in an ante of 1 each.", 3, False),
        ("4 chips were bet.", 4, False),
        ("The pot: 7 chips; cards shown: Ana 7, Caio J.", 7, True),
    ]


def test_brag_equal_cards_share_the_pot() -> None:
    """ "as fichas serão repartidas"; 5 chips between two: 2 each, 1 stays."""
    result = outcome(brag(["Ana", "bet"], ["Bia", "see"], cards={"Ana": "K", "Bia": "K"}), players=("Ana", "Bia"))
    assert dict(result.deltas) == {"Ana": 0, "Bia": -1} and result.carry == 1


CLOSED = (
    ["Ana", "bet"],
    ["Bia", "bet"],
    ["Caio", "bet"],
    ["Dani", "drop"],
    ["Ana", "close"],
    ["Bia", "bet"],
    ["Caio", "bet"],
    ["Bia", "bet"],
    ["Caio", "see"],
)


def test_brag_closed_pot_is_contested_by_the_two_who_went_on_and_the_closer() -> None:
    """ "o primeiro 'monte' será disputado pelos dois jogadores que continuaram mais
    aquele que havia fechado o 'monte'"; the second by the two who went on.
    Pot 1: 4 antes + 3 bets = 7; pot 2: Bia 2 + Caio 1 + 2 to see = 5."""
    result = outcome(brag(*CLOSED, cards={"Ana": "A", "Bia": "K", "Caio": "Q"}))
    assert dict(result.deltas) == {"Ana": 5, "Bia": 1, "Caio": -5, "Dani": -1}
    text = words(result)
    assert "Pot 1 (closed by Ana): 7 chips; cards shown: Ana A, Bia K, Caio Q" in text
    assert "The last pot: 5 chips; cards shown: Bia K, Caio Q" in text
    assert [(line.amount, line.total) for line in result.lines if line.amount] == [(4, False), (8, False), (12, True)]
    # The closer's card does not reach the second pot.
    result = outcome(brag(*CLOSED, cards={"Ana": "Q", "Bia": "K", "Caio": "A"}))
    assert dict(result.deltas) == {"Ana": -2, "Bia": -4, "Caio": 7, "Dani": -1}


def test_brag_surrender_after_a_closed_pot() -> None:
    """Caio gives up after Ana closed; Bia takes the last pot and compares cards with
    Ana for the closed one (default), or takes everything (alternative). Pot 1: 7; pot 2: 1."""
    actions = (
        ["Ana", "bet"],
        ["Bia", "bet"],
        ["Caio", "bet"],
        ["Dani", "drop"],
        ["Ana", "close"],
        ["Bia", "bet"],
        ["Caio", "drop"],
    )
    result = outcome(brag(*actions, cards={"Ana": "A", "Bia": "K"}))
    assert dict(result.deltas) == {"Ana": 5, "Bia": -2, "Caio": -2, "Dani": -1}
    result = outcome(brag(*actions, cards={"Ana": "3", "Bia": "K"}))
    assert dict(result.deltas) == {"Ana": -2, "Bia": 5, "Caio": -2, "Dani": -1}
    takes_all = outcome(brag(*actions), InjunOptions(surrender_closed="survivor_takes_all"))
    assert dict(takes_all.deltas) == {"Ana": -2, "Bia": 5, "Caio": -2, "Dani": -1}


def test_brag_a_closing_that_leaves_one_player_betting() -> None:
    """A player out of chips with two left may still close: the other is alone in the betting,
    and the closed pot is decided by comparing their cards."""
    result = outcome(brag(["Ana", "bet"], ["Bia", "close"], cards={"Ana": "5", "Bia": "6"}), players=("Ana", "Bia"))
    assert dict(result.deltas) == {"Ana": -2, "Bia": 2}
    assert "Bia closed the pot, leaving Ana alone in the betting" in words(result)


def test_brag_two_closed_pots() -> None:
    """Each closed pot goes to its closer, the later closers and those still betting."""
    actions = (
        ["Ana", "bet"],
        ["Bia", "drop"],
        ["Caio", "bet"],
        ["Dani", "bet"],
        ["Ana", "close"],
        ["Caio", "bet"],
        ["Dani", "bet"],
        ["Caio", "see"],
    )
    # One closed pot first: 4 antes + 3 bets = 7 for Ana, Caio and Dani; the last pot,
    # Caio 1 + Dani 1 + 2 to see = 4, for Caio and Dani. Caio's A takes both.
    result = outcome(brag(*actions, cards={"Ana": "K", "Caio": "A", "Dani": "2"}))
    assert dict(result.deltas) == {"Ana": -2, "Bia": -1, "Caio": 6, "Dani": -3}
    five = ("Ana", "Bia", "Caio", "Dani", "Edu")
    actions = (
        ["Ana", "bet"],
        ["Bia", "close"],
        ["Caio", "bet"],
        ["Dani", "bet"],
        ["Edu", "bet"],
        ["Ana", "close"],
        ["Caio", "bet"],
        ["Dani", "drop"],
        ["Edu", "see"],
    )
    # pot 1 (Bia): 5 antes + Ana 1 = 6, for Bia, Ana, Caio, Edu
    # pot 2 (Ana): Caio 1 + Dani 1 + Edu 1 = 3, for Ana, Caio, Edu
    # last pot: Caio 1 + Edu 2 = 3, for Caio and Edu
    cards = {"Ana": "J", "Bia": "Q", "Caio": "10", "Edu": "9"}
    result = outcome(brag(*actions, cards=cards), players=five)
    assert dict(result.deltas) == {"Ana": 1, "Bia": 5, "Caio": 0, "Dani": -2, "Edu": -4}
