"""Property tests for the patiences (hypothesis): random records and sequences of hands.

Invariants: a patience settles to nothing (every delta 0, no carry, so the sum is zero and
"rotating the seats" of a one-seat table changes nothing); renaming the player renames the
deltas; a record reads back the same after storage; statistics count every hand once, do not
depend on the order of the hands, and add up when two histories are joined.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from referee.rules import cachorro, relogio
from referee.rules.cachorro import CachorroOptions
from referee.rules.patience import PATIENCES, PatienceHand, settle, statistics
from referee.rules.relogio import RelogioOptions

relogio_options = st.builds(RelogioOptions, king_exchange=st.booleans(), sequences_to_win=st.integers(1, 4))
cachorro_options = st.builds(CachorroOptions, second_deal_packets=st.sampled_from([11, 12]))


@st.composite
def clock_records(draw: st.DrawFn) -> tuple[RelogioOptions, dict[str, Any]]:
    options = draw(relogio_options)
    raw: dict[str, Any] = {}
    if draw(st.booleans()):
        real = True
        raw["game"] = "relogio_real"
    else:
        real = False
        if draw(st.booleans()):
            raw["game"] = "relogio"
    if draw(st.booleans()):
        raw["dealer"] = "Ana"
    if real:
        sequences = draw(st.integers(0, 4))
        raw["sequences"] = sequences
        if draw(st.booleans()):
            raw["won"] = sequences >= options.sequences_to_win
    else:
        raw["won"] = draw(st.booleans())
        if options.king_exchange:
            raw["king_exchanges"] = draw(st.sampled_from([0, 1, True, False]))
    return options, raw


@st.composite
def dog_records(draw: st.DrawFn) -> tuple[CachorroOptions, dict[str, Any]]:
    options = draw(cachorro_options)
    won = draw(st.booleans())
    raw: dict[str, Any] = {"won": won}
    if won:
        raw["round"] = draw(st.integers(1, 3))
    if draw(st.booleans()):
        raw["game"] = "cachorro"
    return options, raw


def parsed() -> st.SearchStrategy[PatienceHand]:
    return st.one_of(
        clock_records().map(lambda c: relogio.parse_hand(c[1], players=("Ana",), options=c[0], dealer="Ana")),
        dog_records().map(lambda c: cachorro.parse_hand(c[1], players=("Ana",), options=c[0], dealer="Ana")),
    )


@given(clock_records())
def test_relogio_settles_to_nothing_and_round_trips(case: tuple[RelogioOptions, dict[str, Any]]) -> None:
    options, raw = case
    hand = relogio.parse_hand(raw, players=("Ana",), options=options, dealer="Ana")
    s = relogio.GAME.settle(hand, options)
    assert dict(s.deltas) == {"Ana": 0} and s.carry == 0 and sum(s.deltas.values()) == 0
    assert all(str(line.text).endswith(".") for line in s.lines)
    assert relogio.parse_hand(relogio.GAME.hand_json(hand), players=("Ana",), options=options, dealer="Ana") == hand
    if hand.game == "relogio_real":
        assert hand.won == (raw["sequences"] >= options.sequences_to_win)


@given(dog_records())
def test_cachorro_settles_to_nothing_and_round_trips(case: tuple[CachorroOptions, dict[str, Any]]) -> None:
    options, raw = case
    hand = cachorro.parse_hand(raw, players=("Ana",), options=options, dealer="Ana")
    s = cachorro.GAME.settle(hand, options)
    assert dict(s.deltas) == {"Ana": 0} and s.carry == 0
    assert cachorro.parse_hand(cachorro.GAME.hand_json(hand), players=("Ana",), options=options, dealer="Ana") == hand
    assert (hand.figure is not None) == hand.won


@given(parsed(), st.sampled_from(["Zé", "Lia", "Ana"]))
def test_renaming_the_player_renames_the_deltas(hand: PatienceHand, name: str) -> None:
    renamed = dataclasses.replace(hand, player=name, dealer=name)
    assert dict(settle(renamed).deltas) == {name: 0}
    assert [line.text.params.get("player") for line in settle(renamed).lines][0] == name


@given(st.lists(parsed()), st.randoms())
def test_statistics_count_every_hand_and_ignore_the_order(hands: list[PatienceHand], rnd: Any) -> None:
    stats = statistics(hands)
    assert sum(s.games for s in stats.values()) == len(hands)
    assert sum(s.wins for s in stats.values()) == sum(h.won for h in hands)
    assert list(stats) == [g for g in PATIENCES if g in stats]
    for s in stats.values():
        assert 0 <= s.wins <= s.games and s.win_rate is not None and 0 <= s.win_rate <= 1
        assert sum(s.wins_by_figure.values()) <= s.wins
    shuffled = list(hands)
    rnd.shuffle(shuffled)
    assert statistics(shuffled) == stats


@given(st.lists(parsed()), st.lists(parsed()))
def test_statistics_add_up_when_histories_are_joined(first: list[PatienceHand], second: list[PatienceHand]) -> None:
    a, b, both = statistics(first), statistics(second), statistics(first + second)
    for game in PATIENCES:
        games = sum(s[game].games for s in (a, b) if game in s)
        wins = sum(s[game].wins for s in (a, b) if game in s)
        got = (both[game].games, both[game].wins) if game in both else (0, 0)
        assert got == (games, wins)
