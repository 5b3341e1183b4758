"""Kentucky Derby: the movement table and the race replayed card by card (KD-1 to KD-6 and KD-9)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.rules.cards import Suit
from referee.rules.errors import InconsistentHand, InvalidInput, RulesError
from referee.rules.kentucky_derby import (
    HORSES,
    RANKS,
    DerbyCard,
    DerbyOptions,
    Stage,
    advance,
    movement,
    replay,
    second_place_in_play,
)

SYMBOLS = {"♥": "copas", "♦": "ouros", "♠": "espadas", "♣": "paus"}
DEFAULT = DerbyOptions()
C, O, E, P = Suit.COPAS, Suit.OUROS, Suit.ESPADAS, Suit.PAUS


def card(text: str) -> dict[str, str]:
    """ "K♥" -> {"rank": "K", "suit": "copas"}."""
    return {"rank": text[:-1], "suit": SYMBOLS[text[-1]]}


def cards(*texts: str) -> list[dict[str, str]]:
    return [card(t) for t in " ".join(texts).split()]


def dc(text: str) -> DerbyCard:
    return DerbyCard(rank=text[:-1], suit=Suit(SYMBOLS[text[-1]]))


def halves(race: Any) -> dict[str, int]:
    return {h.value: race.positions[h] for h in HORSES}


# Copas runs K, Q, J, 10 of its own suit (5 + 4 + 3 + 3 = 15 half spaces); the others only get
# cards of the other colour, which do not move them. Copas crosses alone in round 4.
SOLO = ("K♥ 3♠ 3♦ 3♥", "Q♥ 4♠ 4♦ 4♥", "J♥ 5♠ 5♦ 5♥", "10♥ 6♠ 6♦ 6♥")
# Copas and paus both reach 15 in round 4: a tie-break between them.
BOTH = ("K♥ 3♠ 3♦ 3♥", "Q♥ 4♠ 4♦ 4♥", "J♥ 5♠ 5♦ 5♥", "10♥ 6♠ 6♦ 10♣")
BOTH_PAUS = ("K♥ 3♠ 3♦ K♣", "Q♥ 4♠ 4♦ Q♣", "J♥ 5♠ 5♦ J♣", "10♥ 6♠ 6♦ 10♣")


# --------------------------------------------------------------------------- the movement table


@pytest.mark.parametrize(
    ("text", "horse", "expected"),
    [
        # worked examples
        ("K♥", C, 5),  # K♥ on the ♥ ace: 2 + 0.5 = 2.5 spaces
        ("9♠", E, 3),  # 9♠ on the ♠ ace: 1 + 0.5
        ("9♣", E, 2),  # 9♣ on the ♠ ace: 1
        # the table row by row
        ("K♣", C, 4),
        ("Q♠", O, 3),
        ("Q♦", O, 4),
        ("J♣", O, 2),
        ("J♦", O, 3),
        ("7♦", C, 2),
        ("10♦", C, 2),
        ("10♥", C, 3),
        ("3♦", C, 1),
        ("6♥", C, 2),
        ("6♣", E, 1),
        ("2♦", C, -1),  # 2 of the same colour
        ("2♣", C, -2),  # 2 of the other colour
        ("2♥", C, -1),  # default: a Two of the own suit still goes back half a space
        # KD-1: 3 to 10 of the other colour do not move the horse
        ("7♠", C, 0),
        ("10♣", O, 0),
        ("3♥", P, 0),
        ("6♦", E, 0),
    ],
)
def test_movement_table(text: str, horse: Suit, expected: int) -> None:
    assert movement(dc(text), horse, DEFAULT) == expected


def test_kd2_any_card_bonus_makes_the_own_two_neutral() -> None:
    options = DerbyOptions(own_suit_bonus="any_card")
    assert movement(dc("2♥"), C, options) == 0
    assert movement(dc("2♦"), C, options) == -1
    assert movement(dc("K♥"), C, options) == 5


def test_a_two_on_the_start_line_does_not_move_and_backward_moves_stop_at_the_start() -> None:
    assert advance(0, dc("2♣"), C, DEFAULT) == 0
    assert advance(0, dc("2♦"), C, DEFAULT) == 0
    assert advance(1, dc("2♣"), C, DEFAULT) == 0  # at 0.5 a Two of the other colour takes it to 0
    assert advance(1, dc("2♦"), C, DEFAULT) == 0
    assert advance(6, dc("2♣"), C, DEFAULT) == 4


def test_every_card_moves_between_minus_two_and_five() -> None:
    for suit in Suit:
        for rank in RANKS[1:]:
            for horse in HORSES:
                assert -2 <= movement(DerbyCard(rank=rank, suit=suit), horse, DEFAULT) <= 5


# --------------------------------------------------------------------------- the race


def test_cards_go_to_the_horses_in_turn_and_positions_follow() -> None:
    race = replay(cards("K♥ 9♠ 9♣ 2♦"), DEFAULT)
    assert [s.horse for s in race.steps] == [C, O, E, P]
    assert [s.move for s in race.steps] == [5, 0, 2, 0]  # 9♠ is the other colour for ouros; 2♦ at the start
    assert halves(race) == {"copas": 5, "ouros": 0, "espadas": 2, "paus": 0}
    assert race.steps[2].positions[E] == 2 and race.steps[0].positions[E] == 0
    assert not race.over and race.expecting is C and race.stage is Stage.RACE
    assert race.stock_left == 41 - 4 and race.finish_line == 14


def test_an_empty_race_expects_copas() -> None:
    race = replay([], DEFAULT)
    assert race.expecting is C and race.runners == HORSES and not race.steps and not race.winners


def test_one_horse_crossing_at_the_end_of_a_round_wins() -> None:
    race = replay(cards(*SOLO), DEFAULT)
    assert race.over and race.winners == (C,) and race.second == ()
    assert halves(race)["copas"] == 15
    assert race.expecting is None and race.stage is None
    assert "wins the race" in str(race.notes[-1].text) and race.notes[-1].after == 15


def test_the_round_is_finished_before_judging() -> None:
    """Copas is past the line after card 13, but the race is judged after paus's card."""
    race = replay(cards(*SOLO)[:13], DEFAULT)
    assert race.positions[C] == 15 and not race.over and race.expecting is O


