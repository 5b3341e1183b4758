"""Members and the player's page: the list and its search, a player's games, chart, partners
and history from hands posted through the API, managing members behind the club's code
(rename, merge, Pix key) with its rate limit, and the chart module on its own.

Runs on SQLite and on PostgreSQL (TEST_DATABASE_URL): nothing here depends on the database.
"""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from referee import charts
from referee.extensions import db
from referee.models import Hand, JoinAttempt, Member, Seat
from referee.rules import samba
from referee.views import players

from .api_support import EXAMPLE_RECORD, create_table, get_table, record_ok, solo_record, void

FOUR = ["Ana", "Bia", "Caio", "Dani"]

#: docs/api.md's Quatrilho example: Ana calls the 3 of paus, Caio holds it; each of them wins 6.
QUATRILHO = {
    "dealer": "Dani",
    "mode": "chamada",
    "declarer": "Ana",
    "called_card": {"rank": "3", "suit": "paus"},
    "partner": "Caio",
    "figures": {"Ana": 11, "Bia": 8, "Caio": 9, "Dani": 7},
    "tricks": {"Ana": 3, "Bia": 2, "Caio": 3, "Dani": 2},
}

#: docs/api.md's Samba example: teams [Ana, Caio] 3405 and [Bia, Dani] 740.
SAMBA = samba.example_hand()


# --------------------------------------------------------------------------- helpers


def table_of(client: FlaskClient, game: str, players_: list[str] | None = None, **fields: Any) -> dict[str, Any]:
    return create_table(client, game=game, players=list(players_ or FOUR), **fields)


def member_id(app: Flask, name: str) -> int:
    with app.app_context():
        found = db.session.scalar(select(Member.id).where(Member.name == name, Member.merged_into.is_(None)))
        assert found is not None, name
        return int(found)


def text_of(html: str) -> str:
    """The page's visible text, tags dropped and spaces collapsed."""
    body = html[html.index("<main") :]
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())


def section(html: str, heading_id: str) -> str:
    """The text of the <section> labelled by ``heading_id``."""
    start = html.index(f'aria-labelledby="{heading_id}"')
    return text_of("<main>" + html[start : html.index("</section>", start)])


