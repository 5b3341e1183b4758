"""Samba through the JSON API (docs/api.md "Tables", "Hands", "Samba hand record"):
teams at creation, the worked record figure by figure, every 422 of docs/api.md with nothing stored,
the opening-meld bands, the end of the match (and the 409 after it), voids and corrections that
reopen it, the rematch extension, settlement, preview, Idempotency-Key, the dealer rotation and
the language of the breakdown. Answers are also checked against the OpenAPI document's schemas.

Runs on SQLite and on PostgreSQL (TEST_DATABASE_URL): nothing here depends on the database.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from openapi_schema_validator import OAS31Validator

from referee.extensions import db
from referee.models import Hand, Table
from referee.rules import samba
from referee.rules.samba import OPTIONS

from .api_support import API, assert_error, get_table, state

FOUR = ["Ana", "Bia", "Caio", "Dani"]
SIX = ["Ana", "Bia", "Caio", "Dani", "Edu", "Fabi"]
DEFAULT_OPTIONS = {spec.name: spec.default for spec in OPTIONS}

#: docs/api.md's "Samba hand record", verbatim.
EXAMPLE: dict[str, Any] = samba.example_hand()


# --------------------------------------------------------------------------- helpers


def count_tables(app: Flask) -> int:
    with app.app_context():
        return db.session.query(Table).count()


def count_hands(app: Flask) -> int:
    with app.app_context():
        return db.session.query(Hand).count()


def create(client: FlaskClient, players: list[str] | None = None, **fields: Any) -> Any:
    return client.post(f"{API}/tables", json={"game": "samba", "players": list(players or FOUR), **fields})


def samba_table(client: FlaskClient, players: list[str] | None = None, **fields: Any) -> dict[str, Any]:
    response = create(client, players, **fields)
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def bearer(t: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {t['token']}"}


def post(client: FlaskClient, t: dict[str, Any], body: dict[str, Any], **headers: str) -> Any:
    return client.post(f"{API}/tables/{t['id']}/hands", json=body, headers={**bearer(t), **headers})


def ok(client: FlaskClient, t: dict[str, Any], body: dict[str, Any], **headers: str) -> dict[str, Any]:
    response = post(client, t, body, **headers)
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def preview(client: FlaskClient, t: dict[str, Any], body: dict[str, Any]) -> Any:
    return client.post(f"{API}/tables/{t['id']}/hands/preview", json=body)


def rematch(client: FlaskClient, t: dict[str, Any], token: str | None = "table") -> Any:
    headers = bearer(t) if token == "table" else ({"Authorization": f"Bearer {token}"} if token else {})
    return client.post(f"{API}/tables/{t['id']}/rematch", headers=headers)


def void(client: FlaskClient, t: dict[str, Any], number: int) -> Any:
    return client.post(f"{API}/tables/{t['id']}/hands/{number}/void", json={"reason": "wrong sheet"}, headers=bearer(t))


def part(meld: int = 0, hand: int = 0, **over: Any) -> dict[str, Any]:
    """One team's part of a hand: nothing but what is given."""
    raw: dict[str, Any] = {
        "meld_points": meld,
        "hand_points": hand,
        "clean_canastras": 0,
        "dirty_canastras": 0,
        "wild_canastras": 0,
        "sambas": 0,
        "red_threes": 0,
        "red_threes_in_hand": 0,
        "hidden_canastra": None,
        "penalties": 0,
    }
    raw.update(over)
    return raw


def scoring(score: int) -> dict[str, Any]:
    """A team's part that scores exactly ``score`` when nobody went out and there are no red 3s
    (melded points + 1,500 a samba + 500 a clean canastra - points in hand). A samba
    holds at least 50 melded points (4 to 10 of a suit: 4 x 5 + 3 x 10), a clean canastra 35
    (seven cards of 5); at most two canastras, so no canastrão."""
    assert score % 5 == 0
    if score < 0:
        return part(0, -score)
    sambas, rest = divmod(score, 1500)
    clean, rest = divmod(rest, 500)
    meld = max(rest, 50 * sambas + 35 * clean)
    return part(meld, meld - rest, sambas=sambas, clean_canastras=clean)


def points(p: dict[str, Any]) -> int:
    return p["meld_points"] + p["hand_points"]


def stock_out(*scores: int) -> dict[str, Any]:
    """The stock ran out (nobody went out) and the teams score ``scores``."""
    teams = [scoring(s) for s in scores]
    assert sum(points(p) for p in teams) <= 1770, "the fixture itself must be a possible hand"
    return {"went_out": None, "teams": teams}


def play(client: FlaskClient, t: dict[str, Any], *hands: tuple[int, ...]) -> dict[str, Any]:
    """Record each hand (team scores), checking the scores; answers the last answer."""
    answer: dict[str, Any] = {}
    for scores in hands:
        answer = ok(client, t, stock_out(*scores))
        assert [team["score"] for team in answer["teams"]] == list(scores)
    return answer


def team_totals(t: dict[str, Any]) -> list[int]:
    return [team["total"] for team in t["match"]]


# --------------------------------------------------------------------------- OpenAPI


@pytest.fixture
def openapi(client: FlaskClient) -> dict[str, Any]:
    return client.get(f"{API}/openapi.json").get_json()


def schema_errors(document: dict[str, Any], name: str, instance: Any) -> list[str]:
    schema = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
    return [f"{list(e.absolute_path)}: {e.message[:200]}" for e in OAS31Validator(schema).iter_errors(instance)]


# --------------------------------------------------------------------------- creating tables


