"""Kentucky Derby payouts: the winner's backers share the whole pot
in equal parts, odd chips and an unbacked pot stay on the table, second place gets its bets back
with more than 6 players, and chips carried in from an earlier race are part of the pot."""

from __future__ import annotations

from typing import Any

from referee.rules.cards import Suit
from referee.rules.kentucky_derby import GAME, DerbyOptions, parse_hand, pot_result, settle
from referee.rules.pot import PotSettlement
from tests.rules.test_kentucky_derby_race import BOTH_PAUS, SOLO, cards

DEFAULT = DerbyOptions()
SEVEN = ("Ana", "Bia", "Caio", "Dani", "Edu", "Fabi", "Gil")


def run(
    players: tuple[str, ...],
    horses: dict[str, str],
    *,
    options: DerbyOptions = DEFAULT,
    amounts: dict[str, int] | None = None,
    **record: Any,
) -> Any:
    raw: dict[str, Any] = {
        "pingo": 1,
        "bets": {p: {"horse": horses[p], "amount": (amounts or {}).get(p, 1)} for p in players},
        "cards": cards(*SOLO),  # copas wins alone
    }
    raw.update(record)
    raw = {k: v for k, v in raw.items() if v is not ...}
    hand = parse_hand(raw, players=players, options=options, dealer=players[-1])
    return hand, settle(hand, options)


def lines(settlement: Any) -> list[str]:
    return [str(line.text) for line in settlement.lines]


def test_the_winners_backers_take_the_whole_pot_in_equal_parts() -> None:
    players = ("Ana", "Bia", "Caio", "Dani")
    hand, s = run(players, {"Ana": "copas", "Bia": "copas", "Caio": "paus", "Dani": "ouros"})
    assert dict(s.deltas) == {"Ana": 2, "Bia": 2, "Caio": -2, "Dani": -2}
    assert s.carry == 0 and isinstance(s, PotSettlement) and s.carried_out == 0
    assert sum(p.amount for p in s.payments) == 4
    assert lines(s)[:3] == ["4 players put in a pingo of 1 each.", "4 chips were bet.", "The pot"]
    assert "share 8 chips in equal parts: 4 each" in lines(s)[3]
    assert [(line.amount, line.total) for line in s.lines] == [(4, False), (4, False), (8, True), (8, False), (8, True)]


def test_odd_chips_of_the_split_stay_on_the_table() -> None:
    """ "se sobrar alguma ficha dessa divisão, ela permanece na mesa para a próxima corrida"."""
    players = ("Ana", "Bia", "Caio", "Dani", "Edu")
    horses = {"Ana": "copas", "Bia": "copas", "Caio": "copas", "Dani": "paus", "Edu": "ouros"}
    _, s = run(players, horses)  # pot 10, three backers: 3 each, 1 left
    assert dict(s.deltas) == {"Ana": 1, "Bia": 1, "Caio": 1, "Dani": -2, "Edu": -2}
    assert s.carry == 1 and sum(s.deltas.values()) == -1
    assert "1 chip left over from the split stays on the table" in lines(s)[-2]
    assert lines(s)[-1] == "The whole pot, shared out" and s.lines[-1].amount == 10


def test_a_single_backer_takes_everything() -> None:
    players = ("Ana", "Bia", "Caio")
    _, s = run(players, {"Ana": "copas", "Bia": "ouros", "Caio": "paus"})
    assert dict(s.deltas) == {"Ana": 4, "Bia": -2, "Caio": -2} and s.carry == 0
    assert "Ana backed hearts and takes the 6 chips: 6." in lines(s)


def test_kd8_equal_parts_whatever_each_bet() -> None:
    players = ("Ana", "Bia", "Caio")
    horses = {"Ana": "copas", "Bia": "copas", "Caio": "paus"}
    _, s = run(players, horses, pingo=0, amounts={"Ana": 5, "Bia": 1, "Caio": 2})  # pot 8
    assert dict(s.deltas) == {"Ana": -1, "Bia": 3, "Caio": -2} and s.carry == 0


def test_kd8_alternative_in_proportion_to_the_bets() -> None:
    players = ("Ana", "Bia", "Caio")
    horses = {"Ana": "copas", "Bia": "copas", "Caio": "paus"}
    options = DerbyOptions(split="proportional")
    _, s = run(players, horses, options=options, pingo=0, amounts={"Ana": 5, "Bia": 1, "Caio": 2})
    assert dict(s.deltas) == {"Ana": 1, "Bia": 0, "Caio": -2} and s.carry == 1  # 8*5//6 = 6, 8*1//6 = 1


