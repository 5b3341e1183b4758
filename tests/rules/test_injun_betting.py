"""The Injun betting as a state machine: after any prefix of actions, whose turn it is and
which actions are legal (what the phone page offers), for Poker, Poker under match_highest
and Brag."""

from __future__ import annotations

from typing import Any

import pytest

from referee.rules.errors import IllegalCall
from referee.rules.injun import (
    CLOSE,
    DROP,
    SEE,
    Action,
    Betting,
    End,
    InjunOptions,
    LegalActions,
    System,
    legal_actions,
    replay,
)

P4 = ("Ana", "Bia", "Caio", "Dani")


def offers(
    actions: list[list[Any]],
    options: InjunOptions = InjunOptions(),
    system: str | None = None,
    players: tuple[str, ...] = P4,
) -> dict[str, object]:
    return legal_actions(actions, players=players, dealer=players[-1], options=options, system=system).to_json()


def test_poker_the_first_bet_is_free() -> None:
    assert offers([]) == {
        "player": "Ana",
        "drop": True,
        "raise_from": 1,
        "call": None,
        "bet": False,
        "see": False,
        "close": False,
    }


def test_poker_after_a_bet_raise_or_equal_it_to_close() -> None:
    assert offers([["Ana", {"bet": 20}]]) == {
        "player": "Bia",
        "drop": True,
        "raise_from": 21,
        "call": 20,
        "bet": False,
        "see": False,
        "close": False,
    }
    # Drops are skipped, and are not bets: the call is still 22.
    got = offers([["Ana", {"bet": 20}], ["Bia", {"bet": 22}], ["Caio", "drop"]])
    assert got["player"] == "Dani" and got["call"] == 22 and got["raise_from"] == 23
    got = offers([["Ana", {"bet": 20}], ["Bia", {"bet": 22}], ["Caio", "drop"], ["Dani", {"bet": 25}]])
    assert got["player"] == "Ana" and got["call"] == 25


def test_nothing_is_offered_once_the_betting_is_over() -> None:
    done = [["Ana", {"bet": 20}], ["Bia", {"bet": 20}]]
    assert offers(done) == {
        "player": None,
        "drop": False,
        "raise_from": None,
        "call": None,
        "bet": False,
        "see": False,
        "close": False,
    }


def test_match_highest_offers_exactly_the_difference() -> None:
    options = InjunOptions(poker_amounts="match_highest")
    bets = [["Ana", {"bet": 20}], ["Bia", {"bet": 22}], ["Caio", {"bet": 27}], ["Dani", {"bet": 27}]]
    assert offers(bets, options) == {
        "player": "Ana",
        "drop": True,
        "raise_from": None,
        "call": 7,
        "bet": False,
        "see": False,
        "close": False,
    }
    assert offers([*bets, ["Ana", "drop"]], options)["call"] == 5
    assert offers([*bets, ["Ana", "drop"], ["Bia", {"bet": 5}]], options)["player"] is None


def test_match_highest_when_everyone_is_level_ends_at_the_close() -> None:
    betting = replay(
        [["Ana", {"bet": 5}], ["Bia", {"bet": 5}]],
        players=("Ana", "Bia"),
        dealer="Bia",
        system=System.POKER,
        ante=1,
        options=InjunOptions(poker_amounts="match_highest"),
    )
    assert betting.end is End.CALLED and not betting.owed


def test_brag_offers() -> None:
    four = offers([], system="brag")
    assert four == {
        "player": "Ana",
        "drop": True,
        "raise_from": None,
        "call": None,
        "bet": True,
        "see": False,
        "close": True,
    }
    two = offers([["Ana", "bet"], ["Bia", "drop"], ["Caio", "drop"]], system="brag")
    assert two["player"] == "Dani" and two["see"] is True
    assert offers([["Ana", "bet"], ["Bia", "close"]], system="brag")["see"] is False  # three still betting
    assert offers([["Ana", "bet"], ["Bia", "close"], ["Caio", "drop"]], system="brag") == {
        "player": "Dani",
        "drop": True,
        "raise_from": None,
        "call": None,
        "bet": True,
        "see": True,
        "close": True,
    }


def test_the_table_option_chooses_the_system_for_the_page() -> None:
    assert offers([], InjunOptions(system="brag"))["bet"] is True
    assert offers([], InjunOptions(system="brag"), system="poker")["bet"] is False


def test_can_verify_and_act_agree() -> None:
    betting = Betting(players=P4, dealer="Dani", system=System.POKER, ante=1)
    assert betting.turn == "Ana" and betting.can("Ana", Action.bet(3)) and not betting.can("Bia", Action.bet(3))
    with pytest.raises(IllegalCall) as info:
        betting.verify("Bia", DROP, field="x")
    assert info.value.field == "x" and "Ana acts now" in str(info.value)
    betting.act("Ana", Action.bet(3))
    assert (
        not betting.can("Bia", Action.bet(2))
        and betting.can("Bia", Action.bet(3))
        and betting.can("Bia", Action.bet(4))
    )
    assert not betting.can("Bia", SEE) and not betting.can("Bia", CLOSE)
    assert betting.legal_actions().allows(Action.bet(3)) and not betting.legal_actions().allows(Action.bet(2))
    assert not betting.can("Zeca", DROP)


def test_the_pots_and_what_each_player_paid() -> None:
    betting = replay(
        [
            ["Ana", "bet"],
            ["Bia", "close"],
            ["Caio", "bet"],
            ["Dani", "bet"],
            ["Ana", "drop"],
            ["Caio", "bet"],
            ["Dani", "see"],
        ],
        players=P4,
        dealer="Dani",
        system=System.BRAG,
        ante=2,
        carried_in=3,
    )
    assert betting.over and betting.end is End.SEEN
    assert [p.chips for p in betting.pots] == [3 + 8 + 1, 1 + 1 + 1 + 2]
    assert betting.paid() == {"Ana": 3, "Bia": 2, "Caio": 4, "Dani": 5}
    hand_pots = betting.result()
    assert [(p.closer, p.contenders) for p in hand_pots] == [("Bia", ("Bia", "Caio", "Dani")), (None, ("Caio", "Dani"))]


def test_a_betting_not_over_has_no_result() -> None:
    betting = Betting(players=P4, dealer="Dani", system=System.BRAG, ante=1)
    with pytest.raises(ValueError):
        betting.result()
    with pytest.raises(ValueError):
        Betting(players=("Ana",), dealer="Ana", system=System.BRAG, ante=1)


def test_legal_actions_with_nothing_allowed() -> None:
    assert not LegalActions(player=None).allows(DROP)