@pytest.mark.parametrize(
    ("players", "teams"),
    [
        (["Ana", "Bia"], [["Ana"], ["Bia"]]),
        (["Ana", "Bia", "Caio"], [["Ana"], ["Bia"], ["Caio"]]),
        (FOUR, [["Ana", "Caio"], ["Bia", "Dani"]]),
        (SIX, [["Ana", "Caio", "Edu"], ["Bia", "Dani", "Fabi"]]),
    ],
)
def test_default_teams(client: FlaskClient, openapi: dict, players: list[str], teams: list[list[str]]) -> None:
    answer = samba_table(client, players)
    assert answer["teams"] == teams
    assert answer["players"] == players
    assert answer["options"] == DEFAULT_OPTIONS
    assert answer["follows"] is None and answer["token"]
    assert answer["next_dealer"] == players[-1]  # the API contract: the last player deals first
    assert schema_errors(openapi, "TableCreated", answer) == []
    stored = get_table(client, answer["id"])
    assert stored["teams"] == teams
    assert stored["finished"] is False and stored["winner"] is None
    assert stored["match"] == [{"players": team, "total": 0, "min_meld": 50} for team in teams]
    assert stored["follows"] is None and stored["rematch"] is None
    assert schema_errors(openapi, "Table", stored) == []


def test_five_players_with_the_house_rule_play_each_for_himself(client: FlaskClient) -> None:
    five = FOUR + ["Edu"]
    answer = samba_table(client, five, options={"five_players": True})
    assert answer["teams"] == [[name] for name in five]
    assert answer["options"]["five_players"] is True


def test_five_players_without_the_house_rule_are_a_422(app: Flask, client: FlaskClient) -> None:
    assert_error(create(client, FOUR + ["Edu"]), 422, field="players")
    assert count_tables(app) == 0


@pytest.mark.parametrize(
    ("players", "teams"),
    [
        (FOUR, [["Ana", "Bia"], ["Caio", "Dani"]]),
        (FOUR, [["Bia", "Dani"], ["Ana", "Caio"]]),  # team 0 is the first team posted
        (SIX, [["Ana", "Dani"], ["Bia", "Edu"], ["Caio", "Fabi"]]),  # three pairs
        (SIX, [["Ana", "Bia", "Caio"], ["Dani", "Edu", "Fabi"]]),
        (["Ana", "Bia", "Caio"], [["Caio"], ["Ana"], ["Bia"]]),
    ],
)
def test_explicit_teams_are_kept(client: FlaskClient, players: list[str], teams: list[list[str]]) -> None:
    answer = samba_table(client, players, teams=teams)
    # Team order is the posted order; within a team the answer may list partners in seat order.
    assert [sorted(team) for team in answer["teams"]] == [sorted(team) for team in teams]
    assert [sorted(team) for team in get_table(client, answer["id"])["teams"]] == [sorted(team) for team in teams]


def test_three_pairs_score_a_hand_per_pair(client: FlaskClient) -> None:
    t = samba_table(client, SIX, teams=[["Ana", "Dani"], ["Bia", "Edu"], ["Caio", "Fabi"]])
    answer = ok(client, t, stock_out(100, 50, -30))
    # Nobody went out: each pair scores its melded points minus its points in hand.
    assert answer["deltas"] == {"Ana": 100, "Bia": 50, "Caio": -30, "Dani": 100, "Edu": 50, "Fabi": -30}
    assert [team["score"] for team in answer["teams"]] == [100, 50, -30]
    assert [sorted(team["players"]) for team in answer["teams"]] == [["Ana", "Dani"], ["Bia", "Edu"], ["Caio", "Fabi"]]
    # A record for two teams at a three-team table is malformed.
    assert_error(post(client, t, stock_out(100, 50)), 400, field="teams")


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"teams": [["Ana", "Caio"], ["Bia"]]}, 400, "teams"),  # Dani in no team
        ({"teams": [["Ana", "Caio"], ["Bia", "Ana"]]}, 400, "teams"),  # Ana twice
        ({"teams": [["Ana", "Caio"], ["Bia", "Dani", "Ana"]]}, 400, "teams"),
        ({"teams": [["Ana", "Bia", "Caio", "Dani"]]}, 400, "teams"),  # a single team
        ({"teams": []}, 400, "teams"),
        ({"teams": "Ana+Caio"}, 400, "teams"),
        ({"teams": ["Ana", "Bia", "Caio", "Dani"]}, 400, "teams"),
        ({"teams": [["Ana", 1], ["Bia", "Dani"]]}, 400, "teams"),
        ({"teams": [["Ana"], ["Bia", "Caio", "Dani"]]}, 422, "teams"),  # unequal sizes
        ({"players": SIX, "teams": [["Ana", "Bia", "Caio", "Dani"], ["Edu", "Fabi"]]}, 422, "teams"),
        ({"teams": [["Ana", "Caio"], ["Bia", "Zé"]]}, 422, "teams[1][1]"),  # not seated
        ({"players": ["Ana"]}, 422, "players"),
        ({"players": SIX + ["Gil"]}, 422, "players"),
        ({"options": {"top_min_meld": 155}}, 400, "options.top_min_meld"),
        ({"options": {"target": 0}}, 400, None),
        ({"options": {"no_such_rule": True}}, 400, None),
        ({"game": "jubileu", "teams": [["Ana", "Caio"], ["Bia", "Dani"]]}, 400, "teams"),
        ({"game": "quatrilho", "teams": [["Ana", "Caio"], ["Bia", "Dani"]]}, 400, "teams"),
    ],
)
def test_refused_creation_stores_nothing(
    app: Flask, client: FlaskClient, body: dict, status: int, field: str | None
) -> None:
    sent = {"game": "samba", "players": FOUR, **body}
    error = assert_error(client.post(f"{API}/tables", json=sent), status)
    if field is not None:
        assert error.get("field") == field, error
    if status == 422 and field and field.startswith("teams["):
        assert error["code"] == "unknown_player"
    assert count_tables(app) == 0


# --------------------------------------------------------------------------- the worked record


