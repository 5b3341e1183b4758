"""Names never cut, pages that fit and targets a thumb can hit, on a 390x844 phone (and the TV
view held sideways at 844x390): a name wraps rather than ending in "…", nothing runs into the
line under it, no page scrolls sideways, every column of a standings table is in sight, and every
link and disclosure a player taps is at least 44 px high."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import steps
from tests.e2e.conftest import PHONE
from tests.web.test_api_quatrilho import EXAMPLE as QUATRILHO
from tests.web.test_league_per_game import examples

pytestmark = pytest.mark.e2e

SHOTS = Path("/work/shots/glance")
TAP = 44
LONG = ("Maria da Conceição", "Rosângela Aparecida", "Márcia Regina", "Benedito")
SIX = (*LONG, "Lurdes", "Zé")
SAMBA = ("Maria da Conceição", "Rosângela Aparecida", "Conceição Aparecida", "Benedito")

#: Every element under ``root`` whose text the page cuts: clipped by its box, or ended in "…".
CUT = """root => [...document.querySelectorAll(root)].flatMap(box => [box, ...box.querySelectorAll('*')])
  .filter(e => {
    const cs = getComputedStyle(e);
    if (cs.display === 'none' || e.closest('.visually-hidden') || !e.textContent.trim()) return false;
    const clipped = !['visible', 'auto', 'scroll'].includes(cs.overflowX) || cs.textOverflow === 'ellipsis';
    return clipped && e.scrollWidth > e.clientWidth + 1;
  })
  .map(e => e.className + ': ' + e.textContent.trim().slice(0, 60) + ' ' + e.scrollWidth + '>' + e.clientWidth)"""

#: Links, buttons and disclosures under ``root`` shorter than ``min`` px (visible ones only).
SHORT = """([root, min]) => [...document.querySelectorAll(root)].flatMap(box =>
    [...box.querySelectorAll('a, button, summary')])
  .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height < min; })
  .map(e => e.textContent.trim().slice(0, 40) + ' h=' + Math.round(e.getBoundingClientRect().height))"""


def overlaps(page: Any, first: str, second: str) -> bool:
    """Whether the boxes of the elements ``first`` and ``second`` share any pixel."""
    return bool(
        page.evaluate(
            """([a, b]) => { const r = document.querySelector(a).getBoundingClientRect(),
                                   s = document.querySelector(b).getBoundingClientRect();
               return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom; }""",
            [first, second],
        )
    )


@pytest.fixture
def look(page: Any) -> Iterator[Any]:
    """look(name, page) saves a full-page screenshot to look at (outside the repository)."""
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(name: str, on: Any = None) -> None:
        (on or page).screenshot(path=str(SHOTS / f"fits-{name}.png"), full_page=True)

    yield take


def _table(live_app: Any, game: str, players: tuple[str, ...], options: dict[str, Any], records: list[Any]) -> str:
    api = live_app.test_client()
    table = api.post("/api/v1/tables", json={"game": game, "players": list(players), "options": options}).get_json()
    for record in records:
        answer = api.post(
            f"/api/v1/tables/{table['id']}/hands", json=record, headers={"Authorization": f"Bearer {table['token']}"}
        )
        assert answer.status_code == 201, answer.get_data(as_text=True)
    return str(table["id"])


def _quatrilho(players: tuple[str, ...]) -> dict[str, Any]:
    text = json.dumps(QUATRILHO)
    for old, new in zip(("Ana", "Bia", "Caio", "Dani"), players, strict=True):
        text = text.replace(f'"{old}"', json.dumps(new))
    return dict(json.loads(text))


def _unlock(page: Any, base: str, live_app: Any) -> None:
    page.goto(f"{base}/club")
    page.locator("#code").fill(live_app.config["CLUB_CODE"])
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()


# --------------------------------------------------------------------------- names never cut


def test_long_names_wrap_in_pills_and_in_the_auction_line(page, live_server, look) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{live_server}/tables/new?game=jubileu")
    for i, name in enumerate(LONG):
        page.fill(f"#player_{i}", name)
    look("new-table-pills")
    assert page.evaluate(CUT, ".chips") == []
    steps.go(page, page.locator('main form[method="post"] button[type="submit"]'))
    jubileu = page.url
    # Samba's "who went out?" pills, two to a row.
    steps.create_table(page, live_server, "samba", SAMBA)
    page.goto(f"{page.url}/hand")
    expect(page.locator('.chip:has(input[name="went_out"])')).to_have_count(len(SAMBA) + 1)
    look("samba-pills")
    assert page.evaluate(CUT, ".chips") == []
    page.goto(jubileu)
    steps.go(page, page.locator('.suit-links a[href*="ultima=copas"]'))
    for value in ("aces:none", "call:0:solo_sete", "call:1:passo"):
        steps.press(page, value)
    standing = page.locator(".auction-standing")
    expect(standing).to_contain_text("Solo Sete")
    expect(standing).to_contain_text("Maria da Conceição")
    look("auction-line")
    assert page.evaluate(CUT, ".auction-standing") == []
    # On to the preview: each name keeps clear of what that player pays or receives.
    for value in ("call:2:passo", "call:3:passo", "trump:espadas"):
        steps.press(page, value)
    for i, count in enumerate((9, 2, 1)):
        page.fill(f"#f-t{i}", str(count))
    steps.press(page, "tricks")
    expect(page.locator(".preview-deltas .net")).to_have_count(4)
    look("preview")
    gaps = page.locator(".preview-deltas li").evaluate_all(
        """rows => rows.map(r => { const who = r.querySelector('.who').getBoundingClientRect(),
                                         net = r.querySelector('.net').getBoundingClientRect();
             return net.top >= who.bottom || who.top >= net.bottom ? 99 : net.left - who.right; })"""
    )
    assert min(gaps) >= 8, gaps
    # The hand's summary above it (the tricks of each player by name) stays inside its card.
    outside = page.evaluate(
        """() => [...document.querySelectorAll('.summary dd *')].filter(e => e.getClientRects().length &&
             e.getBoundingClientRect().right > e.closest('.summary').getBoundingClientRect().right)
             .map(e => e.textContent.trim())"""
    )
    assert outside == []


def test_a_quatrilho_balance_stays_inside_its_card(page, live_server, live_app, look) -> None:  # type: ignore[no-untyped-def]
    """Five players: the dealer sits out, and his tag says so beside his long name."""
    players = ("Maria da Conceição Aparecida", "Rosângela", "Lurdes", "Benedito")
    five = (*players, "Conceição Aparecida")
    record = {**_quatrilho(players), "dealer": five[-1]}
    tid = _table(live_app, "quatrilho", five, {"unit_value": "12.50"}, [record] * 6)
    page.goto(f"{live_server}/t/{tid}")
    look("quatrilho-balances")
    outside = page.evaluate(
        """() => [...document.querySelectorAll('.scoreboard .balance-row > *')].filter(e => {
             const card = e.closest('.scoreboard').getBoundingClientRect(), r = e.getBoundingClientRect();
             return r.right > card.right - 1 || r.left < card.left; }).map(e => e.textContent.trim())"""
    )
    assert outside == []
    assert page.evaluate(CUT, ".scoreboard") == []


def test_the_tv_dealer_badge_never_covers_the_chips_left(page, live_server, live_app, look) -> None:  # type: ignore[no-untyped-def]
    options, _records = examples("lift_smoke", LONG)
    tid = _table(live_app, "lift_smoke", SIX[:4], {**options, "starting_chips": 40}, [])
    page.goto(f"{live_server}/tv/{tid}")
    look("tv-badge")
    dealer = page.locator(".balance-row.is-dealer")
    expect(dealer.locator(".stock")).to_contain_text("40")
    assert not overlaps(page, ".balance-row.is-dealer .tag", ".balance-row.is-dealer .stock")
    assert not overlaps(page, ".balance-row.is-dealer .who", ".balance-row.is-dealer .stock")
    assert page.evaluate(CUT, ".scoreboard") == []


# --------------------------------------------------------------------------- fits and targets


def test_the_seasons_page_fits_and_its_links_are_big_enough(page, live_server, live_app, look) -> None:  # type: ignore[no-untyped-def]
    _unlock(page, live_server, live_app)
    page.goto(f"{live_server}/league/seasons")
    page.fill("#name", "2026, segundo semestre")
    page.fill("#starts_on", "2026-07-01")
    page.fill("#ends_on", "2026-12-31")
    steps.go(page, page.locator("main form[method=post] button[type=submit]"))
    page.goto(f"{live_server}/league/seasons")
    look("seasons")
    assert page.evaluate("document.documentElement.scrollWidth") <= steps.SCREEN_WIDTH
    assert page.evaluate(SHORT, ["main .list", TAP]) == []


def test_el_gato_standings_show_every_column_and_names_are_targets(page, live_server, live_app, look) -> None:  # type: ignore[no-untyped-def]
    options, records = examples("el_gato", LONG)
    tid = _table(live_app, "el_gato", LONG, options, records)
    page.goto(f"{live_server}/t/{tid}")
    page.goto(f"{live_server}/league/el_gato")
    look("el-gato-standings")
    box = page.locator(".table-scroll")
    assert box.evaluate("e => e.scrollWidth <= e.clientWidth"), box.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert page.evaluate("document.documentElement.scrollWidth") <= steps.SCREEN_WIDTH
    assert page.evaluate(SHORT, [".standings tbody", TAP]) == []


def test_small_targets_are_44_px_high(page, live_server, live_app, look) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{live_server}/tables/new?game=samba")
    assert page.evaluate(SHORT, [".draw", TAP]) == []
    money = {"chip_value": "0.50"}
    options, records = examples("lift_smoke", LONG)
    first = _table(live_app, "lift_smoke", LONG, {**options, **money}, records)
    second = _table(live_app, "lift_smoke", LONG, {**options, **money}, records[:2])
    page.goto(f"{live_server}/tv/{first}")
    look("tv-leave")
    assert page.evaluate(SHORT, ["main > p:last-child", TAP]) == []
    for tid in (first, second):
        page.goto(f"{live_server}/t/{tid}")
    page.goto(f"{live_server}/night/settle?t={first}&t={second}")
    page.locator("main details.card > summary").first.click()
    look("night-settle")
    assert page.evaluate(SHORT, ["main details.card", TAP]) == []


def test_the_tv_held_sideways_shows_all_six_players(browser, live_server, live_app) -> None:  # type: ignore[no-untyped-def]
    options, _records = examples("lift_smoke", LONG)
    tid = _table(live_app, "lift_smoke", SIX, {**options, "starting_chips": 40}, [])
    context = browser.new_context(**{**PHONE, "viewport": {"width": 844, "height": 390}})
    try:
        tv = context.new_page()
        tv.goto(f"{live_server}/tv/{tid}")
        SHOTS.mkdir(parents=True, exist_ok=True)
        tv.screenshot(path=str(SHOTS / "fits-tv-sideways.png"))
        rows = tv.locator(".balance-row").evaluate_all(
            "rows => rows.map(r => r.getBoundingClientRect().bottom <= innerHeight && r.getBoundingClientRect().right <= innerWidth)"
        )
        assert rows == [True] * 6
        assert tv.evaluate(CUT, ".scoreboard") == []
    finally:
        context.close()


def test_the_seating_drawing_follows_the_names_typed(page, live_server) -> None:  # type: ignore[no-untyped-def]
    """Lift Smoke (four to six): the drawing has as many seats as names, left-handed."""
    page.goto(f"{live_server}/tables/new?game=lift_smoke")
    for i, name in enumerate(SIX[:5]):
        page.fill(f"#player_{i}", name)
    drawn = page.locator("svg.seating-drawing:not([hidden])")
    expect(drawn).to_have_count(1)
    expect(drawn.locator("circle.seat")).to_have_count(5)
    page.fill("#player_4", "")
    expect(page.locator("svg.seating-drawing:not([hidden]) circle.seat")).to_have_count(4)
