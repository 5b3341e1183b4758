"""Text no database can store never reaches one: a NUL (PostgreSQL's text refuses it) or a lone
surrogate (it has no UTF-8 form) in a form field, a query, an address, a JSON body or an imported
file is refused where the request comes in, with a 400 and a sentence, and nothing is stored. Run
on PostgreSQL too (TEST_DATABASE_URL), where these were server errors."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from referee.extensions import db
from referee.models import Championship, Hand, Member, Season, Table
from tests.web.api_support import API, create_table, record_ok, solo_record

SENTENCE = "a character no text can hold"


def _count(app: Flask, model: Any) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model)) or 0


def _manager(app: Flask) -> FlaskClient:
    phone = app.test_client()
    phone.set_cookie("lang", "en")
    assert phone.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302
    return phone


def _refused(answer: Any) -> None:
    assert answer.status_code == 400, (answer.status_code, answer.get_data(as_text=True)[:300])
    assert SENTENCE in answer.get_data(as_text=True)


@pytest.mark.parametrize("bad", ["Verão\x00", "\x00"])
def test_a_season_named_with_a_nul_is_refused(app: Flask, bad: str) -> None:
    phone = _manager(app)
    _refused(phone.post("/league/seasons", data={"name": bad, "starts_on": "2026-01-01", "ends_on": "2026-06-30"}))
    assert _count(app, Season) == 0


def test_every_form_refuses_a_nul_and_stores_nothing(app: Flask) -> None:
    phone = _manager(app)
    players = {f"player_{i}": name for i, name in enumerate(["Ana", "Bia", "Caio", "Da\x00ni"])}
    _refused(phone.post("/tables/new?game=jubileu", data={**players, "dealer": "3"}))
    _refused(phone.post("/tables/new?game=jubileu", data={**players, "player_3": "Dani", "name": "x\x00"}))
    assert _count(app, Table) == 0
    _refused(phone.post("/c/new", data={"name": "Copa\x00", "game": "quatrilho"}))
    assert _count(app, Championship) == 0
    _refused(phone.post("/club", data={"code": "\x00"}))
    # A field's name is text of the request too.
    _refused(phone.post("/tables/new?game=jubileu", data={**players, "player_3": "Dani", "x\x00": "1"}))
    assert (_count(app, Table), _count(app, Member)) == (0, 0)


@pytest.mark.parametrize("path", ["/t/%00abc", "/w/abc%00", "/players?q=%00", "/league/seasons?season=%00", "/c/%00"])
def test_a_nul_in_an_address_is_refused(client: FlaskClient, path: str) -> None:
    client.set_cookie("lang", "en")
    _refused(client.get(path))


def test_a_nul_in_a_json_body_is_refused(app: Flask, client: FlaskClient) -> None:
    client.set_cookie("lang", "en")
    answer = client.post(f"{API}/tables", json={"game": "jubileu", "players": ["Ana", "Bia", "Caio", "Dani\x00"]})
    assert answer.status_code == 400 and SENTENCE in answer.get_json()["error"]["message"]
    assert _count(app, Table) == 0


@pytest.mark.parametrize("broken", ["\\ud800", "\\udc00na", "\\u0000"])
def test_an_import_file_with_broken_text_is_refused_and_stores_nothing(app: Flask, broken: str) -> None:
    phone = _manager(app)
    table = create_table(phone, name="Mesa do Zé")
    record_ok(phone, table, solo_record("Dani"))
    document = phone.get(f"{API}/tables/{table['id']}/export").get_json()
    document["tables"][0]["id"] = "B" * 22
    text = json.dumps(document).replace('"Mesa do Z\\u00e9"', f'"Mesa{broken}"').replace("Mesa do Zé", f"Mesa{broken}")
    assert broken in text
    before = _count(app, Table), _count(app, Hand)
    answer = phone.post(
        "/exports/import", data={"file": (io.BytesIO(text.encode()), "mesa.json")}, content_type="multipart/form-data"
    )
    assert answer.status_code == 400, answer.get_data(as_text=True)[:300]
    assert SENTENCE in answer.get_data(as_text=True) and "Nothing was imported." in answer.get_data(as_text=True)
    assert (_count(app, Table), _count(app, Hand)) == before
    api = phone.post(
        f"{API}/import",
        data=text,
        content_type="application/json",
        headers={"X-Referee-Club-Code": app.config["CLUB_CODE"]},
    )
    assert api.status_code == 400 and "NUL" in api.get_json()["error"]["message"]
    assert (_count(app, Table), _count(app, Hand)) == before


def test_the_command_line_import_refuses_broken_text_and_stores_nothing(app: Flask, tmp_path) -> None:
    """A file with a lone surrogate (JSON can write one) is refused whole before anything is
    written, with the reason, never a traceback."""
    client = app.test_client()
    table = create_table(client, name="Mesa do Zé")
    document = client.get(f"{API}/tables/{table['id']}/export").get_json()
    document["tables"][0]["id"] = "D" * 22
    path = tmp_path / "mesa.json"
    path.write_text(json.dumps(document).replace("Mesa do Z\\u00e9", "Mesa\\ud800"))
    before = _count(app, Table)
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code != 0 and "lone surrogate" in result.output, result.output
    assert _count(app, Table) == before