def test_the_api_md_record_figure_by_figure(client: FlaskClient, openapi: dict) -> None:
    t = samba_table(client)
    answer = ok(client, t, EXAMPLE)
    # By hand from the rule text.
    # Team 0 (Ana, Caio; Caio went out): three 7-card combinations, so red 3s are positive.
    #   740 melded + 500 (1 clean) + 300 (1 dirty) + 1,500 (1 samba) + 200 (2 red 3s x 100)
    #   + 200 (went out) - 35 (in hand) = 3,405.
    # Team 1 (Bia, Dani): one combination only, so its red 3 is negative.
    #   760 melded + 300 (1 dirty) - 100 (1 red 3) - 120 (in hand) - 100 (1 penalty) = 740.
    team0 = 740 + 500 + 300 + 1500 + 2 * 100 + 200 - 35
    team1 = 760 + 300 - 100 - 120 - 100
    assert (team0, team1) == (3405, 740)
    assert answer["number"] == 1
    assert answer["dealer"] == "Dani" and answer["next_dealer"] == "Ana"
    assert answer["contract"] == {"went_out": "Caio"}
    assert answer["payments"] == []
    assert answer["deltas"] == {"Ana": team0, "Bia": team1, "Caio": team0, "Dani": team1}
    assert answer["totals"] == answer["deltas"]  # the first hand
    assert answer["finished"] is False and answer["winner"] is None
    first, second = answer["teams"]
    assert first["players"] == ["Ana", "Caio"] and second["players"] == ["Bia", "Dani"]
    assert (first["score"], first["total"]) == (team0, team0)
    assert (second["score"], second["total"]) == (team1, team1)
    # SAM-1: 3,405 is in the 3,000-6,995 band (120); 740 in 0-1,495 (50).
    assert (first["min_meld"], second["min_meld"]) == (120, 50)
    assert [line["amount"] for line in first["breakdown"]] == [740, 500, 300, 1500, 200, 200, -35]
    assert [line["amount"] for line in second["breakdown"]] == [760, 300, -100, -120, -100]
    for team in answer["teams"]:
        assert sum(line["amount"] for line in team["breakdown"]) == team["score"]
        assert all(isinstance(line["label"], str) and line["label"].strip() for line in team["breakdown"])
    # The flat breakdown is every team's lines in turn, each marked with its team.
    flat = [{**line, "team": i} for i, team in enumerate(answer["teams"]) for line in team["breakdown"]]
    assert answer["breakdown"] == flat
    assert answer["record"]["went_out"] == "Caio" and answer["record"]["teams"] == EXAMPLE["teams"]
    assert schema_errors(openapi, "HandAnswer", answer) == []
    # Stored as answered.
    stored = get_table(client, t["id"])
    assert stored["hands"] == [{**answer, "display_number": 1}]  # with the number the pages show
    assert stored["totals"] == answer["totals"]
    assert stored["match"] == [
        {"players": ["Ana", "Caio"], "total": 3405, "min_meld": 120},
        {"players": ["Bia", "Dani"], "total": 740, "min_meld": 50},
    ]
    assert client.get(f"{API}/tables/{t['id']}/hands/1").get_json() == answer


def test_the_api_md_record_is_valid_against_the_openapi_document(openapi: dict) -> None:
    assert schema_errors(openapi, "SambaHand", EXAMPLE) == []
    assert schema_errors(openapi, "SambaHandWrite", EXAMPLE) == []


@pytest.mark.parametrize("extra", [{"expected_number": 2}, {"replaces": 1, "reason": "wrong sheet"}])
def test_a_samba_write_with_write_fields_is_valid_against_the_openapi_document(openapi: dict, extra: dict) -> None:
    assert schema_errors(openapi, "SambaHandWrite", {**EXAMPLE, **extra}) == []


def test_a_second_hand_adds_up_and_keeps_team_totals_equal(client: FlaskClient) -> None:
    t = samba_table(client)
    ok(client, t, EXAMPLE)
    answer = ok(client, t, EXAMPLE)
    assert answer["totals"] == {"Ana": 6810, "Bia": 1480, "Caio": 6810, "Dani": 1480}
    assert [team["total"] for team in answer["teams"]] == [6810, 1480]
    assert [team["min_meld"] for team in answer["teams"]] == [120, 50]


def test_hidden_canastra_red_threes_in_hand_and_penalty_kinds(client: FlaskClient) -> None:
    t = samba_table(client, language="en")
    record = {
        "went_out": "Ana",
        "teams": [
            part(400, 0, clean_canastras=2, red_threes=1, hidden_canastra="deal_alone", penalties=["three_wilds"]),
            part(100, 60, red_threes_in_hand=1),
        ],
    }
    answer = ok(client, t, record)
    # Team 0: 400 + 2 x 500 + 100 (one red 3, two canastras) + 200 (went out) + 1,000 (hidden
    # since the deal, alone) - 100 (three wilds) = 2,600. Team 1: 100 - 60 - 500 (a red 3 stuck
    # in hand) = -460.
    assert [team["score"] for team in answer["teams"]] == [2600, -460]
    assert answer["deltas"] == {"Ana": 2600, "Bia": -460, "Caio": 2600, "Dani": -460}
    # A negative total needs only 15 to open.
    assert [team["min_meld"] for team in answer["teams"]] == [90, 15]
    assert [(line["label"], line["amount"]) for line in answer["teams"][0]["breakdown"]] == [
        ("Melded cards", 400),
        ("2 clean canastras", 1000),
        ("1 red 3 laid down", 100),
        ("Went out", 200),
        ("Went out with a canastra hidden since the deal, without the partner's melds", 1000),
        ("Penalty: Three wild cards in a canastra", -100),
    ]
    assert [(line["label"], line["amount"]) for line in answer["teams"][1]["breakdown"]] == [
        ("Melded cards", 100),
        ("Cards left in hand", -60),
        ("1 red 3 left in hand", -500),
    ]


# --------------------------------------------------------------------------- language


def test_english_breakdown_labels_are_sentences(client: FlaskClient) -> None:
    t = samba_table(client, language="en")
    answer = ok(client, t, EXAMPLE)
    assert [(line["label"], line["amount"], line["team"]) for line in answer["breakdown"]] == [
        ("Melded cards", 740, 0),
        ("1 clean canastra", 500, 0),
        ("1 dirty canastra", 300, 0),
        ("1 samba", 1500, 0),
        ("2 red 3s laid down", 200, 0),
        ("Went out", 200, 0),
        ("Cards left in hand", -35, 0),
        ("Melded cards", 760, 1),
        ("1 dirty canastra", 300, 1),
        ("1 red 3 laid down without two 7-card combinations", -100, 1),
        ("Cards left in hand", -120, 1),
        ("1 penalty", -100, 1),
    ]
    assert get_table(client, t["id"])["hands"][0]["breakdown"] == answer["breakdown"]


