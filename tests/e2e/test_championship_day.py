"""A championship committee's whole day on 390×844 phones, in Portuguese, through the pages.

The organiser creates a day (Quatrilho is preselected) with fees and a Pix key, changes a setting
before the draw, registers nine players, corrects one name and withdraws another (eight play: two
tables of four). In round 1 a re-entry shows whose card it is before it is recorded, and is undone.
ONE set of table cards is printed for the day: table 1's scorer card, opened on the scorer's phone,
types round 1's counts, and the same card takes that phone to table 1 of round 2 once it is drawn.
Table 2 keeps paper and is signed twice (signed, reopened after the confirmation page, counted
again, signed again): its page still shows the first signature, set aside. At the desk fees are
ticked received and the cash box adds up; the prize list names a winner. The TV is looked at on
the phone, the TV, the cash box and the prizes on a laptop (1280×800).

Screenshots: tests/e2e/screenshots/champday-*.png. The printed pages (the day's cards, the súmula,
the players' cards, the plan) are saved as PDFs next to them (champday-*.pdf).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.sharing_steps import Phones
from tests.e2e.test_championship import button, plan, tap, unlock

pytestmark = pytest.mark.e2e

NAMES = ("Ana", "Bia", "Caio", "Dani", "Edu", "Fabio", "Gil", "Hugo", "Iara")
LAPTOP = {"viewport": {"width": 1280, "height": 800}, "is_mobile": False, "has_touch": False}


@pytest.fixture
def phones(browser, browser_context_args):  # type: ignore[no-untyped-def]
    opened = Phones(browser, browser_context_args)
    yield opened
    opened.close()


def confirming(page: Page) -> None:
    """This phone answers "yes" to every question a form asks (data-confirm) before it posts."""
    page.on("dialog", lambda dialog: dialog.accept())


def printed(page: Page, name: str) -> int:
    """Save the page as the printer would get it (A4); answers its number of pages."""
    SCREENSHOTS.mkdir(exist_ok=True)
    pdf = page.pdf(path=str(SCREENSHOTS / f"{name}.pdf"), format="A4", print_background=True)
    return pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page>>") + pdf.count(b"/Type /Page/")


def type_counts(page: Page, counts: tuple[int, ...]) -> None:
    """On a championship table's page: the paper table's final chips, typed and saved."""
    details = page.locator("details", has=page.locator('input[name^="chips_"]'))
    if not details.evaluate("d => d.open"):
        details.locator("summary").tap()
    inputs = details.locator('input[name^="chips_"]')
    expect(inputs).to_have_count(len(counts))
    for i, n in enumerate(counts):
        inputs.nth(i).fill(str(n))
    assert tap(page, button(page, "Salvar a contagem")) == 200
    expect(page.locator(".balances .balance")).to_have_text([str(n) for n in counts])


def links(page: Page, url: str) -> list[str]:
    page.goto(url)
    return [str(x) for x in page.locator("article[data-link]").evaluate_all("xs => xs.map(x => x.dataset.link)")]


def test_the_committee_runs_the_day(  # type: ignore[no-untyped-def]
    page, phones: Phones, browser, browser_context_args, live_server: str, live_app, shot
) -> None:
    base, boss = live_server, page
    confirming(boss)

    # 1. A new day: Quatrilho preselected, fees and the club's Pix key.
    unlock(boss, base, live_app.config["CLUB_CODE"])
    boss.goto(f"{base}/c/new")
    expect(boss.locator("nav.game-tabs [aria-current=page]")).to_have_text("Quatrilho")
    boss.locator("#c-name").fill("Copa do Pinhão")
    boss.locator("#c-deals").fill("4")
    boss.locator("#c-entry-fee").fill("20")
    boss.locator("#c-reentry-fee").fill("10")
    boss.locator("#c-pix-key").fill("tesouraria@clube.org.br")
    boss.locator("#c-pix-city").fill("Caxias do Sul")
    shot(boss, "champday-01-new")
    assert tap(boss, button(boss, "Criar o campeonato")) == 200
    cid = boss.url.split("/c/")[1].split("/")[0]

    # 2. A setting changed before the draw: two rounds, not five.
    boss.goto(f"{base}/c/{cid}/settings")
    boss.locator("#c-rounds").fill("2")
    shot(boss, "champday-02-settings")
    assert tap(boss, button(boss, "Salvar as configurações")) == 200
    expect(boss.locator(".flash")).to_contain_text("Configurações salvas")

    # 3. Nine players; one name corrected, one player gone home before the draw.
    for name in NAMES:
        boss.locator("#entry-name").fill(name)
        tap(boss, button(boss, "Inscrever com o próximo número"))
    expect(boss.locator("ul.entry-list > li")).to_have_count(len(NAMES))
    tap(boss, boss.locator("ul.entry-list a", has_text="Fabio"))
    boss.locator("#entry-name").fill("Fábio")
    tap(boss, button(boss, "Salvar o nome"))
    boss.goto(f"{base}/c/{cid}/n/9/manage")
    tap(boss, button(boss, "Desistência: tirar dos próximos sorteios"))
    shot(boss, "champday-03-withdrawn")
    boss.goto(f"{base}/c/{cid}/manage")
    entries = boss.locator("ul.entry-list > li")
    expect(entries.nth(5)).to_contain_text("Fábio")
    expect(entries.nth(8)).to_contain_text("Iara")
    expect(entries.nth(8).locator(".entry-mark")).to_be_visible()
    shot(boss, "champday-04-manage")

    # 4. ONE set of table cards for the day, printed before round 1.
    scorer_cards = links(boss, f"{base}/c/{cid}/cards/tables")
    shot(boss, "champday-05-day-cards")
    assert printed(boss, "champday-day-cards") == 1  # eight cards to an A4 page
    fiscal_cards = links(boss, f"{base}/c/{cid}/cards/tables?role=fiscal")
    assert len(scorer_cards) == len(fiscal_cards) == 2  # eight players in play: two tables

    # 5. Round 1: two tables of four, Iara (gone home) not drawn.
    boss.goto(f"{base}/c/{cid}/manage")
    boss.locator("#seed").fill("pinhão 1")
    tap(boss, button(boss, "Sortear as mesas"))
    first = plan(boss, base, cid, 1)
    assert sorted(len(t) for t in first) == [4, 4]
    assert all(name != "Iara" for t in first for _n, name in t)
    number, name = first[0][0]

    # 6. A re-entry: the name before it is recorded, then undone from the player's page.
    boss.goto(f"{base}/c/{cid}/manage")
    boss.locator("#reentry-number").fill(str(number))
    tap(boss, button(boss, "Avançar: de quem é o cartão?"))
    expect(boss.locator("main .lead b")).to_have_text(name)
    shot(boss, "champday-06-reentry-whose")
    tap(boss, button(boss, "Sim: registrar a reentrada"))
    expect(boss.locator(".flash")).to_contain_text(name)
    boss.goto(f"{base}/c/{cid}/n/{number}/manage")
    tap(boss, button(boss, "Desfazer esta reentrada"))
    expect(boss.locator(".flash")).to_contain_text(name)
    expect(button(boss, "Desfazer esta reentrada")).to_have_count(0)
    shot(boss, "champday-07-reentry-undone")

    # 7. Table 1: the scorer's phone opens its card and types the counts; its fiscal signs.
    scorer = phones.open("scorer")
    scorer.goto(scorer_cards[0])
    link = scorer.locator('.table-title a[href*="/c/"]')
    expect(link).to_have_text("Campeonato: mesa 1 da rodada 1")
    tap(scorer, link)
    type_counts(scorer, (130, 110, 90, 70))
    shot(scorer, "champday-08-scorer-counted")
    fiscal = phones.open("fiscal")
    fiscal.goto(fiscal_cards[0])
    tap(fiscal, button(fiscal, "Assinar a mesa"))
    expect(fiscal.locator(".signed")).to_be_visible()

    # 8. Table 2 on paper, signed twice: signed, reopened (asked first), counted again, signed again.
    boss.goto(f"{base}/c/{cid}/r/1/sumula")
    assert printed(boss, "champday-sumula-r1") == 2
    fiscal2 = phones.open("fiscal-2")
    boss.goto(f"{base}/c/{cid}/r/1/m/2")
    type_counts(boss, (100, 100, 100, 100))
    fiscal2.goto(fiscal_cards[1])
    tap(fiscal2, button(fiscal2, "Assinar a mesa"))
    boss.goto(f"{base}/c/{cid}/manage")
    tap(boss, boss.locator("#tables a", has_text="Reabrir").nth(1))
    expect(boss.locator("h1")).to_have_text("Reabrir a mesa 2?")
    shot(boss, "champday-09-reopen-asks")
    boss.locator("#reason").fill("Contagem trocada entre o 3 e o 4")
    tap(boss, button(boss, "Reabrir a mesa"))
    boss.goto(f"{base}/c/{cid}/r/1/m/2")
    type_counts(boss, (120, 100, 95, 85))
    fiscal2.reload()
    tap(fiscal2, button(fiscal2, "Assinar a mesa"))
    expect(fiscal2.locator(".signed")).to_be_visible()
    trail = fiscal2.locator(".table-trail > li")
    expect(trail.filter(has=fiscal2.locator(".tag-void"))).to_have_count(2)  # the first count and signature
    expect(trail.filter(has_text="Contagem trocada")).to_have_count(1)
    shot(fiscal2, "champday-10-signed-twice")

    # 9. Round 2: the same scorer card takes the phone to table 1 of round 2.
    boss.goto(f"{base}/c/{cid}/manage")
    boss.locator("#seed").fill("pinhão 2")
    tap(boss, button(boss, "Sortear as mesas"))
    scorer.goto(scorer_cards[0])
    expect(scorer.locator('.table-title a[href*="/c/"]')).to_have_text("Campeonato: mesa 1 da rodada 2")
    shot(scorer, "champday-11-same-card-round-2")
    boss.goto(f"{base}/c/{cid}/r/2")
    assert printed(boss, "champday-plan-r2") >= 1
    boss.goto(f"{base}/c/{cid}/cards")
    assert printed(boss, "champday-player-cards") == 1  # nine players, ten cards to a page

    # 10. The desk: two entry fees ticked received; the cash box adds up (nine entries × R$ 20).
    boss.goto(f"{base}/c/{cid}/cashbox")
    for _ in range(2):
        tap(boss, boss.locator(".cash-list button[value='1']").first)
    figures = boss.locator(".cash-figures")
    expect(figures.locator(".cash-due dd")).to_have_text("R$\u00a0180,00")
    expect(figures.locator(".cash-left dd")).to_have_text("R$\u00a0140,00")
    shot(boss, "champday-12-cashbox")

    # 11. The prize list with its winner: the best of round 1 (130 chips at table 1).
    boss.goto(f"{base}/c/{cid}/prizes")
    boss.locator("#places").fill("300\n200 + troféu")
    tap(boss, button(boss, "Salvar a tabela de prêmios"))
    top = boss.locator("#winners .prize-list .prize").first
    expect(top.locator(".prize-winners li")).to_have_count(1)
    expect(top.locator(".prize-winners li")).to_contain_text(name)  # 130 chips: the best of the day
    shot(boss, "champday-13-prizes")

    # 12. The TV on the phone, then the TV, the cash box and the prizes on a laptop.
    boss.goto(f"{base}/c/{cid}/tv")
    expect(boss.locator(".wall-rank", has_text="Iara").locator(".entry-mark")).to_have_text("desistiu")
    shot(boss, "champday-14-tv-phone")
    laptop = browser.new_context(**{**browser_context_args, **LAPTOP}, storage_state=boss.context.storage_state())
    try:
        wide = laptop.new_page()
        for path, label in (("tv", "tv"), ("cashbox", "cashbox"), ("prizes", "prizes")):
            wide.goto(f"{base}/c/{cid}/{path}")
            shot(wide, f"champday-15-laptop-{label}")
    finally:
        laptop.close()
    assert not phones.script_errors(), phones.script_errors()
