"""Quatrilho settlement: the rule text's worked examples and its chosen readings, worked by hand.

Notation of the rule text: W the winning side's figures, P = W // 3. Players in order of play Ana, Bia,
Caio, Dani; dealer Dani, so Ana is the mão. Every expected delta below is computed in the
comment or docstring next to it, from the text, never from the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.rules import get_game
from referee.rules.game import deal_passes_on as next_dealer
from referee.rules.quatrilho import (
    GAME,
    Mode,
    QuatrilhoOptions,
    chamada_rate,
    parse_hand,
    points,
    settle,
)

PLAYERS = ("Ana", "Bia", "Caio", "Dani")
DEFAULT = QuatrilhoOptions()
CARD = {"rank": "3", "suit": "paus"}


def record(mode: str, **fields: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {"mode": mode}
    if mode == "chamada":
        raw["called_card"] = CARD
    raw.update(fields)
    return raw


def deltas(
    raw: dict[str, Any], options: QuatrilhoOptions = DEFAULT, players: tuple[str, ...] = PLAYERS, dealer: str = "Dani"
) -> dict[str, int]:
    hand = parse_hand(raw, players=players, options=options, dealer=dealer)
    return dict(settle(hand, options).deltas)


def chamada(
    figures: dict[str, int], tricks: dict[str, int], *, declarer: str = "Ana", partner: str = "Caio"
) -> dict[str, Any]:
    return record("chamada", declarer=declarer, partner=partner, figures=figures, tricks=tricks)


def solo(
    figures: dict[str, int], tricks: dict[str, int], *, declarer: str = "Ana", giver: str | None = None
) -> dict[str, Any]:
    return record("solo_preto", declarer=declarer, giver=giver, figures=figures, tricks=tricks)


# --------------------------------------------------------------------------- the rule text's worked examples

#: (id, record, options, expected deltas)
GOLDEN: list[tuple[str, dict[str, Any], QuatrilhoOptions, dict[str, int]]] = [
    (
        # 3.1.5: "Se uma dupla fez 20 figuras ... 20 : 3 = 6 ... quem perdeu paga 6 unidades."
        "seed_20_figures_pay_6",
        chamada({"Ana": 11, "Bia": 8, "Caio": 9, "Dani": 7}, {"Ana": 3, "Bia": 2, "Caio": 3, "Dani": 2}),
        DEFAULT,
        {"Ana": 6, "Bia": -6, "Caio": 6, "Dani": -6},
    ),
    (
        # 3.1.6: "Quando uma dupla fizer todas as vazas, cada ganhador receberá 22 unidades."
        "seed_capote_22",
        chamada({"Ana": 20, "Bia": 0, "Caio": 15, "Dani": 0}, {"Ana": 6, "Bia": 0, "Caio": 4, "Dani": 0}),
        DEFAULT,
        {"Ana": 22, "Bia": -22, "Caio": 22, "Dani": -22},
    ),
    (
        # 3.1.6: "Se a outra dupla fizer apenas uma vaza, mesmo sem figuras ... 10 unidades."
        # W = 35 would give P = 11; the one trick makes it 10.
        "seed_one_trick_without_figures_10",
        chamada({"Ana": 20, "Bia": 0, "Caio": 15, "Dani": 0}, {"Ana": 5, "Bia": 1, "Caio": 4, "Dani": 0}),
        DEFAULT,
        {"Ana": 10, "Bia": -10, "Caio": 10, "Dani": -10},
    ),
    (
        # 3.1.7 mancha: the caller's own pile has 5 < 9 figures and his side (15) loses to 20:
        # P = 6; Ana pays both winners (-12), Caio pays nothing, Bia and Dani +6 each.
        "seed_mancha",
        chamada({"Ana": 5, "Bia": 12, "Caio": 10, "Dani": 8}, {"Ana": 2, "Bia": 3, "Caio": 2, "Dani": 3}),
        DEFAULT,
        {"Ana": -12, "Bia": 6, "Caio": 0, "Dani": 6},
    ),
    (
        # 3.3.1: "O solo branco vale 16 unidades cada participante. Se o solante ganhar, recebe 48."
        "seed_solo_branco_won_48",
        record("solo_branco", declarer="Ana", tricks={"Ana": 0}),
        DEFAULT,
        {"Ana": 48, "Bia": -16, "Caio": -16, "Dani": -16},
    ),
    (
        # 3.3.1: "Se perder, paga 48 (16 unidades cada adversário)."
        "seed_solo_branco_lost_48",
        record("solo_branco", declarer="Ana", tricks={"Ana": 1}),
        DEFAULT,
        {"Ana": -48, "Bia": 16, "Caio": 16, "Dani": 16},
    ),
    (
        # Timbó: "SOLO BRANCO – Paga ou recebe 10 fichas." -> ±30.
        "seed_timbo_solo_branco_10",
        record("solo_branco", declarer="Bia", tricks={"Bia": 0}),
        QuatrilhoOptions.from_json({"variant": "timbo"}),
        {"Ana": -10, "Bia": 30, "Caio": -10, "Dani": -10},
    ),
    (
        # 1.8 / 3.4.1: the one with the most pays the minimum rate to the other 3 (3 x 6 = 18).
        "seed_carreguete_3_x_6",
        record("carreguete", figures={"Ana": 14, "Bia": 9, "Caio": 7, "Dani": 5}),
        DEFAULT,
        {"Ana": -18, "Bia": 6, "Caio": 6, "Dani": 6},
    ),
    (
        # 3.2.2 with a giver, solante wins with 24 figures: P = 8; Caio, Dani pay P + 10 = 18,
        # the giver Bia 10 less = 8; Ana +(3P + 20) = 44.
        "seed_solo_preto_giver_win",
        solo({"Ana": 24, "Bia": 4, "Caio": 4, "Dani": 3}, {"Ana": 7, "Bia": 1, "Caio": 1, "Dani": 1}, giver="Bia"),
        DEFAULT,
        {"Ana": 44, "Bia": -8, "Caio": -18, "Dani": -18},
    ),
    (
        # 3.2.2 with a giver, solante loses with 14: opponents' 21 -> P = 7; Caio, Dani receive
        # 17, the giver Bia 10 more = 27; Ana -(3P + 40) = -61.
        "seed_solo_preto_giver_loss",
        solo({"Ana": 14, "Bia": 7, "Caio": 7, "Dani": 7}, {"Ana": 4, "Bia": 2, "Caio": 2, "Dani": 2}, giver="Bia"),
        DEFAULT,
        {"Ana": -61, "Bia": 27, "Caio": 17, "Dani": 17},
    ),
    (
        # Timbó: on a loss the giver "ganha como os demais": 17 like the others; Ana -51.
        "seed_timbo_giver_loss_same",
        solo({"Ana": 14, "Bia": 7, "Caio": 7, "Dani": 7}, {"Ana": 4, "Bia": 2, "Caio": 2, "Dani": 2}, giver="Bia"),
        QuatrilhoOptions.from_json({"variant": "timbo"}),
        {"Ana": -51, "Bia": 17, "Caio": 17, "Dani": 17},
    ),
    (
        # Solo natural (no giver), win with 20: P = 6, each pays 16; Ana +48.
        "solo_natural_win",
        solo({"Ana": 20, "Bia": 5, "Caio": 5, "Dani": 5}, {"Ana": 5, "Bia": 2, "Caio": 2, "Dani": 1}),
        DEFAULT,
        {"Ana": 48, "Bia": -16, "Caio": -16, "Dani": -16},
    ),
    (
        # "a monte": nothing paid.
        "monte",
        record("monte"),
        DEFAULT,
        {"Ana": 0, "Bia": 0, "Caio": 0, "Dani": 0},
    ),
]


@pytest.mark.parametrize(("raw", "options", "expected"), [g[1:] for g in GOLDEN], ids=[g[0] for g in GOLDEN])
def test_golden(raw: dict[str, Any], options: QuatrilhoOptions, expected: dict[str, int]) -> None:
    assert deltas(raw, options) == expected


def test_points_and_the_whole_game() -> None:
    """3.1.2/3.1.4: 3 figures a point, remainder dropped; 35 figures = 11 points; 18 = taxa mínima 6."""
    assert [points(f) for f in (18, 20, 21, 35)] == [6, 6, 7, 11]
    assert chamada_rate(20, 3, DEFAULT) == 6
    assert chamada_rate(35, 0, DEFAULT) == 22
    assert chamada_rate(35, 1, DEFAULT) == 10


# --------------------------------------------------------------------------- chamada: cases and options


def test_mancha_threshold_exactly_9_escapes() -> None:
    """QUA-12: 'não fizer 9 figuras' means fewer than 9: Ana with 9 pays only her share (side 17 loses, P = 6)."""
    raw = chamada({"Ana": 9, "Bia": 10, "Caio": 8, "Dani": 8}, {"Ana": 3, "Bia": 3, "Caio": 2, "Dani": 2})
    assert deltas(raw) == {"Ana": -6, "Bia": 6, "Caio": -6, "Dani": 6}


def test_mancha_is_the_callers_pile_not_the_partners() -> None:
    """The partner's pile under 9 does not matter: Ana 12, Caio 3 lose 15-20, both pay 6."""
    raw = chamada({"Ana": 12, "Bia": 12, "Caio": 3, "Dani": 8}, {"Ana": 3, "Bia": 3, "Caio": 1, "Dani": 3})
    assert deltas(raw) == {"Ana": -6, "Bia": 6, "Caio": -6, "Dani": 6}


