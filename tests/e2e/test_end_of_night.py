"""The end of a night in the browser, at 390x844: close a table, see the payments (with a Pix
code), copy the summary for the chat; open the standings and a player's chart. axe on each."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee.extensions import db
from referee.models import Member
from tests.bench import hands as jubileu_hands
from tests.e2e.steps import Audit

pytestmark = pytest.mark.e2e

SEATS = ("Lia", "Mauro", "Nina", "Otto")


@pytest.fixture
def audit(page, axe_check, shot) -> Audit:  # type: ignore[no-untyped-def]
    return Audit(page, axe_check, shot, prefix="night")


def _played_table(live_app) -> dict:  # type: ignore[no-untyped-def]
    """A Jubileu table with a money value and five hands, recorded through the API."""
    api = live_app.test_client()
    table = api.post(
        "/api/v1/tables",
        json={"game": "jubileu", "players": list(SEATS), "name": "Sexta", "options": {"chip_value": "0.50"}},
    ).get_json()
    for k in range(5):
        response = api.post(
            f"/api/v1/tables/{table['id']}/hands",
            json=jubileu_hands.record(SEATS, k),
            headers={"Authorization": f"Bearer {table['token']}"},
        )
        assert response.status_code == 201, response.get_data(as_text=True)
    table["settlement"] = api.get(f"/api/v1/tables/{table['id']}/settlement").get_json()
    winner = max(table["settlement"]["balances"], key=lambda n: table["settlement"]["balances"][n])
    with live_app.app_context():
        member = db.session.query(Member).filter_by(name_key=winner.casefold()).one()
        member.pix_key, member.pix_city = "lia@example.com", "Curitiba"
        db.session.commit()
    table["winner"] = winner
    return table


#: What a program that created a table does to open it on a phone with its token: post it to
#: /t/<id>/scorer (with the page's CSRF token). No page shows or asks for that token.
CLAIM = """([tid, token]) => {
    const form = Object.assign(document.createElement("form"), {method: "post", action: `/t/${tid}/scorer`});
    const csrf = document.querySelector("meta[name=csrf-token]")?.content ?? "";
    for (const [name, value] of [["token", token], ["csrf_token", csrf]]) {
        form.append(Object.assign(document.createElement("input"), {type: "hidden", name, value}));
    }
    document.body.append(form);
    form.submit();
}"""


def test_close_a_table_settle_copy_the_summary_then_read_the_league(
    page, context, live_server, live_app, audit
) -> None:  # type: ignore[no-untyped-def]
    base = live_server
    table = _played_table(live_app)
    tid = table["id"]

    # The program that created the table opens it on this phone with its token (no page asks
    # for it: POST /t/<id>/scorer is for API clients); the owner closes it.
    page.goto(f"{base}/t/{tid}")
    with page.expect_navigation():
        page.evaluate(CLAIM, [tid, table["token"]])
    page.goto(f"{base}/t/{tid}/settle")
    audit("settle-open")
    page.locator('form[action$="/end"] button[type=submit]').click()
    page.wait_for_url(f"**/t/{tid}/end?")  # it asks first (a GET form: no fields, an empty query)
    audit("close-ask")
    page.locator('form[method=post][action$="/end"] button[type=submit]').click()
    page.wait_for_url(f"**/t/{tid}/settle")

    # Frozen, with the payments the API gives and a Pix code for the winner.
    expect(page.locator(".match-over")).to_be_visible()
    transfers = table["settlement"]["transfers"]
    expect(page.locator(".transfers li")).to_have_count(len(transfers))
    for t in transfers:
        expect(page.locator(".transfers")).to_contain_text(t["from"])
    if any(t["to"] == table["winner"] for t in transfers):
        expect(page.locator(".pix svg.qr").first).to_be_visible()
        assert "br.gov.bcb.pix" in page.locator(".pix textarea").first.input_value()
    audit("settle-closed")

    # The summary for the chat: the copy button puts the textarea's text on the clipboard.
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    summary = page.locator("#summary-text").input_value()
    assert table["winner"] in summary.splitlines()[1]
    page.locator('[data-copy="#summary-text"]').click()
    expect(page.locator('[data-copy="#summary-text"]')).to_have_text(
        page.locator('[data-copy="#summary-text"]').get_attribute("data-copied") or ""
    )
    assert page.evaluate("navigator.clipboard.readText()") == summary

    # The table page says it is closed and offers no new hand.
    page.goto(f"{base}/t/{tid}")
    expect(page.locator(f'a[href$="/t/{tid}/hand"]')).to_have_count(0)

    # The standings, then a player's page with his chart.
    page.goto(f"{base}/league/jubileu?season=all")
    expect(page.locator("table.standings")).to_be_visible()
    audit("standings")
    page.locator("table.standings a", has_text=table["winner"]).click()
    page.wait_for_load_state()
    expect(page.locator("svg.chart").first).to_be_visible()
    audit("player")

    page.goto(f"{base}/night")
    expect(page.locator(f'input[name="t"][value="{tid}"]')).to_be_checked()
    # Other browser tests may have played tables today: settle ours alone.
    for box in page.locator('input[name="t"]').all():
        box.set_checked(box.get_attribute("value") == tid)
    page.locator('form[action$="/night/settle"] button[type=submit]').click()
    page.wait_for_load_state()
    expect(page.locator(".transfers li")).to_have_count(len(transfers))
    audit("night")
    audit.done()
