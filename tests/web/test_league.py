"""League standings: the seats' counters (kept with every write) against the same figures
recomputed from the hands, seasons by local date, the stated tie-break order, the pages."""

from __future__ import annotations

import random
import re
import threading
from datetime import UTC, date, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import league
from referee.extensions import db
from referee.models import Season, Table
from tests.bench import hands as jubileu_hands
from tests.bench import quatrilho_hands
from tests.web.api_support import API, create_table, record_ok, void
from tests.web.league_audit import standings_from_hands
from tests.web.test_api_samba import play, samba_table


def _standings(app: Flask, game: str, season: Season | None = None) -> tuple[list, list]:
    with app.app_context():
        season = db.session.get(Season, season.id) if season is not None else None
        return league.standings(game, season), standings_from_hands(game, season)


@pytest.mark.parametrize("seed", range(4))
def test_standings_kept_with_each_write_equal_those_recomputed_from_the_hands(
    app: Flask, client: FlaskClient, seed: int
) -> None:
    """Random evenings of Jubileu and five-player Quatrilho (a player sits out each hand) with
    voids and corrections: the counters never drift from the hands."""
    rng = random.Random(seed)
    people = ["Ana", "Bia", "Caio", "Dani", "Edu", "Fábio", "Gil"]
    for _ in range(4):
        game = rng.choice(["jubileu", "quatrilho"])
        if game == "jubileu":
            seats = rng.sample(people, 4)
            table = create_table(client, game="jubileu", players=seats)
            records = [jubileu_hands.record(tuple(seats), k) for k in range(rng.randint(3, 9))]
        else:
            seats = rng.sample(people, 5)
            table = create_table(client, game="quatrilho", players=seats)
            records = [quatrilho_hands.record(tuple(seats), k) for k in range(rng.randint(3, 9))]
        for number, record in enumerate(records, start=1):
            record_ok(client, table, record)
            if rng.random() < 0.25:
                assert void(client, table, number).status_code == 200
    for game in ("jubileu", "quatrilho"):
        kept, recomputed = _standings(app, game)
        assert kept == recomputed
        assert sum(row.net for row in kept) == 0


def test_a_sitting_out_player_does_not_count_the_hand(app: Flask, client: FlaskClient) -> None:
    seats = ("Ana", "Bia", "Caio", "Dani", "Edu")
    table = create_table(client, game="quatrilho", players=list(seats))
    for k in range(5):
        record_ok(client, table, quatrilho_hands.record(seats, k))
    kept, _ = _standings(app, "quatrilho")
    assert sorted(row.hands for row in kept) == [4, 4, 4, 4, 4]  # each sat out once in five deals


def test_samba_standings_count_matches_won(app: Flask, client: FlaskClient) -> None:
    t = samba_table(client)
    play(client, t, (5000, 1000), (5100, 1000))  # team 0 (Ana, Caio) passes 10,000
    kept, recomputed = _standings(app, "samba")
    assert kept == recomputed
    won = {row.name: row.won for row in kept}
    assert won == {"Ana": 1, "Caio": 1, "Bia": 0, "Dani": 0}
    assert [row.name for row in kept][:2] == ["Ana", "Caio"]  # matches won first


def test_a_season_holds_the_tables_started_on_its_local_days(app: Flask, client: FlaskClient) -> None:
    first = create_table(client, players=["Ana", "Bia", "Caio", "Dani"])
    second = create_table(client, players=["Ana", "Bia", "Caio", "Dani"])
    for t in (first, second):
        record_ok(client, t, jubileu_hands.record(("Ana", "Bia", "Caio", "Dani"), 0))
    with app.app_context():
        # 23:30 in São Paulo on 31 January is 02:30 UTC on 1 February: still January's table.
        db.session.get(Table, first["id"]).created_at = datetime(2027, 2, 1, 2, 30, tzinfo=UTC)
        db.session.get(Table, second["id"]).created_at = datetime(2027, 2, 1, 12, 0, tzinfo=UTC)
        db.session.commit()
        january = league.save_season(None, name="Janeiro", starts_on="2027-01-01", ends_on="2027-01-31")
        february = league.save_season(None, name="Fevereiro", starts_on=date(2027, 2, 1), ends_on=date(2027, 2, 28))
        assert [t.id for t in db.session.scalars(league.season_tables(january))] == [first["id"]]
        assert [t.id for t in db.session.scalars(league.season_tables(february))] == [second["id"]]
        assert sum(r.hands for r in league.standings("jubileu", january)) == 4
        assert league.current_season(date(2027, 2, 10)).id == february.id
        assert league.current_season(date(2027, 3, 10)) is None


