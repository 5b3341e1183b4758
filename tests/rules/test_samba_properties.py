"""Property tests for Samba (hypothesis): random legal records under random options.

The score is compared with an oracle written here from the rule text and the chosen readings
(not from the engine); invariants: the lines add up to the score, a team's score grows
with its meld points and falls with its hand points, swapping the teams swaps the scores, a
record reads back the same, any record is either a hand or a RulesError, and the end of match
picks the highest total past the target.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from referee.rules.errors import RulesError
from referee.rules.samba import SambaOptions, TeamHand, cheapest_meld, match_state, parse_hand, score_hand, score_team

PLAYERS = ("Ana", "Bia", "Caio", "Dani")
TEAMS = (("Ana", "Caio"), ("Bia", "Dani"))

options_st = st.builds(
    SambaOptions,
    target=st.sampled_from([10000, 5000]),
    win_at_target=st.booleans(),
    top_min_meld=st.sampled_from([150, 160]),
    six_red_threes_unmade=st.sampled_from(["flip", "per_card"]),
    canastra_bonuses_cumulative=st.booleans(),
    sambas_count_for_canastrao=st.booleans(),
)


@st.composite
def team_st(draw: st.DrawFn, reds: int) -> dict[str, Any]:
    clean = draw(st.integers(0, 4))
    dirty = draw(st.integers(0, 2))
    wild = draw(st.integers(0, 1))
    sambas = draw(st.integers(0, 3))
    laid = draw(st.integers(0, reds))
    raw: dict[str, Any] = {
        "meld_points": cheapest_meld(clean, dirty, wild, sambas) + 5 * draw(st.integers(0, 40)),
        "hand_points": 5 * draw(st.integers(0, 20)),
        "clean_canastras": clean,
        "dirty_canastras": dirty,
        "wild_canastras": wild,
        "sambas": sambas,
        "red_threes": laid,
        "red_threes_in_hand": draw(st.integers(0, reds - laid)),
        "penalties": draw(
            st.one_of(st.integers(0, 3), st.lists(st.sampled_from(["three_wilds", "meld_out_of_turn"]), max_size=3))
        ),
    }
    return raw


@st.composite
def record_st(draw: st.DrawFn) -> dict[str, Any]:
    t0 = draw(team_st(6))
    t1 = draw(team_st(6 - t0["red_threes"] - t0["red_threes_in_hand"]))
    made = [
        i
        for i, t in enumerate((t0, t1))
        if t["clean_canastras"] + t["dirty_canastras"] + t["wild_canastras"] + t["sambas"] >= 2
    ]
    went_out = draw(st.one_of(st.none(), *(st.sampled_from(TEAMS[i]) for i in made)))
    if went_out is not None:
        out = t0 if went_out in TEAMS[0] else t1
        out["hidden_canastra"] = draw(
            st.sampled_from([None, "deal_alone", "deal_with_partner", "play_alone", "play_with_partner"])
        )
    return {"went_out": went_out, "teams": [t0, t1]}


def parsed(raw: dict[str, Any], options: SambaOptions, teams: Any = TEAMS) -> Any:
    try:
        return parse_hand(raw, players=PLAYERS, teams=teams, options=options, dealer="Dani")
    except RulesError:
        assume(False)


def oracle(t: dict[str, Any], went_out: bool, o: SambaOptions) -> Any:
    """Written out again, independently of the engine."""
    canastras = t["clean_canastras"] + t["dirty_canastras"] + t["wild_canastras"]
    made = canastras + t["sambas"] >= 2
    total = (
        t["meld_points"]
        + 500 * t["clean_canastras"]
        + 300 * t["dirty_canastras"]
        + 2000 * t["wild_canastras"]
        + 1500 * t["sambas"]
    )
    counted = canastras + (t["sambas"] if o.sambas_count_for_canastrao else 0)
    if counted >= 7:
        total += 2500 if o.canastra_bonuses_cumulative else 2000
    elif counted >= 5:
        total += 500
    r = t["red_threes"]
    if r == 6:
        total += 1000 if made else (-1000 if o.six_red_threes_unmade == "flip" else -600)
    else:
        total += 100 * r if made else -100 * r
    if went_out:
        total += (
            200
            + {None: 0, "deal_alone": 1000, "deal_with_partner": 500, "play_alone": 500, "play_with_partner": 200}[
                t.get("hidden_canastra")
            ]
        )
    p = t["penalties"]
    total -= t["hand_points"] + 500 * t["red_threes_in_hand"] + 100 * (p if isinstance(p, int) else len(p))
    return total


@given(record_st(), options_st)
def test_score_matches_the_oracle_and_lines_add_up(raw: dict[str, Any], options: SambaOptions) -> None:
    hand = parsed(raw, options)
    scores = score_hand(hand, options)
    for i, (s, t) in enumerate(zip(scores, raw["teams"])):
        assert sum(line.amount for line in s.lines) == s.score
        went = raw["went_out"] is not None and raw["went_out"] in TEAMS[i]
        assert s.score == oracle(t, went, options)


@given(record_st(), options_st)
def test_swapping_the_teams_swaps_the_scores(raw: dict[str, Any], options: SambaOptions) -> None:
    hand = parsed(raw, options)
    swapped = parsed({"went_out": raw["went_out"], "teams": raw["teams"][::-1]}, options, teams=TEAMS[::-1])
    assert [s.score for s in score_hand(swapped, options)] == [s.score for s in score_hand(hand, options)][::-1]


@given(record_st(), options_st)
def test_the_record_reads_back_the_same(raw: dict[str, Any], options: SambaOptions) -> None:
    hand = parsed(raw, options)
    assert parse_hand(hand.to_json(), players=PLAYERS, teams=TEAMS, options=options, dealer="Dani") == hand


@given(record_st(), options_st, st.integers(1, 50), st.booleans())
def test_score_is_monotone_in_meld_and_hand_points(
    raw: dict[str, Any], options: SambaOptions, step: int, went: bool
) -> None:
    team = parsed(raw, options).teams[0]
    base = score_team(team, went_out=went, options=options).score
    more = dataclasses.replace(team, meld_points=team.meld_points + 5 * step)
    assert score_team(more, went_out=went, options=options).score == base + 5 * step
    worse = dataclasses.replace(team, hand_points=team.hand_points + 5 * step)
    assert score_team(worse, went_out=went, options=options).score == base - 5 * step


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-10, 2000) | st.text(max_size=5),
        lambda c: (
            st.lists(c, max_size=3)
            | st.dictionaries(
                st.sampled_from(["went_out", "teams", "meld_points", "sambas", "penalties", "red_threes", "Caio"]),
                c,
                max_size=4,
            )
        ),
        max_leaves=12,
    )
)
def test_any_record_is_a_hand_or_a_rules_error(raw: Any) -> None:
    try:
        parse_hand(raw, players=PLAYERS, teams=TEAMS, options=SambaOptions(), dealer="Dani")
    except RulesError as err:
        assert str(err)


@given(st.lists(st.integers(-2000, 15000).map(lambda n: 5 * (n // 5)), min_size=2, max_size=3), options_st)
def test_match_state_picks_the_highest_total_past_the_target(totals: list[int], options: SambaOptions) -> None:
    state = match_state(totals, options)
    past = [t for t in totals if t > options.target or (options.win_at_target and t >= options.target)]
    if not past or sorted(totals)[-1] == sorted(totals)[-2] and max(totals) in past:
        assert state.winner is None and not state.finished
    else:
        assert state.finished and state.winner is not None
        assert totals[state.winner] == max(totals) and totals.count(max(totals)) == 1


def test_team_hand_is_frozen() -> None:
    team = TeamHand(
        players=("Ana",),
        meld_points=0,
        hand_points=0,
        clean_canastras=0,
        dirty_canastras=0,
        wild_canastras=0,
        sambas=0,
        red_threes=0,
        red_threes_in_hand=0,
    )
    try:
        team.meld_points = 5  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        return
    raise AssertionError("TeamHand must be frozen")
