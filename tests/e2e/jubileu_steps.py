"""Driving the Jubileu pages in a browser: shared by test_jubileu.py and test_a11y.py.

Everything is selected by stable attributes (``name="action" value="..."``, ids, hrefs,
classes), never by visible text: the Portuguese catalogue is still being filled.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

from playwright.sync_api import Page, expect

PLAYERS = ("Ana", "Bia", "Caio", "Dani")  # in order of play; by default Dani (player 4) deals first
MINUS = "\u2212"
DETAIL_KINDS = ("trump", "called", "partner")


def signed(n: int) -> str:
    """The scoreboard's signed display: "+12", "−4" (U+2212), "0"."""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"{MINUS}{-n}"
    return "0"


def expected(**deltas: int) -> dict[str, str]:
    assert sum(deltas.values()) == 0, deltas
    return {name: signed(deltas.get(name, 0)) for name in PLAYERS}


def tid_of(page: Page) -> str:
    match = re.search(r"/t/([^/?#]+)", page.url)
    assert match, page.url
    return match.group(1)


def _go(page: Page, locator: Any, *, tap: bool = False) -> None:
    """Press a control that loads a new page, and wait for that page."""
    expect(locator).to_have_count(1)
    with page.expect_navigation():
        if tap:
            locator.tap()
        else:
            locator.click()
    page.wait_for_load_state()


def action(page: Page, value: str) -> Any:
    return page.locator(f'button[name="action"][value="{value}"]')


def press(page: Page, value: str, *, tap: bool = False) -> None:
    """Press the flow's button carrying name=action value=<value>."""
    _go(page, action(page, value), tap=tap)


def create_table(page: Page, base: str, *, tap: bool = False, name: str | None = None) -> str:
    """Fill the new-table form (four names, default dealer) and land on the table page."""
    page.goto(f"{base}/tables/new?game=jubileu")
    for i, player in enumerate(PLAYERS):
        page.fill(f"#player_{i}", player)
    if name:
        page.fill("#name", name)
    _go(page, page.locator('main form[method="post"] button[type="submit"]'), tap=tap)
    assert re.search(r"/t/[^/]+$", page.url), page.url
    return tid_of(page)


def balances(page: Page) -> dict[str, str]:
    """Name → balance text, from the scoreboard's .balance-row items."""
    rows = page.locator(".scoreboard .balance-row").evaluate_all(
        """rows => rows.map(r => [r.querySelector('.who').firstChild.textContent.trim(),
                                  r.querySelector('.balance').textContent.trim()])"""
    )
    return dict(rows)


def dealer_shown(page: Page) -> str:
    """The name on the scoreboard row marked as dealing."""
    rows = page.locator(".scoreboard .balance-row.is-dealer")
    expect(rows).to_have_count(1)
    return str(rows.locator(".who").evaluate("e => e.firstChild.textContent.trim()"))


def preview_deltas(page: Page) -> dict[str, str]:
    rows = page.locator(".preview-deltas li").evaluate_all(
        "rows => rows.map(r => [r.querySelector('.who').textContent.trim(), r.querySelector('.balance').textContent.trim()])"
    )
    return dict(rows)


def draft_of(page: Page) -> str:
    """The draft the page carries (the hidden d input of its forms)."""
    return str(page.locator('input[name="d"]').first.input_value())


def hand_url(base: str, tid: str, draft: str, act: str) -> str:
    return f"{base}/t/{tid}/hand?d={quote(draft)}&action={quote(act)}"


def step_kind(page: Page) -> str | None:
    """Which detail step (trump/called/partner) the page shows, by the buttons it offers."""
    for kind in DETAIL_KINDS:
        if page.locator(f'section.step button[name="action"][value^="{kind}:"]').count():
            return kind
    return None


def start_hand(page: Page, ultima: str, *, tap: bool = False) -> None:
    """From the table page: the suit link of the última opens the flow at the aces step."""
    _go(page, page.locator(f'.suit-links a[href*="ultima={ultima}"]'), tap=tap)


def enter_tricks(page: Page, tricks: Sequence[int], *, tap: bool = False) -> None:
    """Type the first three counts; the fourth fills itself (13 − sum) through the page's JS."""
    for i, count in enumerate(tricks[:3]):
        page.fill(f"#f-t{i}", str(count))
    expect(page.locator("#f-t3")).to_have_value(str(13 - sum(tricks[:3])))
    if len(tricks) == 4:
        assert tricks[3] == 13 - sum(tricks[:3]), "tricks must total 13"
    press(page, "tricks", tap=tap)


def confirm(page: Page, *, tap: bool = False, correction: bool = False) -> None:
    """Preview step: the POST form's submit button stores the hand; back on the table page,
    where this phone may undo the hand it just saved (never a correction)."""
    _go(page, page.locator('form[action$="/hand"] button[type="submit"]'), tap=tap)
    assert "/hand" not in page.url, page.url
    expect(page.locator(".undo-bar")).to_have_count(0 if correction else 1)


def record_hand(
    page: Page,
    *,
    ultima: str,
    calls: Iterable[str],
    details: Mapping[str, str] | None = None,
    tricks: Sequence[int],
    aces: str = "aces:none",
    expect_preview: Mapping[str, str] | None = None,
    tap: bool = False,
    on_detail: Any = None,
) -> None:
    """Record a hand from the table page through the guided flow.

    ``calls`` are the action values of the auction (``call:<seat>:<slug>``); ``details`` maps
    trump/called/partner to the value after the colon, answered in whatever order the flow asks.
    ``on_detail(kind)`` is called on each detail step before answering (for extra checks).
    """
    start_hand(page, ultima, tap=tap)
    press(page, aces, tap=tap)
    for call in calls:
        press(page, call, tap=tap)
    remaining = dict(details or {})
    while (kind := step_kind(page)) is not None:
        assert kind in remaining, f"the flow asks for {kind}, the test has no answer"
        if on_detail:
            on_detail(kind)
        press(page, f"{kind}:{remaining.pop(kind)}", tap=tap)
    assert remaining == {}, f"the flow never asked for {sorted(remaining)}"
    enter_tricks(page, tricks, tap=tap)
    expect(page.locator(".preview-deltas")).to_be_visible()
    if expect_preview is not None:
        assert preview_deltas(page) == dict(expect_preview)
    confirm(page, tap=tap)
