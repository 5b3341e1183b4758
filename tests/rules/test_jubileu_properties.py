"""Property tests for Jubileu (hypothesis): random legal auctions and random complete hands.

The settlement is compared with an oracle written here from the rule text, and the
in-turn legality of every call with an oracle written from the rule text J-L1 to J-L7; both use the
hierarchy table transcribed below, not the engine's ladder.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.rules.cards import Suit
from referee.rules.errors import IllegalCall
from referee.rules.jubileu import ALL_CALLS, PASSO, Auction, Bid, Call, JubileuOptions, outcome, parse_hand, settle
from tests.hypothesis_settings import SLOW
from tests.rules import breakdown

PLAYERS = ("Ana", "Bia", "Caio", "Dani")
SUITS = [s.value for s in Suit]

#: The hierarchy table: slug -> (#, T, v, misère?, partnership?, trump: "declarer" | "ultima" | "none" | "partner")
TABLE: dict[str, tuple[int, int, int, bool, bool, str]] = {
    "jubileu": (1, 7, 2, False, True, "declarer"),
    "jubileu_da_ultima": (2, 7, 2, False, True, "ultima"),
    "solo_sete": (3, 7, 2, False, False, "declarer"),
    "solo_sete_da_ultima": (4, 7, 2, False, False, "ultima"),
    "meia_miseria": (5, 1, 3, True, False, "none"),
    "solo_oito": (5, 8, 3, False, False, "declarer"),
    "solo_oito_da_ultima": (5, 8, 3, False, False, "ultima"),
    "jogo_obrigatorio": (6, 8, 3, False, True, "partner"),
    "solo_nove": (7, 9, 4, False, False, "declarer"),
    "solo_nove_da_ultima": (8, 9, 4, False, False, "ultima"),
    "solo_dez": (9, 10, 5, False, False, "declarer"),
    "solo_dez_da_ultima": (9, 10, 5, False, False, "ultima"),
    "miseria": (9, 0, 5, True, False, "declarer"),
    "solo_onze": (10, 11, 6, False, False, "declarer"),
    "solo_onze_da_ultima": (11, 11, 6, False, False, "ultima"),
    "solo_doze": (12, 12, 7, False, False, "declarer"),
    "solo_doze_da_ultima": (13, 12, 7, False, False, "ultima"),
    "solo_treze": (14, 13, 8, False, False, "declarer"),
    "solo_treze_da_ultima": (15, 13, 8, False, False, "ultima"),
    "miseria_aberta": (16, 0, 10, True, False, "declarer"),
    "miseria_aberta_com_coloquio": (17, 0, 15, True, False, "declarer"),
}
JO_RANK = TABLE["jogo_obrigatorio"][0]
TIER_OVERCALLS = {("solo_oito", "solo_oito_da_ultima"), ("solo_dez", "solo_dez_da_ultima")}

auction_options = st.builds(
    JubileuOptions,
    meia_miseria_join=st.sampled_from(["anyone", "not_passed"]),
    miseria_over_solo_dez=st.sampled_from(["barred", "next_barred"]),
    jogo_obrigatorio_bidders=st.sampled_from(["aces", "anyone"]),
    first_speaker=st.sampled_from(["after_dealer", "before_dealer"]),
    auction_end=st.sampled_from(["pass_final", "three_passes"]),
)
settle_options = st.builds(
    JubileuOptions,
    overtricks=st.booleans(),
    overtricks_in_partnerships=st.booleans(),
    misere_margin=st.sampled_from(["deviation", "flat"]),
    meia_miseria_settlement=st.sampled_from(["everyone", "non_declarers"]),
    jubileu_self_ace=st.sampled_from(["refuse", "solo"]),
    jogo_obrigatorio_self_king=st.sampled_from(["refuse", "solo"]),
)
aces_strategy = st.one_of(
    st.just({}),
    st.builds(lambda p, n: {p: n}, st.sampled_from(PLAYERS), st.sampled_from([3, 4])),
)

#: Every bid raises the rank or is one of two overcalls, a Meia Miséria stand adds at most three
#: joins, and between two bids each of the other three speaks at most once: well under this.
MAX_CALLS = 100


def rank(slug: str) -> int:
    return TABLE[slug][0]


def oracle_in_turn_legal(auction: Auction, player: str, call: Call, last: tuple[str, Call] | None) -> bool | None:
    """The rule text J-L1..J-L7 for the player to speak; None where the oracle does not decide (joins
    under not_passed + three_passes)."""
    options = auction.options
    forced = auction.aces.get(player, 0) >= 3
    standing = auction.standing.value if auction.standing is not None else None
    if call is PASSO:
        return not (forced and (standing is None or rank(standing) < JO_RANK))
    slug = call.value
    if standing == "meia_miseria" and slug == "meia_miseria":  # a join (the player to speak is no declarer)
        if forced:
            return False
        if options.meia_miseria_join == "not_passed" and options.auction_end == "three_passes":
            return None
        return True
    if slug == "jogo_obrigatorio" and options.jogo_obrigatorio_bidders == "aces" and not forced:
        return False
    if forced and rank(slug) < JO_RANK:
        return False
    if standing is None or rank(slug) > rank(standing):
        return True
    if rank(slug) < rank(standing):
        return False
    if (standing, slug) in TIER_OVERCALLS:
        return True
    if (standing, slug) == ("solo_dez", "miseria") and options.miseria_over_solo_dez == "next_barred":
        # only the very next speaker after the Solo Dez is barred
        return not (last is not None and last[1] is Bid.SOLO_DEZ)
    return False


def choose(data: st.DataObject, legal: list[Call]) -> Call:
    """Mostly pass or a bid a little above the standing one, so auctions climb slowly, stay in the
    tiers and reach the joins; sometimes any legal call."""
    bids = [c for c in legal if c is not PASSO]
    how = data.draw(st.integers(0, 5))
    if PASSO in legal and (how <= 1 or not bids):
        return PASSO
    if how == 5:
        return data.draw(st.sampled_from(legal))
    return bids[data.draw(st.integers(0, min(2, len(bids) - 1)))]


def run_auction(data: st.DataObject, auction: Auction) -> list[tuple[str, Call]]:
    """Drive ``auction`` to completion with random legal calls, checking legality on the way."""
    made: list[tuple[str, Call]] = []
    while not auction.complete:
        assert len(made) < MAX_CALLS, "the auction did not end"
        turn = auction.turn
        assert turn is not None
        legal = auction.legal_calls()
        joiners = auction.joiners()
        assert legal, "the player to speak always has something legal to say"
        last = made[-1] if made else None
        for player in PLAYERS:
            for call in ALL_CALLS:
                ok = auction.can_call(player, call)
                if player == turn:
                    assert ok == (call in legal)
                    expected = oracle_in_turn_legal(auction, player, call, last)
                    if expected is not None:
                        assert ok == expected, (player, call, auction.standing, made)
                else:
                    assert ok == (call is Bid.MEIA_MISERIA and player in joiners)
                if ok:
                    auction.verify_call(player, call)
                else:
                    try:
                        auction.verify_call(player, call)
                    except IllegalCall as error:
                        assert str(error)
                    else:
                        raise AssertionError(f"{player} {call} was not refused")
        player, call = turn, choose(data, legal)
        if joiners and data.draw(st.integers(0, 2)) == 0:
            player, call = data.draw(st.sampled_from(joiners)), Bid.MEIA_MISERIA
        auction.call(player, call)
        made.append((player, call))
    assert auction.legal_calls() == [] and auction.joiners() == []
    return made


@settings(SLOW, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), auction_options, aces_strategy, st.sampled_from(PLAYERS))
def test_random_legal_auctions(data: st.DataObject, options: JubileuOptions, aces: dict[str, int], dealer: str) -> None:
    auction = Auction(players=PLAYERS, dealer=dealer, options=options, aces=aces)
    calls = run_auction(data, auction)
    contract = auction.contract
    bids = [c for _, c in calls if c is not PASSO]
    assert (contract is None) == (not bids)
    # a holder of 3 or 4 aces never lets the hand end below JO or all-pass
    if aces:
        assert contract is not None and rank(contract.bid.value) >= JO_RANK
        holder = next(iter(aces))
        if rank(contract.bid.value) == JO_RANK and options.jogo_obrigatorio_bidders == "aces":
            assert contract.declarers == (holder,)
    if contract is not None:
        assert contract.bid is bids[-1]
        if contract.bid is not Bid.MEIA_MISERIA:
            assert len(contract.declarers) == 1
        assert len(set(contract.declarers)) == len(contract.declarers)
    # replaying the calls gives the same auction
    again = Auction.replay(players=PLAYERS, dealer=dealer, options=options, aces=aces, calls=calls)
    assert again.contract == contract and again.calls == calls
    # rotating the seats (and the dealer with them) changes nothing: only order of play matters
    k = data.draw(st.integers(1, 3))
    rotated = PLAYERS[k:] + PLAYERS[:k]
    turned = Auction.replay(players=rotated, dealer=dealer, options=options, aces=aces, calls=calls)
    assert turned.contract == contract
    # the record path accepts the same auction
    record: dict[str, Any] = {
        "ultima": "copas",
        "dealer": dealer,
        "aces": aces,
        "auction": [[p, c.value] for p, c in calls],
    }
    if contract is not None:
        record.update(details_for(contract.bid.value, contract.declarers[0], aces))
    hand = parse_hand(record, players=PLAYERS, options=options, dealer=PLAYERS[-1])
    assert hand.contract == contract


def details_for(slug: str, declarer: str, aces: dict[str, int]) -> dict[str, Any]:
    """Trump, called card, partner and tricks that fit the contract (the última is copas)."""
    _, _, _, _, partnership, trump_rule = TABLE[slug]
    out: dict[str, Any] = {"tricks": {"Ana": 4, "Bia": 3, "Caio": 3, "Dani": 3}}
    if trump_rule in ("declarer", "partner"):
        out["trump"] = "paus"
    if partnership:
        out["partner"] = next(p for p in PLAYERS if p != declarer)
        out["called"] = "ouros"
    return out


@settings(SLOW)
@given(st.data(), auction_options, aces_strategy)
def test_a_truncated_auction_is_incomplete(data: st.DataObject, options: JubileuOptions, aces: dict[str, int]) -> None:
    auction = Auction(players=PLAYERS, dealer="Dani", options=options, aces=aces)
    calls = run_auction(data, auction)
    cut = data.draw(st.integers(0, len(calls) - 1))
    partial = Auction.replay(players=PLAYERS, dealer="Dani", options=options, aces=aces, calls=calls[:cut])
    assert not partial.complete and partial.contract is None


# --------------------------------------------------------------------------- random complete hands


def oracle_amount(slug: str, t: int, options: JubileuOptions, *, partnership: bool) -> tuple[bool, int]:
    """The rule text: (made?, amount per paying player)."""
    _, T, v, misere, _, _ = TABLE[slug]
    if misere:
        if t == T:
            return True, v
        return False, v if options.misere_margin == "flat" else v + abs(t - T) - 1
    if t >= T:
        o = t - T
        if not options.overtricks or (partnership and not options.overtricks_in_partnerships):
            o = 0
        return True, v + o
    return False, v + max(0, T - t - 1)


def oracle_deltas(
    players: tuple[str, ...],
    slug: str,
    declarers: list[str],
    partner: str | None,
    tricks: dict[str, int],
    options: JubileuOptions,
) -> tuple[dict[str, int], set[tuple[str, str, int]] | None]:
    d = dict.fromkeys(players, 0)
    if TABLE[slug][4] and partner is not None and partner != declarers[0]:
        declarer = declarers[0]
        made, a = oracle_amount(slug, tricks[declarer] + tricks[partner], options, partnership=True)
        i = players.index(declarer)
        defenders = [players[(i + k) % 4] for k in range(1, 4) if players[(i + k) % 4] != partner]
        pairs = (
            {(defenders[0], declarer, a), (defenders[1], partner, a)}
            if made
            else {(declarer, defenders[0], a), (partner, defenders[1], a)}
        )
        for p in players:
            d[p] = (a if made else -a) * (1 if p in (declarer, partner) else -1)
        return d, pairs
    for declarer in declarers:
        made, a = oracle_amount(slug, tricks[declarer], options, partnership=False)
        signed = a if made else -a
        for other in players:
            if other == declarer or (options.meia_miseria_settlement == "non_declarers" and other in declarers):
                continue
            d[declarer] += signed
            d[other] -= signed
    return d, None


@st.composite
def trick_counts(draw: st.DrawFn) -> dict[str, int]:
    cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
    counts = [b - a for a, b in zip([0, *cuts], [*cuts, 13])]
    return dict(zip(PLAYERS, counts))


@st.composite
def complete_hands(draw: st.DrawFn, options: JubileuOptions) -> tuple[dict[str, Any], str, list[str], str | None]:
    slug = draw(st.sampled_from(list(TABLE)))
    _, _, _, _, partnership, trump_rule = TABLE[slug]
    ultima = draw(st.sampled_from(SUITS))
    if slug == "meia_miseria":
        declarers = draw(st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=4, unique=True))
    else:
        declarers = [draw(st.sampled_from(PLAYERS))]
    declarer = declarers[0]
    raw: dict[str, Any] = {
        "ultima": ultima,
        "contract": {"bid": slug, "declarers": declarers},
        "tricks": draw(trick_counts()),
    }
    trump: str | None = None
    if trump_rule in ("declarer", "partner"):
        trump = draw(st.sampled_from(SUITS))
        raw["trump"] = trump
    elif trump_rule == "ultima":
        trump = ultima
        if draw(st.booleans()):
            raw["trump"] = ultima
    partner: str | None = None
    if partnership:
        alone_allowed = (slug == "jogo_obrigatorio" and options.jogo_obrigatorio_self_king == "solo") or (
            slug != "jogo_obrigatorio" and options.jubileu_self_ace == "solo"
        )
        choices = [p for p in PLAYERS if p != declarer or alone_allowed]
        partner = draw(st.sampled_from(choices))
        raw["partner"] = partner
        assert trump is not None
        called = draw(st.sampled_from([s for s in SUITS if s != trump]))
        if slug == "jogo_obrigatorio":
            aces = 4 if partner == declarer else draw(st.sampled_from([3, 4]))
            raw["aces"] = {declarer: aces}
            if aces == 4 or draw(st.booleans()):
                raw["called"] = called
        else:
            raw["called"] = called
    return raw, slug, declarers, partner


@st.composite
def hands_with_options(draw: st.DrawFn) -> tuple[JubileuOptions, tuple[dict[str, Any], str, list[str], str | None]]:
    options = draw(settle_options)
    return options, draw(complete_hands(options))


@given(hands_with_options())
def test_settlement_matches_the_rule_book(
    case: tuple[JubileuOptions, tuple[dict[str, Any], str, list[str], str | None]],
) -> None:
    options, (raw, slug, declarers, partner) = case
    hand = parse_hand(raw, players=PLAYERS, options=options, dealer="Dani")
    result = settle(hand, options)
    assert sum(result.deltas.values()) == 0
    expected, pairs = oracle_deltas(PLAYERS, slug, declarers, partner, raw["tricks"], options)
    assert dict(result.deltas) == expected
    if pairs is not None:
        assert {(p.payer, p.payee, p.amount) for p in result.payments} == pairs


@given(
    hands_with_options(),
    st.integers(1, 3),
    st.permutations(["Zé", "Lia", "Tom", "Iva"]),
    st.permutations(list(range(4))),
)
def test_settlement_symmetries(
    case: tuple[JubileuOptions, tuple[dict[str, Any], str, list[str], str | None]],
    k: int,
    new_names: list[str],
    typing_order: list[int],
) -> None:
    options, (raw, slug, declarers, partner) = case
    base = settle(parse_hand(raw, players=PLAYERS, options=options, dealer="Dani"), options)

    # rotating the players list, and the dealer with it, maps the deltas name by name
    rotated = PLAYERS[k:] + PLAYERS[:k]
    turned = settle(parse_hand(raw, players=rotated, options=options, dealer=rotated[-1]), options)
    assert dict(turned.deltas) == dict(base.deltas)
    assert {(p.payer, p.payee, p.amount) for p in turned.payments} == {
        (p.payer, p.payee, p.amount) for p in base.payments
    }

    # renaming the players renames the deltas
    rename = dict(zip(PLAYERS, new_names))
    renamed_raw = rename_record(raw, rename)
    renamed = settle(parse_hand(renamed_raw, players=tuple(new_names), options=options, dealer=new_names[-1]), options)
    assert dict(renamed.deltas) == {rename[p]: d for p, d in base.deltas.items()}

    # the order in which the tricks were typed does not matter
    retyped = {**raw, "tricks": {PLAYERS[i]: raw["tricks"][PLAYERS[i]] for i in typing_order}}
    again = settle(parse_hand(retyped, players=PLAYERS, options=options, dealer="Dani"), options)
    assert again == base


def rename_record(raw: dict[str, Any], rename: dict[str, str]) -> dict[str, Any]:
    out = dict(raw)
    out["contract"] = {"bid": raw["contract"]["bid"], "declarers": [rename[d] for d in raw["contract"]["declarers"]]}
    out["tricks"] = {rename[p]: t for p, t in raw["tricks"].items()}
    if "partner" in raw:
        out["partner"] = rename[raw["partner"]]
    if "aces" in raw:
        out["aces"] = {rename[p]: n for p, n in raw["aces"].items()}
    return out


@given(hands_with_options())
def test_made_contracts_never_cost_the_declaring_side(
    case: tuple[JubileuOptions, tuple[dict[str, Any], str, list[str], str | None]],
) -> None:
    options, (raw, slug, declarers, partner) = case
    result = settle(parse_hand(raw, players=PLAYERS, options=options, dealer="Dani"), options)
    _, T, _, misere, partnership, _ = TABLE[slug]
    tricks = raw["tricks"]
    side = [declarers[0], partner] if partnership and partner not in (None, declarers[0]) else None
    if side is not None:
        t = sum(tricks[p] for p in side)
        made = t == T if misere else t >= T
        for p in side:
            assert (result.deltas[p] > 0) == made
        return
    for d in declarers:
        made = tricks[d] == T if misere else tricks[d] >= T
        if made:
            if len(declarers) == 4 and options.meia_miseria_settlement == "non_declarers":
                # all four declared Meia Miséria and settle only with non-declarers: nobody pays
                assert result.deltas[d] == 0
            else:
                assert result.deltas[d] > 0
        elif len(declarers) == 1:
            assert result.deltas[d] < 0


@given(st.sampled_from(list(Bid)), settle_options, st.booleans())
def test_per_payer_amount_grows_with_the_miss_margin(bid: Bid, options: JubileuOptions, partnership: bool) -> None:
    _, T, v, misere, _, _ = TABLE[bid.value]
    failures = sorted(
        (abs(t - T), outcome(bid, t, options, partnership=partnership).per_payer)
        for t in range(14)
        if not outcome(bid, t, options, partnership=partnership).made
    )
    assume(failures)
    margins = [m for m, _ in failures]
    amounts = [a for _, a in failures]
    assert amounts == sorted(amounts), "a bigger miss never costs less"
    assert min(amounts) == v  # failing by one costs the fine only
    for (m1, a1), (m2, a2) in zip(failures, failures[1:]):
        if m2 > m1 and not (misere and options.misere_margin == "flat"):
            assert a2 == a1 + (m2 - m1), "one more chip per trick beyond the first"
    assert margins[0] == 1
    # and the overtricks: more tricks never earn less
    made = [
        outcome(bid, t, options, partnership=partnership).per_payer
        for t in range(14)
        if outcome(bid, t, options, partnership=partnership).made
    ]
    assert made == sorted(made) and min(made) == v


def short_form(raw: dict[str, Any], declarers: list[str], partner: str | None) -> dict[str, Any]:
    """The record with only the declaring side's tricks (``declarer_tricks``), as the page sends it."""
    tricks = raw["tricks"]
    short = {k: v for k, v in raw.items() if k != "tricks"}
    if len(declarers) > 1:
        short["declarer_tricks"] = {d: tricks[d] for d in declarers}
    else:
        short["declarer_tricks"] = sum(tricks[p] for p in {declarers[0], partner} - {None})
    return short


