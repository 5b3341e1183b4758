"""Jubileu settlement: golden examples from the rule text and its chosen readings, worked by hand.

Notation of the rule text: T tricks needed, t tricks made by the declaring side, v chip value,
a the amount per paying player. Success: a = v + o (o = t - T overtricks). Failure: a = v +
max(0, s - 1) with s the shortfall. Solo: declarer ±3a; partnership: declarer and partner ±a each.
Players in order of play Ana, Bia, Caio, Dani; dealer Dani.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.rules.jubileu import GAME, Bid, JubileuOptions, next_dealer, outcome, parse_hand, settle

PLAYERS = ("Ana", "Bia", "Caio", "Dani")
DEFAULT = JubileuOptions()


def tricks_for(**given_tricks: int) -> dict[str, int]:
    """Fill in the players not given so that the total is 13 (the rest spread as evenly as can be)."""
    rest = [p for p in PLAYERS if p not in given_tricks]
    left = 13 - sum(given_tricks.values())
    out = dict(given_tricks)
    for i, p in enumerate(rest):
        out[p] = left // len(rest) + (1 if i < left % len(rest) else 0)
    assert sum(out.values()) == 13
    return out


def hand(
    bid: str, declarers: list[str], tricks: dict[str, int], options: JubileuOptions = DEFAULT, **details: Any
) -> Any:
    raw: dict[str, Any] = {"ultima": "copas", "contract": {"bid": bid, "declarers": declarers}, "tricks": tricks}
    if bid == "jogo_obrigatorio":
        raw.setdefault("aces", {declarers[0]: 3})
    if not bid.endswith("_da_ultima") and bid != "meia_miseria":
        raw.setdefault("trump", "paus")
    raw.update(details)
    return parse_hand(raw, players=PLAYERS, options=options, dealer="Dani")


def deltas(
    bid: str, declarers: list[str], tricks: dict[str, int], options: JubileuOptions = DEFAULT, **details: Any
) -> dict[str, int]:
    return dict(settle(hand(bid, declarers, tricks, options, **details), options).deltas)


def solo(declarer: str, a: int) -> dict[str, int]:
    """Declarer receives a from each of the three others (a < 0: he pays each of them)."""
    return {p: 3 * a if p == declarer else -a for p in PLAYERS}


# --------------------------------------------------------------------------- the rule text's worked examples


def test_seed_solo_nove_with_7_tricks_pays_4_plus_1_to_each() -> None:
    """ "Se o declarante pediu Solo Nove e fez 7 vazas, pagará a cada um as 4 fichas ... e mais uma ficha." """
    assert deltas("solo_nove", ["Ana"], tricks_for(Ana=7)) == {"Ana": -15, "Bia": 5, "Caio": 5, "Dani": 5}
    assert outcome(Bid.SOLO_NOVE, 7, DEFAULT, partnership=False).per_payer == 5


def test_seed_solo_nove_with_8_tricks_pays_only_4() -> None:
    """ "Se o declarante tivesse feito 8 vazas, pagaria somente as 4 fichas." """
    assert deltas("solo_nove", ["Ana"], tricks_for(Ana=8)) == {"Ana": -12, "Bia": 4, "Caio": 4, "Dani": 4}


def test_jub4_solo_sete_made_with_9_tricks() -> None:
    """Two overtricks, a = 2 + 2 = 4 from each opponent: +12."""
    assert deltas("solo_sete", ["Ana"], tricks_for(Ana=9)) == {"Ana": 12, "Bia": -4, "Caio": -4, "Dani": -4}


def test_jub5_miseria_failed_with_2_tricks() -> None:
    """Margin 2, a = 5 + (2 - 1) = 6 to each: -18."""
    assert deltas("miseria", ["Ana"], tricks_for(Ana=2)) == {"Ana": -18, "Bia": 6, "Caio": 6, "Dani": 6}


# --------------------------------------------------------------------------- partnership: who pays whom


def test_partnership_success_c_pays_a_and_d_pays_b() -> None:
    """Jubileu by Ana with Caio, 8 tricks: a = 2 + 1 = 3. Bia (next after Ana) pays Ana, Dani pays Caio."""
    h = hand("jubileu", ["Ana"], {"Ana": 5, "Bia": 2, "Caio": 3, "Dani": 3}, called="ouros", partner="Caio")
    result = settle(h, DEFAULT)
    assert dict(result.deltas) == {"Ana": 3, "Bia": -3, "Caio": 3, "Dani": -3}
    assert {(p.payer, p.payee, p.amount) for p in result.payments} == {("Bia", "Ana", 3), ("Dani", "Caio", 3)}


def test_partnership_failure_each_pays_one_of_the_other_two() -> None:
    """Same pair, 5 tricks: short by 2, a = 2 + 1 = 3; the partner pays the extra chip too."""
    h = hand("jubileu", ["Ana"], {"Ana": 3, "Bia": 4, "Caio": 2, "Dani": 4}, called="ouros", partner="Caio")
    result = settle(h, DEFAULT)
    assert dict(result.deltas) == {"Ana": -3, "Bia": 3, "Caio": -3, "Dani": 3}
    assert {(p.payer, p.payee, p.amount) for p in result.payments} == {("Ana", "Bia", 3), ("Caio", "Dani", 3)}


def test_partnership_failure_by_one_costs_the_fine_only() -> None:
    h = hand("jubileu_da_ultima", ["Bia"], {"Ana": 3, "Bia": 3, "Caio": 4, "Dani": 3}, called="ouros", partner="Dani")
    assert dict(settle(h, DEFAULT).deltas) == {"Ana": 2, "Bia": -2, "Caio": 2, "Dani": -2}


@pytest.mark.parametrize(
    ("declarer", "partner", "pays_declarer", "pays_partner"),
    [
        ("Ana", "Bia", "Caio", "Dani"),
        ("Ana", "Dani", "Bia", "Caio"),
        ("Caio", "Dani", "Ana", "Bia"),
        ("Caio", "Bia", "Dani", "Ana"),
        ("Dani", "Caio", "Ana", "Bia"),
        ("Bia", "Ana", "Caio", "Dani"),
    ],
)
def test_jub12_pairing_next_defender_after_the_declarer_pays_the_declarer(
    declarer: str, partner: str, pays_declarer: str, pays_partner: str
) -> None:
    tricks = {declarer: 4, partner: 4, pays_declarer: 3, pays_partner: 2}
    h = hand("jubileu", [declarer], tricks, called="ouros", partner=partner)
    result = settle(h, DEFAULT)  # 8 tricks: a = 3
    assert {(p.payer, p.payee, p.amount) for p in result.payments} == {
        (pays_declarer, declarer, 3),
        (pays_partner, partner, 3),
    }


def test_jo_partnership() -> None:
    """JO made exactly (8): a = 3. Failed with 5: s = 3, a = 3 + 2 = 5."""
    made = deltas(
        "jogo_obrigatorio", ["Bia"], {"Ana": 2, "Bia": 5, "Caio": 3, "Dani": 3}, trump="espadas", partner="Dani"
    )
    assert made == {"Ana": -3, "Bia": 3, "Caio": -3, "Dani": 3}
    failed = deltas(
        "jogo_obrigatorio", ["Bia"], {"Ana": 4, "Bia": 3, "Caio": 4, "Dani": 2}, trump="espadas", partner="Dani"
    )
    assert failed == {"Ana": 5, "Bia": -5, "Caio": 5, "Dani": -5}


# --------------------------------------------------------------------------- Meia Miséria


@pytest.mark.parametrize(
    ("t", "a"),
    [
        (1, 3),  # made: exactly one trick
        (0, -3),  # failed, |0 - 1| = 1: the fine only
        (2, -3),  # failed by 1
        (3, -4),  # failed, s = 2: 3 + 1
        (5, -6),  # failed, s = 4: 3 + 3
    ],
)
def test_meia_miseria_single_declarer(t: int, a: int) -> None:
    assert deltas("meia_miseria", ["Caio"], tricks_for(Caio=t)) == solo("Caio", a)


def combine(*parts: dict[str, int]) -> dict[str, int]:
    return {p: sum(part.get(p, 0) for part in parts) for p in PLAYERS}


def against(declarer: str, a: int, others: list[str]) -> dict[str, int]:
    """One declarer's own settlement with the listed others (a < 0: he pays them)."""
    out = dict.fromkeys(PLAYERS, 0)
    for o in others:
        out[o] -= a
        out[declarer] += a
    return out


