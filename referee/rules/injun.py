"""Injun: one card each, seen by everybody but its holder; bets; the highest card wins.

2 to 15 players, 52 cards, A high down to 2, suits equal. Every player, dealer included, antes;
the betting starts with the player after the dealer (his left) and goes on in order of play.
Two betting systems:

* **Poker**: the first bet is any amount; each later bet must be more than the bet just
  before it, or equal to it, which closes the betting. A player who does not bet drops out
  (his chips stay in the pot). By default every player still in then goes to the
  showdown with what he put in; under ``poker_amounts="match_highest"`` each of them must first
  bring his bets up to the highest total or drop. If all but one drop, he takes the pot
  without a showdown.
* **Brag**: every bet is one chip. With exactly two players left either may pay two
  chips to see (a showdown); if one of the two drops, the other takes the pot without showing
  his card. A player out of chips may close the pot with his card and stay in for it: later
  bets go to a new pot. Each closed pot is contested by its closer, the later closers and the
  players still betting at the end; when the betting ends because one of the last two
  dropped, the survivor takes the last pot and compares cards for the closed ones (or, under
  ``surrender_closed="survivor_takes_all"``, takes every pot without comparing).

Ties split the pot; the odd chips stay on the table for the next deal, or go one each
to the tied players nearest the dealer's left (``odd_chip="dealer_left"``).

**The hand record**:
``{"dealer", "system", "ante", "actions": [[player, action], ...], "cards": {player: rank}}``.
``system`` and ``ante`` default to the table's options; a record may name them (the players
agree the ante before each deal). An action is ``{"bet": n}`` or ``"drop"``; in Brag ``"bet"``
(one chip; ``{"bet": 1}`` is read the same), ``"see"`` (two chips) and ``"close"`` (out of
chips: the pot is closed with his card). ``cards`` gives the rank (``"A" "K" "Q" "J" "10"`` …
``"2"``) of exactly the players whose cards are compared, and only when cards are compared.
The referee does not keep the players' stacks, so it cannot tell whether a player who closes
a pot is really out of chips; it takes the table's word for it.

**Extension of the record as first specified:** ``"carried_in": n`` (default 0), the chips a previous deal
left on the table (odd chips of a split). They go into the first pot. The engine cannot know
the previous deal, so the ledger fills this in: it equals the previous deal's
``PotSettlement.carried_out``, which is also minus the sum of all deltas so far (see
:mod:`referee.rules.pot`). The settlement's ``carry`` is the net the deal leaves on the table
(``carried_out - carried_in``), so its deltas sum to ``-carry`` as every settlement's do.

The module's surface: :data:`OPTIONS` and :class:`InjunOptions`; :class:`Action` (with
:func:`parse_action`), :class:`Betting` — the betting as a state machine that says, after any
prefix of actions, whose turn it is (``turn``) and what he may do (``legal_actions()``,
``can``, ``verify``, ``act``) — and :func:`replay` / :func:`legal_actions` for the page;
:data:`RECORD` (the hand record's fields) and :func:`parse_hand` (a posted record to a validated
:class:`InjunHand`, or a :class:`~referee.rules.errors.RulesError` with a sentence);
:func:`settle`; and :data:`GAME`, the game as the rest of the app sees it (the player after
the dealer bets first, and the deal passes to the left whoever won: the ``Game`` defaults).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import ClassVar, Final

from . import pot as potlib
from . import seats
from .cards import FRENCH_RANKS
from .errors import IllegalCall, InconsistentHand, InvalidInput
from .game import Game, Teams
from .kinds import POT
from .options import Choice, OptionSet, OptionSpec, from_spec
from .record import DEALER, Count, Custom, Record, RecordSpec, name_schema
from .record import Choice as ChoiceField
from .settle import Line
from .text import N_, NP_, Text

SLUG: Final = "injun"
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 15
PLAYER_COUNTS: Final = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
#: Ranks in the API spelling, lowest first: the order that decides the showdown.
RANKS: Final = tuple(reversed(FRENCH_RANKS))
#: Cards of each rank in the 52-card deck: more players cannot show the same rank.
PER_RANK: Final = 4
BRAG_BET: Final = 1
SEE_COST: Final = 2
#: The largest amount the engine takes (a bet, an ante, chips carried in).
MAX_CHIPS: Final = potlib.MAX_CHIPS


class System(Enum):
    """The two betting systems of the text."""

    POKER = "poker"
    BRAG = "brag"

    @property
    def label(self) -> str:
        return "Poker" if self is System.POKER else "Brag"


class Kind(Enum):
    BET = "bet"
    DROP = "drop"
    SEE = "see"  # Brag: pay two chips to see, with two players left
    CLOSE = "close"  # Brag: out of chips, the pot is closed with his card


class Status(Enum):
    IN = "in"  # still betting
    DROPPED = "dropped"
    CLOSED = "closed"  # closed a pot: no more bets, but in the showdown of his pots


class End(Enum):
    """How the betting ended."""

    CALLED = "called"  # Poker: a bet equal to the one before it closed the betting
    LAST_STANDING = "last_standing"  # everybody else dropped out
    SEEN = "seen"  # Brag: one of the last two paid to see
    CLOSED_OUT = "closed_out"  # Brag: a closing left a single player betting


@dataclass(frozen=True, kw_only=True)
class Action:
    """One thing a player does in his turn. ``amount`` is the chips it puts in the pot."""

    kind: Kind
    amount: int = 0

    def __post_init__(self) -> None:
        if (
            (self.kind is Kind.BET and self.amount < 1)
            or (self.kind in (Kind.DROP, Kind.CLOSE) and self.amount)
            or (self.kind is Kind.SEE and self.amount != SEE_COST)
        ):
            raise ValueError(f"bad action {self}")

    @staticmethod
    def bet(amount: int) -> Action:
        return Action(kind=Kind.BET, amount=amount)

    def to_json(self, system: System) -> object:
        """The API spelling: ``{"bet": n}`` in Poker, ``"bet"`` in Brag, else the kind's name."""
        if self.kind is Kind.BET and system is System.POKER:
            return {"bet": self.amount}
        return self.kind.value


