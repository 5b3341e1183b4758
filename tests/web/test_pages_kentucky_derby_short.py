"""The Kentucky Derby's short paths through the test client: a race recorded by its winner alone
(one tap on the winning horse, and the second one when second place is played), and the last
race's bets offered again with one tap. Payouts are worked out here from the rule text."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient

from referee import ledger
from tests.web.test_pages_kentucky_derby import (
    BETS,
    HEARTS_ALONE,
    PLAYERS,
    SEVEN,
    SEVEN_BETS,
    TIE_DELTAS,
    draft_in,
    errors_in,
    new_table,
    page,
    run,
    start_race,
    stored,
)


def deltas_in(html: str) -> dict[str, str]:
    return dict(re.findall(r'<span class="who">(\w+)</span> <span class="balance[^"]*">([^<]+)</span>', html))


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def test_the_race_step_offers_the_winner_alone_until_a_card_is_turned(client: FlaskClient) -> None:
    tid = new_table(client)
    html = start_race(client, tid)
    assert all(f'value="winner:{h}"' in html for h in ("copas", "ouros", "espadas", "paus"))
    html = run(client, tid, html, ["Kc"])
    assert 'value="winner:' not in html  # a race under way is finished card by card


def test_a_race_by_its_winner_alone_settles_as_the_cards_would_and_stores_no_cards(
    app: Flask, client: FlaskClient
) -> None:
    tid = new_table(client)
    html = page(client, tid, d=draft_in(start_race(client, tid)), action="winner:copas")
    # ♥ wins, as in the tie-break race: Ana and Caio share 9, one chip stays on the table.
    assert deltas_in(html) == {name: signed(d) for name, d in TIE_DELTAS.items()}
    assert "derby-track" not in html and "derby-keypad" not in html
    assert stored(app, tid) == []  # nothing before confirm
    assert client.post(f"/t/{tid}/hand", data={"d": draft_in(html)}).status_code == 302
    [hand] = stored(app, tid)
    assert "cards" not in hand["record"] and hand["record"]["winner"] == "copas"
    assert hand["result"]["deltas"] == TIE_DELTAS
    assert hand["record"]["bets"]["Ana"] == {"horse": "copas", "amount": 2}


def test_the_winner_can_be_changed_and_a_card_after_it_is_ignored(client: FlaskClient) -> None:
    tid = new_table(client)
    html = page(client, tid, d=draft_in(start_race(client, tid)), action="winner:paus")
    html = page(client, tid, d=draft_in(html), action="card:Kc")  # forged: the winner stands
    assert json.loads(draft_in(html)).get("cards") is None and json.loads(draft_in(html))["winner"] == "paus"
    html = page(client, tid, d=draft_in(html), action="back:winner")
    assert "derby-keypad" in html and "winner" not in json.loads(draft_in(html))


def test_a_winner_before_the_bets_or_a_forged_horse_is_not_taken(client: FlaskClient) -> None:
    tid = new_table(client)
    html = page(client, tid, action="winner:copas")
    assert "winner" not in json.loads(draft_in(html)) and 'name="h0"' in html
    html = page(client, tid, d=draft_in(start_race(client, tid)), action="winner:cavalo")
    assert "winner" not in json.loads(draft_in(html))
    # A forged draft with both cards and a winner is judged by its cards alone.
    forged = json.dumps({"ready": True, "bets": dict.fromkeys(PLAYERS, "c"), "cards": ["Kc"], "winner": "paus"})
    html = page(client, tid, d=forged)
    assert "winner" not in json.loads(draft_in(html)) and "derby-keypad" in html


def test_with_seven_players_the_winner_alone_asks_the_second_horse_too(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, SEVEN)
    bets = SEVEN_BETS
    html = page(client, tid, d=draft_in(start_race(client, tid, SEVEN, bets)), action="winner:copas")
    assert "preview-deltas" not in html and errors_in(html) == []
    offered = re.findall(r'value="second:(\w+)"', html)
    assert offered == ["ouros", "espadas", "paus"]
    same = page(client, tid, d=draft_in(html), action="second:copas")  # the winner cannot be second
    assert "second" not in json.loads(draft_in(same))
    html = page(client, tid, d=draft_in(html), action="second:espadas")
    # Pot 7 + 8 = 15; Bia and Gil take back their bets; the 13 left to Ana, Caio, Fabi: 4 each, 1 stays.
    assert deltas_in(html) == {
        "Ana": "+1",
        "Bia": "\u22121",
        "Caio": "+2",
        "Dani": "\u22122",
        "Edu": "\u22122",
        "Fabi": "+2",
        "Gil": "\u22121",
    }
    assert client.post(f"/t/{tid}/hand", data={"d": draft_in(html)}).status_code == 302
    record = stored(app, tid)[0]["record"]
    assert record["winner"] == "copas" and record["second"] == "espadas" and "cards" not in record


def test_a_second_horse_at_a_table_of_four_is_dropped(client: FlaskClient) -> None:
    tid = new_table(client)
    html = page(client, tid, d=draft_in(start_race(client, tid)), action="winner:copas")
    html = page(client, tid, d=draft_in(html), action="second:paus")
    assert "second" not in json.loads(draft_in(html)) and "preview-deltas" in html


def test_the_first_race_offers_no_bets_again(client: FlaskClient) -> None:
    tid = new_table(client)
    html = page(client, tid)
    assert 'value="again"' not in html
    html = page(client, tid, d=draft_in(html), action="again")  # forged: nothing to repeat
    assert not json.loads(draft_in(html)).get("ready") and 'name="h0"' in html


def test_the_last_race_s_bets_come_again_with_one_tap(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    html = run(client, tid, start_race(client, tid, pingo=2), HEARTS_ALONE)
    assert client.post(f"/t/{tid}/hand", data={"d": draft_in(html)}).status_code == 302
    html = page(client, tid)
    assert 'value="again"' in html
    html = page(client, tid, d=draft_in(html), action="again")
    draft = json.loads(draft_in(html))
    assert draft["ready"] is True and draft["pingo"] == 2
    assert draft["bets"] == {name: horse[0] + str(amount) for name, (horse, amount) in BETS.items()}
    assert "derby-keypad" in html  # straight to the race
    html = page(client, tid, d=draft_in(html), action="winner:espadas")
    assert client.post(f"/t/{tid}/hand", data={"d": draft_in(html)}).status_code == 302
    second = stored(app, tid)[1]["record"]
    assert second["pingo"] == 2 and second["bets"]["Ana"] == {"horse": "copas", "amount": 2}


def test_bets_again_skips_a_void_race_and_asks_a_new_player(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    html = run(client, tid, start_race(client, tid), HEARTS_ALONE)
    client.post(f"/t/{tid}/hand", data={"d": draft_in(html)})
    other = {"Ana": ("paus", 3), "Bia": ("paus", 1), "Caio": ("paus", 1), "Dani": ("paus", 1)}
    html = run(client, tid, start_race(client, tid, bets=other), HEARTS_ALONE)
    client.post(f"/t/{tid}/hand", data={"d": draft_in(html)})
    with app.app_context():
        table = ledger.get_table(tid)
        ledger.void_hand(table, 2, owner=True, reason="wrong table", actor="test")
    html = page(client, tid, action="again")
    assert json.loads(draft_in(html))["bets"]["Ana"] == "c2"  # race 1's, not the void race 2's


def test_a_correction_of_a_winner_alone_race_starts_from_its_winner(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    html = page(client, tid, d=draft_in(start_race(client, tid)), action="winner:copas")
    client.post(f"/t/{tid}/hand", data={"d": draft_in(html)})
    html = page(client, tid, replaces="1")
    draft = json.loads(draft_in(html))
    assert draft["winner"] == "copas" and draft["replaces"] == 1 and "preview-deltas" in html
    assert 'value="again"' not in page(client, tid, d=draft_in(html), action="back:bets")
