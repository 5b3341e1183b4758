"""Samba hand records: shapes (400), rule breaks (422) with the field they point at (docs/api.md "Samba hand record"); the options; the opening-meld bands."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from referee.rules import GAMES
from referee.rules.errors import InconsistentHand, InvalidInput, RulesError, UnknownPlayer
from referee.rules.samba import (
    ALL_POINTS,
    OPTIONS,
    RECORD,
    TEAM,
    SambaOptions,
    cheapest_meld,
    min_meld,
    parse_hand,
)

PLAYERS = ("Ana", "Bia", "Caio", "Dani")
TEAMS = (("Ana", "Caio"), ("Bia", "Dani"))
DEFAULT = SambaOptions()


def team(**over: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "meld_points": 740,
        "hand_points": 35,
        "clean_canastras": 1,
        "dirty_canastras": 1,
        "wild_canastras": 0,
        "sambas": 1,
        "red_threes": 2,
        "red_threes_in_hand": 0,
        "hidden_canastra": None,
        "penalties": 0,
    }
    raw.update(over)
    return raw


def other(**over: Any) -> dict[str, Any]:
    raw = team(meld_points=760, hand_points=120, clean_canastras=0, sambas=0, red_threes=1, penalties=1)
    raw.update(over)
    return raw


def record(t0: Any = None, t1: Any = None, went_out: Any = "Caio") -> dict[str, Any]:
    return {"went_out": went_out, "teams": [t0 if t0 is not None else team(), t1 if t1 is not None else other()]}


def parse(raw: Any, *, players: Any = PLAYERS, teams: Any = TEAMS) -> Any:
    return parse_hand(raw, players=players, teams=teams, options=DEFAULT, dealer=players[-1])


def refused(raw: Any, kind: type[RulesError], field: str | None, **kw: Any) -> str:
    with pytest.raises(kind) as info:
        parse(raw, **kw)
    assert type(info.value) is kind
    assert info.value.field == field
    return str(info.value)


# --------------------------------------------------------------------------- options


def test_options_are_the_api_contract() -> None:
    assert [(o.name, o.default) for o in OPTIONS] == [
        ("target", 10000),
        ("win_at_target", False),
        ("top_min_meld", 150),
        ("six_red_threes_unmade", "flip"),
        ("canastra_bonuses_cumulative", False),
        ("sambas_count_for_canastrao", False),
        ("five_players", False),
    ]
    choice = next(o for o in OPTIONS if o.name == "six_red_threes_unmade")
    assert [c.value for c in choice.choices] == ["flip", "per_card"]
    assert SambaOptions.from_json(None) == DEFAULT
    assert SambaOptions.from_json({}).to_json() == {o.name: o.default for o in OPTIONS}


def test_options_round_trip() -> None:
    raw = {
        "target": 5000,
        "win_at_target": True,
        "top_min_meld": 160,
        "six_red_threes_unmade": "per_card",
        "canastra_bonuses_cumulative": True,
        "sambas_count_for_canastrao": True,
        "five_players": True,
    }
    assert SambaOptions.from_json(raw).to_json() == raw


@pytest.mark.parametrize(
    "raw, field",
    [
        ({"top_min_meld": 155}, "options.top_min_meld"),
        ({"top_min_meld": 170}, "options.top_min_meld"),
        ({"target": "10000"}, "options.target"),
        ({"win_at_target": 1}, "options.win_at_target"),
        ({"six_red_threes_unmade": "double"}, "options.six_red_threes_unmade"),
        ({"jokers": 4}, "options.jokers"),
    ],
)
def test_bad_options_are_400(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as info:
        SambaOptions.from_json(raw)
    assert info.value.field == field


def test_samba_is_registered_behind_the_game_surface() -> None:
    assert GAMES["samba"].slug == "samba" and GAMES["samba"].scored


# --------------------------------------------------------------------------- SAM-1


@pytest.mark.parametrize(
    "total, need",
    [
        (-1000, 15),
        (-5, 15),
        (0, 50),
        (5, 50),
        (1495, 50),
        (1500, 90),
        (2995, 90),
        (3000, 120),
        (6995, 120),
        (7000, 150),
        (9995, 150),
        (20000, 150),
    ],
)
def test_min_meld_bands(total: int, need: int) -> None:
    assert min_meld(total, DEFAULT) == need


def test_min_meld_top_band_option() -> None:
    opts = SambaOptions(top_min_meld=160)
    assert min_meld(6995, opts) == 120
    assert min_meld(7000, opts) == 160


def test_seed_example_needing_90() -> None:
    """Needing 90, a clean canastra of kings (7 x 10 = 70) is not enough, one of aces
    (7 x 20 = 140) is. A team needs 90 from 1,500 to 2,995."""
    need = min_meld(2000, DEFAULT)
    assert need == 90
    assert 7 * 10 < need <= 7 * 20


# --------------------------------------------------------------------------- cards


def test_all_cards_are_worth_1770() -> None:
    # 6 jokers x 50, 12 twos x 20, 12 aces x 20, 72 of K..8 x 10, 48 of 7..4 x 5, 6 black 3s x 5
    assert ALL_POINTS == 300 + 240 + 240 + 720 + 240 + 30 == 1770


@pytest.mark.parametrize(
    "counts, least",
    [
        ((1, 0, 0, 0), 35),  # seven 4s
        ((0, 1, 0, 0), 50),  # six 4s and a 2
        ((0, 0, 1, 0), 140),  # seven 2s
        ((0, 0, 0, 1), 50),  # 4 5 6 7 8 9 10
        ((0, 0, 2, 0), 12 * 20 + 2 * 50),  # 14 wilds: all twelve 2s and two jokers
        ((0, 4, 2, 0), 4 * 30 + 12 * 20 + 6 * 50),  # 18 wilds
        ((1, 1, 0, 1), 35 + 50 + 50),
    ],
)
def test_cheapest_meld(counts: tuple[int, int, int, int], least: int) -> None:
    assert cheapest_meld(*counts) == least


# --------------------------------------------------------------------------- legal records


def test_api_example_is_legal() -> None:
    raw = {"dealer": "Dani", **record()}  # a hand always names its dealer, and reads back with it
    hand = parse(raw)
    assert hand.went_out == "Caio"
    assert hand.out_team == 0
    assert hand.teams[0].players == ("Ana", "Caio")
    assert hand.teams[1].penalties == 1
    assert hand.to_json() == raw


def test_stock_ran_out() -> None:
    hand = parse(record(t0=team(clean_canastras=0, dirty_canastras=0, sambas=0), went_out=None))
    assert hand.out_team is None


def test_going_out_with_two_sambas_or_two_wild_canastras() -> None:
    parse(record(t0=team(clean_canastras=0, dirty_canastras=0, sambas=2, meld_points=100)))
    parse(record(t0=team(clean_canastras=0, dirty_canastras=0, sambas=0, wild_canastras=2, meld_points=340)))


def test_hidden_canastra_for_the_team_that_went_out() -> None:
    for kind in ("deal_alone", "deal_with_partner", "play_alone", "play_with_partner"):
        assert parse(record(t0=team(hidden_canastra=kind))).teams[0].hidden_canastra == kind


def test_penalties_as_a_list() -> None:
    hand = parse(record(t1=other(penalties=["three_wilds", "stock_out_of_turn"])))
    assert hand.teams[1].penalties == 2
    assert hand.teams[1].penalty_kinds == ("three_wilds", "stock_out_of_turn")
    assert hand.to_json()["teams"][1]["penalties"] == ["three_wilds", "stock_out_of_turn"]


def test_six_red_threes_in_all_and_1770_points_are_allowed() -> None:
    parse(record(t0=team(red_threes=4), t1=other(red_threes=1, red_threes_in_hand=1)))
    parse(record(t0=team(meld_points=890), t1=other(meld_points=725)))  # 890+35+725+120 = 1770


def test_individual_play() -> None:
    three = ("Ana", "Bia", "Caio")
    hand = parse_hand(
        {"went_out": "Bia", "teams": [other(), team(), other(meld_points=100, hand_points=0)]},
        players=three,
        teams=(("Ana",), ("Bia",), ("Caio",)),
        options=DEFAULT,
        dealer="Caio",
    )
    assert hand.out_team == 1


# --------------------------------------------------------------------------- refused


@pytest.mark.parametrize(
    "raw, field",
    [
        ([], None),
        ({"went_out": "Caio"}, "teams"),
        ({"went_out": "Caio", "teams": [team()]}, "teams"),
        ({"went_out": "Caio", "teams": {"0": team()}}, "teams"),
        ({**record(), "dealer": 3}, "dealer"),
        (record(t0=[1, 2]), "teams[0]"),
        (record(t0={**team(), "jokers": 2}), "teams[0].jokers"),
        (record(t0={k: v for k, v in team().items() if k != "meld_points"}), "teams[0].meld_points"),
        (record(t1=other(hand_points="120")), "teams[1].hand_points"),
        (record(t1=other(sambas=True)), "teams[1].sambas"),
        (record(t0=team(hidden_canastra="deal")), "teams[0].hidden_canastra"),
        (record(t1=other(penalties=["late"])), "teams[1].penalties[0]"),
        (record(t1=other(penalties="1")), "teams[1].penalties"),
        (record(went_out=3), "went_out"),
    ],
)
def test_shape_errors_are_400(raw: Any, field: str | None) -> None:
    refused(raw, InvalidInput, field)


def test_teams_must_cover_the_table() -> None:
    refused(record(), InvalidInput, "teams", teams=(("Ana", "Caio"), ("Bia",)))
    refused(record(), InvalidInput, "teams", teams=(("Ana", "Caio", "Bia", "Dani"),))


def test_went_out_must_be_seated() -> None:
    refused(record(went_out="Zé"), UnknownPlayer, "went_out")


@pytest.mark.parametrize(
    "raw, field",
    [
        # going out without two 7-card combinations
        (record(t0=team(clean_canastras=1, dirty_canastras=0, sambas=0)), "went_out"),
        (record(went_out="Bia"), "went_out"),
        # more than 6 red threes in all
        (record(t0=team(red_threes=5), t1=other(red_threes=1, red_threes_in_hand=1)), "teams"),
        (record(t0=team(red_threes=7)), "teams[0].red_threes"),
        # wild canastras beyond 18 wild cards
        (record(t0=team(wild_canastras=3, meld_points=1000)), "teams[0].wild_canastras"),
        (
            record(t0=team(wild_canastras=2, dirty_canastras=5, clean_canastras=0, meld_points=900)),
            "teams[0].wild_canastras",
        ),
        (record(t0=team(wild_canastras=2, meld_points=800), t1=other(wild_canastras=1, meld_points=700)), "teams"),
        # meld points below what the canastras and sambas must be worth
        (record(t0=team(meld_points=130)), "teams[0].meld_points"),
        (record(t1=other(wild_canastras=1, meld_points=185)), "teams[1].meld_points"),
        # more canastras and sambas than 156 cards (all but the red 3s) can make
        (record(t0=team(clean_canastras=23, meld_points=1100, hand_points=0)), "teams[0]"),
        (
            record(
                t0=team(clean_canastras=12, meld_points=600, hand_points=0),
                t1=other(clean_canastras=11, meld_points=600, hand_points=0),
            ),
            "teams",
        ),
        # meld and hand points above 1,770
        (record(t0=team(meld_points=895)), "teams"),
        # not a multiple of 5, negative, beyond all cards
        (record(t0=team(meld_points=741)), "teams[0].meld_points"),
        (record(t1=other(hand_points=-5)), "teams[1].hand_points"),
        (record(t1=other(hand_points=1775)), "teams[1].hand_points"),
        # hidden canastra for a team that did not go out, or when nobody went out
        (record(t1=other(hidden_canastra="play_alone")), "teams[1].hidden_canastra"),
        (record(t0=team(hidden_canastra="deal_alone"), went_out=None), "teams[0].hidden_canastra"),
        # an impossible number of penalties
        (record(t1=other(penalties=-1)), "teams[1].penalties"),
    ],
)
def test_rule_breaks_are_422(raw: Any, field: str) -> None:
    refused(raw, InconsistentHand, field)


def test_the_sentence_names_the_problem() -> None:
    text = refused(record(t0=team(clean_canastras=1, dirty_canastras=0, sambas=0)), InconsistentHand, "went_out")
    assert "Caio" in text and "two 7-card combinations" in text
    text = refused(record(t0=team(meld_points=130)), InconsistentHand, "teams[0].meld_points")
    assert "135" in text  # 35 + 30 + 20 + 50


def test_six_players_two_teams_of_three_or_three_pairs() -> None:
    six = ("Ana", "Bia", "Caio", "Dani", "Edu", "Fê")
    hand = parse_hand(record(went_out="Edu"), players=six, teams=(six[0::2], six[1::2]), options=DEFAULT, dealer="Fê")
    assert hand.out_team == 0 and hand.teams[0].players == ("Ana", "Caio", "Edu")
    pairs = (("Ana", "Dani"), ("Bia", "Edu"), ("Caio", "Fê"))
    raw = {
        "went_out": "Fê",
        "teams": [other(), other(meld_points=100, hand_points=0, red_threes=0), team(red_threes=0)],
    }
    assert parse_hand(raw, players=six, teams=pairs, options=DEFAULT, dealer="Fê").out_team == 2


def test_a_table_of_a_size_samba_is_not_played_at_is_a_rules_error() -> None:
    """Seven at the table breaks a rule (422, as when it is seated), every game alike; five is a
    table Samba may be played at (under the five_players house rule, asked for when seating)."""
    seven = tuple("ABCDEFG")
    with pytest.raises(RulesError) as info:
        parse_hand(record(), players=seven, options=DEFAULT, dealer="G")
    assert type(info.value) is RulesError and info.value.field == "players" and "2 to 6" in str(info.value)
    five = ("Ana", "Bia", "Caio", "Dani", "Edu")
    parts = [other(meld_points=100, hand_points=0, red_threes=0)] * 5
    hand = parse_hand({"went_out": None, "teams": parts}, players=five, options=DEFAULT, dealer="Edu")
    assert [t.players for t in hand.teams] == [(name,) for name in five]


def test_a_record_built_by_hand_checks_itself() -> None:
    """A hand object cannot hold a stranger, a count out of bounds or an unknown hidden canastra
    or penalty, however it was made: the error names the field."""
    hand = parse(record())
    assert dataclasses.replace(hand, dealer="Bia").dealer == "Bia"
    for field, value in (("went_out", "Nobody"), ("dealer", "Zé")):
        with pytest.raises(UnknownPlayer) as info:
            dataclasses.replace(hand, **{field: value})
        assert info.value.field == field
    team = hand.teams[0]
    for field, value, kind in (
        ("red_threes", 7, InconsistentHand),
        ("meld_points", 741, InconsistentHand),
        ("sambas", -1, InconsistentHand),
        ("penalties", 101, InconsistentHand),
        ("hidden_canastra", "deal", InvalidInput),
        ("hand_points", "35", InvalidInput),
    ):
        with pytest.raises(kind) as info:
            dataclasses.replace(team, **{field: value})
        assert info.value.field == field
    with pytest.raises(InvalidInput) as info:
        dataclasses.replace(team, penalties=1, penalty_kinds=("late",))
    assert info.value.field == "penalty_kinds[0]"


def test_the_record_schema_takes_its_bounds_from_the_rules() -> None:
    schema = RECORD.json_schema()
    assert schema["required"] == ["teams"] and schema["additionalProperties"] is False
    assert schema["properties"]["went_out"]["type"] == ["string", "null"]
    part = schema["properties"]["teams"]["items"]
    assert part == TEAM.json_schema() and part["additionalProperties"] is False
    assert part["required"] == list(team())[:8]
    assert part["properties"]["meld_points"]["maximum"] == ALL_POINTS
    assert part["properties"]["meld_points"]["multipleOf"] == 5
    assert part["properties"]["red_threes"]["maximum"] == 6
    assert part["properties"]["hidden_canastra"]["enum"][-1] is None
