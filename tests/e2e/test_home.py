"""The home page on a phone-sized screen."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e


def test_home_on_a_phone(page, live_server, axe_check, shot, console_errors) -> None:
    response = page.goto(live_server + "/")
    assert response is not None and response.status == 200
    assert page.locator("html").get_attribute("lang") == "pt-BR"
    assert page.get_by_role("heading", level=1).inner_text() == "Mesas em andamento"
    # Nothing wider than the screen: no sideways scrolling on a 390 px phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "home-pt")
    axe_check(page)
    assert console_errors == [], console_errors


def test_home_in_english_and_dark(page, live_server, axe_check, shot) -> None:
    page.emulate_media(color_scheme="dark")
    page.goto(live_server + "/")
    page.get_by_role("link", name="EN").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_role("heading", level=1).inner_text() == "Tables in progress"
    shot(page, "home-en-dark")
    axe_check(page)


def test_not_found_page(page, live_server, axe_check, shot) -> None:
    response = page.goto(live_server + "/nada-aqui")
    assert response is not None and response.status == 404
    shot(page, "404")
    axe_check(page)
    page.get_by_role("link", name="Ir para o início").click()
    page.wait_for_load_state()
    assert page.url == live_server + "/"


def test_tap_targets_are_big_enough(page, live_server) -> None:
    page.goto(live_server + "/")
    small = page.evaluate(
        """() => [...document.querySelectorAll('a, button, input, select, textarea')]
              .filter(e => e.offsetParent !== null && !e.classList.contains('skip-link'))
              .map(e => [e.outerHTML.slice(0, 60), e.getBoundingClientRect()])
              .filter(([_, r]) => r.width < 44 || r.height < 44)
              .map(([html]) => html)"""
    )
    assert small == []


def test_home_with_tables(page, live_server, axe_check, shot) -> None:
    """Home lists the tables this phone has opened, most recent first, with their players."""
    import json
    import urllib.request

    def api(path: str, body: dict, token: str | None = None) -> dict:
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
        request = urllib.request.Request(live_server + path, data=json.dumps(body).encode(), headers=headers)
        with urllib.request.urlopen(request) as answer:
            return json.load(answer)

    club = api(
        "/api/v1/tables", {"game": "jubileu", "players": ["Ana", "Bia", "Caio", "Dani"], "name": "Sexta no clube"}
    )
    api(
        f"/api/v1/tables/{club['id']}/hands",
        {"ultima": "copas", "auction": [[p, "passo"] for p in ["Ana", "Bia", "Caio", "Dani"]]},
        club["token"],
    )
    kitchen = api("/api/v1/tables", {"game": "jubileu", "players": ["Edu", "Fábio", "Gabi", "Heloísa"]})
    unseen = api(
        "/api/v1/tables", {"game": "jubileu", "players": ["Xavier", "Yara", "Zeca", "Wanda"], "name": "Mesa alheia"}
    )
    for table in (kitchen, club):
        page.goto(f"{live_server}/w/{table['id']}")
    page.goto(live_server + "/")
    assert page.get_by_text("Sexta no clube").is_visible()
    assert page.get_by_text("Edu · Fábio · Gabi · Heloísa").is_visible()
    assert page.get_by_text("Mesa alheia").count() == 0 and unseen["id"] not in page.content()
    shot(page, "home-tables")
    axe_check(page)
