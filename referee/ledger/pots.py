"""Pot games (Injun, Kentucky Derby, Lift Smoke): the chips left on the table between deals.

Each hand is played with the chips the deals before left on the table (its ``carried_in``); the
table knows how many, so a record never has to say, and a void or a correction may not change
what a later hand was played with.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.models import Hand, Table
from referee.rules.errors import InconsistentHand
from referee.rules.text import N_, NP_, Text

from .history import all_hands, numbering
from .state import totals
from .tables import rules_of


def on_the_table(table: Table, balances: Mapping[str, int] | None = None) -> int:
    """The chips a pot game left on the table for the next deal: whatever the players put in
    and nobody took, i.e. minus the sum of their net results (0 for games without a pot)."""
    if not rules_of(table).kind.carries_pot:
        return 0
    return -sum((totals(table) if balances is None else balances).values())


def pot_shown(table: Table, balances: Mapping[str, int] | None = None) -> int | None:
    """The chips a pot game's table holds for the next deal, as its board and answers show
    them (0 included); None for a game without a pot, which shows no such line."""
    return on_the_table(table, balances) if rules_of(table).kind.carries_pot else None


def chips_carried_in(table: Table, replaced: Hand | None = None) -> int:
    """The chips on the table a hand is played with: the table's now, or for a correction
    those of the hand it replaces (a correction keeps that hand's place in the deals)."""
    if replaced is not None:
        return int(replaced.record.get("carried_in", 0))
    return on_the_table(table)


def with_carry(raw: object, carried_in: int) -> object:
    """A pot game's record with the chips already on the table filled in; a record that names
    another amount is refused (the table knows what lies on it)."""
    if not isinstance(raw, Mapping):
        return raw  # the game's parser refuses it with its own sentence
    given = raw.get("carried_in")
    if given is not None and given != carried_in:
        raise InconsistentHand(
            Text(N_("No chips are on the table from the deals before (%(given)s were given)."), given=str(given)[:20])
            if carried_in == 0
            else Text(
                *NP_(
                    "There is %(count)s chip on the table from the deals before, not %(given)s.",
                    "There are %(count)s chips on the table from the deals before, not %(given)s.",
                ),
                count=carried_in,
                given=str(given)[:20],
            ),
            field="carried_in",
        )
    return {**raw, "carried_in": carried_in}


def check_pot_chain(table: Table, changed: Hand, new_carry: int | None) -> None:
    """A pot game: voiding or correcting ``changed`` must leave every later live hand with the
    chips it was played with (its ``carried_in``). A later hand that took chips ``changed``
    left on the table (or left chips ``changed`` took) is refused with a sentence: it has to be
    voided or corrected first, from the last one back. ``new_carry`` is the chips the corrected
    hand leaves on the table net (None for a void)."""
    if not rules_of(table).kind.carries_pot:
        return
    live = sorted((h for h in all_hands(table) if not h.is_void), key=lambda h: (h.position, h.number))
    shown = numbering(table)  # the sentence names hands by their places in play
    running = 0
    for hand in live:
        if hand.id == changed.id:
            running += new_carry or 0
            continue
        if int(hand.record.get("carried_in", 0)) != running and hand.position > changed.position:
            raise InconsistentHand(
                Text(
                    *NP_(
                        "Hand %(later)s was played with %(count)s chip on the table from the deals before, and changing hand %(number)s would change that: void or correct hand %(later)s first.",
                        "Hand %(later)s was played with %(count)s chips on the table from the deals before, and changing hand %(number)s would change that: void or correct hand %(later)s first.",
                    ),
                    later=shown.of(hand),
                    count=int(hand.record.get("carried_in", 0)),
                    number=shown.of(changed),
                ),
                field="replaces" if new_carry is not None else None,
            )
        running -= sum(int(v) for v in hand.result["deltas"].values())
