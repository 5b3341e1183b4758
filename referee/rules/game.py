"""The small surface every game module offers the ledger (architecture.md, habit 2).

The ledger never looks inside a game: it parses options and hands, settles, and asks who deals
next, all through :class:`GameRules`. Adding a game is writing one module and one registry line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

from .errors import InvalidInput
from .options import OptionSpec, OptionValue
from .scores import TeamScores
from .settle import Settlement
from .text import N_, Text

Teams = tuple[tuple[str, ...], ...]

O = TypeVar("O")
H = TypeVar("H")


class GameRules(Protocol[O, H]):
    slug: str
    name: str
    min_players: int
    max_players: int
    option_specs: tuple[OptionSpec, ...]
    #: True for games scored in points toward a target (Samba): a hand gives each team a score
    #: and the table shows the match, not who pays whom.
    scored: bool
    #: The options that hold each player's starting stock (chips, talha) and the money one unit
    #: is worth, for games that have them (the ledger reports the stock apart and shows money).
    stock_option: str | None
    money_option: str | None
    #: True for games with a pot that can stay on the table for the next deal (Injun, Kentucky
    #: Derby, Lift Smoke): their hand record takes ``carried_in``, the chips already there,
    #: which the ledger fills in from the table (minus the sum of the live hands' deltas).
    pots: bool
    #: The hand record's field that names the hand's loser, for games whose players are ranked
    #: by how often they lost (El Gato: "loser", where the stake is often 0 and nothing is paid);
    #: None for the others.
    loser_field: str | None

    def parse_options(self, raw: object) -> O:
        """Options as posted, defaults filled in; :class:`InvalidInput` for unknown names or values."""

    def options_json(self, options: O) -> dict[str, OptionValue]:
        """Every option with its value."""

    def seat_teams(self, players: Sequence[str], raw: object, options: O) -> Teams:
        """The table's teams (the API's ``teams``), defaults filled in; refuses a seating the game
        does not allow with these options (:class:`RulesError`)."""

    def parse_hand(self, raw: object, *, players: Sequence[str], options: O, dealer: str, teams: Teams = ()) -> H:
        """A validated hand, or a :class:`RulesError` with a sentence; ``dealer`` is the rotation's."""

    def hand_json(self, hand: H) -> dict[str, object]:
        """The hand record as stored and exported, derived fields filled in."""

    def dealer_of(self, hand: H) -> str:
        """Who dealt the hand."""

    def settle(self, hand: H, options: O) -> Settlement | TeamScores:
        """Who pays whom (or, for a scored game, what each team scored)."""

    def standing(self, teams: Teams, totals: Mapping[str, int], options: O) -> Mapping[str, Any] | None:
        """For a scored game: each team's total and what it needs next, whether the match is
        over and who won. None for games settled in payments."""

    def first_speaker(self, players: Sequence[str], dealer: str, options: O) -> str:
        """Who speaks (or leads) first when ``dealer`` deals."""

    def sitting_out(self, players: Sequence[str], dealer: str, options: O) -> str | None:
        """Who does not play the hand ``dealer`` deals (five at a four-handed game), if anyone."""

    def next_dealer(self, players: Sequence[str], hand: H, options: O) -> str:
        """Who deals after ``hand``."""

    def contract_json(self, hand: H) -> Mapping[str, object]:
        """What was played, for the answer and the history (the API's ``contract``)."""


class GameModule:
    """What every game's adapter does the same way: its options class reads and writes the
    options, and its hand record knows its dealer and its JSON. A game subclasses this, names
    ``options_class``, and adds the functions that are its own (parse_hand, settle, seats)."""

    options_class: Any  # a class with from_json(raw) and to_json()
    scored = False
    stock_option: str | None = None
    money_option: str | None = None
    pots = False
    loser_field: str | None = None

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

    def seat_teams(self, players: Sequence[str], raw: object, options: Any) -> Teams:
        """Each player for himself; only team games accept ``teams``."""
        if raw is not None:
            raise InvalidInput(Text(N_("This game has no teams; leave teams out.")), field="teams")
        return tuple((name,) for name in players)

    def standing(self, teams: Teams, totals: Mapping[str, int], options: Any) -> Mapping[str, Any] | None:
        return None

    def sitting_out(self, players: Sequence[str], dealer: str, options: Any) -> str | None:
        """Everybody plays every hand; only Quatrilho at five seats someone out."""
        return None
