"""The day's history: registrations and re-entries are kept with who and when, shown newest
first on the championship's history page, and travel through a backup."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select

from referee import exports
from referee.db import db
from referee.models import ChampEvent
from referee.rules.errors import InvalidInput

from .championship_support import create, manager, register

NAMES = ["Ana", "Bia", "Caio", "Dani"]


@pytest.fixture
def fresh(make_app: Callable[..., Flask], tmp_path: Path) -> Callable[[], Flask]:
    return lambda: make_app({"INSTANCE_PATH": str(tmp_path / "fresh")}, empty=True)


def test_the_day_lists_registrations_and_reentries_newest_first_with_who(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    empty = boss.get(f"/c/{cid}/history").get_data(as_text=True)
    assert "Nada aconteceu ainda" in empty
    register(boss, cid, NAMES)
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "s"}).status_code == 302
    assert boss.post(f"/c/{cid}/reentries", data={"number": "3"}).status_code == 302

    page = app.test_client().get(f"/c/{cid}/history")  # read like the ranking: by the day's id
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Caio (nº 3) reentrou na rodada 1, mesa 1." in text
    assert "Ana se inscreveu com o número 1." in text
    assert text.index("reentrou") < text.index("Dani se inscreveu") < text.index("Ana se inscreveu")
    assert text.count("· Organização") == 5 and "manager@" not in text
    assert f'/c/{cid}/history"' in boss.get(f"/c/{cid}").get_data(as_text=True)
    assert app.test_client().get("/c/" + "x" * 22 + "/history").status_code == 404


def test_the_history_travels_through_a_backup_and_a_bad_line_is_refused(app: Flask, fresh: Callable[[], Flask]) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES)
    with app.app_context():
        document = json.loads(json.dumps(exports.backup()))
        before = [(e.kind, e.entry_id, e.actor, e.at) for e in db.session.scalars(select(ChampEvent))]
    assert len(before) == 4
    second = fresh()
    spoilt = copy.deepcopy(document)
    spoilt["championships"][0]["history"][1]["kind"] = "erased"
    with second.app_context():
        with pytest.raises(InvalidInput) as refused:
            exports.restore(spoilt)
        assert refused.value.field == "championships[0].history[1].kind"
        assert db.session.scalar(select(func.count()).select_from(ChampEvent)) == 0
        db.session.remove()
        exports.restore(document)
        after = [(e.kind, e.entry_id, e.actor, e.at) for e in db.session.scalars(select(ChampEvent))]
    assert after == before


def test_each_rename_keeps_the_name_it_gave_and_an_older_line_without_it_still_reads(
    app: Flask, fresh: Callable[[], Flask]
) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES)
    for name in ("Joao", "Joao Silva"):
        assert boss.post(f"/c/{cid}/n/2/name", data={"name": name}).status_code == 302
    page = app.test_client().get(f"/c/{cid}/history").get_data(as_text=True)
    assert "corrigido de Bia para Joao." in page and "corrigido de Joao para Joao Silva." in page
    assert "de Bia para Joao Silva" not in page
    with app.app_context():
        document = json.loads(json.dumps(exports.backup()))
    for line in document["championships"][0]["history"]:  # as lines were written before the new name was kept
        line["detail"].pop("new", None)
    second = fresh()
    with second.app_context():
        exports.restore(document)
    older = second.test_client().get(f"/c/{cid}/history").get_data(as_text=True)
    assert "corrigido de Bia para Joao Silva." in older and "corrigido de Joao para Joao Silva." in older