def renamed(record: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """The same hand record with one player's name changed."""
    return json.loads(json.dumps(record).replace(f'"{old}"', f'"{new}"'))


def unlock(app: Flask, client: FlaskClient) -> None:
    answer = client.post("/club", data={"code": app.config["CLUB_CODE"]})
    assert answer.status_code == 302, answer.get_data(as_text=True)


@pytest.fixture
def evening(client: FlaskClient) -> dict[str, dict[str, Any]]:
    """Three tables with the same four players: Jubileu (Caio's Jogo Obrigatório with Bia as
    partner, then Bia's Solo Sete), Quatrilho (Ana calls, Caio holds the card) and Samba
    (Ana and Caio against Bia and Dani)."""
    jubileu = table_of(client, "jubileu", name="Sexta")
    assert record_ok(client, jubileu, EXAMPLE_RECORD)["deltas"] == {"Ana": -4, "Bia": 4, "Caio": 4, "Dani": -4}
    assert record_ok(client, jubileu, solo_record("Ana"))["deltas"] == {"Ana": -2, "Bia": 6, "Caio": -2, "Dani": -2}
    quatrilho = table_of(client, "quatrilho")
    assert record_ok(client, quatrilho, QUATRILHO)["deltas"] == {"Ana": 6, "Bia": -6, "Caio": 6, "Dani": -6}
    samba = table_of(client, "samba")
    assert record_ok(client, samba, SAMBA)["deltas"] == {"Ana": 3405, "Bia": 740, "Caio": 3405, "Dani": 740}
    return {"jubileu": jubileu, "quatrilho": quatrilho, "samba": samba}


# --------------------------------------------------------------------------- the list


@pytest.mark.parametrize("lang", ["pt_BR", "en"])
def test_the_list_has_an_empty_state(client: FlaskClient, lang: str) -> None:
    client.set_cookie("lang", lang)
    answer = client.get("/players")
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    assert f'lang="{lang.replace("_", "-")}"' in html
    assert 'class="card empty"' in html and 'href="/tables/new"' in html
    assert 'role="search"' not in html  # nothing to search yet


@pytest.mark.parametrize("lang", ["pt_BR", "en"])
def test_the_list_shows_every_member_with_tables_played(
    client: FlaskClient, app: Flask, evening: Any, lang: str
) -> None:
    client.set_cookie("lang", lang)
    table_of(client, "jubileu", ["Ana", "Bia", "Caio", "Edu"])  # Edu sits but no hand is played
    html = client.get("/players").get_data(as_text=True)
    for name in [*FOUR, "Edu"]:
        assert f'href="/players/{member_id(app, name)}">{name}</a>' in html
    text = text_of(html)
    if lang == "en":
        assert "Ana 3 tables played · last on" in text
        assert "Edu 0 tables played Manage members" in text  # no date: he never played a hand


def test_the_search_is_a_plain_get_ignoring_case_and_accents(client: FlaskClient, app: Flask) -> None:
    client.set_cookie("lang", "en")
    table_of(client, "jubileu", ["José", "Bia", "Caio", "Dani"])
    html = client.get("/players", query_string={"q": "jose"}).get_data(as_text=True)
    assert ">José</a>" in html and ">Bia</a>" not in html
    assert 'value="jose"' in html
    html = client.get("/players", query_string={"q": "Zeca"}).get_data(as_text=True)
    assert "Nobody is called “Zeca”." in text_of(html)
    assert client.get("/players", query_string={"q": "%" * 500}).status_code == 200


def test_a_merged_member_is_not_listed_and_unknown_ids_are_404(client: FlaskClient, app: Flask) -> None:
    table_of(client, "jubileu", ["Zé", "Bia", "Caio", "Dani"])
    table_of(client, "jubileu", ["José", "Bia", "Caio", "Dani"])
    unlock(app, client)
    ze, jose = member_id(app, "Zé"), member_id(app, "José")
    assert client.post(f"/players/{ze}/merge", data={"into": jose, "confirm": "1"}).status_code == 302
    assert ">Zé</a>" not in client.get("/players").get_data(as_text=True)
    assert client.get("/players/99999").status_code == 404


# --------------------------------------------------------------------------- a player's page


@pytest.mark.parametrize("lang", ["pt_BR", "en"])
def test_a_players_page_renders_a_chart_per_game(client: FlaskClient, app: Flask, evening: Any, lang: str) -> None:
    client.set_cookie("lang", lang)
    answer = client.get(f"/players/{member_id(app, 'Bia')}")
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    for game in ("jubileu", "quatrilho", "samba"):
        assert (
            f'<svg class="chart" viewBox="0 0 320 200" role="img" aria-labelledby="chart-{game}-t chart-{game}-d"'
            in html
        )
        assert f'<title id="chart-{game}-t">' in html
    assert html.count("<details") >= 3  # the figures of each chart, as a table
    assert "<script" not in html[html.index("<main") :]


def test_the_games_figures(client: FlaskClient, app: Flask, evening: Any) -> None:
    client.set_cookie("lang", "en")
    html = client.get(f"/players/{member_id(app, 'Bia')}").get_data(as_text=True)
    assert "Tables 1 Hands 2 Net +10 Per hand +5.00" in section(html, "game-jubileu-h")
    assert "Tables 1 Hands 1 Net −6 Per hand −6.00" in section(html, "game-quatrilho-h")
    assert "Matches 1 Hands 1 Matches won 0 Points +740 Per hand +740" in section(html, "game-samba-h")


def test_a_void_hand_counts_for_nothing(client: FlaskClient, app: Flask, evening: Any) -> None:
    client.set_cookie("lang", "en")
    assert void(client, evening["jubileu"], 1, reason="wrong partner").status_code == 200
    html = client.get(f"/players/{member_id(app, 'Bia')}").get_data(as_text=True)
    jubileu = section(html, "game-jubileu-h")
    assert "Tables 1 Hands 1 Net +6 Per hand +6.00" in jubileu
    # An empty section is left out: no partner, no "Best partners" heading either.
    assert "No partner yet." not in jubileu and "Best partners" not in jubileu


def test_best_partners_per_game(client: FlaskClient, app: Flask, evening: Any) -> None:
    client.set_cookie("lang", "en")
    caio = member_id(app, "Caio")
    bia_page = client.get(f"/players/{member_id(app, 'Bia')}").get_data(as_text=True)
    # Jubileu: Caio's Jogo Obrigatório with Bia as his partner, 4 chips each.
    assert "Best partners Caio 1 hand +8" in section(bia_page, "game-jubileu-h")
    assert f'href="/players/{caio}"' in bia_page
    # Quatrilho: Bia defended; Ana and Caio played together and won 6 each.
    assert "Best partners" not in section(bia_page, "game-quatrilho-h")  # none: the block is left out
    ana_page = client.get(f"/players/{member_id(app, 'Ana')}").get_data(as_text=True)
    assert "Best partners Caio 1 hand +12" in section(ana_page, "game-quatrilho-h")
    # Samba: teammates across the table; the team's points, no match over yet.
    assert "Best teammates Caio 1 match · 0 won +3,405" in section(ana_page, "game-samba-h")
    assert "Best teammates Dani 1 match · 0 won +740" in section(bia_page, "game-samba-h")


def test_partners_read_the_stored_contracts() -> None:
    assert players.declaring_pair("jubileu", {"bid": "jubileu", "declarers": ["Ana"], "partner": "Bia"}) == (
        "Ana",
        "Bia",
    )
    # Several Meia Miséria declarers each play for himself; a solo has no partner.
    assert players.declaring_pair("jubileu", {"bid": "meia_miseria", "declarers": ["Ana", "Bia"]}) is None
    assert players.declaring_pair("jubileu", {"bid": "solo_sete", "declarers": ["Ana"]}) is None
    assert players.declaring_pair("quatrilho", {"mode": "chamada", "declarer": "Ana", "partner": "Caio"}) == (
        "Ana",
        "Caio",
    )
    # The caller who held the called card himself plays alone.
    assert players.declaring_pair("quatrilho", {"mode": "chamada", "declarer": "Ana", "partner": "Ana"}) is None
    assert (
        players.declaring_pair("quatrilho", {"mode": "solo_preto", "declarer": "Ana", "partner": None, "giver": "Bia"})
        is None
    )
    assert players.declaring_pair("samba", {"went_out": "Ana"}) is None


def test_the_history_is_newest_first_with_links_and_pages(client: FlaskClient, app: Flask) -> None:
    client.set_cookie("lang", "en")
    unlock(app, client)  # tables made through the API are links only for the club's phones
    made = [table_of(client, "jubileu", name=f"Mesa {k}")["id"] for k in range(players.HISTORY_PAGE + 2)]
    first = client.get(f"/players/{member_id(app, 'Ana')}").get_data(as_text=True)
    links = re.findall(r'href="/t/([^"]+)">Mesa (\d+)</a>', first)
    assert [int(n) for _id, n in links] == list(range(players.HISTORY_PAGE + 1, 1, -1))
    assert links[0][0] == made[-1]
    assert "Older tables" in first and "Newer tables" not in first
    second = client.get(f"/players/{member_id(app, 'Ana')}?page=2").get_data(as_text=True)
    assert [n for _id, n in re.findall(r'href="/t/([^"]+)">Mesa (\d+)</a>', second)] == ["1", "0"]
    assert "Newer tables" in second and "Older tables" not in second
    assert client.get(f"/players/{member_id(app, 'Ana')}?page=x").status_code == 200


def test_the_player_page_shows_his_rating_per_game(client: FlaskClient, app: Flask, evening: Any) -> None:
    """The ratings are brought up to date when the page opens (ratings.catch_up), with their
    uncertainty and the provisional mark (few hands in this evening)."""
    html = client.get(f"/players/{member_id(app, 'Ana')}").get_data(as_text=True)
    assert 'id="ratings-h"' in html
    section = html[html.index('id="ratings-h"') : html.index("</section>", html.index('id="ratings-h"'))]
    assert "Jubileu" in section and "±" in section
    assert "provisional" in section or "provisório" in section


def test_the_new_table_form_offers_the_members(client: FlaskClient, evening: Any) -> None:
    html = client.get("/tables/new?game=jubileu").get_data(as_text=True)
    assert '<datalist id="members"><option value="Ana"><option value="Bia">' in html
    assert html.count('list="members"') == 4


# --------------------------------------------------------------------------- managing


def test_managing_is_refused_without_the_club_code(client: FlaskClient, app: Flask, evening: Any) -> None:
    ana, bia = member_id(app, "Ana"), member_id(app, "Bia")
    html = client.get(f"/players/{ana}").get_data(as_text=True)
    assert 'id="manage-h"' not in html and "/rename" not in html
    assert client.post(f"/players/{ana}/rename", data={"name": "Ana Maria"}).status_code == 403
    assert client.post(f"/players/{ana}/pix", data={"pix_key": "ana@example.com"}).status_code == 403
    assert client.post(f"/players/{ana}/merge", data={"into": bia, "confirm": "1"}).status_code == 403
    with app.app_context():
        member = db.session.get(Member, ana)
        assert member is not None and member.name == "Ana" and member.pix_key == "" and member.merged_into is None


def test_the_club_code_unlocks_and_locks_this_phone(client: FlaskClient, app: Flask, evening: Any) -> None:
    client.set_cookie("lang", "en")
    page = text_of(client.get("/club").get_data(as_text=True))
    assert "printed when the server starts" in page
    unlock(app, client)
    ana = member_id(app, "Ana")
    assert 'id="manage-h"' in client.get(f"/players/{ana}").get_data(as_text=True)
    assert client.post("/club", data={"action": "lock"}).status_code == 302
    assert 'id="manage-h"' not in client.get(f"/players/{ana}").get_data(as_text=True)
    assert client.post(f"/players/{ana}/rename", data={"name": "Ana Maria"}).status_code == 403


def test_rename_keeps_the_tables_hand_records_and_seat_names(client: FlaskClient, app: Flask, evening: Any) -> None:
    client.set_cookie("lang", "en")
    jubileu = evening["jubileu"]
    before = get_table(client, jubileu["id"])
    unlock(app, client)
    ana = member_id(app, "Ana")
    answer = client.post(f"/players/{ana}/rename", data={"name": "  Ana   Maria "})
    assert answer.status_code == 302 and answer.headers["Location"].endswith(f"/players/{ana}")
    after = get_table(client, jubileu["id"])
    assert after["players"] == before["players"] == FOUR
    assert after["hands"] == before["hands"]
    with app.app_context():
        assert db.session.get(Member, ana).name == "Ana Maria"  # type: ignore[union-attr]
        assert set(db.session.scalars(select(Seat.name).where(Seat.member_id == ana))) == {"Ana"}
    html = client.get(f"/players/{ana}").get_data(as_text=True)
    assert "<h1>Ana Maria</h1>" in html and "as Ana" in text_of(html)
    # A new table typed with the new name finds the same member.
    table_of(client, "jubileu", ["Ana Maria", "Bia", "Caio", "Dani"])
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Seat).where(Seat.member_id == ana)) == 4


