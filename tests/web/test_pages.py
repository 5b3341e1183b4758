"""The HTML pages through the test client: the recording flow's retries and conflicts, undo,
and odd input that must never become a 500 (the browser suite covers the happy paths)."""

from __future__ import annotations

import gzip
import json
import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import ledger

from .api_support import API

PLAYERS = ["Ana", "Bia", "Caio", "Dani"]
FORM = {
    "player_0": "Ana",
    "player_1": "Bia",
    "player_2": "Caio",
    "player_3": "Dani",
    "dealer": "3",
    "opt_starting_chips": "0",
    "opt_chip_value": "0",
    "opt_overtricks": "y",
    "opt_overtricks_in_partnerships": "y",
}


def new_table(client: FlaskClient, **fields: str) -> str:
    response = client.post("/tables/new?game=jubileu", data={**FORM, **fields})
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/t/", 1)[1]


def _draft_in(html: str) -> str:
    """The draft a flow page carries in its hidden ``d`` field (HTML-unescaped)."""
    raw = re.search(r'name="d" value="([^"]*)"', html)
    assert raw is not None, html[:500]
    return json.dumps(json.loads(unescape(raw.group(1))))


def draft_for_solo(client: FlaskClient, table_id: str) -> str:
    """Walk the flow to the preview of a Solo Sete by the first speaker; answer the draft."""
    query: dict[str, str] = {}
    for action in [
        "ultima:copas",
        "aces:none",
        "call:0:solo_sete",
        "call:1:passo",
        "call:2:passo",
        "call:3:passo",
        "trump:espadas",
    ]:
        html = client.get(f"/t/{table_id}/hand", query_string={**query, "action": action}).get_data(as_text=True)
        query = {"d": _draft_in(html)}
    html = client.get(
        f"/t/{table_id}/hand", query_string={**query, "action": "tricks", "t0": "9", "t1": "2", "t2": "1", "t3": ""}
    ).get_data(as_text=True)
    assert f'action="/t/{table_id}/hand"' in html  # the preview's confirm form
    return _draft_in(html)


def hands(app: Flask, table_id: str) -> list[tuple[int, bool]]:
    with app.app_context():
        return [(h.number, h.is_void) for h in ledger.all_hands(ledger.get_table(table_id))]


