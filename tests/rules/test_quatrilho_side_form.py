"""A chamada given by its side's counts (``side_figures``, ``side_tricks``, ``caller_figures``)
settles exactly as the same hand given player by player, and is refused where it cannot be a
real hand."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.rules.errors import InconsistentHand, InvalidInput
from referee.rules.quatrilho import QuatrilhoHand, QuatrilhoOptions, parse_hand, settle
from tests.rules.test_quatrilho_properties import hands

Case = tuple[tuple[str, ...], str, QuatrilhoOptions, dict[str, Any]]
PLAYERS = ("Ana", "Bia", "Caio", "Dani")
CHAMADA = {"mode": "chamada", "declarer": "Ana", "called_card": {"rank": "3", "suit": "paus"}, "partner": "Caio"}


def short_form(raw: dict[str, Any], *, with_caller: bool) -> dict[str, Any]:
    """The same chamada by sides; the caller's own figures left out when ``with_caller`` is false
    and the side won (the only case the settlement does not read them)."""
    figures, tricks = raw["figures"], raw["tricks"]
    side = {raw["declarer"], raw["partner"]}
    short = {k: v for k, v in raw.items() if k not in ("figures", "tricks")}
    short["side_figures"] = sum(figures[p] for p in side)
    short["side_tricks"] = sum(tricks[p] for p in side)
    if with_caller or short["side_figures"] < 18:
        short["caller_figures"] = figures[raw["declarer"]] if len(side) == 2 else short["side_figures"]
    return short


def parse(raw: dict[str, Any], options: QuatrilhoOptions | None = None) -> QuatrilhoHand:
    return parse_hand(raw, players=PLAYERS, options=options or QuatrilhoOptions(), dealer=PLAYERS[-1])


@given(hands().filter(lambda case: case[3]["mode"] == "chamada"), st.booleans())
def test_short_and_full_forms_settle_identically(case: Case, with_caller: bool) -> None:
    players, dealer, options, raw = case
    full = parse_hand(raw, players=players, options=options, dealer=dealer)
    short = parse_hand(short_form(raw, with_caller=with_caller), players=players, options=options, dealer=dealer)
    assert settle(short, options) == settle(full, options)
    stored = short.to_json()
    assert "figures" not in stored and "tricks" not in stored
    assert parse_hand(stored, players=players, options=options, dealer=players[0]) == short


def test_a_mancha_by_sides() -> None:
    hand = parse({**CHAMADA, "side_figures": 14, "side_tricks": 4, "caller_figures": 5})
    assert dict(settle(hand, QuatrilhoOptions()).deltas) == {"Ana": -14, "Bia": 7, "Caio": 0, "Dani": 7}


@pytest.mark.parametrize(
    ("extra", "error", "field"),
    [
        ({"side_figures": 22}, InvalidInput, "side_tricks"),
        ({"side_figures": 14, "side_tricks": 4}, InvalidInput, "caller_figures"),
        ({"side_figures": 14, "side_tricks": 4, "caller_figures": 15}, InconsistentHand, "caller_figures"),
        ({"side_figures": 3, "side_tricks": 0}, InconsistentHand, "side_tricks"),
        ({"side_figures": 0, "side_tricks": 10}, InconsistentHand, "side_tricks"),
        ({"side_figures": 34, "side_tricks": 10}, InconsistentHand, "side_tricks"),
        (
            {"side_figures": 22, "side_tricks": 5, "figures": {"Ana": 22, "Bia": 13, "Caio": 0, "Dani": 0}},
            InconsistentHand,
            "side_figures",
        ),
    ],
)
def test_impossible_side_counts_are_refused(extra: dict[str, Any], error: type, field: str) -> None:
    with pytest.raises(error) as caught:
        parse({**CHAMADA, **extra})
    assert caught.value.field == field


def test_only_a_chamada_is_counted_by_sides() -> None:
    with pytest.raises(InconsistentHand) as caught:
        parse({"mode": "solo_preto", "declarer": "Ana", "side_figures": 20, "side_tricks": 5})
    assert caught.value.field == "side_figures"


def test_a_caller_alone_by_sides_has_all_the_side() -> None:
    alone = {**CHAMADA, "partner": "Ana", "side_figures": 20, "side_tricks": 6}
    assert parse(alone).caller_figures is None
    with pytest.raises(InconsistentHand):
        parse({**alone, "caller_figures": 12})
    as_solo = QuatrilhoOptions(caller_alone="as_solo")  # 20 figures: 6 points, + 10 each
    assert dict(settle(parse(alone, options=as_solo), as_solo).deltas) == {
        "Ana": 48,
        "Bia": -16,
        "Caio": -16,
        "Dani": -16,
    }