def test_the_tie_break_order_is_the_one_stated(app: Flask) -> None:
    rows = [
        league.Row(1, "Zé", tables=1, hands=10, net=5, won=0),
        league.Row(2, "Ana", tables=1, hands=5, net=5, won=0),  # same net, better average
        league.Row(3, "Bia", tables=1, hands=5, net=5, won=0),  # same as Ana: by name
        league.Row(4, "Caio", tables=1, hands=4, net=-1, won=0),
        league.Row(5, "Dani", tables=1, hands=2, net=-1, won=0),  # same net, worse average (-0.5 < -0.25)
    ]
    assert [r.name for r in league._ordered(rows, "jubileu")] == ["Ana", "Bia", "Zé", "Caio", "Dani"]
    samba_rows = [league.Row(1, "A", 1, 9, 9000, 0), league.Row(2, "B", 1, 9, 100, 1), league.Row(3, "C", 1, 9, 200, 1)]
    assert [r.name for r in league._ordered(samba_rows, "samba")] == ["C", "B", "A"]


def test_seasons_are_checked_and_need_the_club_code(app: Flask, client: FlaskClient) -> None:
    form = {"name": "2027", "starts_on": "2027-01-01", "ends_on": "2027-12-31"}
    assert client.post("/league/seasons", data=form).status_code == 403
    assert client.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302  # this phone unlocked
    bad = client.post("/league/seasons", data=form | {"ends_on": "2026-12-31"})
    assert bad.status_code == 422 and "antes de começar" in bad.get_data(as_text=True)
    assert client.post("/league/seasons", data=form | {"starts_on": "1 de janeiro"}).status_code == 422
    with app.app_context():
        assert league.seasons() == []  # nothing stored by a refused form
    assert client.post("/league/seasons", data=form).status_code == 302
    with app.app_context():
        assert [s.name for s in league.seasons()] == ["2027"]


def test_the_standings_page_lists_players_with_the_stated_order(client: FlaskClient) -> None:
    table = create_table(client, players=["Ana", "Bia", "Caio", "Dani"])
    for k in range(3):
        record_ok(client, table, jubileu_hands.record(("Ana", "Bia", "Caio", "Dani"), k))
    page = client.get("/league/jubileu?season=all").get_data(as_text=True)
    for name in ("Ana", "Bia", "Caio", "Dani"):
        assert name in page
    assert "tie" in page or "empate" in page
    assert client.get("/league/samba").status_code == 200  # empty state
    assert client.get("/league/nope").status_code == 404
    assert client.get("/league/jubileu?season=999").status_code == 404
    assert client.get("/league").status_code == 302


def _shown_means(page: str) -> list[str]:
    """The ratings' means as the standings show them (English), top to bottom."""
    return re.findall(r'<td class="num">([0-9.]+)<span class="small muted block">±', page)