def test_a_double_tap_on_confirm_stores_one_hand_and_shows_no_error(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    d = draft_for_solo(client, tid)
    first = client.post(f"/t/{tid}/hand", data={"d": d})
    second = client.post(f"/t/{tid}/hand", data={"d": d})
    assert first.status_code == 302 and second.status_code == 302
    assert hands(app, tid) == [(1, False)]


def test_a_hand_recorded_meanwhile_by_another_phone_can_still_be_saved_as_the_next(
    app: Flask, client: FlaskClient
) -> None:
    tid = new_table(client)
    d = draft_for_solo(client, tid)  # started while hand 1 was next, Dani dealing
    with app.app_context():
        table = ledger.get_table(tid)
        record = {"ultima": "ouros", "auction": [[p, "passo"] for p in PLAYERS]}
        ledger.record_hand(table, record)  # another phone records hand 1 first
    conflict = client.post(f"/t/{tid}/hand", data={"d": d})
    assert conflict.status_code == 409
    page = conflict.get_data(as_text=True)
    assert 'name="renumber"' in page  # the entered hand is offered, not lost
    again = client.post(f"/t/{tid}/hand", data={"d": d, "renumber": "1"})
    assert again.status_code == 302
    assert hands(app, tid) == [(1, False), (2, False)]
    with app.app_context():
        assert ledger.get_hand(ledger.get_table(tid), 2).dealer == "Dani"  # as entered


def test_undo_is_offered_for_this_phone_s_last_hand_only(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    client.post(f"/t/{tid}/hand", data={"d": draft_for_solo(client, tid)})
    assert f"/t/{tid}/hands/1/undo" in client.get(f"/t/{tid}").get_data(as_text=True)
    # a correction is not undone by "undo": the bar is gone and a forged undo is refused
    html = client.get(f"/t/{tid}/hand", query_string={"replaces": "1"}).get_data(as_text=True)
    assert client.post(f"/t/{tid}/hand", data={"d": _draft_in(html), "reason": "wrong tricks"}).status_code == 302
    assert hands(app, tid) == [(1, True), (2, False)]
    assert "/undo" not in client.get(f"/t/{tid}").get_data(as_text=True)
    client.post(f"/t/{tid}/hands/2/undo")
    assert hands(app, tid) == [(1, True), (2, False)]


@pytest.mark.parametrize(
    "query",
    [
        {"action": "call:²:passo"},
        {"replaces": "²"},
        {"replaces": "9" * 5000},
        {"action": "tricks", "t0": "²"},
        {"action": "tricks", "t0": "9" * 5000},
        {"d": '{"ultima":["x"]}'},
        {"d": '{"ultima":"copas","aces":{},"direct":true,"contract":"x"}'},
        {"d": '{"ultima":"copas","aces":{},"direct":true,"contract":{"bid":["x"],"declarers":[]}}'},
        {"d": '{"ultima":"copas","aces":{},"calls":[["Ana","solo_sete"]],"trump":"zz","called":["x"]}'},
        {"d": "[1,2]"},
        {"d": '{"aces":{"Ana":7},"calls":5,"tricks":{"Ana":"x"}}'},
    ],
)
def test_odd_links_never_crash_the_flow(client: FlaskClient, query: dict[str, str]) -> None:
    tid = new_table(client)
    assert client.get(f"/t/{tid}/hand", query_string=query).status_code in (200, 404)


@pytest.mark.parametrize("d", ['{"key":5}', '{"ultima":"copas","aces":{},"n":"x","reason":7}', "not json"])
def test_odd_drafts_on_save_never_crash(client: FlaskClient, d: str) -> None:
    tid = new_table(client)
    assert client.post(f"/t/{tid}/hand", data={"d": d}).status_code in (302, 409, 422)


def test_odd_new_table_values_are_refused_with_a_sentence(client: FlaskClient) -> None:
    for value in ("²", "9" * 5000, "-3"):
        response = client.post("/tables/new?game=jubileu", data={**FORM, "opt_starting_chips": value})
        assert response.status_code == 422
        assert "field-error" in response.get_data(as_text=True)
    assert (
        client.post(f"{API}/tables", json={"game": "jubileu", "players": PLAYERS, "language": ["x"]}).status_code == 400
    )


def test_a_too_long_void_reason_is_a_sentence_not_a_500(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    client.post(f"/t/{tid}/hand", data={"d": draft_for_solo(client, tid)})
    response = client.post(f"/t/{tid}/hands/1/void", data={"reason": "x" * 300})
    assert response.status_code == 422
    assert hands(app, tid) == [(1, False)]


def test_home_never_lists_unknown_tables(app: Flask, client: FlaskClient) -> None:
    other = client.post(f"{API}/tables", json={"game": "jubileu", "players": PLAYERS, "name": "Secreta"}).get_json()
    fresh = app.test_client()
    assert "Secreta" not in fresh.get("/").get_data(as_text=True)
    assert other["id"] not in fresh.get("/").get_data(as_text=True)


def test_the_session_cookie_stays_small_after_many_tables(client: FlaskClient) -> None:
    for _ in range(40):
        new_table(client)
    cookie = client.get_cookie("session")
    assert cookie is not None and len(cookie.value) < 3000


def test_compression_leaves_pages_and_ranges_alone(client: FlaskClient) -> None:
    gz = {"Accept-Encoding": "gzip"}
    assert "Content-Encoding" not in client.get("/", headers=gz).headers  # BREACH: pages carry the CSRF token
    # What the page's script asks for is: another site cannot make a browser send X-Swap.
    tap = client.get("/", headers={**gz, "X-Swap": "true", "X-Swap-Main": "true"})
    assert tap.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in tap.headers["Vary"]
    assert gzip.decompress(tap.data).decode().lstrip().startswith("<title>")
    css = client.get("/static/css/app.css", headers=gz)
    assert css.headers["Content-Encoding"] == "gzip"
    again = client.get("/static/css/app.css", headers={**gz, "If-None-Match": css.headers["ETag"]})
    assert again.status_code == 304
    ranged = client.get("/static/js/app.js", headers={**gz, "Range": "bytes=0-99"})
    assert ranged.status_code == 206 and "Content-Encoding" not in ranged.headers and len(ranged.data) == 100
