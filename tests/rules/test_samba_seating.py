"""Samba seating and its :class:`~referee.rules.game.Game` (SAM-7, SAM-8, SAM-11; docs/api.md
"Tables"): default teams, the checks of posted teams, the partnership draw, and what the ledger
asks of :data:`referee.rules.samba.GAME` (settle, standing, first speaker, next dealer).

Pure rules: no Flask, no database. Every expected figure is worked from the rule text.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.rules import GAMES, samba
from referee.rules.errors import InconsistentHand, InvalidInput, RulesError, UnknownPlayer
from referee.rules.game import Game
from referee.rules.samba import (
    GAME,
    SambaOptions,
    default_teams,
    match_state,
    seat_teams,
    seats_from_draw,
    standing,
)
from referee.rules.scores import TeamScores

DEFAULT = SambaOptions()
FIVE_OK = SambaOptions(five_players=True)
NAMES = ("Ana", "Bia", "Caio", "Dani", "Edu", "Fabi")
FOUR = NAMES[:4]
SIX = NAMES
TEAMS4 = (("Ana", "Caio"), ("Bia", "Dani"))


def players(n: int) -> tuple[str, ...]:
    return NAMES[:n]


def refused(call: Any, kind: type[RulesError], field: str | None) -> RulesError:
    with pytest.raises(RulesError) as info:
        call()
    assert isinstance(info.value, kind), type(info.value)
    assert info.value.field == field
    assert str(info.value)  # a sentence
    return info.value


def is_422(exc: RulesError) -> bool:
    """The API answers 400 for InvalidInput and 422 for every other RulesError."""
    return not isinstance(exc, InvalidInput)


# --------------------------------------------------------------------------- default_teams


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (2, (("Ana",), ("Bia",))),
        (3, (("Ana",), ("Bia",), ("Caio",))),
        (4, (("Ana", "Caio"), ("Bia", "Dani"))),
        (5, (("Ana",), ("Bia",), ("Caio",), ("Dani",), ("Edu",))),  # each for himself
        (6, (("Ana", "Caio", "Edu"), ("Bia", "Dani", "Fabi"))),
    ],
)
def test_default_teams_follow_api_md(n: int, expected: tuple[tuple[str, ...], ...]) -> None:
    assert default_teams(players(n)) == expected


def test_six_players_in_three_pairs_sit_across() -> None:
    # Three pairs at six: each partner three seats away, [[p0, p3], [p1, p4], [p2, p5]].
    assert default_teams(SIX, pairs=True) == (("Ana", "Dani"), ("Bia", "Edu"), ("Caio", "Fabi"))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_pairs_changes_nothing_below_six(n: int) -> None:
    assert default_teams(players(n), pairs=True) == default_teams(players(n))


@pytest.mark.parametrize(("n", "pairs"), [(2, False), (3, False), (4, False), (5, False), (6, False), (6, True)])
def test_default_teams_cover_every_player_once_with_equal_sizes_and_alternate(n: int, pairs: bool) -> None:
    teams = default_teams(players(n), pairs=pairs)
    flat = [name for team in teams for name in team]
    assert sorted(flat) == sorted(players(n)) and len(flat) == n
    assert len({len(t) for t in teams}) == 1
    team_of = {name: i for i, team in enumerate(teams) for name in team}
    # Partners never sit side by side: the next player in order of play is an opponent
    # (wrapping round from the last to the first).
    seated = players(n)
    for i, name in enumerate(seated):
        assert team_of[name] != team_of[seated[(i + 1) % n]]


def test_default_teams_keep_the_order_of_play_within_a_team() -> None:
    other = ("Zé", "Yara", "Xavi", "Walt")
    assert default_teams(other) == (("Zé", "Xavi"), ("Yara", "Walt"))


# --------------------------------------------------------------------------- seat_teams: accepted


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_seat_teams_without_teams_gives_the_defaults(n: int) -> None:
    assert seat_teams(players(n), None, DEFAULT) == default_teams(players(n))


def test_five_players_with_the_house_rule_play_each_for_himself() -> None:
    assert seat_teams(players(5), None, FIVE_OK) == tuple((name,) for name in players(5))
    explicit = [[name] for name in reversed(players(5))]
    assert seat_teams(players(5), explicit, FIVE_OK) == tuple((name,) for name in reversed(players(5)))


@pytest.mark.parametrize(
    ("n", "raw"),
    [
        (4, [["Ana", "Bia"], ["Caio", "Dani"]]),  # partners side by side: allowed
        (4, [["Bia", "Dani"], ["Ana", "Caio"]]),  # team 0 need not hold the first player
        (6, [["Ana", "Dani"], ["Bia", "Edu"], ["Caio", "Fabi"]]),  # three pairs
        (6, [["Ana", "Bia", "Caio"], ["Dani", "Edu", "Fabi"]]),
        (2, [["Bia"], ["Ana"]]),
        (3, [["Caio"], ["Ana"], ["Bia"]]),
    ],
)
def test_seat_teams_keeps_posted_teams(n: int, raw: list[list[str]]) -> None:
    assert seat_teams(players(n), raw, DEFAULT) == tuple(tuple(team) for team in raw)


def test_seat_teams_tidies_spaces_in_names_as_the_players_are() -> None:
    assert seat_teams(FOUR, [["  Ana ", "Caio"], ["Bia", "Dani"]], DEFAULT) == TEAMS4


# --------------------------------------------------------------------------- seat_teams: refused


@pytest.mark.parametrize("n", [0, 1, 7, 8])
def test_seat_teams_refuses_a_player_count_samba_has_not(n: int) -> None:
    names = tuple(f"P{i}" for i in range(n))
    exc = refused(lambda: seat_teams(names, None, FIVE_OK), RulesError, "players")
    assert is_422(exc)


def test_five_players_need_the_house_rule() -> None:
    exc = refused(lambda: seat_teams(players(5), None, DEFAULT), RulesError, "players")
    assert is_422(exc)
    # Posted teams do not get round it either.
    exc = refused(lambda: seat_teams(players(5), [[n] for n in players(5)], DEFAULT), RulesError, "players")
    assert is_422(exc)


@pytest.mark.parametrize(
    "raw",
    [
        "Ana, Caio",  # not a list
        {"0": ["Ana", "Caio"]},
        ["Ana", "Bia", "Caio", "Dani"],  # a list of names, not of teams
        [["Ana", "Caio"], "Bia Dani"],
        [["Ana", 3], ["Bia", "Dani"]],  # a name that is not text
        [["Ana", None], ["Bia", "Dani"]],
        [["Ana", "Caio"], ["Bia", "Ana"]],  # a player twice (and Dani nowhere)
        [["Ana", "Caio"], ["Bia", "Dani", "Ana"]],  # a player twice, everyone covered
        [["Ana", "Caio"], ["Bia"]],  # Dani in no team
        [["Ana", "Bia", "Caio", "Dani"]],  # one team: nobody to play against
        [],
        [["Ana", "Caio"], ["Bia", "Dani"], []],  # an empty team
    ],
)
def test_seat_teams_refuses_malformed_teams_with_400(raw: object) -> None:
    refused(lambda: seat_teams(FOUR, raw, DEFAULT), InvalidInput, "teams")


@pytest.mark.parametrize(
    ("n", "raw"),
    [
        (4, [["Ana"], ["Bia", "Caio", "Dani"]]),
        (6, [["Ana", "Bia", "Caio", "Dani"], ["Edu", "Fabi"]]),
        (6, [["Ana", "Bia"], ["Caio", "Dani"], ["Edu"], ["Fabi"]]),
        (3, [["Ana", "Bia"], ["Caio"]]),
    ],
)
def test_seat_teams_refuses_unequal_teams_with_422(n: int, raw: list[list[str]]) -> None:
    exc = refused(lambda: seat_teams(players(n), raw, DEFAULT), RulesError, "teams")
    assert is_422(exc)


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ([["Ana", "Caio"], ["Bia", "Zé"]], "teams[1][1]"),
        ([["ana", "Caio"], ["Bia", "Dani"]], "teams[0][0]"),  # names are exact
        ([["Zé"], ["Ana", "Caio"], ["Bia", "Dani"]], "teams[0][0]"),
    ],
)
def test_seat_teams_refuses_a_name_not_seated(raw: list[list[str]], field: str) -> None:
    exc = refused(lambda: seat_teams(FOUR, raw, DEFAULT), UnknownPlayer, field)
    assert is_422(exc) and exc.code == "unknown_player"


@pytest.mark.parametrize("slug", ["jubileu", "quatrilho"])
def test_other_games_have_no_teams(slug: str) -> None:
    game = GAMES[slug]
    options = game.parse_options(None)
    refused(lambda: game.seat_teams(FOUR, [["Ana", "Caio"], ["Bia", "Dani"]], options), InvalidInput, "teams")
    assert game.seat_teams(FOUR, None, options) == tuple((n,) for n in FOUR)


# --------------------------------------------------------------------------- seats_from_draw


def test_the_partnership_draw_of_section_5a() -> None:
    # Four consecutive cards, 7 8 9 10. Even (10, 8) play against odd (9, 7). The 10 is the mão:
    # he plays first and his team is listed first; the others follow in decreasing order of
    # their cards, 9, 8, 7, so partners alternate and the 7 (the player before the mão) deals.
    order, teams = seats_from_draw({"Ana": 7, "Bia": 9, "Caio": 8, "Dani": 10})
    assert order == ("Dani", "Bia", "Caio", "Ana")
    assert teams == (("Dani", "Caio"), ("Bia", "Ana"))


def test_the_mao_with_an_odd_card_puts_the_odd_team_first() -> None:
    # J Q K = 11 12 13 and the 10: the king (13, odd) is the mão; odd 13, 11 v even 12, 10.
    order, teams = seats_from_draw({"Ana": 12, "Bia": 10, "Caio": 13, "Dani": 11})
    assert order == ("Caio", "Ana", "Dani", "Bia")
    assert teams == (("Caio", "Dani"), ("Ana", "Bia"))


def test_a_draw_for_six_makes_two_teams_of_three() -> None:
    order, teams = seats_from_draw({"Ana": 1, "Bia": 2, "Caio": 3, "Dani": 4, "Edu": 5, "Fabi": 6})
    assert order == ("Fabi", "Edu", "Dani", "Caio", "Bia", "Ana")
    assert teams == (("Fabi", "Dani", "Bia"), ("Edu", "Caio", "Ana"))


@pytest.mark.parametrize(
    "draws",
    [
        {"Ana": 7, "Bia": 8, "Caio": 9, "Dani": 11},  # a gap
        {"Ana": 2, "Bia": 5, "Caio": 8, "Dani": 11},
        {"Ana": 7, "Bia": 7, "Caio": 8, "Dani": 9},  # the same card twice
        {"Ana": 9, "Bia": 9, "Caio": 9, "Dani": 9},
        {"Ana": 11, "Bia": 12, "Caio": 13, "Dani": 14},  # above the king
        {"Ana": 0, "Bia": 1, "Caio": 2, "Dani": 3},  # below the ace
        {"Ana": -2, "Bia": -1, "Caio": 0, "Dani": 1},
        {"Ana": 9, "Bia": 10, "Caio": 11, "Dani": 12, "Edu": 13, "Fabi": 14},
    ],
)
def test_a_draw_that_is_not_consecutive_distinct_cards_is_refused(draws: dict[str, int]) -> None:
    exc = refused(lambda: seats_from_draw(draws), InconsistentHand, "draw")
    assert is_422(exc)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 7])
def test_the_draw_is_for_four_or_six(n: int) -> None:
    draws = {f"P{i}": i + 1 for i in range(n)}
    refused(lambda: seats_from_draw(draws), InvalidInput, "draw")


@st.composite
def draws_st(draw: st.DrawFn) -> dict[str, int]:
    n = draw(st.sampled_from([4, 6]))
    low = draw(st.integers(1, 14 - n))
    cards = draw(st.permutations(list(range(low, low + n))))
    names = draw(st.lists(st.text(min_size=1, max_size=6), min_size=n, max_size=n, unique=True))
    return dict(zip(names, cards))


@given(draws_st())
def test_any_draw_seats_partners_alternately_with_the_highest_card_as_mao(draws: dict[str, int]) -> None:
    order, teams = seats_from_draw(draws)
    n = len(draws)
    assert sorted(order) == sorted(draws) and len(order) == n
    assert draws[order[0]] == max(draws.values())  # the mão has the highest card
    assert [draws[name] for name in order] == sorted(draws.values(), reverse=True)
    assert len(teams) == 2 and len(teams[0]) == len(teams[1]) == n // 2
    assert order[0] in teams[0]  # the mão's team first
    for i, name in enumerate(order):
        assert name in teams[i % 2]  # partners alternate in order of play
    for team in teams:
        assert len({draws[name] % 2 for name in team}) == 1  # even against odd


# --------------------------------------------------------------------------- the Game

#: docs/api.md's worked record. By hand: team 0 (Ana, Caio; Caio went out) 740 melded
#: + 500 clean + 300 dirty + 1,500 samba + 2 x 100 red 3s (three combinations: positive)
#: + 200 going out - 35 in hand = 3,405. Team 1 (Bia, Dani) 760 + 300 dirty - 100 (one red 3,
#: only one combination: negative) - 120 in hand - 100 penalty = 740.
EXAMPLE = samba.example_hand()


def part(meld: int = 0, hand: int = 0, **over: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "meld_points": meld,
        "hand_points": hand,
        "clean_canastras": 0,
        "dirty_canastras": 0,
        "wild_canastras": 0,
        "sambas": 0,
        "red_threes": 0,
        "red_threes_in_hand": 0,
    }
    raw.update(over)
    return raw


def test_rules_is_registered_as_a_scored_game_of_two_to_six() -> None:
    assert GAMES["samba"] is GAME and isinstance(GAME, Game)
    assert GAME.slug == "samba" and GAME.scored is True
    assert (GAME.min_players, GAME.max_players) == (2, 6)
    assert GAME.parse_options(None) == DEFAULT


def test_settle_gives_each_player_his_teams_score() -> None:
    hand = GAME.parse_hand(EXAMPLE, players=FOUR, options=DEFAULT, dealer="Dani", teams=TEAMS4)
    outcome = GAME.settle(hand, DEFAULT)
    assert isinstance(outcome, TeamScores)
    assert [t.score for t in outcome.teams] == [3405, 740]
    assert [t.players for t in outcome.teams] == [("Ana", "Caio"), ("Bia", "Dani")]
    assert dict(outcome.deltas) == {"Ana": 3405, "Caio": 3405, "Bia": 740, "Dani": 740}
    assert sorted(outcome.players) == sorted(FOUR)
    assert outcome.payments == () and outcome.carry == 0  # points, not payments


def test_parse_hand_without_teams_uses_the_default_teams() -> None:
    hand = GAME.parse_hand(EXAMPLE, players=FOUR, options=DEFAULT, dealer="Dani")
    assert [t.players for t in hand.teams] == [("Ana", "Caio"), ("Bia", "Dani")]
    assert hand.dealer == "Dani" and GAME.dealer_of(hand) == "Dani"
    assert GAME.contract_json(hand) == {"went_out": "Caio"}


def test_settle_at_six_in_three_pairs_and_at_two() -> None:
    pairs = default_teams(SIX, pairs=True)
    raw = {"went_out": None, "teams": [part(100, 10), part(50), part(0, 30)]}
    hand = GAME.parse_hand(raw, players=SIX, options=DEFAULT, dealer="Fabi", teams=pairs)
    outcome = GAME.settle(hand, DEFAULT)
    # Nobody went out: melded minus in hand, 90, 50 and -30.
    assert dict(outcome.deltas) == {"Ana": 90, "Dani": 90, "Bia": 50, "Edu": 50, "Caio": -30, "Fabi": -30}
    two = GAME.parse_hand(
        {"went_out": None, "teams": [part(20), part(0, 5)]}, players=("Ana", "Bia"), options=DEFAULT, dealer="Bia"
    )
    assert dict(GAME.settle(two, DEFAULT).deltas) == {"Ana": 20, "Bia": -5}


@st.composite
def team_part_st(draw: st.DrawFn, reds: int) -> dict[str, Any]:
    clean = draw(st.integers(0, 3))
    dirty = draw(st.integers(0, 2))
    sambas = draw(st.integers(0, 2))
    laid = draw(st.integers(0, reds))
    # Meld points comfortably above the cheapest the declared combinations can be.
    return part(
        meld=35 * clean + 50 * dirty + 50 * sambas + 5 * draw(st.integers(0, 30)),
        hand=5 * draw(st.integers(0, 30)),
        clean_canastras=clean,
        dirty_canastras=dirty,
        sambas=sambas,
        red_threes=laid,
        red_threes_in_hand=draw(st.integers(0, reds - laid)),
        penalties=draw(st.integers(0, 2)),
    )


@st.composite
def seating_st(draw: st.DrawFn) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], dict[str, Any]]:
    n, pairs = draw(st.sampled_from([(2, False), (3, False), (4, False), (6, False), (6, True)]))
    seated = players(n)
    teams = default_teams(seated, pairs=pairs)
    parts = []
    reds = 6
    for _ in teams:
        p = draw(team_part_st(reds))
        reds -= p["red_threes"] + p["red_threes_in_hand"]
        parts.append(p)
    made = [i for i, p in enumerate(parts) if p["clean_canastras"] + p["dirty_canastras"] + p["sambas"] >= 2]
    out = draw(st.sampled_from([None] + made))
    went_out = None if out is None else draw(st.sampled_from(teams[out]))
    return seated, teams, {"went_out": went_out, "teams": parts}


@given(seating_st(), st.data())
def test_rotating_the_seats_changes_no_score_and_the_deal_moves_one_seat(seating: Any, data: st.DataObject) -> None:
    seated, teams, raw = seating
    k = data.draw(st.integers(0, len(seated) - 1), label="rotation")
    dealer = data.draw(st.sampled_from(seated), label="dealer")
    rotated = seated[k:] + seated[:k]
    before = GAME.settle(GAME.parse_hand(raw, players=seated, options=DEFAULT, dealer=dealer, teams=teams), DEFAULT)
    hand = GAME.parse_hand(raw, players=rotated, options=DEFAULT, dealer=dealer, teams=teams)
    after = GAME.settle(hand, DEFAULT)
    assert [t.score for t in after.teams] == [t.score for t in before.teams]
    assert dict(after.deltas) == dict(before.deltas)
    # Every player's delta is his team's score, and every seated player has one.
    assert sorted(after.deltas) == sorted(seated)
    for team, score in zip(teams, after.teams):
        assert all(after.deltas[name] == score.score for name in team)
        assert sum(line.amount for line in score.lines) == score.score
    # the deal moves one seat on, in the table's own order of play.
    nxt = GAME.next_dealer(rotated, hand, DEFAULT)
    assert nxt == rotated[(rotated.index(dealer) + 1) % len(rotated)]
    assert GAME.first_speaker(rotated, dealer, DEFAULT) == nxt  # the mão sits after the dealer
    assert GAME.sitting_out(rotated, dealer, DEFAULT) is None


def test_next_dealer_follows_a_dealer_named_in_the_record() -> None:
    hand = GAME.parse_hand({**EXAMPLE, "dealer": "Bia"}, players=FOUR, options=DEFAULT, dealer="Dani", teams=TEAMS4)
    assert GAME.dealer_of(hand) == "Bia"
    assert GAME.next_dealer(FOUR, hand, DEFAULT) == "Caio"


@pytest.mark.parametrize(("dealer", "mao"), [("Dani", "Ana"), ("Ana", "Bia"), ("Bia", "Caio"), ("Caio", "Dani")])
def test_first_speaker_is_the_player_after_the_dealer(dealer: str, mao: str) -> None:
    assert GAME.first_speaker(FOUR, dealer, DEFAULT) == mao


# --------------------------------------------------------------------------- standing


def band(total: int, top: int = 150) -> int:
    """SAM-1's table, written out from the rule text."""
    if total < 0:
        return 15
    if total <= 1495:
        return 50
    if total <= 2995:
        return 90
    if total <= 6995:
        return 120
    return top


