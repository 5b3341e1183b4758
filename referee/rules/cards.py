"""Suits and their names. Ranks arrive with the games that need them."""

from __future__ import annotations

from enum import Enum

from .text import N_, Text


class Suit(Enum):
    """The four suits, by the slugs the API uses. Declaration order is the display order only."""

    COPAS = "copas"
    OUROS = "ouros"
    ESPADAS = "espadas"
    PAUS = "paus"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.COPAS, Suit.OUROS)

    @property
    def label(self) -> Text:
        return Text(_NAMES[self])


_SYMBOLS = {Suit.COPAS: "♥", Suit.OUROS: "♦", Suit.ESPADAS: "♠", Suit.PAUS: "♣"}
_NAMES = {
    Suit.COPAS: N_("hearts"),
    Suit.OUROS: N_("diamonds"),
    Suit.ESPADAS: N_("spades"),
    Suit.PAUS: N_("clubs"),
}
