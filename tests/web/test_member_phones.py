"""A phone that knows whose it is: a manager's one-time link binds a phone to a member.

That phone shows her own page (her tables, results, ratings, her next championship table) and
sets her own Pix key without the club's code; the manager sees her phones and revokes any of
them; the link binds one phone once, within its hours, at its own club only.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update

from referee import member_phones
from referee.db import db
from referee.models import Member, MemberPhone, utcnow

from .championship_support import create, manager, register
from .club_support import add_club, phone_at
from .test_ratings import play, table_of

PLAYERS = ("Maria", "Bia", "Caio", "Dani")


@pytest.fixture
def club_night(app: Flask) -> dict:
    """A manager's phone, a table Maria played, and Maria's member id."""
    boss = manager(app)
    boss.set_cookie("lang", "pt_BR")
    play(boss, table_of(boss, "jubileu", PLAYERS), "jubileu", PLAYERS, range(3))
    with app.app_context():
        maria = db.session.scalar(select(Member.id).where(Member.name == "Maria"))
        db.session.remove()
    return {"boss": boss, "maria": maria}


def _link(boss: FlaskClient, member_id: int) -> str:
    page = boss.post(f"/players/{member_id}/phones")
    assert page.status_code == 200, page.get_data(as_text=True)
    found = re.search(r"data-bind-link>([^<]+)<", page.get_data(as_text=True))
    assert found
    return found.group(1).replace("http://localhost", "")


def _phone(app: Flask) -> FlaskClient:
    phone = app.test_client()
    phone.set_cookie("lang", "pt_BR")
    return phone


def _pix(app: Flask, member_id: int) -> str:
    with app.app_context():
        key = db.session.get(Member, member_id).pix_key  # type: ignore[union-attr]
        db.session.remove()
        return key


def test_a_link_binds_her_phone_which_then_shows_her_page_and_sets_her_pix(app: Flask, club_night: dict) -> None:
    boss, maria = club_night["boss"], club_night["maria"]
    link = _link(boss, maria)
    assert link.startswith("/eu/")
    hers = _phone(app)
    # Reading the link (a chat app's preview) binds nothing.
    for _ in range(2):
        asked = hers.get(link).get_data(as_text=True)
        assert "Este celular é de Maria?" in asked
    assert hers.get("/eu").status_code == 404
    assert hers.post(link).headers["Location"] == "/eu"
    page = hers.get("/eu").get_data(as_text=True)
    assert "Este celular é de Maria" in page and "Jubileu" in page
    assert "Maria, sua página" in hers.get("/").get_data(as_text=True)
    # Her own Pix key, without the club's code; a wrong one is refused and nothing stored.
    refused = hers.post("/eu/pix", data={"pix_key": "not a key"})
    assert refused.status_code in (400, 422) and "Minha chave Pix" in refused.get_data(as_text=True)
    assert _pix(app, maria) == ""
    assert hers.post("/eu/pix", data={"pix_key": "maria@example.com"}).headers["Location"] == "/eu"
    assert _pix(app, maria) == "maria@example.com"
    # Only her own: another member's key is the manager's, and the club's pages stay locked.
    assert hers.post(f"/players/{maria}/pix", data={"pix_key": "x@example.com"}).status_code == 403
    # The link is spent.
    other = _phone(app)
    spent = other.post(link)
    assert spent.status_code == 404 and "já foi usado" in spent.get_data(as_text=True)
    assert other.get("/eu").status_code == 404


def test_the_manager_sees_her_phones_and_revokes_one(app: Flask, club_night: dict) -> None:
    boss, maria = club_night["boss"], club_night["maria"]
    hers = _phone(app)
    hers.post(_link(boss, maria))
    waiting = _link(boss, maria)
    page = boss.get(f"/players/{maria}").get_data(as_text=True)
    assert "Celulares de Maria" in page and "Link ainda não aberto" in page
    assert re.search(r"Celular [0-9a-f]{6}, desde", page)
    with app.app_context():
        bound = db.session.scalar(select(MemberPhone.id).where(MemberPhone.bound_at.is_not(None)))
        db.session.remove()
    assert hers.post(f"/players/{maria}/phones/{bound}/revoke").status_code == 403  # the manager's to do
    assert boss.post(f"/players/{maria}/phones/{bound}/revoke").status_code == 302
    assert hers.get("/eu").status_code == 404
    assert hers.post("/eu/pix", data={"pix_key": "maria@example.com"}).status_code == 404
    assert "sua página" not in hers.get("/").get_data(as_text=True)
    assert boss.post(f"/players/{maria}/phones/{bound}/revoke").status_code == 404  # already
    # The waiting link still binds another phone.
    assert _phone(app).post(waiting).status_code == 302


def test_she_unbinds_her_own_phone(app: Flask, club_night: dict) -> None:
    hers = _phone(app)
    hers.post(_link(club_night["boss"], club_night["maria"]))
    assert hers.post("/eu/unbind").status_code == 302
    assert hers.get("/eu").status_code == 404


def test_only_a_manager_makes_links_a_lapsed_link_binds_nothing_and_phones_are_bounded(
    app: Flask, club_night: dict
) -> None:
    boss, maria = club_night["boss"], club_night["maria"]
    assert _phone(app).post(f"/players/{maria}/phones").status_code == 403
    link = _link(boss, maria)
    with app.app_context():
        db.session.execute(update(MemberPhone).values(link_expires_at=utcnow() - timedelta(minutes=1)))
        db.session.commit()
    assert _phone(app).get(link).status_code == 404
    for _ in range(member_phones.MOST):
        _link(boss, maria)
    refused = boss.post(f"/players/{maria}/phones")
    assert refused.status_code == 422 and "revogue um antes" in refused.get_data(as_text=True)


def test_a_phone_is_hers_at_her_club_only(app: Flask, club_night: dict) -> None:
    link = _link(club_night["boss"], club_night["maria"])
    add_club(app, "outro")
    elsewhere = phone_at(app, "outro")
    assert elsewhere.get(link).status_code == 404  # the link is the first club's
    elsewhere.prefix = ""
    assert elsewhere.post(link).status_code == 302
    assert elsewhere.get("/eu").status_code == 200
    elsewhere.prefix = "/k/outro"
    assert elsewhere.get("/eu").status_code == 404


def test_her_page_shows_her_next_championship_table(app: Flask, club_night: dict) -> None:
    boss = club_night["boss"]
    cid = create(boss, name="Copa da Maria")
    register(boss, cid, ["Maria", "Bia", "Caio", "Dani", "Edu", "Fábio", "Gil", "Hugo"])
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "s"}).status_code == 302
    hers = _phone(app)
    hers.post(_link(boss, club_night["maria"]))
    page = hers.get("/eu").get_data(as_text=True)
    seat = re.search(r'href="(/c/[^"]+/r/1/m/(\d+))">Copa da Maria: rodada 1, mesa (\d+)</a>', page)
    assert seat and seat.group(2) == seat.group(3), page
    assert "Maria" in hers.get(seat.group(1)).get_data(as_text=True)


def test_a_tables_owner_binds_a_players_phone_to_her_page_but_not_to_her_pix(app: Flask) -> None:
    """Anyone may open a table and name a member at it: the owner's link shows her page on her
    phone, and the key where her money goes stays the club's to entrust."""
    owner = _phone(app)
    answer = owner.post("/tables/new?game=jubileu", data={f"player_{i}": n for i, n in enumerate(PLAYERS)})
    assert answer.status_code == 302, answer.get_data(as_text=True)[:300]
    tid = answer.headers["Location"].rsplit("/", 1)[-1]
    share = owner.get(f"/t/{tid}/share").get_data(as_text=True)
    assert "O celular de um jogador" in share and "Link para o celular de Maria" in share
    made = owner.post(f"/t/{tid}/share/phone/1").get_data(as_text=True)
    link = re.search(r"data-bind-link>[^<]*(/eu/[^<]+)<", made)
    assert link, made
    hers = _phone(app)
    assert hers.post(link.group(1)).status_code == 302
    page = hers.get("/eu").get_data(as_text=True)
    assert "Este celular é de Maria" in page and "peça um link a quem administra o clube" in page
    assert 'action="/eu/pix"' not in page
    assert hers.post("/eu/pix", data={"pix_key": "ladrao@example.com"}).status_code == 403
    with app.app_context():
        assert db.session.scalar(select(Member.pix_key).where(Member.name == "Maria")) == ""
    # Only the owner makes such links, and only for a seat that is a member's.
    stranger = _phone(app)
    assert stranger.post(f"/t/{tid}/share/phone/1").status_code in (401, 403, 404)
    assert owner.post(f"/t/{tid}/share/phone/9").status_code == 404
