"""The Samba meld checker: card notation, one meld, an
opening, the API request. Figures are worked by hand from the rule text, not engine output;
the property tests compare the engine with a small oracle written here."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.rules.cards import Suit
from referee.rules.errors import InvalidInput
from referee.rules.samba import SambaOptions
from referee.rules.samba_melds import (
    Card,
    CheckRequest,
    MeldVerdict,
    check_meld,
    check_opening,
    parse_card,
    parse_check,
)
from referee.rules.text import Text

# --------------------------------------------------------------------------- helpers and oracle

#: card values, written out again here as the oracle (the red 3 has none).
VALUE = {
    "JK": 50,
    "2": 20,
    "A": 20,
    "K": 10,
    "Q": 10,
    "J": 10,
    "10": 10,
    "9": 10,
    "8": 10,
    "7": 5,
    "6": 5,
    "5": 5,
    "4": 5,
    "3": 5,
}
ORDER = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
NATURAL_RANKS = ORDER
SUITS = list(Suit)
ALL_KINDS = [Card(rank=r, suit=s) for r in ["A", "2", "3", *ORDER[:-1]] for s in SUITS] + [Card(rank="JK")]


def cards(spec: str) -> list[Card]:
    return [parse_card(word, field="t") for word in spec.split()]


def meld(spec: str, *, going_out: bool = False) -> MeldVerdict:
    return check_meld(cards(spec), going_out=going_out)


def value(card: Card) -> int:
    if card.rank == "3" and card.suit is not None and card.suit.is_red:
        return 0
    return VALUE[card.rank]


def texts(items: Any) -> list[str]:
    return [str(t) for t in items]


def copies_ok(hand: list[Card]) -> bool:
    codes = [c.code for c in hand]
    return all(codes.count(c) <= (6 if c == "JK" else 3) for c in set(codes))


# --------------------------------------------------------------------------- card notation


@pytest.mark.parametrize(
    "raw, code",
    [
        ("Kc", "Kc"),
        ("kc", "Kc"),
        ("KC", "Kc"),
        ("10♠", "10e"),
        ("10e", "10e"),
        ("2p", "2p"),
        ("2♣", "2p"),
        ("Ao", "Ao"),
        ("a♦", "Ao"),
        ("Q♥", "Qc"),
        ("Q♥\ufe0f", "Qc"),
        (" 7 e ", "7e"),
        ("Jp", "Jp"),
        ("jo", "Jo"),
        ("3c", "3c"),
        ("JK", "JK"),
        ("jk", "JK"),
        ("Joker", "JK"),
        ("*", "JK"),
        ("9♡", "9c"),
    ],
)
def test_parse_card_accepts_the_spellings(raw: str, code: str) -> None:
    assert parse_card(raw, field="c").code == code


@pytest.mark.parametrize(
    "raw", ["1c", "", "K", "c", "Kx", "11c", "JKc", "Kcc", "Cavalo", "0e", None, 5, ["Kc"], {"rank": "K"}, True]
)
def test_parse_card_refuses_anything_else_with_the_spelling_shown(raw: object) -> None:
    with pytest.raises(InvalidInput) as err:
        parse_card(raw, field="melds[1][3]")
    assert err.value.field == "melds[1][3]"
    sentence = str(err.value.text)
    assert "Kc" in sentence and "10♠" in sentence and "JK" in sentence


def test_a_long_bad_card_is_shortened_in_the_sentence() -> None:
    with pytest.raises(InvalidInput) as err:
        parse_card("x" * 500, field="c")
    assert len(str(err.value.text)) < 250


def test_every_card_reads_back_from_its_code() -> None:
    for card in ALL_KINDS:
        assert parse_card(card.code, field="c") == card


def test_labels() -> None:
    assert str(parse_card("Kc", field="c").label) == "K♥"
    assert str(parse_card("10e", field="c").label) == "10♠"
    assert str(parse_card("JK", field="c").label) == "Joker"
    assert parse_card("Ao", field="c").label.params["suit"] == "♦"


def test_card_refuses_a_broken_construction() -> None:
    for bad in ({"rank": "1", "suit": Suit.COPAS}, {"rank": "K"}, {"rank": "JK", "suit": Suit.PAUS}):
        with pytest.raises(ValueError):
            Card(**bad)


@pytest.mark.parametrize("card", ALL_KINDS, ids=lambda c: c.code)
def test_card_values_follow_the_table(card: Card) -> None:
    assert card.value == value(card)
    assert card.is_wild == (card.rank in ("2", "JK"))


# --------------------------------------------------------------------------- one meld: golden cases

GOLDEN = [
    # spec, going_out, kind, points, premium, penalty
    ("Kc Ko Ke", False, "group", 30, 0, 0),
    ("Kc Ko 2e", False, "group", 40, 0, 0),
    ("Kc Ko Ke JK", False, "group", 80, 0, 0),
    ("Kc Ko Ke Kp Kc 2p", False, "group", 70, 0, 0),
    ("Kc Ko Ke Kp Kc Ko Ke", False, "canastra_limpa", 70, 500, 0),
    ("Ac Ao Ae Ap Ac Ao Ae", False, "canastra_limpa", 140, 500, 0),
    ("Kc Ko Ke Kp Kc 2p 2c", False, "canastra_suja", 90, 300, 0),  # 5 x 10 + 2 x 20
    ("4c 4o 4e 4p 4c 4o JK", False, "canastra_suja", 80, 300, 0),
    ("Kc Ko Ke Kp Kc Ko 2p 2c Ke", False, "canastra_suja", 110, 300, 0),  # naturals after the canastra
    ("Kc Ko Ke Kp Kc 2p 2c JK", False, "canastra_suja", 140, 300, 100),  # SAM-5
    ("2c 2o 2e", False, "wild_group", 60, 0, 0),
    ("JK JK 2p 2c", False, "wild_group", 140, 0, 0),
    ("JK JK JK JK JK JK 2c", False, "canastra_de_curingas", 320, 2000, 0),
    ("2c 2o 2e 2p 2c 2o 2e", False, "canastra_de_curingas", 140, 2000, 0),
    ("4c 5c 6c", False, "sequence", 15, 0, 0),
    ("4c 5c 6c 7c 8c 9c 10c", False, "samba", 50, 1500, 0),  # 4 x 5 + 3 x 10
    ("Jc Qc Kc Ac", False, "sequence", 50, 0, 0),
    ("8p 9p 10p Jp Qp Kp Ap", False, "samba", 80, 1500, 0),
    ("3e 3p 3e", True, "black_threes", 15, 0, 0),
    ("3e 3p 3e 3p 3e 3p", True, "black_threes", 30, 0, 0),
]


@pytest.mark.parametrize("spec, going_out, kind, points, premium, penalty", GOLDEN)
def test_legal_melds(spec: str, going_out: bool, kind: str, points: int, premium: int, penalty: int) -> None:
    v = meld(spec, going_out=going_out)
    assert (v.legal, v.kind, v.points, v.premium, v.penalty, v.reasons) == (True, kind, points, premium, penalty, ())
    assert bool(v.warnings) == bool(penalty)


#: spec, going_out, a word of each expected reason, in order.
REFUSED = [
    ("Kc Ko Kp 2e 2c", False, ["second wild card can only go in as the seventh card"]),
    ("Kc Ko Kp 2e 2c JK", False, ["seventh card"]),
    ("Kc JK 2p", False, ["at least 2 natural", "seventh card"]),
    ("Kc Ko", False, ["at least 3 cards"]),
    ("", False, ["at least 3 cards"]),
    ("3c Kc Ko Ke", False, ["Red 3s are laid down apart, never in a meld"]),
    ("3o 3c 3o", True, ["Red 3s"]),
    ("3c 3e 3p", True, ["Red 3s"]),
    ("3c Kc", False, ["Red 3s", "at least 3 cards"]),
    ("Qc Kc Ac 4c", False, ["ace goes only after the king"]),
    ("Ac 4c 5c", False, ["ace goes only after the king"]),
    ("4c 5c 2c 6c", False, ["No wild cards in a sequence"]),
    ("4c 5c JK", False, ["No wild cards in a sequence"]),
    ("3e 4e 5e", False, ["No 3s in a sequence"]),
    ("Kc Qo Jc", False, ["all of one suit"]),
    ("4c 5c 5c 6c", False, ["same rank twice"]),
    ("4c 9c Kc", False, ["consecutive cards: 7 cards are missing between 4♥ and K♥"]),
    ("4c 5c 6c 7c 8c 9c 10c Jc", False, ["A samba has exactly 7 cards; nothing can be added"]),
    ("Kc Ko Qc", False, ["neither a group"]),
    ("4c 9e Ko", False, ["neither a group"]),
    ("3e 4c 5o", False, ["neither a group"]),
    ("3e 3p 3e", False, ["Black 3s can only be melded when going out"]),
    ("3e 3p JK", True, ["Black 3s never go with wild cards"]),
    ("3e 3p 3e 2c", False, ["never go with wild cards", "only be melded when going out"]),
    ("Kc Kc Kc Kc Ko", False, ["K♥ appears 4 times, but the three decks hold only 3"]),
    ("JK JK JK JK JK JK JK", False, ["There are 7 jokers here"]),
    ("JK JK JK JK JK JK 2c 2o", False, ["canastra of wild cards is complete at 7 cards"]),
]


@pytest.mark.parametrize("spec, going_out, words", REFUSED)
def test_refused_melds_say_why(spec: str, going_out: bool, words: list[str]) -> None:
    v = meld(spec, going_out=going_out)
    assert not v.legal and v.kind == "illegal" and v.premium == 0 and v.penalty == 0 and v.warnings == ()
    said = texts(v.reasons)
    assert len(said) == len(words), said
    for word, sentence in zip(words, said):
        assert word in sentence, said


def test_the_second_wild_refusal_is_one_clear_sentence() -> None:
    (sentence,) = texts(meld("Kc Ko Kp 2e 2c").reasons)
    assert sentence == (
        "The second wild card can only go in as the seventh card: a group of fewer than 7 cards "
        "holds one wild card at most (this one has 2)."
    )


def test_three_wilds_in_a_canastra_warn_of_the_penalty() -> None:
    v = meld("Kc Ko Ke Kp Kc 2p 2c JK")
    assert texts(v.warnings) == [
        "A canastra holds at most 2 wild cards: with 3 it still scores as dirty, but the team pays a 100-point penalty."
    ]


def test_black_threes_never_make_a_canastra() -> None:
    """Only six black 3s exist; a seventh is a typing mistake."""
    v = meld("3e 3p 3e 3p 3e 3p 3e", going_out=True)
    assert not v.legal and texts(v.reasons) == ["3♠ appears 4 times, but the three decks hold only 3."]


def test_an_illegal_meld_still_shows_its_card_points() -> None:
    assert meld("Kc Ko Kp 2e 2c").points == 70


def test_a_meld_is_shown_in_table_order() -> None:
    assert [c.code for c in meld("JK 10c 2p 4c 9c").cards] == ["4c", "9c", "10c", "2p", "JK"]


def test_verdict_refuses_inconsistent_construction() -> None:
    with pytest.raises(ValueError):
        MeldVerdict(cards=(), kind="group", legal=False, points=0, reasons=(Text("x"),))
    with pytest.raises(ValueError):
        MeldVerdict(cards=(), kind="samba", legal=True, points=50, premium=0)


def test_meld_json() -> None:
    v = meld("Kc Ko Ke Kp Kc 2p 2c JK")
    assert v.to_json(str) == {
        "legal": True,
        "kind": "canastra_suja",
        "label": "Dirty canastra",
        "points": 140,
        "premium": 300,
        "penalty": 100,
        "cards": ["Kc", "Kc", "Ko", "Ke", "Kp", "2c", "2p", "JK"],
        "reasons": [],
        "warnings": [str(v.warnings[0])],
    }
    bad = meld("Kc Ko Kp 2e 2c").to_json(lambda t: t.msgid)
    assert (
        bad["legal"] is False
        and bad["kind"] == "illegal"
        and bad["reasons"] == [meld("Kc Ko Kp 2e 2c").reasons[0].msgid]
    )
    json.dumps(bad)


# --------------------------------------------------------------------------- the opening


def test_the_rule_text_example_kings_are_not_enough_for_90() -> None:
    v = check_opening([cards("Kc Ko Ke Kp Kc Ko Ke")], required=90)
    assert (v.legal, v.points, v.reached) == (True, 70, False)
    assert texts(v.reasons) == [
        "These cards are worth 70; the team needs 90 to open (canastra and samba premiums do not count)."
    ]


def test_the_rule_text_example_aces_are_enough_for_90() -> None:
    v = check_opening([cards("Ac Ao Ae Ap Ac Ao Ae")], required=90)
    assert (v.legal, v.points, v.reached, v.reasons) == (True, 140, True, ())


def test_reaching_exactly_the_minimum_is_enough() -> None:
    v = check_opening([cards("Ac Ao Ae"), cards("Kc Ko Ke")], required=90)
    assert (v.points, v.reached) == (90, True)
    short = check_opening([cards("Ac Ao Ae"), cards("Kc Ko Ke")], required=120)
    assert texts(short.reasons) == ["These cards are worth 90; the team needs 120 to open."]


def test_the_discard_top_counts_in_the_opening() -> None:
    top = parse_card("Ap", field="t")
    v = check_opening([cards("9c 9o 9e"), cards("Ac Ao")], required=90, discard_top=top)
    assert (v.legal, v.points, v.reached, v.discard_meld) == (True, 30 + 60, True, 1)
    assert v.melds[1].kind == "group" and top in v.melds[1].cards
    without = check_opening([cards("9c 9o 9e"), cards("Ac Ao Ae")], required=90)
    assert without.points == 90


def test_the_discard_top_goes_into_the_first_group_with_two_naturals() -> None:
    top = parse_card("Kp", field="t")
    v = check_opening([cards("Kc JK 2p"), cards("Kc Ko Ke"), cards("Ko Ke Kp")], required=0, discard_top=top)
    assert v.discard_meld == 1 and len(v.melds[1].cards) == 4 and len(v.melds[2].cards) == 3


def test_the_discard_top_with_a_natural_and_a_wild_is_refused() -> None:
    v = check_opening([cards("Kc JK"), cards("9c 9o 9e")], required=15, discard_top=parse_card("Kp", field="t"))
    assert not v.legal and not v.reached and v.discard_meld is None
    assert any("must go into a group of its rank with 2 natural cards" in s for s in texts(v.reasons))


@pytest.mark.parametrize("top", ["2c", "JK", "3e", "3c"])
def test_a_discard_top_that_is_not_natural_is_refused(top: str) -> None:
    v = check_opening([cards("Kc Ko Ke")], required=15, discard_top=parse_card(top, field="t"))
    assert not v.legal and not v.reached
    assert texts(v.reasons)[-1].startswith("The top of the discard pile")


def test_the_discard_top_cannot_start_a_sequence() -> None:
    v = check_opening([cards("5c 6c")], required=15, discard_top=parse_card("4c", field="t"))
    assert not v.legal and v.discard_meld is None


def test_an_opening_with_a_wild_only_meld() -> None:
    v = check_opening([cards("JK 2c 2o"), cards("Kc Ko Ke")], required=90)
    assert (v.legal, v.points, v.reached) == (True, 90 + 30, True)


def test_an_opening_with_an_illegal_meld_names_it() -> None:
    v = check_opening([cards("Kc Ko Ke"), cards("Qc Kc Ac 4c")], required=50)
    assert not v.legal and not v.reached
    assert texts(v.reasons)[0] == "Meld 2 is not legal."
    assert v.melds[1].kind == "illegal"


def test_black_threes_open_only_when_going_out() -> None:
    melds = [cards("Ac Ao Ae"), cards("3e 3p 3e")]
    assert not check_opening(melds, required=50).reached
    assert check_opening(melds, required=50, going_out=True).reached


def test_copies_across_melds_are_counted() -> None:
    v = check_opening([cards("Kc Kc Ko"), cards("Kc Kc Ke")], required=15)
    assert not v.legal
    assert texts(v.reasons) == ["K♥ appears 4 times, but the three decks hold only 3."]
    jokers = check_opening([cards("Kc Ko JK"), cards("JK JK JK"), cards("JK JK JK")], required=15)
    assert "There are 7 jokers here, but the three decks hold only 6." in texts(jokers.reasons)


def test_copies_within_one_meld_are_not_said_twice() -> None:
    v = check_opening([cards("Kc Kc Kc Kc")], required=15)
    assert texts(v.reasons) == ["Meld 1 is not legal."]


def test_an_opening_needs_a_meld() -> None:
    v = check_opening([], required=0)
    assert not v.legal and texts(v.reasons) == ["An opening needs at least one meld."]


def test_premiums_and_penalties_never_count_toward_the_opening() -> None:
    v = check_opening([cards("4c 5c 6c 7c 8c 9c 10c")], required=90)
    assert v.points == 50 and not v.reached


def test_opening_json() -> None:
    v = check_opening([cards("9c 9o 9e"), cards("Ac Ao")], required=90, discard_top=parse_card("Ap", field="t"))
    out = v.to_json(str)
    assert out == {
        "legal": True,
        "points": 90,
        "required": 90,
        "reached": True,
        "melds": [m.to_json(str) for m in v.melds],
        "reasons": [],
        "discard_top": "Ap",
        "discard_meld": 1,
    }
    assert out["melds"][1]["cards"] == ["Ac", "Ao", "Ap"]  # type: ignore[index]
    json.dumps(out)


# --------------------------------------------------------------------------- the request


def test_parse_check_reads_a_full_request() -> None:
    req = parse_check(
        {"melds": [["Kc", "ko", "2♠"], ["JK", "2p", "2c"]], "going_out": True, "discard_top": "Kp", "total": 1600}
    )
    assert [[c.code for c in m] for m in req.melds] == [["Kc", "Ko", "2e"], ["JK", "2p", "2c"]]
    assert req.going_out is True and req.discard_top == parse_card("Kp", field="t") and req.total == 1600
    assert req.minimum(SambaOptions()) == 90


def test_parse_check_defaults_and_minimum() -> None:
    req = parse_check({"melds": [["Kc"]]})
    assert req == CheckRequest(melds=(tuple(cards("Kc")),))
    assert req.minimum(SambaOptions()) is None
    assert parse_check({"melds": [[]], "required": 0}).minimum(SambaOptions()) == 0
    assert parse_check({"melds": [[]], "total": -20, "discard_top": None}).minimum(SambaOptions()) == 15
    assert parse_check({"melds": [[]], "total": 8000}).minimum(SambaOptions(top_min_meld=160)) == 160


@pytest.mark.parametrize(
    "raw, field",
    [
        (None, None),
        ([["Kc"]], None),
        ({}, "melds"),
        ({"melds": []}, "melds"),
        ({"melds": "Kc Ko Ke"}, "melds"),
        ({"melds": [["Kc"]] * 21}, "melds"),
        ({"melds": [["Kc"], "Ko"]}, "melds[1]"),
        ({"melds": [["Kc"], ["Kc"] * 31]}, "melds[1]"),
        ({"melds": [["Kc"], ["Kc", "Ko", "Ke", "1p"]]}, "melds[1][3]"),
        ({"melds": [[None]]}, "melds[0][0]"),
        ({"melds": [["Kc"]], "going_out": "no"}, "going_out"),
        ({"melds": [["Kc"]], "going_out": 0}, "going_out"),
        ({"melds": [["Kc"]], "discard_top": "Zz"}, "discard_top"),
        ({"melds": [["Kc"]], "total": "1500"}, "total"),
        ({"melds": [["Kc"]], "total": 1.5}, "total"),
        ({"melds": [["Kc"]], "total": True}, "total"),
        ({"melds": [["Kc"]], "required": -5}, "required"),
        ({"melds": [["Kc"]], "required": False}, "required"),
        ({"melds": [["Kc"]], "total": 0, "required": 50}, "required"),
        ({"melds": [["Kc"]], "meld": []}, "meld"),
    ],
)
def test_parse_check_refuses_bad_shapes(raw: object, field: str | None) -> None:
    with pytest.raises(InvalidInput) as err:
        parse_check(raw)
    assert err.value.field == field
    assert str(err.value.text).endswith(".")


def test_the_module_imports_only_the_standard_library() -> None:
    code = (
        "import sys, json\n"
        "before = set(sys.modules)\n"
        "import referee.rules.samba_melds\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    outside = [
        m
        for m in loaded
        if m.split(".")[0] not in sys.stdlib_module_names and not m.startswith("referee.rules") and m != "referee"
    ]
    assert not outside, outside


# --------------------------------------------------------------------------- properties

any_card = st.sampled_from(ALL_KINDS)
any_meld = st.lists(any_card, max_size=12)
wild = st.sampled_from([c for c in ALL_KINDS if c.rank in ("2", "JK")])


@st.composite
def group_st(draw: st.DrawFn) -> tuple[list[Card], int, int]:
    rank = draw(st.sampled_from(NATURAL_RANKS))
    naturals = draw(st.lists(st.sampled_from(SUITS), min_size=0, max_size=9))
    wilds = draw(st.lists(wild, max_size=4))
    hand = [Card(rank=rank, suit=s) for s in naturals] + wilds
    return draw(st.permutations(hand)), len(naturals), len(wilds)


@st.composite
def run_st(draw: st.DrawFn) -> list[Card]:
    suit = draw(st.sampled_from(SUITS))
    start = draw(st.integers(0, len(ORDER) - 3))
    length = draw(st.integers(3, len(ORDER) - start))
    return [Card(rank=r, suit=suit) for r in ORDER[start : start + length]]


melds_st = st.one_of(any_meld, group_st().map(lambda g: g[0]), run_st())


@given(melds_st, st.booleans())
def test_legal_points_are_the_card_values(hand: list[Card], going_out: bool) -> None:
    v = check_meld(hand, going_out=going_out)
    assert v.points == sum(value(c) for c in hand)
    assert v.legal == (not v.reasons) == (v.kind != "illegal")


@given(melds_st, st.booleans(), st.randoms(use_true_random=False))
def test_the_order_of_the_cards_never_changes_the_verdict(
    hand: list[Card], going_out: bool, rnd: random.Random
) -> None:
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert check_meld(shuffled, going_out=going_out) == check_meld(hand, going_out=going_out)


@given(melds_st, st.booleans())
def test_a_legal_meld_of_seven_or_more_has_a_premium(hand: list[Card], going_out: bool) -> None:
    v = check_meld(hand, going_out=going_out)
    if v.legal and len(hand) >= 7:
        assert v.premium > 0
    if not v.legal:
        assert v.premium == 0 and v.penalty == 0


@given(run_st())
def test_a_sequence_and_its_reversal_get_the_same_verdict(run: list[Card]) -> None:
    v = check_meld(run)
    assert check_meld(run[::-1]) == v
    assert v.legal == (len(run) <= 7)
    if v.legal:
        assert v.kind == ("samba" if len(run) == 7 else "sequence")


@given(group_st())
def test_groups_follow_the_wild_card_rules(group: tuple[list[Card], int, int]) -> None:
    hand, naturals, wilds = group
    v = check_meld(hand)
    size = naturals + wilds
    if naturals == 0:
        assert v.legal == (3 <= size <= 7 and copies_ok(hand))
        return
    legal = size >= 3 and naturals >= 2 and (wilds <= 1 or size >= 7) and copies_ok(hand)
    assert v.legal == legal, texts(v.reasons)
    if legal:
        expected = "group" if size < 7 else "canastra_limpa" if not wilds else "canastra_suja"
        assert v.kind == expected
        assert v.penalty == (100 if size >= 7 and wilds > 2 else 0)


@given(st.lists(melds_st, max_size=4), st.integers(0, 300))
def test_an_opening_is_reached_when_its_melds_are_legal_and_worth_enough(
    melds: list[list[Card]], required: int
) -> None:
    v = check_opening(melds, required=required)
    flat = [c for m in melds for c in m]
    assert v.points == sum(value(c) for c in flat)
    legal = bool(melds) and all(m.legal for m in v.melds) and copies_ok(flat)
    assert v.legal == legal
    assert v.reached == (legal and v.points >= required)
    assert v.reached == (not v.reasons)
