"""Samba hand scores and the end of the
match. Every figure is worked by hand from the rule text; none is engine output."""

from __future__ import annotations

from typing import Any

import pytest

from referee.rules import samba
from referee.rules.samba import (
    HIDDEN,
    SambaOptions,
    TeamHand,
    match_state,
    parse_hand,
    score_hand,
    score_team,
)

PLAYERS = ("Ana", "Bia", "Caio", "Dani")
TEAMS = (("Ana", "Caio"), ("Bia", "Dani"))
DEFAULT = SambaOptions()


def th(**over: Any) -> TeamHand:
    values: dict[str, Any] = {
        "players": ("Ana", "Caio"),
        "meld_points": 0,
        "hand_points": 0,
        "clean_canastras": 0,
        "dirty_canastras": 0,
        "wild_canastras": 0,
        "sambas": 0,
        "red_threes": 0,
        "red_threes_in_hand": 0,
    }
    values.update(over)
    return TeamHand(**values)


def score(options: SambaOptions = DEFAULT, *, went_out: bool = False, **over: Any) -> int:
    result = score_team(th(**over), went_out=went_out, options=options)
    assert sum(line.amount for line in result.lines) == result.score
    return result.score


def test_api_example() -> None:
    """The record of the API contract (docs/api.md). Caio's team: 740 + 500 (clean) + 300 (dirty) + 1,500 (samba) + 2 x 100
    (red 3s, made) + 200 (went out) - 35 = 3,405. The other: 760 + 300 - 100 (one red 3 without
    two combinations) - 120 - 100 (penalty) = 740."""
    raw = samba.example_hand()
    hand = parse_hand(raw, players=PLAYERS, teams=TEAMS, options=DEFAULT, dealer="Dani")
    scores = score_hand(hand, DEFAULT)
    assert [s.score for s in scores] == [3405, 740]
    assert scores[0].players == ("Ana", "Caio")
    assert [line.amount for line in scores[1].lines] == [760, 300, -100, -120, -100]
    assert str(scores[1].lines[2].text) == "1 red 3 laid down without two 7-card combinations"


def test_premiums_of_the_seed() -> None:
    # clean 500, dirty 300, wild 2,000, samba 1,500
    assert score(clean_canastras=1) == 500
    assert score(dirty_canastras=1) == 300
    assert score(wild_canastras=1) == 2000
    assert score(sambas=1) == 1500
    # "um samba vale cinco vezes mais que uma canastra suja e três vezes mais do que uma limpa"
    assert score(sambas=1) == 5 * score(dirty_canastras=1) == 3 * score(clean_canastras=1)


def test_meld_and_hand_points() -> None:
    assert score(meld_points=135, hand_points=55) == 80
    # a black 3 left in hand is -5, a joker -50
    assert score(hand_points=5 + 50) == -55


def test_hand_score_may_be_negative() -> None:
    assert score(hand_points=200, penalties=2, red_threes_in_hand=1) == -200 - 200 - 500


@pytest.mark.parametrize(
    "red, made, flip, per_card",
    [
        (1, True, 100, 100),
        (3, True, 300, 300),
        (5, True, 500, 500),
        (6, True, 1000, 1000),
        (1, False, -100, -100),
        (5, False, -500, -500),
        (6, False, -1000, -600),
    ],
)
def test_red_three_honour(red: int, made: bool, flip: int, per_card: int) -> None:
    combos: dict[str, Any] = {"clean_canastras": 1, "sambas": 1} if made else {"clean_canastras": 1}
    base = 500 + (1500 if made else 0)
    assert score(red_threes=red, **combos) == base + flip
    assert score(SambaOptions(six_red_threes_unmade="per_card"), red_threes=red, **combos) == base + per_card


def test_red_three_sign_without_going_out() -> None:
    """The sign depends on the final combinations, whether or not anyone went out."""
    assert score(went_out=False, red_threes=2, dirty_canastras=2) == 600 + 200
    assert score(went_out=False, red_threes=2, wild_canastras=1) == 2000 - 200


def test_red_three_in_hand_is_500_and_not_an_honour() -> None:
    """SAM-10: -500 per red 3 stuck in hand, not also counted as an honour."""
    assert score(red_threes_in_hand=1) == -500
    assert score(red_threes_in_hand=2, red_threes=1, clean_canastras=2) == 1000 + 100 - 1000


def test_going_out_200() -> None:
    assert score(went_out=True, clean_canastras=2) == 1000 + 200


@pytest.mark.parametrize(
    "kind, premium",
    [("deal_alone", 1000), ("deal_with_partner", 500), ("play_alone", 500), ("play_with_partner", 200)],
)
def test_hidden_canastra(kind: str, premium: int) -> None:
    assert HIDDEN[kind] == premium
    assert score(went_out=True, clean_canastras=2, hidden_canastra=kind) == 1000 + 200 + premium