def test_default_language_labels_are_non_empty_text(client: FlaskClient) -> None:
    t = samba_table(client)
    assert get_table(client, t["id"])["language"] == "pt-BR"
    answer = ok(client, t, EXAMPLE)
    english = ok(client, samba_table(client, language="en"), EXAMPLE)
    assert [line["amount"] for line in answer["breakdown"]] == [line["amount"] for line in english["breakdown"]]
    for line in answer["breakdown"] + [line for team in answer["teams"] for line in team["breakdown"]]:
        assert isinstance(line["label"], str) and line["label"].strip()


def test_english_errors_are_sentences(client: FlaskClient) -> None:
    t = samba_table(client, language="en")
    record = copy.deepcopy(EXAMPLE)
    record["teams"][0]["red_threes"] = 6
    error = assert_error(post(client, t, record), 422, field="teams")
    assert "6" in error["message"] and "red 3" in error["message"]


# --------------------------------------------------------------------------- the 422s of docs/api.md


def _without_two_combinations() -> dict[str, Any]:
    record = copy.deepcopy(EXAMPLE)
    record["went_out"] = "Dani"  # team 1 has one dirty canastra only
    return record


def _seven_red_threes() -> dict[str, Any]:
    record = copy.deepcopy(EXAMPLE)  # 2 + 1 laid down, plus 4 stuck in hand = 7
    record["teams"][1]["red_threes_in_hand"] = 4
    return record


def _wild_canastras_of_one_team() -> dict[str, Any]:
    # 3 canastras of wild cards need 21 wild cards; there are 18 (6 jokers, 12 twos).
    return {"went_out": None, "teams": [part(1000, wild_canastras=3), part()]}


def _wild_cards_of_both_teams() -> dict[str, Any]:
    # 2 wild canastras (14 wilds) + 1 (7 wilds) = 21 > 18; each team alone is possible.
    return {"went_out": None, "teams": [part(400, wild_canastras=2), part(350, wild_canastras=1)]}


def _dirty_and_wild() -> dict[str, Any]:
    # 2 wild canastras (14 wilds) and 5 dirty ones (one wild each at least) = 19 > 18.
    return {"went_out": None, "teams": [part(1000, wild_canastras=2, dirty_canastras=5), part()]}


def _too_few_meld_points() -> dict[str, Any]:
    # Two clean canastras hold at least 14 cards of 5 = 70 points.
    return {"went_out": None, "teams": [part(65, clean_canastras=2), part()]}


def _too_few_for_a_samba() -> dict[str, Any]:
    # The cheapest samba is 4 5 6 7 8 9 10 of a suit: 4 x 5 + 3 x 10 = 50.
    return {"went_out": None, "teams": [part(45, sambas=1), part()]}


def _wild_canastras_too_cheap_together() -> dict[str, Any]:
    # Each team's wild canastra alone may be seven 2s (140); but the two together hold 14 wild
    # cards, and with only 12 twos at least 2 are jokers: 12 x 20 + 2 x 50 = 340 > 280.
    return {"went_out": None, "teams": [part(140, wild_canastras=1), part(140, wild_canastras=1)]}


def _more_than_all_the_cards() -> dict[str, Any]:
    # 1,000 + 0 + 700 + 75 = 1,775 > 1,770, the points of all 162 cards but the red 3s.
    return {"went_out": None, "teams": [part(1000), part(700, 75)]}


def _hidden_canastra_not_out() -> dict[str, Any]:
    record = copy.deepcopy(EXAMPLE)  # Caio (team 0) went out; team 1 claims the premium
    record["teams"][1]["hidden_canastra"] = "play_alone"
    return record


def _hidden_canastra_stock_out() -> dict[str, Any]:
    record = copy.deepcopy(EXAMPLE)  # nobody went out
    record["went_out"] = None
    record["teams"][0]["hidden_canastra"] = "deal_with_partner"
    return record


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (_without_two_combinations, "went_out"),
        (_seven_red_threes, "teams"),
        (_wild_canastras_of_one_team, "teams[0].wild_canastras"),
        (_wild_cards_of_both_teams, "teams"),
        (_dirty_and_wild, "teams[0].wild_canastras"),
        (_too_few_meld_points, "teams[0].meld_points"),
        (_too_few_for_a_samba, "teams[0].meld_points"),
        (_wild_canastras_too_cheap_together, "teams"),
        (_more_than_all_the_cards, "teams"),
        (_hidden_canastra_not_out, "teams[1].hidden_canastra"),
        (_hidden_canastra_stock_out, "teams[0].hidden_canastra"),
    ],
)
def test_every_422_of_api_md_stores_nothing(app: Flask, client: FlaskClient, make: Any, field: str) -> None:
    t = samba_table(client)
    ok(client, t, EXAMPLE)  # something to leave untouched
    before = state(client, t["id"])
    hands = count_hands(app)
    assert_error(post(client, t, make()), 422, field=field)
    assert state(client, t["id"]) == before
    assert count_hands(app) == hands == 1
    assert team_totals(get_table(client, t["id"])) == [3405, 740]
    # A preview judges the same way.
    assert_error(preview(client, t, make()), 422, field=field)


