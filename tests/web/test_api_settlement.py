"""GET /api/v1/tables/{id}/settlement: balances and the fewest transfers."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from flask.testing import FlaskClient

from .api_support import (
    API,
    EXAMPLE_RECORD,
    PLAYERS,
    all_pass_record,
    assert_error,
    contract_record,
    create_table,
    fewest_transfers_brute_force,
    get_table,
    record_ok,
    solo_record,
    void,
)


def settlement(client: FlaskClient, table: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"{API}/tables/{table['id']}/settlement")
    assert response.status_code == 200
    return response.get_json()


def check_transfers(answer: dict[str, Any]) -> None:
    """Transfers are positive, between seated players, settle the balances exactly, and are fewest."""
    balances = answer["balances"]
    net = dict.fromkeys(balances, 0)
    for t in answer["transfers"]:
        assert set(t) >= {"from", "to", "amount"}
        assert t["from"] in balances and t["to"] in balances and t["from"] != t["to"]
        assert isinstance(t["amount"], int) and t["amount"] > 0
        net[t["from"]] -= t["amount"]
        net[t["to"]] += t["amount"]
    assert net == balances
    assert len(answer["transfers"]) == fewest_transfers_brute_force(balances)


def test_empty_table_settles_with_nothing(client: FlaskClient) -> None:
    table = create_table(client)
    assert settlement(client, table) == {"balances": dict.fromkeys(PLAYERS, 0), "transfers": []}


def test_unknown_table_is_404(client: FlaskClient) -> None:
    assert_error(client.get(f"{API}/tables/nope/settlement"), 404)


# Each scenario: hands as (dealer, record) built in order, and the balances they must give.
SCENARIOS: dict[str, tuple[list[dict[str, Any]], dict[str, int], int]] = {
    # One solo made: the three others each pay the declarer.
    "one-solo": ([solo_record("Dani", 7)], {"Ana": 6, "Bia": -2, "Caio": -2, "Dani": -2}, 3),
    # The docs/api.md partnership example: two transfers, one per defender.
    "partnership": ([EXAMPLE_RECORD], {"Ana": -4, "Bia": 4, "Caio": 4, "Dani": -4}, 2),
    # Ana +6 then Bia +9: Ana 3, Bia 7, Caio -5, Dani -5.
    "two-solos": ([solo_record("Dani", 7), solo_record("Ana", 8)], {"Ana": 3, "Bia": 7, "Caio": -5, "Dani": -5}, 3),
    # Ana +6, then Bia fails by one (-6): Ana 8, Bia -8, Caio 0, Dani 0 -> one transfer.
    "cancelling": ([solo_record("Dani", 7), solo_record("Ana", 6)], {"Ana": 8, "Bia": -8, "Caio": 0, "Dani": 0}, 1),
    # Partnership then partnership: two zero-sum pairs, so two transfers, not three.
    "two-pairs": (
        [
            EXAMPLE_RECORD,
            {
                "ultima": "copas",
                "auction": [["Bia", "jubileu"], ["Caio", "passo"], ["Dani", "passo"], ["Ana", "passo"]],
                "trump": "copas",
                "called": "ouros",
                "partner": "Dani",
                "tricks": {"Ana": 3, "Bia": 4, "Caio": 3, "Dani": 3},
            },
        ],
        # Jubileu by Bia with Dani, 7 tricks: a = 2; Bia +2, Dani +2, Caio -2, Ana -2.
        {"Ana": -6, "Bia": 6, "Caio": 2, "Dani": -2},
        2,
    ),
    "all-pass": ([all_pass_record("Dani")], dict.fromkeys(PLAYERS, 0), 0),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_settlement_matches_totals_and_is_minimal(client: FlaskClient, name: str) -> None:
    records, balances, count = SCENARIOS[name]
    table = create_table(client)
    for record in records:
        record_ok(client, table, record)
    answer = settlement(client, table)
    assert answer["balances"] == balances
    assert answer["balances"] == get_table(client, table["id"])["totals"]
    assert sum(answer["balances"].values()) == 0
    check_transfers(answer)
    assert len(answer["transfers"]) == count
    assert "money" not in answer  # chips only by default


def test_settlement_leaves_voided_hands_out(client: FlaskClient) -> None:
    table = create_table(client)
    record_ok(client, table, solo_record("Dani", 7))
    record_ok(client, table, solo_record("Ana", 8))
    void(client, table, 2)
    answer = settlement(client, table)
    assert answer["balances"] == {"Ana": 6, "Bia": -2, "Caio": -2, "Dani": -2}
    check_transfers(answer)


def test_settlement_of_many_hands(client: FlaskClient) -> None:
    table = create_table(client)
    dealer = "Dani"
    for made in (7, 9, 5, 8, 13, 6):
        dealer = record_ok(client, table, solo_record(dealer, made))["next_dealer"]
    record_ok(
        client, table, contract_record("miseria", "Bia", {"Ana": 5, "Bia": 2, "Caio": 3, "Dani": 3}, trump="paus")
    )
    answer = settlement(client, table)
    assert answer["balances"] == get_table(client, table["id"])["totals"]
    check_transfers(answer)


def test_money_at_fifty_cents_a_chip(client: FlaskClient) -> None:
    table = create_table(client, options={"chip_value": "0.50"})
    record_ok(client, table, solo_record("Dani", 9))  # Ana +12, the others -4 each
    answer = settlement(client, table)
    assert answer["balances"] == {"Ana": 12, "Bia": -4, "Caio": -4, "Dani": -4}
    check_transfers(answer)
    assert answer["money"] == {"Ana": "6.00", "Bia": "-2.00", "Caio": "-2.00", "Dani": "-2.00"}
    for t in answer["transfers"]:
        assert t["to"] == "Ana" and t["amount"] == 4
        assert Decimal(t["money"]) == Decimal("0.50") * t["amount"]
        assert t["money"] == "2.00"
    # Money sums to zero exactly, as decimal strings.
    assert sum(Decimal(v) for v in answer["money"].values()) == 0


def test_money_with_a_comma_decimal(client: FlaskClient) -> None:
    table = create_table(client, options={"chip_value": "1,25"})
    assert table["options"]["chip_value"] == "1.25"
    record_ok(client, table, solo_record("Dani", 7))  # Ana +6
    answer = settlement(client, table)
    assert answer["money"]["Ana"] == "7.50"
    assert {t["money"] for t in answer["transfers"]} == {"2.50"}
