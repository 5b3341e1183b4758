"""The Samba hand form, the meld checker and the new-table form on a 390×844 touch screen:
one team at a time under a tab row that stays in view, steppers in one column, a live score
that never hides a field, a card keyboard only while a meld is being typed, keys that hold
their labels; and a new-table form that follows the game's seats and dealer rule.

Players and teams as in test_samba.py: Ana & Caio (team 0) against Bia & Dani (team 1)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.samba_steps import (
    Team,
    check_hand,
    confirm,
    confirm_scores,
    create_table,
    expect_live,
    team_card,
)
from tests.e2e.steps import go

pytestmark = pytest.mark.e2e

SCREEN = 390

# Every input, button and summary of the form that a player taps, outside the two bars (the tab
# row and the live score), with what is at its centre once the page has scrolled to it: its top
# edge just clear of the tab row (block "start") and its bottom edge just clear of the live score
# (block "end"). A field is covered when what is at its centre is not the field itself.
COVERED = """(block) => {
  const form = document.querySelector('form.samba-form');
  const hidden = [];
  for (const el of form.querySelectorAll('input:not([type=hidden]), button, summary')) {
    if (el.closest('.live, .team-tabs') || !el.checkVisibility({visibilityProperty: true})) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    el.scrollIntoView({block: block, behavior: 'instant'});
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const ok = hit && (hit === el || el.contains(hit) || (hit.control && hit.control === el)
                       || (el.labels && [...el.labels].some(l => l.contains(hit))));
    if (!ok) hidden.push((el.id || el.name || el.textContent.trim()) + ' under ' + (hit ? hit.className || hit.tagName : 'nothing'));
  }
  return hidden;
}"""


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREEN


def lefts_and_rights(page: Any, selector: str) -> set[tuple[int, int]]:
    return {
        tuple(edges)
        for edges in page.locator(selector).evaluate_all(
            "els => els.filter(e => e.checkVisibility({visibilityProperty: true}))"
            ".map(e => { const r = e.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.right)]; })"
        )
    }


class Taps:
    """Counts the player's taps (and the numbers typed) of a hand."""

    def __init__(self, page: Any) -> None:
        self.page, self.taps, self.typed = page, 0, 0

    def tap(self, locator: Any) -> None:
        self.taps += 1
        locator.tap()

    def type(self, selector: str, number: int) -> None:
        self.tap(self.page.locator(selector))
        self.typed += 1
        self.page.locator(selector).fill(str(number))

    def plus(self, input_id: str, times: int) -> None:
        for _ in range(times):
            self.tap(self.page.locator(f'[data-stepper] button[data-step="1"][aria-controls="{input_id}"]'))