def test_two_crossing_in_the_same_round_run_a_tie_break() -> None:
    race = replay(cards(*BOTH_PAUS), DEFAULT)
    assert not race.over and race.stage is Stage.TIE_BREAK and race.runners == (C, P) and race.expecting is C
    assert "level for first place" in str(race.notes[-1].text)
    won = replay(cards(*BOTH_PAUS, "9♥ 9♠"), DEFAULT)  # copas 18, paus 17 (9♠: same colour, not own suit)
    assert won.over and won.winners == (C,)
    assert [s.stage for s in won.steps[-2:]] == [Stage.TIE_BREAK, Stage.TIE_BREAK]


def test_a_tie_break_repeats_while_level_even_past_the_line() -> None:
    """The rule text: more cards "mesmo que isso ocorra após a linha de chegada"."""
    level = replay(cards(*BOTH_PAUS, "7♦ 7♠"), DEFAULT)  # both +1 space: 17 and 17
    assert not level.over and level.expecting is C
    race = replay(cards(*BOTH_PAUS, "7♦ 7♠", "2♣ 8♠"), DEFAULT)  # copas back to 15, paus 19
    assert race.over and race.winners == (P,)
    assert halves(race)["paus"] == 19


def test_a_horse_that_falls_behind_stays_in_the_tie_break() -> None:
    three = ("K♥ K♦ 3♥ K♣", "Q♥ Q♦ 4♥ Q♣", "J♥ J♦ 5♥ J♣", "10♥ 10♦ 6♥ 10♣")  # three at 15
    race = replay(cards(*three, "9♥ 9♦ 2♠"), DEFAULT)  # 18, 18, 14: copas and ouros lead
    assert not race.over and race.runners == (C, O, P)
    race = replay(cards(*three, "9♥ 9♦ 2♠", "2♥ 2♦ K♠"), DEFAULT)  # 17, 17, 18
    assert race.over and race.winners == (P,)


