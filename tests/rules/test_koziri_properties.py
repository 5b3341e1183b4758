"""Property tests for Koziri (hypothesis): random records, deals and games.

Invariants: settlements sum to zero (no carry) and the winner never pays; swapping the seat
order or renaming the players moves the deltas with the names; a record reads back the same
after storage. Deals: each player holds half the pack, the hands split the pack, and the
opponent's hand is the mirror image of the dealer's. Games: cards are never lost, the
legal moves are exactly the answers the checker calls legal, and a winner has no cards left.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules.cards import Suit
from referee.rules.koziri import KoziriOptions, parse_hand, settle
from referee.rules.koziri_play import Card, Role, SuitChoice, beats, check_answer, deal, deck_cards
from tests.hypothesis_settings import VERY_SLOW
from tests.rules import breakdown
from tests.rules.koziri_game import Play

NAMES = ("Ana", "Bia")

suit_choices = st.permutations(list(Suit)).map(
    lambda s: SuitChoice(dealer_trump=s[0], dealer_second=s[1], opponent_trump=s[2])
)
options_st = st.builds(
    KoziriOptions,
    deck=st.sampled_from([20, 24, 32]),
    stake=st.integers(0, 50),
    first_lead=st.sampled_from(["opponent", "dealer"]),
    going_out=st.sampled_from(["last_card", "unbeaten"]),
)


@st.composite
def records(draw: st.DrawFn) -> tuple[tuple[str, ...], str, KoziriOptions, dict[str, Any]]:
    seated = tuple(draw(st.permutations(NAMES)))
    dealer = draw(st.sampled_from(seated))
    suits = draw(suit_choices)
    raw: dict[str, Any] = {k: v for k, v in suits.to_json().items() if k != "opponent_second" or draw(st.booleans())}
    raw["winner"] = draw(st.sampled_from(seated))
    if draw(st.booleans()):
        raw["dealer"] = dealer
    return seated, dealer, draw(options_st), raw


def deltas(players: tuple[str, ...], dealer: str, options: KoziriOptions, raw: dict[str, Any]) -> dict[str, int]:
    return dict(settle(parse_hand(raw, players=players, options=options, dealer=dealer), options).deltas)


@given(records())
def test_settlements_sum_to_zero_and_the_winner_is_paid_the_stake(
    case: tuple[tuple[str, ...], str, KoziriOptions, dict[str, Any]],
) -> None:
    players, dealer, options, raw = case
    s = settle(parse_hand(raw, players=players, options=options, dealer=dealer), options)
    assert sum(s.deltas.values()) == 0 and s.carry == 0
    assert s.deltas[raw["winner"]] == options.stake
    assert all(str(line.text).endswith(".") for line in s.lines)


@given(records())
def test_swapping_the_seats_changes_nothing(case: tuple[tuple[str, ...], str, KoziriOptions, dict[str, Any]]) -> None:
    """The list is circular: with two players, starting it at the other seat is the same table."""
    players, dealer, options, raw = case
    assert deltas(players[::-1], dealer, options, raw) == deltas(players, dealer, options, raw)


@given(records(), st.permutations(["Zé", "Lia"]))
def test_renaming_the_players_renames_the_deltas(
    case: tuple[tuple[str, ...], str, KoziriOptions, dict[str, Any]], new: list[str]
) -> None:
    players, dealer, options, raw = case
    name = dict(zip(players, new))
    renamed = {k: name.get(v, v) if k in ("dealer", "winner") else v for k, v in raw.items()}
    got = deltas(tuple(name[p] for p in players), name[dealer], options, renamed)
    assert got == {name[p]: v for p, v in deltas(players, dealer, options, raw).items()}


@given(records())
def test_the_other_winner_reverses_the_deltas(case: tuple[tuple[str, ...], str, KoziriOptions, dict[str, Any]]) -> None:
    players, dealer, options, raw = case
    other = {**raw, "winner": next(p for p in players if p != raw["winner"])}
    assert deltas(players, dealer, options, other) == {p: -v for p, v in deltas(players, dealer, options, raw).items()}


@given(records())
def test_the_record_reads_back_the_same(case: tuple[tuple[str, ...], str, KoziriOptions, dict[str, Any]]) -> None:
    players, dealer, options, raw = case
    hand = parse_hand(raw, players=players, options=options, dealer=dealer)
    stored = hand.to_json()
    assert stored["dealer"] == dealer and "opponent_second" in stored
    assert parse_hand(stored, players=players, options=options, dealer=players[0]) == hand


# --------------------------------------------------------------------------- deals


@st.composite
def deals(draw: st.DrawFn) -> tuple[int, SuitChoice, list[Card]]:
    deck = draw(st.sampled_from([20, 24, 32]))
    suits = draw(suit_choices)
    own = [c for c in deck_cards(deck) if c.suit in suits.suits(Role.DEALER)]
    turned = draw(st.lists(st.sampled_from(own), unique=True, max_size=deck // 2))
    return deck, suits, turned


@given(deals())
def test_a_deal_splits_the_pack_into_mirror_halves(case: tuple[int, SuitChoice, list[Card]]) -> None:
    deck, suits, turned = case
    d = deal(deck=deck, suits=suits, turned_up=turned)
    dealer, opponent = set(d.dealer_hand), set(d.opponent_hand)
    assert len(d.dealer_hand) == len(d.opponent_hand) == deck // 2
    assert dealer | opponent == set(deck_cards(deck)) and not dealer & opponent
    assert set(d.kept) == set(turned) and len(d.kept) == len(turned)
    assert opponent == {Card(rank=c.rank, suit=suits.mirror(c.suit)) for c in dealer}
    assert d.dealer_hand[: len(turned)] == d.kept  # his own suits first, trump first


# --------------------------------------------------------------------------- games


@settings(VERY_SLOW)
@given(
    deals(), st.sampled_from(["last_card", "unbeaten"]), st.sampled_from(list(Role)), st.randoms(use_true_random=False)
)
def test_random_games_keep_every_card_and_agree_with_the_checker(
    case: tuple[int, SuitChoice, list[Card]], going_out: str, leader: Role, rnd: Any
) -> None:
    deck, suits, turned = case
    p = Play(deal(deck=deck, suits=suits, turned_up=turned), leader=leader, going_out=going_out)
    everything = set(deck_cards(deck))
    for _ in range(300):
        moves = p.legal_moves()
        if not moves:
            break
        role, top, hand = p.turn, p.top, set(p.hands[p.turn])
        if top is not None:
            for c in hand:
                verdict = check_answer(
                    top=top, answer=c, trump=suits.trump(role), other_trump=suits.trump(role.other), who="X", hand=hand
                )
                assert verdict.legal == (c in moves) == beats(c, top, trump=suits.trump(role))
            take = check_answer(
                top=top, answer=None, trump=suits.trump(role), other_trump=suits.trump(role.other), who="X", hand=hand
            )
            assert take.legal and take.compulsory == (moves == [None])
        else:
            assert None not in moves and set(moves) == hand
        p.play(rnd.choice(moves))
        held = p.hands[Role.DEALER] | p.hands[Role.OPPONENT]
        pile = [c for _, c in p.pile]
        assert len(held) + len(pile) == deck and held | set(pile) == everything
    if p.winner is not None:
        assert not p.hands[p.winner]
        if going_out == "unbeaten":
            assert p.pile == [] and p.turn is p.winner


@given(records())
def test_the_breakdown_shows_the_stake_once(case: tuple[tuple[str, ...], str, KoziriOptions, dict[str, Any]]) -> None:
    players, dealer, options, raw = case
    s = settle(parse_hand(raw, players=players, options=options, dealer=dealer), options)
    assert breakdown.last_figure(s.lines) == options.stake
