"""Paper tables keep their trail: every count, signature and reopening stays in the day's history
and on the table's page, a reopening is asked first, and the committee prints a súmula per table
and player cards with a box per round."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from referee.db import db
from referee.models import ChampEvent, RoundTable

from .championship_support import card_links, create, manager, names_at, register, round_tables, score, token_of

NAMES = ["Ana", "Bia", "Caio", "Dani", "Edu", "Fábio", "Gil", "Hugo", "Iara"]


def _phones(app: Flask, boss: FlaskClient, cid: str, number: int = 1) -> tuple[FlaskClient, FlaskClient]:
    """The scorer's and the fiscal's phones of a round 1 table, each through its card."""
    scorer, fiscal = app.test_client(), app.test_client()
    assert scorer.get(card_links(boss, cid, 1, "scorer")[number - 1]).status_code == 302
    assert fiscal.get(card_links(boss, cid, 1, "fiscal")[number - 1]).status_code == 302
    return scorer, fiscal


def _kinds(app: Flask, cid: str) -> list[tuple[str, int | None, dict[str, object]]]:
    with app.app_context():
        return [
            (line.kind, line.table, dict(line.detail))
            for line in db.session.scalars(
                select(ChampEvent)
                .where(ChampEvent.championship_id == cid, ChampEvent.round.is_not(None), ChampEvent.table.is_not(None))
                .order_by(ChampEvent.id)
            )
        ]


def _signed(app: Flask, row: RoundTable) -> bool:
    with app.app_context():
        found = db.session.get(RoundTable, row.id)
        assert found is not None
        return found.signed_at is not None


def test_a_table_signed_twice_keeps_its_first_count_and_signature(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:4])
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "s"}).status_code == 302
    (row,) = round_tables(app, cid, 1)
    scorer, fiscal = _phones(app, boss, cid)
    first = dict(zip(row.entries, [130, 70, 100, 100]))
    second = dict(zip(row.entries, [130, 80, 90, 100]))

    def count(chips: dict[int, int]) -> None:
        form = {f"chips_{e}": str(n) for e, n in chips.items()}
        assert scorer.post(f"/c/{cid}/r/1/m/1/counts", data=form).status_code == 302

    short = {f"chips_{e}": "90" for e in row.entries}
    assert scorer.post(f"/c/{cid}/r/1/m/1/counts", data=short).status_code == 422  # refused: no line
    count(first)
    assert fiscal.post(f"/c/{cid}/r/1/m/1/sign").status_code == 302
    reopened = boss.post(f"/c/{cid}/r/1/m/1/reopen", data={"confirm": "reopen", "reason": "Bia recontou as fichas"})
    assert reopened.status_code == 302 and not _signed(app, row)
    count(second)
    assert fiscal.post(f"/c/{cid}/r/1/m/1/sign").status_code == 302

    lines = _kinds(app, cid)
    assert [kind for kind, *_ in lines] == ["counted", "signed", "reopened", "counted", "signed"]
    assert {table for _, table, _ in lines} == {1}
    seated = dict(zip(sorted(row.entries), NAMES[:4]))  # registered in order: the ids follow
    first_text = " · ".join(f"{seated[e]} {n}" for e, n in first.items())
    assert lines[0][2] == {"chips": first_text} and lines[1][2] == {"chips": first_text}
    assert lines[2][2] == {"reason": "Bia recontou as fichas"}

    page = app.test_client().get(f"/c/{cid}/r/1/m/1").get_data(as_text=True)
    trail = page[page.index('id="trail-h"') :]
    items = re.findall(r'<li class="([^"]*)">(.*?)</li>', trail, re.S)
    assert len(items) == 5
    # Newest first: the second signature and count stand, the reopening, then the first two set aside.
    assert [("is-void" in cls, "tag-void" in text) for cls, text in items] == [
        (False, False),
        (False, False),
        (False, False),
        (True, True),
        (True, True),
    ]
    assert "assinada pelo fiscal" in items[3][1] and first_text in items[3][1] and "sem efeito" in items[3][1]
    assert "contada" in items[4][1] and first_text in items[4][1] and "substituída" in items[4][1]
    assert "Bia recontou as fichas" in items[2][1] and "Organização" in items[2][1]
    day = app.test_client().get(f"/c/{cid}/history").get_data(as_text=True)
    assert day.count("Mesa 1 da rodada 1") == 5 and "Bia recontou as fichas" in day


def test_reopening_asks_first_and_a_bare_post_changes_nothing(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:4])
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    (row,) = round_tables(app, cid, 1)
    scorer, fiscal = _phones(app, boss, cid)
    assert scorer.post(f"/c/{cid}/r/1/m/1/counts", data={f"chips_{e}": "100" for e in row.entries}).status_code == 302
    assert fiscal.post(f"/c/{cid}/r/1/m/1/sign").status_code == 302

    manage = boss.get(f"/c/{cid}/manage").get_data(as_text=True)
    assert f'action="/c/{cid}/r/1/m/1/reopen"' not in manage  # no one-tap reopen
    assert f'href="/c/{cid}/r/1/m/1/reopen"' in manage
    asked = boss.get(f"/c/{cid}/r/1/m/1/reopen")
    text = asked.get_data(as_text=True)
    assert asked.status_code == 200
    for said in ("assinatura do fiscal deixa de valer", "pode registrar de novo", "provisórios"):
        assert said in text
    assert 'name="confirm" value="reopen"' in text

    bare = boss.post(f"/c/{cid}/r/1/m/1/reopen")
    assert bare.status_code == 422 and "nada foi alterado" in bare.get_data(as_text=True)
    too_long = boss.post(f"/c/{cid}/r/1/m/1/reopen", data={"confirm": "reopen", "reason": "x" * 201})
    assert too_long.status_code == 422 and "200" in too_long.get_data(as_text=True)
    stranger = app.test_client()
    assert stranger.post(f"/c/{cid}/r/1/m/1/reopen", data={"confirm": "reopen"}).status_code == 403
    assert fiscal.post(f"/c/{cid}/r/1/m/1/reopen", data={"confirm": "reopen"}).status_code == 403
    assert stranger.get(f"/c/{cid}/r/1/m/1/reopen").status_code == 302  # to the club's code
    assert _signed(app, row) and [k for k, *_ in _kinds(app, cid)] == ["counted", "signed"]

    assert boss.post(f"/c/{cid}/r/1/m/1/reopen", data={"confirm": "reopen"}).status_code == 302
    assert not _signed(app, row)
    assert _kinds(app, cid)[-1] == ("reopened", 1, {"reason": ""})
    again = boss.get(f"/c/{cid}/r/1/m/1/reopen").get_data(as_text=True)
    assert 'name="confirm"' not in again  # nothing left to reopen
    assert boss.post(f"/c/{cid}/r/1/m/1/reopen", data={"confirm": "reopen"}).status_code == 422
    assert boss.get(f"/c/{cid}/r/1/m/9/reopen").status_code == 404


def test_the_round_prints_one_sumula_per_table(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES)
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    tables = round_tables(app, cid, 1)
    manage = boss.get(f"/c/{cid}/manage").get_data(as_text=True)
    assert f'href="/c/{cid}/r/1/sumula"' in manage

    page = boss.get(f"/c/{cid}/r/1/sumula")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    sheets = text.split('<section class="sumula"')[1:]
    assert len(sheets) == len(tables) == 2
    for sheet, row in zip(sheets, tables):
        assert f"Mesa {row.number}" in sheet and "Copa da Primavera" in sheet and "Rodada 1" in sheet
        assert sheet.count('<td class="box"></td>') == 2 * len(row.entries) + 2  # re-entries, chips, totals
        assert sheet.count('<td class="sign"></td>') == len(row.entries)
        assert f"devem somar {len(row.entries) * 100}" in sheet
        assert "Assinatura do fiscal" in sheet
        assert "/j/" not in sheet and "/f/" not in sheet  # no way in on paper
    for name in NAMES:
        assert name in text
    assert app.test_client().get(f"/c/{cid}/r/1/sumula").status_code == 302  # to the club's code
    assert boss.get(f"/c/{cid}/r/2/sumula").status_code == 404


def test_player_cards_have_a_box_per_round_for_the_committee(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss, rounds="4")
    register(boss, cid, NAMES[:3])
    text = boss.get(f"/c/{cid}/cards").get_data(as_text=True)
    grids = re.findall(r'<table class="card-rounds">(.*?)</table>', text, re.S)
    assert len(grids) == 3
    for grid in grids:
        assert all(head in grid for head in ("Rodada", "Mesa", "Pontos", "Fiscal"))
        assert re.findall(r'<th scope="row">(\d+)</th>', grid) == ["1", "2", "3", "4"]
        assert grid.count("<td></td>") == 12
    one = app.test_client().get(f"/c/{cid}/n/2/card").get_data(as_text=True)
    assert one.count('<table class="card-rounds">') == 1


def test_a_table_recorded_hand_by_hand_keeps_the_chips_its_fiscal_signed(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:4])
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    (row,) = round_tables(app, cid, 1)
    players = names_at(app, row)
    token = token_of(card_links(boss, cid, 1, "scorer")[0])
    assert all(score(boss, row, players, token) == 201 for _ in range(4))
    _scorer, fiscal = _phones(app, boss, cid)
    assert fiscal.post(f"/c/{cid}/r/1/m/1/sign").status_code == 302
    # The caller's side wins 6 a deal: the first and the third seats end with 124.
    chips = [124, 76, 124, 76]
    assert _kinds(app, cid) == [("signed", 1, {"chips": " · ".join(f"{p} {n}" for p, n in zip(players, chips))})]
