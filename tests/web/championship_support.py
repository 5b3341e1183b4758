"""What the championship tests do through the pages and the API: a manager's phone, a
championship with the defaults of a short Quatrilho day, registrations, a round's tables, the
cards the manager prints, and a valid Quatrilho hand sent with a card's token."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from referee.db import db
from referee.models import Entry, RoundTable

from .api_support import API


def manager(app: Flask) -> FlaskClient:
    """A phone that typed the club's code."""
    phone = app.test_client()
    assert phone.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302
    return phone


def create(phone: FlaskClient, name: str = "Copa da Primavera", **fields: Any) -> str:
    """A Quatrilho championship of 3 rounds of 4 deals through the form; answers its id."""
    form = {
        "name": name,
        "game": "quatrilho",
        "chips": "100",
        "rounds": "3",
        "ends": "deals",
        "deals": "4",
        "table_size": "4",
        "late_until": "1",
        "reentries": "1",
        "reentry_points": "repaid",
        "tiebreak_0": "best_round",
        "tiebreak_1": "fewer_reentries",
        "tiebreak_2": "last_round",
        **fields,
    }
    answer = phone.post("/c/new", data=form)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return answer.headers["Location"].split("/c/", 1)[1].split("/")[0]  # at the root or a club's address


def register(phone: FlaskClient, cid: str, names: list[str]) -> None:
    for name in names:
        assert phone.post(f"/c/{cid}/entries", data={"name": name}).status_code == 302


def round_tables(app: Flask, cid: str, round_number: int) -> list[RoundTable]:
    """A round's tables in table order, detached from the session that read them."""
    with app.app_context():
        rows = list(
            db.session.scalars(
                select(RoundTable)
                .where(RoundTable.championship_id == cid, RoundTable.round == round_number)
                .order_by(RoundTable.number)
            )
        )
        db.session.expunge_all()
        return rows


def names_at(app: Flask, row: RoundTable) -> list[str]:
    with app.app_context():
        return [db.session.get(Entry, e).name for e in row.entries]


def card_links(phone: FlaskClient, cid: str, round_number: int, role: str) -> list[str]:
    """The links behind the cards' QR codes, in table order (the manager's cards page)."""
    page = phone.get(f"/c/{cid}/r/{round_number}/cards?role={role}")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    return re.findall(r'data-link="([^"]+)"', page.get_data(as_text=True))


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


def quatrilho_hand(players: list[str]) -> dict[str, Any]:
    """A called game: the first player calls, the third holds the card, they take 20 figures."""
    a, b, c, d = players
    return {
        "mode": "chamada",
        "declarer": a,
        "called_card": {"rank": "3", "suit": "paus"},
        "partner": c,
        "figures": {a: 11, b: 8, c: 9, d: 7},
        "tricks": {a: 3, b: 2, c: 3, d: 2},
    }


def score(phone: FlaskClient, row: RoundTable, players: list[str], token: str) -> int:
    """Record that hand at the round's table with a card's token; answers the status."""
    answer = phone.post(
        f"{API}/tables/{row.table_id}/hands",
        json=quatrilho_hand(players),
        headers={"Authorization": f"Bearer {token}"},
    )
    return answer.status_code


def day_links(boss: FlaskClient, cid: str, role: str, **extra: str) -> list[str]:
    """The links behind the day's cards, in number order (the manager's print page)."""
    query = "&".join(f"{k}={v}" for k, v in {"role": role, **extra}.items())
    page = boss.get(f"/c/{cid}/cards/tables?{query}")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    return re.findall(r'data-link="([^"]+)"', page.get_data(as_text=True))


def link_path(link: str) -> str:
    """The link without its scheme and host, for the test client."""
    return "/" + link.split("://", 1)[1].split("/", 1)[1]