def test_no_mancha_when_the_callers_side_wins() -> None:
    """A caller with 3 figures whose partner carried the side to 20 wins normally: ±6."""
    raw = chamada({"Ana": 3, "Bia": 8, "Caio": 17, "Dani": 7}, {"Ana": 1, "Bia": 2, "Caio": 5, "Dani": 2})
    assert deltas(raw) == {"Ana": 6, "Bia": -6, "Caio": 6, "Dani": -6}


def test_mancha_with_capote_pays_2_x_22() -> None:
    """The callers took no trick: Ana pays 22 to each winner (-44), Caio 0."""
    raw = chamada({"Ana": 0, "Bia": 20, "Caio": 0, "Dani": 15}, {"Ana": 0, "Bia": 5, "Caio": 0, "Dani": 5})
    assert deltas(raw) == {"Ana": -44, "Bia": 22, "Caio": 0, "Dani": 22}


def test_mancha_with_one_trick_pays_2_x_10() -> None:
    """One trick without figures: Ana pays 10 to each winner (-20), Caio 0."""
    raw = chamada({"Ana": 0, "Bia": 20, "Caio": 0, "Dani": 15}, {"Ana": 1, "Bia": 5, "Caio": 0, "Dani": 4})
    assert deltas(raw) == {"Ana": -20, "Bia": 10, "Caio": 0, "Dani": 10}