@pytest.mark.parametrize(
    ("tricks", "results", "everyone", "non_declarers"),
    [
        # Ana made (a=3), Bia failed with 0 (a=3)
        (
            {"Ana": 1, "Bia": 0, "Caio": 6, "Dani": 6},
            {"Ana": 3, "Bia": -3},
            {"Ana": 12, "Bia": -12, "Caio": 0, "Dani": 0},
            {"Ana": 6, "Bia": -6, "Caio": 0, "Dani": 0},
        ),
        # Ana made (a=3), Bia failed with 3 (a=4)
        (
            {"Ana": 1, "Bia": 3, "Caio": 5, "Dani": 4},
            {"Ana": 3, "Bia": -4},
            {"Ana": 13, "Bia": -15, "Caio": 1, "Dani": 1},
            {"Ana": 6, "Bia": -8, "Caio": 1, "Dani": 1},
        ),
        # both made
        (
            {"Ana": 1, "Bia": 1, "Caio": 6, "Dani": 5},
            {"Ana": 3, "Bia": 3},
            {"Ana": 6, "Bia": 6, "Caio": -6, "Dani": -6},
            {"Ana": 6, "Bia": 6, "Caio": -6, "Dani": -6},
        ),
        # both failed by the same margin: the readings coincide
        (
            {"Ana": 0, "Bia": 2, "Caio": 6, "Dani": 5},
            {"Ana": -3, "Bia": -3},
            {"Ana": -6, "Bia": -6, "Caio": 6, "Dani": 6},
            {"Ana": -6, "Bia": -6, "Caio": 6, "Dani": 6},
        ),
        # three declarers: Ana made, Bia failed with 4 (a=5), Dani made
        (
            {"Ana": 1, "Bia": 4, "Caio": 7, "Dani": 1},
            {"Ana": 3, "Bia": -5, "Dani": 3},
            {"Ana": 11, "Bia": -21, "Caio": -1, "Dani": 11},
            {"Ana": 3, "Bia": -5, "Caio": -1, "Dani": 3},
        ),
    ],
)
def test_several_meia_miseria_declarers(
    tricks: dict[str, int], results: dict[str, int], everyone: dict[str, int], non_declarers: dict[str, int]
) -> None:
    declarers = list(results)
    # the hand-worked expectations are what JUB-6 says: each declarer settles as a solo ...
    assert combine(*(against(d, a, [p for p in PLAYERS if p != d]) for d, a in results.items())) == everyone
    # ... or, under the alternative, only with the players who did not declare it
    assert (
        combine(*(against(d, a, [p for p in PLAYERS if p not in declarers]) for d, a in results.items()))
        == non_declarers
    )
    assert deltas("meia_miseria", declarers, tricks) == everyone
    opts = JubileuOptions(meia_miseria_settlement="non_declarers")
    assert deltas("meia_miseria", declarers, tricks, opts) == non_declarers


