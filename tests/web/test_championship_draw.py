"""The draw through the pages: each round's plan says how many pairs meet again in it and over
the day, a round drawn before the draw planned the day still checks out, and the championship's
read-only JSON (GET /api/v1/championships/<id>) answers as its OpenAPI schema says."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from sqlalchemy import select

from referee import championship
from referee.db import db
from referee.models import Championship, ChampRound, Entry, RoundTable, utcnow
from referee.rules import draw as lot

from .api_support import API
from .championship_support import create, manager, register, round_tables

EIGHT = ["Ana", "Bia", "Caio", "Dani", "Edu", "Fábio", "Gil", "Hugo"]


def sign_round(app: Flask, cid: str, number: int) -> None:
    """Every table of the round signed off (what the fiscals do through their pages; here only
    what the next draw waits for)."""
    with app.app_context():
        for row in db.session.scalars(
            select(RoundTable).where(RoundTable.championship_id == cid, RoundTable.round == number)
        ):
            row.signed_at = utcnow()
        db.session.commit()


def two_rounds(app: Flask, boss: FlaskClient) -> str:
    """Eight players at two tables of four, rounds 1 and 2 drawn: round 2 cannot avoid seating
    two pairs again at each table."""
    cid = create(boss)
    register(boss, cid, EIGHT)
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "um"}).status_code == 302
    sign_round(app, cid, 1)
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "dois"}).status_code == 302
    return cid


def test_the_plan_says_how_many_pairs_meet_again_in_the_round_and_over_the_day(app: Flask) -> None:
    boss = manager(app)
    cid = two_rounds(app, boss)
    first = boss.get(f"/c/{cid}/r/1").get_data(as_text=True)
    assert "0 pares de jogadores voltam a se encontrar nesta rodada · 0 pares no dia até agora" in first
    second = boss.get(f"/c/{cid}/r/2").get_data(as_text=True)
    assert "4 pares de jogadores voltam a se encontrar nesta rodada · 4 pares no dia até agora" in second


def test_each_round_keeps_how_many_rounds_its_draw_planned_and_checks_out(app: Flask) -> None:
    boss = manager(app)
    cid = two_rounds(app, boss)
    with app.app_context():
        planned = dict(
            db.session.execute(
                select(ChampRound.number, ChampRound.planned).where(ChampRound.championship_id == cid)
            ).all()
        )
        found = db.session.get(Championship, cid)
        assert planned == {1: 3, 2: 2}  # a day of three rounds: round 1 plans all three, round 2 the two left
        assert championship.redraw(found, 1) and championship.redraw(found, 2)
    assert "as mesas são as mesmas" in boss.get(f"/c/{cid}/r/2?check=1").get_data(as_text=True)


def test_a_round_drawn_before_the_draw_planned_the_day_still_checks_out(app: Flask) -> None:
    """A database from before: its rounds have no plan and were drawn alone; the check runs
    that draw again, not the plan."""
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, EIGHT + ["Iara", "Jonas", "Kaio", "Lia", "Mel"])
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "antigo"}).status_code == 302
    with app.app_context():
        found = db.session.get(Championship, cid)
        numbers = {e.id: e.number for e in db.session.scalars(select(Entry).where(Entry.championship_id == cid))}
        by_number = {n: i for i, n in numbers.items()}
        alone = lot.draw(sorted(numbers.values()), seed="antigo")
        round_ = db.session.scalar(select(ChampRound).where(ChampRound.championship_id == cid))
        round_.planned = None
        for row, seated in zip(round_tables(app, cid, 1), alone.tables, strict=True):
            stored = db.session.get(RoundTable, row.id)
            stored.entries = [by_number[n] for n in seated]
        db.session.commit()
        assert championship.redraw(found, 1)
        first, second = (db.session.get(RoundTable, row.id) for row in round_tables(app, cid, 1)[:2])
        first.entries, second.entries = [second.entries[0], *first.entries[1:]], [first.entries[0], *second.entries[1:]]
        db.session.commit()
        assert not championship.redraw(found, 1)  # and tables changed after the draw do not


def _schema(app: Flask, client: FlaskClient) -> Draft202012Validator:
    document = client.get(f"{API}/openapi.json").get_json()
    return Draft202012Validator({"$ref": "#/components/schemas/Championship", "components": document["components"]})


def _errors(validator: Draft202012Validator, body: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(body)]


def test_the_championship_json_gives_settings_ranking_and_plans_as_documented(app: Flask) -> None:
    boss = manager(app)
    cid = two_rounds(app, boss)
    reader = app.test_client()  # anyone with the id, as the public pages
    answer = reader.get(f"{API}/championships/{cid}")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    body = answer.get_json()
    assert _errors(_schema(app, reader), body) == []
    assert body["id"] == cid and body["game"] == "quatrilho" and body["round"] == 2
    assert body["settings"]["rounds"] == 3 and body["settings"]["chips"] == 100
    assert sorted(line["name"] for line in body["ranking"]) == sorted(EIGHT)
    assert all(len(line["rounds"]) == 3 and line["rounds"][2] is None for line in body["ranking"])
    assert [r["number"] for r in body["rounds"]] == [1, 2]
    assert [(r["pairs_again"], r["pairs_again_so_far"]) for r in body["rounds"]] == [(0, 0), (4, 4)]
    with app.app_context():
        stored = {
            (t.round, t.number): t
            for t in db.session.scalars(select(RoundTable).where(RoundTable.championship_id == cid))
        }
        names = {
            e.id: (e.number, e.name) for e in db.session.scalars(select(Entry).where(Entry.championship_id == cid))
        }
    for r in body["rounds"]:
        for t in r["tables"]:
            seated = [names[e] for e in stored[(r["number"], t["number"])].entries]
            assert [(p["number"], p["name"]) for p in t["players"]] == seated
            assert t["signed"] is (r["number"] == 1)
    assert "/j/" not in answer.get_data(as_text=True) and "token" not in answer.get_data(as_text=True)


def test_the_json_of_a_championship_before_its_first_draw(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, EIGHT[:5])
    body = app.test_client().get(f"{API}/championships/{cid}").get_json()
    assert body["round"] == 0 and body["rounds"] == []
    assert [line["rounds"] for line in body["ranking"]] == [[None, None, None]] * 5


def test_no_championship_by_that_id_is_a_404_with_a_sentence(app: Flask) -> None:
    answer = app.test_client().get(f"{API}/championships/nada-disso")
    assert answer.status_code == 404
    assert answer.get_json()["error"]["code"] == "not_found"
    assert answer.get_json()["error"]["message"]