@pytest.mark.parametrize(
    ("one_trick", "expected"),
    [
        ("flat_10", 10),  # literal: 10 even though P = 26 // 3 = 8
        ("cap_10", 8),  # alternative: min(10, P) = 8
    ],
)
def test_one_trick_with_a_heavy_losing_trick(one_trick: str, expected: int) -> None:
    """The losers' single trick holds 9 figures: W = 26, P = 8."""
    raw = chamada({"Ana": 16, "Bia": 9, "Caio": 10, "Dani": 0}, {"Ana": 5, "Bia": 1, "Caio": 4, "Dani": 0})
    e = expected
    assert deltas(raw, QuatrilhoOptions(one_trick=one_trick)) == {"Ana": e, "Bia": -e, "Caio": e, "Dani": -e}


def test_one_trick_cap_still_caps_a_figureless_trick_at_10() -> None:
    """cap_10 with W = 35: min(10, 11) = 10."""
    raw = chamada({"Ana": 20, "Bia": 0, "Caio": 15, "Dani": 0}, {"Ana": 5, "Bia": 1, "Caio": 4, "Dani": 0})
    assert deltas(raw, QuatrilhoOptions(one_trick="cap_10")) == {"Ana": 10, "Bia": -10, "Caio": 10, "Dani": -10}


def test_two_blank_losing_tricks_pay_the_normal_11() -> None:
    """Read literally: the 10 applies only to exactly one trick; two blank tricks leave W = 35, P = 11."""
    raw = chamada({"Ana": 20, "Bia": 0, "Caio": 15, "Dani": 0}, {"Ana": 4, "Bia": 1, "Caio": 4, "Dani": 1})
    assert deltas(raw) == {"Ana": 11, "Bia": -11, "Caio": 11, "Dani": -11}


