"""Display names for templates: calls, suits, option values. Game terms stay in Portuguese in
every language (they are the names players use); suit names are translated."""

from __future__ import annotations

from flask_babel import gettext as _

from referee.rules.cards import Suit
from referee.rules.jubileu import ALL_CALLS

_CALLS = {c.value: c.label for c in ALL_CALLS}


def call(slug: str) -> str:
    return _CALLS.get(slug, slug)


def suit(slug: str | None) -> str:
    if not slug:
        return ""
    return Suit(slug).label.render(_)


def symbol(slug: str | None) -> str:
    return Suit(slug).symbol if slug else ""


def red(slug: str | None) -> bool:
    return bool(slug) and Suit(slug).is_red
