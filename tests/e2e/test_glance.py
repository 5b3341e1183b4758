"""Right at a glance, tapped like a player on a 390×844 phone: the preview says what each player
pays or receives, the contract row names every declarer and the called card, and a phone whose
access was revoked reads why. Every page is checked with axe and for sideways scrolling."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from referee import access, ledger
from tests.e2e.jubileu_steps import PLAYERS, Taps, confirm, create_table, tid_of
from tests.e2e.steps import Audit, expected_for, preview_deltas
from tests.web.api_support import EXAMPLE_RECORD, order_after

pytestmark = pytest.mark.e2e


@pytest.fixture
def audit(page, axe_check, shot) -> Audit:  # type: ignore[no-untyped-def]
    return Audit(page, axe_check, shot, prefix="glance")


def nets(page: Any) -> dict[str, str]:
    """Name → the net in words on the preview ("paga 4 fichas"), empty for a player left even."""
    rows = page.locator(".preview-deltas li").evaluate_all(
        "rows => rows.map(r => [r.querySelector('.who').textContent.trim(),"
        " (r.querySelector('.net') || {textContent: ''}).textContent.trim()])"
    )
    return dict(rows)


def test_the_preview_says_who_pays_and_who_receives(page, live_server, audit, console_errors) -> None:  # type: ignore[no-untyped-def]
    create_table(page, live_server, tap=True)
    taps = Taps(page)
    # Solo Sete by Ana (the first speaker), 9 tricks: 4 chips from each of the three others.
    taps.on(page.locator('.suit-links a[href*="ultima=copas"]'))
    for value in ("aces:none", "call:0:solo_sete", "call:1:passo", "call:2:passo", "call:3:passo", "trump:espadas"):
        taps.press(value)
    for i, count in enumerate((9, 2, 1)):
        page.fill(f"#f-t{i}", str(count))
    taps.press("tricks")
    expect(page.locator(".preview-deltas")).to_be_visible()
    assert nets(page) == {
        "Ana": "recebe 12 fichas",
        "Bia": "paga 4 fichas",
        "Caio": "paga 4 fichas",
        "Dani": "paga 4 fichas",
    }
    assert preview_deltas(page) == expected_for(PLAYERS, Ana=12, Bia=-4, Caio=-4, Dani=-4)
    # One line per player: no line per pair of players ("Bia paga 4 a Ana").
    assert not re.search(r"paga \d+ a ", page.locator("main").inner_text())
    audit("preview")
    confirm(page, tap=True)
    expect(page.locator("#hand-1 .hand-contract")).to_contain_text("Solo Sete")
    audit("after")
    audit.done()
    assert console_errors == []


def test_the_contract_row_names_every_declarer_and_the_called_card(  # type: ignore[no-untyped-def]
    page, live_app, live_server, audit, console_errors
) -> None:
    client = live_app.test_client()
    table = client.post("/api/v1/tables", json={"game": "jubileu", "players": list(PLAYERS)}).get_json()
    tid, token = table["id"], {"Authorization": f"Bearer {table['token']}"}
    jogo = {**EXAMPLE_RECORD, "aces": {"Caio": 4}}  # four aces: Caio calls a king
    answer = client.post(f"/api/v1/tables/{tid}/hands", json=jogo, headers=token)
    assert answer.status_code == 201, answer.get_data(as_text=True)
    first, second, third, fourth = order_after(answer.get_json()["next_dealer"])
    meia = {
        "ultima": "copas",
        "auction": [[first, "meia_miseria"], [second, "passo"], [third, "meia_miseria"], [fourth, "passo"]],
        "tricks": {first: 1, second: 6, third: 1, fourth: 5},
    }
    answer = client.post(f"/api/v1/tables/{tid}/hands", json=meia, headers=token)
    assert answer.status_code == 201, answer.get_data(as_text=True)
    page.goto(f"{live_server}/t/{tid}/history")
    expect(page.locator("#hand-1 .hand-contract")).to_contain_text("Caio + Bia (Rei de paus)")
    row = page.locator("#hand-2 .hand-contract")
    expect(row).to_contain_text(f"Meia Miséria · {first} e {third}")
    audit("history")
    audit.done()
    assert console_errors == []


def test_a_revoked_phone_reads_why_and_where_to_go(  # type: ignore[no-untyped-def]
    page, live_app, live_server, audit, console_errors
) -> None:
    table = live_app.test_client().post("/api/v1/tables", json={"game": "jubileu", "players": list(PLAYERS)})
    tid = table.get_json()["id"]
    with live_app.app_context():  # the owner's share page makes a link for Bia (tested in test_sharing)
        row, token = access.create_link(ledger.get_table(tid), "Bia")
    page.goto(f"{live_server}/j/{token}")
    assert tid_of(page) == tid
    expect(page.locator(f'a[href="/t/{tid}/hand"]').first).to_be_visible()  # Bia scores
    with live_app.app_context():  # then the owner revokes it
        assert access.revoke(ledger.get_table(tid), row.id)
    response = page.goto(f"{live_server}/t/{tid}")
    assert response is not None and response.status == 403
    expect(page.locator("h1")).to_have_text("Acesso cancelado")
    expect(page.locator("main")).to_contain_text("O acesso deste celular foi cancelado pelo dono da mesa.")
    audit("revoked")
    page.locator(f'a[href="/w/{tid}"]').tap()
    page.wait_for_url(f"**/w/{tid}")
    expect(page.locator(".scoreboard")).to_be_visible()
    audit.done()
    assert [e for e in console_errors if "403" not in e] == []
