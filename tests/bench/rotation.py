"""Hand records for a table in rotation, from templates written by seat (shared by the hand
mixes of every game: hands.py, quatrilho_hands.py, samba_hands.py).

A template names players by seat: seat 0 is the player after the dealer, then on in order of
play, for the ``playing`` players (at five Quatrilho players, the dealer sits out). The first
dealer is the last player and the deal passes on after every hand, so hand k of a table always
has the same dealer and each record is valid for the number it is posted as.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import lcm
from typing import Any


def dealer_of(players: Sequence[str], k: int) -> str:
    """The dealer of hand k (0-based): the last player deals first, then it passes on."""
    return players[(len(players) - 1 + k) % len(players)]


def render(
    template: dict[str, Any],
    players: Sequence[str],
    dealer: str,
    *,
    playing: int | None = None,
    pairs: Iterable[str] = (),
    maps: Iterable[str] = (),
    names: Iterable[str] = (),
) -> dict[str, Any]:
    """``template`` with seats replaced by names: in the ``pairs`` keys ([[seat, call], ...]),
    the ``maps`` keys ({seat: n}) and the ``names`` keys (a seat, or None)."""
    d = list(players).index(dealer)
    seat = [players[(d + 1 + i) % len(players)] for i in range(playing or len(players))]
    pairs, maps, names = set(pairs), set(maps), set(names)
    out: dict[str, Any] = {"dealer": dealer}
    for key, value in template.items():
        if key in pairs:
            out[key] = [[seat[s], call] for s, call in value]
        elif key in maps:
            out[key] = {seat[s]: n for s, n in value.items()}
        elif key in names:
            out[key] = seat[value] if value is not None else None
        else:
            out[key] = value
    return out


def period(templates: Sequence[Any], players: Sequence[str]) -> int:
    """After this many hands the (template, dealer) pairs repeat: lcm(templates, seats)."""
    return lcm(len(templates), len(players))
