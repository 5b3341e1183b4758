"""What this phone told the Koziri deal helper about the hand about to be played at a table:
the suits chosen and the cards the dealer turned up. The "record a hand" page and the answer
checker start from it, so nothing is asked twice.

It lives in this phone's session, keyed by table and tied to the hand number and the dealer it
was told for: the next hand, another dealer or another table never sees it. Only a phone that
may score the table writes it (the deal helper checks before calling :func:`remember`); a
watcher's phone has nothing to write and nothing to read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import session

from referee import ledger
from referee.models import Table

KEY = "koziri_deals"
SUITS = ("dealer_trump", "dealer_second", "opponent_trump")
#: Tables remembered per phone (the oldest goes first): a club night has a handful.
MAX_TABLES = 6
MAX_CODES = 40


def remember(table: Table, dealer: str, suits: Mapping[str, str], codes: Sequence[str] = ()) -> None:
    """Remember the suits (already accepted by the engine) and the cards turned up for the
    table's next hand, dealt by ``dealer``."""
    entries = {k: v for k, v in (session.get(KEY) or {}).items() if k != table.id and isinstance(v, dict)}
    entries[table.id] = {
        "n": ledger.next_number(table),
        "dealer": dealer,
        **{name: suits[name] for name in SUITS if isinstance(suits.get(name), str)},
        "c": [c for c in codes if isinstance(c, str)][:MAX_CODES],
    }
    session[KEY] = dict(list(entries.items())[-MAX_TABLES:])


def recall(table: Table, dealer: str) -> dict[str, Any] | None:
    """What was told for the table's next hand with this dealer, or None."""
    entry = (session.get(KEY) or {}).get(table.id)
    if not isinstance(entry, dict) or entry.get("dealer") != dealer or entry.get("n") != ledger.next_number(table):
        return None
    return entry


def suits_of(entry: Mapping[str, Any] | None) -> dict[str, str]:
    """The suits of a remembered deal, by the record's field names."""
    return {name: entry[name] for name in SUITS if isinstance((entry or {}).get(name), str)} if entry else {}
