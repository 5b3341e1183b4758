"""The end of a night: the session clock, closing a table and its settle-up (nets in chips and
money, the fewest payments, the summary to share), and a club night settling several tables
together by club member."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal
from html import unescape

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from referee import settleup
from referee.extensions import db
from referee.models import Table
from tests.web.api_support import API, auth, create_table, get_table, record_ok, solo_record


def _page(client: FlaskClient, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    return response.get_data(as_text=True)


def _owner(client: FlaskClient, table: dict) -> None:
    """Make this client the table's owner (the scorer code claims it)."""
    response = client.post(f"/t/{table['id']}/scorer", data={"token": table["token"]})
    assert response.status_code == 302


def _jubileu_night(client: FlaskClient, **fields) -> dict:
    table = create_table(client, **fields)
    dealer = "Dani"
    for _ in range(3):
        answer = record_ok(client, table, solo_record(dealer))
        dealer = answer["next_dealer"]
    return table


# --------------------------------------------------------------------------- the clock


def test_a_table_created_with_an_agreed_time_answers_its_clock(client: FlaskClient) -> None:
    table = create_table(client, duration_minutes=120)
    clock = get_table(client, table["id"])["clock"]
    assert clock["over"] is False and 119 <= clock["left"] <= 120
    assert get_table(client, create_table(client, players=["A", "B", "C", "D"])["id"])["clock"] is None


def test_the_agreed_time_is_checked(client: FlaskClient) -> None:
    for bad in (5, 2000, "two hours", True, -30):
        response = client.post(
            f"{API}/tables",
            json={"game": "jubileu", "players": ["Ana", "Bia", "Caio", "Dani"], "duration_minutes": bad},
        )
        assert response.status_code == 400, bad
        assert response.get_json()["error"]["field"] == "duration_minutes"
    with client.application.app_context():
        assert db.session.scalar(select(Table.id)) is None  # nothing stored


def test_the_board_shows_the_time_left_then_says_to_start_the_last_round(app: Flask, client: FlaskClient) -> None:
    table = create_table(client, duration_minutes=90)
    _owner(client, table)
    page = _page(client, f"/t/{table['id']}")
    assert "data-clock-ends" in page and "1 h 30 min" in page
    with app.app_context():
        row = db.session.get(Table, table["id"])
        row.ends_at = row.created_at - timedelta(minutes=1)
        db.session.commit()
    page = _page(client, f"/t/{table['id']}")
    assert "Time's up" in page or "O tempo acabou" in page or "acabou" in page
    assert "last-round" in page


def test_a_scorer_starts_and_stops_the_clock(app: Flask, client: FlaskClient) -> None:
    table = create_table(client)
    _owner(client, table)
    assert client.post(f"/t/{table['id']}/clock", data={"minutes": "60"}).status_code == 302
    assert get_table(client, table["id"])["clock"]["left"] == 60
    assert client.post(f"/t/{table['id']}/clock", data={"minutes": "0"}).status_code == 302
    assert get_table(client, table["id"])["clock"] is None
    # The page's "stop" button: the browser sends the time still chosen in the list with it.
    client.post(f"/t/{table['id']}/clock", data={"minutes": "60"})
    page = _page(client, f"/t/{table['id']}")
    assert 'name="stop" value="1"' in page
    assert client.post(f"/t/{table['id']}/clock", data={"minutes": "30", "stop": "1"}).status_code == 302
    assert get_table(client, table["id"])["clock"] is None
    other = client.application.test_client()
    assert other.post(f"/t/{table['id']}/clock", data={"minutes": "60"}).status_code == 401


def test_the_new_table_form_takes_the_agreed_time(client: FlaskClient) -> None:
    form = {f"player_{i}": n for i, n in enumerate(["Ana", "Bia", "Caio", "Dani"])}
    form.update(dealer="3", duration="180")
    response = client.post("/tables/new?game=jubileu", data=form)
    assert response.status_code == 302
    table_id = response.headers["Location"].rsplit("/", 1)[-1]
    assert get_table(client, table_id)["clock"]["left"] == 180


# --------------------------------------------------------------------------- settle-up


def test_closing_a_table_freezes_it_and_shows_the_settle_up(client: FlaskClient) -> None:
    table = _jubileu_night(client, options={"chip_value": "0.50"})
    _owner(client, table)
    response = client.post(f"/t/{table['id']}/end", data={"confirm": "1"})
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/t/{table['id']}/settle")
    page = re.sub(r"</?bdi>", "", _page(client, f"/t/{table['id']}/settle"))  # names are isolated
    totals = get_table(client, table["id"])["totals"]
    transfers = client.get(f"{API}/tables/{table['id']}/settlement").get_json()["transfers"]
    for t in transfers:
        assert (
            f"{t['from']} pays {t['amount']} to {t['to']}" in page
            or f"{t['from']} paga {t['amount']} a {t['to']}" in page
        )
    assert "R$" in page  # nets and payments in money too
    assert re.search(r"(Minimum|Mínimo)", page)
    assert 'id="summary-text"' in page and "data-copy" in page and "data-print" in page
    # Frozen: no more hands, still readable.
    assert (
        client.post(f"{API}/tables/{table['id']}/hands", json=solo_record("Dani"), headers=auth(table)).status_code
        == 409
    )
    assert get_table(client, table["id"])["totals"] == totals


