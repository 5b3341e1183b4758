"""The shared form macros (stepper, suit picker, buttons) in a real browser."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e


def test_stepper_and_suit_picker(page, live_server, axe_check, shot, console_errors) -> None:
    page.goto(live_server + "/_test/macros")
    tricks = page.get_by_label("Vazas da Ana", exact=True)
    assert tricks.input_value() == "3"
    page.get_by_role("button", name="Aumentar Vazas da Ana").tap()
    page.get_by_role("button", name="Aumentar Vazas da Ana").tap()
    assert tricks.input_value() == "5"
    figures = page.get_by_label("Figuras", exact=True)
    page.get_by_role("button", name="Diminuir Figuras").tap()
    assert figures.input_value() == "0"  # clamped at min
    page.get_by_role("radio", name="Espadas").check()
    shot(page, "macros")
    axe_check(page)
    page.get_by_role("button", name="Confirmar").tap()
    page.wait_for_load_state()
    assert page.locator("#posted").inner_text() == "tricks=5, figures=0, trump=espadas"
    assert console_errors == [], console_errors


def test_stepper_works_without_javascript(browser, live_server) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live_server + "/_test/macros")
    page.get_by_label("Vazas da Ana", exact=True).fill("7")
    page.get_by_role("button", name="Confirmar").click()
    assert page.locator("#posted").inner_text().startswith("tricks=7")
    context.close()
