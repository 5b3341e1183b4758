"""The ledger at its own level (no HTTP): recording, voiding and correcting hands, the derived
state they leave, idempotent retries, and the settle-up of one table and of a night's tables."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from referee import ledger
from referee.api import answers
from referee.extensions import db
from referee.models import Hand, Seat, Table
from referee.rules.errors import InconsistentHand

from .api_support import PLAYERS, solo_record


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.test_request_context():
        yield


def _table(**options: Any) -> Table:
    table, _token = ledger.create_table(game="jubileu", players=list(PLAYERS), options=options or None)
    return table


def _record(table: Table, tricks: int = 7, **kwargs: Any) -> tuple[int, dict[str, Any], bool]:
    """Record a hand; answer its number, the API's answer to it (made from what the ledger
    saved) and whether it was replayed."""
    number, saved, replayed = ledger.record_hand(table, solo_record(ledger.current_dealer(table), tricks), **kwargs)
    return number, answers.saved_answer(table, saved), replayed


def _cleared(balances: Mapping[str, int], payments: Sequence[ledger.Payment]) -> dict[str, int]:
    left = dict(balances)
    for p in payments:
        assert p.amount > 0
        left[p.payer] += p.amount
        left[p.payee] -= p.amount
    return left


def _stored_hands(table: Table) -> int:
    return db.session.scalar(select(func.count()).select_from(Hand).where(Hand.table_id == table.id)) or 0


def test_recording_a_hand_moves_the_state_on(ctx: None) -> None:
    table = _table()
    first_dealer = ledger.current_dealer(table)
    number, answer, replayed = _record(table, 9)
    assert (number, replayed) == (1, False)
    totals = ledger.totals(table)
    assert answer["totals"] == totals and answer["deltas"] == totals  # the first hand is the totals
    assert sum(totals.values()) == 0 and any(totals.values())
    assert ledger.next_number(table) == 2
    assert ledger.current_dealer(table) == answer["next_dealer"] != first_dealer
    assert answer["breakdown"] and all(isinstance(line["label"], str) for line in answer["breakdown"])
    assert table.state == ledger.rebuild_state(table)
    hand = ledger.get_hand(table, 1)
    # The running totals are not stored with the hand (only its own figures): they are derived.
    assert hand is not None and "totals" not in hand.result and not hand.is_void
    assert ledger.as_it_stands(table, [hand])[1]["totals"] == totals


def test_a_void_takes_the_hand_out_of_the_totals_and_the_state_equals_a_rebuild(ctx: None) -> None:
    table = _table()
    _record(table, 9)
    _number, second, _ = _record(table, 4)
    ledger.void_hand(table, 1, owner=True, reason="wrong tricks")
    assert ledger.totals(table) == second["deltas"]
    assert table.state == ledger.rebuild_state(table)
    assert ledger.next_number(table) == 3  # numbers are never reused
    db.session.expire_all()  # the seats' counters are written by plain updates
    seats = {s.name: s for s in db.session.scalars(select(Seat).where(Seat.table_id == table.id))}
    assert {name: seat.net for name, seat in seats.items()} == second["deltas"]
    assert {seat.played for seat in seats.values()} == {1}
    hand = ledger.get_hand(table, 1)
    assert hand is not None and hand.is_void and hand.void_event.reason == "wrong tricks"
    with pytest.raises(ledger.Conflict):
        ledger.void_hand(table, 1, owner=True)
    with pytest.raises(ledger.NotFound):
        ledger.void_hand(table, 7, owner=True)


def test_a_correction_voids_the_hand_and_takes_its_place(ctx: None) -> None:
    table = _table()
    _record(table, 9)
    dealer_after_one = ledger.current_dealer(table)
    old = ledger.get_hand(table, 1)
    assert old is not None
    number, answer, _ = ledger.record_hand(
        table, solo_record(old.dealer, 4), replaces=1, reason="it was 4 tricks", actor=ledger.BY_API
    )
    assert number == 2 and answer["replaces"] == 1
    assert ledger.totals(table) == answer["deltas"] == answer["totals"]
    assert ledger.current_dealer(table) == dealer_after_one  # the deal goes on from hand 1's place
    assert table.state == ledger.rebuild_state(table)
    db.session.expire_all()  # hand 1 was read with its events before the correction
    corrected = ledger.get_hand(table, 1)
    fixed = ledger.get_hand(table, 2)
    assert corrected is not None and corrected.is_void and corrected.void_event.reason == "it was 4 tricks"
    assert fixed is not None and fixed.position == corrected.position
    with pytest.raises(ledger.Conflict):
        ledger.record_hand(table, solo_record(old.dealer, 5), replaces=1)


def test_a_retry_with_the_same_key_stores_one_hand_and_gets_the_first_answer(ctx: None) -> None:
    table = _table()
    record = solo_record(ledger.current_dealer(table), 8)
    first = ledger.record_hand(table, record, idempotency_key="tap-1")
    again = ledger.record_hand(table, record, idempotency_key="tap-1")
    assert first[2] is False and again[2] is True
    assert again[:2] == first[:2]
    assert _stored_hands(table) == 1 and ledger.next_number(table) == 2
    assert ledger.stored_number(table, "tap-1") == 1 and ledger.stored_number(table, "tap-2") is None
    other = solo_record(ledger.current_dealer(table), 5)
    with pytest.raises(InconsistentHand):
        ledger.record_hand(table, other, idempotency_key="tap-1")
    assert _stored_hands(table) == 1


def test_a_stale_expected_number_is_a_conflict_naming_the_current_hand(ctx: None) -> None:
    table = _table()
    _record(table)
    with pytest.raises(ledger.Conflict) as refused:
        _record(table, expected_number=1)
    assert refused.value.current == 1
    assert _stored_hands(table) == 1


def test_the_settlement_of_a_table_clears_its_balances_in_chips_and_money(ctx: None) -> None:
    table = _table(chip_value="0.50")
    _record(table, 9)
    _record(table, 3)
    totals = ledger.totals(table)
    answer = ledger.settlement(table)
    assert answer["balances"] == totals
    transfers = [ledger.Payment(t["from"], t["to"], t["amount"], Decimal(t["money"])) for t in answer["transfers"]]
    assert transfers and all(_cleared(totals, transfers)[name] == 0 for name in totals)
    assert all(t.money == Decimal("0.50") * t.amount for t in transfers)
    assert answer["money"] == {name: format(Decimal("0.50") * amount, "f") for name, amount in totals.items()}
    # The scoreboard's settlement and the settle page's are one computation.
    result = ledger.settle_up([table])
    assert result.balances == totals and not result.in_money
    assert [(p.payer, p.payee, p.amount, p.money) for p in result.payments] == [
        (t.payer, t.payee, t.amount, t.money) for t in transfers
    ]
    assert result.per_table == {table.id: totals}


def test_two_tables_of_a_night_settle_a_player_once_in_money(ctx: None) -> None:
    first = _table(chip_value="0.50")
    _record(first, 9)
    second, _token = ledger.create_table(
        game="jubileu", players=["ana", "Edu", "Fábio", "Gil"], options={"chip_value": "1.00"}
    )
    auction = [["ana", "solo_sete"], ["Edu", "passo"], ["Fábio", "passo"], ["Gil", "passo"]]
    tricks = {"ana": 8, "Edu": 2, "Fábio": 2, "Gil": 1}
    ledger.record_hand(second, {"ultima": "copas", "auction": auction, "trump": "espadas", "tricks": tricks})
    one, two = ledger.totals(first), ledger.totals(second)
    result = ledger.settle_up([first, second])
    assert result.in_money and result.game == "jubileu"
    assert "ana" not in result.balances  # one member, "Ana" at the first table
    assert result.balances["Ana"] == int(Decimal("0.50") * one["Ana"] * 100 + Decimal("1.00") * two["ana"] * 100)
    assert result.balances["Edu"] == int(Decimal("1.00") * two["Edu"] * 100)
    assert sum(result.balances.values()) == 0
    assert all(amount == 0 for amount in _cleared(result.balances, result.payments).values())
    assert all(p.money == Decimal(p.amount) / 100 for p in result.payments)
    assert result.money == {who: Decimal(amount) / 100 for who, amount in result.balances.items()}
    assert set(result.per_table) == {first.id, second.id}
    assert sum(result.per_table[second.id].values()) == 0
    apart = len(ledger.settle_up([first]).payments) + len(ledger.settle_up([second]).payments)
    assert len(result.payments) <= apart
