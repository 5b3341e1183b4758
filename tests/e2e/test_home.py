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


def test_home_with_tables(page, live_app, live_server, axe_check, shot) -> None:
    from referee.extensions import db
    from referee.models import Hand, Seat, Table

    with live_app.app_context():
        for i, (game, name, players) in enumerate(
            [
                ("jubileu", "Sexta no clube", ["Ana", "Bia", "Caio", "Dani"]),
                ("quatrilho", "", ["Edu", "Fábio", "Gabi", "Heloísa", "Iara"]),
            ]
        ):
            table = Table(
                id=f"e2e-home-{i}", game=game, name=name, options={},
                scorer_token_hash="0" * 64, first_dealer=len(players) - 1,
                seats=[Seat(position=p, name=n) for p, n in enumerate(players)],
            )
            db.session.add(table)
            db.session.flush()
            for n in range(1, 4 - i):
                db.session.add(Hand(table_id=table.id, number=n, position=n, dealer="", next_dealer="", record={}, result={}))
        db.session.commit()
    page.goto(live_server + "/")
    assert page.get_by_text("Sexta no clube").is_visible()
    assert page.get_by_text("Edu · Fábio · Gabi · Heloísa · Iara").is_visible()
    shot(page, "home-tables")
    axe_check(page)