DROP: Final = Action(kind=Kind.DROP)
SEE: Final = Action(kind=Kind.SEE, amount=SEE_COST)
CLOSE: Final = Action(kind=Kind.CLOSE)

_ACTION_HELP: Final = N_(
    'Injun has no action %(action)s; use {"bet": n} or "drop" (in Brag also "bet", "see" and "close").'
)


def parse_action(raw: object, system: System, *, field: str | None = None) -> Action:
    """An action from its API spelling. A wrong shape is :class:`InvalidInput`; a spelling the
    betting system forbids (an amount-less bet in Poker, a bet of 0) is :class:`IllegalCall`.

    >>> parse_action({"bet": 20}, System.POKER)
    Action(kind=<Kind.BET: 'bet'>, amount=20)
    >>> parse_action("bet", System.BRAG) == parse_action({"bet": 1}, System.BRAG) == Action.bet(1)
    True
    """
    if isinstance(raw, Action):
        return raw
    if isinstance(raw, str):
        if raw == "drop":
            return DROP
        if raw == "see":
            return SEE
        if raw == "close":
            return CLOSE
        if raw == "bet":
            if system is System.POKER:
                raise IllegalCall(Text(N_('In Poker betting a bet names its amount, e.g. {"bet": 20}.')), field=field)
            return Action.bet(BRAG_BET)
    if isinstance(raw, Mapping) and set(raw) == {"bet"}:
        amount = raw["bet"]
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise InvalidInput(Text(N_("A bet is a whole number of chips.")), field=field)
        if amount < 1:
            raise IllegalCall(
                Text(N_("A bet is at least one chip; a player who does not want to bet drops out.")), field=field
            )
        if amount > MAX_CHIPS:
            raise InvalidInput(Text(N_("A bet is at most %(max)s chips."), max=MAX_CHIPS), field=field)
        return Action.bet(amount)
    raise InvalidInput(Text(_ACTION_HELP, action=str(raw)), field=field)


def rank_value(rank: str) -> int:
    """A rank's place in the order A high … 2 low (suits are equal).

    >>> rank_value("A") > rank_value("K") > rank_value("10") > rank_value("2")
    True
    """
    return RANKS.index(rank)


# --------------------------------------------------------------------------- options

OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(
        name="system",
        kind="choice",
        default="poker",
        choices=(
            Choice(value="poker", label=Text(N_("Poker: each bet must top the one before; an equal bet closes"))),
            Choice(value="brag", label=Text(N_("Brag: one chip a bet; with two left, pay two chips to see"))),
        ),
        label=Text(N_("Betting system")),
        help=Text(N_("A hand may name its own system; this is the one the page offers first.")),
        rule_ref="docs/rules.md#injun-options",
    ),
    potlib.ante_option(
        Text(N_("The dealer antes too, in both systems. A hand may name its own ante.")), "docs/rules.md#injun-options"
    ),
    OptionSpec(
        name="poker_amounts",
        kind="choice",
        default="literal",
        choices=(
            Choice(value="literal", label=Text(N_("Everyone still in goes to the showdown with what they put in"))),
            Choice(
                value="match_highest",
                label=Text(N_("Everyone still in must first match the highest total or drop out")),
            ),
        ),
        label=Text(N_("Poker: after the closing bet")),
        help=Text(N_("The two readings give different results when the winner put in the most.")),
        rule_ref="docs/rules.md#injun-options",
    ),
    OptionSpec(
        name="odd_chip",
        kind="choice",
        default="carry",
        choices=(
            Choice(value="carry", label=Text(N_("Stays in the pot for the next deal"))),
            Choice(value="dealer_left", label=Text(N_("Goes to the tied player nearest the dealer's left"))),
        ),
        label=Text(N_("A chip left over when a tie splits a pot")),
        help=Text(N_("With several odd chips, one each to the tied players in order from the dealer's left.")),
        rule_ref="docs/rules.md#injun-options",
    ),
    OptionSpec(
        name="surrender_closed",
        kind="choice",
        default="compare",
        choices=(
            Choice(value="compare", label=Text(N_("The survivor compares cards with the closers for the closed pots"))),
            Choice(value="survivor_takes_all", label=Text(N_("The survivor takes every pot without comparing"))),
        ),
        label=Text(N_("Brag: when one of the last two gives up and a pot was closed")),
        help=Text(N_("The player who gave up loses every claim either way.")),
        rule_ref="docs/rules.md#injun-options",
    ),
    *potlib.CHIP_OPTIONS,
)


