"""A championship day on 390×844 phones, in Portuguese, through the pages.

The manager's phone (the club's code) creates a Quatrilho championship of 3 rounds of 4 deals,
registers nine players, draws round 1 from a typed seed (a table of five and a table of four),
takes a late entry and a re-entry. The four-player table is recorded hand by hand on its
scorer's phone (from the scorer's card) and signed off on its fiscal's phone; the five-player
table keeps paper: its scorer types the final chips (refused while they do not add up) and its
fiscal signs. A watcher without the club's code has the ranking open all along and sees it
redraw itself. Then round 2 is drawn (nobody meets a round-1 tablemate more often than the
seating forces) and its plan is printed. Screenshots: tests/e2e/screenshots/champ-*.png.

At the four-player table the hand flow is driven with quatrilho_steps, whose names are seat
aliases (seat 0 is "Ana", seat 1 "Bia", ...): the flow's ids and action values are seat indices,
whoever the draw sat there.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from referee.db import db
from referee.models import RoundTable
from tests.e2e.quatrilho_steps import PLAYERS, record_hand
from tests.e2e.sharing_steps import Phones, mark
from tests.e2e.steps import MINUS, Audit, go, stored_hands

pytestmark = pytest.mark.e2e

NAMES = ("Ana", "Bia", "Caio", "Dani", "Edu", "Fábio", "Gil", "Hugo", "Iara")
LATE = "Jonas"
SEED = "bingo 17"
LIVE = 10_000  # ms: the ranking page asks every 1.5 s whether anything moved


@pytest.fixture
def phones(browser, browser_context_args):  # type: ignore[no-untyped-def]
    opened = Phones(browser, browser_context_args)
    yield opened
    opened.close()


@pytest.fixture
def audit(page, axe_check, shot) -> Audit:  # type: ignore[no-untyped-def]
    return Audit(page, axe_check, shot, prefix="champ-a11y")


# --------------------------------------------------------------------------- helpers


def tap(page: Page, locator: Any) -> int:
    """Tap a control that loads a page; answers the page's HTTP status."""
    expect(locator).to_have_count(1)
    with page.expect_navigation() as nav:
        locator.tap()
    page.wait_for_load_state()
    response = nav.value
    return response.status if response is not None else 0


def button(page: Page, label: str) -> Any:
    return page.locator("main").get_by_role("button", name=label, exact=True)


def unlock(page: Page, base: str, code: str) -> None:
    """The manager types the club's code on /club."""
    page.goto(f"{base}/club")
    page.locator("#code").fill(code)
    assert tap(page, page.locator('main form[method="post"] button[type="submit"]')) == 200


def plan(page: Page, base: str, cid: str, round_number: int) -> list[list[tuple[int, str]]]:
    """The round's tables as its plan shows them (in table order): (card number, name) per seat."""
    page.goto(f"{base}/c/{cid}/r/{round_number}")
    return [
        [(int(n), name) for n, name in seats]
        for seats in page.locator("li.plan-table").evaluate_all(
            """ts => ts.map(t => [...t.querySelectorAll('.plan-seats li')].map(
                   li => [li.querySelector('b').textContent.trim(), li.lastChild.textContent.trim()]))"""
        )
    ]


def card_links(page: Page, base: str, cid: str, role: str) -> list[str]:
    """The round-1 cards' links, one per table in table order (what their QR codes encode)."""
    page.goto(f"{base}/c/{cid}/r/1/cards" + ("?role=fiscal" if role == "fiscal" else ""))
    links = page.locator("article[data-link]").evaluate_all("xs => xs.map(x => x.dataset.link)")
    return [str(link) for link in links]


def to_championship_table(page: Page, table: int) -> None:
    """From a Referee table page, the line that says which championship table it is."""
    link = page.locator('.table-title a[href*="/c/"]')
    expect(link).to_have_text(f"Campeonato: mesa {table} da rodada 1")
    go(page, link, tap=True)


