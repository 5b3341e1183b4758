"""What the patience games share: one player, a result and its figures.

The referee does not play a patience; the player lays it out with real cards and records how it
went. Three patiences are recorded, at two kinds of table:

- the ``relogio`` table (:mod:`referee.rules.relogio`) records **Relógio** and **Relógio Real**:
  a hand says which with ``"game": "relogio"`` (the default when left out) or
  ``"game": "relogio_real"``. The two share the clock layout and a player often alternates
  between them, so they share a table; the API's table ``game`` values stay ``relogio`` and
  ``cachorro``, and the statistics keep them apart by the hand's ``game``;
- the ``cachorro`` table (:mod:`referee.rules.cachorro`) records **Paciência do Cachorro**.

A patience has no opponent and no stake: its :class:`~referee.rules.settle.Settlement` moves
nothing (every delta 0, no carry) and its breakdown says "won" or "lost" and the figures. So a
record has no ``carried_in`` (nothing is ever left on a table) and one with it is refused as an
unknown field. The player's page shows the win rate per patience: :func:`statistics` computes it
(games, wins, win rate, the figures' averages) from parsed hands, purely.

This module's surface: :data:`PATIENCES`, :data:`GAME_LABELS`, :data:`TABLES`,
:class:`PatienceHand` (the base of each table's hand record), :class:`PatienceStats`,
:func:`statistics`, :func:`settle`, :func:`contract_summary`, the record fields and readers
the two game modules build their :class:`~referee.rules.record.RecordSpec` and parser from,
and :func:`patience_game`, which makes each table's :class:`~referee.rules.game.Game`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final, TypeVar

from .errors import InconsistentHand, InvalidInput
from .game import Game, ParseHand
from .kinds import PATIENCE
from .record import Custom, Field, Flag, Player, Record, RecordSpec
from .settle import Line, Settlement
from .text import N_, NP_, Text

OptionsT = TypeVar("OptionsT")
HandT = TypeVar("HandT", bound="PatienceHand")

#: Every patience recorded, in the order the player's page lists them.
PATIENCES: Final = ("relogio", "relogio_real", "cachorro")

#: Display names: proper nouns, the same in every language.
GAME_LABELS: Final = {"relogio": "Relógio", "relogio_real": "Relógio Real", "cachorro": "Paciência do Cachorro"}

#: The figure each patience records beside its result (the key in the record and in the averages).
FIGURES: Final = {"relogio": "king_exchanges", "relogio_real": "sequences", "cachorro": "round"}

#: The patience tables (the API's table ``game``) and the patiences each records, its default first.
TABLES: Final = {"relogio": ("relogio", "relogio_real"), "cachorro": ("cachorro",)}

#: A patience is laid out by one player.
PLAYER_COUNTS: Final = (1,)


# --------------------------------------------------------------------------- the hand


@dataclass(frozen=True, kw_only=True)
class PatienceHand(Record):
    """One patience laid out and recorded: the base of each table's hand record (a subclass
    names its table's :class:`~referee.rules.record.RecordSpec`). Built by a game module's
    ``parse_hand``; built any other way it still checks itself: the dealer is the player, and
    the patience is one its table records (:class:`GameField`).

    ``figure`` is the patience's number (:data:`FIGURES`): the king exchanges used (Relógio, 0
    or 1), the A-K sequences removed (Relógio Real, 0-4) or the round it came out in
    (Cachorro, 1-3; None when it did not come out).
    """

    player: str
    dealer: str
    game: str
    won: bool
    figure: int | None

    @property
    def players(self) -> tuple[str, ...]:
        return (self.player,)

    @property
    def label(self) -> str:
        return GAME_LABELS[self.game]

    def to_json(self) -> dict[str, object]:
        """The record as stored and exported: ``dealer``, ``game``, ``won`` and the figure (the
        Cachorro's ``round`` only when it came out)."""
        out: dict[str, object] = {"dealer": self.dealer, "game": self.game, "won": self.won}
        if self.figure is not None:
            out[FIGURES[self.game]] = self.figure
        return out


# --------------------------------------------------------------------------- the record's fields

#: The sentence for an unknown field, the table's name as ``%(game)s``.
UNKNOWN: Final = N_("A %(game)s record has no field called %(name)s.")

#: The player lays out his own patience: a record may name him as its dealer, nobody else.
DEALER: Final = Player(name="dealer", doc="Only the table's one player.")

_WON: Final = N_("Say whether the patience came out: won is true or false.")


@dataclass(frozen=True, kw_only=True)
class GameField(Field):
    """``game``: one of the patiences the ``table`` records (:data:`TABLES`; its first when
    left out). A name that is not a string is malformed; a patience of another table breaks
    a rule."""

    table: str

    def read(self, value: object, *, players: Sequence[str]) -> str:
        return read_game({"game": value}, table=self.table)

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "enum": list(TABLES[self.table])}

    def check_built(self, value: object, *, players: Sequence[str]) -> None:
        self.read(value, players=players)