@dataclass(frozen=True, kw_only=True)
class InjunOptions(OptionSet):
    """The house rules of one table; the defaults are the readings Referee chose where the rule text is open."""

    system: str = from_spec()
    ante: int = from_spec()
    poker_amounts: str = from_spec()
    odd_chip: str = from_spec()
    surrender_closed: str = from_spec()
    starting_chips: int = from_spec()
    chip_value: str = from_spec()

    specs = OPTIONS


# --------------------------------------------------------------------------- seats


# --------------------------------------------------------------------------- the betting


@dataclass(frozen=True, kw_only=True)
class LegalActions:
    """What the player to act may do now (``player`` None once the betting is over).

    Poker: ``raise_from`` is the smallest bet that tops the previous one (any bet from 1 when
    nobody has bet; None when raising is no longer allowed), ``call`` the one amount that
    closes the betting (equal to the previous bet) or, under ``match_highest`` after the
    close, brings the player level. Brag: ``bet`` (one chip), ``see`` and ``close``.
    """

    player: str | None
    drop: bool = False
    raise_from: int | None = None
    call: int | None = None
    bet: bool = False
    see: bool = False
    close: bool = False

    def allows(self, action: Action) -> bool:
        """True when ``action`` is among these (the page's buttons and the referee agree)."""
        if self.player is None:
            return False
        if action.kind is Kind.DROP:
            return self.drop
        if action.kind is Kind.SEE:
            return self.see
        if action.kind is Kind.CLOSE:
            return self.close
        if self.bet:
            return action.amount == BRAG_BET
        return action.amount == self.call or (self.raise_from is not None and action.amount >= self.raise_from)

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "drop": self.drop,
            "raise_from": self.raise_from,
            "call": self.call,
            "bet": self.bet,
            "see": self.see,
            "close": self.close,
        }


@dataclass(frozen=True, kw_only=True)
class HandPot:
    """One pot at the end of the betting: its chips, who closed it (None for the last, open
    pot) and who may win it, in order from the dealer's left."""

    chips: int
    closer: str | None
    contenders: tuple[str, ...]

    @property
    def contested(self) -> bool:
        """True when cards are compared for it."""
        return len(self.contenders) > 1


