"""POST /api/v1/tables and GET /api/v1/tables/{id} (docs/api.md, "Tables")."""

from __future__ import annotations

import hashlib
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.extensions import db
from referee.models import Seat, Table
from referee.rules.jubileu import OPTIONS

from .api_support import (
    API,
    PLAYERS,
    all_pass_record,
    assert_error,
    create_table,
    get_table,
    record_ok,
    solo_record,
    void,
)

URLSAFE = re.compile(r"^[A-Za-z0-9_-]+$")
DEFAULT_OPTIONS = {spec.name: spec.default for spec in OPTIONS}


def count_tables(app: Flask) -> int:
    with app.app_context():
        return db.session.query(Table).count()


# --------------------------------------------------------------------------- creating


def test_create_answers_201_with_the_table(client: FlaskClient) -> None:
    response = client.post(f"{API}/tables", json={"game": "jubileu", "players": PLAYERS, "name": "Sexta no clube"})
    assert response.status_code == 201
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert len(body["id"]) >= 22 and URLSAFE.match(body["id"])
    assert body["game"] == "jubileu"
    assert body["name"] == "Sexta no clube"
    assert body["players"] == PLAYERS
    assert body["options"] == DEFAULT_OPTIONS
    assert body["options"]["overtricks"] is True
    assert body["options"]["misere_margin"] == "deviation"
    assert body["options"]["meia_miseria_settlement"] == "everyone"
    assert body["options"]["chip_value"] == "0"
    assert body["options"]["starting_chips"] == 0
    assert isinstance(body["token"], str) and len(body["token"]) >= 32
    assert body["token"] != body["id"]
    assert body["next_dealer"] == "Dani"  # the last player deals first
    assert body["urls"]["table"].startswith("http") and body["urls"]["table"].endswith(body["id"])
    assert body["urls"]["watch"].startswith("http") and body["id"] in body["urls"]["watch"]
    assert body["urls"]["watch"] != body["urls"]["table"]
    assert response.headers["Location"].endswith(f"{API}/tables/{body['id']}")
    assert body["language"] == "pt-BR"


def test_every_table_gets_its_own_id_and_token(client: FlaskClient) -> None:
    first, second = create_table(client), create_table(client)
    assert first["id"] != second["id"]
    assert first["token"] != second["token"]


def test_explicit_dealer_deals_first(client: FlaskClient) -> None:
    body = create_table(client, dealer="Bia")
    assert body["next_dealer"] == "Bia"
    assert get_table(client, body["id"])["next_dealer"] == "Bia"


def test_options_given_are_kept_and_the_rest_defaulted(client: FlaskClient) -> None:
    body = create_table(client, options={"overtricks": False, "chip_value": "0.50", "starting_chips": 50})
    assert body["options"] == {**DEFAULT_OPTIONS, "overtricks": False, "chip_value": "0.50", "starting_chips": 50}
    assert get_table(client, body["id"])["options"] == body["options"]
    assert body["stock"] == dict.fromkeys(PLAYERS, 50)


def test_player_names_are_trimmed_and_stored_in_order(app: Flask, client: FlaskClient) -> None:
    body = create_table(client, players=["  Ana ", "Bia", "Caio  Lima", "Dani"])
    assert body["players"] == ["Ana", "Bia", "Caio Lima", "Dani"]
    with app.app_context():
        seats = db.session.query(Seat).filter_by(table_id=body["id"]).order_by(Seat.position).all()
        assert [s.name for s in seats] == ["Ana", "Bia", "Caio Lima", "Dani"]


def test_token_is_stored_only_as_its_sha256(app: Flask, client: FlaskClient) -> None:
    body = create_table(client)
    with app.app_context():
        table = db.session.get(Table, body["id"])
        assert table is not None
        assert table.scorer_token_hash != body["token"]
        assert body["token"] not in table.scorer_token_hash
        assert table.scorer_token_hash == hashlib.sha256(body["token"].encode()).hexdigest()
        # Nowhere else in the row either.
        assert body["token"] not in repr(table.options) + table.name + table.id


def test_english_table(client: FlaskClient) -> None:
    body = create_table(client, language="en")
    assert body["language"] == "en"
    assert get_table(client, body["id"])["language"] == "en"


