"""The rules engine: pure Python, standard library only.

No Flask, SQLAlchemy, WTForms or qrcode import may appear anywhere in this package (a test
imports it in a fresh interpreter and checks). Games register here; :func:`get_game` is the
only way the rest of the app finds one.
"""

from __future__ import annotations

from typing import Any, Final

from . import cachorro, el_gato, injun, jubileu, kentucky_derby, koziri, lift_smoke, quatrilho, relogio, samba
from .errors import InvalidInput, RulesError, UnknownGame  # noqa: F401 (re-exported)
from .game import Game, GameRules
from .text import N_, Text

#: Every game the API names, in the order the home page offers them.
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

GAMES: Final[dict[str, Game[Any, Any] | GameRules[Any, Any]]] = {
    jubileu.SLUG: jubileu.RULES,
    quatrilho.SLUG: quatrilho.RULES,
    samba.SLUG: samba.RULES,
    koziri.SLUG: koziri.RULES,
    injun.SLUG: injun.RULES,
    kentucky_derby.SLUG: kentucky_derby.RULES,
    lift_smoke.SLUG: lift_smoke.RULES,
    el_gato.SLUG: el_gato.RULES,
    relogio.SLUG: relogio.RULES,
    cachorro.SLUG: cachorro.RULES,
}


def get_game(slug: object) -> Game[Any, Any] | GameRules[Any, Any]:
    """The game called ``slug``; :class:`UnknownGame` for a name the API does not know."""
    if not isinstance(slug, str) or slug not in GAMES:
        raise UnknownGame(
            Text(
                N_("%(game)s is not a game Referee knows. Choose one of: %(games)s."),
                game=str(slug),
                games=", ".join(KNOWN_GAMES),
            ),
            field="game",
        )
    return GAMES[slug]


__all__ = ["GAMES", "GAME_NAMES", "KNOWN_GAMES", "GameRules", "InvalidInput", "RulesError", "UnknownGame", "get_game"]