class Betting:
    """The betting of one deal as a state machine (verify / can / act, and the legal actions).

    Feed it actions in order with :meth:`act`; at any point :attr:`turn` says who acts and
    :meth:`legal_actions` what he may do. Every betting rule lives in :meth:`_reason`, so the
    page's buttons and the refusal of a forged request share one definition of legal.
    """

    def __init__(
        self,
        *,
        players: Sequence[str],
        dealer: str,
        system: System,
        ante: int,
        carried_in: int = 0,
        match_highest: bool = False,
    ) -> None:
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS or len(set(players)) != len(players) or dealer not in players:
            raise ValueError("a betting needs 2 to 15 distinct players and a seated dealer")
        self.order = seats.order_from(players, seats.after(players, dealer))
        self.system = system
        self.ante = ante
        self.carried_in = carried_in
        self.match_highest = match_highest and system is System.POKER
        self.actions: list[tuple[str, Action]] = []
        self.status = dict.fromkeys(self.order, Status.IN)
        self.bets = dict.fromkeys(self.order, 0)
        self.pots: list[potlib.Pot] = [potlib.antes(self.order, ante, carried_in=carried_in)]
        self.closers: list[str] = []
        self.last_bet: int | None = None  # Poker: the bet just before (drops are not bets)
        self.closed_by: str | None = None  # Poker: who made the closing bet
        self.owing: list[str] | None = None  # Poker under match_highest: who must still match
        self.owed = False  # Poker under match_highest: somebody had to match after the close
        self.end: End | None = None
        self._last_actor: str | None = None

    # -- questions

    @property
    def betting(self) -> tuple[str, ...]:
        """The players still betting, in order from the dealer's left."""
        return tuple(p for p in self.order if self.status[p] is Status.IN)

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def turn(self) -> str | None:
        """Who acts now (None once the betting is over)."""
        if self.end is not None:
            return None
        if self.owing is not None:
            return self.owing[0]
        if self._last_actor is None:
            return self.betting[0]
        start = self.order.index(self._last_actor)
        for step in range(1, len(self.order) + 1):
            name = self.order[(start + step) % len(self.order)]
            if self.status[name] is Status.IN:
                return name
        raise AssertionError("nobody left betting")  # pragma: no cover - the betting ended

    @property
    def top(self) -> int:
        """The highest amount a player still betting has bet."""
        return max((self.bets[p] for p in self.betting), default=0)

    def legal_actions(self) -> LegalActions:
        """What the player to act may do now."""
        turn = self.turn
        if turn is None:
            return LegalActions(player=None)
        if self.system is System.BRAG:
            return LegalActions(player=turn, drop=True, bet=True, see=len(self.betting) == 2, close=True)
        if self.owing is not None:
            return LegalActions(player=turn, drop=True, call=self.top - self.bets[turn])
        if self.last_bet is None:
            return LegalActions(player=turn, drop=True, raise_from=1)
        return LegalActions(player=turn, drop=True, raise_from=self.last_bet + 1, call=self.last_bet)

    def can(self, player: str, action: Action) -> bool:
        return self._reason(player, action) is None

    def verify(self, player: str, action: Action, *, field: str | None = None) -> None:
        """Raise :class:`IllegalCall` with the reason when ``player`` may not do ``action`` now."""
        reason = self._reason(player, action)
        if reason is not None:
            raise IllegalCall(reason, field=field)

    # -- acting

    def act(self, player: str, action: Action, *, field: str | None = None) -> None:
        """Record ``action`` by ``player`` after checking it."""
        self.verify(player, action, field=field)
        self.actions.append((player, action))
        self._last_actor = player
        if action.kind is Kind.DROP:
            self.status[player] = Status.DROPPED
            if self.owing is not None:
                self.owing.remove(player)
        elif action.kind is Kind.CLOSE:
            self.status[player] = Status.CLOSED
            self.closers.append(player)
            self.pots.append(potlib.Pot())
        else:
            self.bets[player] += action.amount
            self.pots[-1] = self.pots[-1].add(player, action.amount)
            if action.kind is Kind.SEE:
                self.end = End.SEEN
            elif self.system is System.POKER:
                self._poker_bet(player, action.amount)
        if self.end is None and len(self.betting) == 1:
            self.end = End.CLOSED_OUT if action.kind is Kind.CLOSE else End.LAST_STANDING
        if self.end is None and self.owing is not None and not self.owing:
            self.end = End.CALLED

    def _poker_bet(self, player: str, amount: int) -> None:
        if self.owing is not None:
            self.owing.pop(0)
            return
        if self.last_bet is not None and amount == self.last_bet:
            self.closed_by = player
            if not self.match_highest:
                self.end = End.CALLED
                return
            top = self.top
            after = seats.order_from(self.order, seats.after(self.order, player))
            self.owing = [p for p in after if self.status[p] is Status.IN and self.bets[p] < top]
            self.owed = bool(self.owing)
            return
        self.last_bet = amount

    # -- the rules

    def _reason(self, player: str, action: Action) -> Text | None:
        """Why ``player`` may not do ``action`` now, or None when he may."""
        if player not in self.status:
            return Text(N_("%(name)s does not play this hand."), name=player)
        if self.end is not None:
            return Text(N_("The betting is over; nothing more can be done in this hand."))
        if self.status[player] is Status.DROPPED:
            return Text(N_("%(name)s has dropped out and takes no further part in the betting."), name=player)
        if self.status[player] is Status.CLOSED:
            return Text(
                N_("%(name)s closed a pot with their card and takes no further part in the betting."), name=player
            )
        turn = self.turn
        if player != turn:
            return Text(N_("It is not %(name)s's turn: %(turn)s acts now."), name=player, turn=turn or "")
        if action.kind is Kind.DROP:
            return None
        if self.system is System.POKER:
            return self._poker_reason(player, action)
        if action.kind is Kind.BET and action.amount != BRAG_BET:
            return Text(N_("In Brag every bet is exactly one chip."))
        if action.kind is Kind.SEE and len(self.betting) != 2:
            return Text(
                *NP_(
                    "Paying to see is only allowed when exactly two players are left in the betting; there is %(count)s.",
                    "Paying to see is only allowed when exactly two players are left in the betting; there are %(count)s.",
                ),
                count=len(self.betting),
            )
        return None

    def _poker_reason(self, player: str, action: Action) -> Text | None:
        if action.kind is Kind.SEE:
            return Text(N_("Paying to see is only in Brag betting; in Poker an equal bet closes the betting."))
        if action.kind is Kind.CLOSE:
            return Text(N_("Closing a pot with one's card is only in Brag betting."))
        if self.owing is not None:
            owe = self.top - self.bets[player]
            if action.amount != owe:
                return Text(
                    N_(
                        "The betting is closed: %(name)s either brings their bets up to the highest, %(top)s, with a bet of exactly %(owe)s, or drops out."
                    ),
                    name=player,
                    top=self.top,
                    owe=owe,
                )
            return None
        if self.last_bet is not None and action.amount < self.last_bet:
            return Text(
                N_(
                    "A bet must be more than the previous bet of %(last)s, or equal to it to close the betting; %(amount)s is less."
                ),
                last=self.last_bet,
                amount=action.amount,
            )
        return None

    # -- the result

    def result(self, *, surrender_closed: str = "compare") -> tuple[HandPot, ...]:
        """The pots once the betting is over, each with who may win it.

        A closed pot is contested by its closer, the later closers and the players still betting
        at the end; the last pot by the players still betting. When the betting ended because all
        but one dropped, under ``surrender_closed="survivor_takes_all"`` the survivor alone has a
        claim on every pot.
        """
        if self.end is None:
            raise ValueError("the betting is not over")
        finalists = set(self.betting)
        survivor_only = self.end is End.LAST_STANDING and surrender_closed == "survivor_takes_all"
        out: list[HandPot] = []
        for k, chips in enumerate(self.pots):
            closer = self.closers[k] if k < len(self.closers) else None
            claim = set(finalists)
            if not survivor_only:
                claim.update(self.closers[k:])
            out.append(HandPot(chips=chips.chips, closer=closer, contenders=tuple(p for p in self.order if p in claim)))
        return tuple(out)

    def paid(self) -> dict[str, int]:
        """What each player put in: the ante and every bet."""
        return {name: self.ante + self.bets[name] for name in self.order}


