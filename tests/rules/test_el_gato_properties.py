"""Property tests for El Gato (hypothesis): zero-sum settlements, seats that rotate and rename
with the deltas, and records that read back the same after storage."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from referee.rules.el_gato import PLAYER_COUNTS, ElGatoOptions, parse_hand, settle
from tests.rules import breakdown

NAMES = tuple(f"N{i}" for i in range(10))
Case = tuple[tuple[str, ...], str, ElGatoOptions, dict[str, Any]]


@st.composite
def records(draw: st.DrawFn) -> Case:
    n = draw(st.sampled_from(PLAYER_COUNTS))
    seated = tuple(draw(st.permutations(NAMES[:n])))
    dealer = draw(st.sampled_from(seated))
    loser = draw(st.sampled_from(seated))
    raw: dict[str, Any] = {"loser": loser}
    if draw(st.booleans()):
        raw["dealer"] = dealer
    if draw(st.booleans()):
        out = draw(st.permutations([p for p in seated if p != loser]))
        cuts = sorted(draw(st.sets(st.integers(1, max(1, len(out) - 1))))) if len(out) > 1 else []
        raw["out_order"] = [list(out[a:b]) for a, b in zip([0, *cuts], [*cuts, len(out)])]
    options = ElGatoOptions(
        stake=draw(st.integers(0, 20)),
        ranks=draw(st.sampled_from(["sota_high", "ace_high"])),
        war=draw(st.sampled_from(["highest_only", "any_tie"])),
    )
    return seated, dealer, options, raw


def deltas(players: tuple[str, ...], dealer: str, options: ElGatoOptions, raw: dict[str, Any]) -> dict[str, int]:
    return dict(settle(parse_hand(raw, players=players, options=options, dealer=dealer), options).deltas)


@given(records())
def test_settlements_sum_to_zero_and_only_the_loser_pays(case: Case) -> None:
    players, dealer, options, raw = case
    s = settle(parse_hand(raw, players=players, options=options, dealer=dealer), options)
    assert sum(s.deltas.values()) == 0 and s.carry == 0
    assert s.deltas[raw["loser"]] == -options.stake * (len(players) - 1)
    assert all(s.deltas[p] == options.stake for p in players if p != raw["loser"])


@given(records(), st.integers(1, 9))
def test_rotating_the_seats_rotates_the_deltas(case: Case, k: int) -> None:
    players, dealer, options, raw = case
    k %= len(players)
    assert deltas(players[k:] + players[:k], dealer, options, raw) == deltas(players, dealer, options, raw)


@given(records(), st.permutations([f"R{i}" for i in range(10)]))
def test_renaming_the_players_renames_the_deltas(case: Case, new: list[str]) -> None:
    players, dealer, options, raw = case
    name = dict(zip(players, new))

    def rename(value: Any) -> Any:
        return name[value] if isinstance(value, str) else [rename(v) for v in value]

    renamed = {k: rename(v) for k, v in raw.items()}
    got = deltas(tuple(name[p] for p in players), name[dealer], options, renamed)
    assert got == {name[p]: v for p, v in deltas(players, dealer, options, raw).items()}


@given(records())
def test_the_record_round_trips(case: Case) -> None:
    players, dealer, options, raw = case
    hand = parse_hand(raw, players=players, options=options, dealer=dealer)
    stored = hand.to_json()
    again = parse_hand(stored, players=players, options=options, dealer=players[0])
    assert again == hand and again.to_json() == stored


@given(records())
def test_the_breakdown_shows_the_stake_once(case: Case) -> None:
    players, dealer, options, raw = case
    s = settle(parse_hand(raw, players=players, options=options, dealer=dealer), options)
    assert breakdown.last_figure(s.lines) == options.stake