@pytest.mark.parametrize(
    "canastras, flat, cumulative",
    [(4, 0, 0), (5, 500, 500), (6, 500, 500), (7, 2000, 2500), (9, 2000, 2500)],
)
def test_canastrao_and_canastra_de_canastras(canastras: int, flat: int, cumulative: int) -> None:
    """5-6 canastras +500, 7 or more +2,000 (2,500 when cumulative)."""
    assert score(dirty_canastras=canastras) == 300 * canastras + flat
    assert (
        score(SambaOptions(canastra_bonuses_cumulative=True), dirty_canastras=canastras) == 300 * canastras + cumulative
    )


def test_wild_canastras_count_for_canastrao_sambas_do_not() -> None:
    """And SAM-3."""
    assert score(clean_canastras=4, wild_canastras=1) == 2000 + 2000 + 500
    assert score(clean_canastras=4, sambas=1) == 2000 + 1500
    assert score(SambaOptions(sambas_count_for_canastrao=True), clean_canastras=4, sambas=1) == 2000 + 1500 + 500
    assert score(SambaOptions(sambas_count_for_canastrao=True), clean_canastras=4, sambas=3) == 2000 + 4500 + 2000


def test_penalties_count_or_list() -> None:
    assert score(penalties=3) == -300
    assert score(penalties=2, penalty_kinds=("three_wilds", "pile_out_of_turn")) == -200
    result = score_team(th(penalties=1, penalty_kinds=("three_wilds",)), went_out=False, options=DEFAULT)
    assert str(result.lines[-1].text) == "Penalty: Three wild cards in a canastra"


def test_penalties_cost_only_the_offending_team() -> None:
    raw = {
        "went_out": None,
        "teams": [
            {
                "meld_points": 100,
                "hand_points": 0,
                "clean_canastras": 0,
                "dirty_canastras": 0,
                "wild_canastras": 0,
                "sambas": 0,
                "red_threes": 0,
                "red_threes_in_hand": 0,
                "penalties": 4,
            },
            {
                "meld_points": 100,
                "hand_points": 0,
                "clean_canastras": 0,
                "dirty_canastras": 0,
                "wild_canastras": 0,
                "sambas": 0,
                "red_threes": 0,
                "red_threes_in_hand": 0,
                "penalties": 0,
            },
        ],
    }
    hand = parse_hand(raw, players=PLAYERS, teams=TEAMS, options=DEFAULT, dealer="Dani")
    assert [s.score for s in score_hand(hand, DEFAULT)] == [-300, 100]


def test_nobody_gets_going_out_when_the_stock_runs_out() -> None:
    raw = {
        "went_out": None,
        "teams": [
            {
                "meld_points": 200,
                "hand_points": 0,
                "clean_canastras": 2,
                "dirty_canastras": 0,
                "wild_canastras": 0,
                "sambas": 0,
                "red_threes": 0,
                "red_threes_in_hand": 0,
            },
            {
                "meld_points": 200,
                "hand_points": 0,
                "clean_canastras": 0,
                "dirty_canastras": 0,
                "wild_canastras": 0,
                "sambas": 2,
                "red_threes": 0,
                "red_threes_in_hand": 0,
            },
        ],
    }
    hand = parse_hand(raw, players=PLAYERS, teams=TEAMS, options=DEFAULT, dealer="Dani")
    assert [s.score for s in score_hand(hand, DEFAULT)] == [200 + 1000, 200 + 3000]


# --------------------------------------------------------------------------- the match


def test_nobody_past_the_target() -> None:
    state = match_state([9995, 4000], DEFAULT)
    assert (state.finished, state.winner) == (False, None)
    assert state.min_melds == (150, 120)


def test_exactly_the_target_plays_on_unless_win_at_target() -> None:
    assert match_state([10000, 0], DEFAULT).finished is False
    state = match_state([10000, 0], SambaOptions(win_at_target=True))
    assert (state.finished, state.winner) == (True, 0)


def test_one_team_crosses() -> None:
    assert match_state([9000, 10005], DEFAULT).winner == 1
    assert match_state([-200, 10005], DEFAULT).min_melds == (15, 150)


def test_both_cross_the_higher_wins() -> None:
    state = match_state([10500, 11000], DEFAULT)
    assert (state.finished, state.winner) == (True, 1)
    # the higher total wins even if it is the only one... of three players
    assert match_state([10005, 12000, 10010], DEFAULT).winner == 1


def test_both_cross_level_plays_another_hand() -> None:
    state = match_state([10500, 10500], DEFAULT)
    assert (state.finished, state.winner) == (False, None)
    # with three, a tie at the top still plays on even if a third crossed lower
    assert match_state([10500, 10500, 10100], DEFAULT).finished is False


def test_other_target() -> None:
    assert match_state([5005, 0], SambaOptions(target=5000)).winner == 0
    assert match_state([5000, 0], SambaOptions(target=5000, win_at_target=True)).winner == 0
    assert match_state([5000, 0], SambaOptions(target=5000)).finished is False
