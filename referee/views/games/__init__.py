"""Every game's web side, registered once: :data:`PAGES` maps a slug to its :class:`GamePages`.

Each game has one module here, named after its slug (``referee/views/games/<slug>.py``), that
holds its recording flow and its registration (``REGISTRATION``), and one template folder,
``templates/games/<slug>/``. The registry is built from the rules engine's list
(:data:`referee.rules.GAMES`, in its order), so a game the engine knows and the web does not is
an error at start-up, not a 500 on its first page.
"""

from __future__ import annotations

from importlib import import_module

from flask import abort

from referee.rules import GAMES
from referee.views.games.pages import GamePages, Partnerships, PatienceFigure


def _registration(slug: str) -> GamePages:
    registration = import_module(f"{__name__}.{slug}").REGISTRATION
    if not isinstance(registration, GamePages) or registration.slug != slug:
        raise TypeError(f"{__name__}.{slug}.REGISTRATION must be the GamePages of {slug!r}")
    return registration


#: Every game's web side, in the order the home page offers the games.
PAGES: dict[str, GamePages] = {slug: _registration(slug) for slug in GAMES}


def pages_of(slug: str) -> GamePages:
    """The web side of the game called ``slug``; 404 for a name no game has."""
    pages = PAGES.get(slug)
    if pages is None:
        abort(404)
    return pages


#: Each patience's figure for the player page, by the patience's name (a Relógio table records
#: two patiences, Relógio and Relógio Real).
PATIENCE_FIGURES: dict[str, PatienceFigure] = {
    name: figure for pages in PAGES.values() for name, figure in pages.patience_figures.items()
}


__all__ = ["PAGES", "PATIENCE_FIGURES", "GamePages", "Partnerships", "pages_of"]
