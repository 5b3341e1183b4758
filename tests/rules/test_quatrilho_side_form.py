"""A chamada given by its side's counts (``side_figures``, ``side_tricks``, ``caller_figures``), a
solo preto by the soloist's, and a carreguete by who made the most (``most``, ``most_figures``)
settle exactly as the same hand given player by player, and are refused where they cannot be a
real hand."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.rules.errors import InconsistentHand, InvalidInput, UnknownPlayer
from referee.rules.quatrilho import QuatrilhoHand, QuatrilhoOptions, carreguete_losers, parse_hand, settle
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


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"mode": "solo_branco", "declarer": "Ana", "side_figures": 20, "side_tricks": 5}, "side_figures"),
        ({"mode": "carreguete", "side_figures": 20}, "side_figures"),
        ({"mode": "solo_preto", "declarer": "Ana", "side_figures": 20, "caller_figures": 20}, "caller_figures"),
        ({**CHAMADA, "most": ["Ana"], "most_figures": 20}, "most"),
    ],
)
def test_only_a_chamada_or_a_solo_preto_is_counted_by_sides(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(InconsistentHand) as caught:
        parse(raw)
    assert caught.value.field == field


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


def solo_short_form(raw: dict[str, Any], options: QuatrilhoOptions, *, with_tricks: bool) -> dict[str, Any]:
    """The same solo preto by the soloist's counts; his tricks left out when ``with_tricks`` is
    false and the table does not apply capote and the one-trick rate to solos."""
    soloist = raw["declarer"]
    short = {k: v for k, v in raw.items() if k not in ("figures", "tricks")}
    short["side_figures"] = raw["figures"][soloist]
    if with_tricks or options.capote_in_solos:
        short["side_tricks"] = raw["tricks"][soloist]
    return short


@given(hands().filter(lambda case: case[3]["mode"] == "solo_preto"), st.booleans())
def test_a_solo_by_the_soloist_s_counts_settles_as_per_player(case: Case, with_tricks: bool) -> None:
    players, dealer, options, raw = case
    full = parse_hand(raw, players=players, options=options, dealer=dealer)
    short = parse_hand(
        solo_short_form(raw, options, with_tricks=with_tricks), players=players, options=options, dealer=dealer
    )
    assert settle(short, options) == settle(full, options)
    stored = short.to_json()
    assert "figures" not in stored and "tricks" not in stored
    assert parse_hand(stored, players=players, options=options, dealer=players[0]) == short


@given(hands().filter(lambda case: case[3]["mode"] == "carreguete"))
def test_a_carreguete_by_who_made_the_most_settles_as_per_player(case: Case) -> None:
    players, dealer, options, raw = case
    full = parse_hand(raw, players=players, options=options, dealer=dealer)
    assert full.figures is not None
    most = carreguete_losers(full.figures, options)
    short_raw = {
        "mode": "carreguete",
        "dealer": dealer,
        "most": list(reversed(most)),
        "most_figures": full.figures[most[-1]],
    }
    short = parse_hand(short_raw, players=players, options=options, dealer=dealer)
    assert short.most == most  # in order of play, however given
    assert settle(short, options) == settle(full, options)
    stored = short.to_json()
    assert "figures" not in stored and stored["most"] == list(most)
    assert parse_hand(stored, players=players, options=options, dealer=players[0]) == short


def test_a_solo_s_tricks_are_asked_only_where_its_settlement_reads_them() -> None:
    solo = {"mode": "solo_preto", "declarer": "Ana", "side_figures": 24}
    assert dict(settle(parse(solo), QuatrilhoOptions()).deltas) == {"Ana": 54, "Bia": -18, "Caio": -18, "Dani": -18}
    capote = QuatrilhoOptions(capote_in_solos=True)
    with pytest.raises(InvalidInput) as caught:
        parse(solo, options=capote)
    assert caught.value.field == "side_tricks"
    with pytest.raises(InconsistentHand) as caught:
        parse({**solo, "side_tricks": 1})  # one trick holds at most 15 figures
    assert caught.value.field == "side_tricks"


@pytest.mark.parametrize(
    ("extra", "error", "field"),
    [
        ({"most": ["Ana"], "most_figures": 8}, InconsistentHand, "most_figures"),  # the others hold 27: one has 9
        ({"most": ["Ana", "Bia"], "most_figures": 18}, InconsistentHand, "most_figures"),
        ({"most": ["Ana"], "most_figures": 0}, InconsistentHand, "most_figures"),
        ({"most": ["Ana", "Ana"], "most_figures": 12}, InconsistentHand, "most"),
        ({"most": ["Ana", "Bia", "Caio", "Dani"], "most_figures": 9}, InvalidInput, "most"),
        ({"most": "Ana", "most_figures": 12}, InvalidInput, "most"),
        ({"most": ["Zé"], "most_figures": 12}, UnknownPlayer, "most"),
        ({"most": ["Ana"]}, InvalidInput, "most_figures"),
        ({"most_figures": 12}, InvalidInput, "most"),
        (
            {"most": ["Ana"], "most_figures": 12, "figures": {"Ana": 12, "Bia": 11, "Caio": 6, "Dani": 6}},
            InconsistentHand,
            "most",
        ),
    ],
)
def test_impossible_carreguete_tops_are_refused(extra: dict[str, Any], error: type, field: str) -> None:
    with pytest.raises(error) as caught:
        parse({"mode": "carreguete", **extra})
    assert caught.value.field == field


def test_a_carreguete_tie_by_points_names_the_points() -> None:
    by_points = QuatrilhoOptions(carreguete_compare="points")
    hand = parse({"mode": "carreguete", "most": ["Bia", "Ana"], "most_figures": 14}, options=by_points)
    assert hand.most == ("Ana", "Bia")
    assert dict(settle(hand, by_points).deltas) == {"Ana": -12, "Bia": -12, "Caio": 12, "Dani": 12}
