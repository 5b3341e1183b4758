"""What a declaring side made, for a hand's line in the history ("Solo Sete · Ana: 9 tricks,
made"), read from what was stored with it: the contract, the record and the deltas.

Jubileu and Quatrilho both show it (each game's module reads its own contract:
:func:`referee.views.games.jubileu.sides_made`, :func:`referee.views.games.quatrilho.declarer_made`);
this holds only the shape they share.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from referee.models import Hand


@dataclass(frozen=True)
class Made:
    """One declaring side: who, the tricks it took (None when the record does not say), and
    whether it made its contract; ``mancha`` for a Quatrilho caller who pays for both."""

    names: tuple[str, ...]
    tricks: int | None
    made: bool
    mancha: bool = False


def deltas_of(hand: Hand) -> Mapping[str, int]:
    """The hand's stored deltas, or none where the stored result lacks them."""
    deltas = hand.result.get("deltas")
    return deltas if isinstance(deltas, dict) else {}


def count(value: object) -> int | None:
    """A stored count, or None where the record holds something else (a bool is no count)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None
