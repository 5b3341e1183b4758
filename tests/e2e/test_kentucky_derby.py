"""A Kentucky Derby race end to end, on a 390×844 touch screen.

Seats in order of play: Ana, Bia, Caio, Dani; Dani (player 4) deals, so Ana moves the horses
and the bets are asked from Ana round to Dani. The race is entered card by card on the race
page; after every card the horses drawn on the track must stand where the rule text puts them
(worked out by hand below, in half spaces, never read from the app) and must have moved on the
drawing. Then the result, the payout preview, confirm, the balances and the stored race.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.steps import MINUS, Audit, go, left_the_flow, preview_deltas, signed, stored_hands

pytestmark = pytest.mark.e2e

PLAYERS = ("Ana", "Bia", "Caio", "Dani")
HORSES = ("copas", "ouros", "espadas", "paus")
SUITS = {"c": "copas", "o": "ouros", "e": "espadas", "p": "paus"}

#: The race: each card (rank + the suit's first letter) and the four positions after it, in half
#: spaces, ♥ ♦ ♠ ♣. Cards go to the aces in turn ♥ ♦ ♠ ♣. K +2, Q +1½, J +1, 7-10 of the ace's
#: colour +1, 3-6 of its colour +½, of the other colour 0; +½ more for the ace's own
#: suit; a 2 does not move an ace on the start line; a 2 of the other colour −1. The
#: finish is 7 spaces (14), judged after each round; two aces crossing in one round run a
#: tie-break between them alone.
RACE: list[tuple[str, tuple[int, int, int, int]]] = [
    ("Kc", (5, 0, 0, 0)),  # K♥ on ♥: 2 + ½
    ("2o", (5, 0, 0, 0)),  # 2♦ on ♦, on the start line: no move
    ("Ke", (5, 0, 5, 0)),
    ("3c", (5, 0, 5, 0)),  # 3♥ on ♣: other colour, 0
    ("Qc", (9, 0, 5, 0)),  # Q♥ on ♥: 1½ + ½
    ("4e", (9, 0, 5, 0)),
    ("Qe", (9, 0, 9, 0)),
    ("4c", (9, 0, 9, 0)),
    ("Jc", (12, 0, 9, 0)),  # J♥ on ♥: 1 + ½
    ("5e", (12, 0, 9, 0)),
    ("Je", (12, 0, 12, 0)),
    ("5c", (12, 0, 12, 0)),
    ("10c", (15, 0, 12, 0)),  # 10♥ on ♥: 1 + ½, past the line
    ("6e", (15, 0, 12, 0)),
    ("10e", (15, 0, 15, 0)),  # ♠ past the line in the same round
    ("6c", (15, 0, 15, 0)),  # end of the round: a tie-break between ♥ and ♠
    ("9c", (18, 0, 15, 0)),
    ("9e", (18, 0, 18, 0)),  # still level
    ("8c", (21, 0, 18, 0)),
    ("2c", (21, 0, 16, 0)),  # 2♥ on ♠: −1; ♥ ends the tie-break round ahead and wins
]
#: Ana ♥ 2 chips (the stepper's + once), Bia ♠ 1, Caio ♥ 1, Dani ♦ 1; pingo 1 (the table's).
#: Pot 4 + 5 = 9; ♥'s backers Ana and Caio share it equally: 4 each, the odd chip stays
#: on the table for the next race.
BETS = {"Ana": "copas", "Bia": "espadas", "Caio": "copas", "Dani": "ouros"}
DELTAS = {"Ana": 4 - 3, "Bia": -2, "Caio": 4 - 2, "Dani": -2}


def drawn(page: Page) -> dict[str, tuple[int, float]]:
    """Each horse's position (half spaces, data-pos) and where it is drawn on screen (x)."""
    rows = page.locator(".derby-track .horse").evaluate_all(
        "gs => gs.map(g => [g.dataset.horse, Number(g.dataset.pos), g.getBoundingClientRect().x])"
    )
    return {h: (pos, x) for h, pos, x in rows}


