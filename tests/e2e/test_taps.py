"""Each tap of a hand answers with only what changes: the page's <main> is swapped (no page load),
the address follows every step (back and reload work), and the confirm lands on the table page in
one request. And the history of a long table comes a page at a time."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.jubileu_steps import (
    PLAYERS,
    balances,
    confirm,
    create_table,
    enter_tricks,
    expected,
    press,
    start_hand,
    tid_of,
)
from tests.e2e.steps import action
from tests.web.api_support import all_pass_record

pytestmark = pytest.mark.e2e


def test_a_hand_swaps_main_and_never_reloads_the_page(page, live_server, console_errors) -> None:  # type: ignore[no-untyped-def]
    tid = create_table(page, live_server)
    requests: list[tuple[str, str]] = []
    page.on("request", lambda r: requests.append((r.method, r.resource_type)))
    # From the table page on: its next hand's links swap <main> like every step after them.
    page.evaluate("window.sameDocument = true")
    start_hand(page, "copas")
    for value in ("aces:none", "call:0:solo_sete", "call:1:passo", "call:2:passo", "call:3:passo", "trump:espadas"):
        press(page, value)
    page.wait_for_url(re.compile(r"/hand\?d=.*action=trump"))  # the address follows the steps
    enter_tricks(page, [9, 2, 1, 1])
    expect(page.locator(".preview-deltas")).to_be_visible()
    confirm(page)
    assert page.evaluate("window.sameDocument") is True  # never a full page load
    assert page.url == f"{live_server}/t/{tid}"
    assert balances(page) == expected(Ana=12, Bia=-4, Caio=-4, Dani=-4)
    assert ("GET", "document") not in requests and ("POST", "document") not in requests
    assert [m for m, _kind in requests if m == "POST"] == ["POST"]  # the confirm: one request
    assert console_errors == []
    # Back steps back to the preview, as with plain pages.
    page.go_back()
    page.wait_for_url("**/hand?*")
    expect(page.locator(".preview-deltas")).to_be_visible()


def test_a_tap_whose_answer_is_lost_is_done_again_as_a_page(page, live_server, console_errors) -> None:  # type: ignore[no-untyped-def]
    """When the script's request fails (a dropped connection), the tap is not lost: it is done
    again as a plain page load, which the browser and the service worker handle."""
    create_table(page, live_server)
    start_hand(page, "copas")
    lost: list[str] = []

    def drop_the_script_s(route: Any) -> None:
        if route.request.resource_type == "fetch":
            lost.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.route("**/hand?*", drop_the_script_s)
    page.evaluate("window.sameDocument = true")
    press(page, "aces:none")
    expect(action(page, "call:0:solo_sete")).to_be_visible()  # the next step, all the same
    assert page.evaluate("window.sameDocument === undefined")  # it came as a page
    assert len(lost) == 1 and "action=aces" in lost[0]
    assert [e for e in console_errors if "ERR_FAILED" not in e] == []  # the dropped fetch only


def _until(page: Any, check: Any) -> None:
    """Let the page run until ``check`` holds (events reach Python only while Playwright waits)."""
    for _ in range(100):
        if check():
            return
        page.wait_for_timeout(50)
    raise AssertionError("still not true after 5 s")


def test_a_step_is_asked_for_as_the_finger_goes_down_and_only_once(page, live_server, console_errors) -> None:  # type: ignore[no-untyped-def]
    """A step that only reads is asked for when the finger touches its button; the click takes
    that answer (one request per tap), and a finger that scrolls instead leaves the page as it is."""
    create_table(page, live_server)
    start_hand(page, "copas")
    asked: list[str] = []
    dropped: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.resource_type == "fetch" else None)
    page.on("requestfailed", lambda r: dropped.append(r.url))
    box = action(page, "aces:none").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    _until(page, lambda: len(asked) == 1)  # on its way before the finger lifts
    assert "action=aces" in asked[0]
    page.mouse.up()
    expect(action(page, "call:0:solo_sete")).to_be_visible()
    assert len(asked) == 1 and dropped == []
    # A finger that goes down on a button and then scrolls the page: the browser cancels the
    # pointer; the answer asked for is dropped and nothing changes on the screen.
    where = page.url
    action(page, "call:0:solo_sete").dispatch_event("pointerdown", {"isPrimary": True, "button": 0})
    _until(page, lambda: len(asked) == 2)
    action(page, "call:0:solo_sete").dispatch_event("pointercancel", {"isPrimary": True})
    _until(page, lambda: len(dropped) == 1)
    assert "action=call" in dropped[0]
    page.wait_for_timeout(300)
    assert page.url == where
    expect(action(page, "call:0:solo_sete")).to_be_visible()
    # Its tap afterwards asks again, and is answered.
    press(page, "call:0:solo_sete")
    expect(action(page, "call:0:solo_sete")).to_have_count(0)
    assert len(asked) == 3
    assert console_errors == []


def test_the_history_of_a_long_table_pages(page: Any, live_app: Any, live_server: str, shot: Any) -> None:
    client = live_app.test_client()
    table = client.post("/api/v1/tables", json={"game": "jubileu", "players": list(PLAYERS)}).get_json()
    tid = table["id"]
    token = {"Authorization": f"Bearer {table['token']}"}
    for n in range(53):
        answer = client.post(f"/api/v1/tables/{tid}/hands", json=all_pass_record(PLAYERS[(n + 3) % 4]), headers=token)
        assert answer.status_code == 201, answer.get_data(as_text=True)
    page.goto(f"{live_server}/t/{tid}/history")
    expect(page.locator("li.hand")).to_have_count(50)
    expect(page.locator("li.hand").first).to_have_id("hand-53")
    shot(page, "history-page-1")
    page.locator(".history-pager a").first.click()
    page.wait_for_url("**/history?page=2")
    expect(page.locator("li.hand")).to_have_count(3)
    shot(page, "history-page-2")
    assert tid_of(page) == tid


def test_the_tap_bench_counts_as_the_browser_tests_do(browser: Any, live_server: str) -> None:
    """tests/bench's phone (``make bench``) counts a hand as a player would: the Solo Sete of
    test_jubileu in 6 taps and no key, each one a swap with its answer timed (the table page's
    link to the hand too); a Samba hand's two scores typed key by key (310, 260); a Quatrilho solo
    preto in 7 taps and a carreguete in 5, no key."""
    from tests.bench.browser_phone import DESKTOP, Phone
    from tests.bench.game_paths import (
        At,
        jubileu_solo_sete,
        quatrilho_carreguete,
        quatrilho_solo,
        samba,
        samba_three_pairs,
    )

    phone = Phone(browser, DESKTOP)
    try:
        for path in (jubileu_solo_sete, samba, quatrilho_solo, quatrilho_carreguete, samba_three_pairs):
            path(At(phone.page, live_server, lambda: phone.hand(path.__name__)))  # noqa: B023 - called at once
    finally:
        phone.close()
    solo, samba_hand, quatrilho, carreguete, pairs = phone.played
    # Samba with three pairs: open; 11 stepper taps; the first points field; "Next" twice (each
    # brings the next team's field ready); who went out; check; confirm. Typed: the card points
    # only (15 digits), and the keyboard's "next" after each of the six numbers.
    assert (pairs.taps, pairs.keys) == (18, 15 + 6)
    # A Quatrilho solo preto with a card exchanged: open, solo preto, Caio, exchange, Dani, 24 on
    # the pad, confirm; a carreguete: open, carreguete, Caio, 13, confirm. Nothing typed.
    assert (quatrilho.taps, quatrilho.keys) == (7, 0)
    assert (carreguete.taps, carreguete.keys) == (5, 0)
    assert (solo.taps, solo.keys, solo.loads, solo.swaps) == (6, 0, 0, 6)
    assert [s.label for s in solo.steps] == [
        "/hand copas",
        "aces:none",
        "call:0:solo_sete",
        "rest:espadas",
        "side:9",
        "submit",
    ]
    assert all(s.wait is not None and s.kb for s in solo.steps)
    # The form: open, + + (clean canastras), the meld field, the other team's tab, + (dirty),
    # the other meld field, who went out, check, confirm.
    assert (samba_hand.taps, samba_hand.keys) == (10, 6)
    assert [s.label for s in samba_hand.steps] == ["/hand", "check", "submit"]


def test_a_lost_card_of_the_race_is_done_again_as_the_whole_page(page, live_server) -> None:  # type: ignore[no-untyped-def]
    """The Derby's race asks for the race alone; when that request is lost, the card is entered
    again by loading the race page's own address (with its header and styles), never the
    fragment's."""
    from tests.bench.game_paths import FOUR, _derby_bets
    from tests.e2e.steps import create_table as create_any_table

    create_any_table(page, live_server, "kentucky_derby", FOUR)
    _derby_bets(page)
    page.route(
        "**/hand?*partial=race*",
        lambda route: route.abort() if route.request.resource_type == "fetch" else route.continue_(),
    )
    with page.expect_navigation():
        page.locator('#race button[name="action"][value="card:Kc"]').tap()
    page.wait_for_load_state()
    expect(page.locator(".site-header")).to_be_visible()
    expect(page.locator(".derby-cards ol li")).to_have_count(1)
    assert "partial=" not in page.url and "#race" in page.url


