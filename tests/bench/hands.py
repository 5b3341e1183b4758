"""A realistic mix of Jubileu hand records for the benchmarks (engine and API).

Each template is written by seat: 0 speaks first, 3 deals. ``record(players, k)`` gives the
k-th hand (0-based) of a table whose first dealer is the last player, following the deal's
rotation (the deal passes on after every hand, all-pass included, under the default options),
so every record is valid for the hand number it is posted as.
"""

from __future__ import annotations

from typing import Any

from . import rotation

PLAYERS = ("Ana", "Bia", "Caio", "Dani")

# (name, template). Seats are ints; "auction" is [[seat, call], ...]; "tricks" is {seat: n}.
TEMPLATES: tuple[tuple[str, dict[str, Any]], ...] = (
    (
        "solo sete made, overtrick",
        {
            "ultima": "copas",
            "auction": [[0, "solo_sete"], [1, "passo"], [2, "passo"], [3, "passo"]],
            "trump": "espadas",
            "tricks": {0: 8, 1: 2, 2: 2, 3: 1},
        },
    ),
    (
        "jubileu partnership made",
        {
            "ultima": "ouros",
            "auction": [[0, "passo"], [1, "jubileu"], [2, "passo"], [3, "passo"]],
            "trump": "copas",
            "called": "paus",
            "partner": 3,
            "tricks": {0: 3, 1: 4, 2: 2, 3: 4},
        },
    ),
    (
        "all pass",
        {
            "ultima": "paus",
            "auction": [[0, "passo"], [1, "passo"], [2, "passo"], [3, "passo"]],
        },
    ),
    (
        "meia miseria, 2 declarers",
        {
            "ultima": "espadas",
            "auction": [[0, "meia_miseria"], [1, "meia_miseria"], [2, "passo"], [3, "passo"]],
            "tricks": {0: 1, 1: 2, 2: 5, 3: 5},
        },
    ),
    (
        "contested solo nove failed",
        {
            "ultima": "copas",
            "auction": [[0, "solo_sete"], [1, "solo_oito"], [2, "passo"], [3, "passo"], [0, "solo_nove"], [1, "passo"]],
            "trump": "ouros",
            "tricks": {0: 7, 1: 3, 2: 2, 3: 1},
        },
    ),
    (
        "jogo obrigatorio, 3 aces",
        {
            "ultima": "copas",
            "aces": {2: 3},
            "auction": [[0, "solo_sete"], [1, "passo"], [2, "jogo_obrigatorio"], [3, "passo"], [0, "passo"]],
            "trump": "espadas",
            "called": "paus",
            "partner": 1,
            "tricks": {0: 2, 1: 5, 2: 4, 3: 2},
        },
    ),
    (
        "solo oito da ultima made",
        {
            "ultima": "paus",
            "auction": [[0, "passo"], [1, "passo"], [2, "solo_oito_da_ultima"], [3, "passo"]],
            "tricks": {0: 2, 1: 1, 2: 9, 3: 1},
        },
    ),
    (
        "jubileu da ultima failed",
        {
            "ultima": "ouros",
            "auction": [[0, "jubileu_da_ultima"], [1, "passo"], [2, "passo"], [3, "passo"]],
            "called": "espadas",
            "partner": 2,
            "tricks": {0: 3, 1: 4, 2: 2, 3: 4},
        },
    ),
)


def render(template: dict[str, Any], players: tuple[str, ...], dealer: str) -> dict[str, Any]:
    """A template with seats replaced by the names of the players, seat 0 after the dealer."""
    return rotation.render(template, players, dealer, pairs=("auction",), maps=("tricks", "aces"), names=("partner",))


def record(players: tuple[str, ...], k: int) -> dict[str, Any]:
    """The k-th hand of a table: templates in turn, each for the dealer of that hand."""
    _name, template = TEMPLATES[k % len(TEMPLATES)]
    return render(template, players, rotation.dealer_of(players, k))
