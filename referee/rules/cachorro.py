"""Paciência do Cachorro: the options, the hand record and its checks.

One player, two 52-card packs. The eight Kings start the foundation piles, built down in suit to
the Aces; the other 96 cards are laid out in packets (pacotes), a kennel (canil) and the dog's
pile (monte do cachorro). When the dog's pile is used up without the patience coming out, the
packets and the kennel are gathered without shuffling and laid out again: there are three deals
(rounds) in all, and a patience that has not come out after the third is lost.

The record, at the ``cachorro`` table (see :mod:`referee.rules.patience`)::

    {"game": "cachorro", "won": true, "round": 2}

- ``game``: optional; only ``"cachorro"``.
- ``won``: true or false, required.
- ``round``: the deal in which it came out, 1, 2 or 3, required when won; a lost game did not
  come out in any round, so it has none (there is no fourth deal to lose in either).
- ``dealer``: optional; it can only be the table's one player.

Nothing is paid (:func:`referee.rules.patience.settle`). The layout of each deal
(:func:`deal_layout`) is the reading Referee chose; it does not change the result, but the page
can show it as a reminder. Surface: :data:`SLUG`, :data:`OPTIONS`, :class:`CachorroOptions`,
:class:`Layout`, :func:`deal_layout`, :data:`RECORD` (the record's fields) and
:func:`parse_hand` (to a :class:`CachorroHand`), and :data:`GAME`, the table's game as the rest
of the app sees it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from . import patience
from .errors import InconsistentHand, InvalidInput
from .game import Teams
from .options import OptionSet, OptionSpec, from_spec
from .patience import PatienceHand
from .record import Custom, RecordSpec
from .text import N_, Text

SLUG: Final = "cachorro"
NAME: Final = "Paciência do Cachorro"

#: Deals in a game: "depois desta terceira rodada ... perde-se o jogo".
ROUNDS: Final = 3
#: Two packs less the eight Kings laid out as foundations.
CARDS_DEALT: Final = 2 * 52 - 8
#: The kennel of the first deal: "o retângulo inferior de dezoito cartas".
FIRST_KENNEL: Final = 18

OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(
        name="second_deal_packets",
        kind="int",
        default=11,
        minimum=11,
        maximum=12,
        label=Text(N_("Packets in the second deal")),
        help=Text(N_("The rule text says twelve, its figure shows eleven. The result does not depend on it.")),
        rule_ref="docs/rules.md#cachorro-options",
    ),
)


@dataclass(frozen=True, kw_only=True)
class CachorroOptions(OptionSet):
    """The house rules of a Cachorro table; the default is the reading Referee chose where the rule text is open.

    >>> CachorroOptions.from_json({}).to_json()
    {'second_deal_packets': 11}
    """

    second_deal_packets: int = from_spec()

    specs = OPTIONS


@dataclass(frozen=True, kw_only=True)
class Layout:
    """How one deal is laid out: the packets counted 1..``packets`` and the kennel's columns."""

    round: int
    packets: int
    kennel_column: int


def deal_layout(round_number: int, options: CachorroOptions = CachorroOptions()) -> Layout:
    """The packets and the kennel column of a deal: 12 packets and columns of 3, then
    11 (or 12 under ``second_deal_packets=12``) and columns of 4, then 10 and columns of 5.

    >>> [(l.packets, l.kennel_column) for l in map(deal_layout, (1, 2, 3))]
    [(12, 3), (11, 4), (10, 5)]
    >>> deal_layout(2, CachorroOptions(second_deal_packets=12)).packets
    12
    """
    if not 1 <= round_number <= ROUNDS:
        raise ValueError(f"there is no deal {round_number}")
    packets = {1: 12, 2: options.second_deal_packets, 3: 10}[round_number]
    return Layout(round=round_number, packets=packets, kennel_column=round_number + 2)


# --------------------------------------------------------------------------- the hand record

RECORD: Final = RecordSpec(
    game=NAME,
    unknown=patience.UNKNOWN,
    player_counts=patience.PLAYER_COUNTS,
    doc="One Paciência do Cachorro at a cachorro table (see /games/cachorro). Nothing is paid.",
    fields=(
        patience.DEALER,
        patience.game_field(SLUG),
        patience.WON,
        Custom(
            name="round",
            json={"type": "integer", "minimum": 1, "maximum": ROUNDS},
            doc="The deal it came out in; required when won, absent when lost.",
        ),
    ),
    example={"dealer": "Ana", "game": "cachorro", "won": True, "round": 2},
    example_players=("Ana",),
)


@dataclass(frozen=True, kw_only=True)
class CachorroHand(PatienceHand):
    """A game of Paciência do Cachorro. Build it with :func:`parse_hand`; built any other way it
    still checks itself: a won game came out in round 1, 2 or 3, a lost one in none."""

    spec: ClassVar[RecordSpec] = RECORD

    def check(self) -> None:
        super().check()
        if self.figure is None:
            if self.won:
                raise InvalidInput(Text(N_("Give the round it came out in: 1, 2 or 3.")), field="round")
            return
        if self.figure > ROUNDS:
            raise InconsistentHand(
                Text(N_("There is no fourth deal: the patience comes out in round 1, 2 or 3, or it is lost.")),
                field="round",
            )
        if self.figure < 1:
            raise InconsistentHand(
                Text(N_("Rounds are counted from 1: the patience comes out in round 1, 2 or 3.")), field="round"
            )
        if not self.won:
            raise InconsistentHand(
                Text(N_("A lost patience did not come out in any round; leave round out.")),
                field="round",
            )


def parse_hand(
    raw: object, *, players: Sequence[str], options: CachorroOptions, dealer: str, teams: Teams = ()
) -> CachorroHand:
    """Validate a Paciência do Cachorro record, or raise a
    :class:`~referee.rules.errors.RulesError` whose sentence names the problem and whose field
    points at it. The record's shape is :data:`RECORD`'s (one player, no unknown field, the
    dealer the player, ``won`` true or false); the round, a whole number, is checked by
    :class:`CachorroHand` itself (its rules hold however a hand is built).

    >>> parse_hand({"won": True, "round": 2}, players=("Ana",), options=CachorroOptions(), dealer="Ana").figure
    2
    >>> parse_hand({"won": True, "round": 4}, players=("Ana",), options=CachorroOptions(), dealer="Ana")
    Traceback (most recent call last):
    ...
    referee.rules.errors.InconsistentHand: There is no fourth deal: the patience comes out in round 1, 2 or 3, or it is lost.
    """
    values = RECORD.read(raw, players=players)
    player = players[0]
    game = patience.read_game(values, table=SLUG)  # the default when left out
    value = values.get("round")
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise InvalidInput(Text(N_("The round must be a whole number: 1, 2 or 3.")), field="round")
    return CachorroHand(player=player, dealer=player, game=game, won=values["won"], figure=value)


GAME: Final = patience.patience_game(
    slug=SLUG, name=NAME, options_class=CachorroOptions, record=RECORD, parse=parse_hand
)
