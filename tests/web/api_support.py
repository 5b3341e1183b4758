"""Helpers for the JSON API tests: create tables, post hands, read what is stored.

Every test gets its own app and database from the ``app``/``client`` fixtures of
tests/conftest.py; nothing here keeps state between tests.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

API = "/api/v1"
PLAYERS = ["Ana", "Bia", "Caio", "Dani"]

#: The hand record of docs/api.md ("Jubileu hand record"), verbatim.
EXAMPLE_RECORD: dict[str, Any] = {
    "dealer": "Dani",
    "ultima": "copas",
    "aces": {"Caio": 3},
    "auction": [
        ["Ana", "solo_sete"],
        ["Bia", "passo"],
        ["Caio", "jogo_obrigatorio"],
        ["Dani", "passo"],
        ["Ana", "passo"],
    ],
    "trump": "espadas",
    "called": "paus",
    "partner": "Bia",
    "tricks": {"Ana": 2, "Bia": 5, "Caio": 4, "Dani": 2},
}


def create_table(client: FlaskClient, **fields: Any) -> dict[str, Any]:
    """POST /tables (Jubileu, the four usual players unless overridden); asserts 201."""
    body: dict[str, Any] = {"game": "jubileu", "players": list(PLAYERS)}
    body.update(fields)
    response = client.post(f"{API}/tables", json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def auth(table: Mapping[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {table['token']}"}


def post_hand(
    client: FlaskClient,
    table: Mapping[str, Any],
    record: Mapping[str, Any],
    *,
    token: str | None = "table",
    headers: Mapping[str, str] | None = None,
) -> TestResponse:
    """POST a hand; ``token="table"`` sends the table's own scorer token, None sends none."""
    sent = dict(headers or {})
    if token == "table":
        sent.update(auth(table))
    elif token is not None:
        sent["Authorization"] = f"Bearer {token}"
    return client.post(f"{API}/tables/{table['id']}/hands", json=record, headers=sent)


def record_ok(client: FlaskClient, table: Mapping[str, Any], record: Mapping[str, Any], **kw: Any) -> dict[str, Any]:
    response = post_hand(client, table, record, **kw)
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def void(
    client: FlaskClient, table: Mapping[str, Any], number: int, *, token: str | None = "table", **body: Any
) -> TestResponse:
    headers = auth(table) if token == "table" else ({"Authorization": f"Bearer {token}"} if token else {})
    return client.post(f"{API}/tables/{table['id']}/hands/{number}/void", json=body, headers=headers)


def get_table(client: FlaskClient, table_id: str) -> dict[str, Any]:
    response = client.get(f"{API}/tables/{table_id}")
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def state(client: FlaskClient, table_id: str) -> tuple[int, dict[str, int], str, int]:
    """What a refused write must not change: hand count, totals, next dealer, next number."""
    t = get_table(client, table_id)
    return len(t["hands"]), t["totals"], t["next_dealer"], t["next_number"]


def assert_error(
    response: TestResponse, status: int, *, code: str | None = None, field: str | None = None
) -> dict[str, Any]:
    """The docs/api.md error shape: {"error": {"code", "message"[, "field"]}}, message a sentence."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert set(body) == {"error"}
    error = body["error"]
    assert isinstance(error["code"], str) and error["code"]
    assert isinstance(error["message"], str) and len(error["message"]) > 10
    assert error["message"].rstrip()[-1] in ".!?", error["message"]
    assert set(error) <= {"code", "message", "field", "current_number"}
    if code is not None:
        assert error["code"] == code, error
    if field is not None:
        assert error.get("field") == field, error
    return error


def order_after(dealer: str, players: Sequence[str] = PLAYERS) -> list[str]:
    """Players in speaking order for a hand dealt by ``dealer`` (the player after him first)."""
    i = players.index(dealer)
    return [players[(i + k) % len(players)] for k in range(1, len(players) + 1)]


def solo_record(
    dealer: str,
    declarer_tricks: int = 7,
    *,
    bid: str = "solo_sete",
    explicit_dealer: bool = False,
    players: Sequence[str] = PLAYERS,
) -> dict[str, Any]:
    """The first speaker bids ``bid`` (a solo with trump), the others pass."""
    speakers = order_after(dealer, players)
    declarer = speakers[0]
    rest = 13 - declarer_tricks
    others = speakers[1:]
    tricks = {declarer: declarer_tricks}
    for k, name in enumerate(others):
        tricks[name] = rest // 3 + (1 if k < rest % 3 else 0)
    record: dict[str, Any] = {
        "ultima": "copas",
        "auction": [[declarer, bid]] + [[p, "passo"] for p in others],
        "trump": "espadas",
        "tricks": tricks,
    }
    if explicit_dealer:
        record["dealer"] = dealer
    return record


def all_pass_record(dealer: str) -> dict[str, Any]:
    return {"ultima": "ouros", "auction": [[p, "passo"] for p in order_after(dealer)]}


def contract_record(bid: str, declarer: str, tricks: Mapping[str, int], **extra: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "ultima": "copas",
        "contract": {"bid": bid, "declarers": [declarer]},
        "tricks": dict(tricks),
    }
    record.update(extra)
    return record


# --------------------------------------------------------------------------- settlement oracle


def fewest_transfers_brute_force(balances: Mapping[str, int]) -> int:
    """The fewest payments settling ``balances``, by exhaustive search (small cases only).

    Tries every set of k payer->payee edges, k = 1, 2, …, and answers the first k for which
    positive amounts on those edges settle everything. Amounts on an edge set without a cycle
    are forced (peel the leaves); with a cycle every amount up to the largest balance is tried.
    Independent of the app's subset-partition algorithm.
    """
    names = [n for n, v in balances.items() if v != 0]
    if not names:
        return 0
    pairs = [(a, b) for a in names for b in names if a != b]
    for k in range(1, len(names)):
        for edges in itertools.combinations(pairs, k):
            if {p for e in edges for p in e} != set(names):
                continue
            if _settles(edges, balances):
                return k
    raise AssertionError(f"no settlement found for {balances}")


def _settles(edges: Sequence[tuple[str, str]], balances: Mapping[str, int]) -> bool:
    remaining = list(edges)
    need = {n: balances[n] for e in edges for n in e}  # what each still has to receive (+) or pay (-)
    while remaining:
        degree: dict[str, int] = {}
        for a, b in remaining:
            degree[a] = degree.get(a, 0) + 1
            degree[b] = degree.get(b, 0) + 1
        leaf = next((n for n, d in degree.items() if d == 1), None)
        if leaf is None:  # a cycle: try every amount
            top = max(abs(v) for v in balances.values())
            for amounts in itertools.product(range(1, top + 1), repeat=len(remaining)):
                net = dict(need)
                for (payer, payee), amount in zip(remaining, amounts):
                    net[payer] += amount
                    net[payee] -= amount
                if not any(net.values()):
                    return True
            return False
        edge = next(e for e in remaining if leaf in e)
        payer, payee = edge
        amount = -need[leaf] if leaf == payer else need[leaf]
        if amount <= 0:
            return False
        need[payer] += amount
        need[payee] -= amount
        remaining.remove(edge)
    return not any(need.values())
