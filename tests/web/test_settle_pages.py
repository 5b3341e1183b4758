"""What the settle pages (one table's, the club night's) say about the money: each payment's
Pix link opens that payment's own code, and the chips still on a pot game's table are told
where they are and where they go if the night ends now."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from referee import inputs
from referee.extensions import db
from referee.models import Member, Table
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


# --------------------------------------------------------------------------- right-to-left controls

#: Every character that can reorder the text around it: embeddings and overrides, isolates,
#: the directional marks and the Arabic letter mark.
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


def test_names_are_stored_without_bidi_controls_from_the_api_the_form_and_a_rename(
    app: Flask, client: FlaskClient
) -> None:
    table = create_table(client, players=["\u202eBia", "A\u2067na\u2069", "Caio\u200f", "\u061cDani\u202c"])
    assert table["players"] == ["Bia", "Ana", "Caio", "Dani"]
    form = {f"player_{i}": n for i, n in enumerate(["Edu\u202e", "\u2066Fábio", "Gil", "Hugo\u200e"])}
    form["dealer"] = "3"
    assert client.post("/tables/new?game=jubileu", data=form).status_code == 302
    with app.app_context():
        names = {m.name for m in db.session.query(Member)} | {s.name for t in db.session.query(Table) for s in t.seats}
        member = db.session.query(Member).filter_by(name="Gil").one()
        member_id = member.id
    assert not any(ch in BIDI for name in names for ch in name), names
    assert {"Edu", "Fábio", "Hugo"} <= names
    assert client.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302
    assert client.post(f"/players/{member_id}/rename", data={"name": "Gi\u202el"}).status_code == 302
    with app.app_context():
        assert db.session.get(Member, member_id).name == "Gil"


def _stored_with_controls(app: Flask, client: FlaskClient, monkeypatch) -> tuple[dict, list[str]]:
    """A money table whose names were stored with bidi controls (as an old backup or an import
    could bring them): the cleaning is bypassed for its creation only."""
    players = ["\u202eBia", "Ana", "Caio\u202e", "Dani"]
    with monkeypatch.context() as patch:
        patch.setattr(inputs, "strip_bidi", lambda text: text)
        table = create_table(client, players=players, options={"chip_value": "1.00"})
    assert table["players"] == players
    dealer = players[-1]
    for tricks in (7, 9, 3):
        dealer = record_ok(client, table, solo_record(dealer, tricks, players=players))["next_dealer"]
    return table, players


def test_a_stored_name_with_controls_cannot_reorder_a_payment_line_on_the_page(
    app: Flask, client: FlaskClient, monkeypatch
) -> None:
    table, players = _stored_with_controls(app, client, monkeypatch)
    for url in (f"/t/{table['id']}/settle", f"/t/{table['id']}"):
        page = _page(client, url)
        section = page.split('class="transfers', 1)[1].split("</ul>", 1)[0]
        lines = re.findall(r"<li>(.*?)</li>", section, re.S)
        assert lines
        for line in lines:
            bare = re.sub(r"<bdi>.*?</bdi>", "", line, flags=re.S)
            assert not any(ch in BIDI for ch in bare), (url, line)  # every name inside its own <bdi>
            assert len(re.findall(r"<bdi>", line)) == 2, line
    balances = _page(client, f"/t/{table['id']}/settle").split('id="nets-h"', 1)[1].split("</ol>", 1)[0]
    for name in players:
        assert f"<bdi>{name}</bdi>" in balances


def test_a_stored_name_with_controls_cannot_reorder_the_chat_summary(
    app: Flask, client: FlaskClient, monkeypatch
) -> None:
    table, players = _stored_with_controls(app, client, monkeypatch)
    page = _page(client, f"/t/{table['id']}/settle")
    summary = page.split('id="summary-text"', 1)[1].split(">", 1)[1].split("</textarea>", 1)[0]
    payments = [line for line in summary.splitlines() if " paga " in line or " pays " in line]
    assert payments
    for line in payments + [line for line in summary.splitlines() if line.startswith("  ") and ":" in line]:
        # Each name between FSI and PDI: nothing a name holds reaches outside them.
        bare = line
        for name in players:
            bare = bare.replace(f"\u2068{name}\u2069", "")
        assert not any(ch in BIDI for ch in bare), repr(line)
        assert any(f"\u2068{name}\u2069" in line for name in players), repr(line)


# --------------------------------------------------------------------------- chips left on the table

P3 = ["Ana", "Bia", "Caio"]
#: Antes 3 + bets 4 = 7 in the pot, a tie of aces shares 3 each and 1 chip stays on the table.
TIE = {"actions": [["Ana", {"bet": 2}], ["Bia", {"bet": 2}]], "cards": {"Ana": "A", "Bia": "A", "Caio": "K"}}


def _note(page: str) -> str:
    """The text of the note on the chips left on the table (asserting there is exactly one)."""
    found = re.findall(r"<p [^>]*data-chips-left[^>]*>(.*?)</p>", page, re.S)
    assert len(found) == 1, found
    return " ".join(re.sub(r"<[^>]+>", "", found[0]).split())


def test_every_page_with_balances_says_where_the_odd_chip_goes_in_the_same_words(
    app: Flask, client: FlaskClient
) -> None:
    table = create_table(client, game="injun", players=P3, options={"chip_value": "0.50"})
    assert client.post(f"/t/{table['id']}/scorer", data={"token": table["token"]}).status_code == 302
    record_ok(client, table, TIE)
    answer = client.get(f"/api/v1/tables/{table['id']}/settlement").get_json()
    gets = {n: answer["settled_balances"][n] - answer["balances"][n] for n in P3}
    assert answer["on_the_table"] == 1 and gets == {"Ana": 0, "Bia": 1, "Caio": 0}  # Ana deals next: Bia bets first
    notes = {
        url: _note(_page(client, url))
        for url in (
            f"/t/{table['id']}",
            f"/w/{table['id']}",
            f"/tv/{table['id']}",
            f"/t/{table['id']}/history",
            f"/t/{table['id']}/settle",
        )
    }
    sentence = notes[f"/t/{table['id']}"]
    # The same words everywhere; the settle page adds that its results already count the share-out.
    assert all(note.startswith(sentence) for note in notes.values()), notes
    assert notes[f"/t/{table['id']}/settle"] != sentence and len(set(notes.values())) == 2
    # Where the chip is, and where it goes if the night ends now: the code's answer, by name.
    assert re.search(r"\b1 (ficha|chip)\b", sentence) and re.search(r"\b1 (para|to) Bia\b", sentence), sentence
    assert "Ana" not in sentence.split("Bia", 1)[0]  # nobody else is named as getting it
    for url in notes:
        page = _page(client, url)
        assert "primeiros jogadores na ordem" not in page and "first players in order of play" not in page
        assert "zera todos os saldos" not in page and "settle every balance" not in page, url
    # The club night settling it with a money table says it in the same words, under the table's name.
    other = _jubileu(client, ["Ana", "Bia", "Caio", "Dani"], "1.00")
    assert client.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302
    night = _note(_page(client, f"/night/settle?t={table['id']}&t={other['id']}"))
    assert night.endswith(notes[f"/t/{table['id']}/settle"]) and sentence in night, night
    # And the chat summary says it too, in the same words.
    summary = _page(client, f"/t/{table['id']}/settle").split('id="summary-text"', 1)[1].split("</textarea>", 1)[0]
    assert sentence in summary.replace("\u2068", "").replace("\u2069", "")


def test_a_derby_race_nobody_backed_is_told_too_and_no_note_once_the_pot_is_won(client: FlaskClient) -> None:
    table = create_table(client, game="kentucky_derby", players=["Ana", "Bia", "Caio", "Dani"])
    bets = {"Ana": "ouros", "Bia": "espadas", "Caio": "paus", "Dani": "ouros"}
    race = {"pingo": 1, "bets": {n: {"horse": h, "amount": 1} for n, h in bets.items()}, "winner": "copas"}
    record_ok(client, table, race)  # 8 chips nobody backed: 2 each if the night ends now
    sentence = _note(_page(client, f"/t/{table['id']}/settle"))
    assert re.search(r"\b8 (fichas|chips)\b", sentence)
    assert all(re.search(rf"\b2 (para|to) {name}\b", sentence) for name in bets), sentence
    assert sentence.startswith(_note(_page(client, f"/w/{table['id']}")))
    record_ok(client, table, {**race, "bets": {**race["bets"], "Ana": {"horse": "copas", "amount": 1}}})
    for url in (f"/w/{table['id']}", f"/t/{table['id']}/settle"):
        assert "data-chips-left" not in _page(client, url)


def test_a_championship_table_says_nothing_of_the_night_ending(app: Flask) -> None:
    """At a championship table the ranking counts each player's own chips (docs/championship.md):
    a pot left on the table is never shared back, so its pages keep the pot line and no more."""
    from tests.web.championship_support import card_links, create, manager, names_at, register, round_tables

    boss = manager(app)
    cid = create(boss, game="kentucky_derby")
    register(boss, cid, ["Ana", "Bia", "Caio", "Dani", "Edu", "Fábio", "Gil", "Hugo"])
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "sorteio"}).status_code == 302
    row = round_tables(app, cid, 1)[0]
    players = names_at(app, row)
    token = card_links(boss, cid, 1, "scorer")[row.number - 1].rsplit("/", 1)[1]
    race = {"pingo": 1, "bets": {n: {"horse": "ouros", "amount": 1} for n in players}, "winner": "copas"}
    answer = boss.post(f"/api/v1/tables/{row.table_id}/hands", json=race, headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    for url in (f"/w/{row.table_id}", f"/tv/{row.table_id}", f"/t/{row.table_id}/history"):
        page = _page(boss, url)
        assert "pot-line" in page and "data-chips-left" not in page, url
