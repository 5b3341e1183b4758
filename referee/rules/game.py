"""One :class:`Game` per game: everything the rest of the app may know about it.

Each rules module ends with ``GAME = Game(...)``: its slug and name, the table sizes, its
options class, its hand record (:class:`~referee.rules.record.RecordSpec`), and the same few
functions with one signature for every game (parse a hand, settle it, who speaks first, who
deals next, who sits out, the teams, the standing of a scored match). The registry in
:mod:`referee.rules` lists the ``GAME`` of every module; nothing outside a game's own modules
asks more of it than this. A game states only what is its own: the defaults below are what most
games do (each player for himself, nobody sits out, settled in payments, no standing).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from . import seats
from .errors import InvalidInput
from .kinds import PAYMENTS, Kind
from .options import OptionSpec, OptionValue
from .record import RecordSpec, read_by_parser
from .scores import TeamScores
from .settle import Settlement
from .text import N_, Text

Teams = tuple[tuple[str, ...], ...]

O = TypeVar("O")
H = TypeVar("H")
O_contra = TypeVar("O_contra", contravariant=True)
H_co = TypeVar("H_co", covariant=True)


class Options(Protocol):
    """What a game's options class offers: read from the API's JSON, written back whole."""

    def to_json(self) -> dict[str, OptionValue]: ...


class HandRecord(Protocol):
    """What every hand record offers: who dealt it, and its JSON as stored and exported."""

    @property
    def dealer(self) -> str: ...

    def to_json(self) -> dict[str, object]: ...


class ParseHand(Protocol[O_contra, H_co]):
    def __call__(
        self, raw: object, *, players: Sequence[str], options: O_contra, dealer: str, teams: Teams = ()
    ) -> H_co: ...


def each_for_himself(players: Sequence[str], raw: object, options: object) -> Teams:
    """Each player for himself; only a partnership game accepts ``teams``."""
    if raw is not None:
        raise InvalidInput(Text(N_("This game has no teams; leave teams out.")), field="teams")
    return tuple((name,) for name in players)


def nobody_sits_out(players: Sequence[str], dealer: str, options: object) -> str | None:
    """Everybody plays every hand."""
    return None


def player_after_dealer(players: Sequence[str], dealer: str, options: object = None) -> str:
    """The player after the dealer (the next in order of play, whichever way the game goes
    round) speaks, bets or leads first."""
    return seats.after(players, dealer)


def deal_passes_on(players: Sequence[str], hand: Any, options: object = None) -> str:
    """The deal passes to the player after this hand's dealer, whatever was played (order of
    play is the list order, whichever way the game goes round)."""
    return seats.after(players, hand.dealer)


def fields_json(hand: Any) -> Mapping[str, object]:
    """What was played, as the API's answer and the history show it: the record's fields but
    the dealer, every key present (see :meth:`~referee.rules.record.Record.fields_json`)."""
    result: Mapping[str, object] = hand.fields_json()
    return result


def no_standing(teams: Teams, totals: Mapping[str, int], options: object) -> Mapping[str, Any] | None:
    """A game settled in payments has no match standing."""
    return None


@dataclass(frozen=True, kw_only=True)
class Game(Generic[O, H]):
    """A game, as the ledger, the API, the league and the pages see it.

    :meth:`parse_hand` gives a validated hand record or raises a
    :class:`~referee.rules.errors.RulesError` with a sentence (``dealer`` is the rotation's);
    ``settle`` says who pays whom (a scored game: what each team scored); ``standing`` gives a
    scored match's totals, what each team needs next and whether it is over.
    """

    slug: str
    name: str
    options_class: Any  # a class with from_json(raw), to_json() and ``specs``
    record: RecordSpec
    #: The game's parser (its module's ``parse_hand``, or its hand class' plain
    #: :meth:`~referee.rules.record.Record.parsed`); the app calls :meth:`parse_hand`.
    parse: ParseHand[O, H]
    settle: Callable[[H, O], Settlement | TeamScores]
    # What most games do the same way; a game names its own only where it differs.
    first_speaker: Callable[[Sequence[str], str, O], str] = player_after_dealer
    next_dealer: Callable[[Sequence[str], H, O], str] = deal_passes_on
    contract_json: Callable[[H], Mapping[str, object]] = fields_json
    sitting_out: Callable[[Sequence[str], str, O], str | None] = nobody_sits_out
    seat_teams: Callable[[Sequence[str], object, O], Teams] = each_for_himself
    standing: Callable[[Teams, Mapping[str, int], O], Mapping[str, Any] | None] = no_standing
    #: The game's kind (:mod:`.kinds`): what the shared pages, the league, the ratings and a
    #: night's settle-up do with it. A match (Samba): a hand gives each team a score and the
    #: table shows the match, not who pays whom; a pot game's record takes ``carried_in``,
    #: which the ledger fills in from the table.
    kind: Kind = PAYMENTS
    #: The options holding each player's starting stock (chips, talha) and the money one unit
    #: is worth, for games that have them (the ledger reports the stock apart and shows money).
    stock_option: str | None = None
    money_option: str | None = None
    #: The option holding what each player puts in before every deal (Injun's and Lift Smoke's
    #: ante, Kentucky Derby's pingo), for games that ante: a player with less is out of chips.
    ante_option: str | None = None
    #: The record's field naming the hand's loser, for games whose players are ranked by how
    #: often they lost (El Gato, where the stake is often 0); None for the others.
    loser_field: str | None = None
    #: The option holding what wins (Samba's ``target``, Relógio's ``sequences_to_win``), for
    #: games that have one: the pages say it next to the score.
    goal_option: str | None = None
    #: The way the game goes round a real table: to each player's ``"left"`` (clockwise, seen
    #: from above: Samba, Injun, Kentucky Derby, Lift Smoke, El Gato) or ``"right"``
    #: (counter-clockwise: Jubileu, Quatrilho's standard rules). Order of play is the list order
    #: whatever the direction; the new-table form draws the seats this way so the names are
    #: written in the order the players actually sit.
    passes_to: str = "left"

    def __post_init__(self) -> None:
        """Refuse, at import, a declaration its kind contradicts: the pages and the league would
        otherwise treat a one-player game as a table to settle, or rank by a loss nobody records."""
        if self.kind.solo != (self.max_players == 1):
            raise ValueError(f"{self.slug}: a solo kind is exactly a game of one player")
        if self.kind.counts_losses != (self.loser_field is not None):
            raise ValueError(f"{self.slug}: a game ranked by losses names its record's loser field")

    @property
    def scored(self) -> bool:
        """Scored in points toward a target (the rules' own tests read it; the app asks the kind)."""
        return self.kind.points_match

    @property
    def pots(self) -> bool:
        """A pot can stay on the table (the rules' own tests read it; the app asks the kind)."""
        return self.kind.carries_pot

    def ante(self, options: O) -> int:
        """What each player puts in before every deal under ``options`` (0 for games without)."""
        return int(getattr(options, self.ante_option)) if self.ante_option else 0

    @property
    def keeps_stock(self) -> bool:
        """Whether each player starts with a stock of chips (the games a championship is played at)."""
        return self.stock_option is not None

    @property
    def stock_and_money(self) -> tuple[str, ...]:
        """The options a championship sets itself: the stock it hands out, and a chip's value."""
        return tuple(name for name in (self.stock_option, self.money_option) if name)

    def with_stock(self, raw: Mapping[str, object], stack: int) -> dict[str, object]:
        """``raw`` options with every player's starting stock set to ``stack``."""
        if self.stock_option is None:
            raise ValueError(f"{self.name} keeps no stock")
        return {**raw, self.stock_option: stack}

    def without_money(self, raw: Mapping[str, object]) -> dict[str, object]:
        """``raw`` options with a chip worth nothing (for the games whose chip has a value)."""
        return {**raw, self.money_option: "0"} if self.money_option else dict(raw)

    def ante_in(self, raw: Mapping[str, object]) -> object:
        """The ante stored options name (None for a game that does not ante)."""
        return raw.get(self.ante_option) if self.ante_option else None

    def stock_in(self, raw: Mapping[str, object]) -> object:
        """Each player's starting stock stored options name (0 for a game that keeps none)."""
        return raw.get(self.stock_option, 0) if self.stock_option else 0

    def chip_value_in(self, raw: Mapping[str, object]) -> object:
        """The money a chip is worth under stored options ("0" for a game played for chips only)."""
        return raw.get(self.money_option, "0") if self.money_option else "0"

    def goal(self, options: O) -> int | None:
        """What wins under ``options`` (a match's target, a patience's sequences), or None."""
        return int(getattr(options, self.goal_option)) if self.goal_option else None

    def loser_in(self, record: Mapping[str, object]) -> object:
        """The loser a stored hand record names, for a game ranked by losses (None otherwise)."""
        return record.get(self.loser_field) if self.loser_field else None

    @property
    def player_counts(self) -> tuple[int, ...]:
        return self.record.player_counts

    @property
    def min_players(self) -> int:
        return self.record.player_counts[0]

    @property
    def max_players(self) -> int:
        return self.record.player_counts[-1]

    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        specs: tuple[OptionSpec, ...] = self.options_class.specs
        return specs

    def check_table(self, players: Sequence[str]) -> None:
        """Refuse a table of a size the game is not played at."""
        self.record.check_table(players)

    def parse_hand(self, raw: object, *, players: Sequence[str], options: O, dealer: str, teams: Teams = ()) -> H:
        """A validated hand, or a :class:`~referee.rules.errors.RulesError` with a sentence.
        The parser checks every field as it reads it, so the records it builds here skip their
        field checks (:func:`read_by_parser`), which would repeat that work on every hand the app
        records; the records' own invariants still run."""
        return read_by_parser(self.parse, raw, players=players, options=options, dealer=dealer, teams=teams)

    def parse_options(self, raw: object) -> O:
        """Options as posted, defaults filled in; :class:`InvalidInput` for unknown names or values."""
        options: O = self.options_class.from_json(raw)
        return options

    def options_json(self, options: O) -> dict[str, OptionValue]:
        result: dict[str, OptionValue] = options.to_json()  # type: ignore[attr-defined]
        return result

    def hand_json(self, hand: H) -> dict[str, object]:
        """The hand record as stored and exported, derived fields filled in."""
        result: dict[str, object] = hand.to_json()  # type: ignore[attr-defined]
        return result

    def dealer_of(self, hand: H) -> str:
        return str(hand.dealer)  # type: ignore[attr-defined]
