"""A championship's settings and life: the new day's form (Quatrilho, each setting explained),
every setting changed until the first draw and only the name after it, each change in the
day's history; deleting before the first draw and archiving after it; the regulation's
readings as defaults (every chip counts, re-entries without limit); a table of five's deals."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from referee import exports
from referee.championship.settings import deals_at, played_at
from referee.db import db
from referee.models import ChampEvent, Championship, Entry, Reentry, Table

from .championship_support import card_links, create, manager, names_at, register, round_tables, score, token_of

NAMES = [f"Jogador {n:02d}" for n in range(1, 24)]


@pytest.fixture
def fresh(make_app: Callable[..., Flask], tmp_path: Path) -> Callable[[str], Flask]:
    """Another app on an empty database (on PostgreSQL the same one emptied)."""
    return lambda name: make_app({"INSTANCE_PATH": str(tmp_path / name)}, empty=True)


def stored(app: Flask, cid: str) -> Championship | None:
    with app.app_context():
        found = db.session.get(Championship, cid)
        if found is not None:
            db.session.expunge(found)
        return found


def lines(app: Flask, cid: str) -> list[ChampEvent]:
    with app.app_context():
        found = list(db.session.scalars(select(ChampEvent).where(ChampEvent.championship_id == cid)))
        db.session.expunge_all()
        return found


def settings_form(phone: FlaskClient, cid: str, **fields: str) -> dict[str, str]:
    """The settings page's form as a phone would send it back, with ``fields`` changed."""
    page = phone.get(f"/c/{cid}/settings").get_data(as_text=True)
    form = dict(re.findall(r'<input type="(?:text|hidden)"[^>]* name="([^"]+)"[^>]* value="([^"]*)"', page))
    form |= dict(re.findall(r'name="([^"]+)" value="([^"]+)" checked', page))
    for select_name, body in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', page, re.S):
        picked = re.search(r'<option value="([^"]*)" selected', body)
        form[select_name] = picked.group(1) if picked else ""
    return form | fields


# --------------------------------------------------------------------------- the new day's form


def test_a_new_championship_is_quatrilho_and_the_form_says_what_each_setting_means(app: Flask) -> None:
    boss = manager(app)
    page = boss.get("/c/new").get_data(as_text=True)
    assert re.search(r'aria-current="page">Quatrilho<', page)
    assert 'name="game" value="quatrilho"' in page
    for line in ("c-chips-h", "c-rounds-h", "c-late-h", "c-again-h"):
        assert f'id="{line}"' in page
    assert "Regulamento nacional de 2005" in page or "regulamento nacional de 2005" in page
    assert "32 de 40" in page and "50 para 40" in page  # the tables of five, both ways
    assert '<option value="" selected>Sem limite</option>' in page
    assert 'name="reentry_points" value="counted" checked' in page


def test_the_regulation_readings_are_the_defaults_and_a_round_takes_any_number_of_reentries(app: Flask) -> None:
    boss = manager(app)
    form = {"name": "Copa ABAQ", "chips": "100", "rounds": "3", "ends": "deals", "deals": "4", "table_size": "4"}
    form["late_until"] = "1"
    answer = boss.post("/c/new", data=form | {"tiebreak_0": "best_round"})
    assert answer.status_code == 302
    cid = answer.headers["Location"].split("/")[2]
    found = stored(app, cid)
    assert found is not None and found.game == "quatrilho"
    assert (found.reentries, found.reentry_points, found.five_deals) == (None, "counted", "per_table")
    register(boss, cid, NAMES[:4])
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    for _ in range(3):  # as many as he wants
        assert boss.post(f"/c/{cid}/reentries", data={"number": "1"}).status_code == 302
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Reentry)) == 3
    # Every chip counts: his 100 + 300 chips bought, counted at the end, are 400 points.
    (row,) = round_tables(app, cid, 1)
    first = row.entries.index(next(e for e in row.entries if stored_number(app, e) == 1))
    counts = {f"chips_{e}": ("400" if i == first else "100") for i, e in enumerate(row.entries)}
    assert boss.post(f"/c/{cid}/r/1/m/1/counts", data=counts).status_code == 302
    csv = app.test_client().get(f"/c/{cid}/ranking.csv").get_data(as_text=True).splitlines()
    assert next(r.split(",") for r in csv[1:] if r.split(",")[1] == "1")[3] == "400"