def replay(
    actions: object,
    *,
    players: Sequence[str],
    dealer: str,
    system: System,
    ante: int,
    carried_in: int = 0,
    options: InjunOptions = InjunOptions(),
    field: str = "actions",
) -> Betting:
    """A posted list of ``[player, action]`` pairs fed into a :class:`Betting`, each checked in
    turn (``actions[i]`` names the first one refused). The betting need not be over: the page
    asks this after every action."""
    betting = Betting(
        players=players,
        dealer=dealer,
        system=system,
        ante=ante,
        carried_in=carried_in,
        match_highest=options.poker_amounts == "match_highest",
    )
    if isinstance(actions, str) or not isinstance(actions, Sequence):
        raise InvalidInput(Text(N_("The actions must be a list of [player, action] pairs.")), field=field)
    for i, item in enumerate(actions):
        where = f"{field}[{i}]"
        if isinstance(item, str) or not isinstance(item, Sequence) or len(item) != 2:
            raise InvalidInput(Text(N_("Each action must be a [player, action] pair.")), field=where)
        player = seats.require_player(players, item[0], field=where)
        betting.act(player, parse_action(item[1], system, field=where), field=where)
    return betting


def legal_actions(
    actions: object,
    *,
    players: Sequence[str],
    dealer: str,
    options: InjunOptions = InjunOptions(),
    system: str | None = None,
) -> LegalActions:
    """After the ``actions`` entered so far, who acts and what he may do (for the page).

    >>> t = ("Ana", "Bia", "Caio", "Dani")
    >>> legal_actions([["Ana", {"bet": 20}], ["Bia", {"bet": 22}]], players=t, dealer="Dani").to_json()
    {'player': 'Caio', 'drop': True, 'raise_from': 23, 'call': 22, 'bet': False, 'see': False, 'close': False}
    >>> legal_actions([["Ana", "bet"], ["Bia", "drop"]], players=t, dealer="Dani", system="brag").see
    False
    """
    chosen = _parse_system(system if system is not None else options.system)
    return replay(
        actions, players=players, dealer=dealer, system=chosen, ante=options.ante, options=options
    ).legal_actions()


# --------------------------------------------------------------------------- the hand record

_SYSTEM: Final = ChoiceField(
    name="system",
    values=tuple(system.value for system in System),
    sentence=N_("The betting system is poker or brag, not %(value)s."),
    doc="Default: the table's option.",
)

RECORD: Final = RecordSpec(
    game="Injun",
    unknown=N_("An Injun hand has no field called %(name)s."),
    player_counts=PLAYER_COUNTS,
    doc="One Injun deal (see /games/injun): every betting action in turn from the player after the dealer, "
    "checked as it comes; then the ranks of exactly the players whose cards are compared. "
    "Ties share a pot; odd chips stay on the table (option odd_chip).",
    fields=(
        DEALER,
        _SYSTEM,
        Count(
            name="ante",
            high=MAX_CHIPS,
            sentence=N_("The ante is a whole number of chips from 0 to %(max)s."),
            doc="Chips each player put in before the deal; default: the table's option.",
        ),
        Count(
            name="carried_in",
            high=MAX_CHIPS,
            sentence=N_("The chips carried in from the last deal are a whole number from 0 to %(max)s."),
            doc=potlib.CARRIED_IN_DOC,
        ),
        Custom(
            name="actions",
            required=N_(
                "Give the betting actions in the order they happened, starting with the player after the dealer."
            ),
            doc="Every [player, action] in the order they happened, starting with the player after the dealer.",
            json={
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "array",
                    "minItems": 2,
                    "maxItems": 2,
                    "prefixItems": [
                        name_schema(),
                        {
                            "oneOf": [
                                {
                                    "type": "string",
                                    "enum": [kind.value for kind in Kind],
                                    "description": "bet (Brag: one chip), see and close are Brag's.",
                                },
                                {
                                    "type": "object",
                                    "required": ["bet"],
                                    "additionalProperties": False,
                                    "properties": {"bet": {"type": "integer", "minimum": 1, "maximum": MAX_CHIPS}},
                                },
                            ]
                        },
                    ],
                },
            },
        ),
        Custom(
            name="cards",
            doc="The rank each player in the showdown shows; only when cards are compared.",
            json={"type": "object", "additionalProperties": {"type": "string", "enum": list(reversed(RANKS))}},
        ),
    ),
    example={
        "dealer": "Dani",
        "system": "poker",
        "ante": 1,
        "actions": [
            ["Ana", {"bet": 20}],
            ["Bia", {"bet": 22}],
            ["Caio", {"bet": 27}],
            ["Dani", "drop"],
            ["Ana", {"bet": 27}],
        ],
        "cards": {"Ana": "K", "Bia": "5", "Caio": "Q"},
    },
    example_players=("Ana", "Bia", "Caio", "Dani"),
)


