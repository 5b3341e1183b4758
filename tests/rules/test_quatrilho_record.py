"""Quatrilho hand records: shapes (400), rule breaks (422) with the sentence that names the
problem and the field it points at (Q-L2 to Q-L9; docs/api.md); the options
and the Timbó preset; seats with 4 and 5 players; cards of the 40-card deck."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from referee.rules.cards import SPANISH_DECK, SPANISH_RANKS, Card, Suit, figures_of, rank_label
from referee.rules.errors import IllegalCall, InconsistentHand, InvalidInput, RulesError, UnknownPlayer
from referee.rules.game import deal_passes_on as next_dealer
from referee.rules.options import OptionSpec
from referee.rules.quatrilho import (
    OPTIONS,
    Mode,
    QuatrilhoHand,
    QuatrilhoOptions,
    active_players,
    first_speaker,
    parse_hand,
    sitting_out,
)

PLAYERS = ("Ana", "Bia", "Caio", "Dani")
FIVE = ("Ana", "Bia", "Caio", "Dani", "Edu")
DEFAULT = QuatrilhoOptions()
FIG = {"Ana": 11, "Bia": 8, "Caio": 9, "Dani": 7}
TRK = {"Ana": 3, "Bia": 2, "Caio": 3, "Dani": 2}


def chamada(**over: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "dealer": "Dani",
        "mode": "chamada",
        "declarer": "Ana",
        "called_card": {"rank": "3", "suit": "paus"},
        "partner": "Caio",
        "figures": dict(FIG),
        "tricks": dict(TRK),
    }
    raw.update(over)
    return {k: v for k, v in raw.items() if v is not ...}


def solo(**over: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "mode": "solo_preto",
        "declarer": "Ana",
        "figures": {"Ana": 20, "Bia": 5, "Caio": 5, "Dani": 5},
        "tricks": {"Ana": 5, "Bia": 2, "Caio": 2, "Dani": 1},
    }
    raw.update(over)
    return {k: v for k, v in raw.items() if v is not ...}


def parse(
    raw: Any, options: QuatrilhoOptions = DEFAULT, players: tuple[str, ...] = PLAYERS, dealer: str = "Dani"
) -> Any:
    return parse_hand(raw, players=players, options=options, dealer=dealer)


def refused(
    raw: Any,
    kind: type[RulesError],
    field: str | None,
    *words: str,
    options: QuatrilhoOptions = DEFAULT,
    players: tuple[str, ...] = PLAYERS,
    dealer: str = "Dani",
) -> RulesError:
    with pytest.raises(kind) as info:
        parse(raw, options, players, dealer)
    error = info.value
    assert type(error) is kind, f"{type(error).__name__}: {error}"
    assert error.field == field
    for word in words:
        assert word in str(error), f"{word!r} not in {str(error)!r}"
    assert str(error).endswith(".")
    return error


# --------------------------------------------------------------------------- legal records


def test_the_api_example_parses_and_round_trips() -> None:
    raw = chamada()
    hand = parse(raw)
    assert hand.mode is Mode.CHAMADA and hand.declarer == "Ana" and hand.partner == "Caio"
    assert hand.called_card == Card(rank="3", suit=Suit.PAUS)
    assert hand.active == PLAYERS and hand.sitting_out is None
    assert hand.to_json() == raw
    assert parse(hand.to_json()) == hand


def test_order_of_typing_does_not_matter() -> None:
    a = parse(chamada(figures=dict(reversed(list(FIG.items()))), tricks=dict(reversed(list(TRK.items())))))
    b = parse(chamada())
    assert a == b
    assert list(a.figures) == list(PLAYERS)


def test_nulls_are_absent() -> None:
    hand = parse(solo(giver=None, called_card=None, partner=None, auction=None))
    assert hand.giver is None and hand.called_card is None and hand.auction is None


def test_dealer_from_the_record_wins_over_rotation() -> None:
    hand = parse(chamada(dealer="Bia", figures={"Ana": 11, "Bia": 8, "Caio": 9, "Dani": 7}))
    assert hand.dealer == "Bia"
    assert hand.active == ("Caio", "Dani", "Ana", "Bia")


@pytest.mark.parametrize(
    "raw",
    [
        {"mode": "monte"},
        {"mode": "carreguete", "figures": FIG},
        {"mode": "carreguete", "figures": FIG, "tricks": TRK},
        {"mode": "solo_branco", "declarer": "Bia", "tricks": {"Bia": 1}},
        {"mode": "solo_branco", "declarer": "Bia", "tricks": {"Bia": 0, "Ana": 4, "Caio": 3, "Dani": 3}},
        {"mode": "solo_branco", "declarer": "Bia", "tricks": {"Bia": 1, "Ana": 2}},
    ],
)
def test_other_modes_accept_their_minimal_record(raw: dict[str, Any]) -> None:
    assert parse(raw).to_json()["mode"] == raw["mode"]


def test_caller_alone_is_partner_equal_to_declarer() -> None:
    """Calling a card from his own hand."""
    assert parse(chamada(partner="Ana")).caller_alone


# --------------------------------------------------------------------------- shape (400)


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        ([], None, ["JSON object"]),
        (chamada(trump="copas"), "trump", ["no field called trump"]),
        (chamada(mode=...), "mode", ["mode"]),
        (chamada(mode="solo"), "mode", ["solo is not a Quatrilho mode"]),
        (chamada(declarer=...), "declarer", ["caller"]),
        (solo(declarer=...), "declarer", ["soloist"]),
        (chamada(called_card=...), "called_card", ["called card"]),
        (chamada(called_card="3 de paus"), "called_card", ["rank and suit"]),
        (chamada(called_card={"rank": 3, "suit": "paus"}), "called_card.rank", ["not a card rank"]),
        (chamada(called_card={"rank": "A", "suit": "paus"}), "called_card.rank", ["A is not a card rank"]),
        (chamada(called_card={"rank": "3", "suit": "bastos"}), "called_card.suit", ["bastos is not a suit"]),
        (chamada(partner=...), "partner", ["partner", "called card"]),
        (chamada(figures=...), "figures", ["figures", "35"]),
        (chamada(tricks=...), "tricks", ["tricks", "10"]),
        (chamada(figures=[11, 8, 9, 7]), "figures", ["count for each player"]),
        (chamada(figures={"Ana": 11, "Bia": 8, "Caio": 9}), "figures.Dani", ["Dani is missing"]),
        (chamada(figures={"Ana": 11.0, "Bia": 8, "Caio": 9, "Dani": 7}), "figures.Ana", ["whole number"]),
        (chamada(tricks={"Ana": True, "Bia": 2, "Caio": 3, "Dani": 4}), "tricks.Ana", ["whole number"]),
        (chamada(declarer=7), "declarer", ["by name"]),
        (chamada(auction="passo"), "auction", ["list"]),
        (chamada(auction=[["Ana"]]), "auction[0]", ["pair"]),
        (chamada(auction=[["Ana", "pass"]]), "auction[0]", ["pass is not a Quatrilho call"]),
        ({"mode": "solo_branco", "declarer": "Bia"}, "tricks.Bia", ["0 (won) or 1 (lost)"]),
        ({"mode": "solo_branco", "declarer": "Bia", "tricks": {"Ana": 0}}, "tricks.Bia", ["0 (won) or 1 (lost)"]),
        ({"mode": "carreguete"}, "figures", ["figures"]),
    ],
)
def test_shape_errors_are_400(raw: Any, field: str | None, words: list[str]) -> None:
    refused(raw, InvalidInput, field, *words)


# --------------------------------------------------------------------------- names (422)


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        (chamada(declarer="Zé"), "declarer"),
        (chamada(partner="Zé"), "partner"),
        (solo(giver="Zé"), "giver"),
        (chamada(figures={"Ana": 11, "Bia": 8, "Caio": 9, "Zé": 7}), "figures.Zé"),
        (chamada(tricks={"Ana": 3, "Bia": 2, "Caio": 3, "Zé": 2}), "tricks.Zé"),
        (chamada(dealer="Zé"), "dealer"),
        (chamada(auction=[["Zé", "passo"]]), "auction[0]"),
    ],
)
def test_unknown_player_is_422(raw: Any, field: str) -> None:
    refused(raw, UnknownPlayer, field, "Zé is not seated at this table")


# --------------------------------------------------------------------------- Q-L3, Q-L4: counts


def test_figures_must_add_up_to_35() -> None:
    refused(
        chamada(figures={"Ana": 11, "Bia": 8, "Caio": 9, "Dani": 6}),
        InconsistentHand,
        "figures",
        "The figures add up to 34; they must add up to 35.",
    )


def test_figures_over_35_for_one_player() -> None:
    refused(
        chamada(figures={"Ana": 36, "Bia": 0, "Caio": 0, "Dani": 0}), InconsistentHand, "figures.Ana", "36", "0 to 35"
    )


def test_negative_figures() -> None:
    refused(chamada(figures={"Ana": -1, "Bia": 18, "Caio": 9, "Dani": 9}), InconsistentHand, "figures.Ana", "-1")


def test_tricks_must_add_up_to_10() -> None:
    refused(
        chamada(tricks={"Ana": 3, "Bia": 2, "Caio": 3, "Dani": 1}),
        InconsistentHand,
        "tricks",
        "The tricks add up to 9; they must add up to 10.",
    )


def test_tricks_over_10() -> None:
    refused(chamada(tricks={"Ana": 11, "Bia": 0, "Caio": 0, "Dani": 0}), InconsistentHand, "tricks.Ana", "0 to 10")


def test_no_tricks_means_no_figures() -> None:
    """Figures belong to the player who won the trick."""
    refused(
        chamada(figures={"Ana": 11, "Bia": 8, "Caio": 9, "Dani": 7}, tricks={"Ana": 4, "Bia": 3, "Caio": 3, "Dani": 0}),
        InconsistentHand,
        "figures.Dani",
        "Dani took no trick",
        "7 figures",
    )


def test_t_tricks_hold_at_most_12t_plus_3() -> None:
    """One trick: at most 15 figures (four aces and the last trick); 16 is refused."""
    refused(
        chamada(figures={"Ana": 16, "Bia": 8, "Caio": 5, "Dani": 6}, tricks={"Ana": 1, "Bia": 3, "Caio": 3, "Dani": 3}),
        InconsistentHand,
        "figures.Ana",
        "Ana took 1 trick",
        "at most 15",
        "16",
    )
    # exactly 15 is possible
    parse(
        chamada(figures={"Ana": 15, "Bia": 8, "Caio": 6, "Dani": 6}, tricks={"Ana": 1, "Bia": 3, "Caio": 3, "Dani": 3})
    )


def test_counts_checked_in_carreguete_when_tricks_given() -> None:
    refused(
        {"mode": "carreguete", "figures": FIG, "tricks": {"Ana": 5, "Bia": 0, "Caio": 3, "Dani": 2}},
        InconsistentHand,
        "figures.Bia",
        "Bia took no trick",
    )
    refused(
        {"mode": "carreguete", "figures": {"Ana": 10, "Bia": 8, "Caio": 9, "Dani": 7}},
        InconsistentHand,
        "figures",
        "34",
    )


def test_side_with_all_tricks_has_all_figures() -> None:
    """A side with 10 tricks has all 35 figures (the other side's 0 tricks, 0 figures)."""
    refused(
        chamada(
            figures={"Ana": 20, "Bia": 1, "Caio": 14, "Dani": 0}, tricks={"Ana": 6, "Bia": 0, "Caio": 4, "Dani": 0}
        ),
        InconsistentHand,
        "figures.Bia",
        "Bia took no trick",
    )


# --------------------------------------------------------------------------- contract details


def test_declarer_sitting_out_is_refused() -> None:
    raw = chamada(dealer=..., declarer="Edu")
    refused(raw, InconsistentHand, "declarer", "Edu sits out this hand", players=FIVE, dealer="Edu")


def test_partner_must_be_active() -> None:
    refused(chamada(dealer=..., partner="Edu"), InconsistentHand, "partner", "Edu sits out", players=FIVE, dealer="Edu")


def test_sitter_must_not_appear_in_counts() -> None:
    figures = {"Ana": 11, "Bia": 8, "Caio": 9, "Dani": 7, "Edu": 0}
    refused(
        chamada(dealer=..., figures=figures),
        InconsistentHand,
        "figures.Edu",
        "Edu does not play this hand",
        players=FIVE,
        dealer="Edu",
    )
    tricks = {"Ana": 3, "Bia": 2, "Caio": 3, "Dani": 2, "Edu": 0}
    refused(
        chamada(dealer=..., tricks=tricks),
        InconsistentHand,
        "tricks.Edu",
        "Edu does not play this hand",
        players=FIVE,
        dealer="Edu",
    )


def test_counts_of_the_four_who_played_with_cutter_out() -> None:
    """sit_out=cutter: Edu deals, Dani sits out; Dani's count is refused, Edu's required."""
    options = QuatrilhoOptions(sit_out="cutter")
    refused(
        chamada(dealer=...),
        InconsistentHand,
        "figures.Dani",
        "Dani does not play",
        options=options,
        players=FIVE,
        dealer="Edu",
    )
    hand = parse(
        chamada(
            dealer=...,
            figures={"Ana": 11, "Bia": 8, "Caio": 9, "Edu": 7},
            tricks={"Ana": 3, "Bia": 2, "Caio": 3, "Edu": 2},
        ),
        options,
        FIVE,
        "Edu",
    )
    assert hand.sitting_out == "Dani" and hand.active == ("Ana", "Bia", "Caio", "Edu")


def test_called_card_8_or_9_is_not_in_the_deck() -> None:
    """40 cards, without the 8s and 9s: a rule break, 422."""
    refused(
        chamada(called_card={"rank": "8", "suit": "ouros"}),
        InconsistentHand,
        "called_card.rank",
        "no 8",
        "40-card deck",
    )
    refused(chamada(called_card={"rank": "9", "suit": "ouros"}), InconsistentHand, "called_card.rank", "no 9")


@pytest.mark.parametrize("rank", SPANISH_RANKS)
def test_every_real_card_may_be_called(rank: str) -> None:
    assert parse(chamada(called_card={"rank": rank, "suit": "copas"})).called_card.rank == rank


def test_giver_with_solo_branco_is_422() -> None:
    """Solo branco may not exchange any card."""
    refused(
        {"mode": "solo_branco", "declarer": "Bia", "giver": "Ana", "tricks": {"Bia": 0}},
        InconsistentHand,
        "giver",
        "solo branco may not exchange",
    )


def test_giver_cannot_be_the_soloist() -> None:
    refused(solo(giver="Ana"), InconsistentHand, "giver", "cannot be Ana, the soloist")


def test_giver_must_be_active() -> None:
    raw = solo(giver="Edu")
    refused(raw, InconsistentHand, "giver", "Edu sits out", players=FIVE, dealer="Edu")


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        (solo(called_card={"rank": "3", "suit": "paus"}), "called_card", ["Only a chamada has a called card"]),
        (solo(partner="Bia"), "partner", ["Only a chamada has a partner"]),
        (chamada(giver="Bia"), "giver", ["Only a solo preto can have a card giver"]),
        ({"mode": "carreguete", "declarer": "Ana", "figures": FIG}, "declarer", ["Nobody declares"]),
        ({"mode": "monte", "declarer": "Ana"}, "declarer", ["Nobody declares"]),
        ({"mode": "monte", "figures": FIG}, "figures", ["a monte", "figures"]),
        ({"mode": "monte", "tricks": TRK}, "tricks", ["a monte", "tricks"]),
        (
            {"mode": "solo_branco", "declarer": "Ana", "tricks": {"Ana": 0}, "figures": FIG},
            "figures",
            ["not counted in Solo branco"],
        ),
    ],
)
def test_fields_that_do_not_belong_to_the_mode(raw: Any, field: str, words: list[str]) -> None:
    refused(raw, InconsistentHand, field, *words)