def test_the_limits_themselves_are_accepted(client: FlaskClient) -> None:
    t = samba_table(client)
    # Exactly 6 red 3s, exactly 1,770 points, exactly 18 wild cards (2 wild canastras and 4
    # dirty ones), meld points exactly the cheapest the combinations can be.
    record = {
        "went_out": None,
        "teams": [
            part(480, 0, wild_canastras=2, dirty_canastras=4, red_threes=3),  # 14 + 4 wilds
            part(70, 1220, clean_canastras=2, red_threes=2, red_threes_in_hand=1),
        ],
    }
    # Cheapest for team 0: 4 dirty x 30 naturals + 18 wilds = 12 twos (240) + 6 jokers (300)
    # = 120 + 540 = 660 > 480, so lower the ambition: this is refused...
    assert_error(post(client, t, record), 422, field="teams[0].meld_points")
    record["teams"][0]["meld_points"] = 660
    record["teams"][1]["hand_points"] = 1770 - 660 - 70
    answer = ok(client, t, record)
    # ...and this is exactly at every limit. Team 0: 660 + 2 x 2,000 + 4 x 300 + 500 (six
    # canastras: a canastrão) + 300 (3 red 3s, with six combinations) = 6,660. Team 1: 70
    # + 2 x 500 + 200 (2 red 3s, two combinations) - 1,040 in hand - 500 (a red 3 in hand) = -270.
    assert [team["score"] for team in answer["teams"]] == [6660, -270]


def test_an_unknown_player_is_a_422_and_stores_nothing(client: FlaskClient) -> None:
    t = samba_table(client)
    before = state(client, t["id"])
    assert_error(post(client, t, {**EXAMPLE, "went_out": "Zé"}), 422, code="unknown_player", field="went_out")
    assert_error(post(client, t, {**EXAMPLE, "dealer": "Zé"}), 422, code="unknown_player", field="dealer")
    assert state(client, t["id"]) == before


# --------------------------------------------------------------------------- 400s


def _with_team(i: int, **over: Any) -> dict[str, Any]:
    record = copy.deepcopy(EXAMPLE)
    record["teams"][i].update(over)
    return record


def _without(i: int, key: str) -> dict[str, Any]:
    record = copy.deepcopy(EXAMPLE)
    del record["teams"][i][key]
    return record


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"went_out": "Caio"}, "teams"),  # no teams
        ({**EXAMPLE, "teams": {"0": EXAMPLE["teams"][0]}}, "teams"),
        ({**EXAMPLE, "teams": EXAMPLE["teams"][:1]}, "teams"),  # one team at a two-team table
        ({**EXAMPLE, "teams": EXAMPLE["teams"] * 2}, "teams"),
        ({**EXAMPLE, "teams": [EXAMPLE["teams"][0], "Bia and Dani"]}, "teams[1]"),
        ({**EXAMPLE, "bid": "samba"}, "bid"),  # not a Samba field
        ({**EXAMPLE, "went_out": 3}, "went_out"),
        (_with_team(0, meld_points="740"), "teams[0].meld_points"),
        (_with_team(0, meld_points=740.0), "teams[0].meld_points"),
        (_with_team(1, sambas=True), "teams[1].sambas"),
        (_with_team(1, red_threes=None), "teams[1].red_threes"),
        (_without(0, "hand_points"), "teams[0].hand_points"),
        (_without(1, "wild_canastras"), "teams[1].wild_canastras"),
        (_with_team(0, canastras=3), "teams[0].canastras"),  # no such team field
        (_with_team(0, hidden_canastra="somewhere"), "teams[0].hidden_canastra"),
        (_with_team(0, hidden_canastra=True), "teams[0].hidden_canastra"),
        (_with_team(1, penalties=["cheating"]), "teams[1].penalties[0]"),
        (_with_team(1, penalties="1"), "teams[1].penalties"),
        (_with_team(1, penalties=1.0), "teams[1].penalties"),
    ],
)
def test_malformed_records_are_400_and_store_nothing(app: Flask, client: FlaskClient, body: dict, field: str) -> None:
    t = samba_table(client)
    before = state(client, t["id"])
    assert_error(post(client, t, body), 400, code="invalid_input", field=field)
    assert state(client, t["id"]) == before
    assert count_hands(app) == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (_with_team(0, meld_points=742), "teams[0].meld_points"),  # every card is a multiple of 5
        (_with_team(0, hand_points=-35), "teams[0].hand_points"),
        (_with_team(1, red_threes=7), "teams[1].red_threes"),
        (_with_team(1, penalties=-1), "teams[1].penalties"),
    ],
)
def test_impossible_numbers_are_422(client: FlaskClient, body: dict, field: str) -> None:
    t = samba_table(client)
    assert_error(post(client, t, body), 422, field=field)
    assert get_table(client, t["id"])["hands"] == []


def test_a_body_that_is_not_json_is_a_400(client: FlaskClient) -> None:
    t = samba_table(client)
    response = client.post(
        f"{API}/tables/{t['id']}/hands", data="teams", headers={**bearer(t), "Content-Type": "application/json"}
    )
    assert_error(response, 400)
    response = client.post(f"{API}/tables/{t['id']}/hands", json=[EXAMPLE], headers=bearer(t))
    assert_error(response, 400)
    assert get_table(client, t["id"])["hands"] == []


def test_a_hand_without_the_token_is_a_401(client: FlaskClient) -> None:
    t = samba_table(client)
    response = client.post(f"{API}/tables/{t['id']}/hands", json=EXAMPLE)
    assert_error(response, 401)
    assert get_table(client, t["id"])["hands"] == []


# --------------------------------------------------------------------------- opening-meld bands


def test_min_meld_follows_the_bands_as_totals_cross_them(client: FlaskClient, openapi: dict) -> None:
    t = samba_table(client)
    # (team scores of the hand) -> (new totals) -> (opening meld of each team next hand), SAM-1.
    steps = [
        ((-5, 1495), (-5, 1495), (15, 50)),
        ((5, 5), (0, 1500), (50, 90)),
        ((1495, 1495), (1495, 2995), (50, 90)),
        ((5, 5), (1500, 3000), (90, 120)),
        ((1500, 3995), (3000, 6995), (120, 120)),
        ((3995, 5), (6995, 7000), (120, 150)),
        ((5, 0), (7000, 7000), (150, 150)),
        ((-1005, 0), (5995, 7000), (120, 150)),  # falling back a band
    ]
    for scores, totals, melds in steps:
        answer = play(client, t, scores)
        assert [team["total"] for team in answer["teams"]] == list(totals)
        assert [team["min_meld"] for team in answer["teams"]] == list(melds)
        stored = get_table(client, t["id"])
        assert team_totals(stored) == list(totals)
        assert [team["min_meld"] for team in stored["match"]] == list(melds)
        match = client.get(f"{API}/tables/{t['id']}/settlement").get_json()
        assert [team["min_meld"] for team in match["teams"]] == list(melds)
    assert schema_errors(openapi, "Table", get_table(client, t["id"])) == []