def test_the_card_counter_costs_no_more_than_typing(browser: Any, live_server: str) -> None:
    """Samba's card counter, where it is used (a hand's few cards): 45 in hand, four of K-8 and
    one of 7-4, is the counter opened and one tap per kind, no more than tapping the field and
    typing 4, 5."""
    from tests.bench.browser_phone import DESKTOP, Phone
    from tests.e2e import samba_steps

    phone = Phone(browser, DESKTOP)
    page = phone.page
    try:
        samba_steps.create_table(page, live_server)
        samba_steps.open_hand(page)
        with phone.hand("counter"):
            page.locator('details.counter:has([data-counter="f-t0-hand_points"]) summary').tap()
            page.locator('[aria-controls="f-t0_hc_high"][data-set="4"]').tap()
            page.locator('[aria-controls="f-t0_hc_low"][data-set="1"]').tap()
            expect(page.locator("#f-t0-hand_points")).to_have_value("45")
        with phone.hand("typed"):
            field = page.locator("#f-t0-meld_points")
            field.tap()
            field.press_sequentially("45")
            expect(field).to_have_value("45")
    finally:
        phone.close()
    counter, typed = phone.played
    assert (counter.taps, counter.keys) == (3, 0)
    assert (typed.taps, typed.keys) == (1, 2)
    assert counter.taps + counter.keys <= typed.taps + typed.keys