@pytest.mark.parametrize("count", [2, 3, 10])
def test_solo_branco_soloist_tricks_0_or_1(count: int) -> None:
    """Play stops at the soloist's first trick."""
    refused(
        {"mode": "solo_branco", "declarer": "Bia", "tricks": {"Bia": count}},
        InconsistentHand,
        "tricks.Bia",
        "0 tricks (won) or 1 (lost)",
        f"not {count}",
    )


def test_solo_branco_other_counts_are_checked() -> None:
    refused(
        {"mode": "solo_branco", "declarer": "Bia", "tricks": {"Bia": 0, "Ana": 4, "Caio": 3, "Dani": 2}},
        InconsistentHand,
        "tricks",
        "9",
    )
    refused(
        {"mode": "solo_branco", "declarer": "Bia", "tricks": {"Bia": 1, "Ana": 6, "Caio": 5}},
        InconsistentHand,
        "tricks",
        "12",
    )
    refused(
        {"mode": "solo_branco", "declarer": "Bia", "tricks": {"Bia": 0, "Edu": 4}},
        InconsistentHand,
        "tricks.Edu",
        "does not play",
        players=FIVE,
        dealer="Edu",
    )


# --------------------------------------------------------------------------- the auction agrees with the record


CHAMADA_AUCTION = [["Ana", "chamo"], ["Bia", "e_bom"], ["Caio", "e_bom"], ["Dani", "e_bom"]]


