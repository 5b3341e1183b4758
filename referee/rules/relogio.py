"""Relógio and Relógio Real: the options, the hand record and its checks.

One player, 52 cards in 13 piles of 4 laid out as a clock. In **Relógio** the piles are face
down and the player wins only if every card is turned before the fourth King appears; once in a
game he may exchange a King for a card still face down. In **Relógio Real** the piles are face
up and he wins by removing three sequences from Ace to King.

Both are recorded at the ``relogio`` table; the hand's ``game`` says which (see
:mod:`referee.rules.patience`)::

    {"game": "relogio", "won": false, "king_exchanges": 1}
    {"game": "relogio_real", "won": true, "sequences": 3}

- ``game``: ``"relogio"`` (the default when left out) or ``"relogio_real"``.
- ``won``: true or false. Required for Relógio; for Relógio Real it may be left out (the
  sequences decide it) and, when given, must agree with them.
- ``king_exchanges`` (Relógio only): how many times a King was exchanged, 0 (the default) or 1;
  ``true``/``false`` are read as 1/0. More than once is refused, and so is any
  use when the table's ``king_exchange`` option is off. Relógio Real has no exchange (its cards
  are all face up), so it may only say 0.
- ``sequences`` (Relógio Real only, required): the A-K sequences removed, 0 to 4; the
  game is won iff at least ``sequences_to_win`` (default 3) were removed.
- ``dealer``: optional; it can only be the table's one player.

Nothing is paid (:func:`referee.rules.patience.settle`). Surface: :data:`SLUG`, :data:`OPTIONS`,
:class:`RelogioOptions`, :data:`RECORD` (the record's fields) and :func:`parse_hand` (to a
:class:`RelogioHand`), and :data:`GAME`, the table's game as the rest of the app sees it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from . import patience
from .errors import InconsistentHand, InvalidInput
from .game import Teams
from .options import OptionSet, OptionSpec, from_spec
from .patience import PatienceHand
from .record import Custom, RecordSpec
from .text import N_, Text

SLUG: Final = "relogio"
NAME: Final = "Relógio"

#: 52 cards make at most four sequences from Ace to King.
MAX_SEQUENCES: Final = 4

OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(
        name="king_exchange",
        kind="bool",
        default=True,
        label=Text(N_("King exchange allowed (Relógio)")),
        help=Text(N_("Once in a game, a King may be swapped for a card still face down.")),
        rule_ref="docs/rules.md#relogio-options",
    ),
    OptionSpec(
        name="sequences_to_win",
        kind="int",
        default=3,
        minimum=1,
        maximum=MAX_SEQUENCES,
        label=Text(N_("Sequences to win (Relógio Real)")),
        help=Text(N_("Removing this many sequences from Ace to King, or more, wins the game.")),
        rule_ref="docs/rules.md#relogio-options",
    ),
)


@dataclass(frozen=True, kw_only=True)
class RelogioOptions(OptionSet):
    """The house rules of a clock table; the defaults are the readings Referee chose where the rule text is open.

    >>> RelogioOptions.from_json({"sequences_to_win": 4}).to_json()
    {'king_exchange': True, 'sequences_to_win': 4}
    """

    king_exchange: bool = from_spec()
    sequences_to_win: int = from_spec()

    specs = OPTIONS


# --------------------------------------------------------------------------- the hand record

RECORD: Final = RecordSpec(
    game=NAME,
    unknown=patience.UNKNOWN,
    player_counts=patience.PLAYER_COUNTS,
    doc="One patience at a relogio table (see /games/relogio): Relógio or Relógio Real. Nothing is paid. "
    "Relógio Real's result follows from its sequences (won may be left out).",
    fields=(
        patience.DEALER,
        patience.game_field(SLUG),
        Custom(
            name="king_exchanges",
            json={"type": ["integer", "boolean"], "minimum": 0, "maximum": 1},
            doc="Relógio only: the King exchange was used (1) or not (0, the default); at most once.",
        ),
        Custom(
            name="sequences",
            json={"type": "integer", "minimum": 0, "maximum": MAX_SEQUENCES},
            doc="Relógio Real only, required there: the sequences from Ace to King removed; "
            "won with at least the table's sequences_to_win (default 3).",
        ),
        patience.WON_READ_BY_PARSER,
    ),
    schema_extra={"anyOf": [{"required": ["won"]}, {"required": ["sequences"]}]},
    example={"dealer": "Ana", "game": "relogio_real", "won": True, "sequences": 3},
    example_players=("Ana",),
)


def exchanges_at_most_once(count: int | None) -> int:
    """Relógio's King exchanges: 0 when not given, and once at most."""
    count = count or 0
    if count > 1:
        raise InconsistentHand(
            Text(N_("A King may be exchanged only once in a game of Relógio, not %(count)s times."), count=count),
            field="king_exchanges",
        )
    return count


