"""A championship day around the tables: entries with numbers, rounds drawn from a shown seed,
tables played hand by hand (ordinary Referee tables) or brought in as final chip counts, a
fiscal's sign-off, and a ranking of points (one chip, one point) that moves while the round runs.

The modules, in the order of the day: :mod:`.settings` (what the manager chooses),
:mod:`.entries` (registration and re-entries), :mod:`.rounds` (the draw and the round's tables),
:mod:`.signoff` (final counts and the fiscal's signature), :mod:`.trail` (a table's counts,
signatures and reopenings read back from :mod:`.history`), :mod:`.ranking` (points, places and
tie-breaks; pure arithmetic over what the others store) and :mod:`.prizes` (the prize table, the
teams and who wins what); around them, :mod:`.cards` (the table cards printed once for the day)
and :mod:`.wall` (the TV view's pages).
"""

from __future__ import annotations

from .entries import card_number, reenter, register
from .ranking import Board, Standing, standings, visible_standings
from .rounds import current_round, draw_round, pairs_again, redraw, round_tables, table_label
from .settings import GAMES, REENTRY_POINTS, TIEBREAKS, create, get
from .signoff import ChipCount, chip_count, enter_counts, reopen, sign

__all__ = [
    "GAMES",
    "Board",
    "REENTRY_POINTS",
    "TIEBREAKS",
    "ChipCount",
    "Standing",
    "card_number",
    "chip_count",
    "create",
    "current_round",
    "draw_round",
    "enter_counts",
    "get",
    "pairs_again",
    "redraw",
    "reenter",
    "register",
    "reopen",
    "round_tables",
    "sign",
    "standings",
    "table_label",
    "visible_standings",
]