@pytest.mark.parametrize(
    ("total", "meld"),
    [
        (-1000, 15),
        (-5, 15),
        (0, 50),
        (1495, 50),
        (1500, 90),
        (2995, 90),
        (3000, 120),
        (6995, 120),
        (7000, 150),
        (25000, 150),
    ],
)
def test_standing_gives_each_team_the_opening_meld_of_its_band(total: int, meld: int) -> None:
    totals = {"Ana": total, "Caio": total, "Bia": 0, "Dani": 0}
    answer = standing(TEAMS4, totals, DEFAULT)
    assert answer["teams"][0] == {"players": ["Ana", "Caio"], "total": total, "min_meld": meld}
    assert answer["teams"][1] == {"players": ["Bia", "Dani"], "total": 0, "min_meld": 50}
    top = standing(TEAMS4, totals, SambaOptions(top_min_meld=160))["teams"][0]["min_meld"]
    assert top == (160 if total >= 7000 else meld)


@pytest.mark.parametrize(
    ("totals", "options", "finished", "winner"),
    [
        ((10005, 9000), DEFAULT, True, 0),
        ((9000, 10005), DEFAULT, True, 1),
        ((10100, 10050), DEFAULT, True, 0),  # both past: the higher wins
        ((10050, 10100), DEFAULT, True, 1),
        ((10050, 10050), DEFAULT, False, None),  # tied past the target: play on
        ((10000, 9000), DEFAULT, False, None),  # exactly the target: plays on
        ((10000, 9000), SambaOptions(win_at_target=True), True, 0),
        ((10000, 10000), SambaOptions(win_at_target=True), False, None),
        ((2005, 0), SambaOptions(target=2000), True, 0),
        ((2000, 1995), SambaOptions(target=2000), False, None),
        ((-500, 0), DEFAULT, False, None),
    ],
)
def test_standing_says_when_the_match_is_over_and_who_won(
    totals: tuple[int, int], options: SambaOptions, finished: bool, winner: int | None
) -> None:
    by_player = {"Ana": totals[0], "Caio": totals[0], "Bia": totals[1], "Dani": totals[1]}
    answer = standing(TEAMS4, by_player, options)
    assert (answer["finished"], answer["winner"]) == (finished, winner)
    assert GAME.standing(TEAMS4, by_player, options) == answer