def test_kd7_nobody_backed_the_winner_the_pot_stays_on_the_table() -> None:
    players = ("Ana", "Bia", "Caio")
    hand, s = run(players, {"Ana": "ouros", "Bia": "paus", "Caio": "paus"}, amounts={"Ana": 2})
    assert dict(s.deltas) == {"Ana": -3, "Bia": -2, "Caio": -2}
    assert s.carry == 7 and s.carried_out == 7 and s.payments == ()
    assert "Nobody backed hearts: the 7 chips stay on the table for the next race." in lines(s)


def test_kd7_alternative_everyone_takes_back_his_stake() -> None:
    players = ("Ana", "Bia", "Caio")
    options = DerbyOptions(unbacked="refund")
    _, s = run(players, {"Ana": "ouros", "Bia": "paus", "Caio": "paus"}, options=options, carried_in=3)
    assert dict(s.deltas) == {"Ana": 0, "Bia": 0, "Caio": 0}
    assert s.carry == 0 and s.carried_out == 3
    assert lines(s)[-3:] == [
        "Nobody backed hearts: every player takes back what he put in.",
        "The 3 chips carried in stay on the table for the next race.",
        "The whole pot, shared out",
    ]


def test_a_carried_pot_goes_to_the_next_winners() -> None:
    """The chips an unbacked race left (``carried_in``) are in the next pot; the net carry is
    negative when they are taken up."""
    players = ("Ana", "Bia", "Caio")
    _, s = run(players, {"Ana": "copas", "Bia": "ouros", "Caio": "paus"}, carried_in=7)
    assert dict(s.deltas) == {"Ana": 11, "Bia": -2, "Caio": -2}
    assert s.carry == -7 and s.carried_in == 7 and s.carried_out == 0
    assert "7 chips left on the table by earlier races are in the pot." in lines(s)
    assert [line.amount for line in s.lines if line.total] == [13, 13]


def test_second_place_gets_its_bets_back_with_more_than_six_players() -> None:
    """With more than 6 players the backers of the second horse take back their bets
    (the bet, not the pingo) and the rest goes to the winner's backers."""
    horses = dict(zip(SEVEN, "copas ouros espadas paus copas ouros espadas".split()))
    hand, s = run(SEVEN, horses, cards=cards(*BOTH_PAUS, "9♥ 9♠"), amounts=dict.fromkeys(SEVEN, 2))
    assert hand.winners == (Suit.COPAS,) and hand.second == (Suit.PAUS,)
    # pot 7 x 3 = 21; Dani takes back 2; 19 shared by Ana and Edu: 9 each, 1 left
    assert dict(s.deltas) == {"Ana": 6, "Bia": -3, "Caio": -3, "Dani": -1, "Edu": 6, "Fabi": -3, "Gil": -3}
    assert s.carry == 1
    assert "Second place, clubs: Dani takes back the bet." in lines(s)


def test_second_place_nobody_backed_and_six_players_only_first() -> None:
    horses = dict(zip(SEVEN, "copas ouros espadas copas copas ouros espadas".split()))
    _, s = run(SEVEN, horses, cards=cards(*BOTH_PAUS, "9♥ 9♠"))
    assert "Second place, clubs: nobody backed it." in lines(s)
    six = SEVEN[:6]
    horses6 = dict(zip(six, "copas ouros espadas paus ouros ouros".split()))
    hand, s = run(six, horses6, cards=cards(*BOTH_PAUS, "9♥ 9♠"))
    assert hand.second == () and s.deltas["Dani"] == -2  # exactly 6 plays for first place only


def test_kd9_level_winners_share() -> None:
    players = ("Ana", "Bia", "Caio", "Dani")
    horses = {"Ana": "copas", "Bia": "ouros", "Caio": "paus", "Dani": "paus"}
    _, s = run(players, horses, cards=..., winner=["copas", "ouros"])
    assert dict(s.deltas) == {"Ana": 2, "Bia": 2, "Caio": -2, "Dani": -2}


def test_pot_result_and_rules_settle_agree() -> None:
    players = ("Ana", "Bia", "Caio")
    hand, s = run(players, {"Ana": "copas", "Bia": "copas", "Caio": "paus"})
    result = pot_result(hand, DEFAULT)
    assert result.deltas == dict(s.deltas) and result.pot == 6 and result.carried_out == 0
    assert GAME.settle(hand, DEFAULT).deltas == s.deltas
