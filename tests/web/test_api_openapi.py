"""GET /api/v1/openapi.json: a valid OpenAPI 3.1 document describing every endpoint of api.md."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import OpenAPIV31SpecValidator, validate

from referee.rules import KNOWN_GAMES
from referee.rules.jubileu import OPTIONS

from .api_support import API

#: Every endpoint api.md names, as (path under /api/v1, method).
API_MD_ENDPOINTS = [
    ("/openapi.json", "get"),
    ("/tables", "post"),
    ("/tables/{table_id}", "get"),
    ("/tables/{table_id}/hands", "post"),
    ("/tables/{table_id}/hands/{number}/void", "post"),
    ("/tables/{table_id}/settlement", "get"),
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


def test_server_url_points_at_the_api(document: dict) -> None:
    assert [s["url"] for s in document["servers"]] == ["http://localhost/api/v1"]


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
    assert schemas["TableCreate"]["properties"]["game"]["enum"] == list(KNOWN_GAMES)
    assert set(schemas["JubileuOptions"]["properties"]) == {spec.name for spec in OPTIONS}
    for spec in OPTIONS:
        assert schemas["JubileuOptions"]["properties"][spec.name]["default"] == spec.default
    hand = schemas["JubileuHand"]["properties"]
    assert hand["ultima"]["enum"] == ["copas", "ouros", "espadas", "paus"]
    calls = hand["auction"]["items"]["prefixItems"][1]["enum"]
    assert calls[0] == "passo" and "jogo_obrigatorio" in calls and "miseria_aberta_com_coloquio" in calls
    assert len(calls) == 22
    assert not {"expected_number", "replaces", "reason"} & set(hand)  # the record holds no transport field
    for game in ("Jubileu", "Quatrilho"):
        assert schemas[f"{game}HandWrite"]["allOf"] == [
            {"$ref": f"#/components/schemas/{game}Hand"},
            {"$ref": "#/components/schemas/WriteFields"},
        ]
    assert {"expected_number", "replaces", "reason"} <= set(schemas["WriteFields"]["properties"])
    from referee.rules.quatrilho import OPTIONS as QUATRILHO_OPTIONS

    assert set(schemas["QuatrilhoOptions"]["properties"]) == {spec.name for spec in QUATRILHO_OPTIONS}
    assert schemas["JubileuHand"]["required"] == ["ultima"]


def test_idempotency_key_header_is_documented(document: dict) -> None:
    params = document["paths"]["/tables/{table_id}/hands"]["post"]["parameters"]
    assert any(p["in"] == "header" and p["name"] == "Idempotency-Key" for p in params)