@pytest.mark.parametrize(
    ("name", "status", "sentence"),
    [
        ("", 400, "Type the member's name."),
        ("x" * 41, 400, "A name has at most 40 letters."),
        ("bia", 422, "Bia is already a member: merge the two instead of renaming."),
    ],
)
def test_a_bad_rename_says_why_and_stores_nothing(
    client: FlaskClient, app: Flask, evening: Any, name: str, status: int, sentence: str
) -> None:
    client.set_cookie("lang", "en")
    unlock(app, client)
    ana = member_id(app, "Ana")
    answer = client.post(f"/players/{ana}/rename", data={"name": name})
    assert answer.status_code == status
    assert sentence in unescape(answer.get_data(as_text=True)).replace("&#39;", "'")
    with app.app_context():
        assert db.session.get(Member, ana).name == "Ana"  # type: ignore[union-attr]


def test_merge_asks_first_then_moves_the_history_and_the_old_id_redirects(client: FlaskClient, app: Flask) -> None:
    client.set_cookie("lang", "en")
    first = table_of(client, "jubileu", ["Ana", "Bia", "Caio", "Zé"], name="Um")
    record_ok(client, first, renamed(EXAMPLE_RECORD, "Dani", "Zé"))  # Zé loses 4
    second = table_of(client, "jubileu", ["Ana", "Bia", "Caio", "José"], name="Dois")
    record_ok(client, second, renamed(EXAMPLE_RECORD, "Dani", "José"))  # José loses 4
    unlock(app, client)
    ze, jose = member_id(app, "Zé"), member_id(app, "José")
    page = client.get(f"/players/{ze}").get_data(as_text=True)
    assert f'<option value="{jose}">José</option>' in page and f'<option value="{ze}">' not in page
    ask = client.post(f"/players/{ze}/merge", data={"into": str(jose)})
    assert ask.status_code == 200
    assert "Merge Zé into José?" in text_of(ask.get_data(as_text=True))
    assert "This cannot be undone." in text_of(ask.get_data(as_text=True))
    with app.app_context():
        assert db.session.get(Member, ze).merged_into is None  # type: ignore[union-attr]
    done = client.post(f"/players/{ze}/merge", data={"into": str(jose), "confirm": "1"})
    assert done.status_code == 302 and done.headers["Location"].endswith(f"/players/{jose}")
    old = client.get(f"/players/{ze}")
    assert old.status_code == 302 and old.headers["Location"].endswith(f"/players/{jose}")
    html = client.get(f"/players/{jose}").get_data(as_text=True)
    assert ">Um</a>" in html and ">Dois</a>" in html
    assert "Tables 2 Hands 2 Net −8" in section(html, "game-jubileu-h")
    assert "as Zé" in text_of(html)
    assert get_table(client, first["id"])["players"][3] == "Zé"  # the table keeps its names