def test_several_meia_miseria_declarers_in_any_order_settle_alike() -> None:
    tricks = {"Ana": 1, "Bia": 3, "Caio": 5, "Dani": 4}
    for order in permutations(["Ana", "Bia", "Dani"]):
        assert deltas("meia_miseria", list(order), tricks) == deltas("meia_miseria", ["Ana", "Bia", "Dani"], tricks)


def test_all_failing_with_different_margins_the_two_readings_differ() -> None:
    """One would expect both readings to coincide when all fail. That holds only when their
    amounts are equal: here Ana fails by 1 (a = 3) and Bia with 3 tricks (a = 4), so under
    "everyone" Bia also pays Ana 4 while Ana pays Bia 3. Intended, not a bug."""
    tricks = {"Ana": 0, "Bia": 3, "Caio": 5, "Dani": 5}
    everyone = deltas("meia_miseria", ["Ana", "Bia"], tricks)
    non_declarers = deltas(
        "meia_miseria", ["Ana", "Bia"], tricks, JubileuOptions(meia_miseria_settlement="non_declarers")
    )
    assert everyone == {"Ana": -5, "Bia": -9, "Caio": 7, "Dani": 7}
    assert non_declarers == {"Ana": -6, "Bia": -8, "Caio": 7, "Dani": 7}
    # with misere_margin flat every failure costs v, and the readings coincide again
    flat = JubileuOptions(misere_margin="flat")
    flat_nd = JubileuOptions(misere_margin="flat", meia_miseria_settlement="non_declarers")
    assert (
        deltas("meia_miseria", ["Ana", "Bia"], tricks, flat)
        == deltas("meia_miseria", ["Ana", "Bia"], tricks, flat_nd)
        == {
            "Ana": -6,
            "Bia": -6,
            "Caio": 6,
            "Dani": 6,
        }
    )