def test_auction_that_agrees_is_stored() -> None:
    hand = parse(chamada(auction=CHAMADA_AUCTION))
    assert hand.to_json()["auction"] == CHAMADA_AUCTION


def test_auction_must_agree_with_mode() -> None:
    auction = [["Ana", "chamo"], ["Bia", "solo_branco"], ["Caio", "e_bom"], ["Dani", "e_bom"]]
    refused(chamada(auction=auction), InconsistentHand, "mode", "Solo branco by Bia")


def test_auction_must_agree_with_declarer() -> None:
    auction = [["Ana", "passo"], ["Bia", "chamo"], ["Caio", "e_bom"], ["Dani", "e_bom"]]
    refused(chamada(auction=auction), InconsistentHand, "declarer", "Bia")


def test_all_pass_auction_means_carreguete_or_monte() -> None:
    passes = [["Ana", "passo"], ["Bia", "passo"], ["Caio", "passo"], ["Dani", "passo"]]
    assert parse({"mode": "monte", "auction": passes}).mode is Mode.MONTE
    assert parse({"mode": "carreguete", "figures": FIG, "auction": passes}).mode is Mode.CARREGUETE
    refused(chamada(auction=passes), InconsistentHand, "mode", "Everybody passed")


def test_monte_against_a_bid_auction() -> None:
    refused({"mode": "monte", "auction": CHAMADA_AUCTION}, InconsistentHand, "mode", "Chamada by Ana")


