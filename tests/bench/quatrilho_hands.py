"""A realistic mix of Quatrilho hand records for the benchmarks (engine and API).

Tables have five players, so the rotation and the sit-out run on every hand: the dealer sits
out (the default), and the four who play are, in order of play, seats 0 (the mão) to 3. Each
template is written by those seats. ``record(players, k)`` gives the k-th hand (0-based) of a
table whose first dealer is the last player, following the rotation (the deal passes on after
every hand, "a monte" included), so every record is valid for the hand number it is posted as.

Figures include the last trick's 3 (they add up to 35, docs/api.md); tricks add up to 10.
"""

from __future__ import annotations

from typing import Any

from . import rotation

PLAYERS = ("Ana", "Bia", "Caio", "Dani", "Edu")


def _chamada(
    declarer: int, card: tuple[str, str], partner: int, figures: tuple[int, ...], tricks: tuple[int, ...]
) -> dict[str, Any]:
    """A chamada written by seat: the called card as (rank, suit), then figures and tricks by seat."""
    return {
        "mode": "chamada",
        "declarer": declarer,
        "called_card": {"rank": card[0], "suit": card[1]},
        "partner": partner,
        "figures": dict(enumerate(figures)),
        "tricks": dict(enumerate(tricks)),
    }


# (name, template). Seats are ints 0-3 (order of play from the mão); "auction" is
# [[seat, call], ...]; "figures"/"tricks" are {seat: n}.
TEMPLATES: tuple[tuple[str, dict[str, Any]], ...] = (
    (
        "chamada won, normal rate (with the É bom? auction)",
        {
            **_chamada(0, ("3", "paus"), 2, (13, 6, 9, 7), (3, 2, 3, 2)),
            "auction": [[0, "chamo"], [1, "e_bom"], [2, "e_bom"], [3, "e_bom"]],
        },
    ),
    ("chamada capote", _chamada(1, ("1", "copas"), 3, (0, 23, 0, 12), (0, 6, 0, 4))),
    ("chamada, losers took one trick", _chamada(0, ("2", "espadas"), 1, (20, 13, 2, 0), (5, 4, 1, 0))),
    ("chamada lost with a mancha", _chamada(0, ("2", "ouros"), 3, (5, 13, 9, 8), (2, 3, 3, 2))),
    (
        "solo preto natural won (with the auction)",
        {
            "mode": "solo_preto",
            "declarer": 2,
            "auction": [[0, "passo"], [1, "passo"], [2, "solo_preto_natural"], [3, "passo"]],
            "figures": {0: 5, 1: 4, 2: 23, 3: 3},
            "tricks": {0: 1, 1: 2, 2: 6, 3: 1},
        },
    ),
    (
        "solo preto with a giver, lost",
        {
            "mode": "solo_preto",
            "declarer": 1,
            "giver": 3,
            "figures": {0: 10, 1: 14, 2: 8, 3: 3},
            "tricks": {0: 3, 1: 4, 2: 2, 3: 1},
        },
    ),
    (
        "solo branco lost",
        {
            "mode": "solo_branco",
            "declarer": 3,
            "tricks": {3: 1},
        },
    ),
    (
        "carreguete",
        {
            "mode": "carreguete",
            "figures": {0: 12, 1: 11, 2: 5, 3: 7},
        },
    ),
    (
        "a monte",
        {
            "mode": "monte",
        },
    ),
)


def render(template: dict[str, Any], players: tuple[str, ...], dealer: str) -> dict[str, Any]:
    """A template with seats replaced by names: seat 0 is the player after the dealer, and at
    five the dealer himself sits out (seats 0-3 are the four who play)."""
    return rotation.render(
        template,
        players,
        dealer,
        playing=4,
        pairs=("auction",),
        maps=("figures", "tricks"),
        names=("declarer", "partner", "giver"),
    )


def record(players: tuple[str, ...], k: int) -> dict[str, Any]:
    """The k-th hand of a table: templates in turn, each for the dealer of that hand."""
    _name, template = TEMPLATES[k % len(TEMPLATES)]
    return render(template, players, rotation.dealer_of(players, k))


def period(players: tuple[str, ...] = PLAYERS) -> int:
    """After this many hands the (template, dealer) pairs repeat."""
    return rotation.period(TEMPLATES, players)
