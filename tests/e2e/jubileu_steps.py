"""Driving the Jubileu pages in a browser: shared by test_jubileu.py and test_a11y.py.

Everything is selected by stable attributes (``name="action" value="..."``, ids, hrefs,
classes), never by visible text: the Portuguese catalogue is still being filled.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e import steps
from tests.e2e.steps import (  # noqa: F401 - re-exported: the Jubileu tests import them from here
    MINUS,
    action,
    balances,
    confirm,
    dealer_shown,
    draft_of,
    hand_url,
    press,
    preview_deltas,
    signed,
    tid_of,
)
from tests.e2e.steps import go as _go

PLAYERS = ("Ana", "Bia", "Caio", "Dani")  # in order of play; by default Dani (player 4) deals first
DETAIL_KINDS = ("trump", "called", "partner")


def expected(**deltas: int) -> dict[str, str]:
    return steps.expected_for(PLAYERS, **deltas)


def create_table(page: Page, base: str, *, tap: bool = False, name: str | None = None) -> str:
    """Fill the new-table form (four names, default dealer) and land on the table page."""
    return steps.create_table(page, base, "jubileu", PLAYERS, tap=tap, name=name)


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


class Taps:
    """A hand recorded by touch alone, tap by tap: ``count`` is how many taps it took. Typing
    would show in :meth:`keys` (a key pressed on any page since :meth:`watch_keys`)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def on(self, locator: Any) -> None:
        _go(self.page, locator, tap=True)
        self.count += 1

    def press(self, value: str) -> None:
        self.on(action(self.page, value))

    def watch_keys(self) -> None:
        self.page.add_init_script(
            "addEventListener('keydown', () => sessionStorage.keys = (+sessionStorage.keys || 0) + 1, true)"
        )

    def keys(self) -> int:
        return int(self.page.evaluate("+sessionStorage.keys || 0"))


def tap_hand(taps: Taps, *, ultima: str, presses: Iterable[str]) -> None:
    """From the table page: the última's suit, the flow's buttons in order, and the confirm."""
    taps.on(taps.page.locator(f'.suit-links a[href*="ultima={ultima}"]'))
    for value in presses:
        taps.press(value)
    expect(taps.page.locator(".preview-deltas")).to_be_visible()


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


def ladder_boxes(page: Page) -> dict[str, tuple[float, float, float, float]]:
    """Where each call of the auction's ladder is drawn on the page (x, y, width, height, page
    coordinates), by the call's name, whoever speaks."""
    boxes = page.locator('.ladder button[name="action"]').evaluate_all(
        """bs => bs.map(b => { const r = b.getBoundingClientRect();
               return [b.value.split(':').pop(), r.x + scrollX, r.y + scrollY, r.width, r.height]; })"""
    )
    return {name: (x, y, w, h) for name, x, y, w, h in boxes}


def same_places(
    now: dict[str, tuple[float, float, float, float]], before: dict[str, tuple[float, float, float, float]]
) -> bool:
    """Every call drawn where it was, to the pixel: on a busy machine the first step's lines
    are now and then laid out one pixel lower (a font arriving late), which no player sees."""
    return now.keys() == before.keys() and all(
        all(abs(a - b) <= 1.0 for a, b in zip(now[name], before[name], strict=True)) for name in now
    )
