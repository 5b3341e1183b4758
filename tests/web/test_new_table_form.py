"""The new-table pages with every game: the chooser, folded extra seats, one-player patience
tables, and a seating the game refuses (El Gato's counts that do not share the 40 cards)."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from referee.extensions import db
from referee.models import Table
from referee.rules import GAMES


def test_the_chooser_offers_every_game_with_how_many_play(client: FlaskClient) -> None:
    html = client.get("/tables/new").get_data(as_text=True)
    for slug in GAMES:
        assert f"/tables/new?game={slug}" in html
    assert "2, 4, 5, 8 or 10 players" in html or "2, 4, 5, 8 ou 10 jogadores" in html
    assert "More games are coming" not in html
    # patience games come under their own heading, after every table game
    assert html.index("game=el_gato") < html.index("game=relogio") < html.index("game=cachorro")


def test_seats_beyond_the_usual_four_start_folded_but_are_all_in_the_page(client: FlaskClient) -> None:
    html = client.get("/tables/new?game=injun").get_data(as_text=True)
    assert len(re.findall(r'name="player_\d+"', html)) == 15  # no JavaScript: every seat shows
    folded = set(re.findall(r'class="field" data-more-seat="(\d+)"', html))
    assert folded == {str(i) for i in range(4, 15)}
    assert "data-add-seat" in html
    # a game of four to six shows its six seats at once
    html = client.get("/tables/new?game=lift_smoke").get_data(as_text=True)
    assert "data-more-seat" not in html and "data-add-seat" not in html


def test_a_seat_named_in_a_refused_post_stays_open(client: FlaskClient) -> None:
    form = {f"player_{i}": name for i, name in enumerate(["Ana", "Bia", "Caio", "Dani", "Edu", "Fabi"])}
    response = client.post("/tables/new?game=injun", data={**form, "player_1": "ana", "opt_ante": "1"})
    assert response.status_code == 422
    folded = set(re.findall(r'class="field" data-more-seat="(\d+)"', response.get_data(as_text=True)))
    assert "4" not in folded and "5" not in folded and "6" in folded


def test_a_patience_table_asks_one_name_and_no_dealer(app: Flask, client: FlaskClient) -> None:
    html = client.get("/tables/new?game=relogio").get_data(as_text=True)
    assert 'name="player_0"' in html and 'name="player_1"' not in html
    assert 'name="dealer"' not in html and 'name="duration"' not in html
    response = client.post("/tables/new?game=relogio", data={"player_0": "Ana", "opt_sequences_to_win": "3"})
    assert response.status_code == 302, response.get_data(as_text=True)
    with app.app_context():
        table = db.session.query(Table).one()
        assert table.game == "relogio" and [s.name for s in table.seats] == ["Ana"]


def test_el_gato_with_three_players_is_refused_and_nothing_is_stored(app: Flask, client: FlaskClient) -> None:
    form = {"player_0": "Ana", "player_1": "Bia", "player_2": "Caio"}
    response = client.post("/tables/new?game=el_gato", data=form)
    assert response.status_code == 422
    assert "2, 4, 5, 8" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Table).count() == 0
    response = client.post("/tables/new?game=el_gato", data={**form, "player_3": "Dani"})
    assert response.status_code == 302


def test_the_default_wordings_are_in_portuguese(client: FlaskClient) -> None:
    """The fallbacks of the per-game wordings are extracted and translated like the entries
    (a msgid marked inside another call's argument would be missed by the extractor)."""
    html = client.get("/tables/new?game=jubileu").get_data(as_text=True)
    assert "Quem tirar a carta mais baixa" in html
    html = client.get("/tables/new?game=injun").get_data(as_text=True)
    assert "Escreva os nomes na ordem em que o jogo gira: depois do jogador 1" in html
    response = client.post("/api/v1/tables", json={"game": "jubileu", "players": ["Ana", "Bia", "Caio", "Dani"]})
    assert "Dani dá as cartas; Ana fala primeiro." in client.get(f"/t/{response.get_json()['id']}").get_data(
        as_text=True
    )