def test_natural_solo_has_no_giver() -> None:
    auction = [["Ana", "solo_preto_natural"], ["Bia", "passo"], ["Caio", "passo"], ["Dani", "passo"]]
    parse(solo(auction=auction))
    refused(solo(auction=auction, giver="Bia"), InconsistentHand, "giver", "natural")


def test_exchange_solo_names_its_giver() -> None:
    auction = [["Ana", "solo_preto"], ["Bia", "passo"], ["Caio", "passo"], ["Dani", "passo"]]
    parse(solo(auction=auction, giver="Bia"))
    refused(solo(auction=auction), InconsistentHand, "giver", "with an exchange")


def test_illegal_auction_is_illegal_call_at_its_index() -> None:
    """After "é bom" a player may not solo."""
    auction = [["Ana", "chamo"], ["Bia", "e_bom"], ["Bia", "solo_preto"]]
    refused(solo(declarer="Bia", auction=auction), IllegalCall, "auction[2]", 'Bia answered "é bom"')


def test_incomplete_auction() -> None:
    refused(chamada(auction=[["Ana", "chamo"], ["Bia", "e_bom"]]), IllegalCall, "auction", "Caio still has to speak")


def test_sitter_in_the_auction() -> None:
    auction = [["Edu", "passo"]]
    refused(
        chamada(dealer=..., auction=auction),
        IllegalCall,
        "auction[0]",
        "Edu does not play this hand",
        players=FIVE,
        dealer="Edu",
    )


