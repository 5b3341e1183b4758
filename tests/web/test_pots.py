"""Pots that stay on the table between deals (the newer games' pot games): the ledger fills each
hand's ``carried_in`` with the chips on the table, minus the sum of the live deltas, and
reports them, here through Kentucky Derby's API."""

from __future__ import annotations

from flask.testing import FlaskClient

from referee.rules import kentucky_derby
from tests.web.api_support import API, assert_error, auth, get_table, void

PLAYERS = ["Ana", "Bia", "Caio", "Dani"]


def _table(client: FlaskClient) -> dict:
    response = client.post(f"{API}/tables", json={"game": "kentucky_derby", "players": PLAYERS})
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def _race(bets: dict[str, str], winner: str, **extra: object) -> dict:
    """A race told by its result only: everyone's pingo 1 and bet 1."""
    return {
        "pingo": 1,
        "bets": {name: {"horse": horse, "amount": 1} for name, horse in bets.items()},
        "winner": winner,
        **extra,
    }


def _post(client: FlaskClient, table: dict, record: dict):  # type: ignore[no-untyped-def]
    return client.post(f"{API}/tables/{table['id']}/hands", json=record, headers=auth(table))


def test_a_pot_nobody_backed_stays_on_the_table_and_goes_to_the_next_winner(client: FlaskClient) -> None:
    table = _table(client)
    # Nobody backed copas: the 8 chips (pingo and bet of four players) stay on the table.
    first = _post(client, table, _race({"Ana": "ouros", "Bia": "espadas", "Caio": "paus", "Dani": "ouros"}, "copas"))
    assert first.status_code == 201, first.get_data(as_text=True)
    assert sum(first.get_json()["deltas"].values()) == -8
    assert get_table(client, table["id"])["on_the_table"] == 8
    # Next race: Ana alone backs the winner and takes this pot and the one carried in.
    second = _post(client, table, _race({"Ana": "copas", "Bia": "espadas", "Caio": "paus", "Dani": "ouros"}, "copas"))
    assert second.status_code == 201, second.get_data(as_text=True)
    body = get_table(client, table["id"])
    assert body["on_the_table"] == 0
    assert second.get_json()["deltas"]["Ana"] == 16 - 2  # 8 carried in + 8 of this race, minus her own 2
    assert body["totals"]["Ana"] == -2 + 14
    assert sum(body["totals"].values()) == 0


def test_a_record_naming_other_chips_on_the_table_is_refused_and_nothing_is_stored(client: FlaskClient) -> None:
    table = _table(client)
    assert _post(client, table, _race(dict.fromkeys(PLAYERS, "ouros"), "copas")).status_code == 201
    wrong = _post(client, table, _race(dict.fromkeys(PLAYERS, "ouros"), "ouros", carried_in=3))
    assert_error(wrong, 422, field="carried_in")
    assert get_table(client, table["id"])["next_number"] == 2
    right = _post(client, table, _race(dict.fromkeys(PLAYERS, "ouros"), "ouros", carried_in=8))
    assert right.status_code == 201, right.get_data(as_text=True)


def test_voiding_the_race_that_left_the_pot_takes_it_off_the_table(client: FlaskClient) -> None:
    table = _table(client)
    assert _post(client, table, _race(dict.fromkeys(PLAYERS, "ouros"), "copas")).status_code == 201
    assert get_table(client, table["id"])["on_the_table"] == 8
    assert void(client, table, 1).status_code == 200
    body = get_table(client, table["id"])
    assert body["on_the_table"] == 0 and set(body["totals"].values()) == {0}


def test_games_without_a_pot_answer_no_chips_on_the_table(client: FlaskClient) -> None:
    response = client.post(f"{API}/tables", json={"game": "jubileu", "players": PLAYERS})
    assert "on_the_table" not in get_table(client, response.get_json()["id"])


def test_the_pot_games_say_so_and_the_others_do_not() -> None:
    from referee.rules import el_gato, injun, jubileu, koziri, lift_smoke, quatrilho, samba

    assert [m.GAME.pots for m in (injun, kentucky_derby, lift_smoke)] == [True, True, True]
    assert not any(m.GAME.pots for m in (jubileu, quatrilho, samba, koziri, el_gato))
