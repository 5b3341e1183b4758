"""The registry: every game the API names is refereed, under the slug its module declares."""

from __future__ import annotations

import pytest

from referee.rules import GAMES, UnknownGame, get_game
from referee.rules.game import Game

#: The games the API names, in the order the home page offers them (docs/api.md).
API_GAMES = (
    "jubileu",
    "quatrilho",
    "samba",
    "koziri",
    "injun",
    "kentucky_derby",
    "lift_smoke",
    "el_gato",
    "relogio",
    "cachorro",
)


def test_every_game_the_api_names_is_registered_in_the_same_order() -> None:
    assert tuple(GAMES) == API_GAMES
    assert all(isinstance(game, Game) and game.name for game in GAMES.values())


@pytest.mark.parametrize("slug", API_GAMES)
def test_each_game_answers_to_its_own_slug(slug: str) -> None:
    rules = get_game(slug)
    assert rules.slug == slug
    assert 1 <= rules.min_players <= rules.max_players


@pytest.mark.parametrize("slug", ["poker", "", None, 3, "Jubileu", "relogio_real"])
def test_an_unknown_name_is_refused_on_the_game_field(slug: object) -> None:
    with pytest.raises(UnknownGame) as caught:
        get_game(slug)
    assert caught.value.field == "game"
