"""Driving the Quatrilho pages in a browser: shared by test_quatrilho.py.

Everything is selected by stable attributes (``name="action" value="..."``, ids, hrefs,
classes), never by visible text. Seats are indices in the table's player list, as the flow's
action values use them (``declarer:2`` is Caio).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e import steps
from tests.e2e.steps import action, confirm, go, press, preview_deltas

# Five players in order of play; by default the last one (Edu) deals first and sits out, Ana
# speaks first, and the deal then passes to Ana, Bia, ... (the dealer sits out by default).
PLAYERS = ("Ana", "Bia", "Caio", "Dani", "Edu")
CARD_FIGURES = 32  # what the figures step counts: the cards only, the last trick's 3 apart
TRICKS = 10


def seat(name: str) -> int:
    return PLAYERS.index(name)


def expected(**deltas: int) -> dict[str, str]:
    return steps.expected_for(PLAYERS, **deltas)


def create_table(page: Page, base: str, *, tap: bool = False, name: str | None = None) -> str:
    """A five-player Quatrilho table with the default options (the dealer sits out) and the
    default first dealer (the last seat, Edu)."""
    return steps.create_table(page, base, "quatrilho", PLAYERS, tap=tap, name=name)


def sitting_out_shown(page: Page) -> list[str]:
    """The names whose scoreboard row carries the "sits out" tag. The dealer's "deals" tag is
    told apart by its title (the sits-out tag has no class or attribute of its own)."""
    rows = page.locator(".scoreboard .balance-row").evaluate_all(
        """rows => rows.filter(r => r.querySelector('.tag-sits-out'))
                       .map(r => r.querySelector('.who').firstChild.textContent.trim())"""
    )
    return list(rows)


def open_flow(page: Page, *, tap: bool = False) -> None:
    """From the table page: the big "record the next hand" link."""
    go(page, page.locator('.next-hand a[href$="/hand"]'), tap=tap)
    expect(page.locator('section.step button[name="action"][value^="mode:"]').first).to_be_visible()


def figure_inputs(page: Page) -> list[str]:
    """The ids of the figures step's inputs, in the order the page shows them (order of play)."""
    return list(page.locator('section.step input[id^="f-f"]').evaluate_all("xs => xs.map(x => x.id)"))


def count_each_pile(page: Page, *, tap: bool = False) -> None:
    """A chamada asks its sides' counts on pads; this switches to counting every player's pile."""
    if action(page, "per_player").count():
        press(page, "per_player", tap=tap)


def enter_figures(page: Page, figures: Mapping[str, int], last: str, *, submit: bool = True, tap: bool = False) -> None:
    """Card figures of the four who played (the last input fills itself to 32 − the others),
    then who took the last trick (+3 on the page's side). A chamada is first switched from
    its side pads to every player's pile."""
    count_each_pile(page, tap=tap)
    ids = figure_inputs(page)
    assert ids == [f"f-f{seat(n)}" for n in figures], f"the page asks {ids}, the test has {list(figures)}"
    names = list(figures)
    last_input = page.locator(f"#f-f{seat(names[-1])}")
    kept = last_input.get_attribute("data-touched") is not None  # sent back by the server: kept as typed
    for name in names[:-1]:
        page.fill(f"#f-f{seat(name)}", str(figures[name]))
    if not kept:
        expect(last_input).to_have_value(str(CARD_FIGURES - sum(figures[n] for n in names[:-1])))
    if kept or sum(figures.values()) != CARD_FIGURES:  # type it (an impossible count on purpose, or a kept one)
        page.fill(f"#f-f{seat(names[-1])}", str(figures[names[-1]]))
    page.check(f'section.step input[name="last"][value="{seat(last)}"]')
    if submit:
        press(page, "figures", tap=tap)


def enter_tricks(page: Page, tricks: Mapping[str, int], *, tap: bool = False) -> None:
    names = list(tricks)
    ids = list(page.locator('section.step input[id^="f-t"]').evaluate_all("xs => xs.map(x => x.id)"))
    assert ids == [f"f-t{seat(n)}" for n in names], f"the page asks {ids}, the test has {names}"
    for name in names[:-1]:
        page.fill(f"#f-t{seat(name)}", str(tricks[name]))
    expect(page.locator(f"#f-t{seat(names[-1])}")).to_have_value(str(TRICKS - sum(tricks[n] for n in names[:-1])))
    assert sum(tricks.values()) == TRICKS, "tricks must total 10"
    press(page, "tricks", tap=tap)


def record_hand(
    page: Page,
    *,
    answers: Sequence[str],
    figures: Mapping[str, int] | None = None,
    last: str | None = None,
    tricks: Mapping[str, int] | str | None = None,
    expect_preview: Mapping[str, str] | None = None,
    on_step: Any = None,
    tap: bool = False,
) -> None:
    """Record a hand from the table page: ``answers`` are the action values pressed in order
    (contract, declarer, card, partner, exchange, giver; each must be offered), then the
    figures, then the tricks (a mapping, or the solo branco's ``"tricks:0"``/``"tricks:1"``),
    the preview and confirm. ``on_step(name)`` runs before each step is answered."""
    open_flow(page, tap=tap)
    for answer in answers:
        if on_step:
            on_step(answer.split(":")[0])
        press(page, answer, tap=tap)
    if figures is not None:
        assert last is not None
        if on_step:
            on_step("figures")
        enter_figures(page, figures, last, tap=tap)
    if tricks is not None:
        if on_step:
            on_step("tricks")
        if isinstance(tricks, str):
            press(page, tricks, tap=tap)
        else:
            enter_tricks(page, tricks, tap=tap)
    expect(page.locator(".preview-deltas")).to_be_visible()
    assert page.locator(".field-error").count() == 0, page.locator(".field-error").all_inner_texts()
    if on_step:
        on_step("preview")
    if expect_preview is not None:
        assert preview_deltas(page) == dict(expect_preview)
    confirm(page, tap=tap)


def api_hands(page: Page, base: str, tid: str) -> list[dict[str, Any]]:
    """The hands GET /api/v1/tables/<id> lists (no token needed to read)."""
    response = page.request.get(f"{base}/api/v1/tables/{tid}")
    assert response.status == 200, response.status
    return list(response.json()["hands"])


#: Counts every click and every key pressed in the tab, across page loads (sessionStorage).
COUNT_INPUT = """
window.countingInput = true;
for (const kind of ["click", "keydown", "input"]) {
  document.addEventListener(kind, () => {
    sessionStorage.setItem(kind, String(Number(sessionStorage.getItem(kind) || 0) + 1));
  }, true);
}
"""


def start_counting(page: Page) -> None:
    """From now on the tab counts clicks, keys and typed input afresh (see :func:`counted`)."""
    if not page.evaluate("window.countingInput === true"):
        page.add_init_script(COUNT_INPUT)
        page.reload()
    page.evaluate("sessionStorage.clear()")


def counted(page: Page) -> dict[str, int]:
    """Clicks, keys and typed input since :func:`start_counting`."""
    return {
        kind: int(page.evaluate(f"Number(sessionStorage.getItem('{kind}') || 0)"))
        for kind in ("click", "keydown", "input")
    }
