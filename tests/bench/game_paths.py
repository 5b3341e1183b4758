"""The ideal path of one hand in each game, from the table page to the stored hand, as a player taps
it: what tests/bench/bench_game_taps.py counts and times.

One small function per path. Each sets its table up at full speed (not counted), then plays the
hand inside ``at.timed()``: only what happens there is counted and timed. The driving is the
steps modules' of tests/e2e (the same selectors as the browser tests), always with ``tap=True``;
a number is typed key by key (:func:`type_number`), so the keys pressed show. When a game's pages
change, its function here is the one place to update.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e import injun_steps, jubileu_steps, quatrilho_steps, samba_steps
from tests.e2e.steps import confirm, create_table, go, left_the_flow, press

FOUR = ("Ana", "Bia", "Caio", "Dani")


@dataclass
class At:
    """Where a path plays: the tab, the server, and the block that counts (``timed``)."""

    page: Page
    base: str
    timed: Callable[[], AbstractContextManager[Any]]


def next_hand(page: Page) -> None:
    """The table page's big "record the next hand" link."""
    go(page, page.locator('.next-hand a[href$="/hand"]'), tap=True)


def type_number(page: Page, selector: str, value: int) -> None:
    """Tap a number field and type the digits on the keyboard (one key each)."""
    field = page.locator(selector)
    field.tap()
    assert field.input_value() in ("", "0"), field.input_value()
    if field.input_value():
        field.select_text()  # a field showing 0: the first digit replaces it, as on a phone
    field.press_sequentially(str(value))


def press_all(page: Page, values: list[str]) -> None:
    for value in values:
        press(page, value, tap=True)


# --------------------------------------------------------------------------- Jubileu


def jubileu_all_pass(at: At) -> None:
    """Everybody passes: the última's suit, then "everybody passed"."""
    jubileu_steps.create_table(at.page, at.base)
    with at.timed():
        jubileu_steps.start_hand(at.page, "espadas", tap=True)
        go(at.page, at.page.locator('form[action$="/hand/all-pass"] button'), tap=True)


def jubileu_solo_sete(at: At) -> None:
    """Solo Sete, a 4-call auction: Ana bids, the others pass (with her trump), 9 tricks on the pad."""
    jubileu_steps.create_table(at.page, at.base)
    with at.timed():
        jubileu_steps.start_hand(at.page, "copas", tap=True)
        press_all(at.page, ["aces:none", "call:0:solo_sete", "rest:espadas", "side:9"])
        confirm(at.page, tap=True)


def jubileu_partnership(at: At) -> None:
    """Ana's Jubileu with a called ace: Caio holds it; together 8 tricks."""
    jubileu_steps.create_table(at.page, at.base)
    with at.timed():
        jubileu_steps.start_hand(at.page, "ouros", tap=True)
        press_all(at.page, ["aces:none", "call:0:jubileu", "rest:copas", "called:paus", "partner:2", "side:8"])
        confirm(at.page, tap=True)


# --------------------------------------------------------------------------- the others


def quatrilho_chamada(at: At) -> None:
    """A won chamada: Ana calls the ace of copas, held by Caio; 22 figures, 6 tricks."""
    quatrilho_steps.create_table(at.page, at.base)
    with at.timed():
        quatrilho_steps.record_hand(
            at.page, answers=["chamada:0", "card:1:copas", "partner:2", "side_figures:22", "side_tricks:6"], tap=True
        )


def quatrilho_solo(at: At) -> None:
    """A solo preto with Dani's card: Caio, 24 figures on the pad (no keyboard)."""
    quatrilho_steps.create_table(at.page, at.base)
    with at.timed():
        quatrilho_steps.record_hand(
            at.page, answers=["mode:solo_preto", "declarer:2", "exchange", "giver:3", "side_figures:24"], tap=True
        )


def quatrilho_carreguete(at: At) -> None:
    """Nobody bid: Caio made the most, 13 figures."""
    quatrilho_steps.create_table(at.page, at.base)
    with at.timed():
        quatrilho_steps.record_hand(at.page, answers=["mode:carreguete", "most:2", "most_figures:13"], tap=True)