@pytest.mark.parametrize("into", ["", "abc", "99999", "self", "1" * 40])
def test_a_bad_merge_says_why_and_stores_nothing(client: FlaskClient, app: Flask, evening: Any, into: str) -> None:
    client.set_cookie("lang", "en")
    unlock(app, client)
    ana = member_id(app, "Ana")
    answer = client.post(f"/players/{ana}/merge", data={"into": str(ana) if into == "self" else into, "confirm": "1"})
    assert answer.status_code == 422
    assert "Choose the member this one is the same person as." in answer.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Member).where(Member.merged_into.is_not(None))) == 0


def test_the_pix_key_is_stored_normalised_and_shown_only_to_managers(
    client: FlaskClient, app: Flask, evening: Any
) -> None:
    client.set_cookie("lang", "en")
    unlock(app, client)
    ana = member_id(app, "Ana")
    answer = client.post(f"/players/{ana}/pix", data={"pix_key": "(11) 98765-4321", "pix_city": "São Paulo"})
    assert answer.status_code == 302
    with app.app_context():
        member = db.session.get(Member, ana)
        assert member is not None and (member.pix_key, member.pix_city) == ("+5511987654321", "Sao Paulo")
    assert "Pix key: +5511987654321" in text_of(client.get(f"/players/{ana}").get_data(as_text=True))
    client.post("/club", data={"action": "lock"})
    html = client.get(f"/players/{ana}").get_data(as_text=True)
    assert "+5511987654321" not in html and "Pix: yes" in text_of(html)
    assert "Pix: no" in text_of(client.get(f"/players/{member_id(app, 'Bia')}").get_data(as_text=True))