def test_the_summary_names_the_best_result_and_every_payment(app: Flask, client: FlaskClient) -> None:
    table = _jubileu_night(client, options={"chip_value": "0.25"})
    with app.test_request_context():
        row = db.session.get(Table, table["id"])
        result = settleup.settle_up([row])
        text = settleup.summary(result, title="Sexta", when="hoje")
    totals = get_table(client, table["id"])["totals"]
    best = max(totals, key=lambda n: totals[n])
    assert best in text.splitlines()[1]
    assert len([line for line in text.splitlines() if " paga " in line or " pays " in line]) == len(result.payments)
    assert sum(result.balances.values()) == 0
    assert result.money is not None and result.money[best] == Decimal("0.25") * totals[best]


def test_a_payment_to_a_member_with_a_pix_key_shows_a_pix_code(app: Flask, client: FlaskClient) -> None:
    table = _jubileu_night(client, options={"chip_value": "1.00"})
    totals = get_table(client, table["id"])["totals"]
    payee = max(totals, key=lambda n: totals[n])
    with app.app_context():
        row = db.session.get(Table, table["id"])
        member = next(s.member for s in row.seats if s.name == payee)
        member.pix_key = "ana@example.com"
        member.pix_city = "PORTO ALEGRE"
        db.session.commit()
    page = _page(client, f"/t/{table['id']}/settle")
    assert "br.gov.bcb.pix" in page and "ana@example.com" in page
    assert page.count('class="qr"') >= 1


# --------------------------------------------------------------------------- club night


def test_a_club_night_settles_a_player_at_two_tables_once(app: Flask, client: FlaskClient) -> None:
    first = _jubileu_night(client, options={"chip_value": "0.50"})
    second = create_table(
        client, game="jubileu", players=["ana", "Edu", "Fábio", "Gil"], options={"chip_value": "1.00"}
    )
    record_ok(
        client,
        second,
        {
            "ultima": "copas",
            "auction": [["ana", "solo_sete"], ["Edu", "passo"], ["Fábio", "passo"], ["Gil", "passo"]],
            "trump": "espadas",
            "tricks": {"ana": 8, "Edu": 2, "Fábio": 2, "Gil": 1},
        },
    )
    assert client.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302  # the whole evening
    index = _page(client, "/night")
    assert first["id"] in index and second["id"] in index
    page = _page(client, f"/night/settle?t={first['id']}&t={second['id']}")
    one = get_table(client, first["id"])["totals"]
    two = get_table(client, second["id"])["totals"]
    ana_cents = int(Decimal("0.50") * one["Ana"] * 100 + Decimal("1.00") * two["ana"] * 100)
    with app.test_request_context():
        tables = [db.session.get(Table, first["id"]), db.session.get(Table, second["id"])]
        result = settleup.settle_up(tables)
    assert result.in_money and result.balances["Ana"] == ana_cents  # one person, "ana" at the second table
    assert "ana" not in result.balances
    assert sum(result.balances.values()) == 0
    with app.test_request_context():
        apart = sum(len(settleup.settle_up([t]).payments) for t in tables)
    assert len(result.payments) <= apart  # settling together never takes more payments
    assert len(result.payments) <= result.owing - 1
    assert "Ana" in page


def test_tables_of_different_games_without_money_are_refused_with_a_sentence(client: FlaskClient) -> None:
    jub = _jubileu_night(client)
    qua = create_table(client, game="quatrilho", players=["Ana", "Bia", "Caio", "Dani"])
    page = _page(client, f"/night/settle?t={jub['id']}&t={qua['id']}", status=422)
    assert "money value" in page or "valor em dinheiro" in page
    assert "unknown" not in _page(client, f"/night/settle?t={jub['id']}&t=nope", status=422)
    _page(client, "/night/settle", status=422)


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_the_last_round_counts_down_in_plain_words_then_offers_no_next_hand(app: Flask, client: FlaskClient) -> None:
    """ "Última rodada! Faltam 4 mãos.", down to "Falta 1 mão."; once the last deal is in, the
    page says the round is over and neither offers the next hand nor says the round is still on."""
    table = create_table(client, duration_minutes=60)
    _owner(client, table)
    client.set_cookie("lang", "pt_BR")
    with app.app_context():
        row = db.session.get(Table, table["id"])
        row.ends_at = row.created_at - timedelta(minutes=1)  # time is up
        db.session.commit()
    assert client.post(f"/t/{table['id']}/last-round", data={"on": "1"}).status_code == 302
    page = _text(_page(client, f"/t/{table['id']}"))
    assert "Última rodada! Faltam 4 mãos." in page and "na última rodada" not in page
    dealer = "Dani"
    for left in (3, 2, 1, 0):
        dealer = record_ok(client, table, solo_record(dealer))["next_dealer"]
        html = _page(client, f"/t/{table['id']}")
        page = _text(html)
        if left == 1:
            assert "Última rodada! Falta 1 mão." in page
        elif left:
            assert f"Última rodada! Faltam {left} mãos." in page
    assert "A última rodada acabou." in page
    assert "já está valendo" not in page and "Anotar a próxima mão" not in page
    assert f'href="/t/{table["id"]}/hand"' not in html
