"""A club's address, ``/k/<slug>/`` (referee/clubs.py): every page of the club is served under
it and every address a page holds stays under it; the server's first club is also at the root,
as before clubs; an unknown club's address is a page that says so, drawn from the root."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from .api_support import API, PLAYERS, solo_record
from .test_access import all_pass_form

CLUB = "/k/clube"
#: Every address a page holds: links, forms, scripts, styles, and what a script fetches.
_ADDRESS = re.compile(r'(?:href|action|src|data-[a-z-]*url|data-sw)="(/[^"]*)"')


def _addresses(html: str) -> set[str]:
    return set(_ADDRESS.findall(html))


def _table(client: FlaskClient, prefix: str) -> dict[str, Any]:
    made = client.post(f"{prefix}{API}/tables", json={"game": "jubileu", "players": PLAYERS})
    assert made.status_code == 201, made.get_data(as_text=True)
    answer: dict[str, Any] = made.get_json()
    return answer


def _pages(table_id: str) -> list[str]:
    return [
        "/",
        "/tables/new",
        "/league",
        "/league/jubileu",
        "/night",
        "/players",
        "/exports",
        "/c",
        "/club",
        f"/t/{table_id}",
        f"/w/{table_id}",
        f"/t/{table_id}/history",
        f"/t/{table_id}/settle",
        f"/t/{table_id}/hand",
        "/offline",
    ]


def test_every_page_of_the_first_club_is_served_at_its_address_and_links_only_inside_it(
    client: FlaskClient,
) -> None:
    table = _table(client, CLUB)
    assert client.post(f"{CLUB}/t/{table['id']}/scorer", data={"token": table["token"]}).status_code == 302
    assert table["urls"]["table"].endswith(f"{CLUB}/t/{table['id']}")
    hand = client.post(
        f"{CLUB}{API}/tables/{table['id']}/hands",
        json=solo_record("Dani"),
        headers={"Authorization": f"Bearer {table['token']}"},
    )
    assert hand.status_code == 201
    assert hand.headers["Location"].endswith(f"{CLUB}{API}/tables/{table['id']}/hands/1")
    for page in _pages(table["id"]):
        inside, root = client.get(CLUB + page), client.get(page)
        assert inside.status_code == root.status_code, page
        if inside.status_code in (301, 302, 303):
            assert inside.headers["Location"].startswith(CLUB + "/"), page
            continue
        assert inside.status_code == 200, page
        addresses = _addresses(inside.get_data(as_text=True))
        assert addresses, page
        outside = {a for a in addresses if not a.startswith(CLUB + "/") and a != "/sw.js"}
        assert not outside, (page, outside)
        # The same page at the root: the same addresses (a ``next`` in them too), without the prefix.
        assert {a.replace(CLUB, "") for a in addresses if a != "/sw.js"} == {
            a for a in _addresses(root.get_data(as_text=True)) if a != "/sw.js"
        }, page


def test_the_service_worker_is_the_server_s_one_whatever_club_s_page_registers_it(client: FlaskClient) -> None:
    """One worker for the whole site (its scope is "/"): a club's page registers the root's."""
    page = client.get(f"{CLUB}/").get_data(as_text=True)
    assert 'data-sw="/sw.js"' in page
    assert client.get("/sw.js").status_code == 200


def test_a_hand_saved_in_a_club_s_address_comes_back_to_it(app: Flask, client: FlaskClient) -> None:
    table = _table(client, CLUB)
    scorer = app.test_client()
    joined = scorer.post(f"{CLUB}/t/{table['id']}/scorer", data={"token": table["token"]})
    assert joined.headers["Location"].startswith(f"{CLUB}/t/{table['id']}")
    saved = scorer.post(f"{CLUB}/t/{table['id']}/hand/all-pass", data=all_pass_form(1, "k1"))
    assert saved.status_code == 302 and saved.headers["Location"] == f"{CLUB}/t/{table['id']}"
    assert "Mão 1 anotada." in scorer.get(saved.headers["Location"]).get_data(as_text=True)


def test_an_unknown_club_s_address_says_so_and_links_to_the_root(client: FlaskClient) -> None:
    for address in ("/k/nada/", "/k/nada/league", "/k/Nada_Mal/t/x", "/k/nada"):
        answer = client.get(address)
        assert answer.status_code == 404, address
        html = answer.get_data(as_text=True)
        assert "Não há clube neste endereço." in html
        addresses = _addresses(html)
        assert addresses and not [a for a in addresses if a.startswith("/k/")], addresses
    api = client.get(f"/k/nada{API}/tables/x")
    assert api.status_code == 404
    assert api.get_json()["error"]["message"] == "Não há clube neste endereço."


def test_the_root_of_a_one_club_server_is_unchanged(client: FlaskClient) -> None:
    table = _table(client, "")
    assert table["urls"]["table"].endswith(f"/t/{table['id']}") and "/k/" not in table["urls"]["table"]
    assert not [a for a in _addresses(client.get("/").get_data(as_text=True)) if a.startswith("/k/")]
