"""Two-key entry: a hand recorded on one phone waits for a confirmation from another access;
either may dispute it for the owner instead. Confirmations are events on the hand."""

from __future__ import annotations

from collections.abc import Sequence

from referee import access
from referee.db import db
from referee.models import Hand, HandEvent, Table
from referee.rules.errors import InconsistentHand
from referee.rules.text import N_, Text

from .cleaning import clean_reason
from .errors import Conflict, NotFound
from .history import get_hand, numbering
from .state import lock_for_write, touch


def agreed(table: Table, hand: Hand) -> bool:
    """Two people stand behind this hand: it was confirmed under two-key entry, or it corrects
    (through any chain of corrections) a hand that was. Voiding such a hand needs the owner:
    else a scorer would remove an agreed hand in two steps, correcting it and then voiding or
    undoing the correction."""
    seen: set[int] = set()
    while hand.number not in seen:
        seen.add(hand.number)
        if hand.confirmed_by_both:
            return True
        replaced = get_hand(table, hand.result.get("replaces"))
        if replaced is None:
            return False
        hand = replaced
    return False


def confirm_hand(table: Table, number: int, *, actor: str, commit: bool = True) -> Hand:
    """Confirm a hand recorded under two-key entry. Another access than the one that recorded it
    must do it (:func:`access.may_confirm`): one person confirming his own hand proves nothing.
    An import replays its confirmations through here too, judged like any other."""
    hand = _two_key_hand(table, number)
    if not access.may_confirm(hand.created_by, actor):
        raise InconsistentHand(Text(N_("Someone else must confirm this hand: whoever recorded it cannot.")))
    db.session.add(HandEvent(hand=hand, kind="confirm", actor=actor[:60]))
    touch(table, commit=commit)
    return hand


def dispute_hand(table: Table, number: int, *, actor: str, reason: object = "", commit: bool = True) -> Hand:
    """Flag a hand for the owner: it stays counted, marked disputed, until the owner confirms,
    voids or corrects it."""
    hand = _two_key_hand(table, number)
    db.session.add(HandEvent(hand=hand, kind="dispute", reason=clean_reason(reason), actor=actor[:60]))
    touch(table, commit=commit)
    return hand


def _two_key_hand(table: Table, number: int) -> Hand:
    lock_for_write(table)
    if table.finished_at is not None:
        raise Conflict(Text(N_("This table is finished: its hands can no longer change.")))
    hand = get_hand(table, number)
    if hand is None:
        raise NotFound()
    if hand.status not in ("to_confirm", "disputed"):
        place = numbering(table).of(hand)
        raise Conflict(
            Text(N_("Hand %(number)s is not waiting for a confirmation."), number=place)
            if place
            else Text(N_("That hand is void: it waits for no confirmation."))
        )
    return hand


def to_confirm(hands: Sequence[Hand]) -> list[Hand]:
    """The hands still waiting for a confirmation (or disputed), oldest first."""
    return [h for h in sorted(hands, key=lambda h: h.number) if h.status in ("to_confirm", "disputed")]