@st.composite
def mm_hands(draw: st.DrawFn) -> tuple[list[str], dict[str, int], bool]:
    """Several Meia Miséria declarers who all make it, or all fail (with the same margin when
    misère margins count, the condition under which the two readings coincide)."""
    declarers = draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=4, unique=True))
    all_made = draw(st.booleans())
    if all_made:
        own = dict.fromkeys(declarers, 1)
    else:
        t = draw(st.sampled_from([0, 2, 3, 4]))
        own = dict.fromkeys(declarers, t)
    left = 13 - sum(own.values())
    others = [p for p in PLAYERS if p not in declarers]
    if not others:
        if left != 0:
            # four declarers all with the same count cannot add to 13; give the slack to one of
            # them would change his result, so shrink to three declarers
            declarers = declarers[:3]
            own = {d: own[d] for d in declarers}
            left = 13 - sum(own.values())
            others = [p for p in PLAYERS if p not in declarers]
    split = draw(st.lists(st.integers(0, left), min_size=len(others) - 1, max_size=len(others) - 1))
    cuts = sorted(split)
    counts = [b - a for a, b in zip([0, *cuts], [*cuts, left])]
    tricks = {**own, **dict(zip(others, counts))}
    return declarers, tricks, all_made


@given(mm_hands(), st.sampled_from(["deviation", "flat"]))
def test_property_meia_miseria_readings_coincide_when_all_succeed_or_all_fail(
    case: tuple[list[str], dict[str, int], bool], margin: str
) -> None:
    declarers, tricks, _ = case
    a = deltas("meia_miseria", declarers, tricks, JubileuOptions(misere_margin=margin))
    b = deltas(
        "meia_miseria", declarers, tricks, JubileuOptions(misere_margin=margin, meia_miseria_settlement="non_declarers")
    )
    assert a == b


# --------------------------------------------------------------------------- options


def test_overtricks_off() -> None:
    opts = JubileuOptions(overtricks=False)
    assert deltas("solo_sete", ["Ana"], tricks_for(Ana=9), opts) == solo("Ana", 2)
    assert deltas(
        "jubileu", ["Ana"], {"Ana": 5, "Bia": 1, "Caio": 5, "Dani": 2}, opts, called="ouros", partner="Caio"
    ) == {
        "Ana": 2,
        "Bia": -2,
        "Caio": 2,
        "Dani": -2,
    }
    # failures are unchanged: Solo Nove with 7 still pays 5 to each
    assert deltas("solo_nove", ["Ana"], tricks_for(Ana=7), opts) == solo("Ana", -5)