def test_a_samba_hand_one_team_at_a_time_with_nothing_covered(
    page, live_server, axe_check, shot, console_errors
) -> None:  # type: ignore[no-untyped-def]
    create_table(page, live_server, tap=True)
    taps = Taps(page)
    go(page, page.locator('.next-hand a[href$="/hand"]'), tap=True)
    taps.taps += 1
    tabs = page.locator(".team-tabs")
    expect(tabs).to_be_visible()
    expect(tabs.locator("label")).to_have_text(["Ana & Caio", "Bia & Dani"])
    expect(team_card(page, 0)).to_be_visible()
    expect(team_card(page, 1)).to_be_hidden()
    # The counts, the points and the steppers in one column: every stepper starts and ends at
    # the same place, and so do the points fields.
    steppers = lefts_and_rights(page, '.team-card[data-team="0"] .team-counts .stepper')
    assert len(steppers) == 1, steppers
    assert lefts_and_rights(page, '.team-card[data-team="0"] .points-field > input') == steppers
    axe_check(page)
    no_sideways_scroll(page)
    shot(page, "samba-hand-40-team-0")

    # Ana goes out. Ana & Caio: 1 clean canastra, 1 samba, 2 red 3s, 175 on the table (typed):
    # 175 + 500 + 1,500 + 200 + 200 = 2,575. Bia & Dani: 1 dirty canastra, 1 red 3, 240 on the
    # table, 80 left in hand (typed): 240 + 300 - 100 - 80 = 360.
    a, b = (
        Team(clean_canastras=1, sambas=1, red_threes=2, meld=175),
        Team(dirty_canastras=1, red_threes=1, meld=240, hand=80),
    )
    want = [a.score(went_out=True), b.score(went_out=False)]
    assert want == [2575, 360]
    taps.tap(page.locator('label.chip:has(input[name="went_out"][value="0"])'))
    taps.plus("f-t0_clean_canastras", 1)
    taps.plus("f-t0_sambas", 1)
    taps.plus("f-t0_red_threes", 2)
    taps.type("#f-t0-meld_points", 175)
    # Scrolled down to the end of the team's card, its name is still in view at the top.
    page.locator('.team-card[data-team="0"] details.penalties > summary').scroll_into_view_if_needed()
    box = tabs.bounding_box()
    assert box is not None and -1 <= box["y"] <= 1, box
    expect(tabs.locator("label:has(#tab-0:checked)")).to_have_text("Ana & Caio")
    shot(page, "samba-hand-41-team-0-scrolled")
    taps.tap(page.locator('label.next-team[for="tab-1"]'))
    expect(team_card(page, 1)).to_be_visible()
    expect(team_card(page, 0)).to_be_hidden()
    assert (page.locator("#team-1-h").bounding_box() or {"y": -1})["y"] >= 0  # the card shows from its top
    taps.plus("f-t1_dirty_canastras", 1)
    taps.plus("f-t1_red_threes", 1)
    taps.type("#f-t1-meld_points", 240)
    taps.type("#f-t1-hand_points", 80)
    expect_live(page, want)
    # Nothing of the form is ever under the live score or the tab row, with the score's
    # explanation open too (a taller bar), and the card counter and penalties open.
    for block in ("start", "end"):
        hidden = page.evaluate(COVERED, block)
        assert hidden == [], (block, hidden)
    page.locator("#live details.live-why > summary").tap()
    team_card(page, 1).locator("details.counter > summary").first.tap()
    team_card(page, 1).locator("details.penalties > summary").tap()
    for block in ("start", "end"):
        hidden = page.evaluate(COVERED, block)
        assert hidden == [], (block, hidden)
    lefts = lefts_and_rights(page, '.team-card[data-team="1"] .stepper')
    assert len(lefts) == 1, lefts  # counts, card counter and penalties alike
    axe_check(page)
    no_sideways_scroll(page)
    shot(page, "samba-hand-42-team-1")
    page.locator("#live details.live-why > summary").tap()  # closed again

    check_hand(page, tap=True)
    taps.taps += 1
    assert confirm_scores(page) == want
    confirm(page, tap=True)
    taps.taps += 1
    # Points typed: 14 taps (one of them the second team's tab) and 3 numbers typed.
    assert (taps.taps, taps.typed) == (14, 3), (taps.taps, taps.typed)
    assert console_errors == []  # a live-score question replaced by a newer one is no error


def test_the_meld_keyboard_shows_only_while_a_meld_is_typed(page, live_server, axe_check, shot) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{live_server}/samba/melds")
    keyboard = page.locator("[data-card-keyboard]")
    expect(keyboard).to_be_hidden()
    page.locator("#m1").tap()
    expect(keyboard).to_be_visible()
    keyboard.locator("[data-rank='10']").tap()
    keyboard.locator("[data-suit='♦']").tap()
    keyboard.locator("[data-card='JK']").tap()
    expect(page.locator("#m1")).to_have_value("10♦ JK")
    expect(keyboard).to_be_visible()  # a key keeps it
    # Every key holds its label (Joker, 10, the suits, ⌫) inside its edges at 390 px.
    spilled = keyboard.locator("button").evaluate_all(
        "keys => keys.filter(k => k.scrollWidth > k.clientWidth || k.scrollHeight > k.clientHeight)"
        ".map(k => k.textContent.trim())"
    )
    assert spilled == []
    expect(keyboard.locator("[data-card='JK']")).to_have_text("Joker")
    axe_check(page)
    no_sideways_scroll(page)
    shot(page, "samba-melds-50-keyboard")
    page.locator("h1").tap()  # a tap outside the fields and keys
    expect(keyboard).to_be_hidden()
    page.locator("#top").tap()  # the discard top is typed with it too
    expect(keyboard).to_be_visible()
    page.locator('input[name="going_out"]').tap()
    expect(keyboard).to_be_hidden()
    shot(page, "samba-melds-51-no-keyboard")


def visible_dealers(page: Any) -> list[str]:
    return list(
        page.locator("#dealer-choice label.chip").evaluate_all(
            "cs => cs.filter(c => c.getClientRects().length).map(c => c.textContent.trim())"
        )
    )


