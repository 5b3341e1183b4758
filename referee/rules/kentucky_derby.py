"""Kentucky Derby (Pasteboard Derby): the race, the bets and the pot.

Three or more players bet on one of four horses, the aces. The dealer takes the aces out, lays
the track (7 cards face down) and turns the rest one at a time onto the aces in the order copas,
ouros, espadas, paus, again and again; each card moves its horse by the movement table. The
first horse past the finish wins; its backers share the pot. With more than 6 players the
backers of the second horse get their bets back.

Positions are counted in **half spaces** (whole numbers: one track card is 2), so a Queen's
"one space and a half" is 3 and the finish of a 7-card track is 14.

The hand record (in the API's style, players by name)::

    {"dealer": "Dani", "pingo": 1,
     "bets": {"Ana": {"horse": "copas", "amount": 2}, "Bia": {"horse": "paus", "amount": 1}, ...},
     "cards": [{"rank": "K", "suit": "ouros"}, {"rank": "9", "suit": "espadas"}, ...],
     "winner": "copas", "second": "paus", "carried_in": 3}

- ``pingo``: the chips each player puts in the centre (may be 0); absent means the table's
  ``pingo`` option.
- ``bets``: one entry per seated player, ``horse`` a suit and ``amount`` a whole number of chips
  (at least 1; absent means the table's ``bet`` option). ``"Ana": "copas"`` is short for
  ``"Ana": {"horse": "copas"}``.
- ``cards``: the cards turned, in dealing order: one per horse in the order copas, ouros,
  espadas, paus (a full round), round after round, then the tie-break cards of the horses
  involved (see :func:`replay`). A card is ``{"rank": "K", "suit": "ouros"}``; it may also name
  the ``horse`` it was laid on, which must then be the horse whose turn it is. The list must end
  exactly when the race is decided.
- ``winner`` (and ``second`` when second place is played): the horse, or a list of horses when
  the cards ran out with several level (they share). With ``cards`` they are worked out and,
  if given, must agree; without ``cards`` the table only says who won and
  ``winner`` is required.
- ``carried_in`` (an **extension** of the record as first specified): the chips left on the table by earlier
  races (odd chips of a split, a pot nobody backed). The engine cannot see earlier races, so
  the ledger fills it from the previous race: its ``carried_in`` plus its settlement's ``carry``
  (:attr:`DerbyResult.carried_out`). Absent means 0.

The settlement's ``carry`` is the **change** in the chips lying on the table (``carried_out -
carried_in``), so the deltas always sum to ``-carry``; a race that wins a carried pot has a
negative carry.

The module's surface: :data:`OPTIONS` and :class:`DerbyOptions`; :class:`DerbyCard` and
:func:`movement`/:func:`advance` (the movement table); :func:`replay` (the race card by card, a
:class:`Race` of :class:`Step` values, for the race page); :func:`second_place_in_play`;
:data:`RECORD` (the race record's fields) and :func:`parse_hand` (a :class:`DerbyHand`, or a
:class:`~referee.rules.errors.RulesError` with a sentence); :func:`pot_result` (a
:class:`DerbyResult`) and :func:`settle`; and :data:`GAME`, the game as the rest of the app
sees it (the player after the dealer lines up and moves the horses, and the deal passes to the
left after each race: the ``Game`` defaults).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import ClassVar, Final

from . import seats
from .cards import FRENCH_RANKS, Suit, french_rank_label, parse_suit
from .errors import InconsistentHand, InvalidInput
from .game import Game, Teams
from .kinds import POT
from .options import Choice, OptionSet, OptionSpec, from_spec
from .pot import CHIP_OPTIONS, MAX_CHIPS, antes, carried_in_field, pot_settlement, require_chips, split
from .record import DEALER, Count, Custom, Record, RecordSpec
from .settle import Line, Settlement
from .text import N_, NP_, Text

SLUG: Final = "kentucky_derby"
MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 40
PLAYER_COUNTS: Final = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
#: The horses in the order they line up and receive cards.
HORSES: Final = (Suit.COPAS, Suit.OUROS, Suit.ESPADAS, Suit.PAUS)
#: The French ranks in the API spelling, highest first. The aces are the horses.
RANKS: Final = FRENCH_RANKS
DECK_WITHOUT_ACES: Final = 48
#: Second place is played with more than this many players (exactly 6 do not play it).
SECOND_PLACE_ABOVE: Final = 6

# --------------------------------------------------------------------------- options

OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(
        name="pingo",
        kind="int",
        default=1,
        minimum=0,
        maximum=100_000,
        label=Text(N_("Pingo: chips each player puts in the centre")),
        help=Text(N_("The agreed stake for every race; a race may record another amount. Zero is allowed.")),
        rule_ref="docs/rules.md#kentucky-derby-options",
    ),
    OptionSpec(
        name="bet",
        kind="int",
        default=1,
        minimum=1,
        maximum=100_000,
        label=Text(N_("Usual bet on a horse")),
        help=Text(N_("Filled in for a player whose bet has no amount; each player may bet another amount.")),
        rule_ref="docs/rules.md#kentucky-derby-options",
    ),
    OptionSpec(
        name="track_length",
        kind="int",
        default=7,
        minimum=3,
        maximum=20,
        label=Text(N_("Track length in cards")),
        help=Text(N_("A horse finishes when it has gone this many spaces (one space per track card).")),
        rule_ref="docs/rules.md#kentucky-derby-options",
    ),
    OptionSpec(
        name="own_suit_bonus",
        kind="choice",
        default="forward",
        choices=(
            Choice(value="forward", label=Text(N_("Only on cards that move the horse forward"))),
            Choice(value="any_card", label=Text(N_("On any card, so a Two of the horse's own suit does not move it"))),
        ),
        label=Text(N_("Half a space more for a card of the horse's own suit")),
        help=Text(N_("By default a Two of the horse's own suit still takes it back half a space.")),
        rule_ref="docs/rules.md#kentucky-derby-options",
    ),
    OptionSpec(
        name="finish",
        kind="choice",
        default="round_end",
        choices=(
            Choice(
                value="round_end",
                label=Text(N_("Judged after each round; horses crossing in the same round run a tie-break")),
            ),
            Choice(value="first_to_line", label=Text(N_("The first horse to reach the line wins at once"))),
            Choice(
                value="most_advanced",
                label=Text(N_("Judged after each round; the horse furthest ahead wins, a tie-break only when level")),
            ),
        ),
        label=Text(N_("How the finish is judged")),
        help=Text(
            N_(
                "A tie-break gives only the horses involved one more card each, round after round, until one is strictly ahead."
            )
        ),
        rule_ref="docs/rules.md#kentucky-derby-options",
    ),
    OptionSpec(
        name="second_place",
        kind="choice",
        default="above_6",
        choices=(
            Choice(value="above_6", label=Text(N_("With more than 6 players"))),
            Choice(value="from_6", label=Text(N_("With 6 players or more"))),
            Choice(value="never", label=Text(N_("Never: first place only"))),
        ),
        label=Text(N_("When second place is played")),
        help=Text(N_("The backers of the second horse get their bets back (not the pingo).")),
        rule_ref="docs/rules.md#kentucky-derby-options",
    ),
    OptionSpec(
        name="second_by",
        kind="choice",
        default="most_advanced",
        choices=(
            Choice(value="most_advanced", label=Text(N_("The horse furthest ahead when the winner is decided"))),
            Choice(value="next_to_cross", label=Text(N_("Dealing goes on until another horse crosses the line"))),
        ),
        label=Text(N_("Second place is")),
        help=Text(N_("Level horses run a tie-break, as for first place.")),
        rule_ref="docs/rules.md#kentucky-derby-options",
    ),
    OptionSpec(
        name="unbacked",
        kind="choice",
        default="carry",
        choices=(
            Choice(value="carry", label=Text(N_("The pot stays on the table for the next race"))),
            Choice(value="refund", label=Text(N_("Everyone takes back what they put in"))),
        ),
        label=Text(N_("When nobody backed the winner")),
        help=Text(N_("Chips carried from earlier races stay on the table either way.")),
        rule_ref="docs/rules.md#kentucky-derby-options",
    ),
    OptionSpec(
        name="split",
        kind="choice",
        default="equal",
        choices=(
            Choice(value="equal", label=Text(N_("In equal parts, whatever each one bet"))),
            Choice(value="proportional", label=Text(N_("In proportion to each one's bet"))),
        ),
        label=Text(N_("How the winner's backers share the pot")),
        help=Text(N_("Chips that do not divide exactly stay on the table for the next race.")),
        rule_ref="docs/rules.md#kentucky-derby-options",
    ),
    *CHIP_OPTIONS,
)


@dataclass(frozen=True, kw_only=True)
class DerbyOptions(OptionSet):
    """The house rules of one table; the defaults are the readings Referee chose where the rule text is open."""

    pingo: int = from_spec()
    bet: int = from_spec()
    track_length: int = from_spec()
    own_suit_bonus: str = from_spec()
    finish: str = from_spec()
    second_place: str = from_spec()
    second_by: str = from_spec()
    unbacked: str = from_spec()
    split: str = from_spec()
    starting_chips: int = from_spec()
    chip_value: str = from_spec()

    specs = OPTIONS

    @property
    def finish_line(self) -> int:
        """The finish in half spaces."""
        return 2 * self.track_length

    @property
    def stock(self) -> int:
        """How many cards can be turned: the deck without the aces and the track."""
        return DECK_WITHOUT_ACES - self.track_length


def second_place_in_play(player_count: int, options: DerbyOptions) -> bool:
    """Whether second place is played at a table of ``player_count``.

    >>> second_place_in_play(7, DerbyOptions()), second_place_in_play(6, DerbyOptions())
    (True, False)
    >>> second_place_in_play(6, DerbyOptions(second_place="from_6"))
    True
    """
    if options.second_place == "never":
        return False
    if options.second_place == "from_6":
        return player_count >= SECOND_PLACE_ABOVE
    return player_count > SECOND_PLACE_ABOVE


# --------------------------------------------------------------------------- cards and moves


@dataclass(frozen=True, kw_only=True)
class DerbyCard:
    """A card of the French deck turned onto a horse: ``DerbyCard(rank="K", suit=Suit.OUROS)``."""

    rank: str
    suit: Suit

    def __post_init__(self) -> None:
        if self.rank not in RANKS or self.rank == "A":
            raise ValueError(f"{self.rank!r} is not a rank that can be turned in the Derby")

    @property
    def label(self) -> Text:
        return Text(N_("%(rank)s of %(suit)s"), rank=french_rank_label(self.rank), suit=self.suit.label)

    def to_json(self) -> dict[str, str]:
        return {"rank": self.rank, "suit": self.suit.value}

    @classmethod
    def parse(cls, raw: object, *, field: str) -> tuple[DerbyCard, Suit | None]:
        """A card from ``{"rank": "K", "suit": "ouros"}`` (optionally with the ``horse`` it was
        laid on, returned beside it). A wrong shape is :class:`InvalidInput`; an ace, which is a
        horse and never turned, is :class:`InconsistentHand`."""
        if (
            not isinstance(raw, Mapping)
            or not {"rank", "suit"} <= set(raw)
            or not set(raw) <= {"rank", "suit", "horse"}
        ):
            raise InvalidInput(
                Text(N_('A card must be given as rank and suit, e.g. {"rank": "K", "suit": "ouros"}.')),
                field=field,
            )
        rank, suit = raw["rank"], raw["suit"]
        if not isinstance(rank, str) or rank not in RANKS:
            raise InvalidInput(
                Text(N_("%(rank)s is not a card rank; use one of: %(ranks)s."), rank=str(rank), ranks=", ".join(RANKS)),
                field=f"{field}.rank",
            )
        parsed_suit = parse_suit(suit, field=f"{field}.suit")
        if rank == "A":
            raise InconsistentHand(
                Text(N_("The aces are the horses and are taken out before the race, so an ace is never turned.")),
                field=field,
            )
        horse = parse_suit(raw["horse"], field=f"{field}.horse") if raw.get("horse") is not None else None
        return cls(rank=rank, suit=parsed_suit), horse


def movement(card: DerbyCard, horse: Suit, options: DerbyOptions) -> int:
    """How far ``card`` moves ``horse``, in half spaces, before the start-line rule.

    King 4, Queen 3, Jack 2; 7 to 10 of the horse's colour 2, 3 to 6 of its colour 1; 7 to 10
    and 3 to 6 of the other colour 0; a Two -1 of the horse's colour, -2 of the other.
    A card of the horse's own suit adds 1 (on the forward cards only; under
    ``own_suit_bonus="any_card"`` on the Two as well, which then nets 0).

    The rule text's examples: K♥ on the ♥ ace, 9♠ on the ♠ ace, 9♣ on the ♠ ace.

    >>> o = DerbyOptions()
    >>> movement(DerbyCard(rank="K", suit=Suit.COPAS), Suit.COPAS, o)  # 2.5 spaces
    5
    >>> movement(DerbyCard(rank="9", suit=Suit.ESPADAS), Suit.ESPADAS, o)  # 1.5 spaces
    3
    >>> movement(DerbyCard(rank="9", suit=Suit.PAUS), Suit.ESPADAS, o)  # 1 space
    2
    >>> movement(DerbyCard(rank="2", suit=Suit.ESPADAS), Suit.ESPADAS, o)
    -1
    >>> movement(DerbyCard(rank="2", suit=Suit.ESPADAS), Suit.ESPADAS, DerbyOptions(own_suit_bonus="any_card"))
    0
    """
    same_colour = card.suit.is_red == horse.is_red
    own_suit = card.suit is horse
    if card.rank == "2":
        base = -1 if same_colour else -2
        return base + (1 if own_suit and options.own_suit_bonus == "any_card" else 0)
    if card.rank == "K":
        base = 4
    elif card.rank == "Q":
        base = 3
    elif card.rank == "J":
        base = 2
    elif not same_colour:
        base = 0
    elif card.rank in ("7", "8", "9", "10"):
        base = 2
    else:
        base = 1
    return base + (1 if own_suit else 0)


def advance(position: int, card: DerbyCard, horse: Suit, options: DerbyOptions) -> int:
    """The horse's position after ``card`` (half spaces): a Two on the start line does not move
    it, and a backward move stops at the start line.

    >>> advance(1, DerbyCard(rank="2", suit=Suit.PAUS), Suit.COPAS, DerbyOptions())  # 0.5 to 0
    0
    >>> advance(0, DerbyCard(rank="2", suit=Suit.COPAS), Suit.COPAS, DerbyOptions())
    0
    """
    if card.rank == "2" and position == 0:
        return 0
    return max(0, position + movement(card, horse, options))


# --------------------------------------------------------------------------- the race


class Stage(Enum):
    """What the next card decides."""

    RACE = "race"  # the main race, all four horses
    TIE_BREAK = "tie_break"  # level horses for first place
    SECOND = "second"  # the race for second place (``second_by="next_to_cross"``)
    SECOND_TIE_BREAK = "second_tie_break"  # level horses for second place


@dataclass(frozen=True, kw_only=True)
class Step:
    """One card of the race: which horse it went to, how far it moved it (half spaces, after the
    start-line rule) and where all four horses stand afterwards."""

    index: int
    card: DerbyCard
    horse: Suit
    move: int
    positions: Mapping[Suit, int]
    stage: Stage

    def to_json(self) -> dict[str, object]:
        return {
            "index": self.index,
            "card": self.card.to_json(),
            "horse": self.horse.value,
            "move": self.move,
            "positions": {h.value: self.positions[h] for h in HORSES},
            "stage": self.stage.value,
        }


@dataclass(frozen=True, kw_only=True)
class Note:
    """Something the race decided, after the card ``after`` (an index into the cards, -1 before any)."""

    after: int
    text: Text


@dataclass(frozen=True, kw_only=True)
class Race:
    """A race replayed up to the cards given (complete or not).

    ``over``: nothing more is dealt. ``expecting``: the horse the next card goes to (None when
    over), with ``stage`` saying what it decides and ``runners`` the horses still receiving
    cards. ``winners``/``second``: decided places (several horses only when the cards ran out
    with them level; empty while undecided or, for ``second``, when second place is not played).
    """

    steps: tuple[Step, ...]
    positions: Mapping[Suit, int]
    over: bool
    expecting: Suit | None
    stage: Stage | None
    runners: tuple[Suit, ...]
    winners: tuple[Suit, ...]
    second: tuple[Suit, ...]
    stock_left: int
    finish_line: int
    notes: tuple[Note, ...]

    def to_json(self) -> dict[str, object]:
        """For the race page: the track, the horses card by card, and what comes next."""
        return {
            "finish_line": self.finish_line,
            "steps": [s.to_json() for s in self.steps],
            "positions": {h.value: self.positions[h] for h in HORSES},
            "over": self.over,
            "expecting": self.expecting.value if self.expecting is not None else None,
            "stage": self.stage.value if self.stage is not None else None,
            "runners": [h.value for h in self.runners],
            "winners": [h.value for h in self.winners],
            "second": [h.value for h in self.second],
            "stock_left": self.stock_left,
            "notes": [{"after": n.after, "text": str(n.text)} for n in self.notes],
        }


def _horses(horses: Sequence[Suit]) -> Text | str:
    """ "copas", "copas and paus", "copas, ouros and paus" (suit names translated)."""
    return seats.join_names([h.label for h in horses])


class _Replay:
    """The race as a small state machine; :func:`replay` is its only user.

    The judging rules, in one place:

    * ``finish="round_end"`` (default): after each full round of the horses running, those at or
      past the line have crossed. One crossing wins; two or more run a tie-break.
    * ``finish="first_to_line"``: the first horse to reach the line, card by card, wins at once.
    * ``finish="most_advanced"``: after the round in which any horse crosses, the one strictly
      furthest ahead wins; a tie-break only among those level at the front.
    * A tie-break deals one card to each horse in it (in the order copas, ouros, espadas, paus)
      from where it stands, round after round; after each round the horse strictly ahead of the
      others in the tie-break wins. Horses stay in the tie-break until it is decided, even one
      that fell behind (the text: every horse involved gets more cards until one is ahead).
    * Second place (when played): under ``second_by="most_advanced"`` the horse furthest ahead
      among the others when the winner is decided, level horses running a tie-break. Under
      ``"next_to_cross"`` dealing goes on to the other horses, judged like the main race, unless
      one of them has already crossed (then as ``most_advanced`` among those that crossed).
    * When the cards run out undecided, the horses furthest ahead among those still
      running win (or take second) together.
    """

    def __init__(self, options: DerbyOptions, *, second_place: bool) -> None:
        self.options = options
        self.second_place = second_place
        self.positions = dict.fromkeys(HORSES, 0)
        self.steps: list[Step] = []
        self.notes: list[Note] = []
        self.winners: tuple[Suit, ...] = ()
        self.second: tuple[Suit, ...] = ()
        self.over = False
        self.stage: Stage = Stage.RACE
        self.runners: tuple[Suit, ...] = HORSES
        self.judge = options.finish
        self.slot = 0

    # -- helpers

    def _crossed(self, horses: Sequence[Suit]) -> list[Suit]:
        return [h for h in horses if self.positions[h] >= self.options.finish_line]

    def _front(self, horses: Sequence[Suit]) -> list[Suit]:
        top = max(self.positions[h] for h in horses)
        return [h for h in horses if self.positions[h] == top]

    def _note(self, text: Text) -> None:
        self.notes.append(Note(after=len(self.steps) - 1, text=text))

    @property
    def deciding_second(self) -> bool:
        return self.stage in (Stage.SECOND, Stage.SECOND_TIE_BREAK)

    def _start(self, stage: Stage, runners: Sequence[Suit], judge: str) -> None:
        self.stage, self.runners, self.judge, self.slot = stage, tuple(h for h in HORSES if h in runners), judge, 0

    def _tie_break(self, horses: Sequence[Suit]) -> None:
        stage = Stage.SECOND_TIE_BREAK if self.deciding_second else Stage.TIE_BREAK
        if self.deciding_second:
            self._note(
                Text(N_("%(horses)s are level for second place: a tie-break between them."), horses=_horses(horses))
            )
        else:
            self._note(
                Text(N_("%(horses)s are level for first place: a tie-break between them."), horses=_horses(horses))
            )
        self._start(stage, horses, "lead")

    def _decide(self, horses: Sequence[Suit], *, exhausted: bool = False) -> None:
        horses = tuple(h for h in HORSES if h in horses)
        what = _horses(horses)
        if self.deciding_second:
            self.second = horses
            if exhausted:
                self._note(
                    Text(
                        *NP_(
                            "The cards ran out: %(horses)s, furthest ahead, takes second place.",
                            "The cards ran out: %(horses)s, level and furthest ahead, share second place.",
                        ),
                        count=len(horses),
                        horses=what,
                    )
                )
            else:
                self._note(
                    Text(
                        *NP_("The ace of %(horses)s takes second place.", "The aces of %(horses)s share second place."),
                        count=len(horses),
                        horses=what,
                    )
                )
            self.over = True
            return
        self.winners = horses
        if exhausted:
            self._note(
                Text(
                    *NP_(
                        "The cards ran out: %(horses)s, furthest ahead, wins.",
                        "The cards ran out: %(horses)s, level and furthest ahead, share first place.",
                    ),
                    count=len(horses),
                    horses=what,
                )
            )
        else:
            # The horses are the aces: the sentence names the card, as the players say it.
            self._note(
                Text(
                    *NP_("The ace of %(horses)s wins the race.", "The aces of %(horses)s win the race."),
                    count=len(horses),
                    horses=what,
                )
            )
        if not self.second_place:
            self.over = True
            return
        self.stage = Stage.SECOND
        others = [h for h in HORSES if h not in horses]
        crossed = self._crossed(others)
        if self.options.second_by == "most_advanced" or crossed:
            self._judge_front(crossed or others)
        else:
            self._start(Stage.SECOND, others, self.options.finish)

    def _judge_front(self, horses: Sequence[Suit]) -> None:
        front = self._front(horses)
        if len(front) == 1:
            self._decide(front)
        else:
            self._tie_break(front)

    def _end_of_round(self) -> None:
        if self.judge == "lead":
            front = self._front(self.runners)
            if len(front) == 1:
                self._decide(front)
            return
        crossed = self._crossed(self.runners)
        if not crossed:
            return
        if self.judge == "most_advanced":
            self._judge_front(crossed)
        elif len(crossed) == 1:
            self._decide(crossed)
        else:
            self._tie_break(crossed)

    # -- the one action

    def deal(self, card: DerbyCard) -> None:
        horse = self.runners[self.slot]
        before = self.positions[horse]
        self.positions[horse] = advance(before, card, horse, self.options)
        self.steps.append(
            Step(
                index=len(self.steps),
                card=card,
                horse=horse,
                move=self.positions[horse] - before,
                positions=MappingProxyType(dict(self.positions)),
                stage=self.stage,
            )
        )
        self.slot += 1
        if self.judge == "first_to_line" and self.positions[horse] >= self.options.finish_line:
            self._decide([horse])
        elif self.slot == len(self.runners):
            self.slot = 0
            self._end_of_round()
        if not self.over and len(self.steps) >= self.options.stock:
            self._run_out()

    def _run_out(self) -> None:
        """No cards left; the horses furthest ahead among those still running take the
        place. When that decides the winner and second place is played, the second place that
        is still open goes the same way among the horses then running for it."""
        if not self.deciding_second:
            self._decide(self._front(self.runners), exhausted=True)
        if not self.over:
            self._decide(self._front(self.runners), exhausted=True)

    def result(self) -> Race:
        return Race(
            steps=tuple(self.steps),
            positions=MappingProxyType(dict(self.positions)),
            over=self.over,
            expecting=None if self.over else self.runners[self.slot],
            stage=None if self.over else self.stage,
            runners=() if self.over else self.runners,
            winners=self.winners,
            second=self.second,
            stock_left=self.options.stock - len(self.steps),
            finish_line=self.options.finish_line,
            notes=tuple(self.notes),
        )


def replay(cards: Sequence[object], options: DerbyOptions, *, second_place: bool = False, field: str = "cards") -> Race:
    """The race card by card, as far as ``cards`` go (a pure function: the race page calls it
    after each card entered, and :func:`parse_hand` with the whole list).

    ``cards`` are :class:`DerbyCard` values or their JSON (``{"rank", "suit"}``, optionally with
    the ``horse`` it was laid on). Refused, pointing at ``cards[i]``: a card of the wrong shape,
    an ace, a card turned twice, a card laid on the wrong horse, a card after the race is over
    and more cards than the stock holds. See :class:`_Replay` for how the finish is judged.

    Copas runs K, Q, J, 10 of its own suit (2.5, 2, 1.5 and 1.5 spaces) while the others get
    cards of the other colour (no move): it crosses alone in the fourth round and wins.

    >>> rounds = [("K", "3", "3", "3"), ("Q", "4", "4", "4"), ("J", "5", "5", "5"), ("10", "6", "6", "6")]
    >>> suits = ("copas", "espadas", "ouros", "copas")
    >>> cards = [{"rank": r, "suit": s} for ranks in rounds for r, s in zip(ranks, suits)]
    >>> race = replay(cards, DerbyOptions())
    >>> race.over, [h.value for h in race.winners], race.positions[Suit.COPAS]
    (True, ['copas'], 15)
    >>> race = replay(cards[:1], DerbyOptions())
    >>> race.over, race.expecting, race.positions[Suit.COPAS]
    (False, <Suit.OUROS: 'ouros'>, 5)
    """
    state = _Replay(options, second_place=second_place)
    seen: dict[DerbyCard, int] = {}
    for i, raw in enumerate(cards):
        where = f"{field}[{i}]"
        if isinstance(raw, DerbyCard):
            card, laid_on = raw, None
        else:
            card, laid_on = DerbyCard.parse(raw, field=where)
        if state.over:
            raise InconsistentHand(
                Text(N_("The race was already decided after card %(number)s, so no more cards are turned."), number=i),
                field=where,
            )
        if card in seen:
            raise InconsistentHand(
                Text(
                    N_("The %(card)s was already turned (card %(number)s); each card is turned only once."),
                    card=card.label,
                    number=seen[card] + 1,
                ),
                field=where,
            )
        expected = state.runners[state.slot]
        if laid_on is not None and laid_on is not expected:
            raise InconsistentHand(
                Text(
                    N_(
                        "Cards go to the horses in turn (hearts, diamonds, spades, clubs): card %(number)s goes to the ace of %(expected)s, not the ace of %(horse)s."
                    ),
                    number=i + 1,
                    expected=expected.label,
                    horse=laid_on.label,
                ),
                field=f"{where}.horse",
            )
        seen[card] = i
        state.deal(card)
    return state.result()


# --------------------------------------------------------------------------- the hand record

_SUIT_SCHEMA: Final = {"type": "string", "enum": [suit.value for suit in Suit]}
#: A place in the race: a horse, or the horses that shared it when the cards ran out.
_PLACES_SCHEMA: Final = {
    "oneOf": [
        _SUIT_SCHEMA,
        {"type": "array", "items": _SUIT_SCHEMA, "minItems": 1, "maxItems": len(HORSES), "uniqueItems": True},
    ]
}
_BETS_HELP: Final = N_("Give each player's bet: the horse (a suit) and the amount.")
_NAME_THE_HORSE: Final = N_("Name the horse (a suit).")

RECORD: Final = RecordSpec(
    game="Kentucky Derby",
    unknown=N_("A Kentucky Derby race has no field called %(name)s."),
    player_counts=PLAYER_COUNTS,
    doc="One Kentucky Derby race (see /games/kentucky_derby): every player's bet on one horse (an ace, named by "
    "its suit), and the cards turned in dealing order (copas, ouros, espadas, paus, again and again, then the "
    "tie-break cards), or only the winner (and the second horse with more than 6 players).",
    fields=(
        DEALER,
        Count(
            name="pingo",
            high=MAX_CHIPS,
            sentence=N_("The pingo is a whole number of chips."),
            bounds=N_("The pingo is from 0 to a million chips, not %(value)s."),
            doc="Chips each player puts in the centre; default: the table's option.",
        ),
        carried_in_field(N_("The chips carried in from earlier races are from 0 to a million, not %(value)s.")),
        Custom(
            name="bets",
            required=_BETS_HELP,
            doc="One entry per seated player.",
            json={
                "type": "object",
                "minProperties": 1,
                "additionalProperties": {
                    "oneOf": [
                        {**_SUIT_SCHEMA, "description": "The horse, with the table's usual bet."},
                        {
                            "type": "object",
                            "required": ["horse"],
                            "additionalProperties": False,
                            "properties": {
                                "horse": _SUIT_SCHEMA,
                                "amount": {"type": "integer", "minimum": 1, "maximum": MAX_CHIPS},
                            },
                        },
                    ]
                },
            },
        ),
        Custom(
            name="cards",
            doc="The cards turned, in dealing order; the list ends when the race is decided.",
            json={
                "type": "array",
                "maxItems": DECK_WITHOUT_ACES,
                "items": {
                    "type": "object",
                    "required": ["rank", "suit"],
                    "additionalProperties": False,
                    "properties": {
                        "rank": {"type": "string", "enum": [rank for rank in RANKS if rank != "A"]},
                        "suit": _SUIT_SCHEMA,
                        "horse": {
                            **_SUIT_SCHEMA,
                            "description": "The horse it was laid on: must be the one whose turn it is.",
                        },
                    },
                },
            },
        ),
        Custom(
            name="winner",
            doc="The winning horse, or several that shared the win when the cards ran out.",
            json=_PLACES_SCHEMA,
        ),
        Custom(name="second", doc="Only when second place is played.", json=_PLACES_SCHEMA),
    ),
    example={
        "dealer": "Dani",
        "pingo": 1,
        "bets": {
            "Ana": {"horse": "copas", "amount": 2},
            "Bia": "paus",
            "Caio": {"horse": "ouros", "amount": 1},
            "Dani": {"horse": "paus", "amount": 3},
        },
        "cards": [
            {"rank": rank, "suit": suit}
            for rank, suit in (
                ("3", "paus"),
                ("J", "paus"),
                ("5", "copas"),
                ("K", "paus"),
                ("5", "paus"),
                ("Q", "copas"),
                ("9", "ouros"),
                ("6", "paus"),
                ("3", "ouros"),
                ("K", "espadas"),
                ("6", "copas"),
                ("8", "paus"),
                ("4", "espadas"),
                ("8", "copas"),
                ("7", "copas"),
                ("K", "ouros"),
            )
        ],
        "winner": "paus",
    },
    example_players=("Ana", "Bia", "Caio", "Dani"),
)


@dataclass(frozen=True, kw_only=True)
class Bet:
    horse: Suit
    amount: int


@dataclass(frozen=True, kw_only=True)
class DerbyHand(Record):
    """A validated race. Build it with :func:`parse_hand`; built any other way it still checks
    itself (:meth:`check`), so the settlement never meets a broken race.

    ``bets`` is keyed by the players in seat order. ``race`` is the replay when the cards were
    given (None when only the result was). ``winners``/``second`` are the decided places
    (``second`` empty when second place is not played).
    """

    spec: ClassVar[RecordSpec] = RECORD

    players: tuple[str, ...]
    dealer: str
    pingo: int
    bets: Mapping[str, Bet]
    cards: tuple[DerbyCard, ...] | None
    race: Race | None
    winners: tuple[Suit, ...]
    second: tuple[Suit, ...]
    carried_in: int

    def check(self) -> None:
        """Besides the declared fields: a bet of at least a chip for every seated player and
        nobody else (the pot takes each player's bet, the proportional split divides by them),
        a winner, and no horse in both places."""
        super().check()
        _check_bettors(self.players, self.bets)
        for name in self.players:
            if name not in self.bets:
                raise _no_bet(name)
            _bet_amount(self.bets[name].amount, field=f"bets.{name}.amount")
        if not self.winners:
            raise InvalidInput(Text(_NAME_THE_HORSE), field="winner")
        _check_places(self.winners, self.second)

    def to_json(self) -> dict[str, object]:
        """The record as stored and exported, amounts and places filled in."""
        out: dict[str, object] = {
            "dealer": self.dealer,
            "pingo": self.pingo,
            "bets": {p: {"horse": b.horse.value, "amount": b.amount} for p, b in self.bets.items()},
        }
        if self.cards is not None:
            out["cards"] = [c.to_json() for c in self.cards]
        out["winner"] = _places_json(self.winners)
        if self.second:
            out["second"] = _places_json(self.second)
        out["carried_in"] = self.carried_in
        return out


def _places_json(horses: Sequence[Suit]) -> str | list[str]:
    return horses[0].value if len(horses) == 1 else [h.value for h in horses]


def _check_bettors(players: Sequence[str], names: Iterable[object]) -> None:
    """Only seated players bet."""
    for name in names:
        seats.require_player(players, name, field=f"bets.{name}")


def _no_bet(name: str) -> InvalidInput:
    return InvalidInput(
        Text(N_("%(name)s has no bet: every player bets on one horse."), name=name), field=f"bets.{name}"
    )


def _bet_amount(raw: object, *, field: str) -> int:
    return require_chips(
        raw,
        field=field,
        minimum=1,
        sentence=N_("A bet is a whole number of chips."),
        bounds=N_("A bet is at least 1 chip (and at most a million), not %(value)s."),
    )


def _parse_bets(players: Sequence[str], raw: object, options: DerbyOptions) -> dict[str, Bet]:
    """Every player bets, on exactly one horse."""
    if not isinstance(raw, Mapping):
        raise InvalidInput(Text(_BETS_HELP), field="bets")
    _check_bettors(players, raw)
    bets: dict[str, Bet] = {}
    for name in players:
        field = f"bets.{name}"
        if name not in raw:
            raise _no_bet(name)
        entry = raw[name]
        if isinstance(entry, str):
            entry = {"horse": entry}
        if not isinstance(entry, Mapping) or not set(entry) <= {"horse", "amount"}:
            raise InvalidInput(
                Text(N_("%(name)s's bet must give the horse (a suit) and the amount."), name=name), field=field
            )
        horse = entry.get("horse")
        if isinstance(horse, Sequence) and not isinstance(horse, str):
            raise InconsistentHand(
                Text(N_("%(name)s bets on exactly one horse, not %(count)s."), name=name, count=len(horse)),
                field=f"{field}.horse",
            )
        if horse is None:
            raise InvalidInput(Text(N_("Say which horse %(name)s bets on."), name=name), field=f"{field}.horse")
        amount = entry.get("amount")
        bets[name] = Bet(
            horse=parse_suit(horse, field=f"{field}.horse"),
            amount=options.bet if amount is None else _bet_amount(amount, field=f"{field}.amount"),
        )
    return bets


def _parse_places(raw: object, *, field: str) -> tuple[Suit, ...]:
    """A horse, or a list of distinct horses (level when the cards ran out)."""
    items = raw if isinstance(raw, Sequence) and not isinstance(raw, str) else [raw]
    if not items:
        raise InvalidInput(Text(_NAME_THE_HORSE), field=field)
    horses = [parse_suit(item, field=field) for item in items]
    if len(set(horses)) != len(horses):
        raise InconsistentHand(Text(N_("A horse is named twice.")), field=field)
    return tuple(h for h in HORSES if h in horses)


def _check_places(winners: Sequence[Suit], second: Sequence[Suit]) -> None:
    """No horse both wins and takes second place (four horses in all)."""
    if set(second) & set(winners):
        raise InconsistentHand(Text(N_("A winning horse cannot also take second place.")), field="second")
    if len(winners) + len(second) > len(HORSES):
        raise InconsistentHand(Text(N_("There are only four horses.")), field="second")


def _second_not_played(player_count: int, options: DerbyOptions) -> InconsistentHand:
    """The refusal of a second horse at a table that does not play second place."""
    if options.second_place == "never":
        why = Text(N_("This table plays for first place only: leave out the second horse."))
    else:
        why = Text(
            N_(
                "Second place is only played with more than %(count)s players; this table has %(players)s: leave it out."
            ),
            count=SECOND_PLACE_ABOVE - 1 if options.second_place == "from_6" else SECOND_PLACE_ABOVE,
            players=player_count,
        )
    return InconsistentHand(why, field="second")


def _finished_race(raw: object, options: DerbyOptions, *, second_place: bool) -> Race:
    """The race the cards give: a list no longer than the stock, ending exactly when the race is decided."""
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
        raise InvalidInput(Text(N_("The cards must be a list, in the order they were turned.")), field="cards")
    if len(raw) > options.stock:
        raise InconsistentHand(
            Text(
                N_(
                    "Only %(stock)s cards can be turned (the deck without the aces and the track), but %(count)s were entered."
                ),
                stock=options.stock,
                count=len(raw),
            ),
            field="cards",
        )
    race = replay(raw, options, second_place=second_place)
    if not race.over:
        assert race.expecting is not None
        raise InconsistentHand(
            Text(
                N_("The race is not over yet: the next card goes to the ace of %(horse)s."), horse=race.expecting.label
            ),
            field="cards",
        )
    return race


def _check_agree(race: Race, winner: tuple[Suit, ...] | None, second: tuple[Suit, ...] | None) -> None:
    """The places entered beside the cards are the ones the cards give."""
    if winner is not None and winner != race.winners:
        raise InconsistentHand(
            Text(N_("The cards make %(horses)s the winner, not the horse entered."), horses=_horses(race.winners)),
            field="winner",
        )
    if second is not None and second != race.second:
        raise InconsistentHand(
            Text(N_("The cards put %(horses)s in second place, not the horse entered."), horses=_horses(race.second)),
            field="second",
        )


def _places_given(
    winner: tuple[Suit, ...] | None, second: tuple[Suit, ...] | None, *, second_place: bool
) -> tuple[tuple[Suit, ...], tuple[Suit, ...]]:
    """The places when only the result was entered: the winner, and the second horse when it is played."""
    if winner is None:
        raise InvalidInput(Text(N_("Give the cards turned, or at least the winning horse.")), field="winner")
    if second_place and not second:
        raise InvalidInput(
            Text(N_("With more than 6 players second place is played: name the second horse too.")), field="second"
        )
    _check_places(winner, second or ())
    return winner, second or ()


def parse_hand(
    raw: object, *, players: Sequence[str], options: DerbyOptions, dealer: str, teams: Teams = ()
) -> DerbyHand:
    """Validate a posted race against the rules, or raise a :class:`RulesError`.

    The record's shape is :data:`RECORD`'s (3 to 40 players, no unknown field, the dealer
    seated, ``pingo`` and ``carried_in`` whole numbers from 0, the bets given); the rules add, in
    the order a player would look: every seated player bets on exactly one horse, at least 1
    chip; a second place only when it is played (more than 6 players); the cards (see
    :func:`replay`: one per horse in turn, no ace, none twice, none after the race is decided,
    the race complete), with ``winner``/``second`` agreeing with them when both are given;
    without cards, the winner (and the second horse when it is played), never the same horse.
    """
    if not isinstance(raw, Mapping):
        raise InvalidInput(Text(N_("A race must be a JSON object.")))  # the Derby's word for a hand
    values = RECORD.read(raw, players=players)
    players = tuple(players)
    bets = _parse_bets(players, values["bets"], options)
    in_play = second_place_in_play(len(players), options)
    given_winner = _parse_places(values["winner"], field="winner") if "winner" in values else None
    given_second = _parse_places(values["second"], field="second") if "second" in values else None
    if given_second is not None and not in_play:
        raise _second_not_played(len(players), options)
    race = None
    if "cards" in values:
        race = _finished_race(values["cards"], options, second_place=in_play)
        _check_agree(race, given_winner, given_second)
        winners, second = race.winners, race.second
    else:
        winners, second = _places_given(given_winner, given_second, second_place=in_play)
    return DerbyHand(
        players=players,
        dealer=values.get("dealer", dealer),
        pingo=values.get("pingo", options.pingo),
        bets=MappingProxyType(bets),
        cards=None if race is None else tuple(step.card for step in race.steps),
        race=race,
        winners=winners,
        second=second,
        carried_in=values.get("carried_in", 0),
    )


# --------------------------------------------------------------------------- the pot


@dataclass(frozen=True, kw_only=True)
class DerbyResult:
    """What the race pays: each player's stake (pingo + bet) and what he takes from the pot,
    and the chips left on the table for the next race (``carried_out``)."""

    stakes: Mapping[str, int]
    receives: Mapping[str, int]
    pot: int
    carried_out: int
    lines: tuple[Line, ...]

    @property
    def deltas(self) -> dict[str, int]:
        return {p: self.receives[p] - self.stakes[p] for p in self.stakes}


def pot_result(hand: DerbyHand, options: DerbyOptions) -> DerbyResult:
    """The pot and who takes what.

    The pot is every player's pingo and bet plus the chips carried in. The backers of the second
    horse (when played) take back their bets. The rest goes to the backers of the winner in
    equal parts whatever each bet (``split="proportional"``: in proportion to their bets, each
    share rounded down); chips that do not divide stay on the table. Nobody backed the winner:
    the rest stays on the table (``unbacked="refund"``: every player takes back his
    pingo and bet, and only the chips carried in stay). Backers are taken in seat order; the
    equal split gives no one an odd chip, so the order never changes an amount.

    >>> hand = parse_hand({"pingo": 1, "bets": {"Ana": {"horse": "copas", "amount": 2}, "Bia": {"horse": "copas", "amount": 1},
    ...     "Caio": {"horse": "paus", "amount": 1}}, "winner": "copas"}, players=("Ana", "Bia", "Caio"), options=DerbyOptions(), dealer="Caio")
    >>> r = pot_result(hand, DerbyOptions()); r.pot, dict(r.receives), r.carried_out
    (7, {'Ana': 3, 'Bia': 3, 'Caio': 0}, 1)
    """
    players = hand.players
    chips = antes(players, hand.pingo, carried_in=hand.carried_in)
    for p in players:
        chips = chips.add(p, hand.bets[p].amount)
    stakes = dict(chips.paid)
    receives = dict.fromkeys(players, 0)
    staked = sum(stakes.values())
    pot = chips.chips
    lines = _pot_lines(hand, pot)
    rest = pot
    head = len(lines)
    if hand.second:
        refunded = [p for p in players if hand.bets[p].horse in hand.second]
        for p in refunded:
            receives[p] += hand.bets[p].amount
            rest -= hand.bets[p].amount
        if refunded:
            lines.append(
                Line(
                    text=Text(
                        *NP_(
                            "Second place, %(horses)s: %(names)s takes back the bet.",
                            "Second place, %(horses)s: %(names)s take back their bets.",
                        ),
                        count=len(refunded),
                        horses=_horses(hand.second),
                        names=seats.join_names(refunded),
                    ),
                    amount=sum(hand.bets[p].amount for p in refunded),
                )
            )
        else:
            lines.append(
                Line(
                    text=Text(N_("Second place, %(horses)s: nobody backed it."), horses=_horses(hand.second)), amount=0
                )
            )
    backers = [p for p in players if hand.bets[p].horse in hand.winners]
    if not backers:
        if options.unbacked == "refund":
            for p in players:
                receives[p] = stakes[p]
            carried_out = hand.carried_in
            del lines[head:]  # second place changes nothing when every bet goes back
            lines.append(
                Line(
                    text=Text(
                        N_("Nobody backed %(horses)s: every player takes back what he put in."),
                        horses=_horses(hand.winners),
                    ),
                    amount=staked,
                )
            )
            if carried_out:
                lines.append(
                    Line(
                        text=Text(
                            *NP_(
                                "The %(count)s chip carried in stays on the table for the next race.",
                                "The %(count)s chips carried in stay on the table for the next race.",
                            ),
                            count=carried_out,
                        ),
                        amount=carried_out,
                    )
                )
        else:
            carried_out = rest
            lines.append(
                Line(
                    text=Text(
                        *NP_(
                            "Nobody backed %(horses)s: the %(count)s chip stays on the table for the next race.",
                            "Nobody backed %(horses)s: the %(count)s chips stay on the table for the next race.",
                        ),
                        horses=_horses(hand.winners),
                        count=rest,
                    ),
                    amount=rest,
                )
            )
        lines.append(_shared_out(pot))
        return DerbyResult(
            stakes=MappingProxyType(stakes),
            receives=MappingProxyType(receives),
            pot=pot,
            carried_out=carried_out,
            lines=tuple(lines),
        )
    if options.split == "proportional":
        backed = sum(hand.bets[p].amount for p in backers)
        shares = {p: rest * hand.bets[p].amount // backed for p in backers}
        text = Text(
            *NP_(
                "%(names)s backed %(horses)s and share %(count)s chip in proportion to their bets.",
                "%(names)s backed %(horses)s and share %(count)s chips in proportion to their bets.",
            ),
            names=seats.join_names(backers),
            horses=_horses(hand.winners),
            count=rest,
        )
    else:
        equal = split(rest, backers)
        share = equal.each
        shares = dict(equal.shares)
        text = Text(
            *NP_(
                "%(names)s backed %(horses)s and takes the %(rest)s chips: %(share)s.",
                "%(names)s backed %(horses)s and share %(rest)s chips in equal parts: %(share)s each.",
            ),
            count=len(backers),
            names=seats.join_names(backers),
            horses=_horses(hand.winners),
            rest=rest,
            share=share,
        )
    for p, amount in shares.items():
        receives[p] += amount
    lines.append(Line(text=text, amount=sum(shares.values())))
    carried_out = rest - sum(shares.values())
    if carried_out:
        lines.append(
            Line(
                text=Text(
                    *NP_(
                        "%(count)s chip left over from the split stays on the table for the next race.",
                        "%(count)s chips left over from the split stay on the table for the next race.",
                    ),
                    count=carried_out,
                ),
                amount=carried_out,
            )
        )
    lines.append(_shared_out(pot))
    return DerbyResult(
        stakes=MappingProxyType(stakes),
        receives=MappingProxyType(receives),
        pot=pot,
        carried_out=carried_out,
        lines=tuple(lines),
    )


def _pot_lines(hand: DerbyHand, pot: int) -> list[Line]:
    """The pot as a sum: the pingos, the bets and any chips carried in, then the pot under them.
    The lines after it share the pot out and add up to it again (:func:`_shared_out`)."""
    n = len(hand.players)
    bets = sum(hand.bets[p].amount for p in hand.players)
    lines = [
        Line(
            text=Text(
                *NP_(
                    "%(count)s player put in a pingo of %(pingo)s.",
                    "%(count)s players put in a pingo of %(pingo)s each.",
                ),
                count=n,
                pingo=hand.pingo,
            ),
            amount=n * hand.pingo,
        ),
        Line(text=Text(*NP_("%(count)s chip was bet.", "%(count)s chips were bet."), count=bets), amount=bets),
    ]
    if hand.carried_in:
        lines.append(
            Line(
                text=Text(
                    *NP_(
                        "%(count)s chip left on the table by earlier races is in the pot.",
                        "%(count)s chips left on the table by earlier races are in the pot.",
                    ),
                    count=hand.carried_in,
                ),
                amount=hand.carried_in,
            )
        )
    lines.append(Line(text=Text(N_("The pot")), amount=pot, total=True))
    return lines


def _shared_out(pot: int) -> Line:
    """The sum under the lines that share the pot out: all of it, to a chip."""
    return Line(text=Text(N_("The whole pot, shared out")), amount=pot, total=True)


def settle(hand: DerbyHand, options: DerbyOptions) -> Settlement:
    """Each player's net for the race: what he takes from the pot less his pingo and bet (a
    :class:`~referee.rules.pot.PotSettlement`). The deltas sum to ``-carry`` where ``carry =
    carried_out - carried_in`` (module docstring)."""
    result = pot_result(hand, options)
    return pot_settlement(
        hand.players,
        paid=result.stakes,
        won={p: amount for p, amount in result.receives.items() if amount},
        carried_in=hand.carried_in,
        carried_out=result.carried_out,
        lines=result.lines,
    )


# --------------------------------------------------------------------------- seats


def contract_summary(hand: DerbyHand) -> dict[str, object]:
    """What was run, for the answer and the history: the places, the backers of each horse and
    the chips carried in (the chips left for the next race are ``carried_in`` plus the
    settlement's ``carry``)."""
    return {
        "winner": [h.value for h in hand.winners],
        "second": [h.value for h in hand.second],
        "backers": {h.value: [p for p in hand.players if hand.bets[p].horse is h] for h in HORSES},
        "carried_in": hand.carried_in,
    }


GAME: Final = Game[DerbyOptions, DerbyHand](
    slug=SLUG,
    name="Kentucky Derby",
    options_class=DerbyOptions,
    record=RECORD,
    parse=parse_hand,
    settle=settle,
    contract_json=contract_summary,
    stock_option="starting_chips",
    ante_option="pingo",
    money_option="chip_value",
    kind=POT,  # the record takes carried_in, filled in by the ledger
)
