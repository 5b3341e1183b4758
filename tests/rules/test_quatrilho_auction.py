"""The Quatrilho "É bom?" auction (Q-L1): priority natural > with exchange >
branco > chamada > carreguete; "é bom" forbids a later solo; a call only if nobody solos; equal
solos go to the earlier speaker from the mão. Players Ana (mão), Bia, Caio, Dani."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.rules.errors import IllegalCall, InvalidInput
from referee.rules.quatrilho import Auction, Call, Mode, legal_answers, resolve_auction

ACTIVE = ("Ana", "Bia", "Caio", "Dani")
SOLOS = {"solo_branco": 1, "solo_preto": 2, "solo_preto_natural": 3}  # Q-L1, lowest first
ALL = ["passo", "chamo", "e_bom", "solo_branco", "solo_preto", "solo_preto_natural"]


def seq(*calls: str) -> list[tuple[str, str]]:
    return list(zip(ACTIVE, calls))


@pytest.mark.parametrize(
    ("calls", "expected"),
    [
        (("passo", "passo", "passo", "passo"), (Mode.CARREGUETE, None)),
        (("chamo", "e_bom", "e_bom", "e_bom"), (Mode.CHAMADA, "Ana")),
        (("passo", "passo", "passo", "chamo"), (Mode.CHAMADA, "Dani")),
        (("passo", "chamo", "e_bom", "e_bom"), (Mode.CHAMADA, "Bia")),
        # "não é bom" commits to a solo, which beats the call
        (("chamo", "e_bom", "solo_branco", "e_bom"), (Mode.SOLO_BRANCO, "Caio")),
        (("chamo", "solo_branco", "solo_preto", "e_bom"), (Mode.SOLO_PRETO, "Caio")),
        (("chamo", "solo_preto", "e_bom", "solo_preto_natural"), (Mode.SOLO_PRETO, "Dani")),
        # a solo announced in turn; later speakers may only go higher
        (("solo_branco", "passo", "passo", "passo"), (Mode.SOLO_BRANCO, "Ana")),
        (("passo", "solo_preto", "passo", "solo_preto_natural"), (Mode.SOLO_PRETO, "Dani")),
        (("solo_preto_natural", "passo", "passo", "passo"), (Mode.SOLO_PRETO, "Ana")),
    ],
)
def test_resolution(calls: tuple[str, ...], expected: tuple[Mode, str | None]) -> None:
    assert resolve_auction(seq(*calls), ACTIVE) == expected


def test_all_pass_gives_the_no_bid_mode_asked_for() -> None:
    assert resolve_auction(seq("passo", "passo", "passo", "passo"), ACTIVE, no_bid=Mode.MONTE) == (Mode.MONTE, None)


@pytest.mark.parametrize(
    ("calls", "bad", "words"),
    [
        # "Após responder que 'É bom', não poderá fazer solo."
        (seq("chamo", "e_bom", "e_bom", "e_bom"), ("Bia", "solo_preto"), ['Bia answered "é bom"', "no longer"]),
        # A call only if nobody wants to solo
        (seq("solo_branco"), ("Bia", "chamo"), ["only allowed when nobody wants to solo", "Ana"]),
        # equal solo: the earlier speaker has priority
        (seq("solo_preto"), ("Bia", "solo_preto"), ["Ana's Solo preto has priority"]),
        # lower solo after a higher one
        (seq("solo_preto_natural"), ("Bia", "solo_branco"), ["priority"]),
        (seq("chamo", "solo_preto"), ("Caio", "solo_branco"), ["Bia's Solo preto has priority"]),
        # after a call the others answer é bom or solo
        (seq("chamo"), ("Bia", "passo"), ['Ana asked "É bom?"']),
        (seq("chamo"), ("Bia", "chamo"), ["Ana has already called"]),
        # é bom answers a call
        ([], ("Ana", "e_bom"), ["nobody has called"]),
        (seq("solo_branco"), ("Bia", "e_bom"), ["nobody has called"]),
        # out of turn, twice, over
        ([], ("Bia", "passo"), ["not Bia's turn", "Ana speaks now"]),
        (seq("passo"), ("Ana", "chamo"), ["Ana has already spoken", "Bia speaks now"]),
        (seq("passo", "passo", "passo", "passo"), ("Ana", "chamo"), ["already over"]),
        ([], ("Edu", "passo"), ["Edu does not play this hand"]),
    ],
)
def test_illegal_calls(calls: list[tuple[str, str]], bad: tuple[str, str], words: list[str]) -> None:
    auction = Auction.replay(active=ACTIVE, calls=calls)
    player, call = bad
    assert not auction.can_call(player, Call(call))
    with pytest.raises(IllegalCall) as info:
        auction.call(player, Call(call), field="auction[9]")
    assert info.value.field == "auction[9]"
    for word in words:
        assert word in str(info.value)
    if auction.turn == player:
        assert call not in legal_answers(calls, ACTIVE)


def test_legal_answers_for_the_web() -> None:
    assert legal_answers([], ACTIVE) == ["passo", "chamo", "solo_branco", "solo_preto", "solo_preto_natural"]
    assert legal_answers(seq("chamo"), ACTIVE) == ["e_bom", "solo_branco", "solo_preto", "solo_preto_natural"]
    assert legal_answers(seq("chamo", "solo_branco"), ACTIVE) == ["e_bom", "solo_preto", "solo_preto_natural"]
    assert legal_answers(seq("solo_preto_natural"), ACTIVE) == ["passo"]
    assert legal_answers(seq("passo", "passo", "passo", "passo"), ACTIVE) == []


def test_replay_refuses_bad_shapes() -> None:
    with pytest.raises(InvalidInput):
        legal_answers([("Ana", "pass")], ACTIVE)
    with pytest.raises(InvalidInput):
        legal_answers(["Ana"], ACTIVE)  # type: ignore[list-item]
    with pytest.raises(IllegalCall):
        resolve_auction(seq("chamo", "e_bom"), ACTIVE)


# --------------------------------------------------------------------------- oracle and properties


def oracle_legal(calls: list[str]) -> list[str]:
    """Transcribed: each active player speaks once from the mão; a pass is final; after
    "chamo" the others answer é bom or solo; after a solo only a higher solo may follow."""
    if len(calls) >= 4:
        return []
    called = "chamo" in calls
    best = max((SOLOS[c] for c in calls if c in SOLOS), default=0)
    legal = []
    if not called:
        legal.append("passo")
        if best == 0:
            legal.append("chamo")
    else:
        legal.append("e_bom")
    legal += [c for c, rank in SOLOS.items() if rank > best]
    return legal


def oracle_result(calls: list[str]) -> tuple[Mode, str | None]:
    best = max((SOLOS[c] for c in calls if c in SOLOS), default=0)
    if best:
        who = next(i for i, c in enumerate(calls) if c in SOLOS and SOLOS[c] == best)
        return (Mode.SOLO_BRANCO if best == 1 else Mode.SOLO_PRETO), ACTIVE[who]
    if "chamo" in calls:
        return Mode.CHAMADA, ACTIVE[calls.index("chamo")]
    return Mode.CARREGUETE, None


@given(st.lists(st.sampled_from(ALL), max_size=5))
def test_legal_answers_agree_with_the_checks(attempts: list[str]) -> None:
    """At every step the helper's list, the oracle and the check that refuses a record agree."""
    calls: list[tuple[str, str]] = []
    for call in attempts:
        legal = legal_answers(calls, ACTIVE)
        assert legal == oracle_legal([c for _, c in calls])
        auction = Auction.replay(active=ACTIVE, calls=calls)
        speaker = auction.turn or "Ana"
        if call in legal:
            auction.call(speaker, Call(call))
            calls.append((speaker, call))
        else:
            with pytest.raises(IllegalCall):
                auction.verify_call(speaker, Call(call))


@given(st.data())
def test_complete_auctions_resolve_like_the_oracle(data: st.DataObject) -> None:
    calls: list[str] = []
    while len(calls) < 4:
        calls.append(data.draw(st.sampled_from(oracle_legal(calls))))
    assert resolve_auction(seq(*calls), ACTIVE) == oracle_result(calls)


@given(st.data())
def test_nobody_speaks_out_of_turn(data: st.DataObject) -> None:
    calls: list[str] = []
    n = data.draw(st.integers(0, 3))
    while len(calls) < n:
        calls.append(data.draw(st.sampled_from(oracle_legal(calls))))
    auction = Auction.replay(active=ACTIVE, calls=seq(*calls))
    other = data.draw(st.sampled_from([p for p in ACTIVE if p != auction.turn]))
    for call in Call:
        assert not auction.can_call(other, call)
