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

This module's surface: :data:`PATIENCES`, :data:`GAME_LABELS`, :class:`PatienceHand`,
:class:`PatienceStats`, :func:`statistics`, :func:`settle`, :func:`contract_summary`, the record
helpers the two game modules use, and :class:`PatienceRules`, the base of their ``RULES``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from . import seats
from .errors import InconsistentHand, InvalidInput, reject_unknown_fields
from .game import GameModule
from .settle import Line, Settlement
from .text import N_, NP_, Text

#: Every patience recorded, in the order the player's page lists them.
PATIENCES: Final = ("relogio", "relogio_real", "cachorro")

#: Display names: proper nouns, the same in every language.
GAME_LABELS: Final = {"relogio": "Relógio", "relogio_real": "Relógio Real", "cachorro": "Paciência do Cachorro"}

#: The figure each patience records beside its result (the key in the record and in the averages).
FIGURES: Final = {"relogio": "king_exchanges", "relogio_real": "sequences", "cachorro": "round"}


# --------------------------------------------------------------------------- the hand


@dataclass(frozen=True, kw_only=True)
class PatienceHand:
    """One patience laid out and recorded. Built by a game module's ``parse_hand``.

    ``figure`` is the patience's number (:data:`FIGURES`): the king exchanges used (Relógio, 0
    or 1), the A-K sequences removed (Relógio Real, 0-4) or the round it came out in
    (Cachorro, 1-3; None when it did not come out).
    """

    player: str
    game: str
    won: bool
    figure: int | None

    def __post_init__(self) -> None:
        if self.game not in PATIENCES:
            raise ValueError(f"unknown patience {self.game!r}")

    @property
    def players(self) -> tuple[str, ...]:
        return (self.player,)

    @property
    def dealer(self) -> str:
        """The player lays out his own patience."""
        return self.player

    @property
    def label(self) -> str:
        return GAME_LABELS[self.game]

    def to_json(self) -> dict[str, object]:
        """The record as stored and exported: ``dealer``, ``game``, ``won`` and the figure (the
        Cachorro's ``round`` only when it came out)."""
        out: dict[str, object] = {"dealer": self.player, "game": self.game, "won": self.won}
        if self.figure is not None:
            out[FIGURES[self.game]] = self.figure
        return out


# --------------------------------------------------------------------------- record helpers


def check_table(players: Sequence[str], game: str) -> str:
    """The one player of a patience table, or the sentence that says a patience has one."""
    if len(players) != 1:
        raise InvalidInput(
            Text(N_("%(game)s is a patience for one player; this table has %(count)s."), game=game, count=len(players)),
            field="players",
        )
    return players[0]


def read_record(
    raw: object, *, fields: frozenset[str], players: Sequence[str], table_game: str
) -> tuple[Mapping[str, Any], str]:
    """The record as a mapping with only known fields, and its player (``dealer``, if given,
    must be him)."""
    if not isinstance(raw, Mapping):
        raise InvalidInput(Text(N_("A hand must be a JSON object.")))
    reject_unknown_fields(raw, fields, N_("A %(game)s record has no field called %(name)s."), game=table_game)
    player = check_table(players, table_game)
    if raw.get("dealer") is not None:
        seats.require_player(players, raw["dealer"], field="dealer")
    return raw, player


def read_game(raw: Mapping[str, Any], *, allowed: Sequence[str], table_game: str) -> str:
    """The record's ``game`` (the first of ``allowed`` when left out)."""
    game = raw.get("game")
    if game is None:
        return allowed[0]
    if not isinstance(game, str):
        raise InvalidInput(Text(N_("The game must be given by its name, such as relogio.")), field="game")
    if game not in allowed:
        raise InconsistentHand(
            Text(
                N_("A %(table)s table records %(allowed)s, not %(game)s."),
                table=table_game,
                allowed=" or ".join(allowed),
                game=game,
            ),
            field="game",
        )
    return game


def read_won(raw: Mapping[str, Any], *, required: bool = True) -> bool | None:
    """``won``: true or false (None when left out and not required)."""
    won = raw.get("won")
    if won is None and not required:
        return None
    if not isinstance(won, bool):
        raise InvalidInput(Text(N_("Say whether the patience came out: won is true or false.")), field="won")
    return won


def read_count(raw: Mapping[str, Any], name: str, *, what: Text) -> int | None:
    """A whole number from 0 (true and false count as 1 and 0), or None when left out."""
    value = raw.get(name)
    if value is None:
        return None
    if isinstance(value, bool):
        return int(value)
    if not isinstance(value, int) or value < 0:
        raise InvalidInput(Text(N_("%(what)s must be a whole number from 0."), what=what), field=name)
    return value


# --------------------------------------------------------------------------- result


def settle(hand: PatienceHand) -> Settlement:
    """Nothing is paid: a patience has no opponent. The breakdown gives the result and the figure.

    >>> s = settle(PatienceHand(player="Ana", game="relogio_real", won=True, figure=3))
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

    >>> hands = [PatienceHand(player="Ana", game="cachorro", won=w, figure=r) for w, r in [(True, 2), (False, None), (True, 3)]]
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


# --------------------------------------------------------------------------- the GameRules base


class PatienceRules(GameModule):
    """The part of ``RULES`` both patience tables share: one seat, no payments, the player
    always "deals". Subclasses give ``slug``, ``name``, options and ``parse_hand``."""

    min_players = 1
    max_players = 1

    def settle(self, hand: PatienceHand, options: Any) -> Settlement:
        return settle(hand)

    def first_speaker(self, players: Sequence[str], dealer: str, options: Any) -> str:
        return players[0]

    def next_dealer(self, players: Sequence[str], hand: PatienceHand, options: Any) -> str:
        return hand.player

    def contract_json(self, hand: PatienceHand) -> Mapping[str, object]:
        return contract_summary(hand)
