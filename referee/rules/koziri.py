"""Koziri (Svoyi Koziri): the options, the hand record and the settlement.

Two players, open hands, a 20-, 24- or 32-card French pack. Before the shuffle the dealer picks
his trump and his second suit; the opponent takes the other two suits and picks which is his
trump. The first player to get rid of all his cards wins the game.

The hand record is one game::

    {"dealer": "Ana", "dealer_trump": "espadas", "dealer_second": "copas",
     "opponent_trump": "ouros", "winner": "Bia"}

``dealer`` may be left out (the rotation's dealer is used); ``opponent_second`` is derived (the
suit nobody chose) and may be given, in which case it must be that suit; :meth:`KoziriHand.to_json`
fills it in. Checks: the dealer's two suits differ; the opponent's trump is one of the two
suits the dealer left; the winner is one of the two players.

Settlement: the loser pays the winner the table's ``stake`` (default 1; 0 only records the
result, which is the rule text's "no stakes"). Nothing stays on the table, so there is no pot to carry
and a record has no ``carried_in``: every settlement sums to zero.

The play itself (the deal helper, the answer checker, a game move by move) lives in
:mod:`referee.rules.koziri_play`; this module's surface is :data:`OPTIONS` and
:class:`KoziriOptions`, :func:`first_speaker` (the deal alternates: the ``Game`` default), :data:`RECORD` (the hand
record's fields) and :func:`parse_hand` (to a :class:`KoziriHand`), :func:`settle`,
:func:`contract_summary` and :data:`GAME`, the game as the rest of the app sees it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from . import seats
from .game import Game, Teams
from .koziri_play import _MISSING_SUIT, DECK_SIZES, SUIT_STEPS, Role, SuitChoice, open_suits, parse_suits
from .options import CHIP_VALUE, Choice, OptionSet, OptionSpec, OptionValue, from_spec
from .record import DEALER, Player, Record, RecordSpec, SuitField
from .settle import Line, Payment, Settlement
from .text import N_, Text

SLUG: Final = "koziri"
PLAYERS: Final = 2


class DeckSpec(OptionSpec):
    """An ``int`` option that takes only the listed sizes (20, 24 or 32), not a whole range."""

    def parse(self, raw: object) -> OptionValue:
        if isinstance(raw, int) and not isinstance(raw, bool) and str(raw) in {c.value for c in self.choices}:
            return raw
        raise self.not_one_of([c.value for c in self.choices])


OPTIONS: Final[tuple[OptionSpec, ...]] = (
    DeckSpec(
        name="deck",
        kind="int",
        default=32,
        minimum=min(DECK_SIZES),
        maximum=max(DECK_SIZES),
        choices=(
            Choice(value="20", label=Text(N_("20 cards (ace to 10)"))),
            Choice(value="24", label=Text(N_("24 cards (ace to 9)"))),
            Choice(value="32", label=Text(N_("32 cards (ace to 7)"))),
        ),
        label=Text(N_("Cards in the pack")),
        help=Text(N_("The top cards of every suit. The dealer turns up half the pack.")),
        rule_ref="docs/rules.md#koziri-options",
    ),
    OptionSpec(
        name="stake",
        kind="int",
        default=1,
        minimum=0,
        maximum=1_000_000,
        label=Text(N_("Stake per game")),
        help=Text(N_("What the loser pays the winner. Zero records the result only.")),
        rule_ref="docs/rules.md#koziri-options",
    ),
    OptionSpec(
        name="first_lead",
        kind="choice",
        default="opponent",
        choices=(
            Choice(value="opponent", label=Text(N_("The dealer's opponent"))),
            Choice(value="dealer", label=Text(N_("The dealer"))),
        ),
        label=Text(N_("Who leads first")),
        help=Text(N_("The rule text has the opponent lead; some published versions have the dealer lead.")),
        rule_ref="docs/rules.md#koziri-options",
    ),
    OptionSpec(
        name="going_out",
        kind="choice",
        default="last_card",
        choices=(
            Choice(value="last_card", label=Text(N_("As soon as a player plays his last card"))),
            Choice(value="unbeaten", label=Text(N_("When a player's last card is not beaten"))),
        ),
        label=Text(N_("A player wins")),
        help=Text(
            N_(
                "With the second choice, if the other player beats the last card, the player with no cards left must take the pile."
            )
        ),
        rule_ref="docs/rules.md#koziri-options",
    ),
    CHIP_VALUE,
)


@dataclass(frozen=True, kw_only=True)
class KoziriOptions(OptionSet):
    """The house rules of one table; the defaults are the readings Referee chose where the rule text is open.

    >>> KoziriOptions.from_json({"deck": 24}).to_json()
    {'deck': 24, 'stake': 1, 'first_lead': 'opponent', 'going_out': 'last_card', 'chip_value': '0'}
    """

    deck: int = from_spec()
    stake: int = from_spec()
    first_lead: str = from_spec()
    going_out: str = from_spec()
    chip_value: str = from_spec()

    specs = OPTIONS


# --------------------------------------------------------------------------- seats


def opponent_of(players: Sequence[str], dealer: str) -> str:
    """The other player."""
    return seats.after(players, dealer)


def first_speaker(players: Sequence[str], dealer: str, options: KoziriOptions | None = None) -> str:
    """Who leads the first card: the dealer's opponent, or the dealer under
    ``first_lead="dealer"`` (without options, the default: the opponent).

    >>> first_speaker(("Ana", "Bia"), "Bia", KoziriOptions()), first_speaker(("Ana", "Bia"), "Bia", KoziriOptions(first_lead="dealer"))
    ('Ana', 'Bia')
    """
    if options is not None and options.first_lead == "dealer":
        return dealer
    return opponent_of(players, dealer)


def leader_role(options: KoziriOptions) -> Role:
    """The role that leads first (option ``first_lead``)."""
    return Role.DEALER if options.first_lead == "dealer" else Role.OPPONENT


# --------------------------------------------------------------------------- the hand record

#: What the API's suit fields refuse (a suit is given by its slug).
NOT_A_SUIT: Final = N_("%(value)s is not a suit (copas, ouros, espadas or paus).")

RECORD: Final = RecordSpec(
    game="Koziri",
    unknown=N_("A Koziri hand has no field called %(name)s."),
    player_counts=(PLAYERS,),
    doc="One Koziri game (see /games/koziri). The opponent's trump is one of the two suits the dealer left; "
    "his second suit is the last one (derived, and checked when given). The loser pays the winner the table's stake.",
    fields=(
        DEALER,
        SuitField(name="dealer_trump", required=_MISSING_SUIT["dealer_trump"], sentence=NOT_A_SUIT),
        SuitField(
            name="dealer_second",
            required=_MISSING_SUIT["dealer_second"],
            sentence=NOT_A_SUIT,
            doc="Not the dealer's trump.",
        ),
        SuitField(name="opponent_trump", required=_MISSING_SUIT["opponent_trump"], sentence=NOT_A_SUIT),
        SuitField(name="opponent_second", sentence=NOT_A_SUIT, doc="Derived: the suit nobody chose."),
        Player(
            name="winner",
            required=N_("Name the winner: the player who got rid of all his cards first."),
            doc="The player who got rid of all his cards first.",
        ),
    ),
    example={
        "dealer": "Bia",
        "dealer_trump": "espadas",
        "dealer_second": "copas",
        "opponent_trump": "ouros",
        "winner": "Ana",
    },
    example_players=("Ana", "Bia"),
)


@dataclass(frozen=True, kw_only=True)
class KoziriHand(Record):
    """A validated Koziri game. Build it with :func:`parse_hand`; built any other way it still
    checks its own fields (a winner who is not seated fails here, not in the settlement), and
    its :class:`~referee.rules.koziri_play.SuitChoice` cannot hold a broken choice."""

    spec: ClassVar[RecordSpec] = RECORD

    players: tuple[str, ...]
    dealer: str
    suits: SuitChoice
    winner: str

    @property
    def opponent(self) -> str:
        return opponent_of(self.players, self.dealer)

    @property
    def loser(self) -> str:
        return self.opponent if self.winner == self.dealer else self.dealer

    def to_json(self) -> dict[str, object]:
        """The record as the API gives it, the dealer and the opponent's second suit filled in."""
        return {"dealer": self.dealer, **self.suits.to_json(), "winner": self.winner}