def stored_number(app: Flask, entry_id: int) -> int:
    with app.app_context():
        return db.session.get(Entry, entry_id).number


def test_a_limit_of_reentries_is_still_kept(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss, reentries="1")
    register(boss, cid, NAMES[:4])
    boss.post(f"/c/{cid}/rounds")
    assert boss.post(f"/c/{cid}/reentries", data={"number": "2"}).status_code == 302
    assert boss.post(f"/c/{cid}/reentries", data={"number": "2"}).status_code == 422


# --------------------------------------------------------------------------- changing the settings


def test_the_wrong_game_is_fixed_before_the_draw_without_typing_anyone_again(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss, game="jubileu", deals="40")
    register(boss, cid, NAMES)  # 23: no tables of four alone seat them
    refused = boss.post(f"/c/{cid}/rounds")
    assert refused.status_code == 422
    page = boss.get(f"/c/{cid}/settings?game=quatrilho")
    assert page.status_code == 200 and "Jubileu → Quatrilho" in page.get_data(as_text=True)
    form = settings_form(boss, cid, rounds="5")
    form["game"] = "quatrilho"
    changed = boss.post(f"/c/{cid}/settings?game=quatrilho", data=form)
    assert changed.status_code == 302, changed.get_data(as_text=True)
    found = stored(app, cid)
    assert found is not None and (found.game, found.rounds) == ("quatrilho", 5)
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    assert sum(len(t.entries) for t in round_tables(app, cid, 1)) == 23
    (line,) = [x for x in lines(app, cid) if x.kind == "settings_changed"]
    assert line.detail["changes"] == "jogo: Jubileu → Quatrilho; rodadas: 3 → 5"
    assert line.actor.startswith("manager@")
    history = app.test_client().get(f"/c/{cid}/history").get_data(as_text=True)
    assert "jogo: Jubileu → Quatrilho; rodadas: 3 → 5" in history


def test_after_the_first_draw_only_the_name_changes(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:4])
    boss.post(f"/c/{cid}/rounds")
    page = boss.get(f"/c/{cid}/settings").get_data(as_text=True)
    assert 'settings-locked" disabled' in page
    form = settings_form(boss, cid)
    for key, value in (("rounds", "4"), ("reentry_points", "counted"), ("deals", "8"), ("game", "jubileu")):
        answer = boss.post(f"/c/{cid}/settings", data=form | {key: value})
        assert answer.status_code == 422, key
        assert "só o nome e as taxas podem mudar" in answer.get_data(as_text=True)
    found = stored(app, cid)
    assert found is not None and (found.rounds, found.reentry_points, found.deals) == (3, "repaid", 4)
    assert not [x for x in lines(app, cid) if x.kind == "settings_changed"]
    # The locked fields are not sent: the name alone comes, and changes.
    answer = boss.post(f"/c/{cid}/settings", data={"csrf_token": form.get("csrf_token", ""), "name": "Copa de Verão"})
    assert answer.status_code == 302
    assert stored(app, cid).name == "Copa de Verão"  # type: ignore[union-attr]
    (line,) = [x for x in lines(app, cid) if x.kind == "settings_changed"]
    assert line.detail["changes"] == "nome: Copa da Primavera → Copa de Verão"