@dataclass(frozen=True, kw_only=True)
class InjunHand(Record):
    """A validated Injun hand; build it with :func:`parse_hand`. ``pots`` and ``paid`` are
    derived from the actions (with the options the hand was judged under); ``cards`` holds the
    ranks of exactly the players whose cards are compared, keyed in order of play. Built any
    other way it still checks itself (:meth:`check`)."""

    spec: ClassVar[RecordSpec] = RECORD

    players: tuple[str, ...]
    dealer: str
    system: System
    ante: int
    carried_in: int
    actions: tuple[tuple[str, Action], ...]
    cards: Mapping[str, str]
    end: End
    finalists: tuple[str, ...]
    pots: tuple[HandPot, ...]
    paid: Mapping[str, int] = field(default_factory=dict)
    #: Poker: who made the closing bet, and whether anyone then had to match the highest total.
    closed_by: str | None = None
    owed: bool = False

    def check(self) -> None:
        """Besides the declared fields: the cards the settlement compares are there, each a
        seated player's rank of the deck, no rank more than four times."""
        super().check()
        for name, rank in self.cards.items():
            _check_card(self.players, name, rank)
        order = seats.order_from(self.players, seats.after(self.players, self.dealer))
        _require_shown(order, _shown(self.pots), self.cards)
        _check_rank_counts(self.cards)

    @property
    def chips(self) -> int:
        """Everything on the table: antes, bets and the chips carried in."""
        return sum(p.chips for p in self.pots)

    def to_json(self) -> dict[str, object]:
        """The record as posted, with the dealer, system and ante filled in."""
        out: dict[str, object] = {
            "dealer": self.dealer,
            "system": self.system.value,
            "ante": self.ante,
            "actions": [[p, a.to_json(self.system)] for p, a in self.actions],
        }
        if self.cards:
            out["cards"] = dict(self.cards)
        if self.carried_in:
            out["carried_in"] = self.carried_in
        return out


def _parse_system(raw: object) -> System:
    return raw if isinstance(raw, System) else System(_SYSTEM.read(raw, players=()))


def _shown(hand_pots: Sequence[HandPot]) -> set[str]:
    """Who shows a card: the contenders of the contested pots."""
    return {p for hp in hand_pots if hp.contested for p in hp.contenders}


def _check_card(players: Sequence[str], name: object, rank: object) -> None:
    """A seated player's rank of the 52-card deck."""
    where = f"cards.{name}"
    seats.require_player(players, name, field=where)
    if not isinstance(rank, str) or rank not in RANKS:
        raise InvalidInput(
            Text(
                N_("There is no card rank %(rank)s; use one of: %(ranks)s."),
                rank=str(rank),
                ranks=", ".join(reversed(RANKS)),
            ),
            field=where,
        )


def _not_compared(name: str, status: Status, shown: set[str]) -> InconsistentHand:
    """The refusal of the card of a player who is not in the showdown."""
    where = f"cards.{name}"
    if status is Status.DROPPED:
        return InconsistentHand(
            Text(N_("%(name)s dropped out, so their card is not shown: leave it out."), name=name), field=where
        )
    if not shown:
        return InconsistentHand(
            Text(N_("No cards are compared in this hand: leave out the card of %(name)s."), name=name), field=where
        )
    return InconsistentHand(
        Text(N_("The card of %(name)s is not compared in this hand: leave it out."), name=name), field=where
    )


def _require_shown(order: Sequence[str], shown: set[str], cards: Mapping[str, object]) -> None:
    """Every player in the showdown shows his card (the first missing in order of play is named)."""
    for name in order:
        if name in shown and name not in cards:
            raise InvalidInput(
                Text(N_("Give the card of %(name)s, who is in the showdown."), name=name), field=f"cards.{name}"
            )


