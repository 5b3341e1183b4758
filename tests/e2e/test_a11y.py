"""axe-core (WCAG 2.1 A/AA + best practices) on every page, on a 390×844 touch screen.

One walk through the app visits each page once, in the state a real table goes through; every
page is screenshotted (tests/e2e/screenshots/a11y-*.png), checked with axe, and checked for
sideways scrolling. All problems are gathered and reported together at the end.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.jubileu_steps import (
    PLAYERS,
    confirm,
    create_table,
    draft_of,
    enter_tricks,
    hand_url,
    press,
    record_hand,
    start_hand,
    step_kind,
)
from tests.e2e.steps import Audit

pytestmark = pytest.mark.e2e


@pytest.fixture
def audit(page, axe_check, shot) -> Audit:  # type: ignore[no-untyped-def]
    return Audit(page, axe_check, shot)


def test_every_page_passes_axe(page, browser, browser_context_args, live_server, audit) -> None:
    base = live_server

    # Home, the new-table form, and the form sent empty (validation errors on show).
    page.goto(base + "/")
    audit("home")
    page.goto(base + "/tables/new?game=jubileu")
    audit("new-table")
    page.locator('main form[method="post"] button[type="submit"]').click()
    page.wait_for_load_state()
    expect(page.locator(".field-error").first).to_be_visible()
    expect(page.locator('[aria-invalid="true"]').first).to_be_visible()
    audit("new-table-errors")

    # A new table, empty: table page (with the "created" flash), watch, history, settle.
    tid = create_table(page, base, name="Mesa da varanda")
    audit("table-empty")
    for name, path in (("watch-empty", "w/{}"), ("history-empty", "t/{}/history"), ("settle-empty", "t/{}/settle")):
        page.goto(f"{base}/{path.format(tid)}")
        audit(name)

    # The record flow, step by step.
    page.goto(f"{base}/t/{tid}")
    page.locator(f'a.btn[href$="/t/{tid}/hand"]').click()
    page.wait_for_load_state()
    expect(page.locator('button[name="action"][value="ultima:copas"]')).to_be_visible()
    audit("flow-ultima")
    press(page, "ultima:copas")
    expect(page.locator('button[value="aces:none"]')).to_be_visible()
    audit("flow-aces")
    press(page, "aces:none")
    audit("flow-auction")
    press(page, "call:0:meia_miseria")
    expect(page.locator('.chips button[value="call:2:meia_miseria"]')).to_be_visible()
    audit("flow-auction-joiners")
    press(page, "undo")
    press(page, "call:0:solo_oito")
    page.goto(hand_url(base, tid, draft_of(page), "call:1:meia_miseria"))
    expect(page.locator(".field-error")).to_be_visible()
    audit("flow-auction-error")
    press(page, "direct")
    expect(page.locator("select#bid")).to_be_visible()
    audit("flow-contract")
    page.select_option("select#bid", "jogo_obrigatorio")
    page.check('input[name="declarer"][value="0"]')
    press(page, "contract")
    while page.locator(".field-error").count() == 0 and (kind := step_kind(page)) is not None:
        press(page, f"{kind}:" + ("2" if kind == "partner" else "paus"))  # see test_jubileu: JO asked too late
    expect(page.locator(".field-error")).to_be_visible()
    audit("flow-contract-error")
    # Jubileu by Ana, in a fresh flow (see test_jubileu: going back to the auction from the
    # direct contract keeps the abandoned contract's called suit).
    page.goto(f"{base}/t/{tid}/hand?ultima=copas")
    press(page, "aces:none")  # then trump, called ace, partner, tricks, preview
    for call in ("call:0:jubileu", "call:1:passo", "call:2:passo", "call:3:passo"):
        press(page, call)
    answers = {"trump": "copas", "called": "paus", "partner": "2"}
    while (kind := step_kind(page)) is not None:
        audit(f"flow-{kind}")
        press(page, f"{kind}:{answers.pop(kind)}")
    expect(page.locator("#f-t0")).to_be_visible()
    page.fill("#f-t0", "4")
    audit("flow-tricks")
    enter_tricks(page, [4, 3, 4, 2])
    audit("flow-preview")
    page.emulate_media(color_scheme="dark")
    audit("flow-preview-dark")
    page.emulate_media(color_scheme="light")
    confirm(page)
    audit("table-saved-undo-bar")

    # A second hand, so the scoreboard, history and settle-up have something to show.
    record_hand(
        page,
        ultima="ouros",
        calls=["call:1:solo_sete", "call:2:passo", "call:3:passo", "call:0:passo"],
        details={"trump": "espadas"},
        tricks=[2, 9, 1, 1],
    )
    page.goto(f"{base}/t/{tid}")
    page.locator("#hand-2 details.why summary").click()
    audit("table-with-hands")
    page.emulate_media(color_scheme="dark")
    audit("table-with-hands-dark")
    page.emulate_media(color_scheme="light")
    for name, path in (("watch", "w/{}"), ("history", "t/{}/history"), ("settle", "t/{}/settle")):
        page.goto(f"{base}/{path.format(tid)}")
        audit(name)

    # Void page, then with its error; the correction's preview (with the reason field).
    page.goto(f"{base}/t/{tid}/hands/1/void")
    audit("void")
    page.fill("#reason", "  ")
    page.locator('main form[method="post"] button[type="submit"]').click()
    page.wait_for_load_state()
    expect(page.locator(".field-error")).to_be_visible()
    audit("void-error")
    page.goto(f"{base}/t/{tid}/hand?replaces=1")
    expect(page.locator("#reason")).to_be_visible()
    audit("flow-correction-preview")

    # Error pages, and the table as seen from a phone that is not the scorer's.
    page.goto(base + "/nada-aqui")
    audit("error-404")
    stranger = browser.new_context(**browser_context_args)
    try:
        other = stranger.new_page()
        response = other.goto(f"{base}/t/{tid}/hand")
        assert response is not None and response.status == 401
        audit("error-401", other)
        other.goto(f"{base}/t/{tid}")
        expect(other.locator('.next-hand a[href="/join"]')).to_be_visible()  # how to get in; no token asked
        expect(other.locator("#token")).to_have_count(0)
        audit("table-not-scorer", other)
    finally:
        stranger.close()

    assert {"flow-trump", "flow-called", "flow-partner"} <= set(audit.seen), audit.seen
    assert len(PLAYERS) == 4
    audit.done()


def test_record_flow_start_all_pass_page(page, live_server, audit) -> None:
    """The aces step reached from a suit link (the all-pass form on show) and the page after."""
    create_table(page, live_server)
    start_hand(page, "paus")
    expect(page.locator('form[action$="/hand/all-pass"] button')).to_be_visible()
    audit("flow-aces-from-suit-link")
    with page.expect_navigation():
        page.locator('form[action$="/hand/all-pass"] button').tap()
    audit("table-after-all-pass")
    audit.done()


# --------------------------------------------------------------------------- Samba


def test_every_samba_page_passes_axe(page, live_server, axe_check, shot) -> None:  # type: ignore[no-untyped-def]
    """The Samba pages: the new-table form (teams, the draw, a refusal), the table page empty,
    after a hand and after the match, the hand form (counter open, an engine refusal), the
    confirm step, and the meld checker (empty, with verdicts, with a misspelt card)."""
    from tests.e2e import samba_steps as samba
    from tests.e2e.steps import go, tid_of

    base = live_server
    audit = Audit(page, axe_check, shot, prefix="samba-a11y")
    submit = 'main form[method="post"] button[type="submit"]'

    # The new-table form, with the draw open; "three pairs" with four players is refused.
    page.goto(base + "/tables/new?game=samba")
    page.locator("details.draw > summary").click()
    audit("new-table")
    for i, name in enumerate(samba.PLAYERS):
        page.fill(f"#player_{i}", name)
    page.check('input[name="teams"][value="pairs"]')
    go(page, page.locator(submit))
    expect(page.locator(".field-error").first).to_be_visible()
    audit("new-table-error")

    # A table played to 3,000, so that two hands end the match.
    page.check('input[name="teams"][value="across"]')
    page.fill("#opt_target", "3000")
    go(page, page.locator(submit))
    tid = tid_of(page)
    audit("table-empty")

    # The hand form: empty, with the card counter open and counted, with an engine refusal.
    samba.open_hand(page)
    audit("hand-form")
    samba.fill_team(page, 0, samba.Team(clean_canastras=1, sambas=1, red_threes=2, meld={"aces": 7, "low": 7}))
    samba.open_counter(page, 1, "hand_points")
    samba.choose_went_out(page, 0)
    samba.expect_live(page, [2575, 0])
    audit("hand-form-counter-open")
    samba.show_team(page, 0)  # the form shows one team at a time
    page.fill("#f-t0_sambas", "0")  # one canastra only: Ana cannot have gone out
    samba.check_hand(page)
    expect(samba.error_box(page)).to_be_visible()
    audit("hand-form-error")
    samba.show_team(page, 0)
    page.fill("#f-t0_sambas", "1")
    samba.check_hand(page)
    expect(samba.save_button(page)).to_have_count(1)
    audit("hand-confirm")
    page.emulate_media(color_scheme="dark")
    audit("hand-confirm-dark")
    page.emulate_media(color_scheme="light")
    samba.confirm(page)
    page.locator("#hand-1 details.why summary").click()
    audit("table-one-hand")
    page.goto(f"{base}/t/{tid}/history")
    audit("history-one-hand")

    # Hand 2 ends the match (Ana & Caio past 3,000); the match-over section.
    page.goto(f"{base}/t/{tid}")
    samba.record_hand(page, [samba.Team(clean_canastras=2, meld=300), samba.Team(meld=100)], 2)
    expect(page.locator("section.match-over")).to_be_visible()
    audit("table-match-over")
    page.emulate_media(color_scheme="dark")
    audit("table-match-over-dark")
    page.emulate_media(color_scheme="light")

    # The meld checker: empty, with verdicts and an opening, a misspelt card, and from a table.
    page.goto(base + "/samba/melds")
    audit("melds-empty")
    page.goto(base + "/samba/melds?m0=Kc+Ko+Ke+2p+2c&m1=Kc+Ko+Ke+Kp+Kc+2p+2c&m2=4c+5c+6c&required=90")
    expect(page.locator(".verdict.is-illegal")).to_have_count(1)
    expect(page.locator("section.opening")).to_be_visible()
    audit("melds-verdicts")
    page.goto(base + "/samba/melds?m0=Kc+Ko+Zz&top=Q%3F")
    expect(page.locator(".field-error").first).to_be_visible()
    audit("melds-misspelt")
    page.goto(f"{base}/samba/melds?t={tid}&team=1&m0=Ac+Ao+Ae")
    audit("melds-for-a-team")
    audit.done()


# --------------------------------------------------------------------------- Sharing


def test_every_sharing_page_passes_axe(page, browser, browser_context_args, live_server, axe_check, shot) -> None:  # type: ignore[no-untyped-def]
    """The sharing pages: the share page for the owner (a new scoring link shown, then a new
    join code) and for a watcher, the join page empty and with its error, the refused link, the
    house rules, the TV view, the conflict page of two phones saving the same hand, and a table
    page with a hand to confirm (two-key entry) on the other phone."""
    from tests.e2e import sharing_steps as sharing
    from tests.e2e.steps import go

    base = live_server
    audit = Audit(page, axe_check, shot, prefix="share-a11y")
    phones = sharing.Phones(browser, browser_context_args)
    try:
        tid = create_table(page, base, name="Mesa da varanda")
        sharing.open_share(page, base, tid)
        audit("share-owner")
        link = sharing.create_link(page, "Bia")
        audit("share-owner-new-link")
        sharing.create_code(page, "Caio")
        audit("share-owner-new-code")
        page.goto(f"{base}/t/{tid}/options")
        expect(page.locator("#opt_starting_chips")).to_be_visible()
        audit("options")
        page.fill("#opt_starting_chips", "-3")
        go(page, page.locator('main form[method="post"] button[type="submit"]'))
        expect(page.locator(".field-error").first).to_be_visible()
        audit("options-error")

        other = phones.open("other")
        other.goto(f"{base}/t/{tid}/share")
        audit("share-watcher", other)
        other.goto(f"{base}/join")
        audit("join", other)
        sharing.type_code(other, base, "ZZZZ-ZZZZ")
        expect(other.locator(".field-error")).to_be_visible()
        audit("join-error", other)
        other.goto(f"{base}/j/not-a-real-link")
        expect(other.locator(".error-box")).to_be_visible()
        audit("link-refused", other)

        # Two phones save hand 1: the second one's conflict page.
        other.goto(link)
        page.goto(f"{base}/t/{tid}")
        sharing.start_all_pass(page, "ouros")
        sharing.start_all_pass(other, "copas")
        sharing.tap_all_pass(page)
        sharing.all_pass_button(other).tap()
        expect(other.locator(".conflict-theirs")).to_be_visible()
        audit("conflict", other)
        go(other, other.locator('button[name="renumber"]'))

        # Two-key entry: a hand from the owner's phone waits for the other phone.
        sharing.open_share(page, base, tid)
        go(page, page.locator('form[action$="/two-key"] button'))
        page.goto(f"{base}/t/{tid}")
        sharing.start_all_pass(page, "paus")
        sharing.tap_all_pass(page)
        other.goto(f"{base}/t/{tid}")
        expect(other.locator(".tag-pending")).to_be_visible()
        expect(other.locator('form[action$="/confirm"] button')).to_be_visible()
        audit("table-to-confirm", other)
        other.emulate_media(color_scheme="dark")
        audit("table-to-confirm-dark", other)

        page.goto(f"{base}/tv/{tid}")
        audit("tv")
        audit.done()
    finally:
        phones.close()
