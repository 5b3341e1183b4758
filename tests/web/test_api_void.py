"""Voids and corrections: POST …/hands/{n}/void and the `replaces` extension."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.extensions import db
from referee.models import Hand, HandEvent

from .api_support import (
    API,
    PLAYERS,
    all_pass_record,
    assert_error,
    create_table,
    get_table,
    post_hand,
    record_ok,
    solo_record,
    state,
    void,
)


@pytest.fixture
def table(client: FlaskClient) -> dict[str, Any]:
    """A table with three hands: Ana +6 (Dani deals), Bia +9 (Ana deals), Caio -6 (Bia deals)."""
    table = create_table(client)
    record_ok(client, table, solo_record("Dani", 7))  # Ana: Solo Sete made, +6
    record_ok(client, table, solo_record("Ana", 8))  # Bia: one overtrick, +9
    record_ok(client, table, solo_record("Bia", 6))  # Caio: failed by one, -6
    return table


def events(app: Flask) -> list[tuple[int, str]]:
    with app.app_context():
        return [(e.hand.number, e.kind) for e in db.session.query(HandEvent).order_by(HandEvent.id)]


def test_the_fixture_totals(client: FlaskClient, table: dict) -> None:
    t = get_table(client, table["id"])
    assert t["totals"] == {"Ana": 6 - 3 + 2, "Bia": -2 + 9 + 2, "Caio": -2 - 3 - 6, "Dani": -2 - 3 + 2}
    assert t["next_dealer"] == "Caio"


def test_void_marks_the_hand_and_recomputes_totals(app: Flask, client: FlaskClient, table: dict) -> None:
    response = void(client, table, 2, reason="  Bia   had 14 cards ")
    assert response.status_code == 200
    answer = response.get_json()
    assert answer["number"] == 2
    assert answer["void"] is True
    assert answer["voided"]["reason"] == "Bia had 14 cards"
    assert answer["voided"]["by"]
    assert datetime.fromisoformat(answer["voided"]["at"]).tzinfo is not None
    # Without hand 2 (Bia +9): Ana +6 -2, Bia -2 +2, Caio -2 -6, Dani -2 +2.
    expected = {"Ana": 8, "Bia": 0, "Caio": -8, "Dani": 0}
    assert answer["totals"] == expected
    assert answer["next_dealer"] == "Caio"  # hand 3 is still the latest live hand
    t = get_table(client, table["id"])
    assert t["totals"] == expected
    assert [h.get("void", False) for h in t["hands"]] == [False, True, False]
    assert t["hands"][1]["voided"] == answer["voided"]
    assert t["hands"][1]["deltas"] == {"Ana": -3, "Bia": 9, "Caio": -3, "Dani": -3}  # kept in the history
    assert client.get(f"{API}/tables/{table['id']}/hands/2").get_json()["void"] is True
    # Nothing deleted: three hand rows, one void event.
    with app.app_context():
        assert db.session.query(Hand).count() == 3
    assert events(app) == [(2, "void")]


def test_voiding_the_last_hand_moves_the_deal_back(client: FlaskClient, table: dict) -> None:
    answer = void(client, table, 3, reason="wrong table").get_json()
    assert answer["next_dealer"] == "Bia"
    assert get_table(client, table["id"])["next_dealer"] == "Bia"
    void(client, table, 2)
    void(client, table, 1)
    t = get_table(client, table["id"])
    assert t["next_dealer"] == "Dani"  # back to the table's first dealer
    assert t["totals"] == dict.fromkeys(PLAYERS, 0)


def test_void_without_a_body(client: FlaskClient, table: dict) -> None:
    response = client.post(
        f"{API}/tables/{table['id']}/hands/1/void", headers={"Authorization": f"Bearer {table['token']}"}
    )
    assert response.status_code == 200
    assert response.get_json()["voided"]["reason"] == ""


def test_void_twice_is_409(app: Flask, client: FlaskClient, table: dict) -> None:
    assert void(client, table, 1, reason="x").status_code == 200
    before = state(client, table["id"])
    error = assert_error(void(client, table, 1, reason="again"), 409, code="conflict")
    # A void hand has no place in play, so the sentence names no number.
    assert "anulada" in error["message"] and not any(c.isdigit() for c in error["message"])
    assert state(client, table["id"]) == before
    assert events(app) == [(1, "void")]
    assert get_table(client, table["id"])["hands"][0]["voided"]["reason"] == "x"


def test_void_unknown_hand_is_404(app: Flask, client: FlaskClient, table: dict) -> None:
    assert_error(void(client, table, 4), 404, code="not_found")
    assert_error(void(client, table, 0), 404)
    assert_error(
        client.post(f"{API}/tables/no-such-table/hands/1/void", headers={"Authorization": f"Bearer {table['token']}"}),
        404,
    )
    assert events(app) == []


@pytest.mark.parametrize("token", [None, "wrong-token"])
def test_void_without_the_token_is_401(app: Flask, client: FlaskClient, table: dict, token: str | None) -> None:
    before = state(client, table["id"])
    assert_error(void(client, table, 1, token=token, reason="x"), 401, code="unauthorized")
    assert state(client, table["id"]) == before
    assert events(app) == []


def test_void_with_bad_body_is_400(app: Flask, client: FlaskClient, table: dict) -> None:
    headers = {"Authorization": f"Bearer {table['token']}"}
    assert_error(
        client.post(f"{API}/tables/{table['id']}/hands/1/void", json={"reason": 5}, headers=headers),
        400,
        field="reason",
    )
    assert_error(client.post(f"{API}/tables/{table['id']}/hands/1/void", json=["x"], headers=headers), 400)
    assert_error(
        client.post(
            f"{API}/tables/{table['id']}/hands/1/void", data="{oops", content_type="application/json", headers=headers
        ),
        400,
    )
    assert events(app) == []


def test_hand_numbers_are_never_reused(client: FlaskClient) -> None:
    table = create_table(client)
    record_ok(client, table, solo_record("Dani"))
    record_ok(client, table, solo_record("Ana"))
    void(client, table, 2, reason="typo")
    t = get_table(client, table["id"])
    assert t["next_number"] == 3 and t["next_dealer"] == "Ana"
    answer = record_ok(client, table, {**solo_record("Ana", 9), "expected_number": 3})
    assert answer["number"] == 3
    assert answer["dealer"] == "Ana"
    assert [h["number"] for h in get_table(client, table["id"])["hands"]] == [1, 2, 3]
    error = assert_error(post_hand(client, table, {**solo_record("Bia"), "expected_number": 2}), 409)
    # The sentence names places in play (stored 3 is the second live hand; the next is the
    # third); current_number stays the latest stored hand.
    assert "A mão 2 já foi anotada" in error["message"] and "a próxima é a mão 3" in error["message"]
    assert error["current_number"] == 3


def test_void_all_pass_hand_recomputes_rotation(client: FlaskClient) -> None:
    table = create_table(client)
    record_ok(client, table, all_pass_record("Dani"))
    assert get_table(client, table["id"])["next_dealer"] == "Ana"
    void(client, table, 1)
    assert get_table(client, table["id"])["next_dealer"] == "Dani"


# --------------------------------------------------------------------------- replaces


def test_correction_of_an_older_hand_keeps_the_rotation(app: Flask, client: FlaskClient) -> None:
    table = create_table(client)
    record_ok(client, table, solo_record("Dani", 7))  # 1: Dani deals, Ana +6
    record_ok(client, table, solo_record("Ana", 7))  # 2: Ana deals, Bia +6
    assert get_table(client, table["id"])["next_dealer"] == "Bia"
    # Hand 1 really was Ana's Solo Sete with 9 tricks: correct it after hand 2.
    correction = {**solo_record("Dani", 9), "replaces": 1, "reason": "Ana had 9 tricks"}
    answer = record_ok(client, table, correction)
    assert answer["number"] == 3
    assert answer["replaces"] == 1
    assert answer["dealer"] == "Dani"  # the replaced hand's dealer
    assert answer["deltas"] == {"Ana": 12, "Bia": -4, "Caio": -4, "Dani": -4}
    t = get_table(client, table["id"])
    assert t["next_dealer"] == "Bia"  # still follows hand 2
    assert [h.get("void", False) for h in t["hands"]] == [True, False, False]
    assert t["hands"][0]["voided"]["reason"] == "Ana had 9 tricks"
    assert t["totals"] == {"Ana": 12 - 2, "Bia": -4 + 6, "Caio": -4 - 2, "Dani": -4 - 2}
    assert t["next_number"] == 4
    assert events(app) == [(1, "void")]
    # Voiding hand 2 now hands the deal to the successor of the corrected hand 1.
    void(client, table, 2)
    assert get_table(client, table["id"])["next_dealer"] == "Ana"


def test_refused_correction_leaves_the_old_hand_live(app: Flask, client: FlaskClient) -> None:
    table = create_table(client)
    record_ok(client, table, solo_record("Dani", 7))
    before = state(client, table["id"])
    bad = {**solo_record("Dani"), "tricks": {"Ana": 7, "Bia": 2, "Caio": 2, "Dani": 1}, "replaces": 1}
    assert_error(post_hand(client, table, bad), 422, field="tricks")
    assert state(client, table["id"]) == before
    assert events(app) == []


def test_replacing_a_void_hand_is_409(app: Flask, client: FlaskClient) -> None:
    table = create_table(client)
    record_ok(client, table, solo_record("Dani", 7))
    void(client, table, 1)
    before = state(client, table["id"])
    assert_error(post_hand(client, table, {**solo_record("Dani"), "replaces": 1}), 409, code="conflict")
    assert state(client, table["id"]) == before


def test_replacing_an_unknown_hand_is_404(client: FlaskClient) -> None:
    table = create_table(client)
    record_ok(client, table, solo_record("Dani", 7))
    before = state(client, table["id"])
    assert_error(post_hand(client, table, {**solo_record("Dani"), "replaces": 9}), 404)
    assert state(client, table["id"]) == before


@pytest.mark.parametrize("replaces", [True, "1", 1.0, [1]])
def test_replaces_must_be_a_hand_number(client: FlaskClient, replaces: object) -> None:
    table = create_table(client)
    record_ok(client, table, solo_record("Dani", 7))
    before = state(client, table["id"])
    assert_error(post_hand(client, table, {**solo_record("Dani"), "replaces": replaces}), 400, field="replaces")
    assert state(client, table["id"]) == before


def test_a_reason_over_200_characters_is_refused(client: FlaskClient, table: dict[str, Any]) -> None:
    before = state(client, table["id"])
    assert_error(void(client, table, 2, reason="x" * 201), 400, field="reason")
    assert state(client, table["id"]) == before
    assert void(client, table, 2, reason="x" * 200).status_code == 200


def test_the_database_keeps_one_void_per_hand(app: Flask, client: FlaskClient, table: dict[str, Any]) -> None:
    """Two phones voiding the same hand at the same moment: the second void cannot be stored."""
    from sqlalchemy.exc import IntegrityError

    assert void(client, table, 1, reason="first").status_code == 200
    with app.app_context():
        hand = db.session.scalar(db.select(Hand).where(Hand.table_id == table["id"], Hand.number == 1))
        db.session.add(HandEvent(hand_id=hand.id, kind="void", reason="second", actor="x"))
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()


def test_a_correction_answers_the_table_s_next_dealer(client: FlaskClient, table: dict[str, Any]) -> None:
    """Correcting hand 1 (dealt by Dani) after hand 3 (dealt by Bia): Caio still deals next."""
    answer = record_ok(client, table, {**solo_record("Dani", 9), "replaces": 1, "reason": "wrong tricks"})
    assert answer["dealer"] == "Dani"
    assert answer["next_dealer"] == "Caio"
    assert get_table(client, table["id"])["next_dealer"] == "Caio"
