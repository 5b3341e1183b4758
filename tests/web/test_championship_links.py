"""A championship's public link never leads to a Referee table: no page readable with only the
championship's id (the players' cards, the TV's QR code) names a round table's id, because a
table's id is the permission to read it, Pix keys included. The scorer and the fiscal, with their
own cards, still reach their table; and a championship's chips are points, never money."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from referee.db import db
from referee.models import Championship, Entry, Table

from .championship_support import card_links, create, manager, names_at, register, round_tables, score, token_of

NAMES = ["Ana", "Bia", "Caio", "Dani", "Edu", "Fábio", "Gil", "Hugo"]


def public_pages(app: Flask, cid: str) -> list[str]:
    """Every page of the championship a phone holding only its link can open."""
    with app.app_context():
        numbers = [n for (n,) in db.session.query(Entry.number).filter_by(championship_id=cid)]
    tables = round_tables(app, cid, 1)
    return [
        f"/c/{cid}",
        f"/c/{cid}/version",
        f"/c/{cid}/tv",
        f"/c/{cid}/ranking.csv",
        f"/c/{cid}/ranking/print",
        f"/c/{cid}/r/1",
        f"/c/{cid}/r/1?check=1",
        *(f"/c/{cid}/n/{n}" for n in numbers),
        *(f"/c/{cid}/n/{n}/card" for n in numbers),
        *(f"/c/{cid}/r/1/m/{t.number}" for t in tables),
    ]


def leaks(phone: FlaskClient, pages: list[str], table_ids: list[str]) -> list[str]:
    found = []
    for page in pages:
        answer = phone.get(page)
        assert answer.status_code == 200, page
        body = answer.get_data(as_text=True)
        found += [f"{page} names table {t}" for t in table_ids if t in body]
    return found


def test_no_public_championship_page_names_a_table_id(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES)
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "s"}).status_code == 302
    tables = round_tables(app, cid, 1)
    table_ids = [t.table_id for t in tables]
    # A hand recorded at the first table, counts typed at the second: both sources of chips shown.
    scorer_links = card_links(boss, cid, 1, "scorer")
    assert score(boss, tables[0], names_at(app, tables[0]), token_of(scorer_links[0])) == 201
    counts = {f"chips_{e}": "100" for e in tables[1].entries}
    assert boss.post(f"/c/{cid}/r/1/m/2/counts", data=counts).status_code == 302

    assert leaks(app.test_client(), public_pages(app, cid), table_ids) == []


def test_the_scorer_and_the_fiscal_still_reach_their_table(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES)
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    first = round_tables(app, cid, 1)[0]
    for role in ("scorer", "fiscal"):
        phone = app.test_client()
        assert phone.get(card_links(boss, cid, 1, role)[0]).status_code == 302
        page = phone.get(f"/c/{cid}/r/1/m/1").get_data(as_text=True)
        assert f"/w/{first.table_id}" in page, role
    # The table page follows its table's hands without naming it.
    stranger = app.test_client().get(f"/c/{cid}/r/1/m/1").get_data(as_text=True)
    assert f'data-live-version="/c/{cid}/r/1/m/1/version"' in stranger
    assert app.test_client().get(f"/c/{cid}/r/1/m/1/version").get_json() == {"version": 0}


def test_a_championship_table_plays_for_points_not_money(app: Flask) -> None:
    """A chip value typed in the house rules is dropped: the tables' settle-ups then show no
    money and so no Pix code, whatever key a player stored."""
    boss = manager(app)
    cid = create(boss, opt_unit_value="2.50")
    with app.app_context():
        assert db.session.get(Championship, cid).options["unit_value"] in (0, "0", "0.00")
    register(boss, cid, NAMES)
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    with app.app_context():
        values = {str(db.session.get(Table, t.table_id).options["unit_value"]) for t in round_tables(app, cid, 1)}
    assert values <= {"0", "0.00"}


def test_an_old_championship_with_a_chip_value_draws_tables_for_points(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    with app.app_context():
        found = db.session.get(Championship, cid)
        found.options = {**found.options, "unit_value": "2.50"}
        db.session.commit()
    register(boss, cid, NAMES)
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    with app.app_context():
        values = {str(db.session.get(Table, t.table_id).options["unit_value"]) for t in round_tables(app, cid, 1)}
    assert values <= {"0", "0.00"}