@given(
    st.lists(st.integers(-400, 2400).map(lambda x: 5 * x), min_size=2, max_size=3),
    st.sampled_from([10000, 5000]),
    st.booleans(),
    st.sampled_from([150, 160]),
)
def test_standing_agrees_with_match_state_and_the_band_table(
    totals: list[int], target: int, at: bool, top: int
) -> None:
    options = SambaOptions(target=target, win_at_target=at, top_min_meld=top)
    teams = tuple((name,) for name in NAMES[: len(totals)])
    answer = standing(teams, {team[0]: t for team, t in zip(teams, totals)}, options)
    state = match_state(totals, options)
    assert (answer["finished"], answer["winner"]) == (state.finished, state.winner)
    assert [t["min_meld"] for t in answer["teams"]] == [band(t, top) for t in totals]
    assert [t["total"] for t in answer["teams"]] == totals
    # Independently: past = above the target (or at it under win_at_target); one best wins.
    past = [i for i, t in enumerate(totals) if t > target or (at and t == target)]
    best = [i for i in past if totals[i] == max(totals[j] for j in past)]
    assert answer["winner"] == (best[0] if len(best) == 1 else None)
    assert answer["finished"] == (len(best) == 1)


def test_standing_of_a_fresh_table_reads_missing_totals_as_zero() -> None:
    answer = standing(TEAMS4, {}, DEFAULT)
    assert [t["total"] for t in answer["teams"]] == [0, 0]
    assert [t["min_meld"] for t in answer["teams"]] == [50, 50]
    assert (answer["finished"], answer["winner"]) == (False, None)
