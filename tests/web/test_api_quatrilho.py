"""The Quatrilho hand record through the API, exactly as docs/api.md gives it."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from .api_support import API, assert_error

FOUR = ["Ana", "Bia", "Caio", "Dani"]
FIVE = ["Ana", "Bia", "Caio", "Dani", "Edu"]

#: docs/api.md's example record: Ana calls the 3 of paus, Caio holds it; Ana + Caio take 11 + 9 = 20
#: figures and win; P = 20 // 3 = 6; the losers took 4 tricks, so the normal rate applies.
EXAMPLE = {
    "dealer": "Dani",
    "mode": "chamada",
    "declarer": "Ana",
    "called_card": {"rank": "3", "suit": "paus"},
    "partner": "Caio",
    "figures": {"Ana": 11, "Bia": 8, "Caio": 9, "Dani": 7},
    "tricks": {"Ana": 3, "Bia": 2, "Caio": 3, "Dani": 2},
}


def table(client: FlaskClient, players: list[str], **options: Any) -> dict[str, Any]:
    answer = client.post(f"{API}/tables", json={"game": "quatrilho", "players": players, "options": options})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    return answer.get_json()


def post(client: FlaskClient, t: dict[str, Any], record: dict[str, Any]) -> Any:
    return client.post(f"{API}/tables/{t['id']}/hands", json=record, headers={"Authorization": f"Bearer {t['token']}"})


def test_the_api_md_example_settles_six_each(client: FlaskClient) -> None:
    t = table(client, FOUR)
    answer = post(client, t, EXAMPLE)
    assert answer.status_code == 201, answer.get_data(as_text=True)
    assert answer.get_json()["deltas"] == {"Ana": 6, "Bia": -6, "Caio": 6, "Dani": -6}
    assert answer.get_json()["next_dealer"] == "Ana"


def test_five_players_the_dealer_sits_out_and_gets_nothing(client: FlaskClient) -> None:
    t = table(client, FIVE)
    assert t["next_dealer"] == "Edu"  # the last player deals first
    record = {**EXAMPLE, "dealer": None}
    del record["dealer"]
    answer = post(client, t, record).get_json()
    assert answer["dealer"] == "Edu" and answer["deltas"]["Edu"] == 0
    assert answer["deltas"] == {"Ana": 6, "Bia": -6, "Caio": 6, "Dani": -6, "Edu": 0}
    # Next hand Ana deals and sits out: naming her in the figures is refused, nothing stored.
    refused = post(client, t, {**record, "declarer": "Bia", "partner": "Caio"})
    assert_error(refused, 422)
    assert len(client.get(f"{API}/tables/{t['id']}").get_json()["hands"]) == 1


def test_figures_that_add_to_34_are_refused_and_nothing_is_stored(client: FlaskClient) -> None:
    t = table(client, FOUR)
    record = {**EXAMPLE, "figures": {"Ana": 11, "Bia": 8, "Caio": 9, "Dani": 6}}
    error = assert_error(post(client, t, record), 422)
    assert error["field"].startswith("figures") and "34" in error["message"]
    assert client.get(f"{API}/tables/{t['id']}").get_json()["hands"] == []


def test_timbo_presets_four_options_and_an_explicit_option_wins(client: FlaskClient) -> None:
    options = table(client, FIVE, variant="timbo", sit_out="dealer")["options"]
    assert options["no_bid"] == "monte" and options["solo_branco_rate"] == 10 and options["giver_on_loss"] == "same"
    assert options["sit_out"] == "dealer"  # given explicitly: wins over the preset's "cutter"


def test_the_talha_is_the_stock_apart_from_the_net(client: FlaskClient) -> None:
    t = table(client, FOUR, talha=50)
    post(client, t, EXAMPLE)
    state = client.get(f"{API}/tables/{t['id']}").get_json()
    assert state["stock"] == dict.fromkeys(FOUR, 50)
    assert state["totals"] == {"Ana": 6, "Bia": -6, "Caio": 6, "Dani": -6}


def test_a_solo_branco_made_pays_48(client: FlaskClient) -> None:
    t = table(client, FOUR)
    answer = post(client, t, {"mode": "solo_branco", "declarer": "Bia", "tricks": {"Bia": 0}})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    assert answer.get_json()["deltas"] == {"Ana": -16, "Bia": 48, "Caio": -16, "Dani": -16}


def test_a_giver_in_a_solo_branco_is_refused(client: FlaskClient) -> None:
    t = table(client, FOUR)
    assert_error(
        post(client, t, {"mode": "solo_branco", "declarer": "Bia", "giver": "Ana", "tricks": {"Bia": 0}}),
        422,
        field="giver",
    )


def test_the_api_md_short_solo_and_carreguete_settle(client: FlaskClient) -> None:
    """docs/api.md's short solo: Caio's 24 figures, Dani gave the card: P = 8, 18 from Ana and Bia,
    8 from Dani (10 less). Its short carreguete: Ana made the most (13) and pays 6 to each."""
    t = table(client, FOUR)
    solo = post(client, t, {"mode": "solo_preto", "declarer": "Caio", "giver": "Dani", "side_figures": 24})
    assert solo.status_code == 201, solo.get_data(as_text=True)
    assert solo.get_json()["deltas"] == {"Ana": -18, "Bia": -18, "Caio": 44, "Dani": -8}
    carreguete = post(client, t, {"mode": "carreguete", "most": ["Ana"], "most_figures": 13})
    assert carreguete.status_code == 201, carreguete.get_data(as_text=True)
    assert carreguete.get_json()["deltas"] == {"Ana": -18, "Bia": 6, "Caio": 6, "Dani": 6}
    hands = client.get(f"{API}/tables/{t['id']}").get_json()["hands"]
    assert hands[1]["record"]["most"] == ["Ana"] and "figures" not in hands[1]["record"]
    refused = post(client, t, {"mode": "carreguete", "most": ["Ana"], "most_figures": 8})
    assert_error(refused, 422)
    assert len(client.get(f"{API}/tables/{t['id']}").get_json()["hands"]) == 2


def test_the_openapi_document_describes_the_short_solo_and_carreguete(client: FlaskClient) -> None:
    document = client.get(f"{API}/openapi.json").get_json()
    text = str(document)
    assert "Chamada or solo preto, instead of figures and tricks" in text
    assert "Carreguete, instead of figures: who made the most" in text
