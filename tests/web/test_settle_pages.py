"""What the settle pages (one table's, the club night's) say about the money: each payment's
Pix link opens that payment's own code, and the chips still on a pot game's table are told
where they are and where they go if the night ends now."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from referee.extensions import db
from referee.models import Member
from tests.web.api_support import create_table, record_ok, solo_record


def _page(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return html.unescape(response.get_data(as_text=True))


def _jubileu(client: FlaskClient, players: list[str], value: str) -> dict:
    """Three solos at a money table: Bia ends owed most, Ana owed twice (by Caio and by Dani)."""
    table = create_table(client, players=players, options={"chip_value": value})
    dealer = players[-1]
    for tricks in (7, 9, 3):
        dealer = record_ok(client, table, solo_record(dealer, tricks))["next_dealer"]
    return table


def _give_key(app: Flask, name: str) -> None:
    with app.app_context():
        member = db.session.query(Member).filter_by(name=name).one()
        member.pix_key, member.pix_city = f"{name.lower()}@example.com", "Recife"
        db.session.commit()


def _pix_links(page: str) -> list[tuple[str, str]]:
    """Each payment line that has a Pix link: (the line's text, the id its link opens)."""
    lines = re.findall(r"<li>(.*?)</li>", page.split('id="pay-h"', 1)[1].split("</ul>", 1)[0], re.S)
    found = []
    for line in lines:
        link = re.search(r'href="#([^"]+)"', line)
        if link:
            found.append((re.sub(r"<[^>]+>|\s+", " ", line.split("<a", 1)[0]).strip(), link.group(1)))
    return found


def _heading(page: str, element_id: str) -> str:
    """The text of the heading with ``element_id`` (a Pix block's), asserting there is one."""
    found = re.findall(rf'<h3 id="{re.escape(element_id)}">(.*?)</h3>', page, re.S)
    assert len(found) == 1, f"no single block #{element_id}"
    return found[0]


def _assert_links_open_their_own_code(page: str, payee: str) -> None:
    links = _pix_links(page)
    assert links, "no Pix link"
    for line, target in links:
        heading = _heading(page, target)
        # "Caio paga 6 a Ana (R$ 6,00)": the block is Ana's, for R$ 6,00.
        assert line.split("(")[0].split()[-1] == payee and payee in heading, (line, heading)
        amount = re.search(r"R\$\s?[\d.,]+", line)
        assert amount is not None and amount.group(0).replace("\xa0", " ") in heading.replace("\xa0", " ")
    assert len({target for _, target in links}) == len(links)


def test_each_pix_link_opens_its_own_payees_code_when_a_payee_without_key_comes_first(
    app: Flask, client: FlaskClient
) -> None:
    table = _jubileu(client, ["Ana", "Bia", "Caio", "Dani"], "1.00")
    _give_key(app, "Ana")  # Bia, owed most, has no key and is paid first
    page = _page(client, f"/t/{table['id']}/settle")
    assert page.index("Bia") < page.index("ana@example.com")
    assert len(_pix_links(page)) == 2  # Caio → Ana and Dani → Ana, each its own code
    _assert_links_open_their_own_code(page, "Ana")


def test_each_pix_link_opens_its_own_payees_code_on_the_club_night(app: Flask, client: FlaskClient) -> None:
    first = _jubileu(client, ["Ana", "Bia", "Caio", "Dani"], "1.00")
    second = _jubileu(client, ["Ana", "Bia", "Caio", "Dani"], "0.50")
    _give_key(app, "Ana")
    assert client.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302
    page = _page(client, f"/night/settle?t={first['id']}&t={second['id']}")
    assert len(_pix_links(page)) >= 1
    _assert_links_open_their_own_code(page, "Ana")