def game_field(table: str) -> GameField:
    return GameField(name="game", table=table, doc=f"Default: {TABLES[table][0]}.")


#: ``won`` where the parser reads it in its own place (:func:`read_won`): Relógio requires it,
#: Relógio Real checks it against its sequences.
WON_READ_BY_PARSER: Final = Custom(name="won", json={"type": "boolean"})

#: ``won`` required and read in its place in the record (Paciência do Cachorro).
WON: Final = Flag(name="won", sentence=_WON, required=_WON)


def read_game(values: Mapping[str, Any], *, table: str) -> str:
    """The record's ``game``: one the ``table`` records (:data:`TABLES`; its first when left out)."""
    allowed = TABLES[table]
    game = values.get("game")
    if game is None:
        return allowed[0]
    if not isinstance(game, str):
        raise InvalidInput(Text(N_("The game must be given by its name, such as relogio.")), field="game")
    if game not in allowed:
        raise InconsistentHand(
            Text(
                N_("A %(table)s table records %(allowed)s, not %(game)s."),
                table=table,
                allowed=" or ".join(allowed),
                game=game,
            ),
            field="game",
        )
    return game


def read_won(values: Mapping[str, Any], *, required: bool = True) -> bool | None:
    """``won``: true or false (None when left out and not required)."""
    won = values.get("won")
    if won is None and not required:
        return None
    if not isinstance(won, bool):
        raise InvalidInput(Text(_WON), field="won")
    return won


def read_count(values: Mapping[str, Any], name: str, *, what: Text) -> int | None:
    """A whole number from 0 (true and false count as 1 and 0), or None when left out."""
    value = values.get(name)
    if value is None:
        return None
    if isinstance(value, bool):
        return int(value)
    if not isinstance(value, int) or value < 0:
        raise InvalidInput(Text(N_("%(what)s must be a whole number from 0."), what=what), field=name)
    return value


# --------------------------------------------------------------------------- result


def settle(hand: PatienceHand, options: object = None) -> Settlement:
    """Nothing is paid: a patience has no opponent (and no option changes that). The breakdown
    gives the result and the figure.

    >>> from referee.rules.relogio import RelogioHand
    >>> s = settle(RelogioHand(player="Ana", dealer="Ana", game="relogio_real", won=True, figure=3))
    >>> dict(s.deltas), s.carry, [str(line.text) for line in s.lines]
    ({'Ana': 0}, 0, ['Ana won Relógio Real.', '3 sequences from ace to king removed.'])
    """
    if hand.won:
        result = Text(N_("%(player)s won %(game)s."), player=hand.player, game=hand.label)
    else:
        result = Text(N_("%(player)s lost %(game)s."), player=hand.player, game=hand.label)
    lines = [Line(text=result, amount=0)]
    figure = hand.figure
    if hand.game == "relogio":
        if figure:
            lines.append(Line(text=Text(N_("The king exchange was used.")), amount=0))
        else:
            lines.append(Line(text=Text(N_("The king exchange was not used.")), amount=0))
    elif hand.game == "relogio_real":
        assert figure is not None
        lines.append(
            Line(
                text=Text(
                    *NP_(
                        "%(count)s sequence from ace to king removed.", "%(count)s sequences from ace to king removed."
                    ),
                    count=figure,
                ),
                amount=0,
            )
        )
    elif figure is not None:
        lines.append(Line(text=Text(N_("It came out in round %(round)s of 3."), round=figure), amount=0))
    else:
        lines.append(Line(text=Text(N_("It did not come out within the three deals.")), amount=0))
    return Settlement(players=hand.players, lines=tuple(lines))


def contract_summary(hand: PatienceHand) -> dict[str, object]:
    """What was played, for the answer and the history: the patience, the result, the figure."""
    return {"game": hand.game, "player": hand.player, "won": hand.won, FIGURES[hand.game]: hand.figure}


