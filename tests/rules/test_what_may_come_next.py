"""Property tests (hypothesis) of the rules' "what may come next" functions, the values a guided
page offers at a step: for random records, the values a function offers at a step are exactly
those for which the game's full parser does not refuse that step. The page asks the function
and never tries a value through the parser, so this is what keeps the two from drifting.

A step's refusal is an error whose field starts with the step's name. A step is compared only
where the page would ask it: the record without that step's value is not refused on an earlier
step of the parser's order.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from referee.rules import el_gato, jubileu, koziri, lift_smoke, quatrilho, relogio
from referee.rules.cards import Suit
from referee.rules.errors import RulesError
from referee.rules.game import Game
from referee.rules.jubileu import Bid, JubileuOptions
from referee.rules.koziri import KoziriOptions
from referee.rules.koziri_play import SUIT_STEPS

SUITS = [suit.value for suit in Suit]
FOUR = ("Ana", "Bia", "Caio", "Dani")


def refused_step(parse: Callable[[dict[str, Any]], object], raw: dict[str, Any]) -> str | None:
    """The first name of the field the parser refuses ``raw`` on, None when it accepts it."""
    try:
        parse(raw)
    except RulesError as exc:
        return (exc.field or "").split(".")[0].split("[")[0]
    return None


def accepted(
    parse: Callable[[dict[str, Any]], object],
    raw: dict[str, Any],
    step: str,
    candidates: Sequence[object],
    order: Sequence[str],
) -> set[object] | None:
    """The candidates the parser lets past ``step`` in ``raw``; None when the page would not ask
    that step (without its value the record is refused on a step before it in ``order``)."""
    without = {k: v for k, v in raw.items() if k != step}
    before = refused_step(parse, without)
    if before in order and order.index(before) < order.index(step):
        return None
    return {value for value in candidates if refused_step(parse, {**raw, step: value}) != step}


def offered(choices: Collection[object] | None, candidates: Sequence[object]) -> set[object]:
    return set(candidates) if choices is None else set(choices) & set(candidates)


# --------------------------------------------------------------------------- Koziri

#: Mostly suits, so the later steps are reached; sometimes missing or not a suit.
maybe_suit = st.sampled_from([*SUITS, *SUITS, None, "trunfo"])


@given(
    dealer_trump=maybe_suit,
    dealer_second=maybe_suit,
    opponent_trump=maybe_suit,
    winner=st.one_of(st.none(), st.sampled_from(["Ana", "Bia"])),
    dealer=st.sampled_from(["Ana", "Bia"]),
)
def test_koziri_offers_exactly_the_suits_and_players_its_parser_lets_past_each_step(
    dealer_trump: str | None, dealer_second: str | None, opponent_trump: str | None, winner: str | None, dealer: str
) -> None:
    given_values = {
        "dealer_trump": dealer_trump,
        "dealer_second": dealer_second,
        "opponent_trump": opponent_trump,
        "winner": winner,
    }
    raw = {k: v for k, v in given_values.items() if v is not None}

    def parse(record: dict[str, Any]) -> object:
        return koziri.parse_hand(record, players=("Ana", "Bia"), options=KoziriOptions(), dealer=dealer)

    order = (*SUIT_STEPS, "winner")
    for step in order:
        candidates: Sequence[object] = ["Ana", "Bia"] if step == "winner" else SUITS
        expected = accepted(parse, raw, step, candidates, order)
        if expected is not None:
            assert offered(koziri.open_choices(step, raw), candidates) == expected, step


# --------------------------------------------------------------------------- Jubileu

DETAILS = ("ultima", "aces", "contract", "trump", "called", "partner")


@st.composite
def jubileu_records(draw: st.DrawFn) -> tuple[dict[str, Any], JubileuOptions]:
    bid = draw(st.sampled_from(list(Bid)))
    declarer = draw(st.sampled_from(FOUR))
    options = JubileuOptions(
        jubileu_self_ace=draw(st.sampled_from(["refuse", "allow"])),
        jogo_obrigatorio_self_king=draw(st.sampled_from(["refuse", "allow"])),
        jogo_obrigatorio_bidders=draw(st.sampled_from(["aces", "anyone"])),
    )
    raw: dict[str, Any] = {
        "ultima": draw(st.sampled_from(SUITS)),
        "contract": {"bid": bid.value, "declarers": [declarer]},
    }
    holder = bid is Bid.JOGO_OBRIGATORIO and (options.jogo_obrigatorio_bidders == "aces" or draw(st.booleans()))
    if holder:
        raw["aces"] = {declarer: draw(st.sampled_from([3, 4]))}
    for name, values in (("trump", SUITS), ("called", SUITS), ("partner", list(FOUR))):
        value = draw(st.one_of(st.none(), st.sampled_from(values)))
        if value is not None:
            raw[name] = value
    return raw, options


@given(jubileu_records())
def test_jubileu_offers_exactly_the_details_its_parser_lets_past_each_step(
    record: tuple[dict[str, Any], JubileuOptions],
) -> None:
    raw, options = record

    def parse(candidate: dict[str, Any]) -> object:
        return jubileu.parse_hand(candidate, players=FOUR, options=options, dealer="Dani")

    bid = Bid(raw["contract"]["bid"])
    declarer, ultima = raw["contract"]["declarers"][0], Suit(raw["ultima"])
    trump, called = Suit.named(raw.get("trump")), Suit.named(raw.get("called"))
    functions: dict[str, Collection[object]] = {
        "trump": [s.value for s in jubileu.trump_choices(bid, ultima, called)],
        "called": [s.value for s in jubileu.called_choices(bid, ultima, trump)],
        "partner": jubileu.partner_choices(FOUR, bid, declarer, raw.get("aces", {}), options),
    }
    for step, choices in functions.items():
        candidates: Sequence[object] = FOUR if step == "partner" else SUITS
        expected = accepted(parse, raw, step, candidates, DETAILS)
        if expected is not None:
            assert set(choices) == expected, step


# --------------------------------------------------------------------------- Quatrilho


@given(
    five=st.booleans(),
    dealer=st.sampled_from([*FOUR, "Eva"]),
    partner=st.one_of(st.none(), st.sampled_from([*FOUR, "Eva"])),
)
def test_quatrilho_offers_exactly_the_partners_its_parser_accepts(five: bool, dealer: str, partner: str | None) -> None:
    players = (*FOUR, "Eva") if five else FOUR
    dealer = dealer if dealer in players else "Dani"
    options = quatrilho.GAME.parse_options({})
    raw = {k: v for k, v in quatrilho.RECORD.example.items() if k not in ("partner", "dealer")}
    if partner is not None:
        raw["partner"] = partner

    def parse(record: dict[str, Any]) -> object:
        return quatrilho.GAME.parse_hand(record, players=players, options=options, dealer=dealer)

    order = ("players", "dealer", "mode", "auction", "declarer", "called_card", "partner")
    expected = accepted(parse, raw, "partner", list(players), order)
    if expected is not None:
        active = quatrilho.active_players(players, dealer, options)
        assert set(quatrilho.partner_choices(active)) == expected


# --------------------------------------------------------------------------- the short records with no limit


SHORT: list[tuple[Game[Any, Any], str, Sequence[object]]] = [
    (lift_smoke.GAME, "winner", FOUR),
    (el_gato.GAME, "loser", FOUR),
    (relogio.GAME, "game", ["relogio", "relogio_real"]),
]


@given(case=st.sampled_from(SHORT), data=st.data())
def test_a_step_without_a_rules_function_accepts_every_value_of_its_kind(
    case: tuple[Game[Any, Any], str, Sequence[object]], data: st.DataObject
) -> None:
    """Lift Smoke's winner, El Gato's loser and Relógio's patience: the page offers every value
    of the field's kind, and the parser never refuses one of them on that step, whatever else
    the record holds."""
    game, step, candidates = case
    example = dict(game.record.example)
    kept = data.draw(st.sets(st.sampled_from(sorted(example))), label="fields kept")
    raw = {k: v for k, v in example.items() if k in kept}
    players = game.record.example_players
    options = game.parse_options({})

    def parse(record: dict[str, Any]) -> object:
        return game.parse_hand(record, players=players, options=options, dealer=players[-1])

    expected = accepted(parse, raw, step, candidates, (step,))
    assert expected == set(candidates)