def refusal(live_app: Any, codes: list[str]) -> str:
    """The engine's sentence for a race with these cards, in the app's default language."""
    from referee.i18n import render_text
    from referee.rules import kentucky_derby as derby
    from referee.rules.errors import RulesError

    cards = [{"rank": c[:-1], "suit": SUITS[c[-1]]} for c in codes]
    with live_app.test_request_context("/"):
        try:
            derby.replay(cards, derby.DerbyOptions())
        except RulesError as exc:
            return render_text(exc.text)
    raise AssertionError(f"the engine accepts {codes}")


def tap_card(page: Page, code: str) -> None:
    page.locator(f'#race button[name="action"][value="card:{code}"]').tap()


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_race_entered_card_by_card_to_the_balances(
    page, live_app, live_server, axe_check, shot, console_errors
) -> None:  # type: ignore[no-untyped-def]
    audit = Audit(page, axe_check, shot, prefix="derby")
    base = live_server
    page.goto(f"{base}/tables/new?game=kentucky_derby")
    for i, name in enumerate(PLAYERS):
        page.fill(f"#player_{i}", name)
    page.fill("#name", "Derby de sábado")
    go(page, page.locator('main form[method="post"] button[type="submit"]'), tap=True)
    tid = page.url.rsplit("/t/", 1)[1]
    go(page, page.locator('.next-hand a[href$="/hand"]'), tap=True)

    # The bets: pingo from the table (1), each player in order of play, four horses each.
    expect(page.locator("#f-pingo")).to_have_value("1")
    assert page.locator(".derby-bet-name").evaluate_all("ls => ls.map(l => l.firstChild.textContent.trim())") == list(
        PLAYERS
    )
    audit("bets")
    for i, name in enumerate(PLAYERS):
        page.locator(f'input[name="h{i}"][value="{BETS[name]}"]').tap()
    page.locator('[data-step="1"][aria-controls="f-a0"]').tap()
    expect(page.locator("#f-a0")).to_have_value("2")
    go(page, page.locator('button[name="action"][value="bets"]'), tap=True)

    # The race: the track with four aces on the start line, the keypad, ♥ waiting.
    expect(page.locator("#race .derby-keypad")).to_be_visible()
    assert {h: p for h, (p, _x) in drawn(page).items()} == dict.fromkeys(HORSES, 0)
    expect(page.locator(".derby-track .lane.is-next")).to_have_count(1)
    audit("race-start")
    page.evaluate("window.__samePage = true")  # only the race is redrawn, the page stays
    before = drawn(page)
    turned: list[str] = []
    for number, (code, expected) in enumerate(RACE, start=1):
        if number == 6:
            # A slip: 7♦ on ♦ (+1½) is tapped instead of 4♠; ♦ moves, then "undo last card".
            tap_card(page, "7o")
            expect(page.locator(".derby-cards ol li")).to_have_count(6)
            slipped = drawn(page)
            assert slipped["ouros"][0] == 3 and slipped["ouros"][1] > before["ouros"][1]
            page.locator("#race .derby-undo a").tap()
            expect(page.locator(".derby-cards ol li")).to_have_count(5)
            assert drawn(page) == before
        if number == 7:
            # A card already turned (K♥): refused with the engine's sentence, nothing moves.
            tap_card(page, "Kc")
            expect(page.locator("#race .field-error")).to_have_text(refusal(live_app, [*turned, "Kc"]))
            assert drawn(page) == before
            audit("race-refused")
        tap_card(page, code)
        turned.append(code)
        expect(page.locator(".derby-cards ol li")).to_have_count(number)
        after = drawn(page)
        assert tuple(after[h][0] for h in HORSES) == expected, (number, code)
        for i, horse in enumerate(HORSES):
            was = before[horse][0]
            if expected[i] > was:
                assert after[horse][1] > before[horse][1], (number, horse, "should be drawn further on")
            elif expected[i] < was:
                assert after[horse][1] < before[horse][1], (number, horse, "should be drawn further back")
        # On one drawing, further along is further right, level horses side by side.
        order = sorted(HORSES, key=lambda h: (after[h][0], h))
        xs = [after[h][1] for h in order]
        assert xs == sorted(xs), (number, after)
        before = after
        if number == 16:
            expect(page.locator(".derby-stage")).to_be_visible()  # the tie-break, ♥ and ♠ only
            expect(page.locator(".derby-track .horse.is-out")).to_have_count(2)
            no_sideways_scroll(page)
            audit("race-tie-break")
    assert page.evaluate("window.__samePage === true")

    # The result: ♥ wins, its backers share the pot, one chip stays on the table.
    expect(page.locator("#race .derby-keypad")).to_have_count(0)
    expect(page.locator(".derby-winner")).to_contain_text("♥")
    expect(page.locator(".derby-track .lane.is-first")).to_have_count(1)
    assert preview_deltas(page) == {name: signed(d) for name, d in DELTAS.items()}
    expect(page.locator(".derby-carry")).to_contain_text("1")
    assert stored_hands(live_app, tid) == 0  # nothing stored before confirm
    audit("result")
    go(page, page.locator('#race form[method="post"] button[type="submit"]'), tap=True)
    left_the_flow(page)
    expect(page.locator(".undo-bar")).to_have_count(1)

    # The table: balances, the race in the history, and the stored record.
    rows = page.locator(".scoreboard .balance-row").evaluate_all(
        "rs => rs.map(r => [r.querySelector('.who').firstChild.textContent.trim(), r.querySelector('.balance').textContent.trim()])"
    )
    assert dict(rows) == {name: signed(d) for name, d in DELTAS.items()}
    assert MINUS in dict(rows)["Bia"]
    line = page.locator("#hand-1 .hand-contract")
    expect(line).to_contain_text("♥")
    expect(line).to_contain_text("Ana, Caio")
    audit("table-after")
    body = page.request.get(f"{base}/api/v1/tables/{tid}").json()
    [hand] = body["hands"]
    assert hand["record"]["cards"] == [{"rank": c[:-1], "suit": SUITS[c[-1]]} for c, _ in RACE]
    assert hand["record"]["winner"] == "copas" and hand["record"]["carried_in"] == 0
    assert hand["record"]["bets"]["Ana"] == {"horse": "copas", "amount": 2}
    assert body["on_the_table"] == 1
    assert console_errors == []
    audit.done()


