"""A realistic mix of Samba hand records for the benchmarks (engine and API).

Four players, partners across (teams [Ana, Caio] and [Bia, Dani]). ``record(k)`` is hand k
(0-based) of a table whose first dealer is the last player; the deal moves one seat a hand.
Each template gives both teams' parts; "went_out" is a seat index (or None: the stock ran out).
The tables play to a high target so that a load run never ends a match.
"""

from __future__ import annotations

from typing import Any

from . import rotation

PLAYERS = ("Ana", "Bia", "Caio", "Dani")
OPTIONS = {"target": 1_000_000}


def _team(meld: int = 0, hand: int = 0, **counts: Any) -> dict[str, Any]:
    return {
        "meld_points": meld,
        "hand_points": hand,
        "clean_canastras": 0,
        "dirty_canastras": 0,
        "wild_canastras": 0,
        "sambas": 0,
        "red_threes": 0,
        "red_threes_in_hand": 0,
        "hidden_canastra": None,
        "penalties": 0,
        **counts,
    }


TEMPLATES: tuple[tuple[str, dict[str, Any]], ...] = (
    (
        "went out with a canastra and a samba",
        {
            "went_out": 2,
            "teams": [
                _team(420, 0, clean_canastras=1, sambas=1, red_threes=1),
                _team(260, 85, dirty_canastras=1, red_threes=1),
            ],
        },
    ),
    (
        "went out with a hidden canastra, penalties by kind",
        {
            "went_out": 1,
            "teams": [
                _team(150, 120, red_threes=2, penalties=["stock_out_of_turn"]),
                _team(610, 0, clean_canastras=1, dirty_canastras=1, hidden_canastra="play_alone"),
            ],
        },
    ),
    (
        "stock ran out, red 3s without combinations",
        {
            "went_out": None,
            "teams": [
                _team(330, 40, dirty_canastras=1, red_threes=2),
                _team(290, 55, clean_canastras=1, sambas=1, red_threes=1, red_threes_in_hand=1),
            ],
        },
    ),
    (
        "canastrão: five canastras",
        {
            "went_out": 0,
            "teams": [
                _team(900, 0, clean_canastras=3, dirty_canastras=2, red_threes=3),
                _team(120, 230, red_threes=1, penalties=2),
            ],
        },
    ),
)


def record(k: int) -> dict[str, Any]:
    """Hand k: "went_out" names a seat of the table (the teams are fixed), not one counted from
    the dealer."""
    _name, template = TEMPLATES[k % len(TEMPLATES)]
    out = template["went_out"]
    return {
        "dealer": rotation.dealer_of(PLAYERS, k),
        "went_out": PLAYERS[out] if out is not None else None,
        "teams": template["teams"],
    }


def period() -> int:
    """Templates x dealers: after this many hands the sequence repeats."""
    return rotation.period(TEMPLATES, PLAYERS)
