"""Kentucky Derby's bookkeeper, for the tests only.

The app records the bets and the race as the table reports them; who at the table writes them
down never enters a hand or a settlement, so only the seat tests ask.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.rules import seats


def bookkeeper(players: Sequence[str], dealer: str) -> str:
    """The player before the dealer (to his right) writes down the bets and pays out."""
    return seats.after(players, dealer, -1)