def deal(k: int) -> dict[str, Any]:
    """Deal k (0-based) at the four-player table, as record_hand takes it. Seat 3 deals first and
    the deal moves on, so seat k speaks first. Every deal seat 0 calls the 3 of paus, held by
    seat 2: card figures 10, 6, 9, 7 (seats 0 to 3), seat 0 takes the last trick (+3): 22, they
    win P = 7 at the normal rate (the losers took 4 tricks). Seats 0 and 2 +7, seats 1 and 3 −7."""
    order = [(k + j) % 4 for j in range(4)]
    figures, tricks = (10, 6, 9, 7), (3, 2, 3, 2)
    return {
        "answers": ["chamada:0", "card:3:paus", "partner:2"],
        "figures": {PLAYERS[s]: figures[s] for s in order},
        "last": PLAYERS[0],
        "tricks": {PLAYERS[s]: tricks[s] for s in order},
    }


def repeats(tables: Sequence[Sequence[int]], met: set[frozenset[int]]) -> int:
    return sum(1 for t in tables for pair in combinations(t, 2) if frozenset(pair) in met)


def fewest_repeats(players: Sequence[int], sizes: Sequence[int], met: set[frozenset[int]]) -> int:
    """The fewest round-1 pairs any seating of ``players`` at tables of ``sizes`` brings back
    together (brute force, as tests/web/test_championship.py does)."""
    if not sizes:
        return 0
    return min(
        repeats([group], met) + fewest_repeats([p for p in players if p not in group], sizes[1:], met)
        for group in combinations(players, sizes[0])
    )


def counts_stored(live_app: Any, cid: str, table: int) -> Any:
    with live_app.app_context():
        return db.session.query(RoundTable).filter_by(championship_id=cid, round=1, number=table).one().counts


# --------------------------------------------------------------------------- the day


