"""El Gato: the player left holding every card loses.

2, 4, 5, 8 or 10 players (the numbers that divide the 40-card Spanish pack exactly: 48 cards
without the kings and the knights). Each player plays the top card of his face-down pile in
turn; the highest card takes the trick, the 5 of ouros (the "gato") beats everything, and equal
cards start a war. Players who run out drop out; the game ends when one player holds all 40
cards, and he is the loser. The text has no stakes.

The hand record (in the API's style, players by name)::

    {"dealer": "Dani", "loser": "Bia", "out_order": ["Ana", ["Caio", "Dani"]]}

- ``dealer``: optional (the rotation's dealer).
- ``loser``: required, a seated player: the one left with all the cards.
- ``out_order``: optional: the players in the order they ran out of cards; an entry is a
  name or a list of names who ran out on the same trick (see
  :func:`referee.rules.seats.parse_out_order`, shared with Lift Smoke). Each player once,
  every player but the loser accounted for, and never the loser (he never runs out).

There is no pot and nothing stays on the table, so a record has no ``carried_in``.

Settlement: under the ``stake`` option (default 0) the loser pays the stake to each
other player; with 0 the result is only recorded and every delta is 0.

The play options (``ranks``, ``war``) do not change the record or the settlement: they are the
table's house rules, shown on its page.

The module's surface: :data:`OPTIONS` and :class:`ElGatoOptions`; :data:`PLAYER_COUNTS`,
:func:`cards_each` and :func:`rank_order`; :data:`RECORD` (the hand record's fields) and
:func:`parse_hand` (an :class:`ElGatoHand`, or a :class:`~referee.rules.errors.RulesError`
with a sentence); :func:`settle`; :func:`seat_teams`; and :data:`GAME`, the game as the rest of the app sees
it (the player after the dealer plays first and the deal passes on, the ``Game``
defaults; the hand's JSON and what was played are its fields as read).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from . import seats
from .game import Game, Teams, each_for_himself
from .kinds import LOSSES
from .options import CHIP_VALUE, Choice, OptionSet, OptionSpec, from_spec
from .record import DEALER, OutOrder, Player, Record, RecordSpec
from .seats import OutGroup, parse_out_order
from .settle import Line, Payment, Settlement
from .text import N_, NP_, Text

SLUG: Final = "el_gato"
#: The player counts that divide the 40 cards exactly (3, 6, 7 and 9 are refused).
PLAYER_COUNTS: Final = (2, 4, 5, 8, 10)
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 10
DECK: Final = 40
#: The Spanish ranks in play, in the API spelling ("10" is the sota); no kings (12) or knights (11).
RANKS: Final = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10")
MAX_STAKE: Final = 1_000_000

OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(
        name="stake",
        kind="int",
        default=0,
        minimum=0,
        maximum=MAX_STAKE,
        label=Text(N_("Stake the loser pays each other player")),
        help=Text(N_("Zero records the result only: nobody pays.")),
        rule_ref="docs/rules.md#el-gato-options",
    ),
    OptionSpec(
        name="ranks",
        kind="choice",
        default="sota_high",
        choices=(
            Choice(value="sota_high", label=Text(N_("Sota highest, then 9 down to the ace"))),
            Choice(value="ace_high", label=Text(N_("Ace highest, then sota, 9 down to 2"))),
        ),
        label=Text(N_("Card order")),
        help=Text(N_("The 5 of diamonds beats every card either way.")),
        rule_ref="docs/rules.md#el-gato-options",
    ),
    OptionSpec(
        name="war",
        kind="choice",
        default="highest_only",
        choices=(
            Choice(value="highest_only", label=Text(N_("Only when the highest cards of the trick are equal"))),
            Choice(value="any_tie", label=Text(N_("Whenever two cards of the trick are equal"))),
        ),
        label=Text(N_("When equal cards start a war")),
        help=Text(
            N_("With more than two players, only the tied players play the war, and its winner takes everything.")
        ),
        rule_ref="docs/rules.md#el-gato-options",
    ),
    CHIP_VALUE,
)


@dataclass(frozen=True, kw_only=True)
class ElGatoOptions(OptionSet):
    """The house rules of one table; the defaults are the readings Referee chose where the rule text is open.

    >>> ElGatoOptions.from_json({"stake": 2}).to_json()
    {'stake': 2, 'ranks': 'sota_high', 'war': 'highest_only', 'chip_value': '0'}
    """

    stake: int = from_spec()
    ranks: str = from_spec()
    war: str = from_spec()
    chip_value: str = from_spec()

    specs = OPTIONS


def rank_order(options: ElGatoOptions) -> tuple[str, ...]:
    """The ranks from highest to lowest under the table's ``ranks`` option; the 5 of
    ouros stands above all of them whatever the order.

    >>> rank_order(ElGatoOptions())[:3], rank_order(ElGatoOptions(ranks="ace_high"))[:3]
    (('10', '9', '8'), ('1', '10', '9'))
    """
    high_to_low = tuple(reversed(RANKS))
    if options.ranks == "ace_high":
        return ("1",) + high_to_low[:-1]
    return high_to_low


def cards_each(player_count: int) -> int:
    """Every card is dealt, one at a time, so each player gets 40 / n.

    >>> [cards_each(n) for n in PLAYER_COUNTS]
    [20, 10, 8, 5, 4]
    """
    return DECK // player_count


def seat_teams(players: Sequence[str], raw: object, options: ElGatoOptions) -> Teams:
    """Each player for himself, at a table of a size that shares the 40 cards: the ledger
    admits 2 to 10 players, so the gaps (3, 6, 7, 9) are refused here, when the table is seated.
    """
    RECORD.check_table(players)
    return each_for_himself(players, raw, options)


# --------------------------------------------------------------------------- the hand record

RECORD: Final = RecordSpec(
    game="El Gato",
    unknown=N_("An El Gato game has no field called %(name)s."),
    player_counts=PLAYER_COUNTS,
    doc="One El Gato game (see /games/el_gato): the loser pays the table's stake to each other player "
    "(default 0: recorded only).",
    fields=(
        DEALER,
        Player(
            name="loser",
            required=N_("Name the loser: the player left holding all the cards."),
            doc="The player left holding all the cards.",
        ),
        OutOrder(name="out_order", doc=OutOrder.DOC + " Every player but the loser."),
    ),
    example={"dealer": "Dani", "loser": "Bia", "out_order": ["Ana", ["Caio", "Dani"]]},
    example_players=("Ana", "Bia", "Caio", "Dani"),
)


@dataclass(frozen=True, kw_only=True)
class ElGatoHand(Record):
    """A validated El Gato game. Build it with :func:`parse_hand`; built any other way it still
    checks its own fields (a loser who is not seated fails here, not in the settlement)."""

    spec: ClassVar[RecordSpec] = RECORD

    players: tuple[str, ...]
    dealer: str
    loser: str
    out_order: tuple[OutGroup, ...] | None


def parse_hand(
    raw: object, *, players: Sequence[str], options: ElGatoOptions, dealer: str, teams: Teams = ()
) -> ElGatoHand:
    """Validate a posted El Gato game, or raise a :class:`~referee.rules.errors.RulesError`.

    The record's shape is :data:`RECORD`'s (2, 4, 5, 8 or 10 players, 3, 6, 7 and 9 refused;
    no unknown field; the dealer and the loser seated); the rules add the order of running
    out, when given: each player once, every player but the loser, never the loser.

    >>> parse_hand({"loser": "Bia"}, players=("Ana", "Bia"), options=ElGatoOptions(), dealer="Bia").to_json()
    {'dealer': 'Bia', 'loser': 'Bia'}
    """
    values = RECORD.read(raw, players=players)
    players = tuple(players)
    loser = values["loser"]
    out_order = None
    if "out_order" in values:
        out_order = parse_out_order(
            values["out_order"], players=players, survivor=loser, survivor_may_end=False, what=N_("loser")
        )
    return ElGatoHand(
        players=players,
        dealer=values.get("dealer") or seats.require_player(players, dealer, field="dealer"),
        loser=loser,
        out_order=out_order,
    )


# --------------------------------------------------------------------------- settlement


def settle(hand: ElGatoHand, options: ElGatoOptions) -> Settlement:
    """The loser pays the ``stake`` to each other player; with stake 0 (the default, the text
    has no stakes) nothing is paid and the result is only recorded. Zero-sum, no carry.

    >>> hand = parse_hand({"loser": "Bia"}, players=("Ana", "Bia", "Caio", "Dani"), options=ElGatoOptions(), dealer="Dani")
    >>> dict(settle(hand, ElGatoOptions(stake=2)).deltas)
    {'Ana': 2, 'Bia': -6, 'Caio': 2, 'Dani': 2}
    >>> dict(settle(hand, ElGatoOptions()).deltas)
    {'Ana': 0, 'Bia': 0, 'Caio': 0, 'Dani': 0}
    """
    stake = options.stake
    others = [p for p in hand.players if p != hand.loser]
    lost = Line(
        text=Text(N_("%(loser)s was left holding all the cards and loses."), loser=hand.loser),
        amount=0,  # the stake is the one figure, on the line below
    )
    if stake == 0:
        return Settlement(
            players=hand.players,
            lines=(lost, Line(text=Text(N_("The table plays for no stake: nothing is paid.")), amount=0)),
        )
    pays = Line(
        text=Text(
            *NP_(
                "%(loser)s pays the stake of %(stake)s to the other player.",
                "%(loser)s pays the stake of %(stake)s to each of the other %(count)s players.",
            ),
            count=len(others),
            loser=hand.loser,
            stake=stake,
        ),
        amount=stake,
    )
    return Settlement(
        players=hand.players,
        payments=tuple(Payment(payer=hand.loser, payee=p, amount=stake) for p in others),
        lines=(lost, pays),
    )


GAME: Final = Game[ElGatoOptions, ElGatoHand](
    slug=SLUG,
    name="El Gato",
    options_class=ElGatoOptions,
    record=RECORD,
    parse=parse_hand,
    settle=settle,
    # The player after the dealer plays first, and the deal passes on: the text only says how
    # the first dealer is found (a table that draws again names the ``dealer`` in a record).
    # The record and what was played are its fields as read (every key present in the answer).
    seat_teams=seat_teams,
    money_option="chip_value",
    # The league ranks El Gato by how often each player was left with the cards: with the
    # usual stake of 0 nothing is paid and every net is 0.
    kind=LOSSES,
    loser_field="loser",
)
