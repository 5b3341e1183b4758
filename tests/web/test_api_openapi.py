"""GET /api/v1/openapi.json: a valid OpenAPI 3.1 document describing every endpoint of docs/api.md."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import OpenAPIV31SpecValidator, validate

from referee.rules import GAMES
from referee.rules.jubileu import OPTIONS

from .api_support import API

#: Every endpoint docs/api.md names, as (path under /api/v1, method).
API_MD_ENDPOINTS = [
    ("/openapi.json", "get"),
    ("/tables", "post"),
    ("/tables/{table_id}", "get"),
    ("/tables/{table_id}/hands", "post"),
    ("/tables/{table_id}/hands/{number}/void", "post"),
    ("/tables/{table_id}/settlement", "get"),
    ("/championships/{championship_id}", "get"),
]


@pytest.fixture
def document(client: FlaskClient) -> dict[str, Any]:
    response = client.get(f"{API}/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    return response.get_json()


def test_document_is_valid_openapi_3_1(document: dict) -> None:
    assert document["openapi"].startswith("3.1.")
    validate(document, cls=OpenAPIV31SpecValidator)  # raises on the first error
    assert list(OpenAPIV31SpecValidator(document).iter_errors()) == []


def test_server_url_points_at_the_api_and_names_no_host(document: dict) -> None:
    assert [s["url"] for s in document["servers"]] == ["/api/v1"]


@pytest.mark.parametrize(("path", "method"), API_MD_ENDPOINTS)
def test_every_api_md_endpoint_is_described(document: dict, path: str, method: str) -> None:
    assert path in document["paths"], path
    operation = document["paths"][path][method]
    assert operation["responses"]
    assert operation.get("summary")


def test_every_route_of_the_blueprint_is_in_the_document(app: Flask, document: dict) -> None:
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("api."):
            path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule.removeprefix(API))
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                routes.add((path, method.lower()))
    described = {(path, method) for path, item in document["paths"].items() for method in item}
    assert routes == described


def test_writes_need_the_bearer_token(document: dict) -> None:
    assert document["components"]["securitySchemes"]["scorer"] == {
        "type": "http",
        "scheme": "bearer",
        "description": document["components"]["securitySchemes"]["scorer"]["description"],
    }
    assert document["paths"]["/tables/{table_id}/hands"]["post"]["security"] == [{"scorer": []}]
    assert document["paths"]["/tables/{table_id}/hands/{number}/void"]["post"]["security"] == [{"scorer": []}]
    assert "security" not in document["paths"]["/tables"]["post"]


@pytest.mark.parametrize(
    ("path", "method", "codes"),
    [
        ("/tables", "post", {"201", "400", "422"}),
        ("/tables/{table_id}", "get", {"200", "404"}),
        ("/tables/{table_id}/hands", "post", {"201", "400", "401", "404", "409", "422"}),
        ("/tables/{table_id}/hands/{number}/void", "post", {"200", "401", "404", "409"}),
        ("/tables/{table_id}/settlement", "get", {"200", "404"}),
    ],
)
def test_status_codes_are_documented(document: dict, path: str, method: str, codes: set[str]) -> None:
    responses = document["paths"][path][method]["responses"]
    assert codes <= set(responses)
    for code in codes - {"200", "201"}:
        schema = responses[code]["content"]["application/json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/Error"}


def test_error_schema_matches_api_md(document: dict) -> None:
    error = document["components"]["schemas"]["Error"]["properties"]["error"]
    assert set(error["required"]) == {"code", "message"}
    assert {"code", "message", "field"} <= set(error["properties"])


def test_enumerations_come_from_the_engine(document: dict) -> None:
    schemas = document["components"]["schemas"]
    assert schemas["TableCreate"]["properties"]["game"]["enum"] == list(GAMES)
    assert set(schemas["JubileuOptions"]["properties"]) == {spec.name for spec in OPTIONS}
    for spec in OPTIONS:
        assert schemas["JubileuOptions"]["properties"][spec.name]["default"] == spec.default
    hand = schemas["JubileuHand"]["properties"]
    assert hand["ultima"]["enum"] == ["copas", "ouros", "espadas", "paus"]
    calls = hand["auction"]["items"]["prefixItems"][1]["enum"]
    assert calls[0] == "passo" and "jogo_obrigatorio" in calls and "miseria_aberta_com_coloquio" in calls
    assert len(calls) == 22
    assert not {"expected_number", "replaces", "reason"} & set(hand)  # the record holds no transport field
    for game in ("Jubileu", "Quatrilho"):  # the record's fields and how to write it, in one closed object
        write = schemas[f"{game}HandWrite"]
        assert write["additionalProperties"] is False
        assert set(write["properties"]) == set(schemas[f"{game}Hand"]["properties"]) | {
            "expected_number",
            "replaces",
            "reason",
        }
    assert {"expected_number", "replaces", "reason"} <= set(schemas["WriteFields"]["properties"])
    from referee.rules.quatrilho import OPTIONS as QUATRILHO_OPTIONS

    assert set(schemas["QuatrilhoOptions"]["properties"]) == {spec.name for spec in QUATRILHO_OPTIONS}
    assert schemas["JubileuHand"]["required"] == ["ultima"]


def test_idempotency_key_header_is_documented(document: dict) -> None:
    params = document["paths"]["/tables/{table_id}/hands"]["post"]["parameters"]
    assert any(p["in"] == "header" and p["name"] == "Idempotency-Key" for p in params)


# --------------------------------------------------------------------------- the newer games' records

#: Each new game's record schema (the table's game -> the schema's name).
NEW_RECORDS = {
    "koziri": "KoziriHand",
    "injun": "InjunHand",
    "kentucky_derby": "KentuckyDerbyHand",
    "lift_smoke": "LiftSmokeHand",
    "el_gato": "ElGatoHand",
    "relogio": "RelogioHand",
    "cachorro": "CachorroHand",
}


def _validator(document: dict, name: str) -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": document["components"]})


def _errors(document: dict, name: str, instance: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in _validator(document, name).iter_errors(instance)
    ]


def test_the_new_games_records_are_described_with_their_write_variants(document: dict) -> None:
    from referee.api.openapi import HAND_RECORDS

    schemas = document["components"]["schemas"]
    assert set(NEW_RECORDS.values()) <= set(HAND_RECORDS)
    for name in set(NEW_RECORDS.values()):
        record, write = schemas[name], schemas[f"{name}Write"]
        assert record["additionalProperties"] is False and write["additionalProperties"] is False
        assert set(write["properties"]) == set(record["properties"]) | {"expected_number", "replaces", "reason"}
        assert not {"expected_number", "replaces", "reason"} & set(record["properties"])
    for name in ("InjunHand", "KentuckyDerbyHand", "LiftSmokeHand"):  # the pot games
        assert "carried_in" in schemas[name]["properties"]
    for name in ("KoziriHand", "ElGatoHand", "RelogioHand", "CachorroHand"):
        assert "carried_in" not in schemas[name]["properties"]
    assert schemas["KoziriHand"]["required"] == ["dealer_trump", "dealer_second", "opponent_trump", "winner"]
    assert schemas["RelogioHand"]["properties"]["game"]["enum"] == ["relogio", "relogio_real"]
    assert schemas["CachorroHand"]["properties"]["game"]["enum"] == ["cachorro"]
    assert schemas["InjunHand"]["properties"]["cards"]["additionalProperties"]["enum"][0] == "A"
    assert "A" not in schemas["KentuckyDerbyHand"]["properties"]["cards"]["items"]["properties"]["rank"]["enum"]


@pytest.mark.parametrize("game", list(NEW_RECORDS))
def test_every_stored_example_record_of_the_new_games_validates_against_its_schema(
    client: FlaskClient, document: dict, game: str
) -> None:
    """Each example hand (tests/web/test_league_per_game.py) as posted against the write
    schema, and as stored and answered (GET /tables/{id}) against its record schema, the hand
    answer and the table: the record matches exactly one of the records the answer allows."""
    from tests.web.test_league_per_game import SEATS, examples

    from .api_support import create_table, get_table, record_ok

    players = ["Ana", "Bia", "Caio", "Dani"][: SEATS[game]]
    options, records = examples(game, players)
    table = create_table(client, game=game, players=players, options=options)
    name = NEW_RECORDS[game]
    for number, record in enumerate(records, start=1):
        assert _errors(document, f"{name}Write", {**record, "expected_number": number}) == []
        answer = record_ok(client, table, record)
        assert _errors(document, "HandAnswer", answer) == []
    body = get_table(client, table["id"])
    assert _errors(document, "Table", body) == []
    assert len(body["hands"]) == len(records)
    for hand in body["hands"]:
        assert _errors(document, name, hand["record"]) == [], hand["record"]
        others = [
            other
            for other in _answer_records(document)
            if other != name and not _errors(document, other, hand["record"])
        ]
        assert others == [], f"{hand['record']} also matches {others}"
    settlement = client.get(f"{API}/tables/{table['id']}/settlement").get_json()
    assert _errors(document, "Settlement", settlement) == []


def _answer_records(document: dict) -> list[str]:
    """The records a hand answer's ``record`` may be (one per game: the record of each of its
    game-discriminated variants)."""
    schemas = document["components"]["schemas"]
    return [
        schemas[ref["$ref"].rsplit("/", 1)[1]]["properties"]["record"]["$ref"].rsplit("/", 1)[1]
        for ref in schemas["HandAnswer"]["oneOf"]
    ]


def test_a_jubileu_record_matches_none_of_the_new_schemas(client: FlaskClient, document: dict) -> None:
    from .api_support import EXAMPLE_RECORD, create_table, get_table, record_ok

    table = create_table(client)
    assert _errors(document, "HandAnswer", record_ok(client, table, EXAMPLE_RECORD)) == []
    (hand,) = get_table(client, table["id"])["hands"]
    assert [name for name in _answer_records(document) if not _errors(document, name, hand["record"])] == [
        "JubileuHand"
    ]


@pytest.mark.parametrize(
    ("name", "record"),
    [
        (
            "KoziriHand",
            {
                "dealer_trump": "espadas",
                "dealer_second": "copas",
                "opponent_trump": "ouros",
                "winner": "Ana",
                "ante": 1,
            },
        ),
        ("InjunHand", {"actions": [["Ana", {"bet": 0}]]}),
        ("InjunHand", {"actions": [["Ana", "raise"]]}),
        ("KentuckyDerbyHand", {"bets": {"Ana": "copas"}, "cards": [{"rank": "A", "suit": "copas"}]}),
        ("LiftSmokeHand", {"ante": 1}),
        ("ElGatoHand", {"loser": "Ana", "winner": "Bia"}),
        ("RelogioHand", {"game": "relogio_real"}),
        ("CachorroHand", {"game": "cachorro", "won": True, "round": 4}),
    ],
)
def test_the_new_schemas_refuse_what_the_engine_refuses_for_its_shape(document: dict, name: str, record: dict) -> None:
    assert _errors(document, name, record)


def test_a_hand_number_beyond_a_database_integer_is_answered_as_documented(client: FlaskClient, document: dict) -> None:
    """Found by the fuzz once the new records changed what it generates: such a number reached
    the query and SQLite raised OverflowError (a 500). It names no hand: 404, as documented."""
    from .api_support import auth, create_table

    table = create_table(client)
    huge = 418515314625826255422902058876928
    writes = [
        client.post(
            f"{API}/tables/{table['id']}/hands", json={"ultima": "copas", "replaces": huge}, headers=auth(table)
        ),
        client.post(f"{API}/tables/{table['id']}/hands/{huge}/void", headers=auth(table)),
        client.get(f"{API}/tables/{table['id']}/hands/{huge}"),
    ]
    for response in writes:
        assert response.status_code == 404
        assert _errors(document, "Error", response.get_json()) == []


def test_the_patience_standings_answer_as_documented(client: FlaskClient, document: dict) -> None:
    from .api_support import create_table, record_ok

    table = create_table(client, game="relogio", players=["Ana"])
    record_ok(client, table, {"won": True})
    record_ok(client, table, {"game": "relogio_real", "sequences": 2})
    body = client.get(f"{API}/league/relogio/standings").get_json()
    assert _errors(document, "Standings", body) == []
    (row,) = body["standings"]
    assert (row["hands"], row["won"], row["win_rate"]) == (2, 1, 0.5)
    assert row["patiences"] == {"relogio": {"games": 1, "wins": 1}, "relogio_real": {"games": 1, "wins": 0}}


def test_two_games_with_the_same_record_shape_each_validate_as_their_own(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game whose record looks exactly like El Gato's (a twin, in the registry for this test
    only) does not make El Gato's answers match two schemas: a hand answer names its table's
    ``game``, the document discriminates on it, and the record is checked against that game's."""
    import dataclasses

    from referee.api.openapi import document as make_document
    from referee.rules import el_gato

    from .api_support import create_table, record_ok

    table = create_table(client, game="el_gato", players=["Ana", "Bia"])
    answer = record_ok(client, table, {"loser": "Bia"})
    monkeypatch.setitem(GAMES, "el_gato_twin", dataclasses.replace(el_gato.GAME, slug="el_gato_twin"))
    document = make_document()
    schemas = document["components"]["schemas"]
    assert schemas["HandAnswer"]["discriminator"]["propertyName"] == "game"
    assert set(schemas["HandAnswer"]["discriminator"]["mapping"]) == set(GAMES)
    assert schemas["ElGatoTwinHand"]["properties"] == schemas["ElGatoHand"]["properties"]
    assert answer["game"] == "el_gato"
    assert _errors(document, "HandAnswer", answer) == []
    assert _errors(document, "HandAnswer", {**answer, "game": "el_gato_twin"}) == []
    # The record is the one of the game the answer names, not any game's that fits.
    assert _errors(document, "HandAnswer", {**answer, "record": EXAMPLE_JUBILEU})
    assert _errors(document, "HandAnswer", {**answer, "game": "jubileu"})


EXAMPLE_JUBILEU: dict[str, Any] = dict(GAMES["jubileu"].record.example)
