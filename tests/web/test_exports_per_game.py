"""Export, import and export again for the newer games: each table (with a correction and
a void where the game allows one) comes back identical, hands, totals, the chips on the table
and the league's standings included."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import ledger
from referee.extensions import db
from tests.rules.test_kentucky_derby_race import BOTH_PAUS, SOLO, cards
from tests.web.test_exports import answers, export, fresh, import_, league_figures, without_time  # noqa: F401 (fixture)

from .api_support import API

P2, P3, P4 = ["Ana", "Bia"], ["Ana", "Bia", "Caio"], ["Ana", "Bia", "Caio", "Dani"]
TIE = {"actions": [["Ana", {"bet": 2}], ["Bia", {"bet": 2}]], "cards": {"Ana": "A", "Bia": "A", "Caio": "K"}}
BETS = {p: {"horse": h, "amount": 1} for p, h in zip(P4, ["copas", "ouros", "espadas", "paus"])}
KOZIRI = {"dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "ouros"}

#: Per game: players, options, then the records played in turn (None: void the last hand;
#: a dict with "replaces": a correction of that hand).
PLAYS: dict[str, tuple[list[str], dict[str, Any], list[Any]]] = {
    "koziri": (
        P2,
        {"deck": 24},
        [{**KOZIRI, "winner": "Ana"}, {**KOZIRI, "winner": "Bia"}, None, {**KOZIRI, "winner": "Bia", "replaces": 1}],
    ),
    "injun": (
        P3,
        {"system": "poker"},
        [TIE, {"actions": [["Bia", "drop"], ["Caio", "drop"]]}, {"actions": [["Caio", "drop"], ["Ana", "drop"]]}, None],
    ),
    "kentucky_derby": (
        P4,
        {},
        [
            {"pingo": 1, "bets": BETS, "cards": cards(*SOLO)},
            {"pingo": 1, "bets": BETS, "cards": cards(*BOTH_PAUS, "9♥ 9♠")},
        ],
    ),
    "lift_smoke": (
        P4,
        {"ante": 2},
        [
            {"winner": "Bia", "out_order": ["Caio", "Ana", "Dani"]},
            {"winner": "Ana", "out_order": ["Dani", "Bia", "Caio"]},
            None,
        ],
    ),
    "el_gato": (P4, {"stake": 1}, [{"loser": "Caio"}, {"loser": "Ana"}, {"loser": "Dani", "replaces": 2}]),
    "relogio": (
        ["Ana"],
        {},
        [
            {"game": "relogio", "won": False},
            {"game": "relogio_real", "sequences": 3},
            {"game": "relogio", "won": True, "king_exchanges": 1},
        ],
    ),
    "cachorro": (["Ana"], {}, [{"game": "cachorro", "won": False}, {"game": "cachorro", "won": True, "round": 2}]),
}


def play(client: FlaskClient, game: str) -> str:
    players, options, records = PLAYS[game]
    response = client.post(f"{API}/tables", json={"game": game, "players": players, "options": options})
    assert response.status_code == 201, response.get_data(as_text=True)
    table = response.get_json()
    auth = {"Authorization": f"Bearer {table['token']}"}
    last = 0
    for record in records:
        if record is None:
            response = client.post(
                f"{API}/tables/{table['id']}/hands/{last}/void", json={"reason": "misdeal"}, headers=auth
            )
            assert response.status_code == 200, response.get_data(as_text=True)
            continue
        body = dict(record)
        state = client.get(f"{API}/tables/{table['id']}").get_json()
        if "replaces" in body:
            body["dealer"] = client.get(f"{API}/tables/{table['id']}/hands/{body['replaces']}").get_json()["dealer"]
        else:
            body.setdefault("dealer", state["next_dealer"])
        response = client.post(f"{API}/tables/{table['id']}/hands", json=body, headers=auth)
        assert response.status_code == 201, response.get_data(as_text=True)
        last = response.get_json()["number"]
    return str(table["id"])


@pytest.mark.parametrize("game", sorted(PLAYS))
def test_export_import_export_is_the_same(
    app: Flask,
    client: FlaskClient,
    fresh: Callable[[], Flask],  # noqa: F811 (the fixture, imported above)
    game: str,
) -> None:
    ids = [play(client, game)]
    first = export(client, ids)
    before = answers(client, ids)
    standings = league_figures(app, {game})
    assert first["tables"][0]["game"] == game and first["tables"][0]["hands"]
    second = fresh()
    other = second.test_client()
    response = import_(other, first)
    assert response.status_code == 201, response.get_data(as_text=True)
    assert without_time(export(other, ids)) == without_time(first)
    assert answers(other, ids) == before
    assert league_figures(second, {game}) == standings
    with second.app_context():
        table = ledger.get_table(ids[0])
        assert ledger.rebuild_state(table) == table.state
        db.session.remove()