def test_kd4_alternative_a_first_to_the_line_wins_at_once() -> None:
    options = DerbyOptions(finish="first_to_line")
    race = replay(cards(*BOTH_PAUS)[:13], options)
    assert race.over and race.winners == (C,)
    with pytest.raises(InconsistentHand) as info:
        replay(cards(*BOTH_PAUS), options)
    assert info.value.field == "cards[13]" and "already decided" in str(info.value)


def test_kd4_alternative_b_the_furthest_ahead_wins_at_the_end_of_the_round() -> None:
    ahead = ("K♥ 3♠ 3♦ K♣", "Q♥ 4♠ 4♦ Q♣", "J♥ 5♠ 5♦ J♣", "10♥ 6♠ 6♦ K♠")  # copas 15, paus 16
    assert replay(cards(*ahead), DerbyOptions(finish="most_advanced")).winners == (P,)
    default = replay(cards(*ahead), DEFAULT)
    assert not default.over and default.stage is Stage.TIE_BREAK
    level = replay(cards(*BOTH_PAUS), DerbyOptions(finish="most_advanced"))
    assert not level.over and level.runners == (C, P)


# --------------------------------------------------------------------------- second place


def test_second_place_is_played_with_more_than_six_players() -> None:
    assert [second_place_in_play(n, DEFAULT) for n in (3, 5, 6, 7, 12)] == [False, False, False, True, True]
    assert second_place_in_play(6, DerbyOptions(second_place="from_6"))  # alternative
    assert not second_place_in_play(9, DerbyOptions(second_place="never"))


def test_kd6_second_is_the_furthest_ahead_when_the_winner_is_decided() -> None:
    race = replay(cards(*BOTH_PAUS, "9♥ 9♠"), DEFAULT, second_place=True)
    assert race.over and race.winners == (C,) and race.second == (P,)


def test_kd6_level_horses_for_second_run_a_tie_break() -> None:
    race = replay(cards(*SOLO), DEFAULT, second_place=True)
    assert not race.over and race.winners == (C,) and race.stage is Stage.SECOND_TIE_BREAK
    assert race.runners == (O, E, P) and race.expecting is O
    race = replay(cards(*SOLO, "7♦ 7♠ 8♣", "K♦ 8♠ 9♣"), DEFAULT, second_place=True)  # 3,3,3 then 8,6,6
    assert race.over and race.second == (O,)


def test_kd6_alternative_deals_on_until_another_horse_crosses() -> None:
    options = DerbyOptions(second_by="next_to_cross")
    race = replay(cards(*SOLO), options, second_place=True)
    assert not race.over and race.stage is Stage.SECOND and race.runners == (O, E, P)
    on = ("K♦ 7♠ 7♣", "Q♦ 8♠ 8♣", "J♦ 9♠ 9♣", "10♦ 10♠ 10♣")  # ouros 5+4+3+3 = 15, the others 12
    race = replay(cards(*SOLO, *on), options, second_place=True)
    assert race.over and race.second == (O,)
    assert race.steps[-1].stage is Stage.SECOND


