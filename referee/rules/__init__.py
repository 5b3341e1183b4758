"""The rules engine: pure Python, standard library only.

No Flask, SQLAlchemy, WTForms or qrcode import may appear anywhere in this package (a test
imports it in a fresh interpreter and checks). Every game is one module ending with its
:class:`~referee.rules.game.Game`; :data:`GAMES` lists them once, and :func:`get_game` is the
only way the rest of the app finds one. Adding a game is writing its module and one line here.
"""

from __future__ import annotations

from typing import Any, Final

from . import cachorro, el_gato, injun, jubileu, kentucky_derby, koziri, lift_smoke, quatrilho, relogio, samba
from .errors import InvalidInput, RulesError, UnknownGame
from .game import Game
from .text import N_, Text

#: Every game the API names, by slug, in the order the home page offers them.
GAMES: Final[dict[str, Game[Any, Any]]] = {
    module.GAME.slug: module.GAME
    for module in (jubileu, quatrilho, samba, koziri, injun, kentucky_derby, lift_smoke, el_gato, relogio, cachorro)
}


def get_game(slug: object) -> Game[Any, Any]:
    """The game called ``slug``; :class:`UnknownGame` for a name the API does not know."""
    if not isinstance(slug, str) or slug not in GAMES:
        raise UnknownGame(
            Text(
                N_("%(game)s is not a game Referee knows. Choose one of: %(games)s."),
                game=str(slug),
                games=", ".join(GAMES),
            ),
            field="game",
        )
    return GAMES[slug]


#: The game a new championship opens at: the one the clubs' championships are played at.
CHAMPIONSHIP_GAME: Final[str] = quatrilho.GAME.slug

__all__ = ["CHAMPIONSHIP_GAME", "GAMES", "Game", "InvalidInput", "RulesError", "UnknownGame", "get_game"]
