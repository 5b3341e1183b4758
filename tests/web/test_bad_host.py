"""A request whose Host header is malformed (a space, a control character, an unclosed "[", a
port past 65535) or not one the config trusts answers 400 with a sentence, on every page and on
the API, and the error page renders: no link or QR code is ever drawn from a host like that."""

from __future__ import annotations

import pytest
from flask import Flask

BAD_HOSTS = ["exa mple..com:99999", "example.com:99999", "a\x01b", "[::1", "ex<ample>.com", "host:port"]
SENTENCE = "The address this page was asked for is malformed"


@pytest.fixture
def pages(app: Flask) -> list[str]:
    client = app.test_client()
    made = client.post(
        "/tables/new?game=jubileu",
        data={"player_0": "Ana", "player_1": "Bia", "player_2": "Caio", "player_3": "Dani", "dealer": "3"},
    )
    table = made.headers["Location"].rsplit("/", 1)[1]
    return ["/", "/nope", "/club", "/tables/new", f"/t/{table}", f"/t/{table}/share", f"/w/{table}", f"/tv/{table}"]


@pytest.mark.parametrize("host", BAD_HOSTS)
def test_a_malformed_host_is_refused_with_a_sentence(app: Flask, pages: list[str], host: str) -> None:
    client = app.test_client()
    client.set_cookie("lang", "en")
    for page in pages:
        answer = client.get(page, headers={"Host": host})
        assert answer.status_code == 400, page
        assert SENTENCE in answer.get_data(as_text=True), page


def test_the_api_refuses_it_in_its_own_shape(app: Flask) -> None:
    client = app.test_client()
    client.set_cookie("lang", "en")
    answer = client.get("/api/v1/games", headers={"Host": "[::1"})
    assert answer.status_code == 400
    assert SENTENCE in answer.get_json()["error"]["message"]


def test_an_untrusted_host_gets_the_same_page(make_app) -> None:
    app = make_app({"TRUSTED_HOSTS": ["club.example"]})
    client = app.test_client()
    assert client.get("/", headers={"Host": "club.example"}).status_code == 200
    client.set_cookie("lang", "en", domain="evil.example")
    answer = client.get("/", headers={"Host": "evil.example"})
    assert answer.status_code == 400 and SENTENCE in answer.get_data(as_text=True)


def test_a_good_host_with_a_port_is_served(client) -> None:
    assert client.get("/", headers={"Host": "192.168.0.10:8000"}).status_code == 200
    assert client.get("/", headers={"Host": "[::1]:8000"}).status_code == 200
