"""The table's cached state (balances, next number, next dealer) is derived data: after any
sequence of hands, voids and corrections it must equal what the hands alone say."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import ledger
from tests.hypothesis_settings import SLOW

from .api_support import API, PLAYERS, solo_record

Op = tuple[str, int, int]
ops = st.lists(
    st.one_of(
        st.tuples(st.just("hand"), st.integers(0, 3), st.integers(4, 13)),
        st.tuples(st.just("all_pass"), st.just(0), st.just(0)),
        st.tuples(st.just("void"), st.integers(1, 12), st.just(0)),
        st.tuples(st.just("correct"), st.integers(1, 12), st.integers(4, 13)),
    ),
    min_size=1,
    max_size=12,
)


def _record(dealer: str, tricks: int) -> dict[str, Any]:
    return solo_record(dealer, tricks)


@settings(SLOW, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(sequence=ops)
def test_cached_state_equals_the_state_rebuilt_from_the_hands(
    app: Flask, client: FlaskClient, sequence: list[Op]
) -> None:
    # Each example plays on a table of its own, so examples do not see each other's hands.
    created = client.post(f"{API}/tables", json={"game": "jubileu", "players": list(PLAYERS)}).get_json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    for kind, a, b in sequence:
        table = client.get(f"{API}/tables/{created['id']}").get_json()
        dealer = table["next_dealer"]
        if kind == "hand":
            client.post(f"{API}/tables/{created['id']}/hands", json=_record(dealer, b), headers=auth)
        elif kind == "all_pass":
            order = [PLAYERS[(PLAYERS.index(dealer) + k) % 4] for k in range(1, 5)]
            client.post(
                f"{API}/tables/{created['id']}/hands",
                json={"ultima": "copas", "auction": [[p, "passo"] for p in order]},
                headers=auth,
            )
        elif kind == "void":
            client.post(f"{API}/tables/{created['id']}/hands/{a}/void", json={"reason": "test"}, headers=auth)
        else:
            hands = {h["number"]: h for h in table["hands"]}
            if a in hands and not hands[a].get("void"):
                record = _record(hands[a]["dealer"], b)
                client.post(
                    f"{API}/tables/{created['id']}/hands", json={**record, "replaces": a, "reason": "fix"}, headers=auth
                )
        with app.app_context():
            stored = ledger.get_table(created["id"])
            assert stored.state == ledger.rebuild_state(stored)