def test_kd9_when_the_cards_run_out_the_furthest_ahead_win_and_level_horses_share() -> None:
    options = DerbyOptions(track_length=20)  # 40 half spaces: nobody can get there in 28 cards
    deck = [DerbyCard(rank=r, suit=s) for s in Suit for r in RANKS[1:]]
    for seed in range(50):
        random.Random(seed).shuffle(deck)
        stock = deck[:28]
        race = replay(stock, options, second_place=True)
        assert race.over and race.stock_left == 0
        top = max(race.positions.values())
        assert race.winners == tuple(h for h in HORSES if race.positions[h] == top)
        rest = [h for h in HORSES if h not in race.winners]
        second_top = max(race.positions[h] for h in rest)
        assert race.second == tuple(h for h in rest if race.positions[h] == second_top)
        assert any("ran out" in str(note.text) for note in race.notes)
        with pytest.raises(RulesError):
            replay(deck[:29], options)


def test_a_tie_at_the_top_when_the_cards_run_out_shares_first_place() -> None:
    options = DerbyOptions(track_length=20)
    # Copas and ouros each get a K of their colour every round, the blacks nothing.
    texts = []
    reds = iter(["K♥ K♦", "Q♥ Q♦", "J♥ J♦", "10♥ 10♦", "9♥ 9♦", "8♥ 8♦", "7♥ 7♦"])
    blacks = iter(["3♥ 3♦", "4♥ 4♦", "5♥ 5♦", "6♥ 6♦", "3♠ 3♣", "4♣ 4♠", "2♠ 2♣"])
    for red, black in zip(reds, blacks):
        texts.append(f"{red} {black}")
    race = replay(cards(*texts), options)
    assert race.over and race.winners == (C, O) and race.positions[C] == race.positions[O]
    assert "share first place" in str(race.notes[-1].text)


# --------------------------------------------------------------------------- the cards


@pytest.mark.parametrize(
    ("raw", "kind", "field", "words"),
    [
        ([card("A♥")], InconsistentHand, "cards[0]", ["aces are the horses"]),
        (cards("K♥ 3♠") + [card("K♥")], InconsistentHand, "cards[2]", ["already turned", "card 1"]),
        (
            cards("K♥") + [{**card("3♠"), "horse": "espadas"}],
            InconsistentHand,
            "cards[1].horse",
            ["ace of diamonds, not the ace of spades", "in turn"],
        ),
        ([{"rank": "1", "suit": "copas"}], InvalidInput, "cards[0].rank", ["not a card rank"]),
        ([{"rank": "K", "suit": "hearts"}], InvalidInput, "cards[0].suit", ["not a suit"]),
        (["K♥"], InvalidInput, "cards[0]", ["rank and suit"]),
        ([{"rank": "K", "suit": "copas", "face": "up"}], InvalidInput, "cards[0]", ["rank and suit"]),
    ],
)
def test_bad_cards_are_refused_with_their_place(
    raw: list[Any], kind: type[RulesError], field: str, words: list[str]
) -> None:
    with pytest.raises(kind) as info:
        replay(raw, DEFAULT)
    assert type(info.value) is kind
    assert info.value.field == field
    for word in words:
        assert word in str(info.value)
    assert str(info.value).endswith(".")


def test_a_card_naming_the_right_horse_is_accepted() -> None:
    race = replay(cards("K♥") + [{**card("3♠"), "horse": "ouros"}], DEFAULT)
    assert race.steps[1].horse is O


def test_no_card_after_the_race_is_decided() -> None:
    with pytest.raises(InconsistentHand) as info:
        replay(cards(*SOLO, "9♥"), DEFAULT)
    assert info.value.field == "cards[16]" and "after card 16" in str(info.value)


def test_race_json_for_the_page() -> None:
    out = replay(cards(*SOLO), DEFAULT).to_json()
    assert out["over"] is True and out["winners"] == ["copas"] and out["expecting"] is None
    assert out["finish_line"] == 14
    steps = out["steps"]
    assert isinstance(steps, list) and steps[0] == {
        "index": 0,
        "card": {"rank": "K", "suit": "copas"},
        "horse": "copas",
        "move": 5,
        "positions": {"copas": 5, "ouros": 0, "espadas": 0, "paus": 0},
        "stage": "race",
    }
