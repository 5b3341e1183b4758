"""Seats in order of play, shared by every game.

Players are listed in the order things happen at the table: each is followed by the one
who plays next, so "next dealer" and "first to speak" are index arithmetic on that list,
whatever the physical direction of the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from .errors import InconsistentHand, InvalidInput, UnknownPlayer
from .text import N_, Text

#: The longest player name a table takes (the ledger refuses longer; the API document says so).
NAME_MAX: Final = 40


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
    most: int | None = None,
) -> dict[str, int]:
    """A count per player (tricks, figures): whole numbers, every player named, adding to ``total``
    (or, with ``most`` instead, to no more than that: the counts of only some of the players).

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
    given = sum(counts.values())
    if (total is not None and given != total) or (most is not None and given > most):
        raise InconsistentHand(
            Text(
                N_("%(what)s: the total is %(sum)s; it must be %(total)s."),
                what=what,
                sum=given,
                total=total if total is not None else most,
            ),
            field=field,
        )
    return counts


# Order of going out (Lift Smoke, El Gato): players leave the hand as their cards run out.

#: One step of the order of going out: the players who went out on the same trick.
OutGroup = tuple[str, ...]


def parse_out_order(
    raw: object,
    *,
    players: Sequence[str],
    survivor: str,
    survivor_may_end: bool,
    field: str = "out_order",
    what: str = "winner",
) -> tuple[OutGroup, ...]:
    """The order in which players went out, as groups of players who went out together.

    ``raw`` is a list whose entries are a name or a list of names (went out on the same trick).
    Checks: a list; every entry a seated player; nobody twice; ``survivor`` (the one the hand
    is about: Lift Smoke's winner, El Gato's loser) only in the last entry and only when
    ``survivor_may_end``; every other player accounted for. ``what`` names the survivor's role
    in the sentences ("winner" or "loser").

    >>> parse_out_order(["Caio", ["Ana", "Dani"]], players=("Ana", "Bia", "Caio", "Dani"), survivor="Bia", survivor_may_end=True)
    (('Caio',), ('Ana', 'Dani'))
    >>> parse_out_order(["Caio", "Bia", "Ana", "Dani"], players=("Ana", "Bia", "Caio", "Dani"), survivor="Bia", survivor_may_end=True)
    Traceback (most recent call last):
    ...
    referee.rules.errors.InconsistentHand: Bia went out before the last trick, so Bia cannot be the winner.
    """
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
        raise InvalidInput(Text(N_("The order of going out must be a list of players, first out first.")), field=field)
    groups: list[OutGroup] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw):
        where = f"{field}[{i}]"
        if isinstance(entry, str):
            names: list[object] = [entry]
        elif isinstance(entry, Sequence) and not isinstance(entry, bytes) and entry:
            names = list(entry)
        else:
            raise InvalidInput(
                Text(
                    N_(
                        "Each place in the order of going out is a player, or a list of players who went out on the same trick."
                    )
                ),
                field=where,
            )
        group: list[str] = []
        for j, name in enumerate(names):
            at = where if isinstance(entry, str) else f"{where}[{j}]"
            player = require_player(players, name, field=at)
            if player in seen:
                raise InconsistentHand(
                    Text(N_("%(name)s is named twice in the order of going out; a player goes out once."), name=player),
                    field=at,
                )
            seen.add(player)
            if player == survivor:
                if not survivor_may_end:
                    raise InconsistentHand(
                        Text(
                            N_("%(name)s is the %(what)s, so %(name)s is not among the players who went out."),
                            name=player,
                            what=Text(what),
                        ),
                        field=at,
                    )
                if i != len(raw) - 1:
                    raise InconsistentHand(
                        Text(
                            N_("%(name)s went out before the last trick, so %(name)s cannot be the %(what)s."),
                            name=player,
                            what=Text(what),
                        ),
                        field=at,
                    )
            group.append(player)
        groups.append(tuple(group))
    for name in players:
        if name != survivor and name not in seen:
            raise InconsistentHand(
                Text(N_("%(name)s is missing from the order of going out: every player is accounted for."), name=name),
                field=field,
            )
    return tuple(groups)


def out_order_json(groups: Sequence[OutGroup]) -> list[object]:
    """The order as a record gives it: a name for a player who went out alone, a list otherwise."""
    return [group[0] if len(group) == 1 else list(group) for group in groups]


def join_names(names: Sequence[Text | str]) -> Text | str:
    """Names in a sentence: "Ana", "Ana and Bia", "Ana, Bia and Caio". Every joiner is
    translatable, and names that are themselves :class:`Text` (a suit's label) are translated
    too. At least one name.

    >>> join_names(["Ana"])
    'Ana'
    >>> str(join_names(["Ana", "Bia", "Caio"]))
    'Ana, Bia and Caio'
    """
    if len(names) == 1:
        return names[0]
    text: Text = Text(N_("%(first)s and %(second)s"), first=names[-2], second=names[-1])
    for name in reversed(names[:-2]):
        text = Text(N_("%(first)s, %(rest)s"), first=name, rest=text)
    return text
