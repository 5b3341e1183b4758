"""Property tests for Lift Smoke (hypothesis): random tables, winners and orders of going out.

Invariants: deltas sum to ``-carry`` (0 unless chips were carried in), the winner gains
(n − 1) × ante + carried_in and everyone else loses the ante; rotating or renaming the seats
moves the deltas with the names; a record reads back the same after storage.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from referee.rules.lift_smoke import LiftSmokeOptions, parse_hand, settle
from tests.rules import breakdown

NAMES = ("Ana", "Bia", "Caio", "Dani", "Eva", "Fábio")
Case = tuple[tuple[str, ...], str, LiftSmokeOptions, dict[str, Any]]


@st.composite
def records(draw: st.DrawFn) -> Case:
    n = draw(st.integers(4, 6))
    seated = tuple(draw(st.permutations(NAMES[:n])))
    dealer = draw(st.sampled_from(seated))
    winner = draw(st.sampled_from(seated))
    raw: dict[str, Any] = {"winner": winner}
    if draw(st.booleans()):
        raw["dealer"] = dealer
    if draw(st.booleans()):
        raw["ante"] = draw(st.integers(0, 20))
    if draw(st.booleans()):
        raw["carried_in"] = draw(st.integers(0, 30))
    if draw(st.booleans()):
        losers = draw(st.permutations([p for p in seated if p != winner]))
        cuts = sorted(draw(st.sets(st.integers(1, len(losers) - 1))))
        groups = [list(losers[a:b]) for a, b in zip([0, *cuts], [*cuts, len(losers)])]
        if draw(st.booleans()):
            groups[-1].append(winner)  # LS-2, or the winner closing the order alone
        elif draw(st.booleans()):
            groups.append([winner])
        raw["out_order"] = [g[0] if len(g) == 1 and draw(st.booleans()) else g for g in groups]
    options = LiftSmokeOptions(ante=draw(st.integers(0, 20)))
    return seated, dealer, options, raw


def deltas(players: tuple[str, ...], dealer: str, options: LiftSmokeOptions, raw: dict[str, Any]) -> dict[str, int]:
    return dict(settle(parse_hand(raw, players=players, options=options, dealer=dealer), options).deltas)


@given(records())
def test_settlements_account_for_every_chip(case: Case) -> None:
    players, dealer, options, raw = case
    hand = parse_hand(raw, players=players, options=options, dealer=dealer)
    s = settle(hand, options)
    assert sum(s.deltas.values()) + s.carry == 0
    assert s.carry == -hand.carried_in
    n = len(players)
    assert s.deltas[hand.winner] == (n - 1) * hand.ante + hand.carried_in
    assert all(s.deltas[p] == -hand.ante for p in players if p != hand.winner)
    assert all(str(line.text).endswith(".") for line in s.lines if not line.total)


@given(records(), st.integers(1, 5))
def test_rotating_the_seats_rotates_the_deltas(case: Case, k: int) -> None:
    players, dealer, options, raw = case
    rotated = players[k % len(players) :] + players[: k % len(players)]
    assert deltas(rotated, dealer, options, raw) == deltas(players, dealer, options, raw)


@given(records(), st.permutations(["Zé", "Lia", "Rui", "Tom", "Ivo", "Bel"]))
def test_renaming_the_players_renames_the_deltas(case: Case, new: list[str]) -> None:
    players, dealer, options, raw = case
    name = dict(zip(players, new))

    def rename(value: Any) -> Any:
        if isinstance(value, str):
            return name[value]
        return [rename(v) for v in value]

    renamed = {k: rename(v) if k in ("dealer", "winner", "out_order") else v for k, v in raw.items()}
    got = deltas(tuple(name[p] for p in players), name[dealer], options, renamed)
    assert got == {name[p]: v for p, v in deltas(players, dealer, options, raw).items()}


@given(records())
def test_the_record_round_trips(case: Case) -> None:
    players, dealer, options, raw = case
    hand = parse_hand(raw, players=players, options=options, dealer=dealer)
    stored = hand.to_json()
    again = parse_hand(stored, players=players, options=LiftSmokeOptions(ante=99), dealer=players[0])
    assert again == hand and again.to_json() == stored


@given(records())
def test_the_breakdown_adds_up_to_the_pot_and_then_to_the_winners_gain(case: Case) -> None:
    players, dealer, options, raw = case
    hand = parse_hand(raw, players=players, options=options, dealer=dealer)
    s = settle(hand, options)
    pot = len(players) * hand.ante + hand.carried_in
    assert breakdown.totals(s.lines) == [pot, s.deltas[hand.winner]]