@pytest.mark.parametrize(
    ("game", "seats", "rule"),
    [
        ("koziri", 2, "Quem tirar a carta mais alta dá as cartas primeiro"),
        ("lift_smoke", 6, "quem tirar a mais alta dá as cartas primeiro"),
        ("injun", 4, "o primeiro que receber um ás dá as cartas primeiro"),
    ],
)
def test_the_new_table_form_follows_the_game(page, live_server, axe_check, shot, game, seats, rule) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{live_server}/tables/new?game={game}")
    expect(page.locator(".seating-drawing:not([hidden]) circle.seat")).to_have_count(seats)
    names = page.locator('input[name^="player_"]:visible')
    expect(names).to_have_count(seats)
    expect(page.locator("#dealer-choice .dealer-rule")).to_contain_text(rule)
    # No name yet: no player to choose as dealer, and the form says why.
    expect(page.locator("[data-dealer-empty]")).to_be_visible()
    assert [d for d in visible_dealers(page) if d != "O último jogador"] == []
    page.locator("#player_0").tap()
    page.keyboard.type("Ana")
    page.locator("#player_1").tap()
    page.keyboard.type("Bia")
    expect(page.locator("[data-dealer-empty]")).to_be_hidden()
    assert [d for d in visible_dealers(page) if d != "O último jogador"] == ["Ana", "Bia"]
    axe_check(page)
    no_sideways_scroll(page)
    shot(page, f"new-table-60-{game}")


def test_the_new_table_form_says_every_mistake_at_once(page, live_server, axe_check, shot) -> None:  # type: ignore[no-untyped-def]
    """Lift Smoke: the second seat left empty before a named third, the same name twice, an ante
    in words: one tap on "Create" shows every mistake next to its field, with what was typed."""
    page.goto(f"{live_server}/tables/new?game=lift_smoke")
    for seat, name in ((0, "Ana"), (2, "Caio"), (3, "Dani"), (4, "ana")):
        page.fill(f"#player_{seat}", name)
    page.fill("#opt_ante", "dois")
    go(page, page.locator('main form[method="post"] button[type="submit"]'), tap=True)
    expect(page.locator("#player_1-err")).to_be_visible()
    expect(page.locator("#player_4-err")).to_contain_text("ana")
    expect(page.locator("#opt_ante")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#opt_ante")).to_have_value("dois")
    for seat, name in ((0, "Ana"), (2, "Caio"), (3, "Dani"), (4, "ana")):
        expect(page.locator(f"#player_{seat}")).to_have_value(name)
    assert [d for d in visible_dealers(page) if d != "O último jogador"] == ["Ana", "Caio", "Dani", "ana"]
    axe_check(page)
    no_sideways_scroll(page)
    shot(page, "new-table-61-mistakes")
    # Fixed: the table is made, Caio dealing first.
    page.fill("#player_1", "Bia")
    page.fill("#player_4", "Edu")
    page.fill("#opt_ante", "1")
    page.locator('#dealer-choice label.chip:has(input[value="2"])').tap()
    go(page, page.locator('main form[method="post"] button[type="submit"]'), tap=True)
    assert "/t/" in page.url
    expect(page.locator("main")).to_contain_text("Caio dá as cartas")


def test_three_pairs_keep_every_name_whole_in_the_tabs_and_pills(page, live_server, shot) -> None:  # type: ignore[no-untyped-def]
    """Six players as three pairs: each tab says its team's full names ("João & Conceição",
    wrapped rather than cut), and so does each "who went out" pill."""
    from tests.e2e.samba_steps import PAIRS, SIX, create_three_pairs, open_hand

    create_three_pairs(page, live_server)
    open_hand(page)
    tabs = page.locator(".team-tabs .chip span")
    expect(tabs).to_have_text([f"{a} & {b}" for a, b in PAIRS])
    pills = page.locator('label.chip:has(input[name="went_out"]) span')
    expect(pills.first).to_have_text(SIX[0])
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.samba-form .chip span')]
              .filter(s => s.scrollWidth > s.clientWidth + 1 || s.scrollHeight > s.clientHeight + 1)
              .map(s => s.textContent.trim())"""
    )
    assert cut == []
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREEN
    shot(page, "samba-three-pairs-tabs")