def test_an_empty_pix_key_removes_it(client: FlaskClient, app: Flask, evening: Any) -> None:
    unlock(app, client)
    ana = member_id(app, "Ana")
    client.post(f"/players/{ana}/pix", data={"pix_key": "ana@example.com"})
    assert client.post(f"/players/{ana}/pix", data={"pix_key": "  ", "pix_city": "Recife"}).status_code == 302
    with app.app_context():
        member = db.session.get(Member, ana)
        assert member is not None and (member.pix_key, member.pix_city) == ("", "")


@pytest.mark.parametrize("key", ["not a key", "123.456.789-00", "+55 (00) 1234", "a@b"])
def test_a_bad_pix_key_says_why_and_stores_nothing(client: FlaskClient, app: Flask, evening: Any, key: str) -> None:
    client.set_cookie("lang", "en")
    unlock(app, client)
    ana = member_id(app, "Ana")
    client.post(f"/players/{ana}/pix", data={"pix_key": "ana@example.com"})
    answer = client.post(f"/players/{ana}/pix", data={"pix_key": key, "pix_city": "Recife"})
    assert answer.status_code == 422
    html = answer.get_data(as_text=True)
    assert 'id="pix-err"' in html and 'aria-invalid="true"' in html
    error = re.search(r'<p class="field-error" role="alert" id="pix-err">([^<]+)</p>', html)
    assert error is not None and unescape(error.group(1)).rstrip()[-1] in ".!?"
    assert f'value="{key}"' in unescape(html)  # what was typed comes back to be corrected
    with app.app_context():
        member = db.session.get(Member, ana)
        assert member is not None and (member.pix_key, member.pix_city) == ("ana@example.com", "")