# --------------------------------------------------------------------------- 400: malformed


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"data": "game=jubileu", "content_type": "application/x-www-form-urlencoded"}, None),
        ({"data": "{not json", "content_type": "application/json"}, None),
        ({"json": ["jubileu", "Ana"]}, None),
        ({"json": {"players": PLAYERS}}, "game"),
        ({"json": {"game": "jubileu"}}, "players"),
        ({"json": {"game": "jubileu", "players": "Ana,Bia,Caio,Dani"}}, "players"),
        ({"json": {"game": "jubileu", "players": {"Ana": 1}}}, "players"),
        ({"json": {"game": "jubileu", "players": ["Ana", "Bia", 3, "Dani"]}}, "players[2]"),
        ({"json": {"game": "jubileu", "players": ["Ana", "Bia", "  ", "Dani"]}}, "players[2]"),
        ({"json": {"game": "jubileu", "players": ["Ana", "Bia", "C" * 41, "Dani"]}}, "players[2]"),
        ({"json": {"game": 7, "players": PLAYERS}}, "game"),
        ({"json": {"game": "jubileu", "players": PLAYERS, "dealer": 3}}, "dealer"),
        ({"json": {"game": "jubileu", "players": PLAYERS, "name": ["x"]}}, "name"),
        ({"json": {"game": "jubileu", "players": PLAYERS, "options": ["overtricks"]}}, "options"),
        ({"json": {"game": "jubileu", "players": PLAYERS, "options": {"sobras": True}}}, "options.sobras"),
        ({"json": {"game": "jubileu", "players": PLAYERS, "options": {"overtricks": "yes"}}}, "options.overtricks"),
        (
            {"json": {"game": "jubileu", "players": PLAYERS, "options": {"misere_margin": "double"}}},
            "options.misere_margin",
        ),
        ({"json": {"game": "jubileu", "players": PLAYERS, "options": {"chip_value": 0.5}}}, "options.chip_value"),
        ({"json": {"game": "jubileu", "players": PLAYERS, "options": {"chip_value": "0.505"}}}, "options.chip_value"),
        (
            {"json": {"game": "jubileu", "players": PLAYERS, "options": {"starting_chips": -1}}},
            "options.starting_chips",
        ),
        (
            {"json": {"game": "jubileu", "players": PLAYERS, "options": {"starting_chips": True}}},
            "options.starting_chips",
        ),
        ({"json": {"game": "jubileu", "players": PLAYERS, "language": "fr"}}, "language"),
        ({"json": {"game": "jubileu", "players": PLAYERS, "table_name": "x"}}, "table_name"),
        ({"json": {"game": "jubileu", "players": PLAYERS, "teams": [["Ana", "Caio"], ["Bia", "Dani"]]}}, "teams"),
        ({"json": {"game": "truco", "players": PLAYERS}}, "game"),
    ],
    ids=[
        "form-body",
        "broken-json",
        "json-list",
        "no-game",
        "no-players",
        "players-string",
        "players-object",
        "player-not-text",
        "player-blank",
        "player-too-long",
        "game-not-text",
        "dealer-not-text",
        "name-not-text",
        "options-list",
        "unknown-option",
        "bool-option-string",
        "choice-option-bad",
        "money-float",
        "money-three-decimals",
        "int-option-negative",
        "int-option-bool",
        "unknown-language",
        "unknown-field",
        "teams-outside-samba",
        "unknown-game",
    ],
)
def test_malformed_create_is_400_and_stores_nothing(
    app: Flask, client: FlaskClient, kwargs: dict, field: str | None
) -> None:
    response = client.post(f"{API}/tables", **kwargs)
    assert_error(response, 400, field=field)
    assert count_tables(app) == 0


def test_unknown_game_has_its_own_code(client: FlaskClient) -> None:
    error = assert_error(client.post(f"{API}/tables", json={"game": "truco", "players": PLAYERS}), 400, field="game")
    assert error["code"] == "unknown_game"


