"""Driving any game's pages in a browser: what every game's steps module shares.

Everything is selected by stable attributes (``name="action" value="..."``, ids, hrefs,
classes), never by visible text: the Portuguese catalogue is still being filled.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

MINUS = "\u2212"
SCREEN_WIDTH = 390


def signed(n: int) -> str:
    """The scoreboard's signed display: "+12", "−4" (U+2212), "0"."""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"{MINUS}{-n}"
    return "0"


def expected_for(players: tuple[str, ...], **deltas: int) -> dict[str, str]:
    """Name → signed text for every seated player (0 for those not named); deltas sum to 0."""
    assert sum(deltas.values()) == 0, deltas
    assert set(deltas) <= set(players), deltas
    return {name: signed(deltas.get(name, 0)) for name in players}


def tid_of(page: Page) -> str:
    match = re.search(r"/t/([^/?#]+)", page.url)
    assert match, page.url
    return match.group(1)


def go(page: Page, locator: Any, *, tap: bool = False) -> None:
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
    go(page, action(page, value), tap=tap)


def offered(page: Page, prefix: str) -> list[str]:
    """The action values the current step offers that start with ``prefix`` (e.g. "partner:")."""
    return list(
        page.locator(f'section.step button[name="action"][value^="{prefix}"]').evaluate_all(
            "bs => bs.map(b => b.value)"
        )
    )


def create_table(
    page: Page,
    base: str,
    game: str,
    players: tuple[str, ...],
    *,
    tap: bool = False,
    name: str | None = None,
    dealer: int | None = None,
) -> str:
    """Fill the new-table form (names, default dealer unless given) and land on the table page."""
    page.goto(f"{base}/tables/new?game={game}")
    for i, player in enumerate(players):
        page.fill(f"#player_{i}", player)
    if name:
        page.fill("#name", name)
    if dealer is not None:
        page.check(f'input[name="dealer"][value="{dealer}"]')
    go(page, page.locator('main form[method="post"] button[type="submit"]'), tap=tap)
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


def draft_json(page: Page) -> dict[str, Any]:
    return dict(json.loads(draft_of(page)))


def hand_url(base: str, tid: str, draft: str, act: str) -> str:
    return f"{base}/t/{tid}/hand?d={quote(draft)}&action={quote(act)}"


def confirm(page: Page, *, tap: bool = False, correction: bool = False) -> None:
    """Preview step: the POST form's submit button stores the hand; back on the table page,
    where this phone may undo the hand it just saved (never a correction)."""
    go(page, page.locator('form[action$="/hand"] button[type="submit"]'), tap=tap)
    left_the_flow(page)
    expect(page.locator(".undo-bar")).to_have_count(0 if correction else 1)


def left_the_flow(page: Page) -> None:
    """After a save: the address is the table's, no longer the flow's. Waited for, because the
    save may touch the history more than once (mark the entry, then push the table's address)
    and the first of them already ends :func:`go`'s wait."""
    page.wait_for_url(lambda url: "/hand" not in url)


def engine_says(live_app: Any, tid: str, record: Mapping[str, Any], dealer: str) -> str:
    """The sentence the engine gives for a record, in the app's default language."""
    from referee import ledger
    from referee.i18n import render_text
    from referee.rules.errors import RulesError

    with live_app.test_request_context("/"):
        table = ledger.get_table(tid)
        try:
            ledger.preview_hand(table, dict(record), dealer=dealer)
        except RulesError as exc:
            return render_text(exc.text)
    raise AssertionError(f"the engine accepts {record}")


def stored_hands(live_app: Any, tid: str) -> int:
    from referee import ledger

    with live_app.app_context():
        return len(ledger.all_hands(ledger.get_table(tid)))


class Audit:
    """Screenshot + axe + no sideways scrolling for each page; failures are collected, not
    fatal, and reported together by :meth:`done`."""

    def __init__(
        self, page: Any, axe_check: Callable[..., None], shot: Callable[..., Any], prefix: str = "a11y"
    ) -> None:
        self.page, self.axe_check, self.shot, self.prefix = page, axe_check, shot, prefix
        self.problems: list[str] = []
        self.seen: list[str] = []

    def __call__(self, name: str, page: Any = None) -> None:
        page = page or self.page
        page.wait_for_load_state()
        self.seen.append(name)
        self.shot(page, f"{self.prefix}-{len(self.seen):02d}-{name}")
        try:
            self.axe_check(page)
        except pytest.fail.Exception as exc:
            self.problems.append(f"[{name}] {exc}")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > SCREEN_WIDTH:
            self.problems.append(
                f"[{name}] {page.url}: the page is {width}px wide, wider than the {SCREEN_WIDTH}px screen"
            )

    def done(self) -> None:
        assert not self.problems, "\n\n".join(self.problems)
