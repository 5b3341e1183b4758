"""Error bodies: shape, status and the table's language."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from .api_support import API, assert_error, create_table, post_hand, record_ok, solo_record, void

BAD_TRICKS: dict[str, Any] = {
    **solo_record("Dani", explicit_dealer=True),
    "tricks": {"Ana": 7, "Bia": 2, "Caio": 2, "Dani": 1},
}


def _errors(client: FlaskClient, table: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The same refused requests against ``table``, by name."""
    record_ok(client, table, solo_record("Dani"))
    return {
        "422-tricks": assert_error(post_hand(client, table, BAD_TRICKS), 422, field="tricks"),
        "422-call": assert_error(
            post_hand(client, table, {**solo_record("Ana"), "auction": [["Caio", "solo_sete"]]}),
            422,
            field="auction[0]",
        ),
        "422-unseated": assert_error(
            post_hand(client, table, {**solo_record("Ana"), "dealer": "Zé"}), 422, field="dealer"
        ),
        "400-ultima": assert_error(
            post_hand(client, table, {k: v for k, v in solo_record("Ana").items() if k != "ultima"}),
            400,
            field="ultima",
        ),
        "400-unknown-call": assert_error(
            post_hand(client, table, {**solo_record("Ana"), "auction": [["Bia", "truco"]]}), 400, field="auction[0]"
        ),
        "401": assert_error(post_hand(client, table, solo_record("Ana"), token="nope"), 401),
        "404-hand": assert_error(void(client, table, 9), 404),
        "409-expected": assert_error(post_hand(client, table, {**solo_record("Ana"), "expected_number": 1}), 409),
    }


def test_error_bodies_have_the_api_md_shape(client: FlaskClient) -> None:
    table = create_table(client)
    for name, error in _errors(client, table).items():
        assert error["code"], name
        assert isinstance(error["message"], str), name


def test_codes_name_the_kind_of_error(client: FlaskClient) -> None:
    errors = _errors(client, create_table(client))
    assert errors["422-tricks"]["code"] == "inconsistent_hand"
    assert errors["422-call"]["code"] == "illegal_call"
    assert errors["422-unseated"]["code"] == "unknown_player"
    assert errors["400-ultima"]["code"] == "invalid_input"
    assert errors["401"]["code"] == "unauthorized"
    assert errors["404-hand"]["code"] == "not_found"
    assert errors["409-expected"]["code"] == "conflict"


def test_english_table_answers_in_english(client: FlaskClient) -> None:
    errors = _errors(client, create_table(client, language="en"))
    assert errors["422-tricks"]["message"] == "Tricks: the total is 12; it must be 13."
    assert errors["422-unseated"]["message"] == "Zé is not seated at this table."
    assert "Caio" in errors["422-call"]["message"] and "Bia" in errors["422-call"]["message"]
    assert "Authorization: Bearer" in errors["401"]["message"]


@pytest.mark.parametrize(
    "name",
    ["422-tricks", "422-call", "422-unseated", "400-ultima", "400-unknown-call", "401", "404-hand", "409-expected"],
)
def test_portuguese_table_answers_in_portuguese(client: FlaskClient, name: str) -> None:
    """The default table language is pt-BR: the same error reads differently from an en table."""
    pt = _errors(client, create_table(client))[name]
    en = _errors(client, create_table(client, language="en"))[name]
    assert pt["code"] == en["code"]
    assert pt.get("field") == en.get("field")
    assert pt["message"] != en["message"], f"untranslated: {en['message']!r}"


def test_portuguese_messages_read_as_portuguese(client: FlaskClient) -> None:
    errors = _errors(client, create_table(client))
    assert "vazas" in errors["422-tricks"]["message"].lower()
    assert "Zé" in errors["422-unseated"]["message"]


def test_explicit_pt_br_table(client: FlaskClient) -> None:
    table = create_table(client, language="pt-BR")
    assert table["language"] == "pt-BR"
    error = assert_error(post_hand(client, table, {**solo_record("Dani"), "tricks": {"Ana": 7}}), 400)
    assert error["field"] == "tricks.Bia"


def test_create_errors_follow_the_requested_language(client: FlaskClient) -> None:
    en = assert_error(client.post(f"{API}/tables", json={"game": "jubileu", "players": ["Ana"], "language": "en"}), 422)
    pt = assert_error(client.post(f"{API}/tables", json={"game": "jubileu", "players": ["Ana"]}), 422)
    assert en["message"] == "Jubileu is played by exactly 4 players, not 1."
    assert pt["message"] != en["message"]
    en_missing = assert_error(
        client.post(f"{API}/tables", json={"players": ["Ana"], "language": "en"}), 400, field="game"
    )
    pt_missing = assert_error(client.post(f"{API}/tables", json={"players": ["Ana"]}), 400, field="game")
    assert en_missing["message"] == "The field game is required."
    assert pt_missing["message"] != en_missing["message"]


def test_the_browser_language_cookie_does_not_change_a_tables_language(client: FlaskClient) -> None:
    table = create_table(client)
    client.get("/lang/en")
    record_ok(client, table, solo_record("Dani"))
    error = assert_error(post_hand(client, table, {**solo_record("Ana"), "dealer": "Zé"}), 422)
    assert error["message"] != "Zé is not seated at this table."


#: The endpoints whose document declares ``?language=`` an enum (pt-BR, en), and a body for each.
LANGUAGE_ENDPOINTS = {"/samba/meld-check": {}, "/koziri/deal": {}, "/koziri/answer": {}, "/import": {}}


@pytest.mark.parametrize("path", list(LANGUAGE_ENDPOINTS))
@pytest.mark.parametrize("language", ["", "xx", "EN", "pt-BR "])
def test_a_language_outside_the_documented_enum_is_refused(client: FlaskClient, path: str, language: str) -> None:
    response = client.post(f"{API}{path}", query_string={"language": language}, json=LANGUAGE_ENDPOINTS[path])
    error = assert_error(response, 400, field="language")
    assert error["code"] == "invalid_input"
    assert error["message"] == "O idioma precisa ser pt-BR ou en."


@pytest.mark.parametrize("path", ["/samba/meld-check", "/koziri/deal"])
def test_a_documented_language_is_still_followed(client: FlaskClient, path: str) -> None:
    english = assert_error(client.post(f"{API}{path}", query_string={"language": "en"}, json={}), 400)
    portuguese = assert_error(client.post(f"{API}{path}", query_string={"language": "pt-BR"}, json={}), 400)
    assert english["field"] != "language" and english["message"] != portuguese["message"]
