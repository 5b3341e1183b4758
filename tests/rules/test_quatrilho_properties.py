"""Property tests for Quatrilho (hypothesis): random legal hands of every mode under random options.

The settlement is compared with an oracle written here from the rule text and the chosen
readings (not from the engine); invariants: zero sum, the sitter gets 0, renaming or
rotating the table renames the deltas, the typing order of counts never matters, the winning
side never pays, capote ≥ one trick, and a record reads back the same after storage.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from referee.rules.quatrilho import QuatrilhoOptions, active_players, parse_hand, settle
from tests.rules import breakdown

NAMES = ("Ana", "Bia", "Caio", "Dani", "Edu")

options_st = st.builds(
    QuatrilhoOptions,
    solo_branco_rate=st.sampled_from([16, 10, 7]),
    giver_on_loss=st.sampled_from(["plus_10", "same"]),
    sit_out=st.sampled_from(["dealer", "cutter"]),
    one_trick=st.sampled_from(["flat_10", "cap_10"]),
    carreguete_rate=st.sampled_from([6, 5]),
    solo_natural_extra=st.sampled_from([0, 4]),
    capote_in_solos=st.booleans(),
    caller_alone=st.sampled_from(["per_opponent", "as_solo"]),
    solo_rate_from=st.sampled_from(["winning_side", "soloist"]),
    carreguete_compare=st.sampled_from(["figures", "points"]),
    carreguete_ties=st.sampled_from(["tied_pay", "redeal"]),
)


def composition(draw: st.DrawFn, total: int, caps: list[int]) -> list[int]:
    """Random non-negative counts under ``caps`` adding up to ``total``."""
    out, left = [], total
    for i, cap in enumerate(caps):
        rest = sum(caps[i + 1 :])
        value = draw(st.integers(max(0, left - rest), min(cap, left)))
        out.append(value)
        left -= value
    assert left == 0
    return out


@st.composite
def tables(draw: st.DrawFn) -> tuple[tuple[str, ...], str, QuatrilhoOptions]:
    players = NAMES[: draw(st.sampled_from([4, 5]))]
    return players, draw(st.sampled_from(players)), draw(options_st)


@st.composite
def hands(draw: st.DrawFn) -> tuple[tuple[str, ...], str, QuatrilhoOptions, dict[str, Any]]:
    players, dealer, options = draw(tables())
    active = active_players(players, dealer, options)
    mode = draw(st.sampled_from(["chamada", "solo_preto", "solo_branco", "carreguete", "monte"]))
    raw: dict[str, Any] = {"mode": mode}
    tricks = dict(zip(active, composition(draw, 10, [10] * 4)))
    caps = [0 if tricks[p] == 0 else min(35, 12 * tricks[p] + 3) for p in active]
    figures = dict(zip(active, composition(draw, 35, caps)))
    if mode == "chamada":
        raw.update(
            declarer=draw(st.sampled_from(active)),
            partner=draw(st.sampled_from(active)),
            called_card={
                "rank": draw(st.sampled_from(["1", "2", "3", "12"])),
                "suit": draw(st.sampled_from(["copas", "paus"])),
            },
            figures=figures,
            tricks=tricks,
        )
    elif mode == "solo_preto":
        declarer = draw(st.sampled_from(active))
        raw.update(
            declarer=declarer,
            giver=draw(st.sampled_from([None, *[p for p in active if p != declarer]])),
            figures=figures,
            tricks=tricks,
        )
    elif mode == "solo_branco":
        declarer = draw(st.sampled_from(active))
        raw.update(declarer=declarer, tricks={declarer: draw(st.sampled_from([0, 1]))})
    elif mode == "carreguete":
        raw["figures"] = figures
        if draw(st.booleans()):
            raw["tricks"] = tricks
    return players, dealer, options, raw


def oracle(players: tuple[str, ...], dealer: str, o: QuatrilhoOptions, raw: dict[str, Any]) -> dict[str, int]:
    """The rule text with the readings of, written independently of the engine."""
    d = dict.fromkeys(players, 0)
    active = [
        p
        for p in players
        if p in (raw.get("figures") or raw.get("tricks") or {}) or raw["mode"] in ("solo_branco", "monte")
    ]
    if len(players) == 5:
        out = dealer if o.sit_out == "dealer" else players[(players.index(dealer) - 1) % 5]
        active = [p for p in players if p != out]
    mode = raw["mode"]
    if mode == "monte":
        return d
    if mode == "solo_branco":
        s = raw["declarer"]
        sign = 1 if raw["tricks"][s] == 0 else -1
        for p in active:
            if p != s:
                d[p] -= sign * o.solo_branco_rate
                d[s] += sign * o.solo_branco_rate
        return d
    f = raw["figures"]
    if mode == "carreguete":
        score = {p: f[p] // 3 if o.carreguete_compare == "points" else f[p] for p in active}
        top = max(score.values())
        tied = [p for p in active if score[p] == top]
        if len(tied) > 1 and o.carreguete_ties == "redeal":
            return d
        rest = [p for p in active if p not in tied]
        for p in tied:
            d[p] -= o.carreguete_rate * len(rest)
        for p in rest:
            d[p] += o.carreguete_rate * len(tied)
        return d
    t = raw["tricks"]

    def rate(p_: int, losers_tricks: int) -> int:
        if losers_tricks == 0:
            return 22
        if losers_tricks == 1:
            return 10 if o.one_trick == "flat_10" else min(10, p_)
        return p_

    def solo(s: str, giver: str | None, natural_extra: int) -> None:
        won = f[s] >= 18
        w = f[s] if won else 35 - f[s]
        p_ = (w if o.solo_rate_from == "winning_side" else f[s]) // 3
        losers_tricks = 10 - t[s] if won else t[s]
        base = rate(p_, losers_tricks) if o.capote_in_solos else p_
        for q in active:
            if q == s:
                continue
            a = base + 10 + natural_extra
            if q == giver:
                a = base if won else (base + 20 if o.giver_on_loss == "plus_10" else base + 10)
            sign = 1 if won else -1
            d[s] += sign * a
            d[q] -= sign * a

    if mode == "solo_preto":
        giver = raw.get("giver")
        solo(raw["declarer"], giver, o.solo_natural_extra if giver is None else 0)
        return d
    caller, partner = raw["declarer"], raw["partner"]
    if caller == partner and o.caller_alone == "as_solo":
        solo(caller, None, 0)
        return d
    side = {caller, partner}
    others = [p for p in active if p not in side]
    sf = sum(f[p] for p in side)
    won = sf >= 18
    p_ = max(sf, 35 - sf) // 3
    losers = others if won else list(side)
    winners = list(side) if won else others
    a = rate(p_, sum(t[p] for p in losers))
    if caller == partner:
        for q in others:
            d[caller] += a if won else -a
            d[q] -= a if won else -a
        return d
    for p in winners:
        d[p] += a
    if not won and f[caller] < 9:
        d[caller] -= 2 * a
    else:
        for p in losers:
            d[p] -= a
    return d


def settled(players: tuple[str, ...], dealer: str, options: QuatrilhoOptions, raw: dict[str, Any]) -> dict[str, int]:
    return dict(settle(parse_hand(raw, players=players, options=options, dealer=dealer), options).deltas)


@given(hands())
def test_settlement_matches_the_oracle(case: tuple[tuple[str, ...], str, QuatrilhoOptions, dict[str, Any]]) -> None:
    players, dealer, options, raw = case
    d = settled(players, dealer, options, raw)
    assert d == oracle(players, dealer, options, raw)
    assert sum(d.values()) == 0
    out = [p for p in players if p not in active_players(players, dealer, options)]
    assert all(d[p] == 0 for p in out) and len(out) == len(players) - 4


@given(hands(), st.permutations(["Zé", "Lia", "Rui", "Tom", "Ivo"]))
def test_renaming_players_renames_the_deltas(
    case: tuple[tuple[str, ...], str, QuatrilhoOptions, dict[str, Any]], new: list[str]
) -> None:
    players, dealer, options, raw = case
    name = dict(zip(players, new))

    def rename(value: Any) -> Any:
        if isinstance(value, str):
            return name.get(value, value)
        if isinstance(value, dict):
            return {rename(k): v if k in ("rank", "suit") else rename(v) for k, v in value.items()}
        return value

    renamed = settled(tuple(name[p] for p in players), name[dealer], options, {k: rename(v) for k, v in raw.items()})
    assert renamed == {name[p]: v for p, v in settled(players, dealer, options, raw).items()}


@given(hands(), st.integers(1, 4))
def test_rotating_the_table_list_changes_nothing(
    case: tuple[tuple[str, ...], str, QuatrilhoOptions, dict[str, Any]], k: int
) -> None:
    """The list is circular: starting it at another seat (same dealer) is the same table."""
    players, dealer, options, raw = case
    rotated = players[k % len(players) :] + players[: k % len(players)]
    assert settled(rotated, dealer, options, raw) == settled(players, dealer, options, raw)


@given(hands(), st.randoms(use_true_random=False))
def test_typing_order_does_not_matter(
    case: tuple[tuple[str, ...], str, QuatrilhoOptions, dict[str, Any]], rnd: Any
) -> None:
    players, dealer, options, raw = case
    shuffled = dict(raw)
    for key in ("figures", "tricks"):
        if isinstance(raw.get(key), dict):
            items = list(raw[key].items())
            rnd.shuffle(items)
            shuffled[key] = dict(items)
    a = parse_hand(raw, players=players, options=options, dealer=dealer)
    b = parse_hand(shuffled, players=players, options=options, dealer=dealer)
    assert a == b
    assert settle(a, options).deltas == settle(b, options).deltas


@given(hands())
def test_the_record_reads_back_the_same(case: tuple[tuple[str, ...], str, QuatrilhoOptions, dict[str, Any]]) -> None:
    players, dealer, options, raw = case
    hand = parse_hand(raw, players=players, options=options, dealer=dealer)
    stored = hand.to_json()
    assert stored["dealer"] == dealer
    assert parse_hand(stored, players=players, options=options, dealer=players[0]) == hand


@given(hands())
def test_the_winning_side_never_pays(case: tuple[tuple[str, ...], str, QuatrilhoOptions, dict[str, Any]]) -> None:
    players, dealer, options, raw = case
    d = settled(players, dealer, options, raw)
    mode, f = raw["mode"], raw.get("figures")
    if mode == "chamada":
        side = {raw["declarer"], raw["partner"]}
        won = sum(f[p] for p in side) >= 18
        winners = side if won else set(f) - side
        assert all(d[p] > 0 for p in winners)
        assert all(d[p] <= 0 for p in f if p not in winners)
    elif mode == "solo_preto":
        s = raw["declarer"]
        if f[s] >= 18:
            assert d[s] > 0 and all(d[p] < 0 for p in f if p != s)
        else:
            assert d[s] < 0 and all(d[p] > 0 for p in f if p != s)
    elif mode == "solo_branco":
        s = raw["declarer"]
        assert (d[s] > 0) == (raw["tricks"][s] == 0)


@given(st.integers(18, 35), st.sampled_from(["flat_10", "cap_10"]))
def test_capote_at_least_one_trick_at_least_normal(w: int, one_trick: str) -> None:
    """Capote 22 (the taxa máxima) ≥ the one-trick 10 ≥ ... The normal rate P runs from 6
    (taxa mínima) to 11; under cap_10 the one-trick rate never exceeds P. Under the literal
    flat_10 the one-trick 10 may exceed P (a heavy losing trick) or fall below it (P = 11 with
    two blank losing tricks): that is QUA-2 as chosen."""
    from referee.rules.quatrilho import chamada_rate

    options = QuatrilhoOptions(one_trick=one_trick)
    capote = chamada_rate(35, 0, options)
    one = chamada_rate(w, 1, options)
    normal = chamada_rate(w, 2, options)
    assert capote == 22 >= one and capote > normal
    assert 6 <= normal <= 11
    assert one == (10 if one_trick == "flat_10" else min(10, normal))
    if one_trick == "cap_10":
        assert one <= normal
    elif normal <= 10:
        assert one >= normal


# --------------------------------------------------------------------------- boundaries random figures rarely hit


@st.composite
def carreguete_ties(draw: st.DrawFn) -> tuple[tuple[str, ...], str, QuatrilhoOptions, dict[str, Any]]:
    """k players tie on the most figures v; the others have fewer."""
    players, dealer, options = draw(tables())
    active = list(active_players(players, dealer, options))
    k = draw(st.sampled_from([2, 3]))
    feasible = [v for v in range(1, 36) if 0 <= 35 - k * v <= (4 - k) * (v - 1)]
    v = draw(st.sampled_from(feasible))
    rest = composition(draw, 35 - k * v, [v - 1] * (4 - k))
    order = draw(st.permutations(active))
    figures = dict(zip(order, [v] * k + rest))
    return players, dealer, options, {"mode": "carreguete", "figures": {p: figures[p] for p in active}}


@st.composite
def mancha_boundary(draw: st.DrawFn) -> tuple[tuple[str, ...], str, QuatrilhoOptions, dict[str, Any]]:
    """A losing caller with 8 (mancha) or 9 (no mancha) figures of his own."""
    players, dealer, options = draw(tables())
    active = list(active_players(players, dealer, options))
    caller, partner = draw(st.permutations(active))[:2]
    own = draw(st.sampled_from([8, 9]))
    partner_figures = draw(st.integers(0, 17 - own))
    others = [p for p in active if p not in (caller, partner)]
    first = draw(st.integers(0, 35 - own - partner_figures))
    figures = {caller: own, partner: partner_figures, others[0]: first, others[1]: 35 - own - partner_figures - first}
    tricks = dict(zip(active, [3, 3, 2, 2]))
    raw = {
        "mode": "chamada",
        "declarer": caller,
        "partner": partner,
        "called_card": {"rank": "3", "suit": "ouros"},
        "figures": {p: figures[p] for p in active},
        "tricks": tricks,
    }
    return players, dealer, options, raw


@given(st.one_of(carreguete_ties(), mancha_boundary()))
def test_boundaries_match_the_oracle(case: tuple[tuple[str, ...], str, QuatrilhoOptions, dict[str, Any]]) -> None:
    players, dealer, options, raw = case
    assert settled(players, dealer, options, raw) == oracle(players, dealer, options, raw)


@given(hands())
def test_the_breakdown_adds_up_to_a_payment_of_the_hand(
    case: tuple[tuple[str, ...], str, QuatrilhoOptions, dict[str, Any]],
) -> None:
    players, dealer, options, raw = case
    s = settle(parse_hand(raw, players=players, options=options, dealer=dealer), options)
    figure = breakdown.last_figure(s.lines)
    assert figure == 0 or figure in {p.amount for p in s.payments}
