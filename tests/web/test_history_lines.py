"""Each line of the history says what was made and the result, in the game's own words (a
Jubileu contract with its tricks and "fez", a Quatrilho call "perdeu, mancha", Samba's teams'
points, ...): one hand per game, recorded through the API, read on the pt-BR history page."""

from __future__ import annotations

import pytest
from flask import Flask

from tests.web.test_corrections import HANDS, P4, table_with, text_of

#: What the history line of each hand in tests.web.test_corrections.HANDS says: its head (number
#: and what happened) and its deltas.
LINES = {
    "cachorro": "Partida 1 Paciência do Cachorro · ganhou · rodada 2",
    "el_gato": "Mão 1 Caio perdeu Ana +1 · Bia +1 · Caio −3 · Dani +1",
    "injun": "Mão 1 Pôquer · Ana leva 7 Ana +4 · Bia −3 · Caio −1",
    "jubileu_meia": "Mão 1 Meia Miséria · Ana e Caio — Ana: 1 vaza, fez ; Caio: 0 vazas, não fez Ana +12 · Bia 0 · Caio −12 · Dani 0",
    "jubileu_partner": "Mão 1 Jogo Obrigatório ♠ · Caio + Bia (Ás de paus) — 7 vazas, não fez Ana +3 · Bia −3 · Caio −3 · Dani +3",
    "jubileu_solo": "Mão 1 Solo Sete ♠ · Ana — 9 vazas, fez Ana +12 · Bia −4 · Caio −4 · Dani −4",
    "jubileu_tricks": "Mão 1 Solo Sete ♠ · Ana — 6 vazas, não fez Ana −6 · Bia +2 · Caio +2 · Dani +2",
    "kentucky_derby": "Corrida 1 Ás de ♥ copas venceu · apostadores: Ana Ana +6 · Bia −2 · Caio −2 · Dani −2",
    "koziri": "Mão 1 Bia ganhou · trunfos ♠ Bia, ♦ Ana Ana −1 · Bia +1",
    "lift_smoke": "Mão 1 Bia levou o bolo · entrada 2 Ana −2 · Bia +6 · Caio −2 · Dani −2",
    "quatrilho_chamada": "Mão 1 Chamada · Ana + Caio · ♣ Três de paus — perdeu, mancha Ana −14 · Bia +7 · Caio 0 · Dani +7",
    "quatrilho_players": "Mão 1 Chamada · Ana + Caio · ♣ Três de paus — ganhou Ana +6 · Bia −6 · Caio +6 · Dani −6",
    "relogio": "Partida 1 Relógio · ganhou · usou a troca do Rei",
    "samba": "Mão 1 Caio bateu Ana & Caio +3.605 · Bia & Dani +740",
}


def line(app: Flask, case: str, language: str = "pt-BR") -> str:
    players, options, record = HANDS[case]
    game = case.split("_")[0] if case.startswith(("jubileu", "quatrilho")) else case
    tid, _api, phone = table_with(app, game, players, options, record)
    phone.get(f"/lang/{language}")
    history = phone.get(f"/t/{tid}/history").get_data(as_text=True)
    return text_of(history.split('id="hand-1">', 1)[1].split("<details", 1)[0])


def test_every_case_has_its_line() -> None:
    assert sorted(LINES) == sorted(HANDS)


@pytest.mark.parametrize("case", sorted(LINES))
def test_a_history_line_says_what_was_made_and_the_result(app: Flask, case: str) -> None:
    assert line(app, case) == LINES[case]


def test_the_lines_in_english(app: Flask) -> None:
    assert line(app, "jubileu_solo", "en").startswith("Hand 1 Solo Sete ♠ · Ana — 9 tricks, made ")
    assert line(app, "quatrilho_chamada", "en").startswith(
        "Hand 1 Chamada · Ana + Caio · ♣ Three of clubs — lost, mancha "
    )


def test_a_meia_miseria_line_gives_each_declarer(app: Flask) -> None:
    # Ana declares Meia Miséria and Caio joins: Ana takes exactly one trick (made), Caio none.
    record = {
        "ultima": "copas",
        "auction": [["Ana", "meia_miseria"], ["Bia", "passo"], ["Caio", "meia_miseria"], ["Dani", "passo"]],
        "tricks": {"Ana": 1, "Bia": 6, "Caio": 0, "Dani": 6},
    }
    tid, _api, phone = table_with(app, "jubileu", P4, {}, record)
    phone.get("/lang/pt-BR")
    history = phone.get(f"/t/{tid}/history").get_data(as_text=True)
    head = text_of(history.split('id="hand-1">', 1)[1].split("</div>", 1)[0]).replace(" ;", ";")  # a tag, not a space
    assert head == "Mão 1 Meia Miséria · Ana e Caio — Ana: 1 vaza, fez; Caio: 0 vazas, não fez"


def test_a_meia_miseria_declarer_who_failed_is_never_said_to_have_made_it(app: Flask) -> None:
    """Both fail, Ana far worse (9 tricks) than Caio (0): under the default settlement Caio
    still collects from Ana, so his net is positive, and yet he did not make his contract."""
    record = {
        "ultima": "copas",
        "auction": [["Ana", "meia_miseria"], ["Bia", "passo"], ["Caio", "meia_miseria"], ["Dani", "passo"]],
        "tricks": {"Ana": 9, "Bia": 2, "Caio": 0, "Dani": 2},
    }
    tid, api, phone = table_with(app, "jubileu", P4, {}, record)
    assert api.get(f"/api/v1/tables/{tid}").get_json()["hands"][0]["deltas"]["Caio"] > 0
    phone.get("/lang/pt-BR")
    history = phone.get(f"/t/{tid}/history").get_data(as_text=True)
    head = text_of(history.split('id="hand-1">', 1)[1].split("</div>", 1)[0]).replace(" ;", ";")
    assert head == "Mão 1 Meia Miséria · Ana e Caio — Ana: 9 vazas, não fez; Caio: 0 vazas, não fez"


def test_everybody_passed_says_only_that(app: Flask) -> None:
    record = {"ultima": "ouros", "auction": [[p, "passo"] for p in P4]}
    tid, _api, phone = table_with(app, "jubileu", P4, {}, record)
    phone.get("/lang/pt-BR")
    history = phone.get(f"/t/{tid}/history").get_data(as_text=True)
    assert text_of(history.split('id="hand-1">', 1)[1].split("</div>", 1)[0]) == "Mão 1 Todos passaram"