def _check_rank_counts(cards: Mapping[str, str]) -> None:
    """No rank shown more than four times."""
    for rank in RANKS:
        count = sum(1 for r in cards.values() if r == rank)
        if count > PER_RANK:
            raise InconsistentHand(
                Text(
                    N_("The deck has four cards of each rank, but %(count)s players show a %(rank)s."),
                    count=count,
                    rank=rank,
                ),
                field="cards",
            )


def _parse_cards(raw: object, betting: Betting, hand_pots: Sequence[HandPot], players: Sequence[str]) -> dict[str, str]:
    """The ranks shown: exactly the contenders of the contested pots (only players
    still in, and all of them, reveal their cards), a rank of the 52-card deck each, and no
    rank more than four times."""
    shown = _shown(hand_pots)
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise InvalidInput(
            Text(N_('Give the cards shown as an object of player and rank, e.g. {"Ana": "K"}.')), field="cards"
        )
    for name in raw:
        _check_card(players, name, raw[name])
        if name not in shown:
            raise _not_compared(name, betting.status[name], shown)
    _require_shown(betting.order, shown, raw)
    cards = {name: str(raw[name]) for name in betting.order if name in raw}
    _check_rank_counts(cards)
    return cards


def parse_hand(
    raw: object, *, players: Sequence[str], options: InjunOptions, dealer: str, teams: Teams = ()
) -> InjunHand:
    """Validate a posted Injun record against the rules, or raise a :class:`RulesError`.

    ``dealer`` is the dealer by rotation; a record may name another seated player.
    The record's shape is :data:`RECORD`'s (2 to 15 players, no unknown field, the dealer
    seated, the system, ``ante`` and ``carried_in`` whole numbers from 0, the actions given);
    the rules add every action in turn, that the betting is over, then the cards shown.
    """
    values = RECORD.read(raw, players=players)
    players = tuple(players)
    dealer = values.get("dealer", dealer)
    system = _parse_system(values.get("system", options.system))
    ante = values.get("ante", options.ante)
    carried_in = values.get("carried_in", 0)
    betting = replay(
        values["actions"],
        players=players,
        dealer=dealer,
        system=system,
        ante=ante,
        carried_in=carried_in,
        options=options,
    )
    if betting.turn is not None:
        raise IllegalCall(
            Text(N_("The betting is not finished: %(name)s still has to act."), name=betting.turn), field="actions"
        )
    assert betting.end is not None
    hand_pots = betting.result(surrender_closed=options.surrender_closed)
    cards = _parse_cards(values.get("cards"), betting, hand_pots, players)
    return InjunHand(
        players=players,
        dealer=dealer,
        system=system,
        ante=ante,
        carried_in=carried_in,
        actions=tuple(betting.actions),
        cards=MappingProxyType(cards),
        end=betting.end,
        finalists=betting.betting,
        pots=hand_pots,
        paid=MappingProxyType(betting.paid()),
        closed_by=betting.closed_by,
        owed=betting.owed,
    )


# --------------------------------------------------------------------------- settlement


def winners_of(hand_pot: HandPot, cards: Mapping[str, str]) -> tuple[str, ...]:
    """Who takes a pot: its only contender, else the contenders with the highest rank (ties
    share), in order from the dealer's left.

    >>> winners_of(HandPot(chips=9, closer=None, contenders=("Ana", "Bia", "Caio")), {"Ana": "K", "Bia": "A", "Caio": "A"})
    ('Bia', 'Caio')
    """
    if not hand_pot.contested:
        return hand_pot.contenders
    best = max(rank_value(cards[p]) for p in hand_pot.contenders)
    return tuple(p for p in hand_pot.contenders if rank_value(cards[p]) == best)


def _end_line(hand: InjunHand) -> Line:
    """How the betting ended, in words."""
    last_name = hand.actions[-1][0]
    if hand.end is End.CALLED:
        if hand.owed:
            text = Text(
                N_(
                    "%(name)s matched the bet before and closed the betting; then the players still in matched the highest total or dropped out."
                ),
                name=hand.closed_by or "",
            )
        else:
            text = Text(N_("%(name)s matched the bet before and closed the betting."), name=hand.closed_by or "")
        return Line(text=text, amount=0)
    if hand.end is End.LAST_STANDING:
        return Line(
            text=Text(N_("Everybody else dropped out: %(name)s is the last player betting."), name=hand.finalists[0]),
            amount=0,
        )
    if hand.end is End.SEEN:
        # The two chips are among the chips bet, already counted above: words only here.
        return Line(text=Text(N_("%(name)s paid 2 chips to see."), name=last_name), amount=0)
    return Line(
        text=Text(
            N_("%(name)s closed the pot, leaving %(other)s alone in the betting."),
            name=last_name,
            other=hand.finalists[0],
        ),
        amount=0,
    )