def test_top_min_meld_160(client: FlaskClient) -> None:
    t = samba_table(client, options={"top_min_meld": 160})
    assert t["options"]["top_min_meld"] == 160
    answer = play(client, t, (7000, 0))
    assert [team["min_meld"] for team in answer["teams"]] == [160, 50]
    answer = play(client, t, (0, 6995))
    assert [team["min_meld"] for team in answer["teams"]] == [160, 120]
    answer = play(client, t, (-5, 5))
    assert [team["min_meld"] for team in answer["teams"]] == [120, 160]


# --------------------------------------------------------------------------- the end of the match


def test_one_team_passing_the_target_wins(client: FlaskClient, openapi: dict) -> None:
    t = samba_table(client)
    answer = play(client, t, (9000, 0))
    assert answer["finished"] is False and answer["winner"] is None
    answer = play(client, t, (1005, 0))
    assert [team["total"] for team in answer["teams"]] == [10005, 0]
    assert answer["finished"] is True and answer["winner"] == 0
    stored = get_table(client, t["id"])
    assert stored["finished"] is True and stored["winner"] == 0
    settled = client.get(f"{API}/tables/{t['id']}/settlement").get_json()
    assert settled["finished"] is True and settled["winner"] == 0
    assert schema_errors(openapi, "Settlement", settled) == []


@pytest.mark.parametrize(("last", "winner"), [((510, 505), 0), ((505, 510), 1)])
def test_both_teams_past_the_target_the_higher_wins(client: FlaskClient, last: tuple[int, int], winner: int) -> None:
    t = samba_table(client)
    play(client, t, (9500, 9500))
    answer = play(client, t, last)
    assert [team["total"] for team in answer["teams"]] == [9500 + last[0], 9500 + last[1]]
    assert answer["finished"] is True and answer["winner"] == winner
    assert get_table(client, t["id"])["winner"] == winner


def test_a_tie_past_the_target_plays_one_more_hand(client: FlaskClient) -> None:
    t = samba_table(client)
    answer = play(client, t, (9500, 9500), (510, 510))
    assert [team["total"] for team in answer["teams"]] == [10010, 10010]
    assert answer["finished"] is False and answer["winner"] is None
    stored = get_table(client, t["id"])
    assert stored["finished"] is False and stored["winner"] is None
    answer = play(client, t, (0, 5))  # the next hand is taken and settles it
    assert answer["finished"] is True and answer["winner"] == 1


def test_exactly_the_target_plays_on_by_default(client: FlaskClient) -> None:
    t = samba_table(client)
    answer = play(client, t, (10000, 0))
    assert answer["teams"][0]["total"] == 10000
    assert answer["finished"] is False and answer["winner"] is None
    assert get_table(client, t["id"])["finished"] is False
    answer = play(client, t, (5, 0))
    assert answer["finished"] is True and answer["winner"] == 0


def test_exactly_the_target_wins_with_win_at_target(client: FlaskClient) -> None:
    t = samba_table(client, options={"win_at_target": True})
    answer = play(client, t, (10000, 9995))
    assert answer["finished"] is True and answer["winner"] == 0


def test_a_custom_target(client: FlaskClient) -> None:
    t = samba_table(client, options={"target": 2000})
    answer = play(client, t, (1000, 2000))
    assert answer["finished"] is False  # at the target, not past it
    answer = play(client, t, (0, 5))
    assert answer["finished"] is True and answer["winner"] == 1
    assert [team["total"] for team in answer["teams"]] == [1000, 2005]


def test_a_new_hand_after_the_end_is_a_409_and_stores_nothing(app: Flask, client: FlaskClient) -> None:
    t = samba_table(client, options={"target": 2000})
    play(client, t, (2005, 0))
    before = state(client, t["id"])
    error = assert_error(post(client, t, stock_out(5, 5)), 409, code="conflict")
    assert error["message"]
    assert_error(post(client, t, {**stock_out(5, 5), "expected_number": 2}), 409, code="conflict")
    assert_error(preview(client, t, stock_out(5, 5)), 409, code="conflict")
    assert state(client, t["id"]) == before
    assert count_hands(app) == 1


def test_voiding_the_last_hand_reopens_the_match(client: FlaskClient) -> None:
    t = samba_table(client, options={"target": 2000})
    play(client, t, (1500, 100), (600, 0))
    assert get_table(client, t["id"])["finished"] is True
    response = void(client, t, 2)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json()["totals"] == {"Ana": 1500, "Bia": 100, "Caio": 1500, "Dani": 100}
    stored = get_table(client, t["id"])
    assert stored["finished"] is False and stored["winner"] is None
    assert team_totals(stored) == [1500, 100]
    assert [team["min_meld"] for team in stored["match"]] == [90, 50]
    assert stored["hands"][1]["void"] is True
    settled = client.get(f"{API}/tables/{t['id']}/settlement").get_json()
    assert settled["finished"] is False and settled["winner"] is None
    # Play goes on: a new hand is taken again.
    answer = play(client, t, (5, 0))
    assert answer["number"] == 3 and answer["finished"] is False
    assert [team["total"] for team in answer["teams"]] == [1505, 100]


def test_the_void_answer_agrees_with_the_table_about_the_end(client: FlaskClient) -> None:
    t = samba_table(client, options={"target": 2000})
    play(client, t, (1500, 100), (600, 0))
    answer = void(client, t, 2).get_json()
    assert answer["totals"]["Ana"] == 1500  # the table's totals after the void...
    stored = get_table(client, t["id"])
    assert (answer["finished"], answer["winner"]) == (stored["finished"], stored["winner"]) == (False, None)


