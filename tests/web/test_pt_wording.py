"""Portuguese a player would write: counts go through plural forms, never the "mão(s)"
shortcut, and a table named after its game does not show the game's name twice."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from .test_pages import new_table

CATALOGUE = Path(__file__).resolve().parents[2] / "referee/translations/pt_BR/LC_MESSAGES/messages.po"

#: "mão(s)", "jogador(es)", "um(a)": a word with its plural or gender ending in brackets.
SHORTCUT = re.compile(r"\w\((?:s|es|ns|is|a|as)\)", re.IGNORECASE)


def _translations() -> list[tuple[str, str]]:
    with CATALOGUE.open("rb") as f:
        catalogue = read_po(f)
    out = []
    for message in catalogue:
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        out.extend((msgid, s) for s in strings)
    return out


def test_no_bracketed_plural_shortcuts_in_the_portuguese_catalogue() -> None:
    offending = [(msgid, s) for msgid, s in _translations() if SHORTCUT.search(s)]
    assert offending == [], "use ngettext / NP_ instead of a (s) ending: " + repr(offending)


def _title(html: str) -> str:
    found = re.search(r"<title>(.*?)</title>", html, re.S)
    assert found is not None
    return found.group(1)


def _table_title_block(html: str) -> str:
    found = re.search(r'<div class="table-title">(.*?)</div>', html, re.S)
    assert found is not None
    return found.group(1)


def test_a_table_named_after_its_game_shows_the_game_once(client: FlaskClient) -> None:
    table_id = new_table(client, name="Jubileu")
    pt = {"Accept-Language": "pt-BR"}
    show = client.get(f"/t/{table_id}", headers=pt).get_data(as_text=True)
    assert _title(show).count("Jubileu") == 1
    assert _table_title_block(show).count("Jubileu") == 1
    settle = client.get(f"/t/{table_id}/settle", headers=pt).get_data(as_text=True)
    assert _title(settle).count("Jubileu") == 1
    assert "Jubileu · Jubileu" not in settle
    home = client.get("/", headers=pt).get_data(as_text=True)
    assert "Jubileu · Jubileu" not in home
    assert home.count(">Jubileu<") <= 1


def test_a_table_with_its_own_name_still_says_which_game(client: FlaskClient) -> None:
    table_id = new_table(client, name="Sexta no clube")
    show = client.get(f"/t/{table_id}", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    block = _table_title_block(show)
    assert "Sexta no clube" in block and "Jubileu" in block


def test_each_game_names_its_rounds_in_its_own_words(client: FlaskClient) -> None:
    """A Kentucky Derby race is a "corrida", a patience game a "partida"; no count reads "0 mão"."""
    pt = {"Accept-Language": "pt-BR"}
    derby = client.post(
        "/tables/new?game=kentucky_derby",
        data={"player_0": "Ana", "player_1": "Bia", "player_2": "Caio", "dealer": "2"},
    )
    patience = client.post("/tables/new?game=relogio", data={"player_0": "Ana", "opt_sequences_to_win": "3"})
    for response, word in [(derby, "corrida"), (patience, "partida")]:
        table_id = response.headers["Location"].rsplit("/t/", 1)[1]
        show = client.get(f"/t/{table_id}", headers=pt).get_data(as_text=True)
        assert f"0 {word}s" in show and f"Anotar a próxima {word}" in show
        assert "mão" not in _table_title_block(show) and "próxima mão" not in show
        hand = client.get(f"/t/{table_id}/hand", headers=pt).get_data(as_text=True)
        assert _title(hand).startswith(f"{word.capitalize()} 1 ·")
