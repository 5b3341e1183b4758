"""What every auction answers the same way, whatever the game (Jubileu's bid ladder, Quatrilho's
"É bom?" round): which calls the player to speak may make, whether a call is allowed, and how a
posted list of ``[player, call]`` pairs is replayed into an auction.

A game's auction subclasses :class:`Auction`, names the calls it knows (``CALLS``), says whose
turn it is (``turn``) and why a call is refused (``_reason``, None when allowed), and records a
call (``call``). The page's buttons (:meth:`Auction.legal_calls`) and the refusal of a forged
request (:meth:`Auction.verify_call`) then come from that one ``_reason``. A hand record
carries its auction as those pairs; :func:`pairs_schema` documents them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from typing import Any, ClassVar, Generic, TypeVar

from . import seats
from .errors import IllegalCall, InvalidInput
from .record import Json, name_schema
from .text import N_, Text

C = TypeVar("C")
A = TypeVar("A", bound="Auction[Any]")


class Auction(Generic[C]):
    """The shared questions of an auction; see the module docstring for what a game supplies."""

    CALLS: ClassVar[Sequence[Any]]

    @property
    def turn(self) -> str | None:
        """Who speaks now (None once the auction is over)."""
        raise NotImplementedError

    def _reason(self, player: str, call: C) -> Text | None:
        """Why ``player`` may not make ``call`` now, or None when the call is allowed."""
        raise NotImplementedError

    def call(self, player: str, call: C, *, field: str | None = None) -> None:
        raise NotImplementedError

    @property
    def complete(self) -> bool:
        return self.turn is None

    def legal_calls(self) -> list[C]:
        """The calls the player to speak may make now (empty once the auction is complete)."""
        turn = self.turn
        if turn is None:
            return []
        return [c for c in self.CALLS if self._reason(turn, c) is None]

    def can_call(self, player: str, call: C) -> bool:
        return self._reason(player, call) is None

    def verify_call(self, player: str, call: C, *, field: str | None = None) -> None:
        reason = self._reason(player, call)
        if reason is not None:
            raise IllegalCall(reason, field=field)


def replay_pairs(auction: A, players: Sequence[str], raw: object, parse_call: Callable[..., Any]) -> A:
    """A posted auction (``[[player, call], ...]`` in the order spoken) fed call by call into
    ``auction``, which must then be complete. Shapes are :class:`InvalidInput` (400); a player
    not seated, an illegal call or an unfinished auction is a 422 naming the call (``auction[i]``)."""
    if isinstance(raw, str) or not isinstance(raw, Sequence):
        raise InvalidInput(Text(N_("The auction must be a list of [player, call] pairs.")), field="auction")
    for i, item in enumerate(raw):
        where = f"auction[{i}]"
        if isinstance(item, str) or not isinstance(item, Sequence) or len(item) != 2:
            raise InvalidInput(Text(N_("Each call must be a [player, call] pair.")), field=where)
        player = seats.require_player(players, item[0], field=where)
        auction.call(player, parse_call(item[1], field=where), field=where)
    if not auction.complete:
        raise IllegalCall(
            Text(N_("The auction is not finished: %(name)s still has to speak."), name=auction.turn or ""),
            field="auction",
        )
    return auction


def pairs_schema(calls: Iterable[Enum]) -> Json:
    """The JSON schema of a posted auction (what :func:`replay_pairs` reads): ``[player, call]``
    pairs in the order spoken, each call one of ``calls``."""
    return {
        "type": "array",
        "items": {
            "type": "array",
            "prefixItems": [name_schema(), {"type": "string", "enum": [c.value for c in calls]}],
            "minItems": 2,
            "maxItems": 2,
        },
    }