def test_a_big_rebuild_is_left_to_the_catch_up_command_and_the_page_answers_at_once(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past INLINE_REBUILD hands, a correction's rebuild is not done by the page, nor by a
    thread of the web process: the page shows the ratings it has and says they are being
    recomputed; the catch-up command (what the timer runs) rebuilds them, and the page then
    shows the fresh ratings, the same a recompute gives."""
    from referee import ratings

    client.set_cookie("lang", "en")
    app.config["RATINGS_SPAWN_CATCH_UP"] = False  # a server whose timer runs the command
    seats = ("Ana", "Bia", "Caio", "Dani")
    table = create_table(client, players=list(seats))
    for k in range(6):
        record_ok(client, table, jubileu_hands.record(seats, k))
    before = client.get("/league/jubileu?season=all").get_data(as_text=True)  # small: rated inline
    assert "recomputed" not in before and len(_shown_means(before)) == 4
    with app.app_context():
        assert ratings.pending("jubileu") == "none"
    assert void(client, table, 2).status_code == 200
    monkeypatch.setattr(ratings, "INLINE_REBUILD", 0)
    threads = set(threading.enumerate())
    page = client.get("/league/jubileu?season=all").get_data(as_text=True)
    started = [t.name for t in threading.enumerate() if t not in threads and t.name.startswith("ratings")]
    assert started == []
    assert "recomputed" in page
    assert _shown_means(page) == _shown_means(before)  # the ratings it had
    with app.app_context():
        assert ratings.pending("jubileu") == "rebuild"  # the page did not do it

    result = app.test_cli_runner().invoke(args=["ratings", "catch-up"])
    assert result.exit_code == 0, result.output
    assert "jubileu: rebuilt from scratch, 4 hands rated." in result.output.splitlines()
    after = client.get("/league/jubileu?season=all").get_data(as_text=True)
    assert "recomputed" not in after
    assert _shown_means(after) != _shown_means(before)
    with app.app_context():
        assert ratings.pending("jubileu") == "none"
        shown = sorted(f"{mu:.1f}" for mu, _sigma, _games in ratings.stored("jubileu").values())
        assert sorted(_shown_means(after)) == shown
        caught_up = ratings.stored("jubileu")
        ratings.recompute("jubileu")
        assert ratings.stored("jubileu") == caught_up
    assert app.test_cli_runner().invoke(args=["ratings", "catch-up"]).output == ""  # nothing to do: silent


def test_the_api_answers_the_standings_with_ratings(client: FlaskClient) -> None:
    seats = ("Ana", "Bia", "Caio", "Dani")
    table = create_table(client, players=list(seats))
    for k in range(4):
        record_ok(client, table, jubileu_hands.record(seats, k))
    body = client.get(f"{API}/league/jubileu/standings").get_json()
    assert body["season"] is None and [r["rank"] for r in body["standings"]] == [1, 2, 3, 4]
    totals = client.get(f"{API}/tables/{table['id']}").get_json()["totals"]
    assert {r["name"]: r["net"] for r in body["standings"]} == totals
    assert all(r["hands"] == 4 and r["rating"]["provisional"] for r in body["standings"])
    nets = [r["net"] for r in body["standings"]]
    assert nets == sorted(nets, reverse=True)
    assert client.get(f"{API}/league/nope/standings").status_code == 404
    assert client.get(f"{API}/league/jubileu/standings?season=7").status_code == 404
    assert client.get(f"{API}/league/jubileu/standings?season=x").status_code == 404


def test_a_big_league_shows_the_top_hundred_then_everyone(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.views import league as views

    monkeypatch.setattr(views, "SHOWN", 2)
    table = create_table(client, players=["Ana", "Bia", "Caio", "Dani"])
    record_ok(client, table, jubileu_hands.record(("Ana", "Bia", "Caio", "Dani"), 0))
    page = client.get("/league/jubileu?season=all").get_data(as_text=True)
    assert page.count('<th scope="row">') == 2 and "all=1" in page
    page = client.get("/league/jubileu?season=all&all=1").get_data(as_text=True)
    assert page.count('<th scope="row">') == 4 and "all=1" not in page


def test_the_seasons_are_a_row_of_links_with_the_chosen_one_marked(app: Flask, client: FlaskClient) -> None:
    today = date.today()
    with app.app_context():
        now = league.save_season(
            None, name="Agora", starts_on=today - timedelta(days=9), ends_on=today + timedelta(days=9)
        )
        old = league.save_season(None, name="Antiga", starts_on="2020-01-01", ends_on="2020-06-30")
        now_id, old_id = now.id, old.id
    page = client.get("/league/jubileu").get_data(as_text=True)
    assert "<select" not in page  # one tap, no select and submit
    current = f'<a class="season-chip is-current" href="/league/jubileu?season={now_id}" aria-current="page">'
    assert current in page  # the current season is the default, marked
    assert f'href="/league/jubileu?season={old_id}"' in page and 'href="/league/jubileu?season=all"' in page
    chosen = client.get(f"/league/jubileu?season={old_id}").get_data(as_text=True)
    assert f'class="season-chip is-current" href="/league/jubileu?season={old_id}" aria-current="page"' in chosen
    assert chosen.count('aria-current="page"') == 2  # the season and the game tab
