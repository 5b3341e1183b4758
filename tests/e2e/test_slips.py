"""Slips are cheap to mend, tapped like a player at 390x844: "Desfazer" asks first and never sits
where the next hand's first tap lands, "Refazer" brings the hand back, a save sent again says it
was already saved, two phones' same hand offers "keep theirs" first, closing asks and reopens."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from referee import ledger
from tests.e2e.jubileu_steps import Taps, balances, create_table
from tests.e2e.sharing_steps import all_pass_button, start_all_pass
from tests.e2e.steps import Audit, draft_of, go
from tests.web.api_support import all_pass_record

pytestmark = pytest.mark.e2e


@pytest.fixture
def audit(page, axe_check, shot) -> Audit:  # type: ignore[no-untyped-def]
    return Audit(page, axe_check, shot, prefix="slips")


def _hands(live_app: Any, tid: str) -> list[tuple[int, bool]]:
    with live_app.app_context():
        return [(h.number, h.is_void) for h in ledger.all_hands(ledger.get_table(tid))]


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def _tap_at(page: Page, x: float, y: float) -> None:
    """A thumb landing on a spot of the screen, whatever is under it now."""
    page.evaluate("window.scrollTo(0, 0)")
    page.touchscreen.tap(x, y)
    page.wait_for_load_state()


def test_undo_asks_never_sits_under_the_next_first_tap_and_redo_brings_the_hand_back(
    page: Page, live_server: str, live_app: Any, audit: Audit
) -> None:
    tid = create_table(page, live_server)
    start_all_pass(page, "ouros")
    go(page, all_pass_button(page), tap=True)
    saved = balances(page)
    undo = page.locator(".undo-bar a.btn")
    expect(undo).to_have_text("Desfazer")
    audit("table-with-undo")

    # In sight without scrolling, and the scoreboard between it and the next hand: none of the
    # next hand's buttons shares a pixel with "Desfazer".
    undo_box = _box(page, ".undo-bar a.btn")
    assert undo_box["y"] + undo_box["height"] <= 844
    next_hand = page.locator(".next-hand a, .next-hand button, .next-hand summary")
    assert next_hand.count() > 0
    for i in range(next_hand.count()):
        box = next_hand.nth(i).bounding_box()
        assert box is not None and not _overlap(box, undo_box), (i, box, undo_box)
    assert undo_box["y"] + undo_box["height"] < _box(page, ".scoreboard")["y"] < _box(page, ".next-hand")["y"]
    spot = (undo_box["x"] + undo_box["width"] / 2, undo_box["y"] + undo_box["height"] / 2)

    # "Desfazer" asks; a second tap at the same spot (a double tap) does not void.
    taps = Taps(page)
    taps.on(undo)
    expect(page.locator("h1")).to_have_text("Desfazer a mão 1?")
    audit("undo-ask")
    _tap_at(page, *spot)
    assert _hands(live_app, tid) == [(1, False)]
    if "/undo" not in page.url:  # the spot was "Não, manter": back on the table
        taps = Taps(page)
        taps.on(page.locator(".undo-bar a.btn"))
    taps.on(page.get_by_role("button", name="Sim, desfazer"))
    assert taps.count == 2 and page.url == f"{live_server}/t/{tid}"
    assert _hands(live_app, tid) == [(1, True)]
    redo = page.locator(".undo-bar button")
    expect(redo).to_have_text("Refazer a mão 1")
    audit("table-with-redo")

    # A tap on the old spot of "Desfazer" now can only bring the hand back, never void one.
    assert _overlap(_box(page, ".undo-bar button"), {"x": spot[0], "y": spot[1], "width": 1, "height": 1})
    _tap_at(page, *spot)
    page.wait_for_url(f"{live_server}/t/{tid}")
    expect(page.locator(".undo-bar a.btn")).to_have_text("Desfazer")  # hand 2 may be undone in turn
    assert _hands(live_app, tid) == [(1, True), (2, False)]
    assert balances(page) == saved
    # Stored as hand 2, it is still the first hand played: the pages call it hand 1.
    expect(page.locator("#hand-2")).to_contain_text("Mão 1")
    expect(page.locator(".flash-success")).to_contain_text("A mão 1 voltou.")
    audit.done()


def test_a_save_sent_again_says_already_saved_and_shows_the_hand(
    page: Page, live_server: str, live_app: Any, audit: Audit
) -> None:
    tid = create_table(page, live_server)
    start_all_pass(page, "ouros")
    old_page = f"{live_server}/t/{tid}/hand?d={quote(draft_of(page))}"  # the page as the phone keeps it
    go(page, all_pass_button(page), tap=True)
    assert _hands(live_app, tid) == [(1, False)]
    # The player moves on, then the old page comes back (a restored tab) and is tapped again.
    page.goto(f"{live_server}/t/{tid}/history")
    page.goto(old_page)
    all_pass_button(page).tap()
    page.wait_for_url(f"{live_server}/t/{tid}/hands/1/saved")
    expect(page.locator("h1")).to_have_text("Esta mão já foi salva")
    expect(page.locator("#hand-1")).to_be_visible()
    audit("already-saved")
    assert _hands(live_app, tid) == [(1, False)]
    go(page, page.get_by_role("link", name="Ver a mesa"), tap=True)
    assert page.url == f"{live_server}/t/{tid}"
    audit.done()


def test_two_phones_one_hand_keep_theirs_is_the_big_button(
    page: Page, live_server: str, live_app: Any, audit: Audit
) -> None:
    tid = create_table(page, live_server)
    start_all_pass(page, "copas")
    with live_app.app_context():  # the other phone saves hand 1 first
        table = ledger.get_table(tid)
        ledger.record_hand(table, all_pass_record(ledger.current_dealer(table)))
    all_pass_button(page).tap()
    expect(page.locator(".conflict-theirs #hand-1")).to_be_visible()
    keep = page.locator(".conflict-keep a.btn-primary")
    expect(keep).to_have_text("Manter a deles (descartar a minha)")
    replace = page.locator('button[name="replace"][value="1"]')
    expect(replace).to_be_hidden()  # behind a second question
    summary = page.locator(".conflict-replace summary")
    assert _box(page, ".conflict-keep a.btn-primary")["height"] > _box(page, ".conflict-replace summary")["height"]
    audit("two-phones")
    summary.tap()
    expect(replace).to_be_visible()
    audit("two-phones-replace-asks")
    keep.tap()
    page.wait_for_url(f"{live_server}/t/{tid}")
    assert _hands(live_app, tid) == [(1, False)]
    audit.done()


def test_closing_asks_first_and_the_owner_reopens(page: Page, live_server: str, live_app: Any, audit: Audit) -> None:
    tid = create_table(page, live_server)
    page.goto(f"{live_server}/t/{tid}/settle")
    taps = Taps(page)
    taps.on(page.locator('form[action$="/end"] button'))
    expect(page.locator("h1")).to_have_text("Encerrar a mesa?")
    audit("close-ask")
    taps.on(page.get_by_role("button", name="Sim, encerrar a mesa"))
    assert taps.count == 2
    with live_app.app_context():
        assert ledger.get_table(tid).finished_at is not None
    page.goto(f"{live_server}/t/{tid}")
    reopen = page.get_by_role("button", name="Reabrir a mesa")
    audit("closed-table")
    go(page, reopen, tap=True)
    with live_app.app_context():
        assert ledger.get_table(tid).finished_at is None
    expect(page.locator(".next-hand")).to_be_visible()
    audit.done()
