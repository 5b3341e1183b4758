"""The rules engine: pure Python, standard library only.

No Flask, SQLAlchemy, WTForms or qrcode import may appear anywhere in this package (a test
imports it in a fresh interpreter and checks). Games register here; :func:`get_game` is the
only way the rest of the app finds one.
"""

from __future__ import annotations

from typing import Any, Final

from . import jubileu, quatrilho, samba
from .errors import InvalidInput, RulesError, UnknownGame
from .game import GameRules
from .text import N_, Text

#: Every game the API names (api.md), in the order the home page offers them.
KNOWN_GAMES: Final = (
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

#: Display names: proper nouns, the same in every language.
GAME_NAMES: Final = {
    "jubileu": "Jubileu",
    "quatrilho": "Quatrilho",
    "samba": "Samba",
    "koziri": "Koziri",
    "injun": "Injun",
    "kentucky_derby": "Kentucky Derby",
    "lift_smoke": "Lift Smoke",
    "el_gato": "El Gato",
    "relogio": "Relógio",
    "cachorro": "Paciência do Cachorro",
}

GAMES: Final[dict[str, GameRules[Any, Any]]] = {
    jubileu.SLUG: jubileu.RULES,
    quatrilho.SLUG: quatrilho.RULES,
    samba.SLUG: samba.RULES,
}


def get_game(slug: object) -> GameRules[Any, Any]:
    """The game called ``slug``; :class:`UnknownGame` for a name the API does not know, and a
    :class:`RulesError` (422) for one it knows but this version does not referee yet."""
    if not isinstance(slug, str) or slug not in KNOWN_GAMES:
        raise UnknownGame(
            Text(N_("%(game)s is not a game Referee knows. Choose one of: %(games)s."), game=str(slug), games=", ".join(KNOWN_GAMES)),
            field="game",
        )
    if slug not in GAMES:
        raise RulesError(Text(N_("%(game)s is not available yet."), game=slug), field="game")
    return GAMES[slug]


__all__ = ["GAMES", "GAME_NAMES", "KNOWN_GAMES", "GameRules", "InvalidInput", "RulesError", "UnknownGame", "get_game"]
