"""The short form of a Jubileu hand's tricks (``declarer_tricks``): only the declaring side's
count, one number for one side, or each Meia Miséria declarer's own by name."""

from __future__ import annotations

from typing import Any

import pytest

from referee.rules.errors import InconsistentHand, InvalidInput, RulesError
from referee.rules.jubileu import JubileuHand, settle
from tests.rules.test_jubileu_record import DEFAULT, PLAYERS, direct, parse, refused, solo_auction


def short(bid: str, declarers: list[str] | None = None, **details: Any) -> dict[str, Any]:
    raw = direct(bid, declarers, **details)
    del raw["tricks"]
    return raw


def test_a_solo_with_the_declarers_tricks() -> None:
    hand = parse(short("solo_sete", trump="paus", declarer_tricks=9))
    assert hand.tricks is None and hand.declarer_tricks == 9
    assert settle(hand, DEFAULT).deltas == {"Ana": 12, "Bia": -4, "Caio": -4, "Dani": -4}
    assert hand.to_json()["declarer_tricks"] == 9 and "tricks" not in hand.to_json()


def test_a_partnership_with_its_sides_tricks() -> None:
    raw = short("jubileu", trump="copas", called="paus", partner="Caio", declarer_tricks=8)
    hand = parse(raw)
    assert settle(hand, DEFAULT).deltas == {"Ana": 3, "Bia": -3, "Caio": 3, "Dani": -3}


def test_several_meia_miseria_declarers_each_give_their_own() -> None:
    raw = {
        "ultima": "paus",
        "auction": [["Ana", "meia_miseria"], ["Caio", "meia_miseria"], ["Bia", "passo"], ["Dani", "passo"]],
        "declarer_tricks": {"Caio": 3, "Ana": 1},
    }
    hand = parse(raw)
    assert list(hand.declarer_tricks) == ["Ana", "Caio"]
    assert settle(hand, DEFAULT).deltas == {"Ana": 13, "Bia": 1, "Caio": -15, "Dani": 1}


def test_an_auction_record_takes_the_short_form() -> None:
    hand = parse({"ultima": "copas", "auction": solo_auction("solo_sete"), "trump": "paus", "declarer_tricks": 7})
    assert hand.taken(("Ana",)) == 7


@pytest.mark.parametrize(
    ("raw", "error", "words", "field"),
    [
        (short("solo_sete", trump="paus", declarer_tricks=14), InconsistentHand, ["14"], "declarer_tricks"),
        (short("solo_sete", trump="paus", declarer_tricks=-1), InconsistentHand, ["-1"], "declarer_tricks"),
        (short("solo_sete", trump="paus", declarer_tricks="7"), InvalidInput, ["whole number"], "declarer_tricks"),
        (short("solo_sete", trump="paus", declarer_tricks=True), InvalidInput, ["whole number"], "declarer_tricks"),
        (short("solo_sete", trump="paus", declarer_tricks={"Ana": 7}), InvalidInput, [], "declarer_tricks"),
        (direct("solo_sete", trump="paus", declarer_tricks=7), InconsistentHand, ["not both"], "declarer_tricks"),
        (short("meia_miseria", ["Ana", "Bia"], declarer_tricks=1), InvalidInput, [], "declarer_tricks"),
        (
            short("meia_miseria", ["Ana", "Bia"], declarer_tricks={"Ana": 1}),
            InvalidInput,
            ["Bia"],
            "declarer_tricks.Bia",
        ),
        (
            short("meia_miseria", ["Ana", "Bia"], declarer_tricks={"Ana": 1, "Bia": 1, "Caio": 0}),
            InconsistentHand,
            ["Caio"],
            "declarer_tricks.Caio",
        ),
        (
            short("meia_miseria", ["Ana", "Bia"], declarer_tricks={"Ana": 7, "Bia": 7}),
            InconsistentHand,
            ["14"],
            "declarer_tricks",
        ),
    ],
)
def test_refused(raw: dict[str, Any], error: type[RulesError], words: list[str], field: str) -> None:
    refused(raw, error, *words, field=field)


def test_everybody_passed_takes_a_zero_and_refuses_a_count() -> None:
    passes = [[p, "passo"] for p in PLAYERS]
    assert parse({"ultima": "copas", "auction": passes, "declarer_tricks": 0}).contract is None
    refused({"ultima": "copas", "auction": passes, "declarer_tricks": 3}, InconsistentHand, field="declarer_tricks")


def test_a_built_record_checks_its_short_form() -> None:
    hand = parse(short("solo_sete", trump="paus", declarer_tricks=9))
    with pytest.raises(RulesError):
        JubileuHand(
            players=hand.players,
            dealer=hand.dealer,
            ultima=hand.ultima,
            contract=hand.contract,
            trump=hand.trump,
            declarer_tricks=20,
        )
