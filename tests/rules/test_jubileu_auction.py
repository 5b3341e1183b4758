"""The Jubileu auction against the rule text and the chosen readings.

Seats: players are listed in order of play, the first dealer is the last in
the list and the player after the dealer speaks first. Here the dealer is Dani, so Ana speaks
first, then Bia, Caio, Dani.

The expected ranks and tiers below are transcribed from the hierarchy table of the rule text
(column "#"), not read from the engine, so the legality matrix is an independent reading.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from referee.rules.errors import IllegalCall, InconsistentHand, InvalidInput, RulesError, UnknownPlayer
from referee.rules.jubileu import PASSO, Auction, Bid, Call, JubileuOptions, Pass, parse_hand, settle

PLAYERS = ("Ana", "Bia", "Caio", "Dani")
DEALER = "Dani"

#: The hierarchy table: slug -> "#" (equal numbers are the tiers A (5) and B (9)).
SPEC_RANK: dict[str, int] = {
    "jubileu": 1,
    "jubileu_da_ultima": 2,
    "solo_sete": 3,
    "solo_sete_da_ultima": 4,
    "meia_miseria": 5,
    "solo_oito": 5,
    "solo_oito_da_ultima": 5,
    "jogo_obrigatorio": 6,
    "solo_nove": 7,
    "solo_nove_da_ultima": 8,
    "solo_dez": 9,
    "solo_dez_da_ultima": 9,
    "miseria": 9,
    "solo_onze": 10,
    "solo_onze_da_ultima": 11,
    "solo_doze": 12,
    "solo_doze_da_ultima": 13,
    "solo_treze": 14,
    "solo_treze_da_ultima": 15,
    "miseria_aberta": 16,
    "miseria_aberta_com_coloquio": 17,
}
ALL_BIDS = tuple(SPEC_RANK)
TIER_A = ("meia_miseria", "solo_oito", "solo_oito_da_ultima")
TIER_B = ("solo_dez", "solo_dez_da_ultima", "miseria")
#: Same-rank calls the text allows; ("meia_miseria", "meia_miseria") is a join.
SPEC_TIER_LEGAL = {
    ("solo_oito", "solo_oito_da_ultima"),
    ("solo_dez", "solo_dez_da_ultima"),
    ("meia_miseria", "meia_miseria"),
}
JO_RANK = SPEC_RANK["jogo_obrigatorio"]


def call_of(slug: str) -> Call:
    return PASSO if slug == "passo" else Bid(slug)


def slugs(calls: Sequence[Call]) -> set[str]:
    return {c.value for c in calls}


def make(
    calls: Sequence[tuple[str, str]] = (),
    *,
    aces: Mapping[str, int] | None = None,
    dealer: str = DEALER,
    **options: object,
) -> Auction:
    auction = Auction(players=PLAYERS, dealer=dealer, options=JubileuOptions(**options), aces=aces)  # type: ignore[arg-type]
    for player, slug in calls:
        auction.call(player, call_of(slug))
    return auction


def assert_legal(auction: Auction, player: str, slug: str) -> None:
    call = call_of(slug)
    auction.verify_call(player, call)
    assert auction.can_call(player, call)
    if player == auction.turn:
        assert call in auction.legal_calls()
    else:
        assert call is Bid.MEIA_MISERIA and player in auction.joiners()


def assert_illegal(auction: Auction, player: str, slug: str, *reason: str) -> IllegalCall:
    call = call_of(slug)
    with pytest.raises(IllegalCall) as info:
        auction.verify_call(player, call, field="auction[9]")
    assert not auction.can_call(player, call)
    if player == auction.turn:
        assert call not in auction.legal_calls()
    else:
        assert player not in auction.joiners() or call is not Bid.MEIA_MISERIA
    message = str(info.value)
    for words in reason:
        assert words.lower() in message.lower(), f"{words!r} not in {message!r}"
    assert info.value.field == "auction[9]"
    # verify_call and call are one definition: call refuses it too and records nothing
    before = list(auction.calls)
    with pytest.raises(IllegalCall):
        auction.call(player, call)
    assert auction.calls == before
    return info.value


# --------------------------------------------------------------------------- J-L1 / J-L2 / J-L3 / J-L4


def spec_legal_over(standing: str, new: str) -> bool:
    """To J-L4 for a call by the next player, JO eligibility set aside (option "anyone")."""
    if SPEC_RANK[new] != SPEC_RANK[standing]:
        return SPEC_RANK[new] > SPEC_RANK[standing]
    return (standing, new) in SPEC_TIER_LEGAL


@pytest.mark.parametrize("new", ALL_BIDS)
@pytest.mark.parametrize("standing", ALL_BIDS)
def test_legality_matrix_j_l1_to_j_l4(standing: str, new: str) -> None:
    """Every (standing X, new Y) pair: Ana bids X, then Bia (next to speak) calls Y."""
    auction = make([("Ana", standing)], jogo_obrigatorio_bidders="anyone")
    assert auction.turn == "Bia"
    if spec_legal_over(standing, new):
        assert_legal(auction, "Bia", new)
    elif SPEC_RANK[new] < SPEC_RANK[standing]:
        assert_illegal(auction, "Bia", new, "lower than")
    elif new == standing:
        assert_illegal(auction, "Bia", new, "already been bid")
    else:
        assert_illegal(auction, "Bia", new, "first to speak prevails")


@pytest.mark.parametrize("slug", ALL_BIDS)
def test_j_l1_any_bid_opens_the_auction(slug: str) -> None:
    auction = make(jogo_obrigatorio_bidders="anyone")
    assert auction.turn == "Ana"
    assert_legal(auction, "Ana", slug)


@pytest.mark.parametrize(
    ("standing", "new"),
    [
        ("jubileu", "jubileu_da_ultima"),
        ("jubileu", "solo_sete"),
        ("solo_sete_da_ultima", "meia_miseria"),
        ("solo_sete_da_ultima", "solo_oito"),
        ("solo_oito_da_ultima", "jogo_obrigatorio"),
        ("meia_miseria", "jogo_obrigatorio"),
        ("jogo_obrigatorio", "solo_nove"),
        ("solo_nove_da_ultima", "miseria"),
        ("miseria", "solo_onze"),
        ("solo_treze_da_ultima", "miseria_aberta"),
        ("miseria_aberta", "miseria_aberta_com_coloquio"),
    ],
)
def test_j_l1_higher_is_legal(standing: str, new: str) -> None:
    auction = make([("Ana", standing)], jogo_obrigatorio_bidders="anyone")
    assert_legal(auction, "Bia", new)
    auction.call("Bia", call_of(new))
    assert auction.standing is Bid(new)
    assert auction.declarers == ["Bia"]


@pytest.mark.parametrize(
    ("standing", "new"),
    [
        ("jubileu_da_ultima", "jubileu"),
        ("solo_sete", "jubileu_da_ultima"),
        ("meia_miseria", "solo_sete_da_ultima"),
        ("jogo_obrigatorio", "solo_oito_da_ultima"),
        ("jogo_obrigatorio", "meia_miseria"),
        ("solo_nove", "jogo_obrigatorio"),
        ("miseria", "solo_nove_da_ultima"),
        ("miseria_aberta_com_coloquio", "solo_treze_da_ultima"),
        ("miseria_aberta_com_coloquio", "miseria_aberta"),
    ],
)
def test_j_l1_lower_is_illegal(standing: str, new: str) -> None:
    auction = make([("Ana", standing)], jogo_obrigatorio_bidders="anyone")
    error = assert_illegal(auction, "Bia", new, "lower than", "bid higher or pass")
    assert isinstance(error, RulesError)


@pytest.mark.parametrize(
    "slug",
    [b for b in ALL_BIDS if b not in TIER_A + TIER_B],
)
def test_j_l2_same_bid_outside_tiers_is_illegal(slug: str) -> None:
    auction = make([("Ana", slug)], jogo_obrigatorio_bidders="anyone")
    assert_illegal(auction, "Bia", slug, "already been bid")


# The cases listed in J-L3 and J-L4, one by one, with the rule's reason.
TIER_CASES = [
    # J-L3, tier A
    ("solo_oito", "solo_oito_da_ultima", True, None),
    ("solo_oito", "meia_miseria", False, "first to speak prevails"),
    ("meia_miseria", "solo_oito_da_ultima", False, "first to speak prevails"),
    ("meia_miseria", "solo_oito", False, "first to speak prevails"),
    ("solo_oito_da_ultima", "meia_miseria", False, "first to speak prevails"),
    ("solo_oito_da_ultima", "solo_oito", False, "first to speak prevails"),
    ("solo_oito_da_ultima", "solo_oito_da_ultima", False, "already been bid"),
    ("solo_oito", "solo_oito", False, "already been bid"),
    ("meia_miseria", "meia_miseria", True, None),  # a join by a different player
    # J-L4, tier B
    ("solo_dez", "solo_dez_da_ultima", True, None),
    ("solo_dez", "miseria", False, "first to speak prevails"),
    ("miseria", "solo_dez_da_ultima", False, "first to speak prevails"),
    ("miseria", "solo_dez", False, "first to speak prevails"),
    ("solo_dez_da_ultima", "miseria", False, "first to speak prevails"),
    ("solo_dez_da_ultima", "solo_dez", False, "first to speak prevails"),
    ("miseria", "miseria", False, "already been bid"),
    ("solo_dez", "solo_dez", False, "already been bid"),
]


@pytest.mark.parametrize(("standing", "new", "legal", "reason"), TIER_CASES)
def test_j_l3_j_l4_tier_cases(standing: str, new: str, legal: bool, reason: str | None) -> None:
    auction = make([("Ana", standing)])
    if legal:
        assert_legal(auction, "Bia", new)
    else:
        assert reason is not None
        assert_illegal(auction, "Bia", new, reason)


@pytest.mark.parametrize(("standing", "new", "legal", "reason"), [c for c in TIER_CASES if c[0] != c[1]])
def test_tier_rules_bind_every_later_bidder_not_only_the_next(
    standing: str, new: str, legal: bool, reason: str | None
) -> None:
    """JUB-8 (default): "o declarante seguinte" is any later bidder. Bia passes, Caio tries."""
    auction = make([("Ana", standing), ("Bia", "passo")])
    assert auction.turn == "Caio"
    if legal:
        assert_legal(auction, "Caio", new)
    else:
        assert_illegal(auction, "Caio", new, "first to speak prevails")


def test_j_l3_solo_oito_da_ultima_overcall_replaces_the_declarer() -> None:
    auction = make([("Ana", "solo_oito"), ("Bia", "solo_oito_da_ultima")])
    assert auction.standing is Bid.SOLO_OITO_DA_ULTIMA
    assert auction.declarers == ["Bia"]
    # and now nothing in tier A, not even Solo Oito by Ana again (her turn comes round later)
    auction.call("Caio", PASSO)
    auction.call("Dani", PASSO)
    assert auction.turn == "Ana"
    for slug in TIER_A:
        assert_illegal(auction, "Ana", slug)


def test_j_l4_solo_dez_da_ultima_overcall_replaces_the_declarer() -> None:
    auction = make([("Ana", "solo_dez"), ("Bia", "solo_dez_da_ultima"), ("Caio", "passo"), ("Dani", "passo")])
    assert auction.turn == "Ana"
    for slug in TIER_B:
        assert_illegal(auction, "Ana", slug)
    auction.call("Ana", PASSO)
    assert auction.complete
    assert auction.contract is not None
    assert (auction.contract.bid, auction.contract.declarers) == (Bid.SOLO_DEZ_DA_ULTIMA, ("Bia",))


# --------------------------------------------------------------------------- option miseria_over_solo_dez


def test_next_barred_only_the_next_speaker_is_barred_from_miseria_over_solo_dez() -> None:
    auction = make([("Ana", "solo_dez")], miseria_over_solo_dez="next_barred")
    assert_illegal(auction, "Bia", "miseria", "first to speak prevails")
    auction.call("Bia", PASSO)
    assert_legal(auction, "Caio", "miseria")
    auction.call("Caio", Bid.MISERIA)
    assert auction.standing is Bid.MISERIA
    assert auction.declarers == ["Caio"]
    # The other tier-B rules are unchanged by the option.
    assert_illegal(auction, "Dani", "solo_dez_da_ultima", "first to speak prevails")
    assert_illegal(auction, "Dani", "solo_dez", "first to speak prevails")


def test_next_barred_does_not_open_miseria_over_solo_dez_da_ultima() -> None:
    auction = make([("Ana", "solo_dez_da_ultima"), ("Bia", "passo")], miseria_over_solo_dez="next_barred")
    assert_illegal(auction, "Caio", "miseria", "first to speak prevails")


def test_barred_default_bars_every_later_speaker() -> None:
    auction = make([("Ana", "solo_dez"), ("Bia", "passo"), ("Caio", "passo")])
    assert_illegal(auction, "Dani", "miseria", "first to speak prevails")


# --------------------------------------------------------------------------- J-L5


def test_j_l5_jubileu_is_bid_without_a_partner() -> None:
    """The partner is unknown during the auction: the auction takes only (player, call)."""
    auction = make([("Ana", "jubileu"), ("Bia", "passo"), ("Caio", "passo"), ("Dani", "passo")])
    assert auction.complete
    assert auction.contract is not None
    assert auction.contract.declarers == ("Ana",)
    # The partner check runs when the details are entered after the auction (J-L8 below).


# --------------------------------------------------------------------------- J-L6 / J-L7


@pytest.mark.parametrize("aces", [3, 4])
def test_j_l6_jo_only_for_the_aces_holder(aces: int) -> None:
    auction = make(aces={"Bia": aces})
    assert_illegal(auction, "Ana", "jogo_obrigatorio", "3 or 4 aces")
    assert Bid.JOGO_OBRIGATORIO not in auction.legal_calls()
    auction.call("Ana", Bid.SOLO_SETE)
    assert Bid.JOGO_OBRIGATORIO in auction.legal_calls()
    assert_legal(auction, "Bia", "jogo_obrigatorio")


def test_j_l6_nobody_without_aces_may_bid_jo() -> None:
    auction = make()
    for player in PLAYERS:
        auction = make()
        while auction.turn != player:
            auction.call(auction.turn or "", PASSO)
        assert_illegal(auction, player, "jogo_obrigatorio", "3 or 4 aces")


def test_j_l6_option_anyone_may_bid_jo() -> None:
    auction = make(jogo_obrigatorio_bidders="anyone")
    assert_legal(auction, "Ana", "jogo_obrigatorio")


BELOW_JO = [b for b in ALL_BIDS if SPEC_RANK[b] < JO_RANK]
ABOVE_JO = [b for b in ALL_BIDS if SPEC_RANK[b] > JO_RANK]


@pytest.mark.parametrize("aces", [3, 4])
def test_j_l7_forced_first_speaker_cannot_pass_or_bid_below_jo(aces: int) -> None:
    auction = make(aces={"Ana": aces})
    assert_illegal(auction, "Ana", "passo", "aces", "pass", "Jogo Obrigatório")
    for slug in BELOW_JO:
        assert_illegal(auction, "Ana", slug, "aces", "Jogo Obrigatório")
    assert slugs(auction.legal_calls()) == {"jogo_obrigatorio", *ABOVE_JO}


@pytest.mark.parametrize("standing", BELOW_JO)
def test_j_l7_forced_player_facing_a_bid_below_jo(standing: str) -> None:
    auction = make([("Ana", standing)], aces={"Bia": 3})
    assert_illegal(auction, "Bia", "passo", "aces", "pass")
    assert_legal(auction, "Bia", "jogo_obrigatorio")
    for slug in ABOVE_JO:
        assert_legal(auction, "Bia", slug)
    assert slugs(auction.legal_calls()) == {"jogo_obrigatorio", *ABOVE_JO}


@pytest.mark.parametrize("standing", ABOVE_JO)
def test_j_l7_forced_player_may_pass_once_standing_exceeds_jo(standing: str) -> None:
    auction = make([("Ana", standing)], aces={"Bia": 4})
    assert_legal(auction, "Bia", "passo")
    assert_illegal(auction, "Bia", "jogo_obrigatorio", "lower than")
    auction.call("Bia", PASSO)
    assert auction.turn == "Caio"


def test_j_l7_forced_player_later_in_turn_may_pass_after_someone_bid_over_jo() -> None:
    auction = make([("Ana", "solo_sete"), ("Bia", "solo_nove")], aces={"Caio": 3})
    assert_legal(auction, "Caio", "passo")


def test_j_l7_forced_player_must_speak_before_the_auction_can_end() -> None:
    """Everybody else passes; the aces holder still may not pass and the hand cannot be all-pass."""
    auction = make([("Ana", "passo"), ("Bia", "passo")], aces={"Caio": 3})
    assert auction.turn == "Caio"
    assert_illegal(auction, "Caio", "passo", "aces", "pass")
    auction.call("Caio", Bid.JOGO_OBRIGATORIO)
    auction.call("Dani", PASSO)
    assert auction.complete
    assert auction.contract is not None
    assert (auction.contract.bid, auction.contract.declarers) == (Bid.JOGO_OBRIGATORIO, ("Caio",))


def test_j_l7_forced_player_cannot_join_meia_miseria_in_or_out_of_turn() -> None:
    auction = make([("Ana", "meia_miseria")], aces={"Caio": 3})
    assert "Caio" not in auction.joiners()
    assert_illegal(auction, "Caio", "meia_miseria", "aces", "Meia Miséria")  # out of turn
    auction.call("Bia", PASSO)
    assert auction.turn == "Caio"
    assert_illegal(auction, "Caio", "meia_miseria", "aces", "Meia Miséria")  # in turn
    assert_illegal(auction, "Caio", "passo", "aces", "pass")
    assert slugs(auction.legal_calls()) == {"jogo_obrigatorio", *ABOVE_JO}


def test_j_l7_standing_jo_by_someone_else_lets_the_forced_player_pass() -> None:
    """Only reachable with jogo_obrigatorio_bidders="anyone": JO stands, so it is not below JO."""
    auction = make([("Ana", "jogo_obrigatorio")], aces={"Bia": 3}, jogo_obrigatorio_bidders="anyone")
    assert_legal(auction, "Bia", "passo")
    assert_illegal(auction, "Bia", "jogo_obrigatorio", "already been bid")


# --------------------------------------------------------------------------- joining Meia Miséria


def test_join_in_turn() -> None:
    auction = make([("Ana", "meia_miseria")])
    assert_legal(auction, "Bia", "meia_miseria")
    auction.call("Bia", Bid.MEIA_MISERIA)
    assert auction.standing is Bid.MEIA_MISERIA
    assert auction.declarers == ["Ana", "Bia"]
    assert auction.turn == "Caio"  # a join in one's turn counts as that turn
    auction.call("Caio", PASSO)
    auction.call("Dani", PASSO)
    assert auction.complete  # declarers do not speak while their bid stands
    assert auction.contract is not None
    assert set(auction.contract.declarers) == {"Ana", "Bia"}


def test_join_out_of_turn_uses_nobodys_turn() -> None:
    auction = make([("Ana", "meia_miseria")])
    assert auction.turn == "Bia"
    assert set(auction.joiners()) == {"Caio", "Dani"}
    assert_legal(auction, "Dani", "meia_miseria")
    auction.call("Dani", Bid.MEIA_MISERIA)
    assert auction.turn == "Bia"
    assert auction.joiners() == ["Caio"]
    auction.call("Bia", PASSO)
    assert auction.turn == "Caio"  # Dani is a declarer: skipped
    auction.call("Caio", PASSO)
    assert auction.complete
    assert auction.contract is not None
    assert set(auction.contract.declarers) == {"Ana", "Dani"}


def test_join_after_passing_is_allowed_by_default_and_removes_the_pass() -> None:
    auction = make([("Ana", "meia_miseria"), ("Bia", "passo"), ("Caio", "passo")])
    assert "Bia" in auction.joiners()
    assert_legal(auction, "Bia", "meia_miseria")
    auction.call("Bia", Bid.MEIA_MISERIA)
    assert auction.turn == "Dani"
    auction.call("Dani", PASSO)
    assert auction.complete
    assert auction.contract is not None
    assert set(auction.contract.declarers) == {"Ana", "Bia"}


def test_join_after_passing_refused_under_not_passed() -> None:
    auction = make([("Ana", "meia_miseria"), ("Bia", "passo")], meia_miseria_join="not_passed")
    assert "Bia" not in auction.joiners()
    assert_illegal(auction, "Bia", "meia_miseria", "has passed")
    # Players who have not passed may still join, in turn and out of turn.
    assert_legal(auction, "Caio", "meia_miseria")
    assert_legal(auction, "Dani", "meia_miseria")


def test_a_player_who_bid_earlier_may_join() -> None:
    """ "mesmo já tendo feito sua declaração anteriormente": Ana bid Solo Sete, Bia bids MM."""
    auction = make([("Ana", "solo_sete"), ("Bia", "meia_miseria")])
    assert_legal(auction, "Ana", "meia_miseria")  # out of turn (Caio speaks now)
    auction.call("Caio", PASSO)
    auction.call("Dani", PASSO)
    assert auction.turn == "Ana"
    assert_legal(auction, "Ana", "meia_miseria")  # in turn
    auction.call("Ana", Bid.MEIA_MISERIA)
    assert auction.complete
    assert auction.contract is not None
    assert set(auction.contract.declarers) == {"Ana", "Bia"}


def test_a_declarer_cannot_join_his_own_meia_miseria() -> None:
    auction = make([("Ana", "meia_miseria")])
    assert_illegal(auction, "Ana", "meia_miseria", "already declared Meia Miséria")


def test_no_join_unless_meia_miseria_stands() -> None:
    auction = make([("Ana", "meia_miseria"), ("Bia", "jogo_obrigatorio")], jogo_obrigatorio_bidders="anyone")
    assert auction.joiners() == []
    assert_illegal(auction, "Dani", "meia_miseria", "not Dani's turn")
    assert_illegal(auction, "Caio", "meia_miseria", "lower than")


def test_all_four_may_declare_meia_miseria() -> None:
    auction = make([("Ana", "meia_miseria"), ("Bia", "meia_miseria"), ("Caio", "meia_miseria")])
    assert auction.turn == "Dani"
    auction.call("Dani", Bid.MEIA_MISERIA)
    assert auction.complete
    assert auction.contract is not None
    assert set(auction.contract.declarers) == set(PLAYERS)


def test_supersession_of_meia_miseria_declarers_who_then_bid_on() -> None:
    auction = make([("Ana", "meia_miseria"), ("Bia", "meia_miseria"), ("Caio", "solo_nove")])
    assert auction.standing is Bid.SOLO_NOVE
    assert auction.declarers == ["Caio"]
    assert auction.turn == "Dani"
    auction.call("Dani", PASSO)
    assert auction.turn == "Ana"  # superseded: bids on like anyone who has not passed
    assert_legal(auction, "Ana", "solo_nove_da_ultima")
    assert_illegal(auction, "Ana", "meia_miseria", "lower than")
    auction.call("Ana", Bid.SOLO_NOVE_DA_ULTIMA)
    assert auction.turn == "Bia"
    auction.call("Bia", PASSO)
    assert auction.turn == "Caio"
    auction.call("Caio", PASSO)
    assert auction.complete  # Dani's pass is final
    assert auction.contract is not None
    assert (auction.contract.bid, auction.contract.declarers) == (Bid.SOLO_NOVE_DA_ULTIMA, ("Ana",))


def test_a_joiner_who_had_passed_bids_on_after_supersession() -> None:
    """A join removes his earlier pass, so after a higher bid he speaks again."""
    auction = make([("Ana", "meia_miseria"), ("Bia", "passo")], aces={"Caio": 3})
    auction.call("Bia", Bid.MEIA_MISERIA)  # out of turn, after passing
    assert auction.turn == "Caio"
    auction.call("Caio", Bid.JOGO_OBRIGATORIO)
    auction.call("Dani", PASSO)
    assert auction.turn == "Ana"
    auction.call("Ana", PASSO)
    assert auction.turn == "Bia"
    assert_legal(auction, "Bia", "solo_nove")


# --------------------------------------------------------------------------- turns, completion


def test_out_of_turn_calls_are_illegal() -> None:
    auction = make()
    for player in ("Bia", "Caio", "Dani"):
        for slug in ("passo", "solo_sete", "miseria_aberta"):
            assert_illegal(auction, player, slug, f"not {player}'s turn", "Ana speaks now")


def test_passed_players_are_skipped_and_cannot_speak_again() -> None:
    auction = make([("Ana", "passo"), ("Bia", "solo_sete"), ("Caio", "passo"), ("Dani", "passo")])
    assert auction.complete  # Ana's pass was final
    auction = make([("Ana", "passo"), ("Bia", "solo_sete"), ("Caio", "solo_nove"), ("Dani", "passo")])
    assert auction.turn == "Bia"  # Ana is skipped
    assert_illegal(auction, "Ana", "solo_dez", "not Ana's turn")


def test_standing_declarer_is_skipped() -> None:
    auction = make([("Ana", "solo_sete"), ("Bia", "passo"), ("Caio", "passo")])
    assert auction.turn == "Dani"
    auction.call("Dani", PASSO)
    assert auction.complete
    assert auction.contract is not None
    assert auction.contract.declarers == ("Ana",)


def test_calls_after_completion_are_illegal() -> None:
    auction = make([("Ana", "solo_sete"), ("Bia", "passo"), ("Caio", "passo"), ("Dani", "passo")])
    assert auction.complete
    assert auction.legal_calls() == []
    assert auction.joiners() == []
    for player in PLAYERS:
        for slug in ("passo", "solo_nove", "meia_miseria"):
            assert_illegal(auction, player, slug, "already over")


def test_all_pass() -> None:
    auction = make([(p, "passo") for p in PLAYERS])
    assert auction.complete
    assert auction.contract is None
    assert auction.standing is None
    assert_illegal(auction, "Ana", "solo_sete", "already over")


def test_incomplete_auction_is_refused_by_the_record() -> None:
    record = {
        "ultima": "copas",
        "auction": [["Ana", "solo_sete"], ["Bia", "passo"]],
        "trump": "paus",
        "tricks": {"Ana": 7, "Bia": 2, "Caio": 2, "Dani": 2},
    }
    with pytest.raises(IllegalCall) as info:
        parse_hand(record, players=PLAYERS, options=JubileuOptions(), dealer=DEALER)
    assert "not finished" in str(info.value) and "Caio" in str(info.value)
    assert info.value.field == "auction"


def test_illegal_call_in_a_record_points_at_the_call() -> None:
    record = {"ultima": "copas", "auction": [["Ana", "solo_nove"], ["Bia", "solo_sete"]]}
    with pytest.raises(IllegalCall) as info:
        parse_hand(record, players=PLAYERS, options=JubileuOptions(), dealer=DEALER)
    assert info.value.field == "auction[1]"
    assert "lower than" in str(info.value)


def test_unknown_player_in_verify_call() -> None:
    assert_illegal(make(), "Zeca", "passo", "not seated")


def test_replay_reproduces_the_state() -> None:
    calls: list[tuple[str, Call]] = [
        ("Ana", Bid.MEIA_MISERIA),
        ("Caio", Bid.MEIA_MISERIA),
        ("Bia", Bid.SOLO_NOVE),
        ("Caio", PASSO),
    ]
    auction = Auction.replay(players=PLAYERS, dealer=DEALER, options=JubileuOptions(), aces=None, calls=calls)
    assert auction.calls == calls
    assert auction.standing is Bid.SOLO_NOVE and auction.declarers == ["Bia"]
    assert auction.turn == "Dani"
    with pytest.raises(IllegalCall) as info:
        Auction.replay(players=PLAYERS, dealer=DEALER, options=JubileuOptions(), aces=None, calls=[("Bia", PASSO)])
    assert info.value.field == "auction[0]"


# --------------------------------------------------------------------------- legal_calls() contents


def above(rank: int) -> set[str]:
    return {b for b in ALL_BIDS if SPEC_RANK[b] > rank}


@pytest.mark.parametrize(
    ("calls", "aces", "expected"),
    [
        # opening, nobody holds aces: everything but JO
        ([], None, {"passo", *ALL_BIDS} - {"jogo_obrigatorio"}),
        # after Solo Oito: of tier A only Solo Oito da Última; JO not for Bia
        ([("Ana", "solo_oito")], None, {"passo", "solo_oito_da_ultima"} | (above(5) - {"jogo_obrigatorio"})),
        # ... and JO for the aces holder... but he may not pass below JO
        ([("Ana", "solo_oito")], {"Bia": 3}, {"jogo_obrigatorio"} | above(6)),
        # JO appears only for the holder; Caio holds the aces, Bia speaks now
        ([("Ana", "solo_oito")], {"Caio": 3}, {"passo", "solo_oito_da_ultima"} | (above(5) - {"jogo_obrigatorio"})),
        # after Meia Miséria: the join, nothing else in tier A
        ([("Ana", "meia_miseria")], None, {"passo", "meia_miseria"} | (above(5) - {"jogo_obrigatorio"})),
        ([("Ana", "solo_oito_da_ultima")], None, {"passo"} | (above(5) - {"jogo_obrigatorio"})),
        ([("Ana", "solo_dez")], None, {"passo", "solo_dez_da_ultima"} | above(9)),
        ([("Ana", "miseria")], None, {"passo"} | above(9)),
        ([("Ana", "solo_dez_da_ultima")], None, {"passo"} | above(9)),
        ([("Ana", "jogo_obrigatorio")], {"Ana": 4}, {"passo"} | above(6)),
        ([("Ana", "solo_treze_da_ultima")], None, {"passo", "miseria_aberta", "miseria_aberta_com_coloquio"}),
        ([("Ana", "miseria_aberta_com_coloquio")], None, {"passo"}),
    ],
)
def test_legal_calls_contents(calls: list[tuple[str, str]], aces: dict[str, int] | None, expected: set[str]) -> None:
    auction = make(calls, aces=aces)
    legal = auction.legal_calls()
    assert slugs(legal) == expected
    assert len(legal) == len(expected)
    assert auction.turn is not None
    for call in (PASSO, *Bid):
        assert auction.can_call(auction.turn, call) == (call.value in expected)


def test_legal_calls_are_in_page_order_pass_first() -> None:
    legal = make().legal_calls()
    assert legal[0] is PASSO
    ranks = [SPEC_RANK[c.value] for c in legal[1:]]
    assert ranks == sorted(ranks)


# --------------------------------------------------------------------------- options: first_speaker, auction_end


def test_first_speaker_default_is_after_the_dealer() -> None:
    assert make().turn == "Ana"
    assert make(dealer="Ana").turn == "Bia"
    assert make(dealer="Bia").turn == "Caio"


def test_first_speaker_before_dealer() -> None:
    auction = make(first_speaker="before_dealer")
    assert auction.turn == "Caio"
    auction.call("Caio", Bid.SOLO_SETE)
    assert auction.turn == "Bia"  # then round the other way, the dealer (Dani) last
    auction.call("Bia", Pass.PASSO)
    assert auction.turn == "Ana"
    auction.call("Ana", Pass.PASSO)
    assert auction.turn == "Dani"
    assert make(dealer="Ana", first_speaker="before_dealer").turn == "Dani"


def test_three_passes_lets_a_passed_player_bid_again() -> None:
    calls = [("Ana", "solo_sete"), ("Bia", "passo"), ("Caio", "passo"), ("Dani", "solo_nove"), ("Ana", "passo")]
    final = make(calls)
    assert final.complete  # default: Bia and Caio passed for good
    auction = make(calls, auction_end="three_passes")
    assert not auction.complete
    assert auction.turn == "Bia"
    assert_legal(auction, "Bia", "solo_dez")
    auction.call("Bia", Bid.SOLO_DEZ)
    assert auction.turn == "Caio"
    for player in ("Caio", "Dani", "Ana"):
        auction.call(player, PASSO)
    assert auction.complete
    assert auction.contract is not None
    assert (auction.contract.bid, auction.contract.declarers) == (Bid.SOLO_DEZ, ("Bia",))


def test_three_passes_needs_three_passes_after_the_standing_bid() -> None:
    auction = make([("Ana", "solo_sete"), ("Bia", "passo"), ("Caio", "passo")], auction_end="three_passes")
    assert auction.turn == "Dani"
    auction.call("Dani", PASSO)
    assert auction.complete


def test_three_passes_all_pass_needs_four_passes() -> None:
    auction = make([("Ana", "passo"), ("Bia", "passo"), ("Caio", "passo")], auction_end="three_passes")
    assert auction.turn == "Dani"
    auction.call("Dani", PASSO)
    assert auction.complete and auction.contract is None


def test_three_passes_forced_player_still_cannot_pass_below_jo() -> None:
    auction = make([("Ana", "solo_sete")], aces={"Bia": 3}, auction_end="three_passes")
    assert_illegal(auction, "Bia", "passo", "aces", "pass")


# --------------------------------------------------------------------------- J-L8 to J-L13: the checks on the record
#
# These run when the contract details are entered after the auction. One legal and one
# illegal case per rule; tests/rules/test_jubileu_record.py covers them in depth.

BASE = {"dealer": "Dani", "ultima": "copas"}


def record(calls: list[tuple[str, str]], **details: object) -> dict[str, object]:
    return {**BASE, "auction": [list(c) for c in calls], **details}


SOLO_ANA = [("Ana", "solo_sete"), ("Bia", "passo"), ("Caio", "passo"), ("Dani", "passo")]
JUB_ANA = [("Ana", "jubileu"), ("Bia", "passo"), ("Caio", "passo"), ("Dani", "passo")]
JDU_ANA = [("Ana", "jubileu_da_ultima"), ("Bia", "passo"), ("Caio", "passo"), ("Dani", "passo")]
SSDU_ANA = [("Ana", "solo_sete_da_ultima"), ("Bia", "passo"), ("Caio", "passo"), ("Dani", "passo")]
MM_ANA = [("Ana", "meia_miseria"), ("Bia", "passo"), ("Caio", "passo"), ("Dani", "passo")]
MM_ANA_CAIO = [("Ana", "meia_miseria"), ("Caio", "meia_miseria"), ("Bia", "passo"), ("Dani", "passo")]
JO_CAIO = [("Ana", "passo"), ("Bia", "passo"), ("Caio", "jogo_obrigatorio"), ("Dani", "passo")]
MISERIA_ANA = [("Ana", "miseria"), ("Bia", "passo"), ("Caio", "passo"), ("Dani", "passo")]
T_7 = {"Ana": 4, "Bia": 3, "Caio": 3, "Dani": 3}

RULE_CASES: list[tuple[str, dict[str, object], type[RulesError] | None, str]] = [
    # the called ace is never the trump ace; the partner is not the declarer
    ("J-L8 ok", record(JUB_ANA, trump="paus", called="ouros", partner="Caio", tricks=T_7), None, ""),
    (
        "J-L8 trump ace",
        record(JUB_ANA, trump="paus", called="paus", partner="Caio", tricks=T_7),
        InconsistentHand,
        "trump",
    ),
    ("J-L8 última ace", record(JDU_ANA, called="copas", partner="Caio", tricks=T_7), InconsistentHand, "trump"),
    (
        "J-L8 self",
        record(JUB_ANA, trump="paus", called="ouros", partner="Ana", tricks=T_7),
        InconsistentHand,
        "partner",
    ),
    # the trump of a "da Última" contract is the última
    ("J-L9 ok", record(SSDU_ANA, trump="copas", tricks=T_7), None, ""),
    ("J-L9 other", record(SSDU_ANA, trump="paus", tricks=T_7), InconsistentHand, "última"),
    (
        "J-L9 JdU other",
        record(JDU_ANA, trump="paus", called="ouros", partner="Caio", tricks=T_7),
        InconsistentHand,
        "última",
    ),
    # J-L10: Meia Miséria has no trump
    ("J-L10 ok", record(MM_ANA, tricks={"Ana": 1, "Bia": 4, "Caio": 4, "Dani": 4}), None, ""),
    (
        "J-L10 trump",
        record(MM_ANA, trump="paus", tricks={"Ana": 1, "Bia": 4, "Caio": 4, "Dani": 4}),
        InconsistentHand,
        "without trump",
    ),
    # J-L11: JO partner and trump
    (
        "J-L11 ok 3",
        {**record(JO_CAIO, trump="espadas", called="paus", partner="Bia", tricks=T_7), "aces": {"Caio": 3}},
        None,
        "",
    ),
    (
        "J-L11 trump=4th ace",
        {**record(JO_CAIO, trump="paus", called="paus", partner="Bia", tricks=T_7), "aces": {"Caio": 3}},
        InconsistentHand,
        "fourth ace",
    ),
    (
        "J-L11 trump=king",
        {**record(JO_CAIO, trump="ouros", called="ouros", partner="Bia", tricks=T_7), "aces": {"Caio": 4}},
        InconsistentHand,
        "called king",
    ),
    (
        "J-L11 king self",
        {**record(JO_CAIO, trump="ouros", called="paus", partner="Caio", tricks=T_7), "aces": {"Caio": 4}},
        InconsistentHand,
        "partner",
    ),
    (
        "J-L11 3 aces self",
        {**record(JO_CAIO, trump="ouros", partner="Caio", tricks=T_7), "aces": {"Caio": 3}},
        InconsistentHand,
        "partner",
    ),
    # tricks 0..13, adding up to 13 (all four entered), several MM declarers' sum <= 13 follows
    ("J-L12 ok", record(MM_ANA_CAIO, tricks={"Ana": 1, "Bia": 6, "Caio": 0, "Dani": 6}), None, ""),
    (
        "J-L12 sum",
        record(SOLO_ANA, trump="paus", tricks={"Ana": 7, "Bia": 2, "Caio": 2, "Dani": 3}),
        InconsistentHand,
        "14",
    ),
    (
        "J-L12 range",
        record(SOLO_ANA, trump="paus", tricks={"Ana": 14, "Bia": 0, "Caio": 0, "Dani": -1}),
        InconsistentHand,
        "0 to 13",
    ),
    (
        "J-L12 whole",
        record(SOLO_ANA, trump="paus", tricks={"Ana": 7.0, "Bia": 2, "Caio": 2, "Dani": 2}),
        InvalidInput,
        "whole number",
    ),
    # misère contracts have no overtricks -> covered by settlement: here the record is legal
    ("J-L13 record", record(MISERIA_ANA, trump="paus", tricks={"Ana": 0, "Bia": 5, "Caio": 4, "Dani": 4}), None, ""),
]


@pytest.mark.parametrize(("name", "raw", "error", "reason"), RULE_CASES, ids=[c[0] for c in RULE_CASES])
def test_j_l8_to_j_l12_record_checks(
    name: str, raw: dict[str, object], error: type[RulesError] | None, reason: str
) -> None:
    options = JubileuOptions()
    if error is None:
        hand = parse_hand(raw, players=PLAYERS, options=options, dealer=DEALER)
        assert sum(settle(hand, options).deltas.values()) == 0
        return
    with pytest.raises(error) as info:
        parse_hand(raw, players=PLAYERS, options=options, dealer=DEALER)
    assert type(info.value) is error
    assert reason.lower() in str(info.value).lower()


@pytest.mark.parametrize(
    ("slug", "tricks", "per_payer"),
    [("miseria", 0, 5), ("meia_miseria", 1, 3), ("miseria_aberta", 0, 10), ("miseria_aberta_com_coloquio", 0, 15)],
)
def test_j_l13_misere_contracts_have_no_overtricks(slug: str, tricks: int, per_payer: int) -> None:
    """Made exactly is the only way to make a misère: the declarer gets v from each, never more."""
    rest = 13 - tricks
    raw = {
        **BASE,
        "contract": {"bid": slug, "declarers": ["Ana"]},
        "tricks": {"Ana": tricks, "Bia": rest - 2 * (rest // 3), "Caio": rest // 3, "Dani": rest // 3},
    }
    if slug != "meia_miseria":
        raw["trump"] = "paus"
    hand = parse_hand(raw, players=PLAYERS, options=JubileuOptions(overtricks=True), dealer=DEALER)
    assert dict(settle(hand, JubileuOptions()).deltas) == {
        "Ana": 3 * per_payer,
        "Bia": -per_payer,
        "Caio": -per_payer,
        "Dani": -per_payer,
    }


def test_pass_is_a_call_not_a_bid() -> None:
    assert isinstance(PASSO, Pass)
    assert PASSO.value == "passo"
    with pytest.raises(UnknownPlayer):
        parse_hand({**BASE, "auction": [["Zeca", "passo"]]}, players=PLAYERS, options=JubileuOptions(), dealer=DEALER)
