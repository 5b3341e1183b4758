"""The club night's choice: only the tables that can be settled together are ticked; every other
table of the evening is listed apart with the sentence saying why. The ticks are a suggestion:
the settle-up itself refuses what cannot be settled together, whatever the form sends."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.web.api_support import create_table, record_ok, solo_record


def _jubileu(client: FlaskClient, **fields) -> dict:
    table = create_table(client, **fields)
    record_ok(client, table, solo_record("Dani"))
    return table


def _night(app: Flask, client: FlaskClient) -> str:
    assert client.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302
    client.set_cookie("lang", "en")
    response = client.get("/night")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def _ticked(page: str) -> set[str]:
    return set(re.findall(r'name="t" value="([^"]+)" checked', page))


def _listed(page: str) -> set[str]:
    return set(re.findall(r'name="t" value="([^"]+)"', page))


def _reason(page: str, table_id: str) -> str:
    found = re.search(rf'id="why-{re.escape(table_id)}">([^<]+)<', page)
    assert found, table_id
    return found.group(1)


def test_money_tables_are_ticked_and_a_chips_only_one_is_named_apart(app: Flask, client: FlaskClient) -> None:
    one = _jubileu(client, options={"chip_value": "0.50"})
    two = _jubileu(client, game="jubileu", options={"chip_value": "1.00"})
    chips = _jubileu(client)
    page = _night(app, client)
    assert _ticked(page) == {one["id"], two["id"]}
    assert _listed(page) == {one["id"], two["id"], chips["id"]}
    assert "money value per chip" in _reason(page, chips["id"])
    assert "Left out" in page


def test_one_game_played_for_chips_outnumbering_the_money_tables_wins(app: Flask, client: FlaskClient) -> None:
    a, b = _jubileu(client), _jubileu(client)
    money = _jubileu(client, options={"chip_value": "0.50"})
    other = create_table(client, game="quatrilho", players=["Ana", "Bia", "Caio", "Dani"])
    page = _night(app, client)
    assert _ticked(page) == {a["id"], b["id"]}
    assert "for money" in _reason(page, money["id"])
    # Quatrilho has no hand: that is the first thing to say about it.
    assert "No hand" in _reason(page, other["id"])


def test_a_patience_an_empty_table_and_a_hand_to_confirm_are_left_out(app: Flask, client: FlaskClient) -> None:
    kept = _jubileu(client, options={"chip_value": "0.50"})
    patience = create_table(client, game="relogio", players=["Ana"])
    empty = create_table(client, options={"chip_value": "0.50"})
    waiting = _jubileu(client, two_key=True, options={"chip_value": "0.50"})
    page = _night(app, client)
    assert _ticked(page) == {kept["id"]}
    assert "nobody pays" in _reason(page, patience["id"])
    assert "No hand" in _reason(page, empty["id"])
    assert "waiting for its confirmation" in _reason(page, waiting["id"])


def test_every_table_fitting_together_shows_no_left_out_box(app: Flask, client: FlaskClient) -> None:
    one, two = _jubileu(client), _jubileu(client)
    page = _night(app, client)
    assert _ticked(page) == {one["id"], two["id"]}
    assert "Left out" not in page and "why-" not in page


def test_the_portuguese_reasons_read_naturally(app: Flask, client: FlaskClient) -> None:
    _jubileu(client, options={"chip_value": "0.50"})
    _jubileu(client, options={"chip_value": "0.50"})
    chips = _jubileu(client)
    assert client.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302
    page = client.get("/night").get_data(as_text=True)
    assert "Deixadas de fora" in page
    assert "valor em dinheiro" in _reason(page, chips["id"])


def test_a_forged_choice_of_tables_that_cannot_go_together_is_refused(app: Flask, client: FlaskClient) -> None:
    money = _jubileu(client, options={"chip_value": "0.50"})
    other = create_table(client, game="quatrilho", players=["Ana", "Bia", "Caio", "Dani"])
    client.set_cookie("lang", "en")
    response = client.get(f"/night/settle?t={money['id']}&t={other['id']}")
    assert response.status_code == 422
    assert "money value" in response.get_data(as_text=True)


def test_a_chips_only_table_ticked_with_money_tables_answers_what_works(app: Flask, client: FlaskClient) -> None:
    """Ticking a chips-only table with money tables answers a page that names the table that cannot
    join and why, keeps every tick, offers to settle it apart (its money value cannot change after
    its first hand, so that is never the advice) and to settle the others together."""
    one = _jubileu(client, name="Mesa da janela", options={"chip_value": "0.50"})
    two = _jubileu(client, name="Mesa do meio", options={"chip_value": "1.00"})
    chips = _jubileu(client, name="Mesa do fundo")
    assert client.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302
    ids = [one["id"], two["id"], chips["id"]]
    for lang, advice in (("en", "give it a money value"), ("pt-BR", "dê a ela um valor")):
        client.set_cookie("lang", lang)
        response = client.get("/night/settle?" + "&".join(f"t={i}" for i in ids))
        assert response.status_code == 422
        page = response.get_data(as_text=True)
        assert _ticked(page) == set(ids)  # the ticks are kept
        reason = _reason(page, chips["id"])
        assert "Mesa do fundo" in page.split(f'id="why-{chips["id"]}"')[0].rsplit("<li", 1)[1]
        assert ("chips only" in reason) if lang == "en" else ("só por fichas" in reason), reason
        assert advice not in page and "give every table" not in page
        assert f'href="/t/{chips["id"]}/settle"' in page  # settle it apart
        together = re.search(r'href="(/night/settle\?[^"]+)"', page)
        assert together and set(re.findall(r"t=([^&\"]+)", together.group(1))) == {one["id"], two["id"]}
    assert client.get(together.group(1).replace("&amp;", "&")).status_code == 200
    # The evening's list gives the same advice, with the same link.
    page = client.get("/night").get_data(as_text=True)
    assert "dê a ela um valor" not in page and f'href="/t/{chips["id"]}/settle"' in page