def sequences_in_a_pack(count: int | None) -> int:
    """Relógio Real's sequences removed: required, and no more than 52 cards hold."""
    if count is None:
        raise InvalidInput(
            Text(N_("Give the number of sequences from Ace to King removed, from 0 to %(max)s."), max=MAX_SEQUENCES),
            field="sequences",
        )
    if count > MAX_SEQUENCES:
        raise InconsistentHand(
            Text(
                N_("52 cards hold at most %(max)s sequences from Ace to King, not %(count)s."),
                max=MAX_SEQUENCES,
                count=count,
            ),
            field="sequences",
        )
    return count


@dataclass(frozen=True, kw_only=True)
class RelogioHand(PatienceHand):
    """A game of Relógio or Relógio Real. Build it with :func:`parse_hand`; built any other way
    it still checks itself: Relógio's exchanges once at most, Relógio Real's sequences given and
    no more than a pack holds (its settlement counts them)."""

    spec: ClassVar[RecordSpec] = RECORD

    def check(self) -> None:
        super().check()
        if self.game == "relogio":
            exchanges_at_most_once(self.figure)
        else:
            sequences_in_a_pack(self.figure)


def parse_hand(
    raw: object, *, players: Sequence[str], options: RelogioOptions, dealer: str, teams: Teams = ()
) -> RelogioHand:
    """Validate a Relógio or Relógio Real record, or raise a
    :class:`~referee.rules.errors.RulesError` whose sentence names the problem and whose field
    points at it. The record's shape is :data:`RECORD`'s (one player, no unknown field, the
    dealer the player, ``won`` true or false); ``dealer`` (the rotation's) is the player too.

    >>> parse_hand({"game": "relogio_real", "sequences": 3}, players=("Ana",), options=RelogioOptions(), dealer="Ana").won
    True
    >>> parse_hand({"won": True, "king_exchanges": 2}, players=("Ana",), options=RelogioOptions(), dealer="Ana")
    Traceback (most recent call last):
    ...
    referee.rules.errors.InconsistentHand: A King may be exchanged only once in a game of Relógio, not 2 times.
    """
    values = RECORD.read(raw, players=players)
    player = players[0]
    game = patience.read_game(values, table=SLUG)  # the default when left out
    exchanges = patience.read_count(values, "king_exchanges", what=Text(N_("The number of King exchanges")))
    sequences = patience.read_count(values, "sequences", what=Text(N_("The number of sequences removed")))
    if game == "relogio":
        won, figure = _relogio(values, exchanges, sequences, options)
    else:
        won, figure = _relogio_real(values, exchanges, sequences, options)
    return RelogioHand(player=player, dealer=player, game=game, won=won, figure=figure)


def _relogio(
    values: Mapping[str, Any], exchanges: int | None, sequences: int | None, options: RelogioOptions
) -> tuple[bool, int]:
    """Relógio's result and King exchanges: no sequences, the exchange once at most and only
    at a table that allows it."""
    won = patience.read_won(values)
    assert won is not None
    if sequences is not None:
        raise InconsistentHand(
            Text(N_("Only Relógio Real counts the sequences removed; leave sequences out for Relógio.")),
            field="sequences",
        )
    exchanges = exchanges_at_most_once(exchanges)
    if exchanges and not options.king_exchange:
        raise InconsistentHand(
            Text(N_("This table plays Relógio without the King exchange, so it cannot have been used.")),
            field="king_exchanges",
        )
    return won, exchanges


def _relogio_real(
    values: Mapping[str, Any], exchanges: int | None, sequences: int | None, options: RelogioOptions
) -> tuple[bool, int]:
    """Relógio Real's result and sequences: no King exchange, the sequences given, and ``won``
    (when given) what the sequences say under the table's ``sequences_to_win``."""
    if exchanges:
        raise InconsistentHand(
            Text(N_("Relógio Real has no King exchange: its cards are dealt face up.")),
            field="king_exchanges",
        )
    sequences = sequences_in_a_pack(sequences)
    should_win = sequences >= options.sequences_to_win
    won = patience.read_won(values, required=False)
    if won is not None and won != should_win:
        if won:
            sentence = Text(
                N_("Relógio Real is won with %(need)s sequences removed; %(count)s is not enough."),
                need=options.sequences_to_win,
                count=sequences,
            )
        else:
            sentence = Text(
                N_("With %(count)s sequences removed Relógio Real is won (%(need)s are enough), not lost."),
                need=options.sequences_to_win,
                count=sequences,
            )
        raise InconsistentHand(sentence, field="won")
    return should_win, sequences


GAME: Final = patience.patience_game(
    slug=SLUG, name=NAME, options_class=RelogioOptions, record=RECORD, parse=parse_hand, goal_option="sequences_to_win"
)