# --------------------------------------------------------------------------- statistics


@dataclass(frozen=True, kw_only=True)
class PatienceStats:
    """One patience's record over many games.

    ``averages`` maps the figure's name to its mean (a Fraction, exact): the king exchanges per
    game (Relógio: the share of games that used it), the sequences per game (Relógio Real), and
    the round per **won** game (Cachorro: a lost game has no round; absent when none was won).
    ``wins_by_figure`` counts the wins by figure value (the Cachorro's wins per round).
    """

    game: str
    games: int
    wins: int
    averages: Mapping[str, Fraction] = field(default_factory=dict)
    wins_by_figure: Mapping[int, int] = field(default_factory=dict)

    @property
    def losses(self) -> int:
        return self.games - self.wins

    @property
    def win_rate(self) -> Fraction | None:
        """Wins over games; None before the first game."""
        return Fraction(self.wins, self.games) if self.games else None

    def to_json(self) -> dict[str, object]:
        """Counts as integers, the rate and the averages as numbers rounded to 4 decimals."""
        rate = self.win_rate
        return {
            "game": self.game,
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "win_rate": None if rate is None else round(float(rate), 4),
            "averages": {name: round(float(value), 4) for name, value in self.averages.items()},
            "wins_by_figure": {str(k): v for k, v in sorted(self.wins_by_figure.items())},
        }


def statistics(hands: Iterable[PatienceHand]) -> dict[str, PatienceStats]:
    """Per patience: games, wins, win rate and the figures' averages, from parsed hands.

    Pure: the caller passes the hands to count (one player's, not voided). Patiences never
    played are left out; the result is ordered as :data:`PATIENCES`, not by first appearance,
    and the order of the hands never changes it.

    >>> from referee.rules.cachorro import CachorroHand
    >>> hands = [CachorroHand(player="Ana", dealer="Ana", game="cachorro", won=w, figure=r) for w, r in [(True, 2), (False, None), (True, 3)]]
    >>> s = statistics(hands)["cachorro"]
    >>> s.games, s.wins, s.win_rate, s.averages["round"], dict(s.wins_by_figure)
    (3, 2, Fraction(2, 3), Fraction(5, 2), {2: 1, 3: 1})
    """
    games: dict[str, int] = {}
    wins: dict[str, int] = {}
    totals: dict[str, int] = {}
    counted: dict[str, int] = {}
    by_figure: dict[str, dict[int, int]] = {}
    for hand in hands:
        game = hand.game
        games[game] = games.get(game, 0) + 1
        wins[game] = wins.get(game, 0) + hand.won
        if hand.figure is not None:
            totals[game] = totals.get(game, 0) + hand.figure
            counted[game] = counted.get(game, 0) + 1
            if hand.won:
                per = by_figure.setdefault(game, {})
                per[hand.figure] = per.get(hand.figure, 0) + 1
    out: dict[str, PatienceStats] = {}
    for game in PATIENCES:
        if game not in games:
            continue
        averages = {FIGURES[game]: Fraction(totals[game], counted[game])} if counted.get(game) else {}
        out[game] = PatienceStats(
            game=game,
            games=games[game],
            wins=wins[game],
            averages=averages,
            wins_by_figure=dict(sorted(by_figure.get(game, {}).items())),
        )
    return out


# --------------------------------------------------------------------------- the game


def first_speaker(players: Sequence[str], dealer: str, options: object = None) -> str:
    """The one player plays."""
    return players[0]


def next_dealer(players: Sequence[str], hand: PatienceHand, options: object = None) -> str:
    """The one player lays out the next patience too."""
    return hand.player


def patience_game(
    *,
    slug: str,
    name: str,
    options_class: type[OptionsT],
    record: RecordSpec,
    parse: ParseHand[OptionsT, HandT],
    goal_option: str | None = None,
) -> Game[OptionsT, HandT]:
    """A patience table's :class:`~referee.rules.game.Game`: what both tables share (one seat,
    nothing paid, the player always "deals") around its own options, record and parser."""
    return Game[OptionsT, HandT](
        slug=slug,
        name=name,
        options_class=options_class,
        record=record,
        parse=parse,
        settle=settle,
        first_speaker=first_speaker,
        next_dealer=next_dealer,
        contract_json=contract_summary,
        kind=PATIENCE,
        goal_option=goal_option,
    )