# --------------------------------------------------------------------------- options and the Timbó preset


def test_option_names_and_defaults_are_the_contract() -> None:
    """The docs/api.md names and defaults, plus the alternatives at their chosen readings."""
    assert QuatrilhoOptions.from_json({}).to_json() == {
        "variant": "padrao",
        "no_bid": "carreguete",
        "solo_branco_rate": 16,
        "giver_on_loss": "plus_10",
        "sit_out": "dealer",
        "one_trick": "flat_10",
        "carreguete_rate": 6,
        "solo_natural_extra": 0,
        "talha": 100,
        "unit_value": "0",
        "capote_in_solos": False,
        "caller_alone": "per_opponent",
        "solo_rate_from": "winning_side",
        "carreguete_compare": "figures",
        "carreguete_ties": "tied_pay",
    }
    assert QuatrilhoOptions.from_json(None) == QuatrilhoOptions()


def test_every_option_is_described() -> None:
    for spec in OPTIONS:
        assert isinstance(spec, OptionSpec)
        assert str(spec.label) and str(spec.help)
        if spec.kind == "choice":
            assert spec.default in [c.value for c in spec.choices]
    assert {s.rule_ref for s in OPTIONS if s.name not in ("talha", "unit_value")} == {"docs/rules.md#quatrilho-options"}


