"""A balance has one source: the live hands' deltas (``HandDelta``). Everything else that shows
one is derived from them or rebuilt with every write: the table's cached state, the seats'
league counters, and each hand's running totals as the API answers them (a correction of an
early hand changes the totals after every later one)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from referee import ledger
from referee.extensions import db
from referee.models import Hand, HandDelta, Seat
from tests.hypothesis_settings import SLOW

from .api_support import API, PLAYERS, auth, create_table, get_table, post_hand, record_ok, solo_record
from .test_api_samba import ok as samba_ok
from .test_api_samba import samba_table, stock_out


def _hand(client: FlaskClient, table: Mapping[str, Any], number: int) -> dict[str, Any]:
    response = client.get(f"{API}/tables/{table['id']}/hands/{number}")
    assert response.status_code == 200, response.get_data(as_text=True)
    answer: dict[str, Any] = response.get_json()
    return answer


def _added(*deltas: Mapping[str, int]) -> dict[str, int]:
    return {name: sum(d[name] for d in deltas) for name in deltas[0]}


def _correct(client: FlaskClient, table: Mapping[str, Any], number: int, record: Mapping[str, Any]) -> dict[str, Any]:
    return record_ok(client, table, {**record, "replaces": number, "reason": "wrong"})


def test_correcting_hand_1_at_el_gato_restates_hand_2(client: FlaskClient) -> None:
    table = create_table(client, game="el_gato", options={"stake": 1})
    record_ok(client, table, {"loser": "Caio"})
    second = record_ok(client, table, {"loser": "Bia"})
    fixed = _correct(client, table, 1, {"loser": "Ana"})
    expected = _added(fixed["deltas"], second["deltas"])
    assert _hand(client, table, 2)["totals"] == expected
    hands = {h["number"]: h for h in get_table(client, table["id"])["hands"]}
    assert hands[2]["totals"] == expected == get_table(client, table["id"])["totals"]
    assert hands[3]["totals"] == fixed["deltas"]  # the correction stands in hand 1's place


def test_correcting_hand_1_at_jubileu_restates_hand_2(client: FlaskClient) -> None:
    table = create_table(client)
    record_ok(client, table, solo_record("Dani", 7))
    second = record_ok(client, table, solo_record("Ana", 6))
    fixed = _correct(client, table, 1, solo_record("Dani", 9))
    expected = _added(fixed["deltas"], second["deltas"])
    assert _hand(client, table, 2)["totals"] == expected
    assert {h["number"]: h for h in get_table(client, table["id"])["hands"]}[2]["totals"] == expected


def test_a_voided_hand_1_leaves_hand_2_with_its_own_deltas_as_totals(client: FlaskClient) -> None:
    table = create_table(client)
    record_ok(client, table, solo_record("Dani", 7))
    second = record_ok(client, table, solo_record("Ana", 6))
    assert client.post(f"{API}/tables/{table['id']}/hands/1/void", json={}, headers=auth(table)).status_code == 200
    assert _hand(client, table, 2)["totals"] == second["deltas"]


def test_correcting_hand_1_at_samba_restates_hand_2_and_its_teams(client: FlaskClient) -> None:
    table = samba_table(client, options={"target": 3000})
    samba_ok(client, table, stock_out(1500, 100))
    second = samba_ok(client, table, stock_out(600, 0))
    fixed = samba_ok(client, table, {**stock_out(400, 0), "replaces": 1, "reason": "1500 was 400"})
    hand = _hand(client, table, 2)
    assert hand["totals"] == _added(fixed["deltas"], second["deltas"])
    assert [team["total"] for team in hand["teams"]] == [1000, 0]
    assert [team["score"] for team in hand["teams"]] == [600, 0]  # the hand's own figures stay
    listed = {h["number"]: h for h in get_table(client, table["id"])["hands"]}[2]
    assert [team["total"] for team in listed["teams"]] == [1000, 0]


def _but(answer: Mapping[str, Any], *figures: str) -> dict[str, Any]:
    return {name: value for name, value in answer.items() if name not in figures}


def test_a_retried_key_after_a_correction_answers_the_totals_as_they_stand(client: FlaskClient) -> None:
    """The Idempotency-Key keeps the hand it saved; a retry answers its running totals as the
    live hands make them now (a correction of hand 1 since), the rest as first answered."""
    table = create_table(client, game="el_gato", options={"stake": 1})
    record_ok(client, table, {"loser": "Caio"})
    key = {"Idempotency-Key": "phone-1/hand-2"}
    first = post_hand(client, table, {"loser": "Bia"}, headers=key).get_json()
    fixed = _correct(client, table, 1, {"loser": "Ana"})
    again = post_hand(client, table, {"loser": "Bia"}, headers=key)
    assert again.status_code == 201 and again.headers.get("Idempotent-Replayed") == "true"
    replayed = again.get_json()
    expected = _added(fixed["deltas"], first["deltas"])
    assert replayed["totals"] == expected == _hand(client, table, 2)["totals"] != first["totals"]
    assert _but(replayed, "totals") == _but(first, "totals")


def test_a_retried_key_after_a_correction_answers_the_match_as_it_stands(client: FlaskClient) -> None:
    """At Samba the retried hand's teams' totals and the match's end are restated too: hand 2
    ended the match until hand 1 was corrected."""
    table = samba_table(client, options={"target": 3000})
    samba_ok(client, table, stock_out(2500, 100))
    key = {"Idempotency-Key": "phone-1/hand-2"}
    first = post_hand(client, table, stock_out(600, 0), headers=key).get_json()
    assert first["finished"] is True and first["winner"] == 0
    samba_ok(client, table, {**stock_out(400, 0), "replaces": 1, "reason": "2500 was 400"})
    replayed = post_hand(client, table, stock_out(600, 0), headers=key).get_json()
    assert replayed["finished"] is False and replayed["winner"] is None
    assert [team["total"] for team in replayed["teams"]] == [1000, 0]
    assert [team["score"] for team in replayed["teams"]] == [600, 0]  # the hand's own figures stay
    assert _but(replayed, "totals", "teams", "finished", "winner") == _but(
        first, "totals", "teams", "finished", "winner"
    )


def test_a_retried_correction_answers_what_its_first_answer_did(client: FlaskClient) -> None:
    """A correction's answer gives the table's totals once the hand is put right; its retry under
    the same key gives the same, not the totals up to the place it took."""
    table = create_table(client, game="el_gato", options={"stake": 1})
    record_ok(client, table, {"loser": "Caio"})
    record_ok(client, table, {"loser": "Bia"})
    key = {"Idempotency-Key": "phone-1/fix-1"}
    fix = {"loser": "Ana", "replaces": 1, "reason": "wrong"}
    first = post_hand(client, table, fix, headers=key).get_json()
    assert first["totals"] == get_table(client, table["id"])["totals"]
    again = post_hand(client, table, fix, headers=key)
    assert again.status_code == 201 and again.headers.get("Idempotent-Replayed") == "true"
    assert again.get_json() == first


def test_a_retried_correction_that_ends_a_samba_match_says_so_again(client: FlaskClient) -> None:
    table = samba_table(client, options={"target": 3000})
    samba_ok(client, table, stock_out(400, 0))
    samba_ok(client, table, stock_out(600, 0))
    key = {"Idempotency-Key": "phone-1/fix-1"}
    fix = {**stock_out(2500, 100), "replaces": 1, "reason": "400 was 2500"}
    first = post_hand(client, table, fix, headers=key).get_json()
    assert first["finished"] is True and first["winner"] == 0
    assert post_hand(client, table, fix, headers=key).get_json() == first


def test_a_dispute_on_one_hand_leaves_a_confirmed_hand_counted_in_the_league(app: Flask, client: FlaskClient) -> None:
    """The league's counters (``Seat.net``) leave out only the hands still waiting: a dispute on
    hand 2 said nothing of hand 1, confirmed before it."""
    table = create_table(client, two_key=True)
    with app.app_context():
        _write(table["id"], "hand", 0, 7)
        _write(table["id"], "hand", 0, 9)
        _write(table["id"], "confirm", 1, 0)
        _write(table["id"], "dispute", 2, 0)
        first = ledger.get_hand(ledger.get_table(table["id"]), 1)
        assert first is not None and first.status == "confirmed"
        seats = db.session.scalars(select(Seat).where(Seat.table_id == table["id"]).order_by(Seat.position))
        assert {seat.name: seat.net for seat in seats} == first.result["deltas"]


# --------------------------------------------------------------------------- any sequence of writes

Op = tuple[str, int, int]
ops = st.lists(
    st.one_of(
        st.tuples(st.just("hand"), st.integers(0, 3), st.integers(4, 13)),
        st.tuples(st.just("void"), st.integers(1, 8), st.just(0)),
        st.tuples(st.just("correct"), st.integers(1, 8), st.integers(4, 13)),
        st.tuples(st.just("confirm"), st.integers(1, 8), st.just(0)),
        st.tuples(st.just("dispute"), st.integers(1, 8), st.just(0)),
    ),
    min_size=1,
    max_size=8,
)


def _write(table_id: str, kind: str, number: int, tricks: int) -> None:
    """One write through the ledger, as the pages and the API make it; a refused one (a void
    hand, one not waiting for a confirmation) stores nothing and is fine."""
    table = ledger.get_table(table_id)
    try:
        if kind == "hand":
            ledger.record_hand(table, solo_record(ledger.current_dealer(table), tricks), actor="scorer")
        elif kind == "correct":
            old = ledger.get_hand(table, number)
            if old is not None:
                record = solo_record(old.dealer, tricks)
                ledger.record_hand(table, record, replaces=number, reason="fix", actor="scorer")
        elif kind == "void":
            ledger.void_hand(table, number, owner=True, reason="test", actor="owner")
        elif kind == "confirm":
            ledger.confirm_hand(table, number, actor="owner")
        else:
            ledger.dispute_hand(table, number, actor="owner", reason="no")
    except (ledger.Conflict, ledger.NotFound, ValueError):
        db.session.rollback()


def _true_running(table_id: str) -> dict[int, dict[str, int]]:
    """Each hand's running totals recomputed from the ``HandDelta`` rows alone: the live hands in
    their places of play up to it (a void hand counts for nothing: the totals where it lies)."""
    hands = db.session.scalars(select(Hand).where(Hand.table_id == table_id).order_by(Hand.position, Hand.number))
    deltas: dict[int, dict[int, int]] = {}
    for hand_id, seat, amount in db.session.execute(
        select(HandDelta.hand_id, HandDelta.seat, HandDelta.amount).join(Hand).where(Hand.table_id == table_id)
    ):
        deltas.setdefault(hand_id, {})[seat] = amount
    running = dict.fromkeys(range(len(PLAYERS)), 0)
    out: dict[int, dict[str, int]] = {}
    for hand in hands:
        if not hand.is_void:
            for seat, amount in deltas.get(hand.id, {}).items():
                running[seat] += amount
        out[hand.number] = {PLAYERS[seat]: total for seat, total in running.items()}
    return out


@settings(SLOW, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(sequence=ops)
def test_after_any_writes_every_figure_shown_equals_the_hands(
    app: Flask, client: FlaskClient, sequence: list[Op]
) -> None:
    table = create_table(client, two_key=True)
    for kind, number, tricks in sequence:
        with app.app_context():
            _write(table["id"], kind, number, tricks)
    listed = get_table(client, table["id"])
    with app.app_context():
        stored = ledger.get_table(table["id"])
        assert stored.state == ledger.rebuild_state(stored)
        true = _true_running(table["id"])
        final = list(true.values())[-1] if true else dict.fromkeys(PLAYERS, 0)  # in order of play
        assert ledger.totals(stored) == final
        for hand in db.session.scalars(select(Hand).where(Hand.table_id == table["id"])):
            assert {PLAYERS[d.seat]: d.amount for d in hand.deltas} == {
                n: v for n, v in hand.result["deltas"].items() if n in {PLAYERS[d.seat] for d in hand.deltas}
            }
        # The league's counters: the confirmed live hands only (a hand waiting for a confirmation
        # counts once confirmed).
        counted = dict.fromkeys(PLAYERS, 0)
        for hand in db.session.scalars(select(Hand).where(Hand.table_id == table["id"])):
            if hand.status == "confirmed":
                for d in hand.deltas:
                    counted[PLAYERS[d.seat]] += d.amount
        seats = db.session.scalars(select(Seat).where(Seat.table_id == table["id"]).order_by(Seat.position))
        assert {seat.name: seat.net for seat in seats} == counted, sequence
    assert listed["totals"] == final
    for hand in listed["hands"]:
        assert hand["totals"] == true[hand["number"]], hand["number"]
        assert _hand(client, table, hand["number"])["totals"] == true[hand["number"]]
