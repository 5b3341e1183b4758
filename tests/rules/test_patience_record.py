"""Relógio, Relógio Real and Paciência do Cachorro: records, checks, result and statistics.

Every check is refused with one sentence and the field it points at; the options
take the chosen readings as defaults; a patience settles to nothing, its breakdown gives the result.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from referee.rules import cachorro, relogio
from referee.rules.cachorro import CachorroHand, CachorroOptions, deal_layout
from referee.rules.errors import InconsistentHand, InvalidInput, RulesError, UnknownPlayer
from referee.rules.options import parse_options
from referee.rules.patience import PatienceHand, PatienceStats, settle, statistics
from referee.rules.relogio import RelogioHand, RelogioOptions

ONE = ("Ana",)


def clock(raw: Any, options: RelogioOptions = RelogioOptions(), players: tuple[str, ...] = ONE) -> PatienceHand:
    return relogio.parse_hand(raw, players=players, options=options, dealer="Ana")


def dog(raw: Any, options: CachorroOptions = CachorroOptions(), players: tuple[str, ...] = ONE) -> PatienceHand:
    return cachorro.parse_hand(raw, players=players, options=options, dealer="Ana")


def refused(parse: Any, raw: Any, kind: type[RulesError], field: str | None, *words: str, **kw: Any) -> RulesError:
    with pytest.raises(kind) as info:
        parse(raw, **kw)
    error = info.value
    assert type(error) is kind, f"{type(error).__name__}: {error}"
    assert error.field == field
    for word in words:
        assert word in str(error), f"{word!r} not in {str(error)!r}"
    assert str(error).endswith(".")
    return error


# --------------------------------------------------------------------------- options


def test_the_defaults_are_the_chosen_readings() -> None:
    """The exchange is allowed once; PAT-3: three sequences (or more) win; PAT-2: 11
    packets in the second deal."""
    assert RelogioOptions.from_json(None).to_json() == {"king_exchange": True, "sequences_to_win": 3}
    assert CachorroOptions.from_json({}).to_json() == {"second_deal_packets": 11}
    for module in (relogio, cachorro):
        defaults = {spec.name: spec.default for spec in module.OPTIONS}
        assert module.GAME.options_json(module.GAME.parse_options({})) == defaults
        assert all(spec.rule_ref for spec in module.OPTIONS)


@pytest.mark.parametrize(
    ("module", "raw", "field"),
    [
        (relogio, {"king_exchange": 1}, "options.king_exchange"),
        (relogio, {"sequences_to_win": 5}, "options.sequences_to_win"),
        (relogio, {"sequences_to_win": 0}, "options.sequences_to_win"),
        (relogio, {"stake": 1}, "options.stake"),
        (cachorro, {"second_deal_packets": 10}, "options.second_deal_packets"),
    ],
)
def test_bad_options_are_refused(module: Any, raw: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as info:
        parse_options(module.OPTIONS, raw)
    assert info.value.field == field


# --------------------------------------------------------------------------- Relógio


def test_relogio_records_the_result_and_the_exchange() -> None:
    hand = clock({"game": "relogio", "won": True, "king_exchanges": 1})
    assert (hand.game, hand.won, hand.figure, hand.player) == ("relogio", True, 1, "Ana")
    assert hand.to_json() == {"dealer": "Ana", "game": "relogio", "won": True, "king_exchanges": 1}


def test_game_defaults_to_relogio_and_the_exchange_to_unused() -> None:
    hand = clock({"won": False})
    assert (hand.game, hand.figure) == ("relogio", 0)


@pytest.mark.parametrize(("given", "stored"), [(True, 1), (False, 0), (0, 0), (1, 1)])
def test_the_exchange_may_be_given_as_true_or_false(given: Any, stored: int) -> None:
    assert clock({"won": True, "king_exchanges": given}).figure == stored


def test_the_king_exchange_is_used_at_most_once() -> None:
    """ "um Rei, apenas uma vez durante o jogo, pode ser trocado"."""
    refused(clock, {"won": True, "king_exchanges": 2}, InconsistentHand, "king_exchanges", "only once", "2")


def test_no_exchange_at_a_table_that_plays_without_it() -> None:
    refused(
        clock,
        {"won": False, "king_exchanges": 1},
        InconsistentHand,
        "king_exchanges",
        "without",
        options=RelogioOptions(king_exchange=False),
    )
    assert clock({"won": False}, RelogioOptions(king_exchange=False)).figure == 0


def test_relogio_has_no_sequences() -> None:
    refused(clock, {"won": True, "sequences": 3}, InconsistentHand, "sequences", "Relógio Real")


# --------------------------------------------------------------------------- Relógio Real


@pytest.mark.parametrize(("sequences", "won"), [(0, False), (1, False), (2, False), (3, True), (4, True)])
def test_relogio_real_is_won_with_three_sequences(sequences: int, won: bool) -> None:
    """ "vencerá o jogo se conseguir retirar três sequências de Ás a Rei"; PAT-3: four
    still wins. ``won`` may be left out (derived) or given (it must agree)."""
    assert clock({"game": "relogio_real", "sequences": sequences}).won is won
    hand = clock({"game": "relogio_real", "won": won, "sequences": sequences})
    assert (hand.won, hand.figure) == (won, sequences)
    assert hand.to_json() == {"dealer": "Ana", "game": "relogio_real", "won": won, "sequences": sequences}


def test_sequences_to_win_is_a_house_rule() -> None:
    options = RelogioOptions(sequences_to_win=4)
    assert clock({"game": "relogio_real", "sequences": 3}, options).won is False
    assert clock({"game": "relogio_real", "sequences": 4}, options).won is True


def test_a_result_that_contradicts_the_sequences_is_refused() -> None:
    refused(clock, {"game": "relogio_real", "won": True, "sequences": 2}, InconsistentHand, "won", "3", "2")
    refused(clock, {"game": "relogio_real", "won": False, "sequences": 3}, InconsistentHand, "won", "not lost")


@pytest.mark.parametrize("sequences", [5, 13])
def test_sequences_go_from_0_to_4(sequences: int) -> None:
    """Sequences removed is an integer from 0 to 4."""
    refused(clock, {"game": "relogio_real", "sequences": sequences}, InconsistentHand, "sequences", "at most 4")


@pytest.mark.parametrize("sequences", [-1, "3", 2.5])
def test_sequences_must_be_a_whole_number(sequences: Any) -> None:
    refused(clock, {"game": "relogio_real", "sequences": sequences}, InvalidInput, "sequences", "whole number")


def test_relogio_real_needs_the_sequences() -> None:
    refused(clock, {"game": "relogio_real", "won": True}, InvalidInput, "sequences", "0 to 4")


def test_relogio_real_has_no_king_exchange() -> None:
    refused(
        clock,
        {"game": "relogio_real", "sequences": 3, "king_exchanges": 1},
        InconsistentHand,
        "king_exchanges",
        "face up",
    )
    assert clock({"game": "relogio_real", "sequences": 3, "king_exchanges": 0}).to_json().get("king_exchanges") is None


# --------------------------------------------------------------------------- Cachorro


@pytest.mark.parametrize("round_", [1, 2, 3])
def test_cachorro_comes_out_in_round_1_2_or_3(round_: int) -> None:
    hand = dog({"game": "cachorro", "won": True, "round": round_})
    assert (hand.game, hand.won, hand.figure) == ("cachorro", True, round_)
    assert hand.to_json() == {"dealer": "Ana", "game": "cachorro", "won": True, "round": round_}


def test_a_lost_cachorro_has_no_round() -> None:
    hand = dog({"won": False})
    assert (hand.game, hand.won, hand.figure) == ("cachorro", False, None)
    assert hand.to_json() == {"dealer": "Ana", "game": "cachorro", "won": False}
    refused(dog, {"won": False, "round": 3}, InconsistentHand, "round", "leave round out")


@pytest.mark.parametrize("round_", [4, 5])
def test_there_is_no_fourth_deal(round_: int) -> None:
    """ "depois desta terceira rodada, não tiver saído a paciência, perde-se o jogo"."""
    refused(dog, {"won": True, "round": round_}, InconsistentHand, "round", "no fourth deal")
    refused(dog, {"won": False, "round": round_}, InconsistentHand, "round", "no fourth deal")


def test_rounds_start_at_one() -> None:
    refused(dog, {"won": True, "round": 0}, InconsistentHand, "round", "from 1")


@pytest.mark.parametrize("value", ["2", 2.0, True])
def test_the_round_is_a_whole_number(value: Any) -> None:
    refused(dog, {"won": True, "round": value}, InvalidInput, "round", "whole number")


def test_a_won_cachorro_needs_its_round() -> None:
    refused(dog, {"won": True}, InvalidInput, "round", "1, 2 or 3")


def test_the_deals_are_laid_out_as_pat_2_reads() -> None:
    """96 cards dealt (two packs less the 8 Kings), a first kennel of 18 cards (six
    columns of 3); PAT-2: 12, 11, 10 packets with kennel columns of 3, 4, 5; the text's
    twelve packets in the second deal is the option."""
    assert cachorro.CARDS_DEALT == 96
    first = deal_layout(1)
    assert cachorro.FIRST_KENNEL % first.kennel_column == 0 and cachorro.FIRST_KENNEL // first.kennel_column == 6
    assert [(deal_layout(r).packets, deal_layout(r).kennel_column) for r in (1, 2, 3)] == [(12, 3), (11, 4), (10, 5)]
    assert deal_layout(2, CachorroOptions(second_deal_packets=12)).packets == 12
    with pytest.raises(ValueError):
        deal_layout(4)


# --------------------------------------------------------------------------- shared record checks


@pytest.mark.parametrize(("parse", "raw"), [(clock, {"won": True}), (dog, {"won": False})])
def test_a_patience_has_one_player(parse: Any, raw: dict[str, Any]) -> None:
    """A table of another size breaks a rule (422, as when it is seated), every game alike."""
    refused(parse, raw, RulesError, "players", "exactly 1", players=("Ana", "Bia"))
    refused(parse, raw, RulesError, "players", "exactly 1", players=())


@pytest.mark.parametrize("parse", [clock, dog])
def test_won_is_required_and_a_boolean(parse: Any) -> None:
    refused(parse, {}, InvalidInput, "won", "true or false")
    refused(parse, {"won": "yes"}, InvalidInput, "won", "true or false")
    refused(parse, {"won": 1}, InvalidInput, "won", "true or false")


@pytest.mark.parametrize(
    ("parse", "field"), [(clock, "round"), (clock, "carried_in"), (dog, "sequences"), (dog, "king_exchanges")]
)
def test_unknown_fields_are_refused(parse: Any, field: str) -> None:
    """A patience moves no chips, so ``carried_in`` is not part of its record."""
    refused(parse, {"won": True, field: 1}, InvalidInput, field, field)


@pytest.mark.parametrize("parse", [clock, dog])
def test_the_record_is_an_object(parse: Any) -> None:
    refused(parse, ["won"], InvalidInput, None, "JSON object")


def test_each_table_records_its_own_patiences() -> None:
    refused(clock, {"game": "cachorro", "won": True}, InconsistentHand, "game", "relogio or relogio_real")
    refused(dog, {"game": "relogio", "won": True}, InconsistentHand, "game", "cachorro")
    refused(dog, {"game": 3, "won": True}, InvalidInput, "game", "name")


def test_the_dealer_can_only_be_the_player() -> None:
    assert clock({"dealer": "Ana", "won": True}).dealer == "Ana"
    refused(clock, {"dealer": "Bia", "won": True}, UnknownPlayer, "dealer", "Bia")


# --------------------------------------------------------------------------- the Game surface


@pytest.mark.parametrize(
    ("module", "raw"),
    [
        (relogio, {"game": "relogio_real", "sequences": 4}),
        (relogio, {"won": False, "king_exchanges": 1}),
        (cachorro, {"won": True, "round": 1}),
    ],
)
def test_the_rules_surface(module: Any, raw: dict[str, Any]) -> None:
    rules = module.GAME
    options = rules.parse_options({})
    hand = rules.parse_hand(raw, players=ONE, options=options, dealer="Ana")
    assert (rules.slug, rules.min_players, rules.max_players, rules.scored) == (module.SLUG, 1, 1, False)
    assert rules.dealer_of(hand) == "Ana"
    assert rules.first_speaker(ONE, "Ana", options) == "Ana"
    assert rules.sitting_out(ONE, "Ana", options) is None
    assert rules.next_dealer(ONE, hand, options) == "Ana"
    assert rules.seat_teams(ONE, None, options) == (("Ana",),)
    assert rules.hand_json(hand) == hand.to_json()
    assert rules.parse_hand(rules.hand_json(hand), players=ONE, options=options, dealer="Ana") == hand
    contract = rules.contract_json(hand)
    assert contract["game"] == hand.game and contract["won"] == hand.won
    settlement = rules.settle(hand, options)
    assert dict(settlement.deltas) == {"Ana": 0} and settlement.carry == 0 and not settlement.payments


def test_the_slugs_match_api_md_and_are_registered() -> None:
    from referee.rules import GAMES

    assert relogio.SLUG in GAMES and cachorro.SLUG in GAMES
    assert GAMES[relogio.SLUG] is relogio.GAME and GAMES[cachorro.SLUG] is cachorro.GAME


# --------------------------------------------------------------------------- result (not a payment)


@pytest.mark.parametrize(
    ("hand", "lines"),
    [
        (
            RelogioHand(player="Ana", dealer="Ana", game="relogio", won=True, figure=1),
            ["Ana won Relógio.", "The king exchange was used."],
        ),
        (
            RelogioHand(player="Ana", dealer="Ana", game="relogio", won=False, figure=0),
            ["Ana lost Relógio.", "The king exchange was not used."],
        ),
        (
            RelogioHand(player="Ana", dealer="Ana", game="relogio_real", won=False, figure=1),
            ["Ana lost Relógio Real.", "1 sequence from ace to king removed."],
        ),
        (
            CachorroHand(player="Ana", dealer="Ana", game="cachorro", won=True, figure=3),
            ["Ana won Paciência do Cachorro.", "It came out in round 3 of 3."],
        ),
        (
            CachorroHand(player="Ana", dealer="Ana", game="cachorro", won=False, figure=None),
            ["Ana lost Paciência do Cachorro.", "It did not come out within the three deals."],
        ),
    ],
)
def test_the_breakdown_gives_the_result_in_words(hand: PatienceHand, lines: list[str]) -> None:
    s = settle(hand)
    assert [str(line.text) for line in s.lines] == lines
    assert all(line.amount == 0 for line in s.lines)
    assert dict(s.deltas) == {"Ana": 0}


# --------------------------------------------------------------------------- statistics


def test_statistics_per_patience() -> None:
    hands = [
        clock({"won": True, "king_exchanges": 1}),
        clock({"won": False}),
        clock({"won": False, "king_exchanges": 1}),
        clock({"won": False}),
        clock({"game": "relogio_real", "sequences": 3}),
        clock({"game": "relogio_real", "sequences": 1}),
        dog({"won": True, "round": 3}),
        dog({"won": False}),
        dog({"won": True, "round": 2}),
        dog({"won": True, "round": 3}),
    ]
    stats = statistics(hands)
    assert list(stats) == ["relogio", "relogio_real", "cachorro"]
    r = stats["relogio"]
    assert (r.games, r.wins, r.losses, r.win_rate, dict(r.averages)) == (
        4,
        1,
        3,
        Fraction(1, 4),
        {"king_exchanges": Fraction(1, 2)},
    )
    rr = stats["relogio_real"]
    assert (rr.games, rr.wins, rr.win_rate, dict(rr.averages), dict(rr.wins_by_figure)) == (
        2,
        1,
        Fraction(1, 2),
        {"sequences": 2},
        {3: 1},
    )
    c = stats["cachorro"]
    assert (c.games, c.wins, c.win_rate, dict(c.averages), dict(c.wins_by_figure)) == (
        4,
        3,
        Fraction(3, 4),
        {"round": Fraction(8, 3)},
        {2: 1, 3: 2},
    )
    assert c.to_json() == {
        "game": "cachorro",
        "games": 4,
        "wins": 3,
        "losses": 1,
        "win_rate": 0.75,
        "averages": {"round": 2.6667},
        "wins_by_figure": {"2": 1, "3": 2},
    }


def test_statistics_of_nothing_and_of_only_losses() -> None:
    assert statistics([]) == {}
    stats = statistics([dog({"won": False}), dog({"won": False})])["cachorro"]
    assert (stats.games, stats.wins, stats.win_rate, dict(stats.averages)) == (2, 0, Fraction(0), {})
    assert stats.to_json()["averages"] == {}
    assert PatienceStats(game="relogio", games=0, wins=0).win_rate is None
    assert PatienceStats(game="relogio", games=0, wins=0).to_json()["win_rate"] is None


def test_a_record_built_by_hand_checks_itself() -> None:
    """A hand object cannot hold another dealer, a patience of another table or a figure its
    patience does not have, however it was made."""
    fields: dict[str, Any] = {"player": "Ana", "dealer": "Ana", "game": "relogio_real", "won": True, "figure": 3}
    assert RelogioHand(**fields) == clock({"game": "relogio_real", "sequences": 3})
    with pytest.raises(UnknownPlayer) as info:
        RelogioHand(**{**fields, "dealer": "Bia"})
    assert info.value.field == "dealer"
    with pytest.raises(InconsistentHand) as info:
        RelogioHand(**{**fields, "game": "cachorro"})
    assert info.value.field == "game"
    with pytest.raises(InvalidInput) as info:
        RelogioHand(**{**fields, "figure": None})
    assert info.value.field == "sequences"
    with pytest.raises(InconsistentHand) as info:
        RelogioHand(**{**fields, "game": "relogio", "figure": 2})
    assert info.value.field == "king_exchanges"
    lost = {"player": "Ana", "dealer": "Ana", "game": "cachorro", "won": False, "figure": None}
    assert CachorroHand(**lost) == dog({"won": False})
    for figure, won in ((4, True), (0, True), (2, False), (None, True)):
        with pytest.raises(RulesError) as info:
            CachorroHand(**{**lost, "figure": figure, "won": won})
        assert info.value.field == "round"
