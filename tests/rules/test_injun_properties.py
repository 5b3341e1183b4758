"""Property tests for Injun (hypothesis): random legal hands of both systems, played through
the betting state machine, under random options.

The settlement is compared with an oracle written here from the rule text (not from the
engine). Invariants: the deltas sum to minus the net carry and every chip is accounted for;
renaming the seats by a rotation rotates the deltas, and rotating the list of seats changes
nothing; a record reads back the same after storage; the page's legal actions are exactly the
actions the referee accepts; a winner never loses more than he put in.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules.injun import (
    GAME,
    RANKS,
    Action,
    Betting,
    InjunOptions,
    Kind,
    System,
    parse_hand,
    settle,
)
from tests.hypothesis_settings import SLOW
from tests.rules import breakdown

NAMES = tuple(f"P{i:02d}" for i in range(15))

options_st = st.builds(
    InjunOptions,
    system=st.sampled_from(["poker", "brag"]),
    ante=st.integers(0, 3),
    poker_amounts=st.sampled_from(["literal", "match_highest"]),
    odd_chip=st.sampled_from(["carry", "dealer_left"]),
    surrender_closed=st.sampled_from(["compare", "survivor_takes_all"]),
)


def _draw_action(data: st.DataObject, betting: Betting, step: int) -> Action:
    """A random legal action; after many steps the betting is steered to an end."""
    legal = betting.legal_actions()
    choices: list[Action] = [Action(kind=Kind.DROP)]
    if betting.system is System.BRAG:
        if legal.see:
            choices += [Action(kind=Kind.SEE, amount=2)] * 2
        if step < 40:
            choices += [Action.bet(1)] * 3
            if legal.close:
                choices.append(Action(kind=Kind.CLOSE))
    else:
        if legal.call is not None:
            choices += [Action.bet(legal.call)] * (3 if step > 10 else 1)
        if legal.raise_from is not None and step < 30:
            choices += [Action.bet(legal.raise_from + data.draw(st.integers(0, 6)))] * 2
    return data.draw(st.sampled_from(choices))


@st.composite
def hands(draw: st.DrawFn) -> tuple[tuple[str, ...], InjunOptions, dict[str, Any]]:
    count = draw(st.sampled_from([2, 2, 3, 4, 5, 6, 9, 15]))
    players = NAMES[:count]
    options = draw(options_st)
    dealer = draw(st.sampled_from(players))
    system = System(draw(st.sampled_from(["poker", "brag", None])) or options.system)
    ante = draw(st.integers(0, 4))
    carried_in = draw(st.sampled_from([0, 0, 1, 2, 7]))
    betting = Betting(
        players=players,
        dealer=dealer,
        system=system,
        ante=ante,
        carried_in=carried_in,
        match_highest=options.poker_amounts == "match_highest",
    )
    data = draw(st.data())
    step = 0
    while betting.turn is not None:
        player = betting.turn
        betting.act(player, _draw_action(data, betting, step))
        step += 1
    shown = sorted(
        {p for hp in betting.result(surrender_closed=options.surrender_closed) if hp.contested for p in hp.contenders},
        key=players.index,
    )
    deck = [rank for rank in RANKS for _ in range(4)]
    random.Random(draw(st.integers(0, 2**32))).shuffle(deck)
    # Few distinct ranks make ties likely.
    if draw(st.booleans()):
        deck = sorted(deck, key=lambda r: (RANKS.index(r) % 3, r))
    raw: dict[str, Any] = {
        "dealer": dealer,
        "system": system.value,
        "ante": ante,
        "actions": [[p, a.to_json(system)] for p, a in betting.actions],
    }
    if shown:
        raw["cards"] = dict(zip(shown, deck))
    if carried_in:
        raw["carried_in"] = carried_in
    return players, options, raw


def oracle(players: tuple[str, ...], o: InjunOptions, raw: dict[str, Any]) -> tuple[dict[str, int], int]:
    """The rule text with the readings of, replayed independently: (deltas, chips left)."""
    dealer = raw["dealer"]
    order = players[players.index(dealer) + 1 :] + players[: players.index(dealer) + 1]
    paid = dict.fromkeys(players, raw["ante"])
    pots: list[dict[str, Any]] = [{"chips": raw.get("carried_in", 0) + raw["ante"] * len(players), "closer": None}]
    out: set[str] = set()
    closers: list[str] = []
    last_action = None
    for player, action in raw["actions"]:
        chips = action["bet"] if isinstance(action, dict) else {"bet": 1, "see": 2}.get(action, 0)
        paid[player] += chips
        pots[-1]["chips"] += chips
        if action == "drop":
            out.add(player)
        if action == "close":
            pots[-1]["closer"] = player
            closers.append(player)
            pots.append({"chips": 0, "closer": None})
        last_action = action
    still = [p for p in order if p not in out and p not in closers]
    cards = raw.get("cards", {})
    won = dict.fromkeys(players, 0)
    left = 0
    surrendered = last_action == "drop" and len(still) == 1
    for k, pot in enumerate(pots):
        later = closers[k:] if not (surrendered and o.surrender_closed == "survivor_takes_all") else []
        claim = [p for p in order if p in still or p in later]
        if len(claim) > 1:
            best = max(RANKS.index(cards[p]) for p in claim)
            claim = [p for p in claim if RANKS.index(cards[p]) == best]
        each, odd = divmod(pot["chips"], len(claim))
        for i, p in enumerate(claim):
            won[p] += each + (1 if o.odd_chip == "dealer_left" and i < odd else 0)
        if o.odd_chip == "carry":
            left += odd
    return {p: won[p] - paid[p] for p in players}, left


@given(hands())
def test_settlement_matches_the_oracle_and_accounts_for_every_chip(
    case: tuple[tuple[str, ...], InjunOptions, dict[str, Any]],
) -> None:
    players, options, raw = case
    hand = parse_hand(raw, players=players, options=options, dealer=players[0])
    result = settle(hand, options)
    expected, left = oracle(players, options, raw)
    assert dict(result.deltas) == expected
    assert result.carried_out == left and result.carried_in == raw.get("carried_in", 0)
    assert sum(result.deltas.values()) + result.carry == 0
    assert (
        sum(hand.paid.values()) + hand.carried_in
        == sum(max(0, result.deltas[p] + hand.paid[p]) for p in players) + left
    )
    for p in players:
        assert result.deltas[p] >= -hand.paid[p]
    for payment in result.payments:
        assert result.deltas[payment.payer] < 0 < result.deltas[payment.payee]


@given(hands())
def test_a_record_reads_back_the_same(case: tuple[tuple[str, ...], InjunOptions, dict[str, Any]]) -> None:
    players, options, raw = case
    hand = parse_hand(raw, players=players, options=options, dealer=players[0])
    stored = GAME.hand_json(hand)
    again = parse_hand(stored, players=players, options=options, dealer=players[0])
    assert again == hand and GAME.hand_json(again) == stored
    assert settle(again, options) == settle(hand, options)


@given(hands(), st.integers(1, 14))
def test_renaming_the_seats_by_a_rotation_rotates_the_deltas(
    case: tuple[tuple[str, ...], InjunOptions, dict[str, Any]], shift: int
) -> None:
    players, options, raw = case
    n = len(players)
    rename = {p: players[(i + shift) % n] for i, p in enumerate(players)}
    moved: dict[str, Any] = {
        **raw,
        "dealer": rename[raw["dealer"]],
        "actions": [[rename[p], a] for p, a in raw["actions"]],
    }
    if "cards" in raw:
        moved["cards"] = {rename[p]: r for p, r in raw["cards"].items()}
    before = settle(parse_hand(raw, players=players, options=options, dealer=players[0]), options)
    after = settle(parse_hand(moved, players=players, options=options, dealer=players[0]), options)
    assert {rename[p]: d for p, d in before.deltas.items()} == dict(after.deltas)
    assert after.carry == before.carry
    # The same seats listed from another starting point: nothing changes.
    turned = players[shift % n :] + players[: shift % n]
    again = settle(parse_hand(raw, players=turned, options=options, dealer=turned[0]), options)
    assert dict(again.deltas) == dict(before.deltas)


@settings(SLOW)
@given(hands(), st.data())
def test_the_legal_actions_are_exactly_what_the_referee_accepts(
    case: tuple[tuple[str, ...], InjunOptions, dict[str, Any]], data: st.DataObject
) -> None:
    """At every prefix of a random hand, the page's offer and ``can`` agree, for every player."""
    players, options, raw = case
    system = System(raw["system"])
    betting = Betting(
        players=players,
        dealer=raw["dealer"],
        system=system,
        ante=raw["ante"],
        match_highest=options.poker_amounts == "match_highest",
    )
    for player, action in raw["actions"]:
        legal = betting.legal_actions()
        assert legal.player == betting.turn
        probes = [Action(kind=Kind.DROP), Action(kind=Kind.SEE, amount=2), Action(kind=Kind.CLOSE)]
        probes += [Action.bet(n) for n in range(1, 12)] + [Action.bet(data.draw(st.integers(1, 200)))]
        for probe in probes:
            assert legal.allows(probe) == betting.can(betting.turn or "", probe), (legal, probe)
            for other in players:
                if other != betting.turn:
                    assert not betting.can(other, probe)
        betting.act(
            player,
            Action.bet(1)
            if action == "bet"
            else Action.bet(action["bet"])
            if isinstance(action, dict)
            else {
                "drop": Action(kind=Kind.DROP),
                "see": Action(kind=Kind.SEE, amount=2),
                "close": Action(kind=Kind.CLOSE),
            }[action],
        )
    assert betting.over and betting.legal_actions().player is None


@given(hands())
def test_the_breakdown_adds_up_to_the_chips_in_the_pots(
    case: tuple[tuple[str, ...], InjunOptions, dict[str, Any]],
) -> None:
    players, options, raw = case
    hand = parse_hand(raw, players=players, options=options, dealer=players[0])
    chips = sum(hand.paid.values()) + hand.carried_in
    assert (breakdown.totals(settle(hand, options).lines) or [0])[0] == chips
