"""The club's pages at 390x844, tapped like a player: the club night's choice, the short player
page, the seasons picked in one tap, the TV view in portrait, the patience statistics and the
export and import page. Each page: a screenshot, axe, and no sideways scroll (steps.Audit)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from referee import league
from referee.extensions import db
from tests.bench import hands as jubileu_hands
from tests.e2e.steps import Audit
from tests.web.test_api_samba import stock_out

pytestmark = pytest.mark.e2e

SEATS = ("Rosângela Aparecida", "Benedito", "Cida", "Zé")
#: The patience tables' scrolling boxes show their whole table: nothing hides to the right.
BOXES = "'.table-scroll, #patience-h ~ .table-wrap'"
WHICH = f"[...document.querySelectorAll({BOXES})].filter(e => e.scrollWidth > e.clientWidth).map(e => e.outerHTML.slice(0, 300) + ' ' + e.scrollWidth + '>' + e.clientWidth)"
FITS_ITS_BOX = f"[...document.querySelectorAll({BOXES})].every(e => e.scrollWidth <= e.clientWidth)"


@pytest.fixture
def audit(page, axe_check, shot) -> Audit:  # type: ignore[no-untyped-def]
    return Audit(page, axe_check, shot, prefix="club")


def _table(live_app: Any, game: str = "jubileu", players: tuple[str, ...] = SEATS, **body: Any) -> dict[str, Any]:
    api = live_app.test_client()
    table = api.post("/api/v1/tables", json={"game": game, "players": list(players), **body}).get_json()
    table["api"] = api
    return table


def _hands(table: dict[str, Any], records: list[dict[str, Any]]) -> dict[str, Any]:
    for record in records:
        response = table["api"].post(
            f"/api/v1/tables/{table['id']}/hands", json=record, headers={"Authorization": f"Bearer {table['token']}"}
        )
        assert response.status_code == 201, response.get_data(as_text=True)
    return table


def _jubileu(live_app: Any, hands: int = 3, **body: Any) -> dict[str, Any]:
    table = _table(live_app, **body)
    return _hands(table, [jubileu_hands.record(SEATS, k) for k in range(hands)])


def _unlock(page: Any, base: str, live_app: Any, taps: list[str]) -> None:
    page.goto(f"{base}/club")
    page.locator("#code").fill(live_app.config["CLUB_CODE"])
    page.locator("form button[type=submit]").click()
    taps.append("unlock")
    page.wait_for_load_state()


def test_the_club_night_ticks_what_settles_together_and_says_why_not(page, live_server, live_app, audit) -> None:  # type: ignore[no-untyped-def]
    base = live_server
    one = _jubileu(live_app, name="Mesa 1", options={"chip_value": "0.50"})
    two = _jubileu(live_app, name="Mesa 2", options={"chip_value": "1.00"})
    chips = _jubileu(live_app, name="Mesa das fichas")
    patience = _table(live_app, game="relogio", players=("Cida",))
    for t in (one, two, chips, patience):  # this phone opened them: the night lists them
        page.goto(f"{base}/t/{t['id']}")
    page.goto(f"{base}/night")
    for t in (one, two):
        expect(page.locator(f'input[name="t"][value="{t["id"]}"]')).to_be_checked()
    for t in (chips, patience):
        expect(page.locator(f'input[name="t"][value="{t["id"]}"]')).not_to_be_checked()
    expect(page.locator(f"#why-{chips['id']}")).to_contain_text("valor em dinheiro por ficha")
    expect(page.locator(f"#why-{patience['id']}")).to_contain_text("ninguém paga")
    audit("night-choice")
    # Ticking the chips-only table too answers the choice again: ticks kept, why, what works.
    page.locator(f'input[name="t"][value="{chips["id"]}"]').check()
    page.locator('form[action$="/night/settle"] button[type=submit]').click()
    page.wait_for_load_state()
    for t in (one, two, chips):
        expect(page.locator(f'input[name="t"][value="{t["id"]}"]')).to_be_checked()
    expect(page.locator(f"#why-{chips['id']}")).to_contain_text("acerte as contas dela à parte")
    expect(page.locator(f'a[href$="/t/{chips["id"]}/settle"]')).to_be_visible()
    audit("night-refused")
    page.goto(f"{base}/night")
    # One tap: the preselection settles the two money tables together.
    page.locator('form[action$="/night/settle"] button[type=submit]').click()
    page.wait_for_load_state()
    expect(page.locator("h1")).to_contain_text("Acertar as contas da noite")
    expect(page.locator("[role=alert]")).to_have_count(0)
    audit("night-settled")
    audit.done()


def test_the_player_page_is_short_and_its_tools_unfold_on_a_tap(page, live_server, live_app, audit) -> None:  # type: ignore[no-untyped-def]
    base = live_server
    _jubileu(live_app, hands=4)
    taps: list[str] = []
    _unlock(page, base, live_app, taps)
    page.goto(f"{base}/players")
    page.locator("a", has_text="Benedito").first.click()
    page.wait_for_load_state()
    manage = page.locator("details.manage")
    expect(manage).not_to_have_attribute("open", "")
    expect(page.locator("#pix_key")).to_be_hidden()
    expect(page.get_by_text("Nenhum parceiro ainda")).to_have_count(0)
    audit("player-short")
    manage.locator("summary").click()
    expect(page.locator("#pix_key")).to_be_visible()
    audit("player-tools-open")
    audit.done()


def test_seasons_are_picked_in_one_tap_and_fit_the_screen(page, live_server, live_app, audit) -> None:  # type: ignore[no-untyped-def]
    base = live_server
    _jubileu(live_app, hands=2)
    with live_app.app_context():
        ids = {}
        for name, first, last in (
            ("Primeiro semestre de 2025", "2025-01-01", "2025-06-30"),
            ("Segundo semestre de 2025", "2025-07-01", "2025-12-31"),
            ("Torneio de inverno", "2024-06-01", "2024-08-31"),
        ):
            season = league.save_season(None, name=name, starts_on=first, ends_on=last)
            ids[name] = season.id
        db.session.remove()
    page.goto(f"{base}/league/jubileu?season=all")
    expect(page.locator("select")).to_have_count(0)
    chip = page.locator(".season-chip", has_text="Torneio de inverno")
    chip.click()  # one tap
    page.wait_for_url(f"**season={ids['Torneio de inverno']}")
    expect(page.locator(".season-chip.is-current")).to_have_text("Torneio de inverno")
    audit("standings-season")
    page.goto(f"{base}/league/seasons")
    audit("seasons")
    audit.done()


@pytest.mark.parametrize("game", ["jubileu", "samba"])
def test_the_tv_view_in_portrait_fits(page, live_server, live_app, audit, game) -> None:  # type: ignore[no-untyped-def]
    base = live_server
    if game == "samba":  # a match to a target: each team's total, progress and opening meld
        table = _hands(
            _table(live_app, game="samba", name="Samba da varanda"), [stock_out(300, 250), stock_out(120, 90)]
        )
    else:
        table = _jubileu(live_app, hands=5, name="Mesa da varanda com um nome comprido", options={"chip_value": "0.50"})
    page.goto(f"{base}/tv/{table['id']}")
    expect(page.locator("html")).to_have_class("tv")
    audit(f"tv-portrait-{game}")
    audit.done()


def test_the_patience_statistics_fit(page, live_server, live_app, audit) -> None:  # type: ignore[no-untyped-def]
    base = live_server
    records = [
        {"game": "relogio", "won": True},
        {"game": "relogio", "won": False, "king_exchanges": 1},
        {"game": "relogio_real", "sequences": 3},
        {"game": "relogio_real", "sequences": 1, "won": False},
    ]
    _hands(_table(live_app, game="relogio", players=("Rosângela Aparecida",)), records)
    _hands(
        _table(live_app, game="cachorro", players=("Rosângela Aparecida",)), [{"won": True, "round": 2}, {"won": False}]
    )
    page.goto(f"{base}/league/relogio?season=all")
    expect(page.locator("table.standings")).to_be_visible()
    assert page.evaluate(FITS_ITS_BOX), "the patience standings scroll sideways inside their box"
    audit("patience-standings")
    page.locator("table.standings a", has_text="Rosângela").click()
    page.wait_for_load_state()
    expect(page.locator("#patience-h")).to_be_visible()
    assert page.evaluate(FITS_ITS_BOX), page.evaluate(WHICH)
    audit("patience-player")
    audit.done()


def test_export_and_import_from_the_page(page, live_server, live_app, audit, tmp_path) -> None:  # type: ignore[no-untyped-def]
    base = live_server
    table = _jubileu(live_app, hands=2, name="Mesa para exportar")
    taps: list[str] = []
    page.goto(f"{base}/t/{table['id']}")
    page.locator(f'a[href="/exports?t={table["id"]}"]').click()
    taps.append("export")
    page.wait_for_load_state()
    expect(page.locator("h1")).to_have_text("Exportar e importar")
    with page.expect_download() as got:
        page.get_by_role("link", name="Baixar para importar (JSON)").click()
    taps.append("download")
    document = json.loads(got.value.path().read_text("utf-8"))
    assert [t["id"] for t in document["tables"]] == [table["id"]] and len(taps) == 2  # two taps from the table
    audit("exports-anyone")

    _unlock(page, base, live_app, taps)
    page.goto(f"{base}/exports")
    audit("exports-club")
    # Its own export again: the id is taken, the page says so and stores nothing.
    same = tmp_path / "same.json"
    same.write_text(json.dumps(document), "utf-8")
    page.locator("#file").set_input_files(str(same))
    page.get_by_role("button", name="Importar estas mesas").click()
    page.wait_for_load_state()
    expect(page.locator("[role=alert]")).to_contain_text("Nada foi importado.")
    audit("exports-refused")
    document["tables"][0]["id"] = "E2eImportedTable_00001"
    fresh = tmp_path / "fresh.json"
    fresh.write_text(json.dumps(document), "utf-8")
    page.locator("#file").set_input_files(str(fresh))
    page.get_by_role("button", name="Importar estas mesas").click()
    page.wait_for_load_state()
    expect(page.locator("[role=status]")).to_contain_text("1 mesa importada")
    audit("exports-imported")
    page.get_by_role("link", name="Mesa para exportar").click()
    page.wait_for_url("**/t/E2eImportedTable_00001")
    audit.done()
