"""Many clubs on one server, tapped at 390x844 as its people would: a visitor makes a club from
the home page and types its code at the club's address, plays a table there and sees it in that
club's league and not in the first club's; the manager binds Maria's phone, and Maria sets her
own Pix key on it; the server's operator suspends the club, then deletes it. Each page: a
screenshot, axe, and no sideways scroll (steps.Audit)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from referee.extensions import db
from referee.models import Member
from tests.e2e.sharing_steps import start_all_pass, tap_all_pass
from tests.e2e.steps import Audit, create_table, go

pytestmark = pytest.mark.e2e

PLAYERS = ("Maria", "Bia", "Caio", "Dani")


@pytest.fixture
def audit(page, axe_check, shot) -> Audit:  # type: ignore[no-untyped-def]
    return Audit(page, axe_check, shot, prefix="clubs")


@pytest.fixture
def open_clubs(live_app: Any) -> Iterator[None]:
    live_app.config["OPEN_CLUBS"] = True
    try:
        yield
    finally:
        live_app.config["OPEN_CLUBS"] = False


def test_a_club_from_the_home_page_to_its_deletion(  # type: ignore[no-untyped-def]
    page, browser, browser_context_args, live_server, live_app, audit, open_clubs
) -> None:
    base = live_server
    taps: list[str] = []
    page.goto(f"{base}/")
    go(page, page.get_by_role("link", name="Criar um clube"), tap=True)
    taps.append("make a club")
    audit("new-club")
    page.locator("#name").fill("Clube do Bolinha")
    go(page, page.get_by_role("button", name="Criar o clube"), tap=True)
    taps.append("name it")
    audit("club-made")
    code = page.locator("[data-club-code]").inner_text()
    address = page.locator("[data-club-address]").inner_text()
    slug = re.search(r"/k/([a-z0-9-]+)/$", address)
    assert slug and re.fullmatch(r"\d{4} \d{4} \d{4}", code), (address, code)
    club = f"{base}/k/{slug.group(1)}"

    # Type its code at the club's address.
    go(page, page.get_by_role("link", name="Ir para o clube e digitar o código"), tap=True)
    page.locator("#code").fill(code)
    go(page, page.locator("main form button[type=submit]"), tap=True)
    taps.append("unlock")
    expect(page.locator(".brand")).to_contain_text("Clube do Bolinha")

    # Play a table at the club: one hand, everybody passed.
    tid = create_table(page, club, "jubileu", PLAYERS, tap=True)
    start_all_pass(page)
    tap_all_pass(page)
    audit("club-table")
    page.goto(f"{club}/league/jubileu?season=all")
    expect(page.locator("main")).to_contain_text("Maria")
    audit("club-league")
    page.goto(f"{base}/league/jubileu?season=all")  # the first club's league
    expect(page.locator("main")).not_to_contain_text("Maria")
    page.goto(f"{base}/t/{tid}")
    expect(page.locator("main")).to_contain_text("Não encontramos esta página")

    # The manager binds Maria's phone; on it, Maria sets her own Pix key.
    page.goto(f"{club}/players")
    go(page, page.locator("main a", has_text="Maria").first, tap=True)
    page.locator("details.manage summary").click()
    go(page, page.get_by_role("button", name="Ligar um celular a Maria"), tap=True)
    audit("bind-link")
    link = page.locator("[data-bind-link]").inner_text()
    maria = browser.new_context(**browser_context_args).new_page()
    try:
        maria.goto(link)
        expect(maria.locator("h1")).to_have_text("Este celular é de Maria?")
        go(maria, maria.get_by_role("button", name="Sim, este celular é de Maria"), tap=True)
        expect(maria.locator("#own-h")).to_have_text("Este celular é de Maria")
        audit("own-page", maria)
        maria.locator(".own-phone summary").click()
        maria.locator(".own-phone #pix_key").fill("maria@example.com")
        go(maria, maria.locator(".own-phone").get_by_role("button", name="Salvar a chave Pix"), tap=True)
        expect(maria.locator("main")).to_contain_text("Chave Pix salva")
        maria.goto(f"{club}/")
        expect(maria.locator(".own-link")).to_contain_text("Maria, sua página")
    finally:
        maria.context.close()
    with live_app.app_context():
        keys = [m.pix_key for m in db.session.query(Member).execution_options(all_clubs=True) if m.name == "Maria"]
        db.session.remove()
    assert keys == ["maria@example.com"]

    # The operator suspends the club, then deletes it.
    runner = live_app.test_cli_runner()
    assert runner.invoke(args=["clubs", "suspend", slug.group(1)]).exit_code == 0
    page.goto(f"{club}/")
    expect(page.locator("main")).to_contain_text("Este clube foi suspenso")
    audit("suspended")
    deleted = runner.invoke(args=["clubs", "delete", slug.group(1), "--without-export", "--yes"])
    assert deleted.exit_code == 0, deleted.output
    page.goto(f"{club}/")
    expect(page.locator("main")).to_contain_text("Não há clube neste endereço.")
    audit("deleted")
    print(f"\nfrom the home page to the club's code typed: {len(taps)} taps ({', '.join(taps)})")
    audit.done()