def parse_hand(
    raw: object, *, players: Sequence[str], options: KoziriOptions, dealer: str, teams: Teams = ()
) -> KoziriHand:
    """Validate a posted Koziri record, or raise a :class:`~referee.rules.errors.RulesError`
    whose sentence names the problem and whose field points at it.

    ``dealer`` is the dealer by rotation; a record may name the other player. The record's
    shape is :data:`RECORD`'s (two players, no unknown field, the dealer and the winner
    seated, each suit a suit); the suits are read by
    :func:`~referee.rules.koziri_play.parse_suits`, with the rules of the choice between them:
    the dealer's two suits differ, the opponent's trump is one the dealer left, and his second
    suit, when given, is the last one.

    >>> hand = parse_hand({"dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "ouros", "winner": "Ana"},
    ...                   players=("Ana", "Bia"), options=KoziriOptions(), dealer="Bia")
    >>> hand.to_json()["opponent_second"], hand.loser
    ('paus', 'Bia')
    >>> parse_hand({"dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "copas", "winner": "Ana"},
    ...            players=("Ana", "Bia"), options=KoziriOptions(), dealer="Bia")
    Traceback (most recent call last):
    ...
    referee.rules.errors.InconsistentHand: The opponent's trump must be one of the two suits the dealer left, diamonds or clubs; hearts is the dealer's.
    """
    values = RECORD.read(raw, players=players, only=("dealer",))
    assert isinstance(raw, Mapping)  # RECORD.read refuses anything else
    # Each suit's shape and the rules between them, in order, before the winner (a guided
    # page offers at each suit step what open_suits says this order lets past it).
    suits = parse_suits(raw)
    return KoziriHand(
        players=tuple(players),
        dealer=values.get("dealer") or seats.require_player(players, dealer, field="dealer"),
        suits=suits,
        winner=RECORD.read(raw, players=players, only=("winner",))["winner"],
    )


