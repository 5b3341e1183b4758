"""A table's id is the permission to read it, and its settle page carries the payees' Pix keys:
no page or API answer readable without the club's code may hand out the id of a table this phone
has no access to. A phone has access to a table it holds a token for or has already opened; a
phone that typed the club's code sees every table, as before.

Runs on SQLite and on PostgreSQL (TEST_DATABASE_URL).
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from referee.extensions import db
from referee.models import Member

from .api_support import API, create_table, record_ok, solo_record


def _page(client: FlaskClient, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    return response.get_data(as_text=True)


def _played(client: FlaskClient, **fields: Any) -> dict[str, Any]:
    """A Jubileu table with one hand, made through the API (so no phone knows it yet)."""
    table = create_table(client, options={"chip_value": "0.50"}, **fields)
    record_ok(client, table, solo_record("Dani"))
    return table


def _unlock(app: Flask, client: FlaskClient) -> None:
    assert client.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302


def _ana(app: Flask) -> int:
    with app.app_context():
        found = db.session.scalar(select(Member.id).where(Member.name == "Ana"))
        assert found is not None
        return int(found)


# --------------------------------------------------------------------------- the club night


def test_the_club_night_lists_only_the_tables_this_phone_knows(app: Flask) -> None:
    maker = app.test_client()
    theirs, mine = _played(maker, name="Mesa deles"), _played(maker, name="Minha mesa")
    phone = app.test_client()
    phone.set_cookie("lang", "en")
    html = _page(phone, "/night")
    assert theirs["id"] not in html and mine["id"] not in html
    assert "Mesa deles" not in html and "Minha mesa" not in html
    assert "club's code" in html.replace("&#39;", "'").replace("’", "'")
    assert "/club?next=" in html  # where to type it, coming back to this evening

    _page(phone, f"/t/{mine['id']}")  # this phone opens one table: now it knows it
    html = _page(phone, "/night")
    assert mine["id"] in html and "Minha mesa" in html
    assert theirs["id"] not in html and "Mesa deles" not in html


def test_a_phone_holding_a_token_sees_its_table_on_the_club_night(app: Flask) -> None:
    phone = app.test_client()
    table = _played(app.test_client())
    assert phone.post(f"/t/{table['id']}/scorer", data={"token": table["token"]}).status_code == 302
    assert table["id"] in _page(phone, "/night")


def test_the_club_code_shows_every_table_of_the_evening(app: Flask) -> None:
    one, two = _played(app.test_client()), _played(app.test_client())
    manager = app.test_client()
    _unlock(app, manager)
    html = _page(manager, "/night")
    assert one["id"] in html and two["id"] in html
    assert "/club?next=" not in html


# --------------------------------------------------------------------------- a player's page


def test_a_player_s_page_links_only_to_tables_this_phone_knows(app: Flask) -> None:
    theirs, mine = _played(app.test_client(), name="Mesa deles"), _played(app.test_client(), name="Minha mesa")
    ana = _ana(app)
    phone = app.test_client()
    html = _page(phone, f"/players/{ana}")
    assert theirs["id"] not in html and mine["id"] not in html
    assert "Mesa deles" in html and "Minha mesa" in html  # the history still names them

    _page(phone, f"/w/{mine['id']}")  # opened through the read-only link
    html = _page(phone, f"/players/{ana}")
    assert f'href="/t/{mine["id"]}"' in html
    assert theirs["id"] not in html

    manager = app.test_client()
    _unlock(app, manager)
    html = _page(manager, f"/players/{ana}")
    assert f'href="/t/{theirs["id"]}"' in html and f'href="/t/{mine["id"]}"' in html


# --------------------------------------------------------------------------- league and API


def test_the_league_pages_and_answers_carry_no_table_id(app: Flask) -> None:
    table = _played(app.test_client())
    stranger = app.test_client()
    for url in ("/league/jubileu?season=all", "/league/seasons", "/players", f"{API}/league/jubileu/standings"):
        assert table["id"] not in _page(stranger, url), url


def test_a_season_s_export_needs_the_club_code(app: Flask) -> None:
    """Every table of a season, ids included: the club's business, like an import."""
    table = _played(app.test_client())
    manager = app.test_client()
    _unlock(app, manager)
    assert (
        manager.post(
            "/league/seasons", data={"name": "Ano", "starts_on": "2000-01-01", "ends_on": "2999-12-31"}
        ).status_code
        == 302
    )
    stranger = app.test_client()
    for suffix in ("export", "export.csv"):
        refused = stranger.get(f"{API}/seasons/1/export" if suffix == "export" else f"{API}/seasons/1/export.csv")
        assert refused.status_code == 401, suffix
        assert table["id"] not in refused.get_data(as_text=True)
        assert refused.get_json()["error"]["code"] == "unauthorized"
        headers = {"X-Referee-Club-Code": app.config["CLUB_CODE"]}
        allowed = stranger.get(f"{API}/seasons/1/{suffix}", headers=headers)
        assert allowed.status_code == 200 and table["id"] in allowed.get_data(as_text=True)
        # A phone that typed the club's code downloads it from the browser too.
        assert manager.get(f"{API}/seasons/1/{suffix}").status_code == 200


def test_a_new_table_id_never_starts_with_a_minus(monkeypatch: Any) -> None:
    """A spreadsheet opening the CSV export would take ``-abc`` for a formula; such an id is drawn
    again rather than carried with an apostrophe."""
    from referee import access

    drawn = iter(["-firstDrawStartsWithMinus", "_secondDrawIsFine_______"])
    monkeypatch.setattr(access.secrets, "token_urlsafe", lambda n: next(drawn))
    assert access.new_table_id() == "_secondDrawIsFine_______"