def test_the_partner_may_be_any_seat() -> None:
    """Bia calls, Dani holds the card; they win 21-14: P = 7."""
    raw = chamada(
        {"Ana": 7, "Bia": 12, "Caio": 7, "Dani": 9},
        {"Ana": 2, "Bia": 3, "Caio": 2, "Dani": 3},
        declarer="Bia",
        partner="Dani",
    )
    assert deltas(raw) == {"Ana": -7, "Bia": 7, "Caio": -7, "Dani": 7}


def test_defenders_win_normally() -> None:
    """Ana and Caio (caller with 10 figures) lose 16-19: P = 6, no mancha."""
    raw = chamada({"Ana": 10, "Bia": 10, "Caio": 6, "Dani": 9}, {"Ana": 3, "Bia": 3, "Caio": 1, "Dani": 3})
    assert deltas(raw) == {"Ana": -6, "Bia": 6, "Caio": -6, "Dani": 6}


# caller alone


def test_caller_alone_wins_p_from_each() -> None:
    """Ana called her own card and made 21: P = 7 from each of three: +21."""
    raw = chamada(
        {"Ana": 21, "Bia": 5, "Caio": 5, "Dani": 4}, {"Ana": 6, "Bia": 2, "Caio": 1, "Dani": 1}, partner="Ana"
    )
    assert deltas(raw) == {"Ana": 21, "Bia": -7, "Caio": -7, "Dani": -7}


def test_caller_alone_loses_p_to_each_without_mancha() -> None:
    """Ana alone with 4 figures: the three made 31, P = 10: -30 (no mancha)."""
    raw = chamada(
        {"Ana": 4, "Bia": 11, "Caio": 10, "Dani": 10}, {"Ana": 1, "Bia": 3, "Caio": 3, "Dani": 3}, partner="Ana"
    )
    assert deltas(raw) == {"Ana": -30, "Bia": 10, "Caio": 10, "Dani": 10}


def test_caller_alone_capote() -> None:
    """Capote applies to the caller alone: 22 from each: +66."""
    raw = chamada(
        {"Ana": 35, "Bia": 0, "Caio": 0, "Dani": 0}, {"Ana": 10, "Bia": 0, "Caio": 0, "Dani": 0}, partner="Ana"
    )
    assert deltas(raw) == {"Ana": 66, "Bia": -22, "Caio": -22, "Dani": -22}


def test_caller_alone_as_solo() -> None:
    """Alternative: settled as a solo preto without giver: P + 10 = 20 to each: -60."""
    raw = chamada(
        {"Ana": 4, "Bia": 11, "Caio": 10, "Dani": 10}, {"Ana": 1, "Bia": 3, "Caio": 3, "Dani": 3}, partner="Ana"
    )
    options = QuatrilhoOptions(caller_alone="as_solo")
    assert deltas(raw, options) == {"Ana": -60, "Bia": 20, "Caio": 20, "Dani": 20}


def test_caller_alone_as_solo_gets_no_natural_extra() -> None:
    """He did not announce a solo: the natural extra does not apply. 21 figures: P = 7, +17 each."""
    raw = chamada(
        {"Ana": 21, "Bia": 5, "Caio": 5, "Dani": 4}, {"Ana": 6, "Bia": 2, "Caio": 1, "Dani": 1}, partner="Ana"
    )
    options = QuatrilhoOptions(caller_alone="as_solo", solo_natural_extra=5)
    assert deltas(raw, options) == {"Ana": 51, "Bia": -17, "Caio": -17, "Dani": -17}


# --------------------------------------------------------------------------- solo preto: options


def test_solo_natural_loss() -> None:
    """Natural, Ana 14: opponents 21, P = 7, each receives 17: -51."""
    raw = solo({"Ana": 14, "Bia": 7, "Caio": 7, "Dani": 7}, {"Ana": 4, "Bia": 2, "Caio": 2, "Dani": 2})
    assert deltas(raw) == {"Ana": -51, "Bia": 17, "Caio": 17, "Dani": 17}