def samba(at: At) -> None:
    """Ana goes out. Ana & Caio: 2 clean canastras, 310 on the table; Bia & Dani: a dirty
    canastra, 260 on the table. Canastras on the steppers, points typed."""
    samba_steps.create_table(at.page, at.base)
    page = at.page
    with at.timed():
        samba_steps.open_hand(page, tap=True)
        samba_steps.tap_plus(page, "f-t0_clean_canastras", 2)
        type_number(page, "#f-t0-meld_points", 310)
        samba_steps.show_team(page, 1)  # one team at a time: the other team's tab
        samba_steps.tap_plus(page, "f-t1_dirty_canastras", 1)
        type_number(page, "#f-t1-meld_points", 260)
        page.locator('label.chip:has(input[name="went_out"][value="0"])').tap()
        samba_steps.check_hand(page, tap=True)
        samba_steps.confirm(page, tap=True)


def samba_three_pairs(at: At) -> None:
    """Six players as three pairs; João goes out. Each team: its two card points typed (the
    table's, the hand's), the keyboard's "next" going from one to the other and then putting the
    keyboard away, then its canastras and red 3s on the steppers; "Next" brings the next team with
    its first field ready.
    João & Conceição: 2 clean, 1 dirty, 2 red 3s, 310 and 45; Ana & Bia: 1 clean, 1 dirty,
    1 red 3, 260 and 60; Márcia & Edu: 1 clean, 1 dirty, 1 red 3, 185 and 95."""
    samba_steps.create_three_pairs(at.page, at.base)
    page = at.page
    teams = [((2, 1, 2), 310, 45), ((1, 1, 1), 260, 60), ((1, 1, 1), 185, 95)]
    with at.timed():
        samba_steps.open_hand(page, tap=True)
        for i, ((clean, dirty, red), meld, hand) in enumerate(teams):
            samba_steps.type_points(page, i, "meld_points", meld, focus=i == 0)
            samba_steps.type_points(page, i, "hand_points", hand, focus=False)
            samba_steps.tap_plus(page, f"f-t{i}_clean_canastras", clean)
            samba_steps.tap_plus(page, f"f-t{i}_dirty_canastras", dirty)
            samba_steps.tap_plus(page, f"f-t{i}_red_threes", red)
            if i < len(teams) - 1:
                page.locator(f'section.team-card[data-team="{i}"] .next-team').tap()
        page.locator('label.chip:has(input[name="went_out"][value="0"])').tap()
        samba_steps.check_hand(page, tap=True)
        samba_steps.confirm(page, tap=True)


def _derby_bets(page: Page) -> None:
    """From the table page: the next race, four bets (♥ ♠ ♥ ♦), then on to the race."""
    next_hand(page)
    for i, horse in enumerate(("copas", "espadas", "copas", "ouros")):
        page.locator(f'input[name="h{i}"][value="{horse}"]').tap()
    go(page, page.locator('button[name="action"][value="bets"]'), tap=True)


def _derby_save(page: Page) -> None:
    go(page, page.locator('#race form[method="post"] button[type="submit"]'), tap=True)
    left_the_flow(page)


def kentucky_derby(at: At) -> None:
    """A race: four bets, then ♥ runs away alone, card by card (16 cards), and the payout."""
    page = at.page
    create_table(page, at.base, "kentucky_derby", FOUR)
    race = ["Kc", "3e", "3o", "3c", "Qc", "4e", "4o", "4c", "Jc", "5e", "5o", "5c", "10c", "6e", "6o", "6c"]
    with at.timed():
        _derby_bets(page)
        for n, code in enumerate(race, start=1):
            page.locator(f'#race button[name="action"][value="card:{code}"]').tap()
            expect(page.locator(".derby-cards ol li")).to_have_count(n)
        _derby_save(page)


