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


# --------------------------------------------------------------------------- seats, dealer, mistakes


def drawn(html: str) -> str:
    """The seating drawing the page shows (the others of the game's sizes are hidden)."""
    shown = [svg for svg in re.findall(r"<svg [^>]*data-seating=.*?</svg>", html, re.S) if " hidden>" not in svg]
    assert len(shown) == 1, shown
    return shown[0]


def seats_drawn(html: str) -> int:
    return len(re.findall(r'<circle [^>]*class="seat"', drawn(html)))


def seat_xs(html: str) -> list[int]:
    return [int(x) for x in re.findall(r'<circle cx="(\d+)"[^>]*class="seat"', drawn(html))]


def test_the_drawing_turns_the_way_each_game_goes_round(client: FlaskClient) -> None:
    """Seat 1 is nearest the reader: the next seat is on the reader's right for a game that goes
    to the right (counter-clockwise: Jubileu, Quatrilho), on the left for the others (Samba)."""
    for game, side in (("jubileu", "direita"), ("quatrilho", "direita"), ("samba", "esquerda"), ("injun", "esquerda")):
        html = client.get(f"/tables/new?game={game}", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
        first, second = seat_xs(html)[:2]
        assert (second > first) == (side == "direita"), game
        title = re.search(r"<title[^>]*>(.*?)</title>", drawn(html))
        assert title is not None and f"do lugar 1 para o da {side}" in title.group(1), game
        other = "esquerda" if side == "direita" else "direita"
        assert f"para o da {other}" not in html, game


def test_the_drawing_has_as_many_seats_as_names(client: FlaskClient) -> None:
    """Every size the game is played at is drawn (app.js shows the one with as many seats as
    names typed); a refused post comes back drawn for the names it had."""
    html = client.get("/tables/new?game=injun").get_data(as_text=True)
    assert sorted(int(n) for n in re.findall(r'data-seating="(\d+)"', html)) == list(range(2, 16))
    five = {f"player_{i}": name for i, name in enumerate(["Ana", "Bia", "Caio", "Dani", "Edu"])}
    response = client.post("/tables/new?game=lift_smoke", data={**five, "player_1": "ana"})
    assert response.status_code == 422
    assert seats_drawn(response.get_data(as_text=True)) == 5


def dealer_chips(html: str) -> dict[str, bool]:
    """Seat -> whether its "who deals first" chip shows (a chip of an empty seat is hidden)."""
    chips = re.findall(r'<label class="chip" data-dealer-seat="(\d+)"([^>]*)>', html)
    return {seat: "hidden" not in rest for seat, rest in chips}


def test_the_form_draws_and_asks_the_seats_the_game_has(client: FlaskClient) -> None:
    """Koziri is for two: two names, two seats drawn, two dealers to choose from. Lift Smoke is
    for four to six: six names, six seats. Injun (2 to 15) draws the four seats shown at first."""
    for game, names, drawn in (("koziri", 2, 2), ("lift_smoke", 6, 6), ("injun", 15, 4), ("jubileu", 4, 4)):
        html = client.get(f"/tables/new?game={game}").get_data(as_text=True)
        assert len(re.findall(r'name="player_\d+"', html)) == names, game
        assert seats_drawn(html) == drawn, game
        assert len(dealer_chips(html)) == names, game
    html = client.get("/tables/new?game=koziri").get_data(as_text=True)
    assert "2 lugares em volta da mesa" in html


def test_each_game_says_its_own_first_dealer_rule_by_the_dealer_choice(client: FlaskClient) -> None:
    said = {
        "injun": "o primeiro que receber um ás dá as cartas primeiro",
        "lift_smoke": "quem tirar a mais alta dá as cartas primeiro",
        "koziri": "Quem tirar a carta mais alta dá as cartas primeiro",
        "jubileu": "Quem tirar a carta mais baixa",
    }
    for game, sentence in said.items():
        html = client.get(f"/tables/new?game={game}").get_data(as_text=True)
        fieldset = html[html.index('id="dealer-choice"') :]
        fieldset = fieldset[: fieldset.index("</fieldset>")]
        assert sentence in fieldset, game


def test_every_mistake_is_marked_at_once_and_what_was_typed_stays(app: Flask, client: FlaskClient) -> None:
    """Lift Smoke with seats 2 and 4 empty before a named sixth, the same name twice, an ante
    that is not a number and a dealer whose seat is empty: every field says what is wrong, on
    one page, and nothing is stored."""
    form = {
        "player_0": "Ana",
        "player_2": "Caio",
        "player_4": "ana",
        "player_5": "Fabi",
        "opt_ante": "dois",
        "dealer": "3",
        "name": "Sexta no clube",
    }
    response = client.post("/tables/new?game=lift_smoke", data=form)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    errors = re.findall(r'<p class="field-error" role="alert" id="([^"]+)">([^<]*)</p>', html)
    by_field = dict(errors)
    assert by_field["player_1-err"] == by_field["player_3-err"] == "Escreva o nome deste jogador."
    assert by_field["player_4-err"] == "Há dois jogadores chamados ana; dê um nome diferente a cada um."
    assert by_field["dealer-err"] == "Escolha quem dá as cartas primeiro entre os jogadores da mesa."
    assert re.search(r'id="opt_ante"[^>]*value="dois"[^>]*aria-invalid="true"', html, re.S)
    assert "Confira os campos marcados abaixo." in html
    assert html.count('class="field-error"') == 6  # that sentence, the four above and the ante's
    for field, value in form.items():
        if field.startswith("player_"):
            assert f'name="{field}" value="{value}"' in html
    assert 'value="Sexta no clube"' in html
    # the dealer choice offers only the seated players
    assert dealer_chips(html) == {str(i): i in (0, 2, 4, 5) for i in range(6)}
    with app.app_context():
        assert db.session.query(Table).count() == 0


def test_a_dealer_who_is_not_seated_is_refused(app: Flask, client: FlaskClient) -> None:
    """A forged dealer (a seat the game does not have, an empty seat, not a number) gets a
    sentence and stores nothing; a seated one deals."""
    two = {"player_0": "Ana", "player_1": "Bia"}
    for forged in ("2", "7", "-1", "x", "01a"):
        response = client.post("/tables/new?game=koziri", data={**two, "dealer": forged})
        assert response.status_code == 422, forged
        assert "Escolha quem dá as cartas primeiro entre os jogadores da mesa." in response.get_data(as_text=True)
    four = {"player_0": "Ana", "player_1": "Bia", "player_2": "Caio", "player_3": "Dani"}
    response = client.post("/tables/new?game=lift_smoke", data={**four, "dealer": "5"})
    assert response.status_code == 422
    with app.app_context():
        assert db.session.query(Table).count() == 0
    response = client.post("/tables/new?game=lift_smoke", data={**four, "dealer": "2"})
    assert response.status_code == 302
    response = client.post("/tables/new?game=lift_smoke", data={**four, "dealer": ""})  # the last named
    assert response.status_code == 302
    with app.app_context():
        dealers = [t.state["next_dealer"] for t in db.session.query(Table).order_by(Table.created_at)]
    assert dealers == ["Caio", "Dani"]
