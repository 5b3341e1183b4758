"""The prizes of a championship day through the pages: the prize table, the quartets, who wins
what with the Pix code to pay him; the round's star once a table of the round is signed off; the
sealed round, whose points no page shows until its last table signs; all of it in the backup."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from referee import exports, pix
from referee.championship import prizes
from referee.championship.prizes import Prize, place_awards, split
from referee.championship.ranking import Played, rank
from referee.db import db
from referee.models import ChampEvent, Championship, ChampTeam, Entry, Member, RoundTable
from referee.rules.errors import InvalidInput

from .championship_support import card_links, create, manager, register, round_tables

NAMES = ["Ana", "Bia", "Caio", "Dani", "Edu", "Fábio", "Gil", "Hugo"]
# Table 1's counts (they add up to 4 × 100), distinctive enough to look for on a page.
FIRST = [163, 37, 104, 96]
SECOND = [151, 49, 100, 100]


def day(app: Flask, **fields: Any) -> tuple[FlaskClient, str, list[RoundTable]]:
    """Eight players, round 1 drawn: two paper tables."""
    boss = manager(app)
    cid = create(boss, **fields)
    register(boss, cid, NAMES)
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "prêmios"}).status_code == 302
    return boss, cid, round_tables(app, cid, 1)


def count(boss: FlaskClient, cid: str, row: RoundTable, chips: list[int]) -> None:
    typed = {f"chips_{e}": str(n) for e, n in zip(row.entries, chips)}
    assert boss.post(f"/c/{cid}/r/1/m/{row.number}/counts", data=typed).status_code == 302


def sign(app: Flask, boss: FlaskClient, cid: str, row: RoundTable) -> None:
    fiscal = app.test_client()
    assert fiscal.get(card_links(boss, cid, 1, "fiscal")[row.number - 1]).status_code == 302
    assert fiscal.post(f"/c/{cid}/r/1/m/{row.number}/sign").status_code == 302


def number_of(app: Flask, entry_id: int) -> int:
    with app.app_context():
        entry = db.session.get(Entry, entry_id)
        assert entry is not None
        return entry.number


# --------------------------------------------------------------------------- the round star


def test_the_star_shows_once_a_table_of_its_round_signs(app: Flask) -> None:
    boss, cid, (one, two) = day(app)
    count(boss, cid, one, FIRST)
    page = boss.get(f"/c/{cid}").get_data(as_text=True)
    assert "163*" in page and "is-prize" not in page  # played, provisional: no star yet
    sign(app, boss, cid, one)
    count(boss, cid, two, [170, 30, 100, 100])  # more, but not signed off
    page = boss.get(f"/c/{cid}").get_data(as_text=True)
    assert page.count('is-prize"') == 1 and re.search(r'is-prize">R1 163 <span aria-label="[^"]+">★', page)
    english = app.test_client()
    english.get("/lang/en")
    assert "level players share it" in english.get(f"/c/{cid}").get_data(as_text=True)


# --------------------------------------------------------------------------- the sealed round


def test_a_sealed_round_shows_no_points_until_its_last_table_signs(app: Flask) -> None:
    boss, cid, (one, two) = day(app)
    assert app.test_client().post(f"/c/{cid}/seal", data={"sealed": "1"}).status_code == 403
    assert boss.post(f"/c/{cid}/seal", data={"sealed": "1"}).status_code == 302
    count(boss, cid, one, FIRST)
    sign(app, boss, cid, one)
    count(boss, cid, two, SECOND)
    leader = number_of(app, one.entries[0])
    watcher = app.test_client()
    pages = [f"/c/{cid}", f"/c/{cid}/tv", f"/c/{cid}/n/{leader}", f"/c/{cid}/ranking/print"]
    for url in pages:
        text = watcher.get(url).get_data(as_text=True)
        assert "163" not in text and "151" not in text, url
        assert "sealed-note" in text, url
    rows = watcher.get(f"/c/{cid}/ranking.csv").get_data(as_text=True).splitlines()
    assert all(line.split(",")[3] == "" for line in rows[1:])  # round 1's column is empty
    sign(app, boss, cid, two)
    for url in pages:
        text = watcher.get(url).get_data(as_text=True)
        assert "163" in text and "sealed-note" not in text, url
    assert "163" in watcher.get(f"/c/{cid}/ranking.csv").get_data(as_text=True)
    with app.app_context():
        kinds = [e.kind for e in db.session.scalars(select(ChampEvent).where(ChampEvent.championship_id == cid))]
    assert "round_sealed" in kinds


def test_without_the_seal_the_running_round_shows_provisional_points(app: Flask) -> None:
    boss, cid, (one, _two) = day(app)
    count(boss, cid, one, FIRST)
    text = app.test_client().get(f"/c/{cid}").get_data(as_text=True)
    assert "163*" in text and "sealed-note" not in text


# --------------------------------------------------------------------------- the prizes


@given(st.integers(0, 10**8), st.integers(1, 50))
def test_a_split_adds_up_and_gives_the_leftover_centavos_to_the_first(cents: int, count: int) -> None:
    shares = split(cents, count)
    assert sum(shares) == cents and len(shares) == count
    assert shares == sorted(shares, reverse=True) and shares[0] - shares[-1] <= 1


def test_players_level_after_the_tie_breaks_share_the_places_they_cover() -> None:
    played = {1: [Played(250, True)], 2: [Played(200, True)], 3: [Played(200, True)], 4: [Played(150, True)]}
    lines = rank({1: "Ana", 2: "Bia", 3: "Caio", 4: "Dani"}, played, 1, [])
    awards = place_awards(lines, [Prize(50000, "troféu"), Prize(30001), Prize(20000, "medalha")], final=True)
    assert [(a.prize.cents, a.tie) for a in awards] == [(50000, False), (50001, True)]
    assert [(s.name, s.cents) for s in awards[1].shares] == [("Bia", 25001), ("Caio", 25000)]
    assert awards[1].prize.text == "medalha"


@pytest.mark.parametrize(
    ("typed", "cents", "text"),
    [
        ("500", 50000, ""),
        ("R$ 1.500,00", 150000, ""),
        ("1,500.00", 150000, ""),
        ("150,5", 15050, ""),
        ("300 + troféu", 30000, "troféu"),
        ("troféu", 0, "troféu"),
        ("3 medalhas", 0, "3 medalhas"),
    ],
)
def test_a_prize_line_is_an_amount_a_description_or_both(typed: str, cents: int, text: str) -> None:
    """And shown back in the form as written, it saves the same prize again."""
    assert prizes.parse_line(typed, 1) == Prize(cents, text)
    assert prizes.parse_line(prizes.as_lines([Prize(cents, text)]), 1) == Prize(cents, text)


def set_prizes(boss: FlaskClient, cid: str, places: str, round_prize: str = "", teams: str = "") -> Any:
    return boss.post(f"/c/{cid}/prizes", data={"places": places, "round": round_prize, "teams": teams})


def test_the_prize_list_names_each_winner_and_the_pix_code_to_pay_him(app: Flask) -> None:
    boss, cid, (one, two) = day(app, rounds="1")
    assert set_prizes(boss, cid, "R$ 500 + troféu\n300,00\ntroféu", "50", "400").status_code == 302
    # Two quartets across the tables: the first ends with 163 + 104 + 151 + 100 = 518 points.
    quartets = [[one.entries[0], one.entries[2], two.entries[0], two.entries[2]]]
    quartets.append([e for e in one.entries + two.entries if e not in quartets[0]])
    for k, members in enumerate(quartets):
        team = {
            "team_name": f"Quarteto {k + 1}",
            **{f"number_{i}": str(number_of(app, e)) for i, e in enumerate(members)},
        }
        assert boss.post(f"/c/{cid}/teams", data=team).status_code == 302
    with app.app_context():
        winner = db.session.get(Entry, one.entries[0])
        member = db.session.get(Member, winner.member_id)
        member.pix_key, member.pix_city = "ana@example.com", "Caxias do Sul"
        db.session.commit()
    boss.get("/lang/en")
    nothing = boss.get(f"/c/{cid}/prizes").get_data(as_text=True)  # all level on 0: nobody wins yet
    assert nothing.count("No winner yet.") == 3 + 1 + 1 and "Total to pay" not in nothing
    count(boss, cid, one, FIRST)
    count(boss, cid, two, SECOND)
    page = boss.get(f"/c/{cid}/prizes")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert "Provisional: the winners may change" in page.get_data(as_text=True)
    assert app.test_client().get(f"/c/{cid}/prizes").status_code == 302  # to the club's code first
    sign(app, boss, cid, one)
    sign(app, boss, cid, two)
    text = boss.get(f"/c/{cid}/prizes").get_data(as_text=True)
    assert "Final: every table of every round is signed off." in text
    # The 163 takes the 1st place (R$ 500 and the trophy), round 1's prize (his 163 is the best)
    # and a quarter of the team prize (his quartet leads with 518): a Pix code for each.
    codes = re.findall(r">(000201[^<]+?6304[0-9A-F]{4})<", text)
    assert sorted(pix.parse(code)["54"] for code in codes) == ["100.00", "50.00", "500.00"]
    assert {pix.parse(code)["26"]["01"] for code in codes} == {"ana@example.com"}
    assert "Quarteto 1" in text and "518" in text and "282" in text
    assert "R$300.00" in text and "troféu" in text  # the 2nd place (no key: no code) and the 3rd
    with app.app_context():
        kinds = [e.kind for e in db.session.scalars(select(ChampEvent).where(ChampEvent.championship_id == cid))]
    assert kinds.count("team_formed") == 2 and "prizes_set" in kinds


def test_bad_prizes_and_teams_are_refused_and_nothing_is_stored(app: Flask) -> None:
    boss, cid, (one, two) = day(app)
    numbers = [str(number_of(app, e)) for e in one.entries]
    stranger = app.test_client()
    assert stranger.post(f"/c/{cid}/prizes", data={"places": "500"}).status_code == 403
    assert stranger.post(f"/c/{cid}/teams", data={"team_name": "X"}).status_code == 403
    for places, round_prize in (("500\n0", ""), ("x" * 61, ""), ("500", "cem"), ("\n".join(["10"] * 51), "")):
        refused = set_prizes(boss, cid, places, round_prize)
        assert refused.status_code == 422 and "error-box" in refused.get_data(as_text=True)
    good = {"team_name": "Os Quatro", **{f"number_{i}": n for i, n in enumerate(numbers)}}
    for spoiled in (
        {**good, "number_3": ""},  # three players
        {**good, "number_3": numbers[0]},  # the same player twice
        {**good, "number_3": "999"},  # nobody has that number
        {**good, "team_name": ""},
    ):
        assert boss.post(f"/c/{cid}/teams", data=spoiled).status_code == 422
    with app.app_context():
        assert db.session.get(Championship, cid).prizes == {}
        assert db.session.scalar(select(ChampTeam).where(ChampTeam.championship_id == cid)) is None
    assert boss.post(f"/c/{cid}/teams", data=good).status_code == 302
    other = {"team_name": "Outros", **{f"number_{i}": str(number_of(app, e)) for i, e in enumerate(two.entries)}}
    taken = boss.post(f"/c/{cid}/teams", data={**other, "number_0": numbers[0]})  # already in Os Quatro
    assert taken.status_code == 422 and "Os Quatro" in taken.get_data(as_text=True)
    assert boss.post(f"/c/{cid}/teams", data={**other, "team_name": "os quatro"}).status_code == 422
    with app.app_context():
        (team,) = db.session.scalars(select(ChampTeam).where(ChampTeam.championship_id == cid))
    assert boss.post(f"/c/{cid}/teams/{team.id}/delete").status_code == 302
    assert boss.post(f"/c/{cid}/teams/{team.id}/delete").status_code == 404
    unsure = boss.post(f"/c/{cid}/seal", data={"sealed": "maybe"})
    assert unsure.status_code == 422 and "error-box" in unsure.get_data(as_text=True)
    assert "Diga se a rodada fica lacrada." in unsure.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Championship, cid).sealed is False


def test_the_prize_page_calls_the_players_cards_cartao(app: Flask) -> None:
    boss, cid, _tables = day(app)
    page = boss.get(f"/c/{cid}/prizes").get_data(as_text=True)
    assert "cartão" in page and "cartela" not in page.lower()


def test_a_disqualified_player_cannot_be_put_in_a_team(app: Flask) -> None:
    boss, cid, (one, _two) = day(app)
    numbers = [str(number_of(app, e)) for e in one.entries]
    form = {"status": "disqualified", "reason": "Marcou cartas"}
    assert boss.post(f"/c/{cid}/n/{numbers[2]}/status", data=form).status_code == 302
    refused = boss.post(
        f"/c/{cid}/teams", data={"team_name": "Os Quatro", **{f"number_{i}": n for i, n in enumerate(numbers)}}
    )
    assert refused.status_code == 422
    assert f"(nº {numbers[2]}) tem uma desclassificação registrada" in refused.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(ChampTeam).where(ChampTeam.championship_id == cid)) is None
        assert not db.session.scalar(select(ChampEvent).where(ChampEvent.kind == "team_formed"))


# --------------------------------------------------------------------------- the backup


@pytest.fixture
def fresh(make_app: Callable[..., Flask], tmp_path: Path) -> Callable[[], Flask]:
    return lambda: make_app({"INSTANCE_PATH": str(tmp_path / "fresh")}, empty=True)


def test_the_prizes_teams_and_seal_travel_in_the_backup(app: Flask, fresh: Callable[[], Flask]) -> None:
    boss, cid, (one, _two) = day(app)
    assert set_prizes(boss, cid, "500 + troféu\n300", "50", "400").status_code == 302
    team = {"team_name": "Quarteto", **{f"number_{i}": str(number_of(app, e)) for i, e in enumerate(one.entries)}}
    assert boss.post(f"/c/{cid}/teams", data=team).status_code == 302
    assert boss.post(f"/c/{cid}/seal", data={"sealed": "1"}).status_code == 302
    before = manager(app).get(f"/c/{cid}/prizes").get_data(as_text=True)
    with app.app_context():
        document = json.loads(json.dumps(exports.backup()))
    (mine,) = [c for c in document["championships"] if c["id"] == cid]
    older = copy.deepcopy(document)  # as a backup made before prizes, teams and the seal
    for c in older["championships"]:
        del c["teams"], c["settings"]["prizes"], c["settings"]["sealed"]
    spoils = [
        ("settings.prizes", lambda c: c["settings"].__setitem__("prizes", {"places": [{"cents": -5, "text": ""}]})),
        ("settings.sealed", lambda c: c["settings"].__setitem__("sealed", "yes")),
        ("teams[0].entries", lambda c: c["teams"][0].__setitem__("entries", c["teams"][0]["entries"][:3])),
        ("teams[1].entries", lambda c: c["teams"].append({**c["teams"][0], "name": "Outro"})),
    ]
    second = fresh()
    at = f"championships[{document['championships'].index(mine)}]"
    for where, spoil in spoils:
        doc = copy.deepcopy(document)
        spoil(next(c for c in doc["championships"] if c["id"] == cid))
        with second.app_context():
            with pytest.raises(InvalidInput) as refused:
                exports.restore(doc)
            assert refused.value.field == f"{at}.{where}"
            assert exports.is_empty()
            db.session.remove()
    with second.app_context():
        exports.restore(older)
        found = db.session.get(Championship, cid)
        assert found.sealed is False and prizes.table_of(found) == prizes.Table()
    third = fresh()
    with third.app_context():
        exports.restore(document)
    after = manager(third).get(f"/c/{cid}/prizes").get_data(as_text=True)
    strip = re.compile(r'(csrf[-_]token"? (?:value|content)=")[^"]*')
    assert strip.sub(r"\1", after) == strip.sub(r"\1", before)