def test_the_history_names_the_changed_settings_in_lower_case(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    form = settings_form(boss, cid, pix_key="(11) 98765-4321", pix_city="Porto Alegre", entry_fee="20")
    assert boss.post(f"/c/{cid}/settings", data=form).status_code == 302
    (line,) = [x.detail["changes"] for x in lines(app, cid) if x.kind == "money_changed"]
    assert "chave Pix alterada" in line and "cidade do Pix:" in line and "taxa de inscrição:" in line
    assert "Chave Pix" not in line and "98765" not in line


def test_a_wrong_setting_is_refused_with_its_sentence_and_nothing_changes(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    answer = boss.post(f"/c/{cid}/settings", data=settings_form(boss, cid, deals="10"))
    assert answer.status_code == 422 and "múltiplo de 4" in answer.get_data(as_text=True)
    assert stored(app, cid).deals == 4  # type: ignore[union-attr]
    assert app.test_client().post(f"/c/{cid}/settings", data={"name": "X"}).status_code == 403
    assert stored(app, cid).name == "Copa da Primavera"  # type: ignore[union-attr]
    assert lines(app, cid) == []


# --------------------------------------------------------------------------- delete and archive


def test_before_the_first_draw_a_championship_is_deleted_with_its_entries(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    keep = create(boss, "Copa de Inverno")
    register(boss, cid, NAMES[:3])
    page = boss.get(f"/c/{cid}/delete").get_data(as_text=True)
    assert "Copa da Primavera" in page and "3 jogadores inscritos" in page
    assert app.test_client().post(f"/c/{cid}/delete").status_code == 403
    answer = boss.post(f"/c/{cid}/delete")
    assert answer.status_code == 302 and answer.headers["Location"] == "/c"
    assert stored(app, cid) is None and stored(app, keep) is not None
    with app.app_context():
        assert db.session.scalar(select(func.count()).where(Entry.championship_id == cid)) == 0
        assert db.session.scalar(select(func.count()).where(ChampEvent.championship_id == cid)) == 0
    assert boss.get(f"/c/{cid}").status_code == 404


def test_after_the_first_draw_it_is_archived_never_deleted_and_refuses_every_write(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:8])
    assert boss.post(f"/c/{cid}/archive").status_code == 409  # nothing drawn: delete it instead
    boss.post(f"/c/{cid}/rounds")
    refused = boss.post(f"/c/{cid}/delete")
    assert refused.status_code == 409 and "arquivado" in refused.get_data(as_text=True)
    assert stored(app, cid) is not None
    first, second = round_tables(app, cid, 1)
    scorers, fiscals = card_links(boss, cid, 1, "scorer"), card_links(boss, cid, 1, "fiscal")
    players = names_at(app, first)
    assert score(boss, first, players, token_of(scorers[0])) == 201
    assert boss.post(f"/c/{cid}/archive").status_code == 302

    listing = boss.get("/c").get_data(as_text=True)
    assert listing.index('id="archived"') < listing.index("Copa da Primavera")
    for page in (f"/c/{cid}", f"/c/{cid}/r/1", f"/c/{cid}/n/1", f"/c/{cid}/r/1/m/1", f"/c/{cid}/history"):
        shown = app.test_client().get(page)
        assert shown.status_code == 200 and "archived-mark" in shown.get_data(as_text=True), page
    fiscal = app.test_client()
    assert fiscal.get(fiscals[1]).status_code == 302
    counts = {f"chips_{e}": "100" for e in second.entries}
    for phone, url, data in (
        (boss, f"/c/{cid}/entries", {"name": "Atrasado"}),
        (boss, f"/c/{cid}/reentries", {"number": "1"}),
        (boss, f"/c/{cid}/rounds", {}),
        (boss, f"/c/{cid}/r/1/m/2/counts", counts),
        (boss, f"/c/{cid}/r/1/m/1/cards", {}),
        (fiscal, f"/c/{cid}/r/1/m/2/sign", {}),
        (boss, f"/c/{cid}/seal", {"sealed": "1"}),
        (boss, f"/c/{cid}/teams/1/delete", {}),
    ):
        answer = phone.post(url, data=data)
        assert answer.status_code == 422, url
        assert "está arquivado" in answer.get_data(as_text=True), url
    assert score(boss, first, players, token_of(scorers[0])) == 409  # its open table takes no hand
    with app.app_context():
        assert db.session.scalar(select(func.count()).where(Entry.championship_id == cid)) == 8
        assert db.session.get(Table, second.table_id).finished_at is not None

    assert boss.post(f"/c/{cid}/archive", data={"archived": "0"}).status_code == 302
    assert stored(app, cid).archived_at is None  # type: ignore[union-attr]
    assert score(boss, first, players, token_of(scorers[0])) == 201
    assert boss.post(f"/c/{cid}/r/1/m/2/counts", data=counts).status_code == 302
    assert [x.kind for x in lines(app, cid)][-3:] == ["archived", "unarchived", "counted"]
    assert app.test_client().post(f"/c/{cid}/archive").status_code == 403


# --------------------------------------------------------------------------- tables of five


@pytest.mark.parametrize(
    ("five_deals", "size", "deals", "at_four", "at_five", "each_at_five"),
    [
        ("per_table", 4, 40, 40, 40, 32),
        ("per_player", 4, 40, 40, 50, 40),
        ("per_table", 4, 12, 12, 10, 8),
        ("per_player", 4, 12, 12, 15, 12),
        ("per_player", 5, 40, 32, 40, 32),
    ],
)
def test_a_table_of_fives_deals(
    five_deals: str, size: int, deals: int, at_four: int, at_five: int, each_at_five: int
) -> None:
    found = Championship(
        game="quatrilho", options={}, deals=deals, table_size=size, five_deals=five_deals, chips=100, rounds=3
    )
    assert (deals_at(found, 4), deals_at(found, 5), played_at(found, 5), played_at(found, 4)) == (
        at_four,
        at_five,
        each_at_five,
        at_four,
    )


@pytest.mark.parametrize(("five_deals", "deals", "played"), [("per_table", 40, 32), ("per_player", 50, 40)])
def test_the_plan_says_what_a_table_of_five_plays_and_its_table_stops_there(
    app: Flask, five_deals: str, deals: int, played: int
) -> None:
    boss = manager(app)
    cid = create(boss, deals="40", five_deals=five_deals)
    register(boss, cid, NAMES[:9])
    boss.post(f"/c/{cid}/rounds")
    five = next(t for t in round_tables(app, cid, 1) if len(t.entries) == 5)
    plan = app.test_client().get(f"/c/{cid}/r/1").get_data(as_text=True)
    assert f"Mesa de cinco: {deals} mãos, cada jogador joga {played}" in plan
    with app.app_context():
        assert db.session.get(Table, five.table_id).deals == deals  # the sign-off's deal limit


# --------------------------------------------------------------------------- the backup


def test_the_new_settings_travel_in_a_backup_and_an_older_backup_takes_the_old_readings(
    app: Flask, fresh: Callable[[str], Flask]
) -> None:
    boss = manager(app)
    cid = create(boss, reentries="", reentry_points="counted", five_deals="per_player")
    register(boss, cid, NAMES[:4])
    boss.post(f"/c/{cid}/rounds")
    boss.post(f"/c/{cid}/archive")
    with app.app_context():
        document = json.loads(json.dumps(exports.backup()))
    settings = document["championships"][0]["settings"]
    assert (settings["reentries"], settings["five_deals"]) == (None, "per_player")
    assert document["championships"][0]["archived_at"]
    older = copy.deepcopy(document)
    del older["championships"][0]["settings"]["five_deals"], older["championships"][0]["archived_at"]
    older["championships"][0]["settings"]["reentries"] = 1
    second = fresh("second")
    with second.app_context():
        exports.restore(document)
        found = db.session.get(Championship, cid)
        assert found is not None and (found.reentries, found.five_deals) == (None, "per_player")
        assert found.archived_at is not None
        db.session.remove()
    third = fresh("third")
    with third.app_context():
        exports.restore(older)
        found = db.session.get(Championship, cid)
        assert found is not None and (found.reentries, found.five_deals, found.archived_at) == (1, "per_table", None)