def test_overtricks_only_in_solo_contracts() -> None:
    opts = JubileuOptions(overtricks_in_partnerships=False)
    # Jubileu with 10: no overtrick chips, a = 2
    assert deltas(
        "jubileu", ["Ana"], {"Ana": 5, "Bia": 1, "Caio": 5, "Dani": 2}, opts, called="ouros", partner="Caio"
    ) == {
        "Ana": 2,
        "Bia": -2,
        "Caio": 2,
        "Dani": -2,
    }
    # JO with 10 likewise: a = 3
    assert deltas(
        "jogo_obrigatorio", ["Ana"], {"Ana": 5, "Bia": 5, "Caio": 1, "Dani": 2}, opts, trump="ouros", partner="Bia"
    ) == {
        "Ana": 3,
        "Bia": 3,
        "Caio": -3,
        "Dani": -3,
    }
    # a solo still earns them: Solo Sete with 9, a = 4
    assert deltas("solo_sete", ["Ana"], tricks_for(Ana=9), opts) == solo("Ana", 4)
    # partnership failures still pay the extra chips: Jubileu with 4, s = 3, a = 2 + 2 = 4
    assert deltas(
        "jubileu", ["Ana"], {"Ana": 2, "Bia": 5, "Caio": 2, "Dani": 4}, opts, called="ouros", partner="Caio"
    ) == {
        "Ana": -4,
        "Bia": 4,
        "Caio": -4,
        "Dani": 4,
    }


@pytest.mark.parametrize(
    ("bid", "t", "deviation", "flat"),
    [
        ("miseria", 2, 6, 5),
        ("miseria", 1, 5, 5),
        ("miseria", 5, 9, 5),
        ("meia_miseria", 3, 4, 3),
        ("meia_miseria", 0, 3, 3),
        ("miseria_aberta", 4, 13, 10),
        ("miseria_aberta_com_coloquio", 2, 16, 15),
    ],
)
def test_misere_margin(bid: str, t: int, deviation: int, flat: int) -> None:
    assert deltas(bid, ["Bia"], tricks_for(Bia=t)) == solo("Bia", -deviation)
    assert deltas(bid, ["Bia"], tricks_for(Bia=t), JubileuOptions(misere_margin="flat")) == solo("Bia", -flat)


def test_misere_margin_flat_does_not_touch_plus_contracts() -> None:
    assert deltas("solo_nove", ["Ana"], tricks_for(Ana=7), JubileuOptions(misere_margin="flat")) == solo("Ana", -5)


# --------------------------------------------------------------------------- chip values, made exactly

#: The hierarchy table: (T, v, partnership) per bid.
TABLE = [
    ("jubileu", 7, 2, True),
    ("jubileu_da_ultima", 7, 2, True),
    ("solo_sete", 7, 2, False),
    ("solo_sete_da_ultima", 7, 2, False),
    ("meia_miseria", 1, 3, False),
    ("solo_oito", 8, 3, False),
    ("solo_oito_da_ultima", 8, 3, False),
    ("jogo_obrigatorio", 8, 3, True),
    ("solo_nove", 9, 4, False),
    ("solo_nove_da_ultima", 9, 4, False),
    ("solo_dez", 10, 5, False),
    ("solo_dez_da_ultima", 10, 5, False),
    ("miseria", 0, 5, False),
    ("solo_onze", 11, 6, False),
    ("solo_onze_da_ultima", 11, 6, False),
    ("solo_doze", 12, 7, False),
    ("solo_doze_da_ultima", 12, 7, False),
    ("solo_treze", 13, 8, False),
    ("solo_treze_da_ultima", 13, 8, False),
    ("miseria_aberta", 0, 10, False),
    ("miseria_aberta_com_coloquio", 0, 15, False),
]


def test_table_covers_every_bid() -> None:
    assert [b for b, *_ in TABLE] == [b.value for b in Bid]


