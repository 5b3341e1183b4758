"""Koziri's referee helpers in a browser, on a 390×844 touch screen.

A two-player Koziri table (Ana, Bia; Bia, the last player, deals first). From the table's page
the dealer opens the deal helper and enters, by tapping, the rule text's procedure example: his trump
♠, his second suit ♥, the opponent's trump ♦, and the cards of his suits he turned up among 16 of
the 32: K Q J 10 of spades and A Q J 10 9 8 of hearts. The page must list both hands as the
text's procedure gives them (worked out by hand from the rule text: the opponent gets the same ranks in
♦ and ♣, then the rest of ♠ and ♥; the dealer the rest of ♦ and ♣). Then the answer checker,
opened from the result with the trumps filled in, judges the text's example: an ace of spades
led against the dealer whose trump is spades must be taken. Both pages pass axe and never
scroll sideways; nothing is stored.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.steps import Audit, create_table, go, tid_of

pytestmark = pytest.mark.e2e

TURNED_UP = "K♠ Q♠ J♠ 10♠ A♥ Q♥ J♥ 10♥ 9♥ 8♥"
# by hand: the dealer keeps those ten and receives what is left of ♦ and ♣ after the
# opponent got K Q J 10 of ♦ and A Q J 10 9 8 of ♣; the opponent those ten and the rest of ♠ and ♥.
DEALER_HAND = "K♠ Q♠ J♠ 10♠ A♥ Q♥ J♥ 10♥ 9♥ 8♥ A♦ 9♦ 8♦ 7♦ K♣ 7♣"
OPPONENT_HAND = "K♦ Q♦ J♦ 10♦ A♣ Q♣ J♣ 10♣ 9♣ 8♣ A♠ 9♠ 8♠ 7♠ K♥ 7♥"
LETTER = {"♥": "c", "♦": "o", "♠": "e", "♣": "p"}


def tap_choice(page: Page, name: str, value: str) -> None:
    """Tap the big button of a radio or checkbox and check that it took."""
    box = page.locator(f'input[name="{name}"][value="{value}"]')
    page.locator("label.kz-pick", has=box).tap()
    expect(box).to_be_checked()


def listed(page: Page, role: str) -> str:
    return " ".join(page.locator(f"#hand-{role} .kz-chip > span[aria-hidden]").all_inner_texts())


@pytest.fixture
def audit(page, axe_check, shot) -> Audit:  # type: ignore[no-untyped-def]
    return Audit(page, axe_check, shot, prefix="koziri")


def test_the_deal_helper_entered_by_tapping(page: Page, live_server: str, audit: Audit) -> None:
    base = live_server
    tid = create_table(page, base, "koziri", ("Ana", "Bia"), tap=True, name="Koziri da tarde")

    go(page, page.locator(f'a[href="/koziri/deal?t={tid}"]'), tap=True)
    expect(page.locator('input[name="dealer"][value="Bia"]')).to_be_checked()  # the table's dealer
    audit("deal-suits")
    tap_choice(page, "dealer_trump", "espadas")
    tap_choice(page, "dealer_second", "copas")
    tap_choice(page, "opponent_trump", "ouros")
    go(page, page.locator('button[name="step"][value="cards"]'), tap=True)

    # Only the dealer's two suits are offered, 8 ranks each (32 cards).
    expect(page.locator('input[name="c"]')).to_have_count(16)
    audit("deal-cards")
    for short in TURNED_UP.split():
        tap_choice(page, "c", short[:-1] + LETTER[short[-1]])
    go(page, page.locator('button[name="step"][value="hands"]'), tap=True)

    expect(page.locator("#hand-dealer h3")).to_contain_text("Bia")
    expect(page.locator("#hand-opponent h3")).to_contain_text("Ana")
    assert listed(page, "dealer") == DEALER_HAND
    assert listed(page, "opponent") == OPPONENT_HAND
    steps = [
        " ".join(li.locator(".kz-chip > span[aria-hidden]").all_inner_texts())
        for li in page.locator(".kz-steps > li").all()
    ]
    assert steps == [TURNED_UP, "K♦ Q♦ J♦ 10♦ A♣ Q♣ J♣ 10♣ 9♣ 8♣", "A♠ 9♠ 8♠ 7♠ K♥ 7♥", "A♦ 9♦ 8♦ 7♦ K♣ 7♣"]
    audit("deal-hands")

    # On to the answer checker with the trumps already chosen: the text's A♠ against the dealer.
    go(page, page.locator('a.btn[href^="/koziri/answer?"]'), tap=True)
    expect(page.locator('input[name="dealer_trump"][value="espadas"]')).to_be_checked()
    expect(page.locator('input[name="opponent_trump"][value="ouros"]')).to_be_checked()
    audit("answer")
    tap_choice(page, "who", "dealer")
    tap_choice(page, "top_rank", "A")
    tap_choice(page, "top_suit", "espadas")
    tap_choice(page, "answer_rank", "take")
    go(page, page.locator("#check-form button[type=submit]"), tap=True)
    verdict = page.locator("#verdict")
    expect(verdict).to_have_class("card kz-verdict is-legal")
    expect(verdict.locator("h2")).to_contain_text("Bia")
    expect(page.locator("#beaters")).to_contain_text("A♠")
    audit("answer-take")

    # An answer the rules refuse, and a form sent without its choices.
    tap_choice(page, "answer_rank", "K")
    tap_choice(page, "answer_suit", "espadas")
    go(page, page.locator("#check-form button[type=submit]"), tap=True)
    expect(page.locator("#verdict")).to_have_class("card kz-verdict is-illegal")
    audit("answer-illegal")
    page.goto(f"{base}/koziri/answer?check=1")
    expect(page.locator(".kz-problem")).to_be_visible()
    audit("answer-errors")
    page.goto(f"{base}/koziri/deal")
    audit("deal-standalone")
    audit.done()

    # Nothing was stored at the table.
    page.goto(f"{base}/t/{tid}")
    assert tid_of(page) == tid
    hands = page.request.get(f"{base}/api/v1/tables/{tid}").json()["hands"]
    assert hands == []
