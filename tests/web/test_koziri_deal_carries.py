"""What the Koziri deal helper was told (the suits, the cards turned up) carries into the
"record a hand" page and the answer checker of the same table's same hand, on the phone that
scores there; never to the next hand, another table, another dealer, or a watcher's phone."""

from __future__ import annotations

import html as html_text
import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from referee import ledger

from .api_support import create_table

SUITS = {"dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "ouros"}
OTHER = {"dealer_trump": "paus", "dealer_second": "ouros", "opponent_trump": "copas"}


def scoring_table(client: FlaskClient) -> str:
    """A Koziri table (Ana, Bia; Bia deals first) this client scores at."""
    table = create_table(client, game="koziri", players=["Ana", "Bia"], language="en")
    client.post(f"/t/{table['id']}/scorer", data={"token": table["token"]})
    return str(table["id"])


def told(client: FlaskClient, tid: str, suits: dict[str, str] = SUITS, **extra: Any) -> str:
    turned = "K" + suits["dealer_trump"][0]  # the king of the dealer's trump ("Ke", "Kp")
    response = client.get("/koziri/deal", query_string={"t": tid, "step": "hands", **suits, "c": [turned], **extra})
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return html_text.unescape(response.get_data(as_text=True))


def hand_page(client: FlaskClient, tid: str, **query: str) -> tuple[dict[str, Any], str]:
    response = client.get(f"/t/{tid}/hand", query_string=query)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    raw = re.search(r'name="d" value="([^"]*)"', page)
    assert raw is not None
    return json.loads(html_text.unescape(raw.group(1))), page


def checked_trumps(client: FlaskClient, tid: str) -> dict[str, str]:
    page = client.get("/koziri/answer", query_string={"t": tid}).get_data(as_text=True)
    return dict(re.findall(r'name="(dealer_trump|opponent_trump)" value="(\w+)"[^>]*checked', page))


def test_the_hand_form_starts_from_the_suits_told_and_asks_only_the_winner(app: Flask, client: FlaskClient) -> None:
    tid = scoring_table(client)
    page = told(client, tid)
    assert f'href="/t/{tid}/hand"' in page  # "record this hand", one tap from the deal
    draft, html = hand_page(client, tid)
    assert draft["v"] == SUITS
    assert re.findall(r'name="action" value="set:winner:(\w+)"', html) == ["0", "1"]  # Ana, Bia
    draft, html = hand_page(client, tid, d=json.dumps(draft), action="set:winner:0")
    assert "preview-deltas" in html
    assert client.post(f"/t/{tid}/hand", data={"d": json.dumps(draft)}).status_code == 302
    with app.app_context():
        [hand] = ledger.all_hands(ledger.get_table(tid))
        assert {k: hand.record[k] for k in SUITS} == SUITS and hand.record["winner"] == "Ana"


def test_the_answer_checker_starts_from_the_trumps_told(client: FlaskClient) -> None:
    tid = scoring_table(client)
    assert checked_trumps(client, tid) == {}
    told(client, tid)
    assert checked_trumps(client, tid) == {"dealer_trump": "espadas", "opponent_trump": "ouros"}
    # Trumps in the link win over what was told.
    page = client.get("/koziri/answer", query_string={"t": tid, "dealer_trump": "paus"}).get_data(as_text=True)
    assert 'name="dealer_trump" value="paus" checked' in page and 'value="ouros" checked' not in page


def test_the_next_hand_asks_again(client: FlaskClient) -> None:
    tid = scoring_table(client)
    told(client, tid)
    draft, _html = hand_page(client, tid)
    draft, _html = hand_page(client, tid, d=json.dumps(draft), action="set:winner:1")
    assert client.post(f"/t/{tid}/hand", data={"d": json.dumps(draft)}).status_code == 302
    draft, html = hand_page(client, tid)
    assert draft.get("v", {}) == {} and 'value="set:dealer_trump:' in html
    assert checked_trumps(client, tid) == {}


def test_another_table_or_another_dealer_is_not_prefilled(client: FlaskClient) -> None:
    tid, other = scoring_table(client), scoring_table(client)
    told(client, tid)
    assert hand_page(client, other)[0].get("v", {}) == {}
    told(client, other, OTHER)
    assert hand_page(client, tid)[0]["v"] == SUITS and hand_page(client, other)[0]["v"] == OTHER
    told(client, tid, OTHER, dealer="Ana")  # the last deal told is Ana's, not this hand's dealer (Bia)
    assert hand_page(client, tid)[0].get("v", {}) == {}


def test_a_draft_under_way_keeps_its_own_answers(client: FlaskClient) -> None:
    tid = scoring_table(client)
    draft, _html = hand_page(client, tid, action="set:dealer_trump:paus")
    told(client, tid)
    draft, _html = hand_page(client, tid, d=json.dumps(draft))
    assert draft["v"] == {"dealer_trump": "paus"}


def test_a_watcher_neither_writes_nor_reads_the_deal(app: Flask, client: FlaskClient) -> None:
    tid = scoring_table(client)
    told(client, tid)
    watcher = app.test_client()
    told(watcher, tid, OTHER)  # the helper works for anyone, and remembers nothing for a watcher
    assert checked_trumps(watcher, tid) == {}
    assert f'href="/t/{tid}/hand"' not in told(watcher, tid, OTHER)
    assert watcher.get(f"/t/{tid}/hand").status_code == 401
    assert hand_page(client, tid)[0]["v"] == SUITS  # the scorer's phone is untouched