def test_a_correction_with_replaces_can_reopen_the_match(client: FlaskClient) -> None:
    t = samba_table(client, options={"target": 2000})
    play(client, t, (1500, 100), (600, 0))  # dealt by Dani, then Ana
    assert get_table(client, t["id"])["finished"] is True
    answer = ok(client, t, {**stock_out(400, 0), "replaces": 2, "reason": "600 was 400"})
    assert answer["replaces"] == 2 and answer["number"] == 3
    assert answer["dealer"] == "Ana"  # the corrected hand's dealer
    assert answer["next_dealer"] == "Bia"
    assert answer["totals"] == {"Ana": 1900, "Bia": 100, "Caio": 1900, "Dani": 100}
    assert [team["total"] for team in answer["teams"]] == [1900, 100]
    assert answer["finished"] is False and answer["winner"] is None
    stored = get_table(client, t["id"])
    assert [h.get("void", False) for h in stored["hands"]] == [False, True, False]
    assert stored["finished"] is False and stored["next_dealer"] == "Bia"
    assert team_totals(stored) == [1900, 100]


def test_a_correction_can_also_end_the_match(client: FlaskClient) -> None:
    t = samba_table(client, options={"target": 2000})
    play(client, t, (1500, 100), (400, 0))
    answer = ok(client, t, {**stock_out(600, 0), "replaces": 1})
    assert answer["totals"]["Ana"] == 1000
    assert answer["finished"] is False
    answer = ok(client, t, {**stock_out(1700, 0), "replaces": 3})
    assert answer["totals"]["Ana"] == 2100 and answer["finished"] is True and answer["winner"] == 0
    assert get_table(client, t["id"])["finished"] is True


# --------------------------------------------------------------------------- rematch


def test_rematch_starts_a_new_match_with_the_same_seating(app: Flask, client: FlaskClient, openapi: dict) -> None:
    teams = [["Ana", "Bia"], ["Caio", "Dani"]]
    options = {"target": 2000, "top_min_meld": 160, "six_red_threes_unmade": "per_card"}
    t = samba_table(client, teams=teams, options=options, language="en", name="Sexta")
    play(client, t, (1000, 500), (1005, 0))  # dealt by Dani, then Ana: Bia deals next
    old = get_table(client, t["id"])
    assert old["finished"] is True and old["next_dealer"] == "Bia"

    assert_error(rematch(client, t, token=None), 401)
    assert_error(rematch(client, t, token="not-the-token"), 401)
    assert count_tables(app) == 1

    response = rematch(client, t)
    assert response.status_code == 201, response.get_data(as_text=True)
    new = response.get_json()
    assert schema_errors(openapi, "TableCreated", new) == []
    assert new["id"] != t["id"] and new["token"] and new["token"] != t["token"]
    assert new["game"] == "samba" and new["players"] == FOUR
    assert [sorted(team) for team in new["teams"]] == [sorted(team) for team in teams]
    assert new["options"] == {**DEFAULT_OPTIONS, **options}
    assert new["language"] == "en" and new["name"] == "Sexta"
    assert new["follows"] == t["id"]
    assert new["next_dealer"] == "Bia"  # the deal goes on where it stopped
    assert response.headers["Location"].endswith(f"/tables/{new['id']}")

    after_old = get_table(client, t["id"])
    assert after_old["rematch"] == new["id"] and after_old["follows"] is None
    fresh = get_table(client, new["id"])
    assert fresh["follows"] == t["id"] and fresh["rematch"] is None
    assert fresh["hands"] == [] and fresh["finished"] is False and fresh["winner"] is None
    assert set(fresh["totals"].values()) == {0}
    assert fresh["match"] == [{"players": team, "total": 0, "min_meld": 50} for team in fresh["teams"]]

    # The new table takes hands with its own token, not the old one; the old match stays over.
    answer = ok(client, new, stock_out(5, 0))
    assert answer["dealer"] == "Bia" and answer["teams"][0]["players"] == fresh["teams"][0]
    assert_error(client.post(f"{API}/tables/{new['id']}/hands", json=stock_out(5, 0), headers=bearer(t)), 401)
    assert_error(post(client, t, stock_out(5, 0)), 409)

    # Only one rematch per table.
    assert_error(rematch(client, t), 409, code="conflict")
    assert count_tables(app) == 2


def test_rematch_before_the_end_is_a_409(app: Flask, client: FlaskClient) -> None:
    t = samba_table(client)
    assert_error(rematch(client, t), 409, code="conflict")
    play(client, t, (9000, 9500))
    assert_error(rematch(client, t), 409, code="conflict")
    assert count_tables(app) == 1
    assert get_table(client, t["id"])["rematch"] is None


def test_rematch_of_an_unknown_table_is_a_404(client: FlaskClient) -> None:
    assert_error(client.post(f"{API}/tables/nope/rematch", headers={"Authorization": "Bearer x"}), 404)


def test_a_rematch_can_have_its_own_rematch(client: FlaskClient) -> None:
    t = samba_table(client, options={"target": 100})
    play(client, t, (105, 0))
    second = rematch(client, t).get_json()
    play(client, second, (0, 105))
    third = rematch(client, second)
    assert third.status_code == 201
    assert third.get_json()["follows"] == second["id"]
    assert get_table(client, second["id"])["follows"] == t["id"]
    assert get_table(client, second["id"])["rematch"] == third.get_json()["id"]


# --------------------------------------------------------------------------- settlement and preview


def test_settlement_is_the_match_score(client: FlaskClient, openapi: dict) -> None:
    t = samba_table(client)
    empty = client.get(f"{API}/tables/{t['id']}/settlement").get_json()
    assert empty == {
        "teams": [
            {"players": ["Ana", "Caio"], "total": 0, "min_meld": 50},
            {"players": ["Bia", "Dani"], "total": 0, "min_meld": 50},
        ],
        "totals": {"Ana": 0, "Bia": 0, "Caio": 0, "Dani": 0},
        "finished": False,
        "winner": None,
    }
    ok(client, t, EXAMPLE)
    settled = client.get(f"{API}/tables/{t['id']}/settlement").get_json()
    assert set(settled) == {"teams", "totals", "finished", "winner"}
    assert settled["teams"] == [
        {"players": ["Ana", "Caio"], "total": 3405, "min_meld": 120},
        {"players": ["Bia", "Dani"], "total": 740, "min_meld": 50},
    ]
    assert settled["totals"] == {"Ana": 3405, "Bia": 740, "Caio": 3405, "Dani": 740}
    assert (settled["finished"], settled["winner"]) == (False, None)
    assert "transfers" not in settled and "balances" not in settled
    assert schema_errors(openapi, "Settlement", settled) == []


