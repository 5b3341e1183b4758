"""Anyone may make a club from the server's home page when the server allows it.

Off by default (only the operator makes clubs). On, the home page at the server's root offers it;
the answer shows the club's address and its code once, and that code makes a phone the club's
manager there. A network makes a few clubs a day at most, the whole server a bounded number: the
refusal says so in a sentence, and nothing is made.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from referee import clubs
from referee.db import db
from referee.models import Club

from .club_support import add_club, phone_at

HOME_NET = {"REMOTE_ADDR": "203.0.113.7"}


def _make(client: FlaskClient, name: str, net: dict[str, str] = HOME_NET) -> tuple[int, str]:
    answer = client.post("/clubs/new", data={"name": name}, environ_base=net)
    return answer.status_code, answer.get_data(as_text=True)


def _slugs(app: Flask) -> list[str]:
    with app.app_context():
        found = db.session.scalars(select(Club.slug).order_by(Club.id)).all()
        db.session.remove()
        return list(found)


def test_nobody_but_the_operator_makes_clubs_unless_the_server_allows_it(client: FlaskClient) -> None:
    assert "/clubs/new" not in client.get("/").get_data(as_text=True)
    assert client.get("/clubs/new").status_code == 404
    assert client.post("/clubs/new", data={"name": "Bolinha"}).status_code == 404


def test_a_club_made_from_the_home_page_shows_its_address_and_code_once(app: Flask, client: FlaskClient) -> None:
    app.config["OPEN_CLUBS"] = True
    client.set_cookie("lang", "pt_BR")
    home = client.get("/").get_data(as_text=True)
    assert 'href="/clubs/new"' in home and "Criar um clube" in home
    assert client.get("/clubs/new").status_code == 200
    status, page = _make(client, "  Clube   do Bolinha ")
    assert status == 200
    address = re.search(r"data-club-address>([^<]+)<", page)
    code = re.search(r"data-club-code>([^<]+)<", page)
    assert address and code
    assert address.group(1) == "http://localhost/k/clube-do-bolinha/"
    assert re.fullmatch(r"\d{4} \d{4} \d{4}", code.group(1)) and "Anote agora" in page
    assert _slugs(app) == ["clube", "clube-do-bolinha"]
    # At the club's address: its name in the header, no offer to make clubs, and its code unlocks it.
    phone = phone_at(app, "clube-do-bolinha")
    there = phone.get("/").get_data(as_text=True)
    assert "Clube do Bolinha</span>" in there and "/clubs/new" not in there
    assert phone.get("/clubs/new").status_code == 404
    assert phone.post("/club", data={"code": code.group(1)}).status_code == 302
    # The first club at its own prefix offers nothing either.
    assert "/clubs/new" not in phone_at(app, "clube").get("/").get_data(as_text=True)


def test_a_club_needs_a_name(app: Flask, client: FlaskClient) -> None:
    app.config["OPEN_CLUBS"] = True
    client.set_cookie("lang", "pt_BR")
    for name in ("", "   ", "x" * 81):
        status, page = _make(client, name)
        assert status == 422 and "O nome do clube precisa ter de 1 a 80 caracteres." in page
    status, page = _make(client, "!!!")
    assert status == 422 and "letras minúsculas, algarismos e hífens" in page
    assert _slugs(app) == ["clube"]


def test_a_network_makes_a_few_clubs_a_day_and_the_server_a_bounded_number(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.config["OPEN_CLUBS"] = True
    client.set_cookie("lang", "pt_BR")
    add_club(app, "do-operador")  # the operator's clubs do not count
    for n in range(clubs.OPEN_PER_NETWORK):
        assert _make(client, f"Clube {n}")[0] == 200
    status, page = _make(client, "Mais um")
    assert status == 429 and "Esta rede já criou 3 clubes hoje: tente de novo amanhã." in page
    assert _make(client, "Vizinho", {"REMOTE_ADDR": "198.51.100.9"})[0] == 200
    monkeypatch.setattr(clubs, "OPEN_PER_DAY", clubs.OPEN_PER_NETWORK + 1)
    status, page = _make(client, "Outro vizinho", {"REMOTE_ADDR": "198.51.100.10"})
    assert status == 429 and "Este servidor já criou hoje todos os clubes" in page
    assert len(_slugs(app)) == 2 + clubs.OPEN_PER_NETWORK + 1
