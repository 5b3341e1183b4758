"""Driving the sharing pages in a browser, with more than one phone: shared by test_sharing.py and
test_a11y.py.

A "phone" is its own browser context (own cookies, own localStorage) at 390×844. Elements are
selected by stable attributes (data-*, form actions, ids), never by visible text.
"""

from __future__ import annotations

import json
import subprocess
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.steps import go

ZBARIMG = "/usr/bin/zbarimg"


class Phones:
    """Opens phones (browser contexts) and closes them all at the end; keeps their console
    errors, so a test can check that nothing broke (a CSP refusal shows up there)."""

    def __init__(self, browser: Any, context_args: dict[str, Any]) -> None:
        self.browser, self.context_args = browser, context_args
        self.contexts: list[Any] = []
        self.errors: dict[str, list[str]] = {}
        self.in_flight: dict[Any, set[Any]] = {}  # per context: its requests not yet answered

    def open(self, name: str) -> Page:
        context = self.browser.new_context(**self.context_args)
        self.contexts.append(context)
        page = context.new_page()
        errors = self.errors.setdefault(name, [])
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        pending = self.in_flight.setdefault(context, set())
        context.on("request", lambda request: pending.add(request))
        context.on("requestfinished", lambda request: pending.discard(request))
        context.on("requestfailed", lambda request: pending.discard(request))
        return page

    def settled(self, page: Page, timeout: float = 10.0) -> None:
        """Wait until no request of ``page``'s phone is in flight: whatever it sent the server has
        been answered (or failed), so what the server stored is what it will have stored. Polled
        through Playwright (its events arrive only while it is called), with a deadline that only
        bounds a hang. The table page polls every 1.5 s, so quiet moments come between polls."""
        pending = self.in_flight[page.context]
        deadline = time.monotonic() + timeout
        while pending:
            if time.monotonic() > deadline:
                raise AssertionError(f"requests still in flight after {timeout:.0f} s: {[r.url for r in pending]}")
            page.wait_for_timeout(20)

    def script_errors(self) -> list[str]:
        """Errors that are not a refused or failed request (those are expected: 401, 403,
        409, offline)."""
        expected = ("Failed to load resource", "net::ERR_INTERNET_DISCONNECTED", "Failed to fetch")
        return [f"{name}: {e}" for name, errs in self.errors.items() for e in errs if not any(x in e for x in expected)]

    def close(self) -> None:
        for context in self.contexts:
            context.close()


# --------------------------------------------------------------------------- QR codes


def decode_qr(locator: Any, path: Path) -> str:
    """Screenshot an element holding a QR code and read it with zbarimg."""
    locator.scroll_into_view_if_needed()
    locator.screenshot(path=str(path))
    answer = subprocess.run([ZBARIMG, "--raw", "-q", str(path)], capture_output=True, text=True, timeout=30)
    assert answer.returncode == 0, f"zbarimg could not read {path}: {answer.stderr or answer.returncode}"
    return answer.stdout.strip()


# --------------------------------------------------------------------------- the share page


def open_share(page: Page, base: str, tid: str) -> None:
    page.goto(f"{base}/t/{tid}")
    go(page, page.locator(f'main a[href="/t/{tid}/share"]'))
    expect(page.locator("[data-watch-link]")).to_be_visible()


def create_link(page: Page, label: str = "") -> str:
    """On the owner's share page: a new scoring link; answers its URL (shown once)."""
    page.fill("#label", label)
    go(page, page.locator('button[formaction$="/share/link"]'))
    link = page.locator("[data-scoring-link]")
    expect(link).to_be_visible()
    return str(link.inner_text()).strip()


def create_code(page: Page, label: str = "") -> str:
    """On the owner's share page: a new join code; answers it as shown (ABCD-EFGH)."""
    page.fill("#label", label)
    go(page, page.locator('button[formaction$="/share/code"]'))
    code = page.locator("[data-join-code]")
    expect(code).to_be_visible()
    return str(code.inner_text()).strip()


def revoke(page: Page, label: str) -> None:
    """On the owner's share page: revoke the access whose label is ``label``."""
    row = page.locator(".access-list li", has_text=label)
    expect(row).to_have_count(1)
    go(page, row.locator('form[action$="/revoke"] button'))


def type_code(page: Page, base: str, typed: str) -> None:
    page.goto(f"{base}/join")
    page.fill("#code", typed)
    with page.expect_navigation():
        page.locator('main form[method="post"] button[type="submit"]').click()
    page.wait_for_load_state()


# --------------------------------------------------------------------------- hands


def record_button(page: Page, tid: str) -> Any:
    return page.locator(f'main a[href="/t/{tid}/hand"]')


def start_all_pass(page: Page, ultima: str = "ouros") -> None:
    """From the table page: the suit link of the última, to the aces step and its "everybody
    passed" form (one of the flow's data-outbox forms)."""
    go(page, page.locator(f'.suit-links a[href*="ultima={ultima}"]'))
    expect(all_pass_button(page)).to_be_visible()


def all_pass_button(page: Page) -> Any:
    return page.locator('form[action$="/hand/all-pass"][data-outbox] button')


def tap_all_pass(page: Page) -> None:
    go(page, all_pass_button(page), tap=True)


# --------------------------------------------------------------------------- the server's view


def api_table(base: str, tid: str) -> dict[str, Any]:
    """GET /api/v1/tables/<id>, from the test process (not through any phone's network)."""
    with urllib.request.urlopen(f"{base}/api/v1/tables/{tid}", timeout=10) as response:
        return dict(json.loads(response.read()))


def hands_of(base: str, tid: str) -> list[dict[str, Any]]:
    return list(api_table(base, tid)["hands"])


def wait_until(check: Callable[[], bool], timeout: float = 10.0, every: float = 0.05) -> float:
    """Poll ``check`` until it holds; answers how long that took (seconds). Fails on timeout."""
    started = time.perf_counter()
    while True:
        if check():
            return time.perf_counter() - started
        if time.perf_counter() - started > timeout:
            raise AssertionError(f"still not true after {timeout:.1f} s")
        time.sleep(every)


def mark(page: Page) -> None:
    """Mark the page's window, so :func:`seen_after` can tell a redraw from a reload."""
    page.evaluate("window.__notReloaded = true")


def seen_after(page: Page, selector: str, since: float, *, gone: bool = False, timeout: float = 10.0) -> float:
    """Wait until ``selector`` appears (or disappears) on ``page``, marked (:func:`mark`) before
    the change and never reloaded since; answers the seconds since ``since`` (perf_counter)."""
    page.wait_for_selector(selector, state="detached" if gone else "attached", timeout=timeout * 1000)
    elapsed = time.perf_counter() - since
    assert page.evaluate("window.__notReloaded === true"), "the page was reloaded instead of redrawn"
    return elapsed


def luminance(css_color: str) -> float:
    """Relative luminance (0 black .. 1 white) of an rgb()/rgba() computed colour."""
    parts = css_color[css_color.index("(") + 1 : css_color.index(")")].split(",")
    r, g, b = (float(p) / 255 for p in parts[:3])

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
