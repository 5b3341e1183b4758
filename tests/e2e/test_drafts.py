"""A hand in progress is never lost to the page's own links: it is kept on the phone, by table
and hand place, until it is saved or discarded; the hand's first page offers it back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.injun_steps import create_table, open_hand, rows
from tests.e2e.steps import confirm, go, press
from tests.e2e.test_kentucky_derby import BETS, RACE, tap_card
from tests.e2e.test_kentucky_derby import PLAYERS as DERBY_PLAYERS

pytestmark = pytest.mark.e2e

#: A whole brag hand after the two bets (as test_injun.py plays it): Caio closes, Dani bets, Ana
#: drops, Bia sees, and the three cards.
REST = ("act:2:close", "act:3:bet", "act:0:drop", "act:1:see", "card:1:K", "card:2:A", "card:3:7")


def _kept(page) -> list[str]:  # type: ignore[no-untyped-def]
    return list(page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('referee:draft:'))"))


def _away_and_back(page) -> None:  # type: ignore[no-untyped-def]
    """The page's own "← Injun" link, then the table page's "record the next hand"."""
    go(page, page.locator("main a.back"), tap=True)
    open_hand(page, tap=True)


def test_a_hand_in_progress_survives_the_page_links(page, live_server, shot) -> None:  # type: ignore[no-untyped-def]
    create_table(page, live_server, system="brag", tap=True)
    open_hand(page, tap=True)
    offer = page.locator("[data-draft-offer]")
    expect(offer).to_be_hidden()  # nothing in progress yet
    press(page, "act:0:bet", tap=True)
    press(page, "act:1:bet", tap=True)
    two_bets = [r[1] for r in rows(page)]
    assert two_bets == ["2", "2", "1", "1"]

    # Away and back: the hand is offered, and "continue" brings the two bets back.
    _away_and_back(page)
    expect(offer).to_be_visible()
    expect(offer.locator("h2")).to_have_text("Continuar a mão 1?")
    shot(page, "fix-draft-offer")
    go(page, offer.locator("a[data-draft-continue]"), tap=True)
    assert [r[1] for r in rows(page)] == two_bets and "is-turn" in rows(page)[2][2]

    # Away and back again: "discard" starts the hand afresh, and the offer is gone for good.
    _away_and_back(page)
    offer.locator("button[data-draft-discard]").tap()
    expect(offer).to_be_hidden()
    assert _kept(page) == []
    assert [r[1] for r in rows(page)] == ["1", "1", "1", "1"]
    page.reload()
    expect(offer).to_be_hidden()

    # Saving clears it: the next hand's first page offers nothing.
    press(page, "act:0:bet", tap=True)
    press(page, "act:1:bet", tap=True)
    assert len(_kept(page)) == 1
    for value in REST:
        press(page, value, tap=True)
    confirm(page, tap=True)
    assert _kept(page) == []
    open_hand(page, tap=True)
    expect(offer).to_be_hidden()


def test_a_race_in_progress_survives_the_page_links(page, live_server) -> None:  # type: ignore[no-untyped-def]
    """Kentucky Derby: the bets and five cards, the page's own link, "record the next race":
    the race is offered back and continues with its five cards."""
    page.goto(f"{live_server}/tables/new?game=kentucky_derby")
    for i, name in enumerate(DERBY_PLAYERS):
        page.fill(f"#player_{i}", name)
    go(page, page.locator('main form[method="post"] button[type="submit"]'), tap=True)
    go(page, page.locator('.next-hand a[href$="/hand"]'), tap=True)
    for i, name in enumerate(DERBY_PLAYERS):
        page.locator(f'input[name="h{i}"][value="{BETS[name]}"]').tap()
    go(page, page.locator('button[name="action"][value="bets"]'), tap=True)
    for turned, (code, _places) in enumerate(RACE[:5], start=1):
        tap_card(page, code)
        expect(page.locator(".derby-cards ol li")).to_have_count(turned)
    go(page, page.locator("main a.back"), tap=True)
    go(page, page.locator('.next-hand a[href$="/hand"]'), tap=True)
    offer = page.locator("[data-draft-offer]")
    expect(offer.locator("h2")).to_have_text("Continuar a corrida 1?")
    go(page, offer.locator("a[data-draft-continue]"), tap=True)
    expect(page.locator(".derby-cards ol li")).to_have_count(5)