def test_without_javascript_each_card_is_a_page_and_the_race_still_ends(
    browser, browser_context_args, live_app, live_server
) -> None:  # type: ignore[no-untyped-def]
    """♥ runs away alone (K Q J 10 of hearts while the others get cards of the other colour);
    every card is a plain GET that lands on the race, scrolled to it."""
    context = browser.new_context(**{**browser_context_args, "java_script_enabled": False})
    page = context.new_page()
    try:
        base = live_server
        page.goto(f"{base}/tables/new?game=kentucky_derby")
        for i, name in enumerate(PLAYERS):
            page.fill(f"#player_{i}", name)
        go(page, page.locator('main form[method="post"] button[type="submit"]'))
        tid = page.url.rsplit("/t/", 1)[1]
        go(page, page.locator('.next-hand a[href$="/hand"]'))
        for i, name in enumerate(PLAYERS):
            page.locator(f'input[name="h{i}"][value="{BETS[name]}"]').check()
        go(page, page.locator('button[name="action"][value="bets"]'))
        alone = ["Kc", "3e", "3o", "3c", "Qc", "4e", "4o", "4c", "Jc", "5e", "5o", "5c", "10c", "6e", "6o", "6c"]
        # ♥ after each card: K♥ 2½, Q♥ 2, J♥ 1½, 10♥ 1½ (own suit each time); the others 0.
        hearts = [5, 5, 5, 5, 9, 9, 9, 9, 12, 12, 12, 12, 15, 15, 15, 15]
        for code, expected in zip(alone, hearts):
            go(page, page.locator(f'#race button[name="action"][value="card:{code}"]'))
            assert page.url.endswith("#race")
            assert page.evaluate("window.scrollY") > 0  # the race, not the page's top, is in view
            positions = drawn(page)
            assert [positions[h][0] for h in HORSES] == [expected, 0, 0, 0], code
        expect(page.locator(".derby-winner")).to_contain_text("♥")
        go(page, page.locator('#race form[method="post"] button[type="submit"]'))
        assert stored_hands(live_app, tid) == 1
    finally:
        context.close()
