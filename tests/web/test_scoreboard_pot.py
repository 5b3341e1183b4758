"""A pot game's scoreboard shows the chips left on the table for the next deal (the odd chip
of a tie), and no other game shows that line."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from .api_support import create_table, record_ok

P3 = ["Ana", "Bia", "Caio"]
#: INJ-3: antes 3 + bets 4 = 7, a tie shares 3 each and 1 chip stays.
TIE = {"actions": [["Ana", {"bet": 2}], ["Bia", {"bet": 2}]], "cards": {"Ana": "A", "Bia": "A", "Caio": "K"}}


def _on_the_table(client: FlaskClient, table: dict) -> int | None:
    html = client.get(f"/t/{table['id']}").get_data(as_text=True)
    found = re.search(r'class="pot-line">.*?<b class="num">(\d+) ', html, re.S)
    return int(found.group(1)) if found else None


def _claim(client: FlaskClient, table: dict) -> None:
    assert client.post(f"/t/{table['id']}/scorer", data={"token": table["token"]}).status_code == 302


def test_the_odd_chip_of_a_tie_shows_on_the_table_until_the_next_deal_takes_it(client: FlaskClient) -> None:
    table = create_table(client, game="injun", players=P3)
    _claim(client, table)
    assert _on_the_table(client, table) == 0  # an empty table says so too
    record_ok(client, table, TIE)
    assert _on_the_table(client, table) == 1
    record_ok(client, table, {"actions": [["Bia", "drop"], ["Caio", "drop"]]})  # Ana alone takes it all
    assert _on_the_table(client, table) == 0


def test_games_without_a_pot_have_no_such_line(client: FlaskClient) -> None:
    table = create_table(client, game="el_gato", players=["Ana", "Bia"])
    _claim(client, table)
    assert _on_the_table(client, table) is None


def test_the_settle_up_shares_the_chips_left_on_the_table_before_paying(client: FlaskClient) -> None:
    """Antes 3 + bets 4, a tie: Ana and Bia 0, Caio -1, 1 chip on the table. Shared back, the
    odd chip goes to the next deal's first player (Ana deals next, so Bia bets first), and the
    payments clear the shared balances."""
    table = create_table(client, game="injun", players=P3)
    _claim(client, table)
    record_ok(client, table, TIE)
    answer = client.get(f"/api/v1/tables/{table['id']}/settlement").get_json()
    assert answer["balances"] == {"Ana": 0, "Bia": 0, "Caio": -1}
    assert answer["on_the_table"] == 1
    settled = answer["settled_balances"]
    assert settled == {"Ana": 0, "Bia": 1, "Caio": -1}
    assert answer["transfers"] == [{"from": "Caio", "to": "Bia", "amount": 1}]
    html = client.get(f"/t/{table['id']}/settle").get_data(as_text=True)
    assert "pot-note" in html


def _auth(table: dict) -> dict[str, str]:
    return {"Authorization": f"Bearer {table['token']}"}


def test_a_hand_whose_chips_a_later_hand_took_cannot_be_voided_or_changed_first(client: FlaskClient) -> None:
    """The tie of hand 1 left a chip that hand 2 won: voiding hand 1, or correcting it into a
    hand without a tie, would leave hand 2 with a chip nobody put in. Refused with a sentence
    and nothing stored; a correction that leaves the same chip, or undoing from the last hand
    back, is accepted."""
    table = create_table(client, game="injun", players=P3, language="en")
    record_ok(client, table, TIE)
    record_ok(client, table, {"actions": [["Bia", "drop"], ["Caio", "drop"]]})
    hands = f"/api/v1/tables/{table['id']}/hands"
    refused = client.post(f"{hands}/1/void", json={"reason": "x"}, headers=_auth(table))
    assert refused.status_code == 422 and "hand 2 first" in refused.get_json()["error"]["message"]
    no_tie = {**TIE, "dealer": "Caio", "cards": {"Ana": "A", "Bia": "K", "Caio": "K"}, "replaces": 1}
    refused = client.post(hands, json=no_tie, headers=_auth(table))
    assert refused.status_code == 422 and refused.get_json()["error"]["field"] == "replaces"
    answer = client.get(f"/api/v1/tables/{table['id']}").get_json()
    assert not any(h.get("void") for h in answer["hands"]) and answer["on_the_table"] == 0
    same_chip = {**TIE, "dealer": "Caio", "cards": {"Ana": "A", "Bia": "A", "Caio": "Q"}, "replaces": 1}
    assert client.post(hands, json=same_chip, headers=_auth(table)).status_code == 201
    assert client.post(f"{hands}/2/void", json={}, headers=_auth(table)).status_code == 200
    assert client.post(f"{hands}/3/void", json={}, headers=_auth(table)).status_code == 200
    answer = client.get(f"/api/v1/tables/{table['id']}").get_json()
    assert set(answer["totals"].values()) == {0} and answer["on_the_table"] == 0


def test_a_patience_table_shows_games_and_wins_per_patience_not_chips(client: FlaskClient) -> None:
    table = create_table(client, game="relogio", players=["Ana"])
    _claim(client, table)
    html = client.get(f"/t/{table['id']}").get_data(as_text=True)
    assert "pot-line" not in html and 'class="balance positive"' not in html
    for record in (
        {"game": "relogio", "won": True},
        {"game": "relogio", "won": False},
        {"game": "relogio_real", "sequences": 4},
    ):
        record_ok(client, table, record)
    html = client.get(f"/t/{table['id']}").get_data(as_text=True)
    rows = re.findall(
        r'<span class="who">(Relógio(?: Real)?) <span class="small muted sub">([^<]*)</span></span>\s*<span class="balance">(\d+)%</span>',
        html,
    )
    assert [(name, rate) for name, _words, rate in rows] == [("Relógio", "50"), ("Relógio Real", "100")]
    assert "Dealer: Ana" not in html and "Carteador: Ana" not in html