def test_wrong_club_codes_are_rate_limited_per_phone(client: FlaskClient, app: Flask) -> None:
    client.set_cookie("lang", "en")
    right = app.config["CLUB_CODE"]
    wrong = "x" + right
    for _ in range(10):
        answer = client.post("/club", data={"code": wrong})
        assert answer.status_code == 422 and "That is not the club" in unescape(answer.get_data(as_text=True))
    blocked = client.post("/club", data={"code": right})
    assert blocked.status_code == 429 and "Wait ten minutes" in blocked.get_data(as_text=True)
    assert client.post("/players/1/rename", data={"name": "x"}).status_code in (403, 404)
    # Another phone, on the same address, is not blocked, and join codes keep their own count.
    other = app.test_client().post("/club", data={"code": right})
    assert other.status_code == 302
    assert client.post("/join", data={"code": "ABCD-EFGH"}).status_code == 422
    with app.app_context():  # only the wrong codes are stored: ten club codes and one join code
        assert db.session.scalar(select(func.count()).select_from(JoinAttempt)) == 11


# --------------------------------------------------------------------------- the chart module


def _points(svg: str) -> list[tuple[float, float]]:
    found = re.search(r'<polyline points="([^"]+)"', svg)
    assert found is not None, svg
    return [(float(x), float(y)) for x, y in (pair.split(",") for pair in found.group(1).split())]


def test_ticks_are_round_cover_the_values_and_include_zero() -> None:
    assert charts.nice_ticks(-7, 23) == [-10, 0, 10, 20, 30]
    assert charts.nice_ticks(5, 5) == [0, 2, 4, 6]
    assert charts.nice_ticks(-40, -10) == [-40, -30, -20, -10, 0]
    assert charts.nice_ticks(0, 0) == [-1, 0, 1]
    assert charts.nice_ticks(-3405, 12000) == [-5000, 0, 5000, 10000, 15000]


def test_points_map_to_coordinates() -> None:
    values = [5, -3, 12, 0]
    svg = charts.line_chart([(f"d{i}", v) for i, v in enumerate(values)], title="Net", chart_id="c")
    ticks = charts.nice_ticks(min(values), max(values))
    box = charts.frame(values, ticks, label_chars=max(len(str(t)) for t in ticks))
    drawn = _points(svg)
    assert drawn == [
        (pytest.approx(box.x(i), abs=0.06), pytest.approx(box.y(v), abs=0.06)) for i, v in enumerate(values)
    ]
    # First at the left, last at the right; higher values higher up (smaller y).
    assert drawn[0][0] == pytest.approx(box.left, abs=0.06) and drawn[-1][0] == pytest.approx(box.right, abs=0.06)
    assert drawn[2][1] < drawn[0][1] < drawn[3][1] < drawn[1][1]
    assert box.y(ticks[-1]) == box.top and box.y(ticks[0]) == box.bottom
    # The zero line is the thicker one, at y(0); the first and last labels are under the axis.
    assert f'y1="{charts._n(box.y(0))}" y2="{charts._n(box.y(0))}" stroke-width="1.5"' in svg
    assert ">d0</text>" in svg and ">d3</text>" in svg
    assert svg.count("<circle") == 2 * len(values)  # drawn in both colours, each clipped to its side


def test_negative_values_sit_below_the_zero_line_at_the_top() -> None:
    svg = charts.line_chart(
        [("a", -4), ("b", -10), ("c", -2)], title="Net", chart_id="neg", fmt=lambda n: f"{n:+d}".replace("-", "−")
    )
    ticks = charts.nice_ticks(-10, -2)
    assert ticks[-1] == 0
    box = charts.frame([-4, -10, -2], ticks, label_chars=3)
    assert all(y > box.y(0) for _x, y in _points(svg))
    assert ">−10</text>" in svg and ">+0</text>" in svg


