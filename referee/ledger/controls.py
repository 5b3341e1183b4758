"""The owner's controls: two-key entry on or off, closing the table (and reopening it), new house
rules before the first hand. Each takes the table's write lock and moves its version on."""

from __future__ import annotations

from referee.models import Table, utcnow
from referee.rules.text import N_, Text

from .errors import Conflict
from .state import lock_for_write, next_number, touch
from .tables import players_of, rules_of


def has_hands(table: Table) -> bool:
    """Any hand at all, voided ones included (house rules may change only before the first)."""
    return next_number(table) > 1


def set_two_key(table: Table, *, on: bool) -> None:
    """Turn two-key entry on or off (hands already recorded keep their confirmations)."""
    lock_for_write(table)
    if table.finished_at is not None:
        raise Conflict(Text(N_("This table is finished: its hands can no longer change.")))
    table.two_key = on
    touch(table)


def finish_table(table: Table) -> None:
    """Close the table: no more hands, voids or corrections; everything stays readable."""
    lock_for_write(table)
    if table.finished_at is None:
        table.finished_at = utcnow()
        touch(table)


def reopen_table(table: Table) -> None:
    """Take a closing back (the owner closed too early): the table takes hands again."""
    lock_for_write(table)
    if table.finished_at is not None:
        table.finished_at = None
        touch(table)


def change_options(table: Table, raw: object) -> None:
    """New house rules before the first hand (checked like a new table's, seating included)."""
    lock_for_write(table)
    if has_hands(table):
        raise Conflict(Text(N_("House rules can only change before the first hand.")))
    if table.finished_at is not None:
        raise Conflict(Text(N_("This table is finished: its hands can no longer change.")))
    rules = rules_of(table)
    parsed = rules.parse_options(raw)
    # The seats stay; what new options can break is the player count (Samba's five_players).
    rules.seat_teams(players_of(table), None, parsed)
    table.options = rules.options_json(parsed)
    touch(table)
