"""Driving the Injun pages in a browser: shared by test_injun.py.

Everything is selected by stable attributes (``name="action" value="..."``, ids, hrefs,
classes), never by visible text: the Portuguese catalogue is still being filled.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.steps import go, tid_of

PLAYERS = ("Ana", "Bia", "Caio", "Dani")  # in order of play; Dani (player 4) deals first, Ana bets first


def create_table(page: Page, base: str, *, system: str = "brag", tap: bool = False, name: str | None = None) -> str:
    """Fill the new-table form (four names, default dealer), choose the betting system among the
    house rules, and land on the table page."""
    page.goto(f"{base}/tables/new?game=injun")
    for i, player in enumerate(PLAYERS):
        page.fill(f"#player_{i}", player)
    if name:
        page.fill("#name", name)
    page.locator("details.house-rules summary").click()
    radio = page.locator(f'input[name="opt_system"][value="{system}"]')
    if tap:
        radio.tap()
    else:
        radio.check()
    expect(radio).to_be_checked()
    go(page, page.locator('main form[method="post"] button[type="submit"]'), tap=tap)
    return tid_of(page)


def open_hand(page: Page, *, tap: bool = False) -> None:
    """From the table page: the big "record the next hand" link, to the betting step."""
    go(page, page.locator('.next-hand a[href$="/hand"]'), tap=tap)
    expect(page.locator("#step-h")).to_be_visible()


def offered(page: Page) -> list[str]:
    """The action buttons the step offers (what the scorer can tap)."""
    return sorted(page.locator('section.step button[name="action"]').evaluate_all("bs => bs.map(b => b.value)"))


def rows(page: Page) -> list[tuple[str, str, str]]:
    """The players' table: name, chips in, and the row's state class (in, dropped, closed; turn)."""
    return [
        (str(r[0]), str(r[1]), str(r[2]))
        for r in page.locator(".injun-bettors tbody tr").evaluate_all(
            """rows => rows.map(r => [r.querySelector('th').lastChild.textContent.trim(),
                                      r.querySelector('td.num').textContent.trim(),
                                      [...r.classList].filter(c => c.startsWith('is-')).join(' ')])"""
        )
    ]


def pots(page: Page) -> list[str]:
    """The chips of each pot on the table, in order."""
    return [str(t).strip() for t in page.locator(".injun-pots .num").all_inner_texts()]


def tap_undo(page: Page) -> None:
    go(page, page.locator('.undo-action a[href*="action=undo"]'), tap=True)


def record_of(live_app: Any, tid: str, number: int) -> dict[str, Any]:
    from referee import ledger

    with live_app.app_context():
        hand = ledger.get_hand(ledger.get_table(tid), number)
        assert hand is not None
        return {"record": dict(hand.record), "deltas": dict(hand.result["deltas"]), "void": hand.is_void}
