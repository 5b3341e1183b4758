"""Parse_hand: the posted Jubileu record against the rule text.

Error kinds (errors.py, docs/api.md): InvalidInput is a malformed request (400): wrong type, missing
field, unknown field. UnknownPlayer and the rule breaks (IllegalCall, InconsistentHand) are 422.
Players in order of play, dealer Dani, so Ana speaks first.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from referee.rules.cards import Suit
from referee.rules.errors import IllegalCall, InconsistentHand, InvalidInput, RulesError, UnknownPlayer
from referee.rules.jubileu import GAME, Bid, Contract, JubileuHand, JubileuOptions, parse_hand, settle

PLAYERS = ("Ana", "Bia", "Caio", "Dani")
DEFAULT = JubileuOptions()

#: The hierarchy table, column "Trump": who names it.
DECLARER_TRUMP = [
    "solo_sete",
    "solo_oito",
    "solo_nove",
    "solo_dez",
    "miseria",
    "solo_onze",
    "solo_doze",
    "solo_treze",
    "miseria_aberta",
    "miseria_aberta_com_coloquio",
]
ULTIMA_SOLOS = [
    "solo_sete_da_ultima",
    "solo_oito_da_ultima",
    "solo_nove_da_ultima",
    "solo_dez_da_ultima",
    "solo_onze_da_ultima",
    "solo_doze_da_ultima",
    "solo_treze_da_ultima",
]
SOLOS = DECLARER_TRUMP + ULTIMA_SOLOS + ["meia_miseria"]
SPREAD = {"Ana": 4, "Bia": 3, "Caio": 3, "Dani": 3}


def parse(raw: Any, options: JubileuOptions = DEFAULT, dealer: str = "Dani") -> Any:
    return parse_hand(raw, players=PLAYERS, options=options, dealer=dealer)


def refused(
    raw: Any, error: type[RulesError], *words: str, options: JubileuOptions = DEFAULT, field: str | None = None
) -> RulesError:
    with pytest.raises(RulesError) as info:
        parse(raw, options)
    assert type(info.value) is error, f"{type(info.value).__name__}: {info.value}"
    for w in words:
        assert w.lower() in str(info.value).lower(), f"{w!r} not in {str(info.value)!r}"
    if field is not None:
        assert info.value.field == field
    return info.value


def direct(bid: str, declarers: list[str] | None = None, **details: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {"ultima": "copas", "contract": {"bid": bid, "declarers": declarers or ["Ana"]}}
    raw.setdefault("tricks", SPREAD)
    raw.update(details)
    return raw


def solo_auction(bid: str, declarer: str = "Ana") -> list[list[str]]:
    """An auction in which ``declarer`` bids ``bid`` and everyone else passes (Ana speaks first)."""
    calls: list[list[str]] = []
    order = list(PLAYERS)
    i = order.index(declarer)
    for p in order[:i]:
        calls.append([p, "passo"])
    calls.append([declarer, bid])
    for p in order[i + 1 :]:
        calls.append([p, "passo"])
    return calls


# --------------------------------------------------------------------------- shape (400) and names (422)


def test_not_an_object() -> None:
    refused(["ultima", "copas"], InvalidInput, "JSON object")


def test_ultima_is_required() -> None:
    raw = direct("solo_sete", trump="paus")
    del raw["ultima"]
    refused(raw, InvalidInput, "última", field="ultima")


@pytest.mark.parametrize("bad", ["hearts", "Copas", None, 3])
def test_ultima_must_be_a_suit(bad: object) -> None:
    refused({**direct("solo_sete", trump="paus"), "ultima": bad}, InvalidInput, "not a suit", field="ultima")


@pytest.mark.parametrize("key", ["vazas", "Trump", "declarer", "options"])
def test_unknown_fields_are_refused(key: str) -> None:
    refused({**direct("solo_sete", trump="paus"), key: 1}, InvalidInput, key, field=key)


def test_transport_fields_are_not_part_of_the_record() -> None:
    """expected_number travels with the request (the API strips it); the engine refuses it."""
    refused({**direct("solo_sete", trump="paus"), "expected_number": 3}, InvalidInput, "expected_number")


def test_an_all_pass_record_may_carry_all_zero_tricks() -> None:
    passes = {"ultima": "copas", "auction": [[p, "passo"] for p in ("Ana", "Bia", "Caio", "Dani")]}
    parse({**passes, "tricks": {"Ana": 0, "Bia": 0, "Caio": 0, "Dani": 0}})
    refused({**passes, "tricks": {"Ana": 13, "Bia": 0, "Caio": 0, "Dani": 0}}, InconsistentHand, "tricks")


def test_auction_or_contract_is_required() -> None:
    raw = direct("solo_sete", trump="paus")
    del raw["contract"]
    refused(raw, InvalidInput, "auction")


@pytest.mark.parametrize(
    ("raw_auction", "field"),
    [
        ("Ana solo_sete", "auction"),
        ({"Ana": "solo_sete"}, "auction"),
        ([["Ana"]], "auction[0]"),
        ([["Ana", "solo_sete", "x"]], "auction[0]"),
        (["Ana"], "auction[0]"),
        ([["Ana", "solo_sete_e_meio"]], "auction[0]"),
        ([["Ana", None]], "auction[0]"),
        ([[3, "passo"]], "auction[0]"),
    ],
)
def test_malformed_auction(raw_auction: object, field: str) -> None:
    refused({"ultima": "copas", "auction": raw_auction}, InvalidInput, field=field)


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"auction": [["Zeca", "passo"]]}, "auction[0]"),
        ({"dealer": "Zeca"}, "dealer"),
        (
            {
                "partner": "Zeca",
                "called": "ouros",
                "trump": "paus",
                "contract": {"bid": "jubileu", "declarers": ["Ana"]},
            },
            "partner",
        ),
        ({"aces": {"Zeca": 3}}, "aces.Zeca"),
        ({"contract": {"bid": "solo_sete", "declarers": ["Zeca"]}}, "contract.declarers[0]"),
        ({"tricks": {"Ana": 4, "Bia": 3, "Caio": 3, "Dani": 3, "Zeca": 0}}, "tricks.Zeca"),
    ],
)
def test_unknown_player_names(patch: dict[str, Any], field: str) -> None:
    raw = {**direct("solo_sete", trump="paus"), **patch}
    if "auction" in patch:
        del raw["contract"]
    err = refused(raw, UnknownPlayer, "Zeca", "not seated", field=field)
    assert err.code == "unknown_player"


def test_dealer_may_be_named_and_sets_the_first_speaker() -> None:
    raw: dict[str, Any] = {
        "ultima": "copas",
        "dealer": "Ana",
        "auction": solo_auction("solo_sete", "Bia")[1:] + [["Ana", "passo"]],
        "trump": "paus",
        "tricks": {"Ana": 3, "Bia": 7, "Caio": 2, "Dani": 1},
    }
    # dealer Ana: Bia speaks first, Ana last
    assert raw["auction"][0] == ["Bia", "solo_sete"]
    hand = parse(raw)
    assert hand.dealer == "Ana"
    assert hand.contract is not None and hand.contract.declarers == ("Bia",)
    # the same calls under the rotation's dealer (Dani: Ana first) are out of turn
    del raw["dealer"]
    refused(raw, IllegalCall, "not Bia's turn", field="auction[0]")


# --------------------------------------------------------------------------- aces


@pytest.mark.parametrize("count", [1, 2, 5, -1])
def test_aces_count_must_be_3_or_4(count: int) -> None:
    refused(
        direct("jogo_obrigatorio", ["Ana"], aces={"Ana": count}, trump="paus", partner="Bia"),
        InconsistentHand,
        "3 or 4",
        field="aces.Ana",
    )


def test_aces_count_must_be_an_integer() -> None:
    refused(direct("jogo_obrigatorio", aces={"Ana": "3"}, trump="paus", partner="Bia"), InvalidInput, "whole number")
    refused(direct("jogo_obrigatorio", aces={"Ana": True}, trump="paus", partner="Bia"), InvalidInput, "whole number")
    refused(direct("jogo_obrigatorio", aces=[["Ana", 3]], trump="paus", partner="Bia"), InvalidInput, field="aces")


def test_only_one_player_can_hold_three_aces() -> None:
    refused(
        direct("jogo_obrigatorio", aces={"Ana": 3, "Bia": 3}, trump="paus", partner="Bia"),
        InconsistentHand,
        "Only one player",
    )


def test_zero_aces_is_the_same_as_absent() -> None:
    hand = parse(direct("solo_sete", trump="paus", aces={"Bia": 0}))
    assert dict(hand.aces) == {}


# --------------------------------------------------------------------------- trump per bid family


@pytest.mark.parametrize("bid", ULTIMA_SOLOS)
def test_da_ultima_trump_omitted_is_the_ultima(bid: str) -> None:
    hand = parse(direct(bid, ultima="ouros"))
    assert hand.trump is Suit.OUROS
    assert GAME.contract_json(hand)["trump"] == "ouros"


@pytest.mark.parametrize("bid", ULTIMA_SOLOS)
def test_da_ultima_trump_equal_to_ultima_is_accepted(bid: str) -> None:
    assert parse(direct(bid, ultima="ouros", trump="ouros")).trump is Suit.OUROS


@pytest.mark.parametrize("bid", ULTIMA_SOLOS)
@pytest.mark.parametrize("trump", ["copas", "espadas", "paus"])
def test_da_ultima_other_trump_is_refused(bid: str, trump: str) -> None:
    refused(direct(bid, ultima="ouros", trump=trump), InconsistentHand, "última", field="trump")


def test_jubileu_da_ultima_trump() -> None:
    hand = parse(direct("jubileu_da_ultima", ultima="espadas", called="copas", partner="Bia"))
    assert hand.trump is Suit.ESPADAS
    refused(
        direct("jubileu_da_ultima", ultima="espadas", trump="paus", called="copas", partner="Bia"),
        InconsistentHand,
        "última",
        field="trump",
    )


def test_meia_miseria_has_no_trump() -> None:
    hand = parse(direct("meia_miseria", tricks={"Ana": 1, "Bia": 4, "Caio": 4, "Dani": 4}))
    assert hand.trump is None
    for suit in ("copas", "paus"):
        refused(direct("meia_miseria", trump=suit), InconsistentHand, "without trump", field="trump")


@pytest.mark.parametrize("bid", DECLARER_TRUMP)
def test_declarer_trump_is_required(bid: str) -> None:
    refused(direct(bid), InvalidInput, "trump", field="trump")
    hand = parse(direct(bid, trump="espadas"))
    assert hand.trump is Suit.ESPADAS  # any suit, also the última's


@pytest.mark.parametrize("bid", DECLARER_TRUMP)
def test_declarer_may_choose_the_ultima_suit(bid: str) -> None:
    assert parse(direct(bid, trump="copas")).trump is Suit.COPAS


@pytest.mark.parametrize("bid", SOLOS)
def test_solo_contracts_have_no_called_card_or_partner(bid: str) -> None:
    trump: dict[str, Any] = {} if bid == "meia_miseria" or bid in ULTIMA_SOLOS else {"trump": "paus"}
    refused(direct(bid, called="ouros", **trump), InconsistentHand, "no called card", field="called")
    refused(direct(bid, partner="Bia", **trump), InconsistentHand, "without a partner", field="partner")


@pytest.mark.parametrize("bad", ["hearts", 1, ["paus"]])
def test_trump_must_be_a_suit(bad: object) -> None:
    refused(direct("solo_sete", trump=bad), InvalidInput, field="trump")


# --------------------------------------------------------------------------- Jubileu / Jubileu da Última


def test_jubileu_details() -> None:
    hand = parse(direct("jubileu", trump="paus", called="ouros", partner="Caio"))
    assert (hand.trump, hand.called, hand.partner) == (Suit.PAUS, Suit.OUROS, "Caio")


@pytest.mark.parametrize("suit", ["copas", "ouros", "espadas", "paus"])
def test_jubileu_called_ace_is_never_the_trump_ace(suit: str) -> None:
    refused(direct("jubileu", trump=suit, called=suit, partner="Caio"), InconsistentHand, "trump", field="called")


def test_jubileu_da_ultima_called_ace_is_never_the_ultima_ace() -> None:
    refused(
        direct("jubileu_da_ultima", ultima="ouros", called="ouros", partner="Caio"),
        InconsistentHand,
        "trump",
        field="called",
    )
    parse(direct("jubileu_da_ultima", ultima="ouros", called="copas", partner="Caio"))


@pytest.mark.parametrize("bid", ["jubileu", "jubileu_da_ultima"])
def test_jubileu_needs_called_and_partner(bid: str) -> None:
    trump: dict[str, Any] = {"trump": "paus"} if bid == "jubileu" else {}
    refused(direct(bid, partner="Caio", **trump), InvalidInput, "called ace", field="called")
    refused(direct(bid, called="espadas", **trump), InvalidInput, "partner", field="partner")
    if bid == "jubileu":
        refused(direct(bid, called="espadas", partner="Caio"), InvalidInput, "trump", field="trump")


@pytest.mark.parametrize("bid", ["jubileu", "jubileu_da_ultima"])
def test_jubileu_partner_is_not_the_declarer(bid: str) -> None:
    trump: dict[str, Any] = {"trump": "paus"} if bid == "jubileu" else {}
    refused(direct(bid, called="espadas", partner="Ana", **trump), InconsistentHand, "partner", field="partner")


def test_jubileu_self_ace_solo_option_settles_as_a_solo_at_jubileu_value() -> None:
    """Alternative: he plays alone, ±2 with each of three (v = 2, T = 7)."""
    options = JubileuOptions(jubileu_self_ace="solo")
    raw = direct(
        "jubileu", trump="paus", called="espadas", partner="Ana", tricks={"Ana": 7, "Bia": 2, "Caio": 2, "Dani": 2}
    )
    hand = parse(raw, options)
    assert hand.partner == "Ana"
    assert dict(settle(hand, options).deltas) == {"Ana": 6, "Bia": -2, "Caio": -2, "Dani": -2}
    # failing by one trick: the fine only, paid to each of the three
    raw["tricks"] = {"Ana": 6, "Bia": 3, "Caio": 2, "Dani": 2}
    assert dict(settle(parse(raw, options), options).deltas) == {"Ana": -6, "Bia": 2, "Caio": 2, "Dani": 2}
    # 9 tricks alone: 2 overtricks, a = 4 -> +12 (solo, so the partnership overtrick option does not apply)
    raw["tricks"] = {"Ana": 9, "Bia": 2, "Caio": 1, "Dani": 1}
    opts = JubileuOptions(jubileu_self_ace="solo", overtricks_in_partnerships=False)
    assert dict(settle(parse(raw, opts), opts).deltas) == {"Ana": 12, "Bia": -4, "Caio": -4, "Dani": -4}


# --------------------------------------------------------------------------- Jogo Obrigatório


def jo(aces: int, **details: Any) -> dict[str, Any]:
    raw = {
        "ultima": "copas",
        "aces": {"Caio": aces},
        "auction": [["Ana", "passo"], ["Bia", "passo"], ["Caio", "jogo_obrigatorio"], ["Dani", "passo"]],
        "tricks": {"Ana": 2, "Bia": 5, "Caio": 4, "Dani": 2},
    }
    raw.update(details)
    return raw


def test_jo_three_aces_called_is_optional() -> None:
    hand = parse(jo(3, trump="espadas", partner="Bia"))
    assert (hand.trump, hand.called, hand.partner) == (Suit.ESPADAS, None, "Bia")
    hand = parse(jo(3, trump="espadas", called="paus", partner="Bia"))
    assert hand.called is Suit.PAUS


def test_jo_three_aces_trump_is_not_the_fourth_ace_suit() -> None:
    refused(jo(3, trump="paus", called="paus", partner="Bia"), InconsistentHand, "fourth ace", field="trump")


def test_jo_four_aces_needs_the_called_king() -> None:
    refused(jo(4, trump="espadas", partner="Bia"), InvalidInput, "king", field="called")
    hand = parse(jo(4, trump="espadas", called="ouros", partner="Bia"))
    assert hand.called is Suit.OUROS


def test_jo_four_aces_trump_is_not_the_king_suit() -> None:
    refused(jo(4, trump="ouros", called="ouros", partner="Bia"), InconsistentHand, "called king", field="trump")


@pytest.mark.parametrize("aces", [3, 4])
def test_jo_needs_partner_and_trump(aces: int) -> None:
    refused(jo(aces, trump="espadas", called="ouros"), InvalidInput, "partner", field="partner")
    refused(jo(aces, called="ouros", partner="Bia"), InvalidInput, "trump", field="trump")


@pytest.mark.parametrize("aces", [3, 4])
def test_jo_partner_is_not_the_declarer(aces: int) -> None:
    refused(jo(aces, trump="espadas", called="ouros", partner="Caio"), InconsistentHand, "partner", field="partner")


def test_jo_three_aces_self_partner_refused_even_with_self_king_option() -> None:
    """The 4th ace is by definition in another hand; the option is about kings (4 aces)."""
    options = JubileuOptions(jogo_obrigatorio_self_king="solo")
    refused(jo(3, trump="espadas", partner="Caio"), InconsistentHand, "partner", options=options)


def test_jo_self_king_solo_option_settles_as_a_solo_for_eight_at_three() -> None:
    """Alternative: playing alone for 8 tricks at 3 chips as a solo."""
    options = JubileuOptions(jogo_obrigatorio_self_king="solo")
    hand = parse(
        jo(4, trump="espadas", called="ouros", partner="Caio", tricks={"Ana": 2, "Bia": 1, "Caio": 8, "Dani": 2}),
        options,
    )
    assert dict(settle(hand, options).deltas) == {"Ana": -3, "Bia": -3, "Caio": 9, "Dani": -3}
    # 6 tricks: short by 2, a = 3 + 1 = 4, paid to each of three
    hand = parse(
        jo(4, trump="espadas", called="ouros", partner="Caio", tricks={"Ana": 2, "Bia": 3, "Caio": 6, "Dani": 2}),
        options,
    )
    assert dict(settle(hand, options).deltas) == {"Ana": 4, "Bia": 4, "Caio": -12, "Dani": 4}


# --------------------------------------------------------------------------- tricks


@pytest.mark.parametrize(
    ("tricks", "error", "words", "field"),
    [
        ({"Ana": 7, "Bia": 2, "Caio": 2, "Dani": 1}, InconsistentHand, ["12", "13"], "tricks"),
        ({"Ana": 7, "Bia": 2, "Caio": 2, "Dani": 3}, InconsistentHand, ["14"], "tricks"),
        ({"Ana": 14, "Bia": 0, "Caio": 0, "Dani": 0}, InconsistentHand, ["0 to 13"], "tricks.Ana"),
        ({"Ana": 13, "Bia": 1, "Caio": 0, "Dani": -1}, InconsistentHand, ["0 to 13"], "tricks.Dani"),
        ({"Ana": 7, "Bia": 3, "Caio": 3}, InvalidInput, ["missing", "Dani"], "tricks.Dani"),
        ({"Ana": "7", "Bia": 2, "Caio": 2, "Dani": 2}, InvalidInput, ["whole number"], "tricks.Ana"),
        ({"Ana": 7, "Bia": True, "Caio": 3, "Dani": 2}, InvalidInput, ["whole number"], "tricks.Bia"),
        ([7, 2, 2, 2], InvalidInput, ["Tricks"], "tricks"),
        (None, InvalidInput, ["Tricks"], "tricks"),
    ],
)
def test_tricks(tricks: object, error: type[RulesError], words: list[str], field: str) -> None:
    raw = direct("solo_sete", trump="paus")
    raw["tricks"] = tricks
    refused(raw, error, *words, field=field)


@pytest.mark.parametrize("t", range(14))
def test_every_trick_count_from_0_to_13_is_accepted(t: int) -> None:
    rest = 13 - t
    tricks = {"Ana": t, "Bia": rest // 3, "Caio": rest // 3, "Dani": rest - 2 * (rest // 3)}
    assert parse(direct("solo_sete", trump="paus", tricks=tricks)).tricks == tricks


def test_tricks_key_order_does_not_matter() -> None:
    a = parse(direct("solo_sete", trump="paus", tricks={"Dani": 3, "Caio": 3, "Bia": 3, "Ana": 4}))
    b = parse(direct("solo_sete", trump="paus", tricks={"Ana": 4, "Bia": 3, "Caio": 3, "Dani": 3}))
    assert list(a.tricks) == list(PLAYERS)
    assert dict(a.tricks) == dict(b.tricks)


# --------------------------------------------------------------------------- direct contract


def test_direct_contract_without_auction() -> None:
    hand = parse(direct("solo_nove", ["Caio"], trump="paus", tricks={"Ana": 1, "Bia": 1, "Caio": 9, "Dani": 2}))
    assert hand.auction is None
    assert hand.contract is not None and (hand.contract.bid, hand.contract.declarers) == (Bid.SOLO_NOVE, ("Caio",))
    assert hand.to_json()["contract"] == {"bid": "solo_nove", "declarers": ["Caio"]}


def test_direct_contract_and_auction_must_agree() -> None:
    raw = {
        "ultima": "copas",
        "auction": solo_auction("solo_nove", "Caio"),
        "trump": "paus",
        "tricks": {"Ana": 1, "Bia": 1, "Caio": 9, "Dani": 2},
    }
    parse({**raw, "contract": {"bid": "solo_nove", "declarers": ["Caio"]}})
    refused(
        {**raw, "contract": {"bid": "solo_nove", "declarers": ["Bia"]}},
        InconsistentHand,
        "does not match",
        field="contract",
    )
    refused(
        {**raw, "contract": {"bid": "solo_nove_da_ultima", "declarers": ["Caio"]}},
        InconsistentHand,
        "does not match",
        field="contract",
    )
    refused(
        {**raw, "contract": {"bid": "passo", "declarers": []}}, InconsistentHand, "does not match", field="contract"
    )


def test_direct_contract_agrees_with_several_meia_miseria_declarers_in_any_order() -> None:
    raw = {
        "ultima": "copas",
        "tricks": {"Ana": 1, "Bia": 6, "Caio": 1, "Dani": 5},
        "auction": [["Ana", "meia_miseria"], ["Caio", "meia_miseria"], ["Bia", "passo"], ["Dani", "passo"]],
    }
    for order in (["Ana", "Caio"], ["Caio", "Ana"]):
        hand = parse({**raw, "contract": {"bid": "meia_miseria", "declarers": order}})
        assert hand.contract is not None and set(hand.contract.declarers) == {"Ana", "Caio"}
    refused({**raw, "contract": {"bid": "meia_miseria", "declarers": ["Ana"]}}, InconsistentHand, "does not match")


def test_all_pass_auction_and_contract_agree() -> None:
    raw = {"ultima": "copas", "auction": [[p, "passo"] for p in PLAYERS], "contract": {"bid": "passo", "declarers": []}}
    assert parse(raw).contract is None


def test_direct_contract_shape() -> None:
    refused(direct("solo_sete", trump="paus", contract="solo_sete"), InvalidInput, field="contract")
    refused(direct("solo_sete", trump="paus", contract={"bid": "solo_sete", "declarers": []}), InvalidInput, "declarer")
    refused(
        direct("solo_sete", trump="paus", contract={"bid": "solo_sete", "declarers": "Ana"}),
        InvalidInput,
        field="contract.declarers",
    )
    refused(
        direct("solo_sete", trump="paus", contract={"bid": "solo_setenta", "declarers": ["Ana"]}),
        InvalidInput,
        field="contract.bid",
    )
    refused(direct("solo_sete", ["Ana", "Ana"], trump="paus"), InconsistentHand, "twice")
    refused(direct("solo_sete", ["Ana", "Bia"], trump="paus"), InconsistentHand, "Only Meia Miséria")
    refused(direct("passo", ["Ana"]), InconsistentHand, "no declarer")


def test_direct_jo_by_a_non_aces_holder_is_refused() -> None:
    refused(
        direct("jogo_obrigatorio", ["Ana"], trump="paus", partner="Bia"),
        InconsistentHand,
        "3 or 4 aces",
        field="contract",
    )
    refused(
        direct("jogo_obrigatorio", ["Ana"], aces={"Bia": 3}, trump="paus", partner="Bia"),
        InconsistentHand,
        "3 or 4 aces",
    )
    options = JubileuOptions(jogo_obrigatorio_bidders="anyone")
    parse(direct("jogo_obrigatorio", ["Ana"], trump="paus", called="ouros", partner="Bia"), options)


@pytest.mark.parametrize(
    "bid", ["jubileu", "solo_sete", "solo_sete_da_ultima", "meia_miseria", "solo_oito", "solo_oito_da_ultima"]
)
def test_direct_contract_below_jo_with_a_forced_player_is_refused(bid: str) -> None:
    details: dict[str, Any] = {
        "jubileu": {"trump": "paus", "called": "ouros", "partner": "Bia"},
        "solo_sete": {"trump": "paus"},
        "solo_oito": {"trump": "paus"},
    }.get(bid, {})
    for holder in ("Ana", "Bia"):  # the declarer or another player holds the aces
        refused(
            direct(bid, ["Ana"], aces={holder: 3}, **details),
            InconsistentHand,
            "at least Jogo Obrigatório",
            field="contract",
        )


def test_direct_contract_above_jo_by_another_player_with_a_forced_player_is_accepted() -> None:
    parse(
        direct("solo_nove", ["Ana"], aces={"Bia": 3}, trump="paus", tricks={"Ana": 9, "Bia": 4, "Caio": 0, "Dani": 0})
    )


def test_direct_all_pass_with_a_forced_player_is_refused() -> None:
    raw = {"ultima": "copas", "aces": {"Dani": 4}, "contract": {"bid": "passo", "declarers": []}}
    refused(raw, InconsistentHand, "could not have passed", field="contract")


def test_auction_all_pass_with_a_forced_player_is_impossible() -> None:
    raw = {"ultima": "copas", "aces": {"Dani": 4}, "auction": [[p, "passo"] for p in PLAYERS]}
    refused(raw, IllegalCall, "aces", "pass", field="auction[3]")


# --------------------------------------------------------------------------- all pass


def test_all_pass_record() -> None:
    raw = {"ultima": "copas", "auction": [[p, "passo"] for p in PLAYERS]}
    hand = parse(raw)
    assert hand.contract is None and hand.tricks is None
    assert dict(settle(hand, DEFAULT).deltas) == dict.fromkeys(PLAYERS, 0)
    assert GAME.contract_json(hand) == {"bid": "passo", "declarers": []}
    for key, value in (("trump", "paus"), ("called", "ouros"), ("partner", "Bia"), ("tricks", SPREAD)):
        refused({**raw, key: value}, InconsistentHand, field=key)


# --------------------------------------------------------------------------- the docs/api.md example


API_EXAMPLE = {
    "dealer": "Dani",
    "ultima": "copas",
    "aces": {"Caio": 3},
    "auction": [
        ["Ana", "solo_sete"],
        ["Bia", "passo"],
        ["Caio", "jogo_obrigatorio"],
        ["Dani", "passo"],
        ["Ana", "passo"],
    ],
    "trump": "espadas",
    "called": "paus",
    "partner": "Bia",
    "tricks": {"Ana": 2, "Bia": 5, "Caio": 4, "Dani": 2},
}


def test_api_example_parses_and_settles() -> None:
    """JO by Caio (3 aces), partner Bia: side tricks 5 + 4 = 9 against 8 needed, made with one
    overtrick, so a = v + o = 3 + 1 = 4 from each defender; the defender after Caio in
    order of play (Dani) pays Caio, the other (Ana) pays Bia."""
    hand = parse(API_EXAMPLE)
    assert hand.contract is not None
    assert (hand.contract.bid, hand.contract.declarers) == (Bid.JOGO_OBRIGATORIO, ("Caio",))
    assert (hand.trump, hand.called, hand.partner) == (Suit.ESPADAS, Suit.PAUS, "Bia")
    result = settle(hand, DEFAULT)
    assert dict(result.deltas) == {"Ana": -4, "Bia": 4, "Caio": 4, "Dani": -4}
    pairs = {(p.payer, p.payee, p.amount) for p in result.payments}
    assert pairs == {("Dani", "Caio", 4), ("Ana", "Bia", 4)}
    assert sum(line.amount for line in result.lines if not line.total) == 4 == result.lines[-1].amount
    # round trip: the stored record parses to the same hand
    assert parse(hand.to_json()) == hand
    assert GAME.contract_json(hand) == {
        "bid": "jogo_obrigatorio",
        "declarers": ["Caio"],
        "partner": "Bia",
        "trump": "espadas",
        "called": "paus",
    }


def test_game_rules_surface() -> None:
    from referee.rules import get_game

    game = get_game("jubileu")
    options = game.parse_options({"overtricks": False})
    hand = game.parse_hand(API_EXAMPLE, players=PLAYERS, options=options, dealer="Dani")
    assert dict(game.settle(hand, options).deltas) == {"Ana": -3, "Bia": 3, "Caio": 3, "Dani": -3}
    assert game.dealer_of(hand) == "Dani"
    assert game.next_dealer(PLAYERS, hand, options) == "Ana"
    with pytest.raises(InvalidInput):
        game.parse_options({"overtrick": False})
    with pytest.raises(InvalidInput):
        game.parse_options({"misere_margin": "double"})


def test_a_table_of_the_wrong_size_breaks_a_rule() -> None:
    """Jubileu is played by exactly 4: a record for another table is a 422, as when it is seated."""
    with pytest.raises(RulesError) as info:
        parse_hand(direct("solo_sete", trump="paus"), players=PLAYERS[:3], options=DEFAULT, dealer="Caio")
    assert info.value.code == "rules_error" and info.value.field == "players" and "exactly 4" in str(info.value)


def test_a_record_built_by_hand_checks_itself() -> None:
    """A hand object cannot hold a stranger, a declarer not seated or a contract without its 13
    tricks, however it was made."""
    hand = parse(API_EXAMPLE)
    assert JubileuHand(**{f.name: getattr(hand, f.name) for f in dataclasses.fields(hand)}) == hand
    with pytest.raises(UnknownPlayer) as info:
        dataclasses.replace(hand, partner="Nobody")
    assert info.value.field == "partner"
    with pytest.raises(UnknownPlayer):
        dataclasses.replace(hand, dealer="Zé")
    with pytest.raises(UnknownPlayer) as info:
        dataclasses.replace(hand, contract=Contract(bid=Bid.SOLO_SETE, declarers=("Zé",)))
    assert info.value.field == "contract.declarers[0]"
    with pytest.raises(InconsistentHand) as info:
        dataclasses.replace(hand, tricks={"Ana": 2, "Bia": 2, "Caio": 2, "Dani": 2})
    assert info.value.field == "tricks"
    with pytest.raises(RulesError) as info:
        dataclasses.replace(hand, players=(*PLAYERS, "Edu"))
    assert info.value.field == "players"
