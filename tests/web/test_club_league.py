"""Each club has its own players, league and ratings on a server that hosts several.

Two clubs each have an "Ana": two members, one per club. Each club's league lists its own players
and rates them from its own hands only, and the ratings' command brings every club's up to date,
or one club's.
"""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from referee import ratings
from referee.club_scope import HOME_CLUB, serving
from referee.db import db
from referee.models import Member, Seat

from .club_support import add_club, phone_at
from .test_ratings import play, table_of

FIRST = ("Ana", "Bia", "Caio", "Dani")
SECOND = ("Ana", "Lia", "Rui", "Gal")


def _names(page: str) -> set[str]:
    return {name for name in {*FIRST, *SECOND} if re.search(rf">\s*{name}\s*<", page)}


def test_two_clubs_keep_their_own_players_league_and_ratings(app: Flask, client: FlaskClient) -> None:
    other = add_club(app, "outro")
    phone = phone_at(app, "outro")
    for who, players in ((client, FIRST), (phone, SECOND)):
        who.set_cookie("lang", "en")
        play(who, table_of(who, "jubileu", players), "jubileu", players, range(4))

    assert _names(client.get("/league/jubileu?season=all").get_data(as_text=True)) == set(FIRST)
    assert _names(phone.get("/league/jubileu?season=all").get_data(as_text=True)) == set(SECOND)
    assert _names(client.get("/players").get_data(as_text=True)) == set(FIRST)
    assert _names(phone.get("/players").get_data(as_text=True)) == set(SECOND)

    with app.app_context():
        everyone = db.session.execute(select(Member.club_id, Member.name).execution_options(all_clubs=True)).all()
        assert sorted(everyone) == sorted([(HOME_CLUB, n) for n in FIRST] + [(other, n) for n in SECOND])
        rated = {}
        for club in (HOME_CLUB, other):
            with serving(club):
                names = dict(db.session.execute(select(Member.id, Member.name)).all())
                rated[club] = {names[m]: games for m, (_mu, _sigma, games) in ratings.stored("jubileu").items()}
        # Each club's players, rated from the same four hands each: the same counts, not the sum.
        assert set(rated[HOME_CLUB]) == set(FIRST) and set(rated[other]) == set(SECOND)
        assert list(rated[HOME_CLUB].values()) == list(rated[other].values()) and rated[other]["Ana"] > 0


def test_the_ratings_command_acts_for_every_club_or_the_one_named(app: Flask, client: FlaskClient) -> None:
    add_club(app, "outro")
    phone = phone_at(app, "outro")
    for who, players in ((client, FIRST), (phone, SECOND)):
        play(who, table_of(who, "jubileu", players), "jubileu", players, range(3))
    runner = app.test_cli_runner()

    every = runner.invoke(args=["ratings", "recompute", "--game", "jubileu"])
    assert every.exit_code == 0, every.output
    lines = every.output.splitlines()
    assert [line.split(": ")[:2] for line in lines] == [["clube", "jubileu"], ["outro", "jubileu"]]
    rated = lines[0].split(": ", 1)[1]
    assert re.fullmatch(r"jubileu: [1-9] hands rated\.", rated) and lines[1] == f"outro: {rated}"
    one = runner.invoke(args=["ratings", "recompute", "--game", "jubileu", "--club", "outro"])
    assert one.output.splitlines() == [rated]
    unknown = runner.invoke(args=["ratings", "catch-up", "--club", "nada"])
    assert unknown.exit_code == 2 and "no club is called 'nada'" in unknown.output


def test_a_phone_keeps_what_it_holds_at_each_club(app: Flask) -> None:
    """A phone owns a table at the first club, then opens one at another club and comes back:
    it still owns both (each club's holds under a key of their own), and each club's home page
    lists its own table only."""
    add_club(app, "outro")
    phone = phone_at(app, "outro")
    made = {}
    for prefix in ("", "/k/outro", "", "/k/outro"):
        phone.prefix = prefix
        if prefix not in made:
            answer = phone.post("/tables/new?game=jubileu", data={f"player_{i}": n for i, n in enumerate(FIRST)})
            assert answer.status_code == 302
            made[prefix] = answer.headers["Location"].rsplit("/", 1)[-1]
        for where, table_id in made.items():
            phone.prefix = where
            assert f"/t/{table_id}/end" in phone.get(f"/t/{table_id}/share").get_data(as_text=True), (prefix, where)
            home = phone.get("/").get_data(as_text=True)
            assert all((f"/t/{t}" in home) == (w == where) for w, t in made.items()), where


def test_a_core_statement_through_the_session_sees_the_club_served(app: Flask, client: FlaskClient) -> None:
    """The scope limits a Core statement on a club's table whether it runs on the session or on
    its connection (a statement of the models is the ORM's criterion's)."""
    other = add_club(app, "outro")
    play(client, table_of(client, "jubileu", FIRST), "jubileu", FIRST, range(1))
    seats = Seat.__table__
    with app.app_context():
        everyone = len(db.session.execute(select(seats.c.id).execution_options(all_clubs=True)).all())
        assert everyone == 4
        with serving(other):
            assert db.session.execute(select(seats.c.id)).all() == []
            assert db.session.connection().execute(select(seats.c.id)).all() == []
            assert db.session.execute(select(Seat.id)).all() == []
        db.session.rollback()
        with serving(HOME_CLUB):
            assert len(db.session.execute(select(seats.c.id)).all()) == 4