# --------------------------------------------------------------------------- 422: against the rules


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "jubileu", "players": ["Ana", "Bia", "Caio"]}, "players"),
        ({"game": "jubileu", "players": ["Ana", "Bia", "Caio", "Dani", "Edu"]}, "players"),
        ({"game": "jubileu", "players": []}, "players"),
        ({"game": "jubileu", "players": ["Ana", "Bia", "Ana", "Dani"]}, "players[2]"),
        ({"game": "jubileu", "players": ["Ana", "Bia", "ana", "Dani"]}, "players[2]"),
        ({"game": "jubileu", "players": PLAYERS, "dealer": "Zé"}, "dealer"),
        ({"game": "samba", "players": ["Ana", "Bia", "Caio", "Dani", "Edu"]}, "players"),
        ({"game": "koziri", "players": ["Ana", "Bia", "Caio"]}, "players"),
        ({"game": "el_gato", "players": ["Ana", "Bia", "Caio"]}, "players"),
        ({"game": "relogio", "players": ["Ana", "Bia"]}, "players"),
    ],
    ids=[
        "three-players",
        "five-players",
        "no-players",
        "duplicate",
        "duplicate-case",
        "dealer-not-seated",
        "samba-five-without-the-option",
        "koziri-three",
        "el-gato-three",
        "relogio-two",
    ],
)
def test_create_against_the_rules_is_422_and_stores_nothing(
    app: Flask, client: FlaskClient, body: dict, field: str
) -> None:
    response = client.post(f"{API}/tables", json=body)
    assert_error(response, 422, field=field)
    assert count_tables(app) == 0


def test_wrong_player_count_says_how_many(client: FlaskClient) -> None:
    error = assert_error(
        client.post(f"{API}/tables", json={"game": "jubileu", "players": ["Ana", "Bia", "Caio"], "language": "en"}), 422
    )
    assert "4" in error["message"] and "3" in error["message"]


# --------------------------------------------------------------------------- reading


def test_unknown_table_is_a_json_404(client: FlaskClient) -> None:
    assert_error(client.get(f"{API}/tables/nope-this-is-not-a-table-id"), 404, code="not_found")
    assert_error(client.get(f"{API}/tables/{'x' * 200}"), 404, code="not_found")
    assert_error(client.get(f"{API}/tables/nope/settlement"), 404, code="not_found")
    assert_error(client.get(f"{API}/tables/nope/hands/1"), 404, code="not_found")


def test_unknown_api_route_and_method_answer_json(client: FlaskClient) -> None:
    assert_error(client.get(f"{API}/nothing-here"), 404)
    assert_error(client.delete(f"{API}/tables"), 405)


def test_fresh_table_reads_back_as_created(client: FlaskClient) -> None:
    created = create_table(client, name="Sexta", options={"starting_chips": 20})
    table = get_table(client, created["id"])
    for key in ("id", "game", "name", "players", "options", "urls", "language"):
        assert table[key] == created[key], key
    assert table["hands"] == []
    assert table["totals"] == dict.fromkeys(PLAYERS, 0)
    assert table["stock"] == dict.fromkeys(PLAYERS, 20)
    assert table["next_dealer"] == "Dani"
    assert table["finished"] is False
    assert "winner" in table
    assert "token" not in table
    assert created["token"] not in client.get(f"{API}/tables/{created['id']}").get_data(as_text=True)


def test_table_lists_hands_marks_voided_ones_and_never_shows_the_token(client: FlaskClient) -> None:
    created = create_table(client)
    record_ok(client, created, solo_record("Dani", 7))  # Ana +6
    record_ok(client, created, solo_record("Ana", 8))  # Bia +9
    record_ok(client, created, all_pass_record("Bia"))
    assert void(client, created, 2, reason="Bia had 14 cards").status_code == 200
    raw = client.get(f"{API}/tables/{created['id']}").get_data(as_text=True)
    assert created["token"] not in raw
    table = get_table(client, created["id"])
    assert [h["number"] for h in table["hands"]] == [1, 2, 3]
    assert [h.get("void", False) for h in table["hands"]] == [False, True, False]
    assert table["hands"][1]["voided"]["reason"] == "Bia had 14 cards"
    assert table["totals"] == {"Ana": 6, "Bia": -2, "Caio": -2, "Dani": -2}
    assert sum(table["totals"].values()) == 0
    assert table["stock"] == dict.fromkeys(PLAYERS, 0)
    assert table["next_dealer"] == "Caio"
    assert table["next_number"] == 4
    assert table["finished"] is False
    for hand in table["hands"]:
        assert {"number", "dealer", "next_dealer", "deltas", "totals", "contract", "breakdown"} <= set(hand)
