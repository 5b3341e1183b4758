"""The championship's ranking arithmetic (referee.championship.ranking.rank): places follow the
total, then the tie-breaks in the manager's order, and players level on all of them share a place
(1, 2, 2, 4); each round's star goes to the best points among its tables signed off."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from referee.championship.ranking import Played, rank
from referee.championship.settings import TIEBREAKS

ROUNDS = 3

played_round = st.one_of(
    st.none(),
    st.builds(Played, st.integers(-200, 400), st.booleans(), st.integers(0, 2)),
)
fields = st.dictionaries(
    st.integers(1, 300), st.lists(played_round, min_size=ROUNDS, max_size=ROUNDS), min_size=1, max_size=30
)
orders = st.permutations(list(TIEBREAKS)).flatmap(lambda order: st.integers(0, len(order)).map(lambda n: order[:n]))


def key(line, order):  # type: ignore[no-untyped-def]
    """What decides a place, written out again from the rule (not taken from the module)."""
    values = {"best_round": -line.best_round, "fewer_reentries": line.reentries, "last_round": -line.last_round}
    return (-line.total, *(values[t] for t in order))


@given(fields, orders)
def test_places_are_one_plus_the_lines_strictly_ahead(played, order) -> None:  # type: ignore[no-untyped-def]
    lines = rank({n: f"P{n}" for n in played}, played, ROUNDS, order)
    assert sorted(line.number for line in lines) == sorted(played)
    for line in lines:
        ahead = sum(1 for other in lines if key(other, order) < key(line, order))
        assert line.place == ahead + 1
        assert line.total == sum(r.points for r in line.rounds if r is not None)
    assert [key(line, order) for line in lines] == sorted(key(line, order) for line in lines)


@given(fields, orders)
def test_the_ranking_does_not_depend_on_the_order_of_registration(played, order) -> None:  # type: ignore[no-untyped-def]
    forward = rank({n: f"P{n}" for n in played}, played, ROUNDS, order)
    backward = rank({n: f"P{n}" for n in reversed(list(played))}, dict(reversed(list(played.items()))), ROUNDS, order)
    assert forward == backward


@given(fields)
def test_each_round_star_goes_to_the_best_points_of_its_signed_tables(played) -> None:  # type: ignore[no-untyped-def]
    """Among the signed results only; level players share it; no signed result, no star."""
    lines = rank({n: f"P{n}" for n in played}, played, ROUNDS, [])
    for k in range(ROUNDS):
        signed = {n: r[k].points for n, r in played.items() if r[k] is not None and r[k].final}
        winners = {line.number for line in lines if k + 1 in line.prizes}
        assert winners == {n for n, points in signed.items() if points == max(signed.values())}


def test_no_star_before_a_table_of_the_round_signs_nor_for_a_round_nobody_played() -> None:
    """Round 1: Ana's 180 is provisional, Bia's 120 signed: the star is Bia's until Ana's table
    signs. Round 2 is played but nobody's table is signed; round 3 nobody has played."""
    names = {1: "Ana", 2: "Bia"}
    played = {1: [Played(180, False), Played(150, False)], 2: [Played(120, True), Played(90, False)]}
    lines = {line.name: line for line in rank(names, played, 3, [])}
    assert lines["Bia"].prizes == (1,) and lines["Ana"].prizes == ()
    played[1][0] = Played(180, True)
    lines = {line.name: line for line in rank(names, played, 3, [])}
    assert lines["Ana"].prizes == (1,) and lines["Bia"].prizes == ()


def test_players_level_on_a_round_share_its_star() -> None:
    lines = rank(
        {1: "Ana", 2: "Bia", 3: "Caio"},
        {1: [Played(130, True)], 2: [Played(130, True)], 3: [Played(140, False)]},
        1,
        [],
    )
    assert {line.name for line in lines if line.prizes == (1,)} == {"Ana", "Bia"}


def test_the_tie_breaks_apply_in_the_order_chosen() -> None:
    """Ana and Bia both end on 200. Ana had the better single round (120 to 110) but took a
    re-entry; Bia scored more in the last round."""
    played = {
        1: [Played(120, True, 1), Played(80, True)],
        2: [Played(90, True), Played(110, True)],
        3: [Played(100, True), Played(100, True)],
    }
    names = {1: "Ana", 2: "Bia", 3: "Caio"}
    by_best = rank(names, played, 2, ["best_round"])
    assert [(line.name, line.place) for line in by_best] == [("Ana", 1), ("Bia", 2), ("Caio", 3)]
    by_reentries = rank(names, played, 2, ["fewer_reentries", "best_round"])
    assert [(line.name, line.place) for line in by_reentries] == [("Bia", 1), ("Caio", 2), ("Ana", 3)]
    shared = rank(names, played, 2, [])
    assert [line.place for line in shared] == [1, 1, 1]
    assert by_best[0].prizes == (1,) and by_best[1].prizes == (2,)


def test_a_late_entry_counts_nothing_for_the_rounds_he_missed() -> None:
    lines = rank(
        {1: "Ana", 2: "Jonas"}, {1: [Played(100, True), Played(90, False)], 2: [None, Played(150, False)]}, 2, []
    )
    assert [(line.name, line.total, line.final) for line in lines] == [("Ana", 190, False), ("Jonas", 150, False)]