@pytest.mark.parametrize(("bid", "T", "v", "partnership"), TABLE)
def test_chip_value_made_exactly(bid: str, T: int, v: int, partnership: bool) -> None:
    if partnership:
        # Caio declares with Ana; side tricks exactly T
        details: dict[str, Any] = {"partner": "Ana"}
        if bid != "jogo_obrigatorio":
            details["called"] = "ouros"
        else:
            details["trump"] = "espadas"
        tricks = tricks_for(Caio=T - T // 2, Ana=T // 2)
        assert deltas(bid, ["Caio"], tricks, **details) == {"Ana": v, "Bia": -v, "Caio": v, "Dani": -v}
    else:
        assert deltas(bid, ["Caio"], tricks_for(Caio=T)) == solo("Caio", v)


@pytest.mark.parametrize(("bid", "T", "v", "partnership"), [row for row in TABLE if not row[3] and row[1] >= 7])
def test_plus_solo_failed_by_one_costs_v(bid: str, T: int, v: int, partnership: bool) -> None:
    assert deltas(bid, ["Caio"], tricks_for(Caio=T - 1)) == solo("Caio", -v)


@pytest.mark.parametrize(("bid", "T", "v", "partnership"), [row for row in TABLE if not row[3] and row[1] >= 7])
def test_plus_solo_with_no_tricks_at_all(bid: str, T: int, v: int, partnership: bool) -> None:
    assert deltas(bid, ["Caio"], tricks_for(Caio=0)) == solo("Caio", -(v + T - 1))


def test_solo_treze_has_no_overtricks_possible_and_miseria_aberta_made() -> None:
    assert deltas("solo_treze_da_ultima", ["Dani"], {"Ana": 0, "Bia": 0, "Caio": 0, "Dani": 13}) == solo("Dani", 8)


def test_breakdown_lines_explain_the_amount() -> None:
    result = settle(hand("solo_sete", ["Ana"], tricks_for(Ana=9)), DEFAULT)
    assert [(line.amount, line.total) for line in result.lines] == [(2, False), (2, False), (4, True)]
    assert "Solo Sete" in str(result.lines[0].text)
    failed = settle(hand("solo_nove", ["Ana"], tricks_for(Ana=7)), DEFAULT)
    assert [line.amount for line in failed.lines] == [4, 1, 5]


# --------------------------------------------------------------------------- all pass, dealer rotation


def test_all_pass_moves_nothing() -> None:
    h = parse_hand(
        {"ultima": "ouros", "auction": [[p, "passo"] for p in PLAYERS]}, players=PLAYERS, options=DEFAULT, dealer="Dani"
    )
    result = settle(h, DEFAULT)
    assert result.payments == ()
    assert dict(result.deltas) == dict.fromkeys(PLAYERS, 0)


@pytest.mark.parametrize(("dealer", "after"), [("Dani", "Ana"), ("Ana", "Bia"), ("Bia", "Caio"), ("Caio", "Dani")])
def test_next_dealer_is_the_next_in_order_of_play(dealer: str, after: str) -> None:
    played = hand("solo_sete", ["Ana"], tricks_for(Ana=7), dealer=dealer)
    all_passed = parse_hand(
        {"ultima": "ouros", "contract": {"bid": "passo"}}, players=PLAYERS, options=DEFAULT, dealer=dealer
    )
    assert next_dealer(PLAYERS, played, DEFAULT) == after
    assert next_dealer(PLAYERS, all_passed, DEFAULT) == after
    redeal = JubileuOptions(all_pass="redeal")
    assert next_dealer(PLAYERS, all_passed, redeal) == dealer
    assert next_dealer(PLAYERS, played, redeal) == after


def test_next_dealer_through_the_game_surface() -> None:
    redeal = JubileuOptions(all_pass="redeal")
    passed = parse_hand(
        {"ultima": "ouros", "dealer": "Bia", "auction": [[p, "passo"] for p in ("Caio", "Dani", "Ana", "Bia")]},
        players=PLAYERS,
        options=redeal,
        dealer="Bia",
    )
    assert GAME.next_dealer(PLAYERS, passed, redeal) == "Bia"
    assert GAME.next_dealer(PLAYERS, passed, DEFAULT) == "Caio"
    played = hand("solo_sete", ["Ana"], tricks_for(Ana=7), redeal)
    assert GAME.next_dealer(PLAYERS, played, redeal) == "Ana"  # dealer Dani -> Ana