def test_empty_and_one_point_charts() -> None:
    assert charts.line_chart([], title="Net", chart_id="e") == ""
    one = charts.line_chart([("12/03", 7)], title="Net", chart_id="one")
    assert "<polyline" not in one
    circles = re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)"', one)
    box = charts.frame([7], charts.nice_ticks(7, 7), label_chars=1)
    middle = (pytest.approx((box.left + box.right) / 2, abs=0.06), pytest.approx(box.y(7), abs=0.06))
    assert [(float(x), float(y)) for x, y in circles] == [middle, middle]  # one in each colour, clipped
    assert 'text-anchor="middle" stroke="none">12/03</text>' in one


def test_the_chart_is_accessible_and_escapes_its_text() -> None:
    svg = charts.line_chart(
        [("<b>", 1), ("a&b", 2)], title='Net of "Zé" <script>', chart_id='x"><script>', description="<i>desc</i>"
    )
    assert svg.startswith('<svg class="chart"') and 'role="img"' in svg
    assert "<script>" not in svg and "<b>" not in svg and "<i>" not in svg
    assert "&lt;script&gt;" in svg and "&lt;b&gt;" in svg and "a&amp;b" in svg and "&lt;i&gt;desc&lt;/i&gt;" in svg
    assert re.search(r'<title id="x&#34;&gt;&lt;script&gt;-t">Net of &#34;Zé&#34; &lt;script&gt;</title>', svg)
    assert 'aria-labelledby="x&#34;&gt;&lt;script&gt;-t x&#34;&gt;&lt;script&gt;-d"' in svg


def test_long_series_drop_the_dots_but_keep_the_line() -> None:
    svg = charts.line_chart([(str(i), i % 7 - 3) for i in range(200)], title="Net", chart_id="long")
    assert "<circle" not in svg and len(_points(svg)) == 200
    under_axis = re.findall(r'<text x="[\d.]+" y="([\d.]+)" text-anchor="\w+" stroke="none">(\d+)</text>', svg)
    assert [label for _y, label in under_axis] == ["0", "99", "199"]  # first, middle, last


def test_the_chart_module_imports_no_flask() -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, referee.charts; print(sorted(m for m in sys.modules if m.split('.')[0] in ('flask', 'sqlalchemy', 'werkzeug')))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.strip() == "[]"


def test_hands_are_untouched_by_reading_pages(client: FlaskClient, app: Flask, evening: Any) -> None:
    with app.app_context():
        before = [(h.id, h.record, h.result) for h in db.session.scalars(select(Hand).order_by(Hand.id))]
    for name in FOUR:
        assert client.get(f"/players/{member_id(app, name)}").status_code == 200
    with app.app_context():
        assert [(h.id, h.record, h.result) for h in db.session.scalars(select(Hand).order_by(Hand.id))] == before


# --------------------------------------------------------------------------- a short page


def test_the_editing_tools_are_folded_away_until_an_error_needs_them(
    client: FlaskClient, app: Flask, evening: Any
) -> None:
    client.set_cookie("lang", "en")
    unlock(app, client)
    ana = member_id(app, "Ana")
    html = client.get(f"/players/{ana}").get_data(as_text=True)
    assert '<details class="card manage">' in html  # closed: the figures come first
    assert html.index('id="manage-h"') > html.index('id="history-h"')
    refused = client.post(f"/players/{ana}/rename", data={"name": ""})
    assert refused.status_code == 400
    assert '<details class="card manage" open>' in refused.get_data(as_text=True)  # the error shows, unfolded


def test_a_player_without_a_hand_gets_one_friendly_empty_state(client: FlaskClient, app: Flask) -> None:
    client.set_cookie("lang", "en")
    create_table(client, players=["Zeca", "Bia", "Caio", "Dani"])
    html = client.get(f"/players/{member_id(app, 'Zeca')}").get_data(as_text=True)
    page = text_of(html)
    assert page.count("No hand played yet.") == 1
    for empty in ("Rating", "Patience games", "Best partners", "No partner yet", "Net over time"):
        assert empty not in page, empty