@pytest.mark.parametrize(
    ("ana", "expected_ana"),
    [
        (20, 3 * (6 + 10 + 4)),  # win: P = 6, each pays 20
        (14, -3 * (7 + 10 + 4)),  # loss: P = 7 (opponents' 21), each receives 21
    ],
)
def test_solo_natural_extra(ana: int, expected_ana: int) -> None:
    """The house extra per opponent, both ways, only without a giver."""
    rest = 35 - ana
    figures = {"Ana": ana, "Bia": rest - 2 * (rest // 3), "Caio": rest // 3, "Dani": rest // 3}
    raw = solo(figures, {"Ana": 4, "Bia": 2, "Caio": 2, "Dani": 2})
    d = deltas(raw, QuatrilhoOptions(solo_natural_extra=4))
    assert d["Ana"] == expected_ana
    assert d["Bia"] == d["Caio"] == d["Dani"] == -expected_ana // 3


def test_solo_natural_extra_not_with_a_giver() -> None:
    """With an exchange the extra does not apply: same as seed_solo_preto_giver_win (+44)."""
    raw = solo({"Ana": 24, "Bia": 4, "Caio": 4, "Dani": 3}, {"Ana": 7, "Bia": 1, "Caio": 1, "Dani": 1}, giver="Bia")
    assert deltas(raw, QuatrilhoOptions(solo_natural_extra=4)) == {"Ana": 44, "Bia": -8, "Caio": -18, "Dani": -18}


def test_solo_rate_from_the_soloist() -> None:
    """Alternative: Ana loses with 14: P = 14 // 3 = 4 (not 7): each receives 14: -42."""
    raw = solo({"Ana": 14, "Bia": 7, "Caio": 7, "Dani": 7}, {"Ana": 4, "Bia": 2, "Caio": 2, "Dani": 2})
    assert deltas(raw, QuatrilhoOptions(solo_rate_from="soloist")) == {"Ana": -42, "Bia": 14, "Caio": 14, "Dani": 14}


def test_solo_rate_from_the_soloist_is_the_same_on_a_win() -> None:
    raw = solo({"Ana": 20, "Bia": 5, "Caio": 5, "Dani": 5}, {"Ana": 5, "Bia": 2, "Caio": 2, "Dani": 1})
    assert deltas(raw, QuatrilhoOptions(solo_rate_from="soloist")) == {"Ana": 48, "Bia": -16, "Caio": -16, "Dani": -16}


def test_giver_on_loss_explicit_plus_10_beats_timbo() -> None:
    """An explicit option wins over the Timbó preset: giver P + 20 = 27 again."""
    raw = solo({"Ana": 14, "Bia": 7, "Caio": 7, "Dani": 7}, {"Ana": 4, "Bia": 2, "Caio": 2, "Dani": 2}, giver="Bia")
    options = QuatrilhoOptions.from_json({"variant": "timbo", "giver_on_loss": "plus_10"})
    assert deltas(raw, options) == {"Ana": -61, "Bia": 27, "Caio": 17, "Dani": 17}


@pytest.mark.parametrize(
    ("capote_in_solos", "expected"),
    [
        (False, 11 + 10),  # default: P = 35 // 3 = 11, + 10
        (True, 22 + 10),  # alternative: 22 as the normal rate, + 10
    ],
)
def test_solo_capote(capote_in_solos: bool, expected: int) -> None:
    raw = solo({"Ana": 35, "Bia": 0, "Caio": 0, "Dani": 0}, {"Ana": 10, "Bia": 0, "Caio": 0, "Dani": 0})
    d = deltas(raw, QuatrilhoOptions(capote_in_solos=capote_in_solos))
    assert d == {"Ana": 3 * expected, "Bia": -expected, "Caio": -expected, "Dani": -expected}


@pytest.mark.parametrize(("capote_in_solos", "expected"), [(False, 11 + 10), (True, 10 + 10)])
def test_solo_one_trick(capote_in_solos: bool, expected: int) -> None:
    """The opponents took one blank trick: 11 + 10 by default; 10 + 10 under the alternative."""
    raw = solo({"Ana": 35, "Bia": 0, "Caio": 0, "Dani": 0}, {"Ana": 9, "Bia": 1, "Caio": 0, "Dani": 0})
    d = deltas(raw, QuatrilhoOptions(capote_in_solos=capote_in_solos))
    assert d["Ana"] == 3 * expected


def test_solo_capote_against_the_soloist_with_a_giver() -> None:
    """capote_in_solos: Ana took no trick: base 22; Caio, Dani receive 32, giver Bia 42: -106."""
    raw = solo({"Ana": 0, "Bia": 12, "Caio": 12, "Dani": 11}, {"Ana": 0, "Bia": 4, "Caio": 3, "Dani": 3}, giver="Bia")
    assert deltas(raw, QuatrilhoOptions(capote_in_solos=True)) == {"Ana": -106, "Bia": 42, "Caio": 32, "Dani": 32}


# --------------------------------------------------------------------------- solo branco, carreguete


def test_solo_branco_rate_option() -> None:
    raw = record("solo_branco", declarer="Caio", tricks={"Caio": 1})
    assert deltas(raw, QuatrilhoOptions(solo_branco_rate=20)) == {"Ana": 20, "Bia": 20, "Caio": -60, "Dani": 20}


def test_carreguete_rate_option() -> None:
    raw = record("carreguete", figures={"Ana": 5, "Bia": 9, "Caio": 14, "Dani": 7})
    assert deltas(raw, QuatrilhoOptions(carreguete_rate=5)) == {"Ana": 5, "Bia": 5, "Caio": -15, "Dani": 5}


def test_carreguete_tie_on_figures_tied_pay() -> None:
    """Ana and Bia tie on 12: each pays 6 to Caio and Dani: -12 each, +12 each."""
    raw = record("carreguete", figures={"Ana": 12, "Bia": 12, "Caio": 6, "Dani": 5})
    assert deltas(raw) == {"Ana": -12, "Bia": -12, "Caio": 12, "Dani": 12}


def test_carreguete_three_way_tie() -> None:
    """Three tie on 10: each pays 6 to Dani only: -6 each, Dani +18."""
    raw = record("carreguete", figures={"Ana": 10, "Bia": 10, "Caio": 10, "Dani": 5})
    assert deltas(raw) == {"Ana": -6, "Bia": -6, "Caio": -6, "Dani": 18}


def test_carreguete_tie_redeal() -> None:
    raw = record("carreguete", figures={"Ana": 12, "Bia": 12, "Caio": 6, "Dani": 5})
    options = QuatrilhoOptions(carreguete_ties="redeal")
    assert deltas(raw, options) == {"Ana": 0, "Bia": 0, "Caio": 0, "Dani": 0}
    hand = parse_hand(raw, players=PLAYERS, options=options, dealer="Dani")
    assert next_dealer(PLAYERS, hand, options) == "Ana"  # the deal moves on, as after a monte


@pytest.mark.parametrize(
    ("compare", "expected"),
    [
        ("figures", {"Ana": -18, "Bia": 6, "Caio": 6, "Dani": 6}),  # 14 > 12
        ("points", {"Ana": -12, "Bia": -12, "Caio": 12, "Dani": 12}),  # 14 // 3 == 12 // 3 == 4: a tie
    ],
)
def test_carreguete_compare(compare: str, expected: dict[str, int]) -> None:
    raw = record("carreguete", figures={"Ana": 14, "Bia": 12, "Caio": 6, "Dani": 3})
    assert deltas(raw, QuatrilhoOptions(carreguete_compare=compare)) == expected


def test_carreguete_with_tricks() -> None:
    raw = record(
        "carreguete",
        figures={"Ana": 14, "Bia": 9, "Caio": 7, "Dani": 5},
        tricks={"Ana": 4, "Bia": 3, "Caio": 2, "Dani": 1},
    )
    assert deltas(raw) == {"Ana": -18, "Bia": 6, "Caio": 6, "Dani": 6}


# --------------------------------------------------------------------------- five players


FIVE = ("Ana", "Bia", "Caio", "Dani", "Edu")


def test_five_players_dealer_sits_out_and_gets_zero() -> None:
    """Edu deals and sits out; the rule text's 20-figure hand among the other four: ±6, Edu 0."""
    raw = chamada({"Ana": 11, "Bia": 8, "Caio": 9, "Dani": 7}, {"Ana": 3, "Bia": 2, "Caio": 3, "Dani": 2})
    d = deltas(raw, players=FIVE, dealer="Edu")
    assert d == {"Ana": 6, "Bia": -6, "Caio": 6, "Dani": -6, "Edu": 0}


def test_five_players_cutter_sits_out_and_gets_zero() -> None:
    """sit_out=cutter: Edu deals, Dani (before him) sits out; Edu plays. Solo branco by Edu, won: +48."""
    raw = record("solo_branco", declarer="Edu", tricks={"Edu": 0})
    d = deltas(raw, QuatrilhoOptions(sit_out="cutter"), players=FIVE, dealer="Edu")
    assert d == {"Ana": -16, "Bia": -16, "Caio": -16, "Dani": 0, "Edu": 48}


def test_five_players_timbo_cutter_sits_out() -> None:
    raw = record("carreguete", figures={"Ana": 14, "Bia": 9, "Caio": 7, "Edu": 5})
    d = deltas(raw, QuatrilhoOptions.from_json({"variant": "timbo"}), players=FIVE, dealer="Edu")
    assert d == {"Ana": -18, "Bia": 6, "Caio": 6, "Dani": 0, "Edu": 6}


def test_five_players_sitter_has_a_line() -> None:
    hand = parse_hand(record("monte"), players=FIVE, options=DEFAULT, dealer="Edu")
    s = settle(hand, DEFAULT)
    assert dict(s.deltas) == dict.fromkeys(FIVE, 0)
    assert any("Edu sat out" in str(line.text) for line in s.lines)


# --------------------------------------------------------------------------- the breakdown names the case


@pytest.mark.parametrize(
    ("raw", "options", "words"),
    [
        (GOLDEN[0][1], DEFAULT, ["Ana and Caio won with 20", "6 points"]),
        (GOLDEN[1][1], DEFAULT, ["Capote", "22"]),
        (GOLDEN[2][1], DEFAULT, ["single trick", "10 instead of 11"]),
        (GOLDEN[3][1], DEFAULT, ["Mancha", "Ana", "5 figures", "pays for both"]),
        (GOLDEN[4][1], DEFAULT, ["Solo branco won", "16"]),
        (GOLDEN[7][1], DEFAULT, ["Carreguete", "Ana", "most figures"]),
        (GOLDEN[8][1], DEFAULT, ["Solo preto with an exchange won", "Bia gave the requested card and pays 10 less"]),
        (GOLDEN[9][1], DEFAULT, ["lost", "Bia gave the requested card and receives 10 more"]),
        (GOLDEN[11][1], DEFAULT, ["Solo preto natural won", "10 more"]),
        (GOLDEN[12][1], DEFAULT, ["a monte", "nothing is paid"]),
        (
            chamada(
                {"Ana": 21, "Bia": 5, "Caio": 5, "Dani": 4}, {"Ana": 6, "Bia": 2, "Caio": 1, "Dani": 1}, partner="Ana"
            ),
            DEFAULT,
            ["own hand", "alone"],
        ),
    ],
)
def test_breakdown_names_the_case(raw: dict[str, Any], options: QuatrilhoOptions, words: list[str]) -> None:
    hand = parse_hand(raw, players=PLAYERS, options=options, dealer="Dani")
    text = " ".join(str(line.text) for line in settle(hand, options).lines)
    for word in words:
        assert word in text


def test_registry_and_protocol_surface() -> None:
    rules = get_game("quatrilho")
    assert rules is GAME
    assert (rules.name, rules.min_players, rules.max_players) == ("Quatrilho", 4, 5)
    options = rules.parse_options({})
    hand = rules.parse_hand(GOLDEN[8][1], players=PLAYERS, options=options, dealer="Dani")
    assert rules.dealer_of(hand) == "Dani"
    assert rules.next_dealer(PLAYERS, hand, options) == "Ana"
    assert rules.first_speaker(PLAYERS, "Dani", options) == "Ana"
    assert rules.sitting_out(PLAYERS, "Dani", options) is None
    assert rules.sitting_out(FIVE, "Edu", options) == "Edu"
    assert rules.contract_json(hand) == {
        "mode": "solo_preto",
        "declarer": "Ana",
        "partner": None,
        "giver": "Bia",
        "called_card": None,
        "sitting_out": None,
    }
    assert rules.hand_json(hand)["dealer"] == "Dani"
    assert Mode.SOLO_PRETO.label == "Solo preto"