def test_timbo_preset() -> None:
    options = QuatrilhoOptions.from_json({"variant": "timbo"})
    assert (options.no_bid, options.solo_branco_rate, options.giver_on_loss, options.sit_out) == (
        "monte",
        10,
        "same",
        "cutter",
    )
    assert options.to_json()["variant"] == "timbo"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("no_bid", "carreguete"),
        ("solo_branco_rate", 16),
        ("giver_on_loss", "plus_10"),
        ("sit_out", "dealer"),
        ("solo_branco_rate", 12),
    ],
)
def test_explicit_option_wins_over_the_timbo_preset(name: str, value: Any) -> None:
    options = QuatrilhoOptions.from_json({"variant": "timbo", name: value})
    assert getattr(options, name) == value
    others = {
        k: v
        for k, v in {"no_bid": "monte", "solo_branco_rate": 10, "giver_on_loss": "same", "sit_out": "cutter"}.items()
        if k != name
    }
    for k, v in others.items():
        assert getattr(options, k) == v


def test_options_round_trip() -> None:
    options = QuatrilhoOptions.from_json({"variant": "timbo", "sit_out": "dealer", "unit_value": "0,25"})
    assert options.unit_value == "0.25"
    assert QuatrilhoOptions.from_json(options.to_json()) == options


@pytest.mark.parametrize(
    "raw",
    [
        {"variant": "gaucho"},
        {"no_bid": "rolar"},
        {"solo_branco_rate": "16"},
        {"solo_branco_rate": 0},
        {"carreguete_rate": -1},
        {"capote_in_solos": "yes"},
        {"unit_value": 0.5},
        {"overtricks": True},
        "timbo",
    ],
)
def test_bad_options_are_400(raw: Any) -> None:
    with pytest.raises(InvalidInput):
        QuatrilhoOptions.from_json(raw)


def test_monte_accepted_whatever_no_bid_says() -> None:
    """The API contract (docs/api.md): no_bid only sets which of the two the page offers first."""
    for no_bid in ("carreguete", "monte"):
        options = QuatrilhoOptions(no_bid=no_bid)
        assert parse({"mode": "monte"}, options).mode is Mode.MONTE
        assert parse({"mode": "carreguete", "figures": FIG}, options).mode is Mode.CARREGUETE


# --------------------------------------------------------------------------- seats


def test_four_players_nobody_sits_out() -> None:
    assert sitting_out(PLAYERS, "Dani", DEFAULT) is None
    assert active_players(PLAYERS, "Dani", DEFAULT) == ("Ana", "Bia", "Caio", "Dani")
    assert active_players(PLAYERS, "Ana", DEFAULT) == ("Bia", "Caio", "Dani", "Ana")
    assert first_speaker(PLAYERS, "Bia", DEFAULT) == "Caio"