def kentucky_derby_winner(at: At) -> None:
    """A race recorded by its winner alone: four bets, one tap on ♥, the payout."""
    page = at.page
    create_table(page, at.base, "kentucky_derby", FOUR)
    with at.timed():
        _derby_bets(page)
        press(page, "winner:copas", tap=True)
        _derby_save(page)


def kentucky_derby_again(at: At) -> None:
    """The next race with the last race's bets again (one tap), then its winner alone."""
    page = at.page
    create_table(page, at.base, "kentucky_derby", FOUR)
    _derby_bets(page)
    press(page, "winner:copas")
    _derby_save(page)
    with at.timed():
        next_hand(page)
        press(page, "again", tap=True)
        press(page, "winner:espadas", tap=True)
        _derby_save(page)


def injun(at: At) -> None:
    """Brag: Ana and Bia bet, Caio closes the pot, Dani bets, Ana drops, Bia sees; three cards."""
    injun_steps.create_table(at.page, at.base)
    with at.timed():
        injun_steps.open_hand(at.page, tap=True)
        moves = ["act:0:bet", "act:1:bet", "act:2:close", "act:3:bet", "act:0:drop", "act:1:see"]
        press_all(at.page, [*moves, "card:1:K", "card:2:A", "card:3:7"])
        confirm(at.page, tap=True)


def koziri(at: At) -> None:
    """Bia deals: her trump ♠ and second suit ♥, Ana's trump ♦; Ana wins."""
    create_table(at.page, at.base, "koziri", ("Ana", "Bia"))
    with at.timed():
        next_hand(at.page)
        press_all(
            at.page, ["set:dealer_trump:espadas", "set:dealer_second:copas", "set:opponent_trump:ouros", "set:winner:0"]
        )
        confirm(at.page, tap=True)


def lift_smoke(at: At) -> None:
    """Bia holds cards last; Caio, Ana, Dani went out in that order."""
    create_table(at.page, at.base, "lift_smoke", FOUR)
    with at.timed():
        next_hand(at.page)
        press_all(at.page, ["set:winner:1", "out:out_order:2", "out:out_order:0", "out:out_order:3"])
        confirm(at.page, tap=True)


def el_gato(at: At) -> None:
    """Dani is left holding the cards (the order the others ran out in may be left out)."""
    create_table(at.page, at.base, "el_gato", FOUR)
    with at.timed():
        next_hand(at.page)
        press(at.page, "set:loser:3", tap=True)
        confirm(at.page, tap=True)


def relogio(at: At) -> None:
    """A Relógio that came out, no King exchanged."""
    create_table(at.page, at.base, "relogio", ("Ana",))
    with at.timed():
        next_hand(at.page)
        press_all(at.page, ["set:game:relogio", "set:won:yes", "set:king_exchanges:no"])
        confirm(at.page, tap=True)


def cachorro(at: At) -> None:
    """A Cachorro that came out in the first round."""
    create_table(at.page, at.base, "cachorro", ("Ana",))
    with at.timed():
        next_hand(at.page)
        press_all(at.page, ["set:won:yes", "set:round:1"])
        confirm(at.page, tap=True)


#: (game / hand, path), in the order the table prints them.
PATHS: list[tuple[str, Callable[[At], None]]] = [
    ("Jubileu: everybody passes", jubileu_all_pass),
    ("Jubileu: Solo Sete, 4 calls", jubileu_solo_sete),
    ("Jubileu: called ace, partner", jubileu_partnership),
    ("Quatrilho: chamada", quatrilho_chamada),
    ("Quatrilho: solo preto, card given", quatrilho_solo),
    ("Quatrilho: carreguete", quatrilho_carreguete),
    ("Samba", samba),
    ("Samba: three pairs", samba_three_pairs),
    ("Kentucky Derby: a race, card by card", kentucky_derby),
    ("Kentucky Derby: winner alone", kentucky_derby_winner),
    ("Kentucky Derby: same bets, winner", kentucky_derby_again),
    ("Injun", injun),
    ("Koziri", koziri),
    ("Lift Smoke", lift_smoke),
    ("El Gato", el_gato),
    ("Relógio", relogio),
    ("Cachorro", cachorro),
]
