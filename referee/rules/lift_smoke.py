"""Lift Smoke: the last player holding cards takes the antes.

4 to 6 players, each for himself, 52 cards. Every player antes; the dealer gives each player as
many cards as there are players and turns his own last card for trump. Tricks: follow suit, else
trump or discard; only the trick winner draws from the stock (and not once it is empty).
A player with no cards left is out. The last player still holding cards wins every ante and
deals the next hand. When the last players all run out on the same trick, the winner
of that trick wins.

The hand record (in the API's style, players by name)::

    {"dealer": "Dani", "ante": 2, "winner": "Bia",
     "out_order": ["Caio", ["Ana", "Dani"]], "carried_in": 0}

- ``dealer``: optional (the rotation's dealer: the previous winner).
- ``ante``: the chips each player put in (0 allowed); absent means the table's ``ante`` option.
- ``winner``: required, a seated player.
- ``out_order``: optional: the players in the order they went out. An entry is a name,
  or a list of names for players who went out **on the same trick** (common: at the end of the
  first round of tricks, everyone who won none is out together). Every player appears once and
  every player is accounted for. The winner is either left out (he was the last one holding
  cards) or named only in the **last** entry: alone (the last one holding cards) or with the
  others who ran out on the final trick with him (he won that trick). Naming him in an
  earlier entry is refused: a player who went out before the last trick cannot win.
  An entry of one name given as a list is read as that name. :meth:`LiftSmokeHand.to_json`
  gives the order back as entered (single names unwrapped).
- ``carried_in`` (an **extension** of the record as first specified, as in Injun and Kentucky Derby): chips
  already lying on the table before the deal. Lift Smoke itself never leaves chips behind (the
  winner takes the whole pot), so the ledger will normally post 0 (the default); a table that
  brings chips left by another deal puts them here and the winner takes them too. The
  settlement's ``carry`` is then ``-carried_in`` (:class:`~referee.rules.pot.PotSettlement`).

What the record cannot show (the cards, the tricks) is not checked: the referee never deals.

The module's surface: :data:`OPTIONS` and :class:`LiftSmokeOptions`; :data:`PLAYER_COUNTS`,
:func:`cards_each` and :func:`stock_size` (the deal); :data:`RECORD` (the hand record's fields)
and :func:`parse_hand` (a :class:`LiftSmokeHand`, or a
:class:`~referee.rules.errors.RulesError` with a sentence); :func:`settle`; :func:`next_dealer`
(the winner deals next); :func:`contract_summary`; and :data:`GAME`, the game as the rest of
the app sees it (the player after the dealer leads first: the ``Game`` default).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from . import seats
from .game import Game, Teams
from .kinds import POT
from .options import OptionSet, OptionSpec, from_spec
from .pot import (
    CHIP_OPTIONS,
    MAX_CHIPS,
    PotSettlement,
    ante_lines,
    ante_option,
    antes,
    carried_in_field,
    pot_settlement,
)
from .record import DEALER, Count, OutOrder, Player, Record, RecordSpec
from .seats import OutGroup, out_order_json, parse_out_order
from .settle import Line
from .text import N_, Text

SLUG: Final = "lift_smoke"
MIN_PLAYERS: Final = 4
MAX_PLAYERS: Final = 6
PLAYER_COUNTS: Final = (4, 5, 6)
DECK: Final = 52

OPTIONS: Final[tuple[OptionSpec, ...]] = (
    ante_option(
        Text(N_("The dealer antes too. The last player holding cards takes them all. A hand may name its own ante.")),
        "docs/rules.md#lift-smoke-options",
    ),
    *CHIP_OPTIONS,
)


@dataclass(frozen=True, kw_only=True)
class LiftSmokeOptions(OptionSet):
    """The house rules of one table. The rule text offers no alternatives (drawing and the last trick are how
    the play goes, and the record does not depend on them), so only the amounts are options.

    >>> LiftSmokeOptions.from_json({"ante": 3}).to_json()
    {'ante': 3, 'starting_chips': 0, 'chip_value': '0'}
    """

    ante: int = from_spec()
    starting_chips: int = from_spec()
    chip_value: str = from_spec()

    specs = OPTIONS


# --------------------------------------------------------------------------- the deal and seats


def cards_each(player_count: int) -> int:
    """Each player gets as many cards as there are players.

    >>> [cards_each(n) for n in PLAYER_COUNTS]
    [4, 5, 6]
    """
    return player_count


def stock_size(player_count: int) -> int:
    """The cards left in the stock after the deal (the dealer takes the trump card into his hand).

    >>> [stock_size(n) for n in PLAYER_COUNTS]
    [36, 27, 16]
    """
    return DECK - player_count * cards_each(player_count)


def next_dealer(players: Sequence[str], hand: LiftSmokeHand, options: LiftSmokeOptions | None = None) -> str:
    """The winner deals the next hand, wherever he sits.

    >>> next_dealer(("Ana", "Bia", "Caio", "Dani"), parse_hand({"winner": "Bia"}, players=("Ana", "Bia", "Caio", "Dani"),
    ...     options=LiftSmokeOptions(), dealer="Dani"))
    'Bia'
    """
    return hand.winner


# --------------------------------------------------------------------------- the hand record

RECORD: Final = RecordSpec(
    game="Lift Smoke",
    unknown=N_("A Lift Smoke hand has no field called %(name)s."),
    player_counts=PLAYER_COUNTS,
    doc="One Lift Smoke hand (see /games/lift_smoke): the winner takes every ante and deals next.",
    fields=(
        DEALER,
        Count(
            name="ante",
            high=MAX_CHIPS,
            sentence=N_("The ante is a whole number of chips."),
            bounds=N_("The ante is from 0 to a million chips, not %(value)s."),
            doc="Default: the table's option.",
        ),
        carried_in_field(),
        Player(
            name="winner",
            required=N_("Name the winner: the last player still holding cards."),
            doc="The last player still holding cards.",
        ),
        OutOrder(
            name="out_order",
            doc=OutOrder.DOC + " The winner only in the last entry, or left out.",
        ),
    ),
    example={"dealer": "Dani", "ante": 2, "winner": "Bia", "out_order": ["Caio", ["Ana", "Dani"]]},
    example_players=("Ana", "Bia", "Caio", "Dani"),
)


@dataclass(frozen=True, kw_only=True)
class LiftSmokeHand(Record):
    """A validated Lift Smoke hand. Build it with :func:`parse_hand`; built any other way it
    still checks its own fields (a winner who is not seated fails here, not in the settlement).

    ``out_order`` is None when the table did not record it (it is optional).
    """

    spec: ClassVar[RecordSpec] = RECORD

    players: tuple[str, ...]
    dealer: str
    ante: int
    winner: str
    out_order: tuple[OutGroup, ...] | None
    carried_in: int

    @property
    def pot(self) -> int:
        """Every ante plus the chips carried in."""
        return self.ante * len(self.players) + self.carried_in

    @property
    def last_trick_tie(self) -> bool:
        """True when the winner ran out on the final trick together with others."""
        order = self.out_order
        return bool(order) and order is not None and self.winner in order[-1] and len(order[-1]) > 1

    def to_json(self) -> dict[str, object]:
        """The record as stored and exported, the dealer and the ante filled in."""
        out: dict[str, object] = {"dealer": self.dealer, "ante": self.ante, "winner": self.winner}
        if self.out_order is not None:
            out["out_order"] = out_order_json(self.out_order)
        out["carried_in"] = self.carried_in
        return out


def parse_hand(
    raw: object, *, players: Sequence[str], options: LiftSmokeOptions, dealer: str, teams: Teams = ()
) -> LiftSmokeHand:
    """Validate a posted Lift Smoke hand, or raise a :class:`~referee.rules.errors.RulesError`.

    The record's shape is :data:`RECORD`'s (4 to 6 players, no unknown field, the dealer and
    the winner seated, ``ante`` and ``carried_in`` whole numbers from 0); the rules add the
    order of going out (:func:`parse_out_order`): each player once, every player accounted for,
    the winner never out before the last trick.

    >>> hand = parse_hand({"winner": "Bia", "out_order": ["Caio", "Ana", "Dani"]},
    ...                   players=("Ana", "Bia", "Caio", "Dani"), options=LiftSmokeOptions(ante=2), dealer="Dani")
    >>> hand.pot, hand.to_json()
    (8, {'dealer': 'Dani', 'ante': 2, 'winner': 'Bia', 'out_order': ['Caio', 'Ana', 'Dani'], 'carried_in': 0})
    """
    values = RECORD.read(raw, players=players)
    players = tuple(players)
    winner = values["winner"]
    out_order = None
    if "out_order" in values:
        out_order = parse_out_order(
            values["out_order"], players=players, survivor=winner, survivor_may_end=True, what=N_("winner")
        )
    return LiftSmokeHand(
        players=players,
        dealer=values.get("dealer") or seats.require_player(players, dealer, field="dealer"),
        ante=values.get("ante", options.ante),
        winner=winner,
        out_order=out_order,
        carried_in=values.get("carried_in", 0),
    )


# --------------------------------------------------------------------------- settlement


def settle(hand: LiftSmokeHand, options: LiftSmokeOptions) -> PotSettlement:
    """The winner takes the pot: +(n - 1) x ante (plus any chips carried in), everyone else
    -ante. Nothing stays on the table, so ``carry`` is ``-carried_in`` (0 normally).

    >>> hand = parse_hand({"winner": "Bia", "ante": 2}, players=("Ana", "Bia", "Caio", "Dani", "Eva"),
    ...                   options=LiftSmokeOptions(), dealer="Eva")
    >>> dict(settle(hand, LiftSmokeOptions()).deltas)
    {'Ana': -2, 'Bia': 8, 'Caio': -2, 'Dani': -2, 'Eva': -2}
    """
    pot = antes(hand.players, hand.ante, carried_in=hand.carried_in)
    return pot_settlement(
        hand.players,
        paid=pot.paid,
        won={hand.winner: pot.chips},
        carried_in=hand.carried_in,
        carried_out=0,
        lines=_lines(hand, pot.chips),
    )


def _lines(hand: LiftSmokeHand, pot: int) -> list[Line]:
    """Two sums, one under the other: the antes (and chips carried in) make the pot; the pot less
    the winner's own ante is what he gains. Each column adds up to the figure under it."""
    lines = ante_lines(len(hand.players), hand.ante, hand.carried_in)
    lines.append(Line(text=Text(N_("The pot")), amount=pot, total=True))
    if hand.last_trick_tie:
        why = Text(
            N_("The last players ran out on the same trick; %(winner)s won it and takes the pot."), winner=hand.winner
        )
    else:
        why = Text(N_("%(winner)s is the last player holding cards and takes the pot."), winner=hand.winner)
    lines.append(Line(text=why, amount=pot))
    lines.append(Line(text=Text(N_("%(name)s's own ante was in the pot."), name=hand.winner), amount=-hand.ante))
    lines.append(Line(text=Text(N_("What %(name)s gains"), name=hand.winner), amount=pot - hand.ante, total=True))
    return lines


def contract_summary(hand: LiftSmokeHand) -> dict[str, object]:
    """What was played, for the answer and the history (every key present)."""
    return {
        "winner": hand.winner,
        "ante": hand.ante,
        "out_order": None if hand.out_order is None else out_order_json(hand.out_order),
        "carried_in": hand.carried_in,
    }


GAME: Final = Game[LiftSmokeOptions, LiftSmokeHand](
    slug=SLUG,
    name="Lift Smoke",
    options_class=LiftSmokeOptions,
    record=RECORD,
    parse=parse_hand,
    settle=settle,
    next_dealer=next_dealer,
    contract_json=contract_summary,
    stock_option="starting_chips",
    ante_option="ante",
    money_option="chip_value",
    kind=POT,  # the record takes carried_in, filled in by the ledger
)