def open_choices(name: str, raw: Mapping[str, object]) -> tuple[str, ...] | None:
    """What may come next at the record's field ``name`` given the record so far ``raw``: for
    the three suit choices, the suits (by slug) the rules accept there
    (:func:`~referee.rules.koziri_play.open_suits`); None for the other fields, where any value
    of the field's kind is accepted (the winner is either player)."""
    if name in SUIT_STEPS:
        return tuple(suit.value for suit in open_suits(name, raw))
    return None


# --------------------------------------------------------------------------- settlement


def settle(hand: KoziriHand, options: KoziriOptions) -> Settlement:
    """The loser pays the winner the stake (the table's ``stake`` option). Zero-sum.

    >>> hand = parse_hand({"dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "ouros", "winner": "Ana"},
    ...                   players=("Ana", "Bia"), options=KoziriOptions(), dealer="Bia")
    >>> dict(settle(hand, KoziriOptions(stake=3)).deltas)
    {'Ana': 3, 'Bia': -3}
    """
    stake = options.stake
    won = Text(N_("%(winner)s got rid of every card first and wins the game."), winner=hand.winner)
    if stake == 0:
        lines = (
            Line(text=won, amount=0),
            Line(text=Text(N_("The table plays for no stake: nothing is paid.")), amount=0),
        )
        return Settlement(players=hand.players, lines=lines)
    lines = (
        Line(text=won, amount=0),  # the stake is the one figure, on the line below
        Line(
            text=Text(
                N_("%(loser)s pays %(winner)s the stake of %(stake)s."),
                loser=hand.loser,
                winner=hand.winner,
                stake=stake,
            ),
            amount=stake,
        ),
    )
    return Settlement(
        players=hand.players,
        payments=(Payment(payer=hand.loser, payee=hand.winner, amount=stake),),
        lines=lines,
    )


def contract_summary(hand: KoziriHand) -> dict[str, object]:
    """Who chose which suits, and who won (every key present)."""
    return {"dealer": hand.dealer, "opponent": hand.opponent, **hand.suits.to_json(), "winner": hand.winner}


GAME: Final = Game[KoziriOptions, KoziriHand](
    slug=SLUG,
    name="Koziri",
    options_class=KoziriOptions,
    record=RECORD,
    parse=parse_hand,
    settle=settle,
    first_speaker=first_speaker,
    contract_json=contract_summary,
    money_option="chip_value",
)
