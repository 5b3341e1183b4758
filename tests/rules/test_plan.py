"""The day planned together (referee/rules/plan.py): everyone seated once per round at the
tables the count needs, the same seed gives the same plan, sixteen players play five rounds
meeting nobody twice, and on twelve and thirteen players the day never seats more pairs again
than the round-by-round draw."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules.draw import draw, pairs_met, table_sizes
from referee.rules.errors import InvalidInput
from referee.rules.plan import affine_plane, plan

VALID = [n for n in range(4, 25) if n not in (6, 7, 11)]


@st.composite
def fields(draw_: st.DrawFn) -> tuple[list[int], str, int, int]:
    count = draw_(st.sampled_from(VALID))
    players = draw_(st.permutations(list(range(1, count + 1))))
    seed = draw_(st.text(alphabet="0123456789abcdef", min_size=1, max_size=8))
    size = draw_(st.sampled_from([4, 5])) if count not in (9, 13, 17) else 4
    return list(players), seed, draw_(st.integers(min_value=1, max_value=3)), size


@settings(max_examples=15, deadline=None)
@given(fields())
def test_every_planned_round_seats_everyone_once_at_the_tables_the_count_needs(case) -> None:  # type: ignore[no-untyped-def]
    players, seed, rounds, size = case
    try:
        sizes = table_sizes(len(players), size=size)
    except InvalidInput:
        return
    day = plan(players, seed=seed, rounds=rounds, size=size)
    assert len(day.rounds) == rounds and day.first.tables == day.rounds[0]
    for tables in day.rounds:
        assert sorted(p for t in tables for p in t) == sorted(players)
        assert sorted(len(t) for t in tables) == sorted(sizes)


@settings(max_examples=15, deadline=None)
@given(fields())
def test_the_same_seed_and_field_give_the_same_plan_whatever_the_order_of_entry(case) -> None:  # type: ignore[no-untyped-def]
    players, seed, rounds, size = case
    try:
        table_sizes(len(players), size=size)
    except InvalidInput:
        return
    met = pairs_met([players[:4]])
    first = plan(players, seed=seed, rounds=rounds, size=size, met=met, sat_out=players[:2])
    again = plan(list(reversed(players)), seed=seed, rounds=rounds, size=size, met=set(met), sat_out=players[:2])
    assert first == again


def test_the_affine_plane_of_four_meets_every_pair_exactly_once() -> None:
    rounds = affine_plane(4)
    pairs = [frozenset((a, b)) for r in rounds for t in r for a in t for b in t if a < b]
    assert len(pairs) == len(set(pairs)) == 16 * 15 // 2


def day(count: int, rounds: int, seed: str, planned: bool) -> tuple[int, list[set[frozenset[int]]]]:
    """A whole day drawn round by round, each round from its own seed, as the committee does:
    the pairs seated again over it, and each round's pairs."""
    players = list(range(1, count + 1))
    met: set[frozenset[int]] = set()
    fived: set[int] = set()
    again, each = 0, []
    for n in range(1, rounds + 1):
        seed_n = f"{seed}-{n}"
        if planned:
            drawn = plan(players, seed=seed_n, rounds=rounds - n + 1, met=met, sat_out=fived).first
        else:
            drawn = draw(players, seed=seed_n, met=met, sat_out=fived)
        again += drawn.repeats
        each.append(pairs_met(drawn.tables))
        met |= each[-1]
        fived |= {p for t in drawn.tables if len(t) == 5 for p in t}
    return again, each


@pytest.mark.parametrize("seed", ["1", "2", "3", "2026"])
def test_sixteen_players_play_five_rounds_meeting_nobody_twice(seed: str) -> None:
    """The round-by-round draw is forced into repeats by round 4; the plan, drawn again each
    round from that round's seed, never is."""
    again, each = day(16, 5, seed, planned=True)
    assert again == 0
    assert len(set().union(*each)) == sum(len(pairs) for pairs in each) == 120


@pytest.mark.parametrize("count", [12, 13])
def test_twelve_and_thirteen_players_never_meet_again_more_than_with_the_round_by_round_draw(count: int) -> None:
    """Over many seeds, the planned day seats no more pairs again than the round-by-round
    draw of the same seeds, and fewer over all of them."""
    planned_total = greedy_total = 0
    for seed in range(8):
        planned, _ = day(count, 5, str(seed), planned=True)
        greedy, _ = day(count, 5, str(seed), planned=False)
        assert planned <= greedy
        planned_total += planned
        greedy_total += greedy
    assert planned_total < greedy_total


def test_a_plan_of_no_rounds_is_refused() -> None:
    with pytest.raises(InvalidInput):
        plan([1, 2, 3, 4], seed="1", rounds=0)


def test_the_plan_follows_the_field_a_late_entry_in_and_a_player_gone_home_out() -> None:
    """Round 3 of sixteen, after two rounds without a repeat: number 16 went home, 17 and 18
    came late. The plan seats exactly the seventeen there, at a five and three fours, meets
    nobody again (the seventeen can still all meet new tablemates), and is the same when drawn
    again."""
    players = list(range(1, 17))
    met: set[frozenset[int]] = set()
    for n in (1, 2):
        drawn = plan(players, seed=f"c-{n}", rounds=6 - n, met=met).first
        met |= pairs_met(drawn.tables)
    field = [p for p in players if p != 16] + [17, 18]
    third = plan(field, seed="c-3", rounds=3, met=met)
    assert sorted(p for t in third.first.tables for p in t) == sorted(field)
    assert sorted(len(t) for t in third.first.tables) == [4, 4, 4, 5]
    assert third.first.repeats == 0
    assert plan(list(reversed(field)), seed="c-3", rounds=3, met=set(met)) == third


def test_twenty_five_players_at_tables_of_five_get_six_rounds_without_a_repeat() -> None:
    """The affine plane of five: six rounds of five tables of five, every pair once."""
    day = plan(list(range(1, 26)), seed="cinco", rounds=6, size=5)
    assert day.repeats == 0
    pairs = [pair for tables in day.rounds for pair in pairs_met(tables)]
    assert len(pairs) == len(set(pairs)) == 25 * 24 // 2
