"""Each game its own short path, tapped like a player on a 390×844 touch screen, with the taps
counted from the table page to the confirm (typing would show in ``keys``):

- Kentucky Derby: a race recorded by its winner alone (the bets, one tap on the winning horse,
  confirm), then the next race with the same bets again (one tap) and its winner;
- Injun: a Brag hand at a table whose option is Poker, the system switched by the old way (the
  setup step) and by the segmented row; the next hand starts in Brag by itself;
- Koziri: the deal helper, then "record this hand": the suits are not asked again, and the
  answer checker opens with both trumps chosen.

Every page passes axe and never scrolls sideways; payouts are worked out from the rule text.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e import injun_steps
from tests.e2e.jubileu_steps import Taps
from tests.e2e.steps import Audit, balances, create_table, expected_for, preview_deltas, stored_hands

pytestmark = pytest.mark.e2e

DERBY = ("Ana", "Bia", "Caio", "Dani")
#: Ana ♥, Bia ♠, Caio ♥, Dani ♦, one chip each (the table's bet), pingo 1: a pot of 8. ♥ wins:
#: Ana and Caio share it, 4 each (put in 2 each).
DERBY_BETS = {"Ana": "copas", "Bia": "espadas", "Caio": "copas", "Dani": "ouros"}


def tap_horses(page: Page, taps: Taps) -> None:
    for i, name in enumerate(DERBY):
        radio = page.locator(f'input[name="h{i}"][value="{DERBY_BETS[name]}"]')
        radio.tap()
        expect(radio).to_be_checked()
        taps.count += 1


def test_derby_winner_alone_then_the_same_bets_again(page, live_app, live_server, axe_check, shot) -> None:  # type: ignore[no-untyped-def]
    audit = Audit(page, axe_check, shot, prefix="paths-derby")
    tid = create_table(page, live_server, "kentucky_derby", DERBY)
    taps = Taps(page)
    taps.watch_keys()
    taps.on(page.locator('.next-hand a[href$="/hand"]'))
    expect(page.locator('button[value="again"]')).to_have_count(0)  # no race before this one
    tap_horses(page, taps)
    taps.press("bets")
    expect(page.locator(".derby-winner-only")).to_be_visible()
    audit("race-with-winner-only")
    taps.press("winner:copas")
    assert preview_deltas(page) == expected_for(DERBY, Ana=2, Bia=-2, Caio=2, Dani=-2)
    assert stored_hands(live_app, tid) == 0
    audit("winner-only-preview")
    taps.on(page.locator('#race form[method="post"] button[type="submit"]'))
    assert balances(page) == expected_for(DERBY, Ana=2, Bia=-2, Caio=2, Dani=-2)
    assert taps.count == 8, taps.count  # card by card it took 23 to 29
    first = taps.count

    # The next race: the same bets in one tap, ♠ wins: Bia alone takes the pot of 8.
    taps.count = 0
    taps.on(page.locator('.next-hand a[href$="/hand"]'))
    expect(page.locator(".derby-again .derby-bet-list li")).to_have_count(4)
    audit("bets-again")
    taps.press("again")
    taps.press("winner:espadas")
    assert preview_deltas(page) == expected_for(DERBY, Ana=-2, Bia=6, Caio=-2, Dani=-2)
    taps.on(page.locator('#race form[method="post"] button[type="submit"]'))
    assert balances(page) == expected_for(DERBY, Ana=0, Bia=4, Caio=0, Dani=-4)
    assert taps.count == 4, taps.count
    assert taps.keys() == 0
    print(f"\nDerby taps: winner alone {first}, with the same bets again {taps.count}")
    audit.done()


BRAG = ["act:0:bet", "act:1:bet", "act:2:close", "act:3:bet", "act:0:drop", "act:1:see"]
BRAG_CARDS = ["card:1:K", "card:2:A", "card:3:7"]
BRAG_DELTAS = {"Ana": -2, "Bia": -1, "Caio": 5, "Dani": -2}


def brag_hand(taps: Taps) -> None:
    for value in BRAG + BRAG_CARDS:
        taps.press(value)
    assert preview_deltas(taps.page) == expected_for(injun_steps.PLAYERS, **BRAG_DELTAS)
    taps.on(taps.page.locator('form[action$="/hand"] button[type="submit"]'))


def test_injun_brag_at_a_poker_table_costs_one_tap_to_switch(page, live_app, live_server, axe_check, shot) -> None:  # type: ignore[no-untyped-def]
    audit = Audit(page, axe_check, shot, prefix="paths-injun")
    tid = injun_steps.create_table(page, live_server, system="poker")
    taps = Taps(page)
    taps.watch_keys()

    # Before: the setup step (change, the Brag radio, continue), as it still works.
    taps.on(page.locator('.next-hand a[href$="/hand"]'))
    audit("hand-start-poker")
    taps.press("back:setup")
    radio = page.locator('input[name="system"][value="brag"]')
    radio.tap()
    taps.count += 1
    taps.press("setup")
    brag_hand(taps)
    before = taps.count
    assert before == 14, before

    # The table's last hand was Brag: the next one starts in Brag, nothing to switch.
    taps.count = 0
    taps.on(page.locator('.next-hand a[href$="/hand"]'))
    expect(page.locator('.injun-systems button[aria-pressed="true"]')).to_have_attribute("value", "system:brag")
    audit("hand-start-brag-remembered")
    taps.press("system:poker")  # back to Poker in one tap, and to Brag again in one
    expect(page.locator('.injun-systems button[aria-pressed="true"]')).to_have_attribute("value", "system:poker")
    taps.press("system:brag")
    # Ana deals now: Bia bets one chip (Brag: no amount), the others drop; Bia takes the antes.
    for value in ("act:1:bet", "act:2:drop", "act:3:drop", "act:0:drop"):
        taps.press(value)
    assert preview_deltas(page) == expected_for(injun_steps.PLAYERS, Ana=-1, Bia=3, Caio=-1, Dani=-1)
    taps.on(page.locator('form[action$="/hand"] button[type="submit"]'))

    # After: a new Poker table, Brag by the segmented row: one tap to switch.
    tid = injun_steps.create_table(page, live_server, system="poker")
    taps.count = 0
    taps.on(page.locator('.next-hand a[href$="/hand"]'))
    taps.press("system:brag")
    brag_hand(taps)
    after = taps.count
    assert after == before - 2, (before, after)
    assert stored_hands(live_app, tid) == 1 and taps.keys() == 0
    print(f"\nInjun Brag hand at a Poker table: before {before} taps, after {after}")
    audit.done()


def tap_pick(page: Page, name: str, value: str) -> None:
    box = page.locator(f'input[name="{name}"][value="{value}"]')
    page.locator("label.kz-pick", has=box).tap()
    expect(box).to_be_checked()


def test_koziri_the_deal_helper_s_suits_are_not_asked_again(page, live_app, live_server, axe_check, shot) -> None:  # type: ignore[no-untyped-def]
    audit = Audit(page, axe_check, shot, prefix="paths-koziri")
    tid = create_table(page, live_server, "koziri", ("Ana", "Bia"), tap=True)
    taps = Taps(page)
    taps.on(page.locator(f'a[href="/koziri/deal?t={tid}"]'))
    tap_pick(page, "dealer_trump", "espadas")
    tap_pick(page, "dealer_second", "copas")
    tap_pick(page, "opponent_trump", "ouros")
    taps.on(page.locator('button[name="step"][value="cards"]'))
    for code in ("Ke", "Qe", "Ac"):
        tap_pick(page, "c", code)
    taps.on(page.locator('button[name="step"][value="hands"]'))
    audit("deal-hands-record")

    # The answer checker from the table page: both trumps already chosen.
    page.goto(f"{live_server}/koziri/answer?t={tid}")
    expect(page.locator('input[name="dealer_trump"][value="espadas"]')).to_be_checked()
    expect(page.locator('input[name="opponent_trump"][value="ouros"]')).to_be_checked()
    audit("answer-prefilled")
    page.go_back()

    # Record this hand: only the winner is asked (Ana, seat 0), then confirm.
    taps.count = 0
    taps.on(page.locator(f'a.btn[href="/t/{tid}/hand"]'))
    expect(page.locator('button[name="action"][value^="set:dealer_trump"]')).to_have_count(0)
    audit("hand-winner-only")
    taps.press("set:winner:0")
    assert preview_deltas(page) == expected_for(("Ana", "Bia"), Ana=1, Bia=-1)
    taps.on(page.locator('form[action$="/hand"] button[type="submit"]'))
    assert taps.count == 3, taps.count  # without the helper's suits: 6 (three suits asked again)
    assert balances(page) == expected_for(("Ana", "Bia"), Ana=1, Bia=-1)
    assert stored_hands(live_app, tid) == 1
    audit.done()
