"""An 11th game added by following docs/games.md, in the tests only: Loser Pays
(tests/toy_game: the loser pays a stake to each other player, 3 to 6 players), installed in the
registries for one test at a time, through the new-table page, the recording pages, the API,
the OpenAPI document and the league. Nothing shared names it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jinja2 import BaseLoader, ChoiceLoader, FileSystemLoader

from referee import league
from referee.rules import GAMES
from referee.views.games import PAGES
from tests import test_docs_rules
from tests.rules import test_records, test_registry
from tests.toy_game import pages, rules

from .api_support import API, create_table, get_table, record_ok
from .test_api_openapi import _errors
from .test_pages_short_records import confirm, get, hands, new_table, walk

FOUR = ["Ana", "Bia", "Caio", "Dani"]


TEMPLATES = Path(pages.__file__).parent / "templates"


@pytest.fixture(autouse=True)
def toy(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Loser Pays in the engine's registry and the web's, and its templates in the app's, for
    this test only (removed after)."""
    monkeypatch.setitem(GAMES, rules.SLUG, rules.GAME)
    monkeypatch.setitem(PAGES, rules.SLUG, pages.REGISTRATION)
    loaders: list[BaseLoader] = [loader for loader in (app.jinja_loader,) if loader is not None]
    monkeypatch.setattr(app, "jinja_loader", ChoiceLoader([*loaders, FileSystemLoader(TEMPLATES)]))
    yield


def test_the_checks_every_game_passes_pass_for_the_toy() -> None:
    """The rules-side checks the registry's games pass (tests/rules, tests/test_docs_rules.py)."""
    test_registry.test_each_game_s_options_come_from_its_specs(rules.SLUG)
    test_registry.test_each_game_s_functions_answer_for_its_example_hand(rules.SLUG)
    test_records.test_the_documented_example_is_valid_and_accepted(rules.SLUG)
    test_records.test_a_record_refuses_an_unknown_field_and_a_table_of_the_wrong_size(rules.SLUG)
    test_records.test_a_record_object_checks_its_own_fields(rules.SLUG)
    test_docs_rules.test_every_rule_ref_points_at_a_section_of_docs_rules_md(rules.SLUG)
    assert rules.GAME.record.game == rules.GAME.name


def test_the_toy_s_rules_page_lists_its_house_rule(client: FlaskClient) -> None:
    client.set_cookie("lang", "en")
    page = client.get(f"/games/{rules.SLUG}").get_data(as_text=True)
    assert "<h1>How Referee judges Loser Pays</h1>" in page and "What Referee checks" in page
    assert "House rules a table can choose" in page and "Stake the loser pays each other player" in page


def test_the_new_table_page_offers_the_toy_and_its_stake(client: FlaskClient) -> None:
    client.set_cookie("lang", "en")
    assert "Loser Pays" in client.get("/tables/new").get_data(as_text=True)
    form = client.get(f"/tables/new?game={rules.SLUG}").get_data(as_text=True)
    assert "Stake the loser pays each other player" in form and 'name="opt_stake"' in form


def test_a_hand_recorded_from_the_pages_pays_the_stake_to_each_other_player(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, rules.SLUG, FOUR, stake="2")
    first = get(client, tid)
    assert first.heading == "Who lost?"
    preview = walk(client, tid, "set:loser:1", start=first)
    assert "Bia −6" in preview.text and "Ana +2" in preview.text
    assert confirm(client, tid, preview) == 302
    [hand] = hands(app, tid)
    assert hand["record"] == {"dealer": "Dani", "loser": "Bia"}
    assert hand["result"]["deltas"] == {"Ana": 2, "Bia": -6, "Caio": 2, "Dani": 2}
    assert client.get(f"/t/{tid}").status_code == 200


def test_the_api_records_the_toy_and_its_answers_are_as_documented(client: FlaskClient) -> None:
    document: dict[str, Any] = client.get(f"{API}/openapi.json").get_json()
    table = create_table(client, game=rules.SLUG, players=FOUR[:3], options={"stake": 5})
    answer = record_ok(client, table, {"loser": "Caio"})
    assert answer["game"] == rules.SLUG and answer["record"] == {"dealer": "Caio", "loser": "Caio"}
    assert answer["deltas"] == {"Ana": 5, "Bia": 5, "Caio": -10} and answer["contract"] == {"loser": "Caio"}
    assert answer["next_dealer"] == "Ana"
    assert _errors(document, "HandAnswer", answer) == []
    assert _errors(document, "Table", get_table(client, table["id"])) == []
    # El Gato's record without its optional field looks exactly like the toy's: each answer
    # still validates as its own game's.
    gato = create_table(client, game="el_gato", players=FOUR)
    gato_answer = record_ok(client, gato, {"loser": "Bia"})
    assert _errors(document, "LoserPaysHand", gato_answer["record"]) == []
    assert _errors(document, "HandAnswer", gato_answer) == []
    refused = client.post(f"{API}/tables", json={"game": rules.SLUG, "players": FOUR[:2]})
    assert refused.status_code == 422


def test_the_league_ranks_the_toy_s_players(app: Flask, client: FlaskClient) -> None:
    table = create_table(client, game=rules.SLUG, players=FOUR)
    for loser in ("Bia", "Bia", "Caio"):
        record_ok(client, table, {"loser": loser})
    with app.app_context():
        rows = {row.name: row.net for row in league.standings(rules.SLUG)}
    assert rows == {"Ana": 3, "Bia": -5, "Caio": -1, "Dani": 3}  # stake 1: each loss -3, each win +1
    client.set_cookie("lang", "en")
    page = client.get(f"/league/{rules.SLUG}?season=all")
    assert page.status_code == 200 and all(name in page.get_data(as_text=True) for name in FOUR)
