"""The small surface every game module offers the ledger (architecture.md, habit 2).

The ledger never looks inside a game: it parses options and hands, settles, and asks who deals
next, all through :class:`GameRules`. Adding a game is writing one module and one registry line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

from .options import OptionSpec, OptionValue
from .settle import Settlement

O = TypeVar("O")
H = TypeVar("H")


class GameRules(Protocol[O, H]):
    slug: str
    name: str
    min_players: int
    max_players: int
    option_specs: tuple[OptionSpec, ...]

    def parse_options(self, raw: object) -> O:
        """Options as posted, defaults filled in; :class:`InvalidInput` for unknown names or values."""

    def options_json(self, options: O) -> dict[str, OptionValue]:
        """Every option with its value."""

    def parse_hand(self, raw: object, *, players: Sequence[str], options: O, dealer: str) -> H:
        """A validated hand, or a :class:`RulesError` with a sentence; ``dealer`` is the rotation's."""

    def hand_json(self, hand: H) -> dict[str, object]:
        """The hand record as stored and exported (api.md), derived fields filled in."""

    def dealer_of(self, hand: H) -> str:
        """Who dealt the hand."""

    def settle(self, hand: H, options: O) -> Settlement:
        """Who pays whom."""

    def first_speaker(self, players: Sequence[str], dealer: str, options: O) -> str:
        """Who speaks (or leads) first when ``dealer`` deals."""

    def sitting_out(self, players: Sequence[str], dealer: str, options: O) -> str | None:
        """Who does not play the hand ``dealer`` deals (five at a four-handed game), if anyone."""

    def next_dealer(self, players: Sequence[str], hand: H, options: O) -> str:
        """Who deals after ``hand``."""

    def contract_json(self, hand: H) -> Mapping[str, object]:
        """What was played, for the answer and the history (api.md ``contract``)."""


class GameModule:
    """What every game's adapter does the same way: its options class reads and writes the
    options, and its hand record knows its dealer and its JSON. A game subclasses this, names
    ``options_class``, and adds the functions that are its own (parse_hand, settle, seats)."""

    options_class: Any  # a class with from_json(raw) and to_json()

    def parse_options(self, raw: object) -> Any:
        return self.options_class.from_json(raw)

    def options_json(self, options: Any) -> dict[str, OptionValue]:
        result: dict[str, OptionValue] = options.to_json()
        return result

    def hand_json(self, hand: Any) -> dict[str, object]:
        result: dict[str, object] = hand.to_json()
        return result

    def dealer_of(self, hand: Any) -> str:
        return str(hand.dealer)