def settle(hand: InjunHand, options: InjunOptions) -> potlib.PotSettlement:
    """Who takes which pot: each pot to its only contender, or to the highest
    card among its contenders; ties split it, the odd chips staying on the table for the next
    deal or (``odd_chip="dealer_left"``) going one each to the tied players nearest the
    dealer's left. Deltas: what a player took minus what he put in (ante and bets)."""
    odd = potlib.ODD_CHIPS_CARRY if options.odd_chip == "carry" else potlib.ODD_CHIPS_IN_ORDER
    n = len(hand.players)
    lines = potlib.ante_lines(n, hand.ante, hand.carried_in)
    bets = sum(hand.paid.values()) - n * hand.ante
    lines.append(Line(text=Text(*NP_("%(count)s chip was bet.", "%(count)s chips were bet."), count=bets), amount=bets))
    lines.append(_end_line(hand))
    won: dict[str, int] = {}
    carried_out = 0
    several = len(hand.pots) > 1
    if several:
        chips = sum(p.chips for p in hand.pots)
        lines.append(
            Line(
                text=Text(*NP_("%(count)s chip in the pots.", "%(count)s chips in the pots."), count=chips),
                amount=chips,
                total=True,
            )
        )
    for k, hand_pot in enumerate(hand.pots):
        if hand_pot.chips == 0:
            continue
        if not several:
            label: Text = Text(N_("The pot"))
        elif hand_pot.closer is not None:
            label = Text(N_("Pot %(number)s (closed by %(name)s)"), number=k + 1, name=hand_pot.closer)
        else:
            label = Text(N_("The last pot"))
        winners = winners_of(hand_pot, hand.cards)
        share = potlib.split(hand_pot.chips, winners, odd_chips=odd)
        for name, amount in share.shares.items():
            won[name] = won.get(name, 0) + amount
        carried_out += share.carry
        if not hand_pot.contested:
            lines.append(
                Line(
                    text=Text(
                        *NP_(
                            "%(pot)s: %(count)s chip to %(name)s, without a showdown.",
                            "%(pot)s: %(count)s chips to %(name)s, without a showdown.",
                        ),
                        pot=label,
                        count=hand_pot.chips,
                        name=winners[0],
                    ),
                    amount=0 if several else hand_pot.chips,
                    total=not several,
                )
            )
            continue
        shown = ", ".join(f"{p} {hand.cards[p]}" for p in hand_pot.contenders)
        lines.append(
            Line(
                text=Text(
                    *NP_(
                        "%(pot)s: %(count)s chip; cards shown: %(cards)s.",
                        "%(pot)s: %(count)s chips; cards shown: %(cards)s.",
                    ),
                    pot=label,
                    count=hand_pot.chips,
                    cards=shown,
                ),
                amount=0 if several else hand_pot.chips,
                total=not several,
            )
        )
        rank = hand.cards[winners[0]]
        if len(winners) == 1:
            lines.append(Line(text=Text(N_("%(name)s wins it with %(rank)s."), name=winners[0], rank=rank), amount=0))
            continue
        lines.append(
            Line(
                text=Text(
                    *NP_(
                        "%(names)s tie with %(rank)s and share it: %(count)s chip each.",
                        "%(names)s tie with %(rank)s and share it: %(count)s chips each.",
                    ),
                    names=seats.join_names(winners),
                    rank=rank,
                    count=share.each,
                ),
                amount=0,
            )
        )
        if share.odd and share.carry:
            lines.append(
                Line(
                    text=Text(
                        *NP_(
                            "%(count)s odd chip stays on the table for the next deal.",
                            "%(count)s odd chips stay on the table for the next deal.",
                        ),
                        count=share.carry,
                    ),
                    amount=0,
                )
            )
        elif share.odd:
            lines.append(
                Line(
                    text=Text(
                        *NP_(
                            "The odd chip goes to the tied player nearest the dealer's left: %(names)s.",
                            "The %(count)s odd chips go one each to the tied players nearest the dealer's left: %(names)s.",
                        ),
                        count=share.odd,
                        names=seats.join_names(winners[: share.odd]),
                    ),
                    amount=0,
                )
            )
    return potlib.pot_settlement(
        hand.players,
        paid=hand.paid,
        won=won,
        carried_in=hand.carried_in,
        carried_out=carried_out,
        lines=lines,
    )


def contract_summary(hand: InjunHand) -> dict[str, object]:
    """What was played, as the API answers it: the system, the ante, how the betting ended,
    who was still betting, and the pots with their contenders."""
    return {
        "system": hand.system.value,
        "ante": hand.ante,
        "end": hand.end.value,
        "finalists": list(hand.finalists),
        "chips": hand.chips,
        "carried_in": hand.carried_in,
        "pots": [{"chips": p.chips, "closer": p.closer, "contenders": list(p.contenders)} for p in hand.pots],
    }


GAME: Final = Game[InjunOptions, InjunHand](
    slug=SLUG,
    name="Injun",
    options_class=InjunOptions,
    record=RECORD,
    parse=parse_hand,
    settle=settle,
    contract_json=contract_summary,
    stock_option="starting_chips",
    ante_option="ante",
    money_option="chip_value",
    kind=POT,  # the record takes carried_in, filled in by the ledger
)
