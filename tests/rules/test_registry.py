"""The registry: every game the API names is refereed, under the slug its module declares, and
each game's parts fit together. The list is the registry's own (``GAMES``), so adding a game
(docs/games.md) asks no change here; what it checks is written in docs/games.md."""

from __future__ import annotations

import re
from collections.abc import Mapping
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

from referee.rules import GAMES, UnknownGame, get_game
from referee.rules.game import Game
from referee.rules.scores import TeamScores
from referee.rules.settle import Settlement

API_MD = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_docs_api_md_names_every_game_in_the_registry_s_order() -> None:
    """docs/api.md's list of the ``game`` a new table takes is the registry's, in its order
    (the order the home page offers them)."""
    text = API_MD.read_text(encoding="utf-8")
    listed = re.search(r"^- `game`: one of (.+?)\.$", text, flags=re.MULTILINE | re.DOTALL)
    assert listed is not None, "docs/api.md lists no game a table takes"
    assert tuple(re.findall(r"`([a-z_]+)`", listed.group(1))) == tuple(GAMES)
    assert all(isinstance(game, Game) and game.name for game in GAMES.values())


@pytest.mark.parametrize("slug", list(GAMES))
def test_each_game_answers_to_its_own_slug_from_its_own_module(slug: str) -> None:
    rules = get_game(slug)
    assert rules.slug == slug
    assert import_module(f"referee.rules.{slug}").GAME is rules
    assert 1 <= rules.min_players <= rules.max_players
    assert rules.record.game == rules.name


@pytest.mark.parametrize("slug", list(GAMES))
def test_each_game_s_options_come_from_its_specs(slug: str) -> None:
    """One field per spec, each defaulting to its spec's default, and written back whole."""
    rules = GAMES[slug]
    defaults = {spec.name: spec.default for spec in rules.option_specs}
    assert rules.options_json(rules.parse_options(None)) == defaults
    assert rules.options_json(rules.options_class()) == defaults


@pytest.mark.parametrize("slug", list(GAMES))
def test_each_game_s_functions_answer_for_its_example_hand(slug: str) -> None:
    """The example record of the API document, through every function the app calls: who
    speaks, the hand, its JSON, what was played, the next dealer, the settlement."""
    rules = GAMES[slug]
    players = rules.record.example_players
    options: Any = rules.parse_options(None)
    dealer = players[-1]
    teams = rules.seat_teams(players, None, options)
    assert sorted(name for team in teams for name in team) == sorted(players)
    assert rules.first_speaker(players, dealer, options) in players
    assert rules.sitting_out(players, dealer, options) in (None, *players)
    hand = rules.parse_hand(dict(rules.record.example), players=players, options=options, dealer=dealer, teams=teams)
    stored = rules.hand_json(hand)
    assert set(stored) <= rules.record.names and rules.dealer_of(hand) == stored["dealer"]
    assert isinstance(rules.contract_json(hand), Mapping)
    assert rules.next_dealer(players, hand, options) in players
    settled = rules.settle(hand, options)
    assert isinstance(settled, TeamScores if rules.scored else Settlement)


@pytest.mark.parametrize("slug", ["poker", "", None, 3, "Jubileu", "relogio_real"])
def test_an_unknown_name_is_refused_on_the_game_field(slug: object) -> None:
    with pytest.raises(UnknownGame) as caught:
        get_game(slug)
    assert caught.value.field == "game"
