"""The wall at a full hall's size (every table and every ranking line on a page of the cycle),
the printed plan's number -> table index, and each player's table at the top of his page."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from referee import championship
from referee.championship import wall
from referee.db import db
from referee.models import Entry

from .championship_support import create, manager, register, round_tables

PLAYERS = 80  # 20 tables, 80 ranking lines: one page of the plan, three of the ranking


def big_day(app: Flask) -> tuple[str, FlaskClient]:
    boss = manager(app)
    cid = create(boss)
    with app.app_context():
        found = championship.get(cid)
        for n in range(PLAYERS):
            championship.register(found, f"Jogador {n + 1:03d}")
    return cid, boss


def test_the_wall_pages_through_every_table_and_every_ranking_line(app: Flask) -> None:
    cid, boss = big_day(app)
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    page = app.test_client().get(f"/c/{cid}/tv").get_data(as_text=True)
    keys = re.findall(r'data-page="([^"]+)"', page)
    assert keys == ["plan-1", "ranking-1", "ranking-2", "ranking-3"]
    assert 'data-seconds="8"' in page and "js/wall.js" in page
    sections = re.split(r'<section class="wall-page', page)[1:]
    plan = re.findall(r'<b class="wall-n">(\d+)', sections[0])
    assert plan == [str(n) for n in range(1, 21)]
    ranked = [n for s in sections[1:] for n in re.findall(r'<span class="rank-number">(\d+)</span>', s)]
    assert sorted(map(int, ranked)) == list(range(1, PLAYERS + 1))  # every line, once a cycle
    assert [len(re.findall(r'class="wall-rank', s)) for s in sections[1:]] == [36, 36, 8]
    # What the bench prints is what the page does.
    figures = wall.figures(20, PLAYERS)
    assert (figures.plan_pages, figures.ranking_pages, figures.cycle) == (1, 3, 32)


def test_the_printed_plan_has_a_number_to_table_index(app: Flask) -> None:
    cid, boss = big_day(app)
    boss.post(f"/c/{cid}/rounds")
    page = app.test_client().get(f"/c/{cid}/r/1").get_data(as_text=True)
    index = page[page.index('class="plan-index-list"') :]
    pairs = [(int(a), int(b)) for a, b in re.findall(r"<li><b>(\d+)</b> .*?</span> (\d+)</li>", index)]
    assert [number for number, _table in pairs] == list(range(1, PLAYERS + 1))  # number order
    expected = {n: row.number for row in round_tables(app, cid, 1) for n in _numbers(app, row.entries)}
    assert dict(pairs) == expected


def test_a_players_page_shows_his_table_and_seat_as_soon_as_the_round_is_drawn(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, ["Ana", "Bia", "Caio", "Davi", "Edu", "Fia", "Gil", "Hugo"])
    phone = app.test_client()
    before = phone.get(f"/c/{cid}/n/3")
    assert "assim que a próxima rodada for sorteada" in before.get_data(as_text=True)
    version = re.search(r'data-version="([^"]+)"', before.get_data(as_text=True)).group(1)
    boss.post(f"/c/{cid}/rounds")
    # The open page's live poll sees a new version, and the page drawn again has his table.
    assert phone.get(f"/c/{cid}/version").get_json()["version"] != version
    page = phone.get(f"/c/{cid}/n/3").get_data(as_text=True)
    (row,) = [t for t in round_tables(app, cid, 1) if 3 in _numbers(app, t.entries)]
    seat = _numbers(app, row.entries).index(3) + 1
    top = page[page.index("player-now") :]
    assert f"Mesa {row.number}</span>" in top and f"Lugar {seat} de 4" in top
    assert page.index("player-now") < page.index("pick-list")  # above everything else


def _numbers(app: Flask, entry_ids: list[int]) -> list[int]:
    with app.app_context():
        return [db.session.get(Entry, e).number for e in entry_ids]


def test_the_wall_marks_a_player_out_of_play_as_the_ranking_does(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, ["Ana", "Bia", "Caio", "Dani", "Edu", "Fábio", "Gil", "Hugo", "Iara"])
    assert boss.post(f"/c/{cid}/n/9/status", data={"status": "withdrawn"}).status_code == 302
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    page = app.test_client().get(f"/c/{cid}/tv").get_data(as_text=True)
    line = next(li for li in page.split('<li class="wall-rank')[1:] if "Iara" in li)
    assert 'class="entry-mark entry-withdrawn">desistiu' in line


def test_the_wall_gives_a_disqualified_player_no_place_and_his_mark(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, ["Ana", "Bia", "Caio", "Dani", "Edu", "Fábio", "Gil", "Hugo"])
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    disqualify = {"status": "disqualified", "reason": "Trocou cartas"}
    assert boss.post(f"/c/{cid}/n/3/status", data=disqualify).status_code == 302
    page = app.test_client().get(f"/c/{cid}/tv").get_data(as_text=True)
    assert "0º" not in page
    line = next(li for li in page.split('<li class="wall-rank')[1:] if "Caio" in li)
    assert '<span class="wall-place">–</span>' in line and "entry-disqualified" in line


def test_the_printed_index_follows_the_plan_on_its_page_when_it_fits(app: Flask) -> None:
    css = app.test_client().get("/static/css/app.css").get_data(as_text=True)
    (rule,) = re.findall(r"\.plan-index \{([^}]*)\}", css)
    assert "break-before" not in rule and "break-inside: avoid" in rule
