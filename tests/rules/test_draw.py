"""The championship draw (referee/rules/draw.py): the same seed gives the same tables, everyone
is seated once at tables of four and as few fives as the count allows, no swap of two players
could lower the repeats it leaves, and it never does worse than the seed's plain shuffle."""

from __future__ import annotations

import hashlib
import random
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.rules.draw import Draw, cost, draw, pairs_met, repeats, table_count, table_sizes
from referee.rules.errors import InvalidInput

VALID = [n for n in range(4, 61) if n not in (6, 7, 11)]


@st.composite
def rounds(draw_: st.DrawFn) -> tuple[list[int], str, set[frozenset[int]], set[int]]:
    """Players (entry numbers), a seed, and earlier rounds' pairs and five-table sitters."""
    count = draw_(st.sampled_from(VALID))
    players = draw_(st.permutations(list(range(1, count + 1))))
    seed = draw_(st.text(alphabet="0123456789abcdef", min_size=1, max_size=8))
    earlier = draw_(st.integers(min_value=0, max_value=2))
    met: set[frozenset[int]] = set()
    sat_out: set[int] = set()
    for k in range(earlier):
        before = draw(players, seed=f"{seed}-{k}", met=met, sat_out=sat_out)
        met |= pairs_met(before.tables)
        sat_out |= {p for t in before.tables if len(t) == 5 for p in t}
    return list(players), seed, met, sat_out


@given(rounds())
def test_the_same_seed_gives_the_same_tables_whatever_the_order_of_entry(case) -> None:  # type: ignore[no-untyped-def]
    players, seed, met, sat_out = case
    first = draw(players, seed=seed, met=met, sat_out=sat_out)
    again = draw(list(reversed(players)), seed=seed, met=set(met), sat_out=set(sat_out))
    assert first == again


@given(rounds())
def test_everyone_sits_once_at_fours_and_as_few_fives_as_the_count_needs(case) -> None:  # type: ignore[no-untyped-def]
    players, seed, met, sat_out = case
    result = draw(players, seed=seed, met=met, sat_out=sat_out)
    seated = [p for t in result.tables for p in t]
    assert sorted(seated) == sorted(players)
    sizes = sorted(len(t) for t in result.tables)
    assert sizes.count(5) == len(players) % 4 and set(sizes) <= {4, 5}
    assert result.repeats == repeats(result.tables, met)


@given(rounds())
def test_no_swap_of_two_players_lowers_what_it_leaves(case) -> None:  # type: ignore[no-untyped-def]
    """A local optimum: moving any two players between their tables seats nobody better."""
    players, seed, met, sat_out = case
    tables = [list(t) for t in draw(players, seed=seed, met=met, sat_out=sat_out).tables]
    best = cost(tables, met, sat_out)
    for a, b in combinations(range(len(tables)), 2):
        for i in range(len(tables[a])):
            for j in range(len(tables[b])):
                tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
                assert cost(tables, met, sat_out) >= best
                tables[a][i], tables[b][j] = tables[b][j], tables[a][i]


@given(rounds())
def test_never_worse_than_the_seeds_own_shuffle(case) -> None:  # type: ignore[no-untyped-def]
    players, seed, met, sat_out = case
    order = sorted(players)
    random.Random(hashlib.sha256(seed.encode()).digest()).shuffle(order)
    shuffled, start = [], 0
    for n in table_sizes(len(players)):
        shuffled.append(order[start : start + n])
        start += n
    result = draw(players, seed=seed, met=met, sat_out=sat_out)
    assert cost(result.tables, met, sat_out) <= cost(shuffled, met, sat_out)


@pytest.mark.parametrize("seed", ["1", "2", "3", "17", "2026", "abc"])
def test_sixteen_players_meet_nobody_twice_in_round_two(seed: str) -> None:
    """Four tables of four: round 2 can take one player from each round-1 table at every table,
    and the draw finds such a seating."""
    players = list(range(1, 17))
    first = draw(players, seed=seed)
    assert first.repeats == 0
    second = draw(players, seed=seed + "-2", met=pairs_met(first.tables))
    assert second.repeats == 0
    assert pairs_met(first.tables).isdisjoint(pairs_met(second.tables))


@pytest.mark.parametrize("seed", ["8", "9", "10"])
def test_the_five_player_tables_go_to_players_who_have_not_sat_at_one(seed: str) -> None:
    """22 players: two tables of five and three of four. In round 2 the ten seats at the fives
    go to the twelve who sat at fours, as far as that meets nobody again: those twelve come from
    three tables, so a five can take at most three of them, one from each; six seats at most, so
    four players sit at a five again, and no fewer without a repeated pair."""
    players = list(range(1, 23))
    first = draw(players, seed="7")
    fived = {p for t in first.tables if len(t) == 5 for p in t}
    assert len(fived) == 10
    second = draw(players, seed=seed, met=pairs_met(first.tables), sat_out=fived)
    assert second.repeats == 0 and second.fives_again == 4


@pytest.mark.parametrize("count", [1, 3, 6, 7, 11])
def test_a_count_that_cannot_be_seated_is_refused_with_a_sentence(count: int) -> None:
    with pytest.raises(InvalidInput, match=f"{count} players cannot sit at tables of four and five"):
        draw(list(range(count)), seed="1")


def test_without_five_player_tables_the_count_must_be_a_multiple_of_four() -> None:
    assert table_sizes(12, fives=False) == [4, 4, 4]
    with pytest.raises(InvalidInput, match="must be a multiple of four"):
        table_sizes(10, fives=False)


def test_a_player_listed_twice_is_refused() -> None:
    with pytest.raises(InvalidInput, match="listed twice"):
        draw([1, 2, 3, 4, 4], seed="1")


def test_the_draw_keeps_its_seed_and_another_seed_draws_other_tables() -> None:
    players = list(range(1, 41))
    first = draw(players, seed="4521")
    assert isinstance(first, Draw) and first.seed == "4521"
    assert draw(players, seed="4522").tables != first.tables


@given(st.integers(min_value=4, max_value=80), st.text(alphabet="0123456789abcdef", min_size=1, max_size=6))
def test_tables_of_five_seat_everyone_with_as_few_fours_as_the_count_needs(count, seed) -> None:  # type: ignore[no-untyped-def]
    """A Quatrilho championship of fives (the dealer sits out at every table)."""
    players = list(range(1, count + 1))
    try:
        result = draw(players, seed=seed, size=5)
    except InvalidInput:
        assert count in (6, 7, 11)  # no sum of fives and fours makes these
        return
    sizes = sorted(len(t) for t in result.tables)
    assert sorted(p for t in result.tables for p in t) == players
    assert set(sizes) <= {4, 5} and sizes.count(4) < 5 and sizes == sorted(table_sizes(count, size=5))
    assert draw(list(reversed(players)), seed=seed, size=5) == result


@pytest.mark.parametrize(("size", "fives"), [(4, True), (4, False), (5, True)])
def test_the_table_count_is_the_draw_s_and_never_short_for_a_field_not_seated_yet(size: int, fives: bool) -> None:
    """What the day's cards are printed for before round 1: the draw's own count of tables."""
    assert table_count(0, size=size, fives=fives) == 0
    for count in range(1, 120):
        try:
            made = len(draw(list(range(count)), seed="1", size=size, fives=fives).tables)
        except InvalidInput:
            assert table_count(count, size=size, fives=fives) >= table_count(count - 1, size=size, fives=fives)
            continue
        assert table_count(count, size=size, fives=fives) == made