def test_preview_answers_the_teams_and_totals_and_stores_nothing(
    app: Flask, client: FlaskClient, openapi: dict
) -> None:
    t = samba_table(client)
    ok(client, t, EXAMPLE)
    before = state(client, t["id"])
    response = preview(client, t, EXAMPLE)  # no token needed
    assert response.status_code == 200, response.get_data(as_text=True)
    answer = response.get_json()
    assert schema_errors(openapi, "Preview", answer) == []
    assert answer["number"] == 2 and answer["dealer"] == "Ana" and answer["next_dealer"] == "Bia"
    assert answer["deltas"] == {"Ana": 3405, "Bia": 740, "Caio": 3405, "Dani": 740}
    assert answer["totals"] == {"Ana": 6810, "Bia": 1480, "Caio": 6810, "Dani": 1480}
    assert [(team["players"], team["score"], team["total"], team["min_meld"]) for team in answer["teams"]] == [
        (["Ana", "Caio"], 3405, 6810, 120),
        (["Bia", "Dani"], 740, 1480, 50),
    ]
    assert answer["finished"] is False and answer["winner"] is None
    assert answer["payments"] == []
    assert len(answer["breakdown"]) == 12
    assert state(client, t["id"]) == before
    assert count_hands(app) == 1


def test_preview_of_the_winning_hand_says_so_and_stores_nothing(app: Flask, client: FlaskClient) -> None:
    t = samba_table(client, options={"target": 2000})
    answer = preview(client, t, stock_out(2005, 0)).get_json()
    assert answer["finished"] is True and answer["winner"] == 0
    assert get_table(client, t["id"])["finished"] is False
    assert count_hands(app) == 0


# --------------------------------------------------------------------------- Idempotency-Key


def test_idempotency_key_replays_the_first_answer(app: Flask, client: FlaskClient) -> None:
    t = samba_table(client)
    first = post(client, t, EXAMPLE, **{"Idempotency-Key": "sheet-1"})
    second = post(client, t, EXAMPLE, **{"Idempotency-Key": "sheet-1"})
    assert first.status_code == second.status_code == 201
    assert "Idempotent-Replayed" not in first.headers
    assert second.headers.get("Idempotent-Replayed") == "true"
    assert second.get_json() == first.get_json()
    assert count_hands(app) == 1
    assert team_totals(get_table(client, t["id"])) == [3405, 740]
    # The same key with another hand is refused, and stores nothing.
    other = copy.deepcopy(EXAMPLE)
    other["teams"][1]["penalties"] = 2
    assert_error(post(client, t, other, **{"Idempotency-Key": "sheet-1"}), 422, field="Idempotency-Key")
    assert count_hands(app) == 1


def test_a_retry_of_the_winning_hand_is_replayed_not_refused(app: Flask, client: FlaskClient) -> None:
    t = samba_table(client, options={"target": 2000})
    first = post(client, t, stock_out(2005, 0), **{"Idempotency-Key": "last"})
    assert first.status_code == 201 and first.get_json()["finished"] is True
    again = post(client, t, stock_out(2005, 0), **{"Idempotency-Key": "last"})
    assert again.status_code == 201, again.get_data(as_text=True)
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.get_json() == first.get_json()
    assert count_hands(app) == 1


# --------------------------------------------------------------------------- dealer rotation


def test_the_deal_moves_one_seat_each_hand(client: FlaskClient) -> None:
    t = samba_table(client)
    expected = ["Dani", "Ana", "Bia", "Caio", "Dani", "Ana"]
    for number, dealer in enumerate(expected, start=1):
        answer = play(client, t, (5, 5))
        nxt = FOUR[(FOUR.index(dealer) + 1) % 4]
        assert (answer["number"], answer["dealer"], answer["next_dealer"]) == (number, dealer, nxt)
        assert get_table(client, t["id"])["next_dealer"] == nxt


def test_the_deal_moves_round_six_players(client: FlaskClient) -> None:
    t = samba_table(client, SIX, dealer="Caio")
    dealers = [play(client, t, (5, 0))["dealer"] for _ in range(7)]
    assert dealers == ["Caio", "Dani", "Edu", "Fabi", "Ana", "Bia", "Caio"]


def test_a_record_may_name_its_dealer_and_the_deal_follows_it(client: FlaskClient) -> None:
    t = samba_table(client)
    answer = ok(client, t, {**EXAMPLE, "dealer": "Bia"})
    assert answer["dealer"] == "Bia" and answer["next_dealer"] == "Caio"
    assert answer["record"]["dealer"] == "Bia"
    assert get_table(client, t["id"])["next_dealer"] == "Caio"


def test_a_void_gives_the_deal_back(client: FlaskClient) -> None:
    t = samba_table(client)
    play(client, t, (5, 5), (5, 5))
    assert get_table(client, t["id"])["next_dealer"] == "Bia"
    assert void(client, t, 2).get_json()["next_dealer"] == "Ana"
    assert play(client, t, (5, 5))["dealer"] == "Ana"


def test_a_match_with_a_rematch_can_no_longer_change(client: FlaskClient) -> None:
    """Once the rematch exists, voiding or correcting the old match's hands would reopen a match
    that was already replaced: refused with a 409, nothing stored."""
    t = samba_table(client, options={"target": 2000})
    play(client, t, (1500, 100), (600, 0))
    assert rematch(client, t).status_code == 201
    before = get_table(client, t["id"])
    assert void(client, t, 2).status_code == 409
    assert post(client, t, {**EXAMPLE, "replaces": 2}).status_code == 409
    assert get_table(client, t["id"]) == before
