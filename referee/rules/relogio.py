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
:class:`RelogioOptions`, :func:`parse_hand` (to a :class:`~referee.rules.patience.PatienceHand`)
and :data:`RULES`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from . import patience
from .errors import InconsistentHand, InvalidInput
from .game import Teams
from .options import OptionSet, OptionSpec
from .patience import PatienceHand
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

    king_exchange: bool = True
    sequences_to_win: int = 3

    specs = OPTIONS


_RECORD_FIELDS: Final = frozenset({"dealer", "game", "won", "king_exchanges", "sequences"})


def parse_hand(raw: object, *, players: Sequence[str], options: RelogioOptions) -> PatienceHand:
    """Validate a Relógio or Relógio Real record, or raise a
    :class:`~referee.rules.errors.RulesError` whose sentence names the problem and whose field
    points at it.

    >>> parse_hand({"game": "relogio_real", "sequences": 3}, players=("Ana",), options=RelogioOptions()).won
    True
    >>> parse_hand({"won": True, "king_exchanges": 2}, players=("Ana",), options=RelogioOptions())
    Traceback (most recent call last):
    ...
    referee.rules.errors.InconsistentHand: A King may be exchanged only once in a game of Relógio, not 2 times.
    """
    raw, player = patience.read_record(raw, fields=_RECORD_FIELDS, players=players, table_game=NAME)
    game = patience.read_game(raw, allowed=("relogio", "relogio_real"), table_game=SLUG)
    exchanges = patience.read_count(raw, "king_exchanges", what=Text(N_("The number of King exchanges")))
    sequences = patience.read_count(raw, "sequences", what=Text(N_("The number of sequences removed")))
    if game == "relogio":
        won = patience.read_won(raw)
        assert won is not None
        if sequences is not None:
            raise InconsistentHand(
                Text(N_("Only Relógio Real counts the sequences removed; leave sequences out for Relógio.")),
                field="sequences",
            )
        exchanges = exchanges or 0
        if exchanges > 1:
            raise InconsistentHand(
                Text(
                    N_("A King may be exchanged only once in a game of Relógio, not %(count)s times."), count=exchanges
                ),
                field="king_exchanges",
            )
        if exchanges and not options.king_exchange:
            raise InconsistentHand(
                Text(N_("This table plays Relógio without the King exchange, so it cannot have been used.")),
                field="king_exchanges",
            )
        return PatienceHand(player=player, game=game, won=won, figure=exchanges)
    if exchanges:
        raise InconsistentHand(
            Text(N_("Relógio Real has no King exchange: its cards are dealt face up.")),
            field="king_exchanges",
        )
    if sequences is None:
        raise InvalidInput(
            Text(N_("Give the number of sequences from Ace to King removed, from 0 to %(max)s."), max=MAX_SEQUENCES),
            field="sequences",
        )
    if sequences > MAX_SEQUENCES:
        raise InconsistentHand(
            Text(
                N_("52 cards hold at most %(max)s sequences from Ace to King, not %(count)s."),
                max=MAX_SEQUENCES,
                count=sequences,
            ),
            field="sequences",
        )
    should_win = sequences >= options.sequences_to_win
    won = patience.read_won(raw, required=False)
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
    return PatienceHand(player=player, game=game, won=should_win, figure=sequences)


class RelogioRules(patience.PatienceRules):
    """Relógio and Relógio Real behind the :class:`~referee.rules.game.GameRules` surface."""

    slug = SLUG
    name = NAME
    option_specs = OPTIONS
    options_class = RelogioOptions

    def parse_hand(
        self, raw: object, *, players: Sequence[str], options: RelogioOptions, dealer: str, teams: Teams = ()
    ) -> PatienceHand:
        return parse_hand(raw, players=players, options=options)


RULES: Final = RelogioRules()
