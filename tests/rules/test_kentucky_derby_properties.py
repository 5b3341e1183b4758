"""Property tests for the Kentucky Derby (hypothesis): random races dealt from a shuffled deck
under random options, random bets and carried pots.

The race (default judging) and the payout are compared with oracles written here from the rule text, not from the engine; invariants: the deltas sum to minus the net carry, chips
left on the table are never negative, rotating or renaming the seats moves the deltas with the
names, and a record reads back the same after storage.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from referee.rules.cards import Suit
from referee.rules.kentucky_derby import (
    HORSES,
    RANKS,
    DerbyCard,
    DerbyOptions,
    parse_hand,
    replay,
    second_place_in_play,
    settle,
)
from tests.rules import breakdown

NAMES = ("Ana", "Bia", "Caio", "Dani", "Edu", "Fabi", "Gil", "Hugo", "Iris")
DECK = tuple(DerbyCard(rank=r, suit=s) for s in Suit for r in RANKS[1:])

options_st = st.builds(
    DerbyOptions,
    track_length=st.sampled_from([7, 7, 5, 9]),
    own_suit_bonus=st.sampled_from(["forward", "any_card"]),
    finish=st.sampled_from(["round_end", "first_to_line", "most_advanced"]),
    second_place=st.sampled_from(["above_6", "from_6", "never"]),
    second_by=st.sampled_from(["most_advanced", "next_to_cross"]),
    unbacked=st.sampled_from(["carry", "refund"]),
    split=st.sampled_from(["equal", "proportional"]),
)


def full_race(seed: int, options: DerbyOptions, second_place: bool) -> list[dict[str, str]]:
    """Cards from a shuffled deck (the track laid first) until the race is over."""
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    stock = deck[options.track_length :]
    turned: list[DerbyCard] = []
    while not replay(turned, options, second_place=second_place).over:
        turned.append(stock[len(turned)])
    return [c.to_json() for c in turned]


@st.composite
def races(draw: st.DrawFn) -> tuple[tuple[str, ...], DerbyOptions, dict[str, Any]]:
    players = NAMES[: draw(st.integers(3, len(NAMES)))]
    options = draw(options_st)
    in_play = second_place_in_play(len(players), options)
    raw: dict[str, Any] = {
        "dealer": draw(st.sampled_from(players)),
        "pingo": draw(st.integers(0, 3)),
        "bets": {
            p: {"horse": draw(st.sampled_from([h.value for h in HORSES])), "amount": draw(st.integers(1, 5))}
            for p in players
        },
        "carried_in": draw(st.integers(0, 9)),
    }
    if draw(st.booleans()):
        raw["cards"] = full_race(draw(st.integers(0, 10**6)), options, in_play)
    else:
        horses = draw(st.permutations([h.value for h in HORSES]))
        raw["winner"] = horses[0]
        if in_play:
            raw["second"] = horses[1]
    return players, options, raw


# --------------------------------------------------------------------------- oracles


def move(card: DerbyCard, horse: Suit, position: int, o: DerbyOptions) -> int:
    """As a lookup, in half spaces, with KD-1 to KD-3."""
    red = {Suit.COPAS, Suit.OUROS}
    same = (card.suit in red) == (horse in red)
    own = card.suit == horse
    table = {"K": 4, "Q": 3, "J": 2}
    if card.rank == "2":
        if position == 0:
            return 0
        step = (-1 if same else -2) + (1 if own and o.own_suit_bonus == "any_card" else 0)
    elif card.rank in table:
        step = table[card.rank] + own
    elif not same:
        step = 0
    else:
        step = (2 if int(card.rank) >= 7 else 1) + own
    return max(0, position + step) - position


def oracle_winner(cards: list[DerbyCard], o: DerbyOptions) -> tuple[set[Suit], int]:
    """Default: judge after full rounds; crossers run a tie-break among themselves until
    one is strictly ahead after a round. Returns the winners and how many cards it took
    (the cards run out: the furthest ahead among those running)."""
    pos = dict.fromkeys(HORSES, 0)
    it = iter(enumerate(cards))
    line = 2 * o.track_length
    running = list(HORSES)
    tie_break = False
    used = 0
    while True:
        for horse in running:
            nxt = next(it, None)
            if nxt is None:
                top = max(pos[h] for h in running)
                return {h for h in running if pos[h] == top}, used
            used = nxt[0] + 1
            pos[horse] += move(nxt[1], horse, pos[horse], o)
        if tie_break:
            top = max(pos[h] for h in running)
            leaders = [h for h in running if pos[h] == top]
            if len(leaders) == 1:
                return set(leaders), used
            continue
        crossed = [h for h in HORSES if pos[h] >= line]
        if len(crossed) == 1:
            return set(crossed), used
        if crossed:
            running, tie_break = crossed, True


def oracle_deltas(
    players: tuple[str, ...], o: DerbyOptions, raw: dict[str, Any], winners: set[str], second: set[str]
) -> tuple[dict[str, int], int]:
    """The deltas and the chips left on the table."""
    bets = raw["bets"]
    stake = {p: raw["pingo"] + bets[p]["amount"] for p in players}
    pot = sum(stake.values()) + raw["carried_in"]
    got = dict.fromkeys(players, 0)
    for p in players:
        if bets[p]["horse"] in second:
            got[p] = bets[p]["amount"]
    rest = pot - sum(got.values())
    backers = [p for p in players if bets[p]["horse"] in winners]
    if not backers:
        if o.unbacked == "refund":
            return dict.fromkeys(players, 0), raw["carried_in"]
        return {p: got[p] - stake[p] for p in players}, rest
    total = sum(bets[p]["amount"] for p in backers)
    for p in backers:
        got[p] += rest // len(backers) if o.split == "equal" else rest * bets[p]["amount"] // total
    return {p: got[p] - stake[p] for p in players}, pot - sum(got.values())


# --------------------------------------------------------------------------- properties


@given(races())
def test_settlement_matches_the_oracle_and_accounts_for_every_chip(
    case: tuple[tuple[str, ...], DerbyOptions, dict[str, Any]],
) -> None:
    players, options, raw = case
    hand = parse_hand(raw, players=players, options=options, dealer=players[0])
    s = settle(hand, options)
    winners = {h.value for h in hand.winners}
    second = {h.value for h in hand.second}
    deltas, carried_out = oracle_deltas(players, options, raw, winners, second)
    assert dict(s.deltas) == deltas
    assert s.carry == carried_out - raw["carried_in"]
    assert sum(s.deltas.values()) + s.carry == 0
    assert carried_out >= 0
    assert bool(second) == second_place_in_play(len(players), options)
    assert not winners & second


@given(st.integers(0, 10**6), st.sampled_from(["forward", "any_card"]), st.sampled_from([5, 7, 9]))
def test_the_race_matches_the_oracle(seed: int, bonus: str, length: int) -> None:
    options = DerbyOptions(own_suit_bonus=bonus, track_length=length)
    raw = full_race(seed, options, False)
    race = replay(raw, options)
    dealt = [DerbyCard(rank=c["rank"], suit=Suit(c["suit"])) for c in raw]
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    winners, used = oracle_winner(deck[length:], options)
    assert set(race.winners) == winners and len(dealt) == used


@given(races(), st.integers(1, 8))
def test_rotating_the_seats_keeps_each_players_delta(
    case: tuple[tuple[str, ...], DerbyOptions, dict[str, Any]], k: int
) -> None:
    players, options, raw = case
    rotated = players[k % len(players) :] + players[: k % len(players)]
    a = settle(parse_hand(raw, players=players, options=options, dealer=players[0]), options)
    b = settle(parse_hand(raw, players=rotated, options=options, dealer=players[0]), options)
    assert dict(a.deltas) == dict(b.deltas) and a.carry == b.carry


@given(races(), st.permutations(["Zé", "Lia", "Rui", "Tom", "Ivo", "Noa", "Bel", "Cid", "Dora"]))
def test_renaming_players_renames_the_deltas(
    case: tuple[tuple[str, ...], DerbyOptions, dict[str, Any]], new: list[str]
) -> None:
    players, options, raw = case
    name = dict(zip(players, new))
    renamed = {**raw, "dealer": name[raw["dealer"]], "bets": {name[p]: b for p, b in raw["bets"].items()}}
    a = settle(parse_hand(raw, players=players, options=options, dealer=players[0]), options)
    b = settle(
        parse_hand(renamed, players=tuple(name[p] for p in players), options=options, dealer=name[players[0]]), options
    )
    assert dict(b.deltas) == {name[p]: v for p, v in a.deltas.items()}


@given(races())
def test_hand_json_round_trips(case: tuple[tuple[str, ...], DerbyOptions, dict[str, Any]]) -> None:
    players, options, raw = case
    hand = parse_hand(raw, players=players, options=options, dealer=players[0])
    stored = hand.to_json()
    again = parse_hand(stored, players=players, options=options, dealer=players[1])
    assert again == hand and again.to_json() == stored
    assert settle(again, options).deltas == settle(hand, options).deltas


@given(races(), st.integers(0, 10**6))
def test_the_winner_alone_settles_as_the_cards_that_make_it(
    case: tuple[tuple[str, ...], DerbyOptions, dict[str, Any]], seed: int
) -> None:
    """The two accepted shapes of a race (its cards, or only its places) settle the same when
    they name the same places: recording the winner alone loses nothing of the payout."""
    players, options, raw = case
    in_play = second_place_in_play(len(players), options)
    cards = {k: v for k, v in raw.items() if k not in ("winner", "second")}
    cards["cards"] = full_race(seed, options, in_play)
    by_cards = parse_hand(cards, players=players, options=options, dealer=players[0])
    places = {k: v for k, v in cards.items() if k != "cards"}
    places["winner"] = [h.value for h in by_cards.winners]
    if by_cards.second:
        places["second"] = [h.value for h in by_cards.second]
    by_places = parse_hand(places, players=players, options=options, dealer=players[0])
    a, b = settle(by_cards, options), settle(by_places, options)
    assert dict(a.deltas) == dict(b.deltas) and a.carry == b.carry


@given(races())
def test_the_breakdown_adds_up_to_the_pot_and_shares_out_all_of_it(
    case: tuple[tuple[str, ...], DerbyOptions, dict[str, Any]],
) -> None:
    players, options, raw = case
    hand = parse_hand(raw, players=players, options=options, dealer=players[0])
    pot = len(players) * hand.pingo + sum(hand.bets[p].amount for p in players) + hand.carried_in
    assert breakdown.totals(settle(hand, options).lines) == [pot, pot]
