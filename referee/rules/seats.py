"""Seats in order of play, shared by every game.

Players are listed in the order things happen at the table (api.md): each is followed by the one
who plays next, so "next dealer" and "first to speak" are index arithmetic on that list,
whatever the physical direction of the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .errors import InconsistentHand, InvalidInput, UnknownPlayer
from .text import N_, Text


def after(players: Sequence[str], player: str, steps: int = 1) -> str:
    """The player ``steps`` places later in order of play (negative steps go back)."""
    return players[(players.index(player) + steps) % len(players)]


def order_from(players: Sequence[str], first: str) -> tuple[str, ...]:
    """All players in order of play, starting with ``first``."""
    start = players.index(first)
    return tuple(players[start:]) + tuple(players[:start])


def require_player(players: Sequence[str], name: object, *, field: str) -> str:
    """A seated player's name, or the sentence that says it is not one."""
    if not isinstance(name, str):
        raise InvalidInput(Text(N_("A player must be given by name.")), field=field)
    if name not in players:
        raise UnknownPlayer(
            Text(N_("%(name)s is not seated at this table."), name=name),
            field=field,
        )
    return name


def require_counts(
    players: Sequence[str],
    raw: object,
    *,
    field: str,
    total: int | None,
    maximum: int,
    what: Text,
    seated: Sequence[str] | None = None,
    required: bool = True,
) -> dict[str, int]:
    """A count per player (tricks, figures): whole numbers, every player named, adding to ``total``.

    The order in which the counts were typed never matters: the result is keyed by seat order.

    ``seated``: the whole table, when only ``players`` (those who play this hand) have counts; a
    seated player who does not play (sits out) is refused with his own sentence, a name not
    seated at all as :class:`UnknownPlayer`. ``required=False``: players may be left out (the
    result then holds only those given).
    """
    if not isinstance(raw, Mapping):
        raise InvalidInput(Text(N_("%(what)s: give a count for each player."), what=what), field=field)
    for name in raw:
        require_player(players if seated is None else seated, name, field=f"{field}.{name}")
        if name not in players:
            raise InconsistentHand(
                Text(N_("%(what)s: %(name)s does not play this hand, so has no count."), what=what, name=name),
                field=f"{field}.{name}",
            )
    counts: dict[str, int] = {}
    for name in players:
        if name not in raw:
            if not required:
                continue
            raise InvalidInput(
                Text(N_("%(what)s: the count for %(name)s is missing."), what=what, name=name),
                field=f"{field}.{name}",
            )
        value = raw[name]
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidInput(
                Text(N_("%(what)s: the count for %(name)s must be a whole number."), what=what, name=name),
                field=f"{field}.{name}",
            )
        if not 0 <= value <= maximum:
            raise InconsistentHand(
                Text(
                    N_("%(what)s: %(name)s cannot have %(value)s; the count goes from 0 to %(maximum)s."),
                    what=what,
                    name=name,
                    value=value,
                    maximum=maximum,
                ),
                field=f"{field}.{name}",
            )
        counts[name] = value
    if total is not None and sum(counts.values()) != total:
        raise InconsistentHand(
            Text(
                N_("%(what)s: the total is %(sum)s; it must be %(total)s."),
                what=what,
                sum=sum(counts.values()),
                total=total,
            ),
            field=field,
        )
    return counts
