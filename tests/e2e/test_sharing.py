"""One table on every phone, in a real browser: two (or three) phones at 390×844, each its own
browser context, against the live server.

(a) the watch QR code decodes to the watch link; a watcher sees the table read-only and a new
    hand within 2 s, without reloading; (b) a scoring link (its QR too) lets a second phone
    record, and revoking it refuses that phone at once; (c) a join code works once; (d) a hand
    saved while offline waits on the phone and is stored exactly once when the connection
    returns; (e) two phones saving the same hand: the conflict page and "replace"; (f) two-key
    entry across two phones; (g) the TV view. Screenshots: tests/e2e/screenshots/share-*.png.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.jubileu_steps import create_table
from tests.e2e.sharing_steps import (
    Phones,
    all_pass_button,
    api_table,
    create_code,
    create_link,
    decode_qr,
    hands_of,
    luminance,
    mark,
    open_share,
    record_button,
    revoke,
    seen_after,
    start_all_pass,
    tap_all_pass,
    type_code,
    wait_until,
)
from tests.e2e.steps import go

pytestmark = pytest.mark.e2e

# The target (a hand on every watching phone within 2 s) is measured by `make bench`
# (bench_watchers) and printed here; the tests only require that the update arrives without a
# reload within a few polling periods, so a loaded CI machine cannot make them flaky.
LIVE_WAIT = 6.0
QR_DIR = Path(__file__).parent / "screenshots"


@pytest.fixture
def phones(browser, browser_context_args):  # type: ignore[no-untyped-def]
    opened = Phones(browser, browser_context_args)
    yield opened
    opened.close()


def _qr_path(name: str) -> Path:
    QR_DIR.mkdir(exist_ok=True)
    return QR_DIR / f"share-qr-{name}.png"


# --------------------------------------------------------------------------- (a) watching


def test_a_watcher_scans_the_qr_code_and_sees_hands_live(phones: Phones, live_server: str, shot: Any) -> None:
    base = live_server
    owner = phones.open("owner")
    tid = create_table(owner, base, name="Mesa da varanda")
    open_share(owner, base, tid)
    shot(owner, "share-01-owner-share-page")

    watch_url = owner.locator("[data-watch-link]").inner_text().strip()
    assert watch_url == f"{base}/w/{tid}"
    decoded = decode_qr(owner.locator('section[aria-labelledby="watch-h"] .qr-box'), _qr_path("watch"))
    assert decoded == watch_url

    watcher = phones.open("watcher")
    watcher.goto(decoded)
    expect(watcher.locator(".scoreboard")).to_be_visible()
    expect(record_button(watcher, tid)).to_have_count(0)
    expect(watcher.locator(".suit-links")).to_have_count(0)
    expect(watcher.locator('main form[method="post"]')).to_have_count(0)
    assert watcher.goto(f"{base}/t/{tid}/hand").status == 401  # and nothing behind it writes
    watcher.goto(decoded)
    shot(watcher, "share-02-watcher-empty")

    # The owner records hand 1; the watcher's page shows it without reloading.
    mark(watcher)
    owner.goto(f"{base}/t/{tid}")
    start_all_pass(owner)
    started = time.perf_counter()
    tap_all_pass(owner)
    latency = seen_after(watcher, "#hand-1", started)
    print(f"\n(a) the watcher saw hand 1 {latency:.2f} s after the owner tapped save")
    assert latency < LIVE_WAIT
    expect(watcher.locator(".table-title")).to_contain_text("1")
    expect(record_button(watcher, tid)).to_have_count(0)  # still read-only after the redraw

    # And a second one, with the watcher on the history page this time.
    watcher.goto(f"{base}/t/{tid}/history")
    mark(watcher)
    start_all_pass(owner, "copas")
    started = time.perf_counter()
    tap_all_pass(owner)
    latency = seen_after(watcher, "#hand-2", started)
    print(f"(a) the watcher's history showed hand 2 {latency:.2f} s after the tap")
    assert latency < LIVE_WAIT
    shot(watcher, "share-03-watcher-history-live")
    assert not phones.script_errors(), phones.script_errors()


# --------------------------------------------------------------------------- (b) scoring link


def test_a_scoring_link_lets_another_phone_score_until_it_is_revoked(
    phones: Phones, live_server: str, shot: Any
) -> None:
    base = live_server
    owner = phones.open("owner")
    tid = create_table(owner, base)
    open_share(owner, base, tid)
    link = create_link(owner, "Bia")
    assert link.startswith(f"{base}/j/")
    shot(owner, "share-04-owner-new-link")
    decoded = decode_qr(owner.locator(".share-new .qr-box"), _qr_path("scoring-link"))
    assert decoded == link

    bia = phones.open("bia")
    bia.goto(decoded)
    assert bia.url == f"{base}/t/{tid}"
    expect(bia.locator(".flash-success")).to_be_visible()
    expect(record_button(bia, tid)).to_have_count(1)
    shot(bia, "share-05-scorer-joined")
    start_all_pass(bia)
    tap_all_pass(bia)
    assert [h["number"] for h in hands_of(base, tid)] == [1]

    # The link is listed on the owner's page; revoking it refuses Bia's phone at once.
    open_share(owner, base, tid)
    expect(owner.locator(".access-list li", has_text="Bia")).to_have_count(1)
    expect(owner.locator("[data-scoring-link]")).to_have_count(0)  # shown once only
    shot(owner, "share-06-owner-access-list")
    revoke(owner, "Bia")
    expect(owner.locator(".access-list li", has_text="Bia")).to_have_count(0)

    response = bia.goto(f"{base}/t/{tid}/hand")
    assert response is not None and response.status == 403  # the page that says access was cancelled
    expect(bia.locator("main h1")).to_have_text("Acesso cancelado")
    shot(bia, "share-07-scorer-revoked-403")
    response = bia.goto(link)
    assert response is not None and response.status == 403
    expect(bia.locator(".error-box")).to_be_visible()
    shot(bia, "share-08-link-refused")
    bia.goto(f"{base}/t/{tid}")
    expect(record_button(bia, tid)).to_have_count(0)
    assert len(hands_of(base, tid)) == 1


def test_a_scorer_mid_entry_is_refused_when_revoked(phones: Phones, live_server: str) -> None:
    base = live_server
    owner = phones.open("owner")
    tid = create_table(owner, base)
    open_share(owner, base, tid)
    link = create_link(owner, "Caio")
    caio = phones.open("caio")
    caio.goto(link)
    start_all_pass(caio)  # Caio is entering a hand...
    revoke(owner, "Caio")  # ...when the owner revokes his link
    with caio.expect_response(lambda r: r.request.method == "POST") as answer:
        all_pass_button(caio).tap()
    assert answer.value.status == 403  # refused with the page that says access was cancelled
    caio.wait_for_load_state()
    assert hands_of(base, tid) == []
    assert caio.evaluate("JSON.parse(localStorage.getItem('referee-outbox') || '[]').length") == 0


# --------------------------------------------------------------------------- (c) join code


def test_a_join_code_typed_on_another_phone_works_once(phones: Phones, live_server: str, shot: Any) -> None:
    base = live_server
    owner = phones.open("owner")
    tid = create_table(owner, base)
    open_share(owner, base, tid)
    code = create_code(owner, "Dani")
    assert len(code) == 9 and code[4] == "-"
    shot(owner, "share-09-owner-join-code")

    dani = phones.open("dani")
    dani.goto(f"{base}/join")
    shot(dani, "share-10-join-page")
    type_code(dani, base, code.lower().replace("-", " "))
    assert dani.url == f"{base}/t/{tid}"
    expect(record_button(dani, tid)).to_have_count(1)
    start_all_pass(dani)
    tap_all_pass(dani)
    assert len(hands_of(base, tid)) == 1

    late = phones.open("late")
    type_code(late, base, code)
    expect(late.locator(".field-error")).to_be_visible()
    assert "/join" in late.url
    shot(late, "share-11-join-code-used")
    late.goto(f"{base}/t/{tid}")
    expect(record_button(late, tid)).to_have_count(0)


# --------------------------------------------------------------------------- (d) offline


def test_a_hand_saved_offline_waits_on_the_phone_and_is_stored_once(
    phones: Phones, live_server: str, shot: Any
) -> None:
    base = live_server
    owner = phones.open("owner")
    tid = create_table(owner, base)
    start_all_pass(owner)
    before = len(hands_of(base, tid))

    owner.context.set_offline(True)
    all_pass_button(owner).tap()
    bar = owner.locator("#outbox-bar")
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("1")
    assert "/hand" in owner.url  # still on the flow: nothing to lose
    assert owner.evaluate("JSON.parse(localStorage.getItem('referee-outbox') || '[]').length") == 1
    phones.settled(owner)
    assert len(hands_of(base, tid)) == before, "a hand was stored while the phone was offline"
    shot(owner, "share-12-offline-not-saved-yet")

    # Back online: sent by itself, once, and the phone lands on the table page.
    with owner.expect_navigation(timeout=15000):
        owner.context.set_offline(False)
    owner.wait_for_load_state()
    wait_until(lambda: len(hands_of(base, tid)) == before + 1)
    owner.wait_for_url(f"{base}/t/{tid}")
    expect(owner.locator("#outbox-bar")).to_have_count(0)
    expect(owner.locator("#hand-1")).to_be_visible()
    assert owner.evaluate("JSON.parse(localStorage.getItem('referee-outbox') || '[]').length") == 0
    shot(owner, "share-13-back-online-saved")
    # Nothing more arrives later, nor after a reload (the outbox is also flushed on page load).
    phones.settled(owner)
    owner.reload()
    phones.settled(owner)
    assert len(hands_of(base, tid)) == before + 1


def test_an_outbox_hand_is_sent_when_any_page_of_the_app_opens(phones: Phones, live_server: str) -> None:
    base = live_server
    owner = phones.open("owner")
    tid = create_table(owner, base)
    start_all_pass(owner, "paus")
    owner.context.set_offline(True)
    all_pass_button(owner).tap()
    expect(owner.locator("#outbox-bar")).to_be_visible()
    # The phone is closed while offline; later the app is opened again on another page.
    owner.context.set_offline(False)
    wait_until(lambda: len(hands_of(base, tid)) == 1, timeout=15)
    phones.settled(owner)
    owner.goto(f"{base}/")
    phones.settled(owner)
    assert len(hands_of(base, tid)) == 1


def test_a_hand_the_server_failed_to_take_waits_and_is_sent_again(phones: Phones, live_server: str) -> None:
    """A 5xx (a server restarting behind its proxy) may not have stored the hand: the phone keeps
    it and sends it again a little later by itself; it is stored once."""
    base = live_server
    owner = phones.open("owner")
    tid = create_table(owner, base)
    start_all_pass(owner, "copas")
    failed: list[str] = []

    def restarting(route: Any) -> None:
        failed.append(route.request.url)
        route.fulfill(status=502, body="Bad Gateway", content_type="text/plain")

    owner.route("**/hand/all-pass", restarting)
    all_pass_button(owner).tap()
    bar = owner.locator("#outbox-bar")
    expect(bar).to_be_visible()
    assert failed and "/hand" in owner.url
    assert owner.evaluate("JSON.parse(localStorage.getItem('referee-outbox') || '[]').length") == 1
    assert len(hands_of(base, tid)) == 0
    owner.unroute("**/hand/all-pass")
    # No reload, no network change: the retry sends it, and the table page shows it.
    wait_until(lambda: len(hands_of(base, tid)) == 1, timeout=20)
    expect(owner.locator("#hand-1")).to_be_visible(timeout=10000)
    expect(owner.locator("#outbox-bar")).to_have_count(0)
    owner.reload()
    phones.settled(owner)
    assert len(hands_of(base, tid)) == 1


# --------------------------------------------------------------------------- (e) conflict


def test_two_phones_saving_the_same_hand(phones: Phones, live_server: str, shot: Any) -> None:
    base = live_server
    owner = phones.open("owner")
    tid = create_table(owner, base)
    open_share(owner, base, tid)
    link = create_link(owner, "Bia")
    bia = phones.open("bia")
    bia.goto(link)

    # Both phones enter hand 1: the owner says "diamonds, everybody passed", Bia "hearts".
    owner.goto(f"{base}/t/{tid}")
    start_all_pass(owner, "ouros")
    start_all_pass(bia, "copas")
    tap_all_pass(owner)
    all_pass_button(bia).tap()
    theirs = bia.locator(".conflict-theirs")
    expect(theirs).to_be_visible()
    expect(theirs.locator("#hand-1")).to_be_visible()
    expect(bia.locator('button[name="renumber"]')).to_be_visible()
    expect(bia.locator(".conflict-keep .btn-primary")).to_be_visible()
    shot(bia, "share-14-conflict")
    assert len(hands_of(base, tid)) == 1

    # Replacing theirs is the small choice behind a second question.
    expect(bia.locator('button[name="replace"][value="1"]')).to_be_hidden()
    bia.locator(".conflict-replace summary").tap()
    go(bia, bia.locator('button[name="replace"][value="1"]'), tap=True)
    bia.wait_for_url(f"{base}/t/{tid}")
    hands = hands_of(base, tid)
    assert [(h["number"], bool(h.get("void"))) for h in hands] == [(1, True), (2, False)]
    assert hands[0]["record"]["ultima"] == "ouros" and hands[1]["record"]["ultima"] == "copas"
    assert hands[0]["voided"]["reason"]
    assert hands[1]["replaces"] == 1
    table = api_table(base, tid)
    assert table["totals"] == hands[1]["totals"]  # nothing counted twice
    shot(bia, "share-15-conflict-replaced")
    # The owner's phone shows the correction.
    owner.goto(f"{base}/t/{tid}/history")
    expect(owner.locator("#hand-2 .tag-fix")).to_be_visible()
    # The version replaced is under the one that stands, one tap away.
    owner.locator("#hand-2 details.before > summary").tap()
    expect(owner.locator("#hand-2 details.before #hand-1.is-void")).to_be_visible()


# --------------------------------------------------------------------------- (f) two-key


def test_two_key_a_hand_from_one_phone_is_confirmed_on_the_other(phones: Phones, live_server: str, shot: Any) -> None:
    base = live_server
    owner = phones.open("owner")
    tid = create_table(owner, base)
    open_share(owner, base, tid)
    go(owner, owner.locator('form[action$="/two-key"] button'))
    assert api_table(base, tid)["two_key"] is True
    link = create_link(owner, "Bia")
    bia = phones.open("bia")
    bia.goto(link)
    mark(bia)

    owner.goto(f"{base}/t/{tid}")
    start_all_pass(owner)
    started = time.perf_counter()
    tap_all_pass(owner)
    seen = seen_after(bia, "#hand-1 .tag-pending", started)
    print(f"\n(f) phone B saw hand 1 'to confirm' {seen:.2f} s after phone A saved it")
    assert seen < LIVE_WAIT
    expect(bia.locator(".pending-note")).to_be_visible()
    expect(owner.locator("#hand-1 .tag-pending")).to_be_visible()
    shot(bia, "share-16-two-key-to-confirm")
    assert hands_of(base, tid)[0]["status"] == "to_confirm"

    mark(owner)
    started = time.perf_counter()
    go(bia, bia.locator('#hand-1 form[action$="/hands/1/confirm"] button'), tap=True)
    expect(bia.locator("#hand-1 .tag-pending")).to_have_count(0)
    mine = time.perf_counter() - started
    theirs = seen_after(owner, "#hand-1 .tag-pending", started, gone=True)
    print(f"(f) confirmed: phone B shows it after {mine:.2f} s, phone A after {theirs:.2f} s")
    assert mine < LIVE_WAIT and theirs < LIVE_WAIT
    expect(owner.locator(".pending-note")).to_have_count(0)
    assert hands_of(base, tid)[0]["status"] == "confirmed"
    shot(owner, "share-17-two-key-confirmed")


# --------------------------------------------------------------------------- (g) TV


def test_the_tv_view_is_large_and_dark(phones: Phones, live_server: str, shot: Any) -> None:
    base = live_server
    owner = phones.open("owner")
    tid = create_table(owner, base, name="Mesa da varanda")
    for ultima in ("ouros", "copas"):
        start_all_pass(owner, ultima)
        tap_all_pass(owner)
    tv = phones.open("tv")
    tv.emulate_media(color_scheme="light")  # dark whatever the phone's theme
    tv.goto(f"{base}/tv/{tid}")
    html = tv.locator("html")
    expect(html).to_have_class("tv")
    assert html.get_attribute("data-wake-lock") is not None
    expect(tv.locator(".site-header")).to_be_hidden()
    background = tv.evaluate("getComputedStyle(document.body).backgroundColor")
    text = tv.evaluate("getComputedStyle(document.body).color")
    assert luminance(background) < 0.05, background
    assert luminance(text) > 0.7, text
    sizes = tv.locator(".scoreboard .balance").evaluate_all(
        "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert sizes and min(sizes) >= 40, sizes
    expect(tv.locator('main form[method="post"]')).to_have_count(0)
    width = tv.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the TV view is {width}px wide"
    shot(tv, "share-18-tv-portrait")

    # It follows the table live too.
    mark(tv)
    start_all_pass(owner, "paus")
    started = time.perf_counter()
    tap_all_pass(owner)
    latency = seen_after(tv, "#hand-3", started)
    print(f"\n(g) the TV showed hand 3 {latency:.2f} s after the tap")
    assert latency < LIVE_WAIT
    tv.set_viewport_size({"width": 844, "height": 390})
    tv.wait_for_timeout(200)
    shot(tv, "share-19-tv-landscape")
    tv.emulate_media(color_scheme="dark")
    tv.set_viewport_size({"width": 390, "height": 844})
    shot(tv, "share-20-tv-dark-phone")
    assert not phones.script_errors(), phones.script_errors()