@given(hands_with_options())
def test_the_short_form_settles_as_the_full_form(
    case: tuple[JubileuOptions, tuple[dict[str, Any], str, list[str], str | None]],
) -> None:
    """The declaring side's tricks are all the settlement reads: the rest follows by subtraction."""
    options, (raw, _slug, declarers, partner) = case
    full = parse_hand(raw, players=PLAYERS, options=options, dealer="Dani")
    short = parse_hand(short_form(raw, declarers, partner), players=PLAYERS, options=options, dealer="Dani")
    assert settle(short, options) == settle(full, options)
    assert short.to_json()["declarer_tricks"] == short_form(raw, declarers, partner)["declarer_tricks"]


@given(hands_with_options())
def test_the_breakdown_adds_up_to_what_each_payer_pays(
    case: tuple[JubileuOptions, tuple[dict[str, Any], str, list[str], str | None]],
) -> None:
    options, (raw, _slug, _declarers, _partner) = case
    result = settle(parse_hand(raw, players=PLAYERS, options=options, dealer="Dani"), options)
    figures = breakdown.totals(result.lines) or [breakdown.last_figure(result.lines)]
    if result.payments:  # with every player declaring a Meia Miséria alone, nobody may pay
        assert set(figures) - {0} <= {p.amount for p in result.payments}