@pytest.mark.parametrize(
    ("dealer", "sit_out", "out", "active"),
    [
        ("Edu", "dealer", "Edu", ("Ana", "Bia", "Caio", "Dani")),
        ("Ana", "dealer", "Ana", ("Bia", "Caio", "Dani", "Edu")),
        ("Edu", "cutter", "Dani", ("Ana", "Bia", "Caio", "Edu")),
        ("Ana", "cutter", "Edu", ("Bia", "Caio", "Dani", "Ana")),
        ("Caio", "cutter", "Bia", ("Dani", "Edu", "Ana", "Caio")),
    ],
)
def test_five_players(dealer: str, sit_out: str, out: str, active: tuple[str, ...]) -> None:
    options = QuatrilhoOptions(sit_out=sit_out)
    assert sitting_out(FIVE, dealer, options) == out
    assert active_players(FIVE, dealer, options) == active
    assert first_speaker(FIVE, dealer, options) == active[0]


def test_the_deal_passes_on_in_order_of_play() -> None:
    dealt = [parse({"mode": "monte"}, players=FIVE, dealer=d) for d in FIVE]
    assert [next_dealer(FIVE, hand, DEFAULT) for hand in dealt] == ["Bia", "Caio", "Dani", "Edu", "Ana"]
    hand = parse({"mode": "monte"})
    assert next_dealer(PLAYERS, hand, DEFAULT) == "Ana"


@pytest.mark.parametrize("players", [("Ana", "Bia", "Caio"), ("A", "B", "C", "D", "E", "F")])
def test_table_size(players: tuple[str, ...]) -> None:
    """4 or 5 players: a table of another size breaks a rule (422, as when it is seated), every game alike."""
    with pytest.raises(RulesError) as info:
        parse({"mode": "monte"}, players=players, dealer=players[-1])
    assert info.value.code == "rules_error" and info.value.field == "players"


# --------------------------------------------------------------------------- cards


def test_the_deck() -> None:
    assert len(SPANISH_DECK) == 40 and len(set(SPANISH_DECK)) == 40
    assert sum(c.figures for c in SPANISH_DECK) == 32  # + 3 for the last trick = 35
    assert [figures_of(r) for r in SPANISH_RANKS] == [3, 1, 1, 0, 0, 0, 0, 1, 1, 1]
    assert str(Card(rank="1", suit=Suit.ESPADAS).label) == "Ace of spades"
    assert str(rank_label("11")) == "Jack"
    assert Card.parse({"suit": "ouros", "rank": "12"}, field="x").to_json() == {"rank": "12", "suit": "ouros"}
    with pytest.raises(ValueError):
        Card(rank="8", suit=Suit.COPAS)
    with pytest.raises(InvalidInput):
        Card.parse({"rank": "3", "suit": "paus", "extra": 1}, field="x")


def test_a_record_built_by_hand_checks_itself() -> None:
    """A hand object cannot hold a stranger, a player who sits out as the declarer, or a chamada
    without its counts, however it was made."""
    hand = parse(chamada())
    assert QuatrilhoHand(**{f.name: getattr(hand, f.name) for f in dataclasses.fields(hand)}) == hand
    with pytest.raises(UnknownPlayer) as info:
        dataclasses.replace(hand, partner="Nobody")
    assert info.value.field == "partner"
    with pytest.raises(UnknownPlayer):
        dataclasses.replace(hand, dealer="Zé")
    with pytest.raises(InconsistentHand) as info:
        dataclasses.replace(hand, figures={"Ana": 11, "Bia": 8, "Caio": 9, "Dani": 6})
    assert info.value.field == "figures"
    with pytest.raises(ValueError):
        dataclasses.replace(hand, tricks=None)
    five = parse(chamada(dealer=...), players=FIVE, dealer="Edu")
    assert five.sitting_out == "Edu"
    with pytest.raises(InconsistentHand) as info:
        dataclasses.replace(five, declarer="Edu")
    assert info.value.field == "declarer"
    with pytest.raises(ValueError):
        dataclasses.replace(five, sitting_out=None)
