"""A slip mended at the table, at 390x844 in pt-BR: the history numbers the hands 1..N in play
order, a void hand takes no number, and a hand corrected in a few taps keeps its place and number
("Mão 2" + "corrigida"), with what it was before one tap away; the header counts what is shown."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.jubileu_steps import PLAYERS, Taps
from tests.e2e.steps import Audit
from tests.e2e.test_end_of_night import CLAIM
from tests.web.api_support import solo_record

pytestmark = pytest.mark.e2e


@pytest.fixture
def audit(page, axe_check, shot) -> Audit:  # type: ignore[no-untyped-def]
    return Audit(page, axe_check, shot, prefix="fix")


def _table_with_a_void(live_app: Any) -> dict[str, Any]:
    """Three solos recorded through the API, the second voided (a misdeal)."""
    client = live_app.test_client()
    table = client.post("/api/v1/tables", json={"game": "jubileu", "players": list(PLAYERS)}).get_json()
    auth = {"Authorization": f"Bearer {table['token']}"}
    dealer = "Dani"
    for tricks in (9, 7, 6):
        answer = client.post(f"/api/v1/tables/{table['id']}/hands", json=solo_record(dealer, tricks), headers=auth)
        assert answer.status_code == 201, answer.get_data(as_text=True)
        dealer = answer.get_json()["next_dealer"]
    voided = client.post(f"/api/v1/tables/{table['id']}/hands/2/void", json={"reason": "mão mal dada"}, headers=auth)
    assert voided.status_code == 200
    return dict(table)


def heads(page: Any) -> list[str]:
    """What each hand of the list says at its head, top level, as read on the screen."""
    return [
        " ".join(t.split())
        for t in page.locator("section.card > ol.hands > li > .hand-head").evaluate_all(
            "hs => hs.map(h => h.innerText)"
        )
    ]


def test_a_correction_keeps_its_number_and_shows_what_it_was(page, live_app, live_server, audit) -> None:  # type: ignore[no-untyped-def]
    base = live_server
    table = _table_with_a_void(live_app)
    tid = table["id"]
    page.goto(f"{base}/t/{tid}")
    with page.expect_navigation():
        page.evaluate(CLAIM, [tid, table["token"]])
    page.goto(f"{base}/t/{tid}")
    # Two hands count; the next is the third.
    expect(page.locator("main p.muted.small", has_text="mãos").first).to_have_text("2 mãos")
    expect(page.locator("#next-h")).to_have_text("Mão 3")
    page.goto(f"{base}/t/{tid}/history")
    assert heads(page) == [
        "Mão 2 Solo Sete ♠ · Caio — 6 vazas, não fez",
        "Solo Sete ♠ · Bia — 7 vazas, fez anulada",
        "Mão 1 Solo Sete ♠ · Ana — 9 vazas, fez",
    ]
    audit("history")

    # Caio took 7, not 6: correct hand 2 in four taps (correct, change the tricks, 7, save).
    taps = Taps(page)
    taps.on(page.locator('#hand-3 a[href$="replaces=3"]'))
    expect(page.locator("main h1")).to_have_text("Corrigir a mão 2")
    expect(page.locator("main dl")).to_contain_text("Caio 6")  # every value it had
    audit("correct-opened")
    taps.press("back:tricks")
    taps.press("side:7")
    expect(page.locator(".preview-deltas")).to_be_visible()
    page.fill("#reason", "Caio fez 7")  # asked, as a void asks
    taps.on(page.locator('form[action$="/hand"] button[type="submit"]'))
    assert taps.count == 4
    page.wait_for_url(f"{base}/t/{tid}")
    expect(page.locator(".flash-success")).to_contain_text("A mão 2 foi corrigida.")
    expect(page.locator("main p.muted.small", has_text="mãos").first).to_have_text("2 mãos")
    expect(page.locator("#next-h")).to_have_text("Mão 3")

    page.goto(f"{base}/t/{tid}/history")
    assert heads(page) == [
        "Mão 2 Solo Sete ♠ · Caio — 7 vazas, fez corrigida",
        "Solo Sete ♠ · Bia — 7 vazas, fez anulada",
        "Mão 1 Solo Sete ♠ · Ana — 9 vazas, fez",
    ]
    expect(page.locator("main p.muted.small", has_text="mãos").first).to_have_text("2 mãos")
    before = page.locator("#hand-4 details.before")
    expect(before.locator("#hand-3")).to_be_hidden()
    before.locator("> summary").tap()
    expect(before.locator("#hand-3")).to_be_visible()
    expect(before.locator("#hand-3 .hand-head")).to_contain_text("6 vazas, não fez")
    audit("history-corrected")
    audit.done()


def test_one_tap_on_a_count_opens_it_with_every_count_as_stored(page, live_app, live_server, shot) -> None:  # type: ignore[no-untyped-def]
    """A Solo Sete stored trick by trick: the correction shows every player's count; a tap on
    the declarer's count opens the tricks with the stored counts (the pad's 6 marked, each
    player's stepper as it was), and one tap on 7 corrects it."""
    client = live_app.test_client()
    table = client.post("/api/v1/tables", json={"game": "jubileu", "players": list(PLAYERS)}).get_json()
    tid, auth = table["id"], {"Authorization": f"Bearer {table['token']}"}
    record = solo_record("Dani", 6)
    assert client.post(f"/api/v1/tables/{tid}/hands", json=record, headers=auth).status_code == 201
    page.goto(f"{live_server}/t/{tid}")
    with page.expect_navigation():
        page.evaluate(CLAIM, [tid, table["token"]])
    page.goto(f"{live_server}/t/{tid}/hand?replaces=1")
    declarer = record["auction"][0][0]
    counts = ", ".join(f"{p} {record['tricks'][p]}" for p in PLAYERS)
    expect(page.locator("main dl")).to_contain_text(counts)
    taps = Taps(page)
    taps.on(page.locator(f'.summary button[value="back:tricks:{PLAYERS.index(declarer)}"]'))
    expect(page.locator("#step-h")).to_contain_text(declarer)
    expect(page.locator('.tricks-pad button[aria-pressed="true"]')).to_have_text("6")
    for i, name in enumerate(PLAYERS):
        expect(page.locator(f"#f-t{i}")).to_have_value(str(record["tricks"][name]))
    shot(page, "fix-count-reopened")
    taps.press("side:7")
    expect(page.locator(".preview-deltas")).to_be_visible()
    # Only spaces pass the browser's `required`: the server asks why, in its own words.
    page.fill("#reason", "   ")
    page.locator('form[action$="/hand"] button[type="submit"]').click()
    expect(page.locator("#reason-err")).to_have_text("Diga por que corrigir a mão: o motivo fica no histórico.")
    expect(page.locator("#reason")).to_have_attribute("aria-invalid", "true")
    shot(page, "fix-correction-reason")
    page.fill("#reason", "contamos mal")
    taps.on(page.locator('form[action$="/hand"] button[type="submit"]'))
    page.wait_for_url(f"{live_server}/t/{tid}")
    assert taps.count == 3
    stored = client.get(f"/api/v1/tables/{tid}/hands/2").get_json()["record"]
    assert stored["declarer_tricks"] == 7 and "tricks" not in stored