def test_a_championship_day_on_phones(  # type: ignore[no-untyped-def]
    page, phones: Phones, live_server: str, live_app, shot, audit: Audit
) -> None:
    base, boss = live_server, page

    # 1. The manager's phone: the club's code, a Quatrilho championship of 3 rounds of 4 deals.
    unlock(boss, base, live_app.config["CLUB_CODE"])
    boss.goto(f"{base}/c/new")
    go(boss, boss.locator('nav.game-tabs a[href$="game=quatrilho"]'), tap=True)
    expect(boss.locator("nav.game-tabs [aria-current=page]")).to_have_text("Quatrilho")
    boss.locator("#c-name").fill("Copa da Primavera")
    boss.get_by_label("Rodadas", exact=True).fill("3")
    boss.get_by_label("Mãos por rodada").fill("4")
    # One re-entry a round, its chips taken back (the defaults are the regulation's readings).
    boss.get_by_label("Reentradas permitidas por jogador em cada rodada").select_option("1")
    boss.locator('input[name=reentry_points][value="repaid"]').check()
    shot(boss, "champ-01-new")
    assert tap(boss, button(boss, "Criar o campeonato")) == 200
    cid = boss.url.split("/c/")[1].split("/")[0]
    assert boss.url.endswith(f"/c/{cid}/manage")

    # The watcher (no club code) opens the ranking now and keeps it open all day.
    watcher = phones.open("watcher")
    watcher.goto(f"{base}/c/{cid}")
    mark(watcher)
    expect(watcher.locator("main")).not_to_contain_text("Organizar")

    for name in NAMES:
        boss.locator("#entry-name").fill(name)
        tap(boss, button(boss, "Inscrever com o próximo número"))
    expect(boss.locator("ul.entry-list > li")).to_have_count(9)
    expect(boss.locator(".flash")).to_contain_text("Número 9: Iara")

    # 2. Round 1 from a typed seed: a table of five and one of four, and no way in on the plan.
    boss.locator("#seed").fill(SEED)
    assert tap(boss, button(boss, "Sortear as mesas")) == 200
    assert boss.url.endswith(f"/c/{cid}/r/1")
    expect(boss.locator(".plan-head")).to_contain_text(f"Semente do sorteio: {SEED}")
    expect(boss.locator("li.plan-table")).to_have_count(2)
    html = boss.content()
    assert "/j/" not in html and "/f/" not in html
    audit("plan-1", boss)
    first = plan(boss, base, cid, 1)
    assert sorted(len(t) for t in first) == [4, 5]
    four = next(i for i, t in enumerate(first) if len(t) == 4)
    five = 1 - four
    names4 = [name for _n, name in first[four]]

    boss.goto(f"{base}/c/{cid}/manage")
    boss.locator("#entry-name").fill(LATE)
    tap(boss, button(boss, "Inscrever com o próximo número"))
    expect(boss.locator(".flash")).to_have_text(f"Número 10: {LATE}, inscrição atrasada: joga a partir da rodada 2.")

    # 3. A re-entry by card number for a player of the table of five; a second one is refused.
    again, again_name = first[five][0]
    boss.locator("#reentry-number").fill(str(again))
    tap(boss, button(boss, "Avançar: de quem é o cartão?"))
    tap(boss, button(boss, "Sim: registrar a reentrada"))
    expect(boss.locator(".flash")).to_contain_text(again_name)
    boss.goto(f"{base}/c/{cid}/manage")
    boss.locator("#reentry-number").fill(str(again))
    assert tap(boss, button(boss, "Avançar: de quem é o cartão?")) == 422
    expect(boss.locator(".error-box")).to_contain_text(f"{again_name} já fez a reentrada desta rodada")
    shot(boss, "champ-02-reentry-refused")
    boss.goto(f"{base}/c/{cid}/manage")
    audit("manage", boss)

    scorer_links = card_links(boss, base, cid, "scorer")
    fiscal_links = card_links(boss, base, cid, "fiscal")
    assert len(scorer_links) == len(fiscal_links) == 2
    shot(boss, "champ-03-fiscal-cards")

    # 4. The four-player table's scorer: from its card to the table, four deals through the flow.
    scorer = phones.open("scorer")
    scorer.goto(scorer_links[four])
    tid = scorer.url.rsplit("/t/", 1)[1]
    expect(scorer.locator(".table-title")).to_contain_text(f"Campeonato: mesa {four + 1} da rodada 1")
    for k in range(4):
        record_hand(scorer, **deal(k), expect_preview=dict(zip(names4, ("+7", f"{MINUS}7", "+7", f"{MINUS}7"))))
    assert stored_hands(live_app, tid) == 4
    shot(scorer, "champ-04-four-deals")

    # The table has played its deals: its page offers no next hand and says the round is over.
    scorer.goto(f"{base}/t/{tid}")
    expect(scorer.locator("main")).to_contain_text("Esta mesa já jogou as suas 4 mãos: aqui a rodada acabou")
    expect(scorer.locator('a[href$="/hand"]')).to_have_count(0)
    shot(scorer, "champ-05-round-over-at-the-table")
    assert stored_hands(live_app, tid) == 4

    # 5. Its scorer cannot sign (no button, and the POST is refused); its fiscal can.
    scorer.goto(f"{base}/t/{tid}")
    to_championship_table(scorer, four + 1)
    expect(button(scorer, "Assinar a mesa")).to_have_count(0)
    csrf = scorer.locator("meta[name=csrf-token]").get_attribute("content")
    refused = scorer.request.post(f"{base}/c/{cid}/r/1/m/{four + 1}/sign", form={"csrf_token": csrf or ""})
    assert refused.status == 403

    fiscal = phones.open("fiscal")
    fiscal.goto(fiscal_links[four])
    assert fiscal.url.endswith(f"/c/{cid}/r/1/m/{four + 1}")
    chips = fiscal.locator(".balances .balance")
    expect(chips).to_have_text(["128", "72", "128", "72"])
    shot(fiscal, "champ-06-fiscal")
    tap(fiscal, button(fiscal, "Assinar a mesa"))
    expect(fiscal.locator(".signed")).to_contain_text("Assinada pelo fiscal")
    audit("table-signed", fiscal)

    # 6. The table of five keeps paper: counts that do not add up are refused with the gap.
    paper = phones.open("paper")
    paper.goto(scorer_links[five])
    to_championship_table(paper, five + 1)
    paper.locator("details > summary", has_text="Mesa no papel: digite as fichas finais").tap()
    inputs = paper.locator('input[name^="chips_"]')
    expect(inputs).to_have_count(5)
    for typed, words in (((150, 140, 110, 100, 88), "faltam 12"), ((150, 140, 110, 100, 103), "sobram 3")):
        for i, n in enumerate(typed):
            inputs.nth(i).fill(str(n))
        assert tap(paper, button(paper, "Salvar a contagem")) == 422
        expect(paper.locator(".error-box")).to_contain_text(f"a mesa tem 600: {words}")
        assert counts_stored(live_app, cid, five + 1) is None
    shot(paper, "champ-07-counts-refused")
    counts = (150, 140, 110, 100, 100)  # 600: five entries and the re-entry
    for i, n in enumerate(counts):
        inputs.nth(i).fill(str(n))
    tap(paper, button(paper, "Salvar a contagem"))
    expect(paper.locator(".balances .balance")).to_have_text([str(n) for n in counts])

    fiscal5 = phones.open("fiscal-5")
    fiscal5.goto(fiscal_links[five])
    tap(fiscal5, button(fiscal5, "Assinar a mesa"))
    expect(fiscal5.locator(".signed")).to_be_visible()

    # 7. The watcher's ranking redrew itself: every point final, the re-entry repaid.
    totals = ["140", "128", "128", "110", "100", "100", "72", "72", "50", "0"]
    expect(watcher.locator(".ranking .rank-total")).to_have_text(totals, timeout=LIVE)
    expect(watcher.locator(".ranking .is-provisional")).to_have_count(0, timeout=LIVE)
    top = watcher.locator(".ranking .rank-line").first
    expect(top).to_contain_text(first[five][1][1])
    expect(top.locator(".rank-rounds")).to_have_text("R1 140 ★")
    assert watcher.evaluate("window.__notReloaded === true"), "the ranking was reloaded, not redrawn"
    audit("ranking", watcher)

    # 8. Round 2: nobody meets a round-1 tablemate more often than any seating would make them.
    boss.goto(f"{base}/c/{cid}/manage")
    boss.locator("#seed").fill("bingo 18")
    tap(boss, button(boss, "Sortear as mesas"))
    first_numbers = [[n for n, _name in t] for t in plan(boss, base, cid, 1)]
    second = [[n for n, _name in t] for t in plan(boss, base, cid, 2)]
    everyone = sorted(n for t in second for n in t)
    assert everyone == list(range(1, 11))  # the late entry too
    met = {frozenset(pair) for t in first_numbers for pair in combinations(t, 2)}
    sizes = [len(t) for t in second]
    assert repeats(second, met) == fewest_repeats(everyone, sizes, met)
    shot(boss, "champ-08-plan-2")

    # 9. The plan printed: the tables only, no header, no button.
    boss.emulate_media(media="print")
    shot(boss, "champ-09-plan-2-print")
    assert boss.locator("header.site-header").bounding_box() is None
    assert boss.locator("[data-print]").bounding_box() is None
    expect(boss.locator("[data-print]")).not_to_be_visible()
    expect(boss.locator("li.plan-table")).to_have_count(len(second))
    boss.emulate_media(media="screen")

    audit.done()
    assert not phones.script_errors(), phones.script_errors()
