"""Jubileu: the auction, the contract details and the chip settlement.

Four players, 52 cards, an auction on a 21-step ladder. The ladder is written once, lowest
first, in :data:`LADDER`; bids of "practically equal value" share a rank and the few overcalls
allowed inside such a tier are data in :data:`TIER_OVERCALLS`. Everything else (which calls are
legal now, whether a record is consistent, who pays whom) is derived from those two tables and
the table's :class:`JubileuOptions`.

The module's surface: :data:`OPTIONS` (house rules as data), :class:`Auction` (with
``legal_calls``/``verify_call``/``call``), :data:`RECORD` (the hand record's fields) and
:func:`parse_hand` (a posted record to a validated :class:`JubileuHand`, or a
:class:`~referee.rules.errors.RulesError` with a sentence), :func:`settle`, the seat helpers
:func:`first_speaker` and :func:`next_dealer`, and :data:`GAME`, the game as the rest of the app
sees it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from types import MappingProxyType
from typing import Any, ClassVar, Final

from . import seats
from .auction import Auction as AuctionBase
from .auction import pairs_schema, replay_pairs
from .cards import Suit
from .errors import InconsistentHand, InvalidInput, RulesError
from .game import Game, Teams
from .options import CHIP_VALUE, STARTING_CHIPS, Choice, OptionSet, OptionSpec, from_spec
from .record import DEALER, Custom, PerPlayer, Player, Record, RecordSpec, SuitField, name_schema
from .settle import Line, Payment, Settlement
from .text import N_, NP_, Text

SLUG: Final = "jubileu"
PLAYERS: Final = 4
TRICKS: Final = 13


class Kind(Enum):
    """What a contract promises: at least T tricks, or an exact small number (misère)."""

    PLUS = "plus"
    MISERE = "misere"


class Trump(Enum):
    """Who names trump for the contract."""

    DECLARER = "declarer"
    ULTIMA = "ultima"  # the suit of the dealer's last card
    PARTNER = "partner"  # Jogo Obrigatório: the partner chooses
    NONE = "none"  # Meia Miséria is played without trump


class Bid(Enum):
    """Every bid, by its API slug. Enum order is the ladder order (see :data:`LADDER`)."""

    JUBILEU = "jubileu"
    JUBILEU_DA_ULTIMA = "jubileu_da_ultima"
    SOLO_SETE = "solo_sete"
    SOLO_SETE_DA_ULTIMA = "solo_sete_da_ultima"
    MEIA_MISERIA = "meia_miseria"
    SOLO_OITO = "solo_oito"
    SOLO_OITO_DA_ULTIMA = "solo_oito_da_ultima"
    JOGO_OBRIGATORIO = "jogo_obrigatorio"
    SOLO_NOVE = "solo_nove"
    SOLO_NOVE_DA_ULTIMA = "solo_nove_da_ultima"
    SOLO_DEZ = "solo_dez"
    SOLO_DEZ_DA_ULTIMA = "solo_dez_da_ultima"
    MISERIA = "miseria"
    SOLO_ONZE = "solo_onze"
    SOLO_ONZE_DA_ULTIMA = "solo_onze_da_ultima"
    SOLO_DOZE = "solo_doze"
    SOLO_DOZE_DA_ULTIMA = "solo_doze_da_ultima"
    SOLO_TREZE = "solo_treze"
    SOLO_TREZE_DA_ULTIMA = "solo_treze_da_ultima"
    MISERIA_ABERTA = "miseria_aberta"
    MISERIA_ABERTA_COM_COLOQUIO = "miseria_aberta_com_coloquio"

    @property
    def info(self) -> BidInfo:
        return _INFO[self]

    @property
    def rank(self) -> int:
        return _INFO[self].rank

    @property
    def label(self) -> str:
        """The bid's name at the table. Game terms are proper names and are not translated."""
        return _INFO[self].name


class Pass(Enum):
    """ "Passo": a call that is not a bid."""

    PASSO = "passo"

    @property
    def label(self) -> str:
        return "Passo"


Call = Bid | Pass
PASSO: Final = Pass.PASSO


@dataclass(frozen=True, kw_only=True)
class BidInfo:
    """One rung of the ladder (a row of the hierarchy table)."""

    name: str
    rank: int
    tricks: int  # tricks required; for misère contracts the exact number (0 or 1)
    value: int  # chips per paying player when made exactly
    kind: Kind
    trump: Trump
    partnership: bool = False


def _b(
    name: str, rank: int, tricks: int, value: int, trump: Trump, *, kind: Kind = Kind.PLUS, partnership: bool = False
) -> BidInfo:
    return BidInfo(name=name, rank=rank, tricks=tricks, value=value, kind=kind, trump=trump, partnership=partnership)


D, U = Trump.DECLARER, Trump.ULTIMA
#: The ladder, lowest first: (bid, rung). Equal ranks form the tiers of "practically equal" bids.
LADDER: Final[tuple[tuple[Bid, BidInfo], ...]] = (
    (Bid.JUBILEU, _b("Jubileu", 1, 7, 2, D, partnership=True)),
    (Bid.JUBILEU_DA_ULTIMA, _b("Jubileu da Última", 2, 7, 2, U, partnership=True)),
    (Bid.SOLO_SETE, _b("Solo Sete", 3, 7, 2, D)),
    (Bid.SOLO_SETE_DA_ULTIMA, _b("Solo Sete da Última", 4, 7, 2, U)),
    (Bid.MEIA_MISERIA, _b("Meia Miséria", 5, 1, 3, Trump.NONE, kind=Kind.MISERE)),
    (Bid.SOLO_OITO, _b("Solo Oito", 5, 8, 3, D)),
    (Bid.SOLO_OITO_DA_ULTIMA, _b("Solo Oito da Última", 5, 8, 3, U)),
    (Bid.JOGO_OBRIGATORIO, _b("Jogo Obrigatório", 6, 8, 3, Trump.PARTNER, partnership=True)),
    (Bid.SOLO_NOVE, _b("Solo Nove", 7, 9, 4, D)),
    (Bid.SOLO_NOVE_DA_ULTIMA, _b("Solo Nove da Última", 8, 9, 4, U)),
    (Bid.SOLO_DEZ, _b("Solo Dez", 9, 10, 5, D)),
    (Bid.SOLO_DEZ_DA_ULTIMA, _b("Solo Dez da Última", 9, 10, 5, U)),
    (Bid.MISERIA, _b("Miséria", 9, 0, 5, D, kind=Kind.MISERE)),
    (Bid.SOLO_ONZE, _b("Solo Onze", 10, 11, 6, D)),
    (Bid.SOLO_ONZE_DA_ULTIMA, _b("Solo Onze da Última", 11, 11, 6, U)),
    (Bid.SOLO_DOZE, _b("Solo Doze", 12, 12, 7, D)),
    (Bid.SOLO_DOZE_DA_ULTIMA, _b("Solo Doze da Última", 13, 12, 7, U)),
    (Bid.SOLO_TREZE, _b("Solo Treze", 14, 13, 8, D)),
    (Bid.SOLO_TREZE_DA_ULTIMA, _b("Solo Treze da Última", 15, 13, 8, U)),
    (Bid.MISERIA_ABERTA, _b("Miséria Aberta", 16, 0, 10, D, kind=Kind.MISERE)),
    (Bid.MISERIA_ABERTA_COM_COLOQUIO, _b("Miséria Aberta com Colóquio", 17, 0, 15, D, kind=Kind.MISERE)),
)
del D, U
_INFO: Final = dict(LADDER)
assert tuple(_INFO) == tuple(Bid), "the enum and the ladder must list the bids in the same order"

#: Inside a tier (equal rank) the first to speak prevails, except for these
#: overcalls, which the text allows explicitly. Joining Meia Miséria is not an overcall: see
#: :meth:`Auction.verify_call`.
TIER_OVERCALLS: Final[frozenset[tuple[Bid, Bid]]] = frozenset(
    {
        (Bid.SOLO_OITO, Bid.SOLO_OITO_DA_ULTIMA),
        (Bid.SOLO_DEZ, Bid.SOLO_DEZ_DA_ULTIMA),
    }
)
#: Under the literal reading of the rule on Miséria over Solo Dez, only the very next speaker is barred from this overcall.
LITERAL_TIER_OVERCALL: Final = (Bid.SOLO_DEZ, Bid.MISERIA)

#: The calls in the order a page shows them: pass first, then the ladder.
ALL_CALLS: Final[tuple[Call, ...]] = (PASSO, *Bid)


def parse_call(raw: object, *, field: str) -> Call:
    if isinstance(raw, str):
        if raw == PASSO.value:
            return PASSO
        try:
            return Bid(raw)
        except ValueError:
            pass
    raise InvalidInput(Text(N_("%(call)s is not a Jubileu call."), call=str(raw)), field=field)


# --------------------------------------------------------------------------- options

OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(
        name="overtricks",
        kind="bool",
        default=True,
        label=Text(N_("Overtricks are paid")),
        help=Text(
            N_("A declarer who makes more tricks than promised gets one more chip per extra trick from each payer.")
        ),
        rule_ref="docs/rules.md#jubileu-options",
    ),
    OptionSpec(
        name="overtricks_in_partnerships",
        kind="bool",
        default=True,
        label=Text(N_("Overtricks also in partnership contracts")),
        help=Text(N_("When off, only solo contracts earn the overtrick chips.")),
        rule_ref="docs/rules.md#jubileu-options",
    ),
    OptionSpec(
        name="misere_margin",
        kind="choice",
        default="deviation",
        choices=(
            Choice(value="deviation", label=Text(N_("By how far it missed"))),
            Choice(value="flat", label=Text(N_("Always the contract's value"))),
        ),
        label=Text(N_("A failed Miséria or Meia Miséria costs")),
        help=Text(N_("By default each missed trick after the first adds a chip, as in the other contracts.")),
        rule_ref="docs/rules.md#jubileu-options",
    ),
    OptionSpec(
        name="meia_miseria_settlement",
        kind="choice",
        default="everyone",
        choices=(
            Choice(value="everyone", label=Text(N_("With all three others"))),
            Choice(value="non_declarers", label=Text(N_("Only with the players who did not declare it"))),
        ),
        label=Text(N_("Several Meia Miséria declarers settle with")),
        help=Text(N_("Each declarer plays alone; this says whether declarers also pay each other.")),
        rule_ref="docs/rules.md#jubileu-options",
    ),
    OptionSpec(
        name="meia_miseria_join",
        kind="choice",
        default="anyone",
        choices=(
            Choice(value="anyone", label=Text(N_("Anyone, even after passing"))),
            Choice(value="not_passed", label=Text(N_("Only players who have not passed"))),
        ),
        label=Text(N_("Who may join a Meia Miséria")),
        help=Text(N_("A join can be announced out of turn while Meia Miséria is the highest bid.")),
        rule_ref="docs/rules.md#jubileu-options",
    ),
    OptionSpec(
        name="miseria_over_solo_dez",
        kind="choice",
        default="barred",
        choices=(
            Choice(value="barred", label=Text(N_("Never"))),
            Choice(value="next_barred", label=Text(N_("Only the very next speaker is barred"))),
        ),
        label=Text(N_("Miséria over a Solo Dez")),
        help=Text(
            N_(
                "Among equal bids the first to speak prevails; a literal reading of the rule book bars only the next speaker."
            )
        ),
        rule_ref="docs/rules.md#jubileu-options",
    ),
    OptionSpec(
        name="jogo_obrigatorio_bidders",
        kind="choice",
        default="aces",
        choices=(
            Choice(value="aces", label=Text(N_("Only a player with 3 or 4 aces"))),
            Choice(value="anyone", label=Text(N_("Anyone (not advised)"))),
        ),
        label=Text(N_("Who may bid Jogo Obrigatório")),
        help=Text(N_("A player with 3 or 4 aces must bid at least Jogo Obrigatório either way.")),
        rule_ref="docs/rules.md#jubileu-options",
    ),
    OptionSpec(
        name="jubileu_self_ace",
        kind="choice",
        default="refuse",
        choices=(
            Choice(value="refuse", label=Text(N_("Not allowed"))),
            Choice(value="solo", label=Text(N_("The declarer plays alone at the Jubileu value"))),
        ),
        label=Text(N_("A Jubileu declarer calls an ace in their own hand")),
        help=Text(N_("By default the partner must be another player.")),
        rule_ref="docs/rules.md#jubileu-options",
    ),
    OptionSpec(
        name="jogo_obrigatorio_self_king",
        kind="choice",
        default="refuse",
        choices=(
            Choice(value="refuse", label=Text(N_("Not allowed"))),
            Choice(value="solo", label=Text(N_("The declarer plays alone for 8 tricks"))),
        ),
        label=Text(N_("With four aces, calling a king in their own hand")),
        help=Text(N_("By default the called king must be in another player's hand.")),
        rule_ref="docs/rules.md#jubileu-options",
    ),
    OptionSpec(
        name="first_speaker",
        kind="choice",
        default="after_dealer",
        choices=(
            Choice(value="after_dealer", label=Text(N_("The player after the dealer"))),
            Choice(value="before_dealer", label=Text(N_("The player before the dealer"))),
        ),
        label=Text(N_("Who speaks first")),
        help=Text(
            N_(
                "By default the first to receive cards speaks first and the auction goes round like the play; otherwise it goes the other way. The dealer always speaks last."
            )
        ),
        rule_ref="docs/rules.md#jubileu-options",
    ),
    OptionSpec(
        name="auction_end",
        kind="choice",
        default="pass_final",
        choices=(
            Choice(value="pass_final", label=Text(N_("A pass is final"))),
            Choice(
                value="three_passes",
                label=Text(N_("A player may bid again; it ends when all the others have passed since the last bid")),
            ),
        ),
        label=Text(N_("End of the auction")),
        help=Text(N_("Who may still join a Meia Miséria is a separate house rule.")),
        rule_ref="docs/rules.md#jubileu-options",
    ),
    OptionSpec(
        name="all_pass",
        kind="choice",
        default="next_dealer",
        choices=(
            Choice(value="next_dealer", label=Text(N_("The deal passes on"))),
            Choice(value="redeal", label=Text(N_("The same dealer deals again"))),
        ),
        label=Text(N_("When everybody passes")),
        help=Text(N_("No chips move in a hand where everybody passed.")),
        rule_ref="docs/rules.md#jubileu-options",
    ),
    replace(STARTING_CHIPS, rule_ref="docs/rules.md#jubileu-options"),
    CHIP_VALUE,
)


@dataclass(frozen=True, kw_only=True)
class JubileuOptions(OptionSet):
    """The house rules of one table; the defaults are the readings Referee chose where the rule text is open."""

    overtricks: bool = from_spec()
    overtricks_in_partnerships: bool = from_spec()
    misere_margin: str = from_spec()
    meia_miseria_settlement: str = from_spec()
    meia_miseria_join: str = from_spec()
    miseria_over_solo_dez: str = from_spec()
    jogo_obrigatorio_bidders: str = from_spec()
    jubileu_self_ace: str = from_spec()
    jogo_obrigatorio_self_king: str = from_spec()
    first_speaker: str = from_spec()
    auction_end: str = from_spec()
    all_pass: str = from_spec()
    starting_chips: int = from_spec()
    chip_value: str = from_spec()

    specs = OPTIONS


# --------------------------------------------------------------------------- the auction


def speaking_order(players: Sequence[str], dealer: str, options: JubileuOptions) -> tuple[str, ...]:
    """By default the auction starts after the dealer and goes on in order of play, the
    dealer last. Under the alternative it starts before the dealer and runs the other way
    round, the dealer still last."""
    if options.first_speaker == "after_dealer":
        return seats.order_from(players, seats.after(players, dealer))
    backwards = tuple(reversed(players))
    return seats.order_from(backwards, seats.after(backwards, dealer))


def first_speaker(players: Sequence[str], dealer: str, options: JubileuOptions | None = None) -> str:
    """Who speaks first in the auction (and, in this app's display, "speaks first").

    >>> first_speaker(("Ana", "Bia", "Caio", "Dani"), "Dani")
    'Ana'
    >>> first_speaker(("Ana", "Bia", "Caio", "Dani"), "Dani", JubileuOptions(first_speaker="before_dealer"))
    'Caio'
    """
    return speaking_order(players, dealer, options or JubileuOptions())[0]


def next_dealer(players: Sequence[str], hand: JubileuHand, options: JubileuOptions | None = None) -> str:
    """The deal passes on in order of play, unless everybody passed and the table redeals."""
    if hand.contract is None and (options or JubileuOptions()).all_pass == "redeal":
        return hand.dealer
    return seats.after(players, hand.dealer)


@dataclass(frozen=True, kw_only=True)
class Contract:
    """The auction's outcome: the winning bid and its declarer(s) (several only for Meia Miséria)."""

    bid: Bid
    declarers: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"bid": self.bid.value, "declarers": list(self.declarers)}


class Auction(AuctionBase[Call]):
    """The auction of one hand, call by call.

    ``legal_calls()`` lists what the player to speak may say, ``joiners()`` who may join a
    standing Meia Miséria out of turn; ``verify_call`` raises :class:`IllegalCall` with the reason;
    ``call`` records a call after verifying it. A page builds its buttons from ``legal_calls()``
    and a forged request is refused by the same ``verify_call``: one definition of legal.
    """

    def __init__(
        self,
        *,
        players: Sequence[str],
        dealer: str,
        options: JubileuOptions,
        aces: Mapping[str, int] | None = None,
    ) -> None:
        self.players = tuple(players)
        self.options = options
        self.aces: Mapping[str, int] = MappingProxyType(dict(aces or {}))
        self.order = speaking_order(self.players, dealer, options)
        self.calls: list[tuple[str, Call]] = []
        self.standing: Bid | None = None
        self.declarers: list[str] = []
        self.dealer = dealer
        self.passed: set[str] = set()  # whose pass counts (since the standing bid, under three_passes)
        self._turn: str | None = self.order[0]
        self.barred_from_literal_overcall: str | None = None

    # -- questions

    CALLS = ALL_CALLS

    @property
    def turn(self) -> str | None:
        return self._turn

    @property
    def contract(self) -> Contract | None:
        """The contract once complete; ``None`` while open or when everybody passed."""
        if not self.complete or self.standing is None:
            return None
        return Contract(bid=self.standing, declarers=tuple(self.declarers))

    def forced(self, player: str) -> bool:
        """A holder of 3 or 4 aces must bid at least Jogo Obrigatório."""
        return self.aces.get(player, 0) >= 3

    def may_bid_jogo_obrigatorio(self, player: str) -> bool:
        return self.options.jogo_obrigatorio_bidders == "anyone" or self.forced(player)

    def joiners(self) -> list[str]:
        """Players other than the one to speak who may join the standing Meia Miséria now."""
        if self.turn is None:
            return []
        return [p for p in self.order if p != self.turn and self._reason(p, Bid.MEIA_MISERIA) is None]

    # -- actions

    def call(self, player: str, call: Call, *, field: str | None = None) -> None:
        """Record ``call`` by ``player`` after checking it (raises :class:`IllegalCall`)."""
        self.verify_call(player, call, field=field)
        in_turn = player == self.turn
        if self._is_join(player, call):
            self.declarers.append(player)
            # Joining puts him back in the auction: if a higher bid later supersedes the Meia
            # Miséria, he bids on like anyone who has not passed.
            self.passed.discard(player)
        elif isinstance(call, Pass):
            self.passed.add(player)
        else:
            assert isinstance(call, Bid)
            self.standing = call
            self.declarers = [player]
            if self.options.auction_end == "three_passes":
                self.passed = set()
        self.calls.append((player, call))
        if in_turn:  # an out-of-turn join uses nobody's turn
            self._turn = self._next_speaker(player)
            self.barred_from_literal_overcall = self._turn if call is Bid.SOLO_DEZ else None

    @classmethod
    def replay(
        cls,
        *,
        players: Sequence[str],
        dealer: str,
        options: JubileuOptions,
        aces: Mapping[str, int] | None,
        calls: Sequence[tuple[str, Call]],
    ) -> Auction:
        """An auction with ``calls`` already made; undo is a replay without the last call."""
        auction = cls(players=players, dealer=dealer, options=options, aces=aces)
        for i, (player, call) in enumerate(calls):
            auction.call(player, call, field=f"auction[{i}]")
        return auction

    # -- internals

    def _is_join(self, player: str, call: Call) -> bool:
        return call is Bid.MEIA_MISERIA and self.standing is Bid.MEIA_MISERIA and player not in self.declarers

    def _next_speaker(self, after: str) -> str | None:
        """The next player in speaking order who still has a say, or None when the auction is over.

        The auction is over when every player other than the standing declarer(s) has passed
        (since the standing bid, under ``three_passes``). Declarers do not speak while their
        bid stands; under the default a pass is final, so passed players are skipped too.
        """
        others = [p for p in self.order if p not in self.declarers]
        if all(p in self.passed for p in others):
            return None
        start = self.order.index(after)
        for step in range(1, len(self.order) + 1):
            candidate = self.order[(start + step) % len(self.order)]
            if candidate in self.declarers:
                continue
            if candidate in self.passed and self.options.auction_end == "pass_final":
                continue
            return candidate
        return None  # pragma: no cover - unreachable: some other player has not passed

    def _reason(self, player: str, call: Call) -> Text | None:
        """Why ``player`` may not make ``call`` now, or None when he may."""
        if self.turn is None:
            return Text(N_("The auction is already over."))
        if player not in self.players:
            return Text(N_("%(name)s is not seated at this table."), name=player)
        if self._is_join(player, call):
            return self._join_reason(player)
        if player != self.turn:
            if call is Bid.MEIA_MISERIA and self.standing is Bid.MEIA_MISERIA:
                return Text(N_("%(name)s has already declared Meia Miséria."), name=player)
            return Text(N_("It is not %(name)s's turn: %(turn)s speaks now."), name=player, turn=self.turn)
        if isinstance(call, Pass):
            return self._pass_reason(player)
        return self._bid_reason(player, call)

    def _pass_reason(self, player: str) -> Text | None:
        """A holder of 3 or 4 aces may not pass below Jogo Obrigatório; anyone else may pass."""
        standing = self.standing
        if self.forced(player) and (standing is None or standing.rank < Bid.JOGO_OBRIGATORIO.rank):
            return Text(
                N_(
                    "%(name)s holds %(aces)s aces, so passing is not allowed: the bid must be at least Jogo Obrigatório."
                ),
                name=player,
                aces=self.aces[player],
            )
        return None

    def _bid_reason(self, player: str, call: Bid) -> Text | None:
        """Why ``player``, whose turn it is, may not bid ``call`` over the standing bid."""
        standing = self.standing
        jo_rank = Bid.JOGO_OBRIGATORIO.rank
        if call is Bid.JOGO_OBRIGATORIO and not self.may_bid_jogo_obrigatorio(player):
            return Text(N_("Only a player holding 3 or 4 aces may bid Jogo Obrigatório."))
        if self.forced(player) and call.rank < jo_rank:
            return Text(
                N_("%(name)s holds %(aces)s aces and must bid at least Jogo Obrigatório."),
                name=player,
                aces=self.aces[player],
            )
        if standing is None or call.rank > standing.rank:
            return None
        if call.rank < standing.rank:
            return Text(
                N_("%(call)s is lower than the standing %(standing)s: bid higher or pass."),
                call=call.label,
                standing=standing.label,
            )
        if (standing, call) in TIER_OVERCALLS:
            return None
        if (
            (standing, call) == LITERAL_TIER_OVERCALL
            and self.options.miseria_over_solo_dez == "next_barred"
            and player != self.barred_from_literal_overcall
        ):
            return None
        if call is standing:
            return Text(N_("%(call)s has already been bid: bid higher or pass."), call=call.label)
        return Text(
            N_(
                "%(call)s cannot be bid over %(standing)s: among bids of practically equal value, the first to speak prevails."
            ),
            call=call.label,
            standing=standing.label,
        )

    def _join_reason(self, player: str) -> Text | None:
        if self.forced(player):
            return Text(
                N_(
                    "%(name)s holds %(aces)s aces, so joining Meia Miséria is not allowed: the bid must be at least Jogo Obrigatório."
                ),
                name=player,
                aces=self.aces[player],
            )
        if player in self.passed and player != self.turn and self.options.meia_miseria_join == "not_passed":
            return Text(
                N_("%(name)s has passed and, under this table's rules, may no longer join Meia Miséria."), name=player
            )
        return None


# --------------------------------------------------------------------------- the hand record


#: The holders of aces a record names: only 3 or 4 aces change what may be bid.
ACES_ENTERED: Final = (3, 4)

_NOT_A_SUIT: Final = N_("%(value)s is not a suit (copas, ouros, espadas or paus).")


@dataclass(frozen=True, kw_only=True)
class _UltimaField(SuitField):
    """The última: left out, it is asked for; given as null, it is a value that is not a suit."""

    def missing(self, raw: Mapping[str, object]) -> RulesError:
        if self.name in raw:
            return InvalidInput(Text(self.sentence, value=str(raw[self.name])), field=self.name)
        return super().missing(raw)


RECORD: Final = RecordSpec(
    game="Jubileu",
    unknown=N_("A Jubileu hand has no field called %(name)s."),
    player_counts=(PLAYERS,),
    doc="Give `auction` (checked call by call) or, when only the final contract is known, `contract`; "
    "both must agree if both are given.",
    fields=(
        DEALER,
        _UltimaField(
            name="ultima",
            required=N_("The suit of the dealer's last card (the última) is required."),
            sentence=_NOT_A_SUIT,
            doc="The suit of the dealer's last card: the trump of the contracts da Última.",
        ),
        Custom(
            name="aces",
            doc="Who holds 3 or 4 aces.",
            json={"type": "object", "additionalProperties": {"type": "integer", "enum": list(ACES_ENTERED)}},
        ),
        Custom(
            name="auction", doc="The calls as [player, call] pairs, in the order spoken.", json=pairs_schema(ALL_CALLS)
        ),
        Custom(
            name="contract",
            doc="The final contract, when the auction is not known.",
            json={
                "type": "object",
                "required": ["bid"],
                "properties": {
                    "bid": {
                        "type": "string",
                        "enum": [c.value for c in ALL_CALLS],
                        "description": "passo with no declarers: everybody passed.",
                    },
                    "declarers": {"type": "array", "items": name_schema()},
                },
            },
        ),
        SuitField(name="trump", sentence=_NOT_A_SUIT),
        SuitField(
            name="called",
            sentence=_NOT_A_SUIT,
            doc="Jubileu: the suit of the called ace; Jogo Obrigatório: of the called king (or the fourth ace).",
        ),
        Player(name="partner", doc="The holder of the called card."),
        PerPlayer(name="tricks", high=TRICKS, what=N_("Tricks"), doc="Tricks taken by each player; they add up to 13."),
        Custom(
            name="declarer_tricks",
            doc="Instead of `tricks`, only what the settlement needs: the tricks of the declaring side, "
            "one number (the declarer's own in a solo, the declarer's and the partner's together in a "
            "partnership); with several Meia Miséria declarers, each declarer's own by name. "
            "The other players' tricks follow by subtraction.",
            json={
                "oneOf": [
                    {"type": "integer", "minimum": 0, "maximum": TRICKS},
                    {
                        "type": "object",
                        "additionalProperties": {"type": "integer", "minimum": 0, "maximum": TRICKS},
                    },
                ]
            },
        ),
    ),
    example={
        "dealer": "Dani",
        "ultima": "copas",
        "aces": {"Caio": 3},
        "auction": [
            ["Ana", "solo_sete"],
            ["Bia", "passo"],
            ["Caio", "jogo_obrigatorio"],
            ["Dani", "passo"],
            ["Ana", "passo"],
        ],
        "trump": "espadas",
        "called": "paus",
        "partner": "Bia",
        "tricks": {"Ana": 2, "Bia": 4, "Caio": 5, "Dani": 2},
    },
    example_players=("Ana", "Bia", "Caio", "Dani"),
)


@dataclass(frozen=True, kw_only=True)
class JubileuHand(Record):
    """A validated Jubileu hand. Build it with :func:`parse_hand`; built any other way it still
    checks its own fields (a stranger as dealer or partner fails here), and a contract comes with
    its declarers seated and the 13 tricks counted, which its settlement needs."""

    spec: ClassVar[RecordSpec] = RECORD

    players: tuple[str, ...]
    dealer: str
    ultima: Suit
    aces: Mapping[str, int] = field(default_factory=dict)
    auction: tuple[tuple[str, Call], ...] | None = None
    contract: Contract | None = None  # None: everybody passed
    trump: Suit | None = None
    called: Suit | None = None
    partner: str | None = None
    tricks: Mapping[str, int] | None = None
    #: The short form (see :data:`RECORD`): the declaring side's tricks only; ``tricks`` is then None.
    declarer_tricks: int | Mapping[str, int] | None = None

    def check(self) -> None:
        super().check()
        RECORD.check_table(self.players)
        if self.contract is not None:
            for i, name in enumerate(self.contract.declarers):
                seats.require_player(self.players, name, field=f"contract.declarers[{i}]")
            if self.declarer_tricks is None:
                _contract_tricks(self.players, self.tricks)
            else:
                _short_tricks(self.players, self.contract, self.declarer_tricks)

    def taken(self, side: Sequence[str]) -> int:
        """The tricks ``side`` took together: one declaring side (a solo declarer, a declarer and
        partner), which is all the short form gives and all the settlement needs."""
        if self.tricks is not None:
            return sum(self.tricks[p] for p in side)
        assert self.declarer_tricks is not None
        if isinstance(self.declarer_tricks, int):
            return self.declarer_tricks
        return sum(self.declarer_tricks[p] for p in side)

    def to_json(self) -> dict[str, object]:
        """The record as the API gives it (dealer and trump filled in where derived)."""
        out: dict[str, object] = {"dealer": self.dealer, "ultima": self.ultima.value}
        if self.aces:
            out["aces"] = dict(self.aces)
        if self.auction is not None:
            out["auction"] = [[p, c.value] for p, c in self.auction]
        else:
            out["contract"] = self.contract.to_json() if self.contract else {"bid": PASSO.value, "declarers": []}
        for key, value in (("trump", self.trump), ("called", self.called)):
            if value is not None:
                out[key] = value.value
        if self.partner is not None:
            out["partner"] = self.partner
        if self.tricks is not None:
            out["tricks"] = dict(self.tricks)
        if self.declarer_tricks is not None:
            dt = self.declarer_tricks
            out["declarer_tricks"] = dt if isinstance(dt, int) else dict(dt)
        return out


def _contract_tricks(players: Sequence[str], raw: object) -> dict[str, int]:
    """Every player's tricks, adding up to 13: a contract was played."""
    return seats.require_counts(players, raw, field="tricks", total=TRICKS, maximum=TRICKS, what=Text(N_("Tricks")))


def _short_tricks(players: Sequence[str], contract: Contract, raw: object) -> int | dict[str, int]:
    """The declaring side's tricks (the short form): one number for one side, or each Meia
    Miséria declarer's own by name when several declared; at most 13 in all."""
    declarers = contract.declarers
    what = Text(N_("Tricks"))
    if len(declarers) == 1:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise InvalidInput(
                Text(N_("Give the declaring side's tricks as one whole number.")), field="declarer_tricks"
            )
        if not 0 <= raw <= TRICKS:
            raise InconsistentHand(
                Text(N_("The declaring side cannot take %(value)s tricks; there are 13."), value=raw),
                field="declarer_tricks",
            )
        return raw
    for name in raw if isinstance(raw, Mapping) else ():
        if seats.require_player(players, name, field=f"declarer_tricks.{name}") not in declarers:
            raise InconsistentHand(
                Text(N_("%(name)s did not declare: give only the declarers' tricks."), name=name),
                field=f"declarer_tricks.{name}",
            )
    return seats.require_counts(
        declarers, raw, field="declarer_tricks", total=None, most=TRICKS, maximum=TRICKS, what=what
    )


def parse_hand(
    raw: object,
    *,
    players: Sequence[str],
    options: JubileuOptions,
    dealer: str,
    teams: Teams = (),
) -> JubileuHand:
    """Validate a posted Jubileu record against the rules, or raise a :class:`RulesError`.

    ``dealer`` is the dealer by rotation; a record may name another seated player. The record's
    shape is :data:`RECORD`'s; the rules then follow the order a player would look: the aces,
    the auction call by call (or the contract), the contract details, then the tricks.
    """
    values = RECORD.read(raw, players=players)
    players = tuple(players)
    dealer = values.get("dealer") or seats.require_player(players, dealer, field="dealer")
    aces = parse_aces(players, values.get("aces"))
    auction_calls, contract = _auction_and_contract(players, dealer, options, aces, values)
    trump = called = partner = None
    tricks = short = None
    if contract is None:
        _check_all_passed(values)
    else:
        trump, called, partner = _check_details(contract, values["ultima"], aces, options, values)
        tricks, short = _read_tricks(players, contract, values)
    return JubileuHand(
        players=players,
        dealer=dealer,
        ultima=values["ultima"],
        aces=MappingProxyType(aces),
        auction=auction_calls,
        contract=contract,
        trump=trump,
        called=called,
        partner=partner,
        tricks=MappingProxyType(tricks) if tricks is not None else None,
        declarer_tricks=MappingProxyType(short) if isinstance(short, dict) else short,
    )


def _read_tricks(
    players: tuple[str, ...], contract: Contract, values: Mapping[str, Any]
) -> tuple[dict[str, int] | None, int | dict[str, int] | None]:
    """Every player's tricks, or (the short form) the declaring side's only; never both."""
    if "declarer_tricks" not in values:
        return _contract_tricks(players, values.get("tricks")), None
    if "tricks" in values:
        raise InconsistentHand(
            Text(N_("Give either every player's tricks or the declaring side's, not both.")), field="declarer_tricks"
        )
    return None, _short_tricks(players, contract, values["declarer_tricks"])


def _auction_and_contract(
    players: tuple[str, ...],
    dealer: str,
    options: JubileuOptions,
    aces: Mapping[str, int],
    values: Mapping[str, Any],
) -> tuple[tuple[tuple[str, Call], ...] | None, Contract | None]:
    """The auction replayed (and the contract, if also given, compared with it), or the
    contract alone, refused if no auction could have produced it."""
    if "auction" not in values and "contract" not in values:
        raise InvalidInput(Text(N_("Give the auction or, if only that is known, the final contract.")), field="auction")
    if "auction" not in values:
        given = _parse_contract(players, values["contract"])
        _check_direct_contract(given, aces, options)
        return None, given
    calls, contract = _replay_auction(players, dealer, options, aces, values["auction"])
    # Several Meia Miséria declarers may be listed in any order: compare them as a set.
    if "contract" in values and _contract_key(_parse_contract(players, values["contract"])) != _contract_key(contract):
        raise InconsistentHand(Text(N_("The contract does not match the auction.")), field="contract")
    return calls, contract


def _check_all_passed(values: Mapping[str, Any]) -> None:
    """Everybody passed: no trump, called card or partner, and no tricks (a score sheet replayed
    mechanically may send zeros: accept them, refuse real counts)."""
    for key, sentence in (
        ("trump", N_("Everybody passed, so there is no trump to give.")),
        ("called", N_("Everybody passed, so there is no called card to give.")),
        ("partner", N_("Everybody passed, so there is no partner to give.")),
    ):
        if key in values:
            raise InconsistentHand(Text(sentence), field=key)
    if any(values.get("tricks", {}).values()):
        raise InconsistentHand(Text(N_("Everybody passed: no tricks were played.")), field="tricks")
    short = values.get("declarer_tricks", 0)
    if short if isinstance(short, int) else not isinstance(short, Mapping) or any(short.values()):
        raise InconsistentHand(Text(N_("Everybody passed: no tricks were played.")), field="declarer_tricks")


def parse_aces(players: Sequence[str], raw: object) -> dict[str, int]:
    """Who holds 3 or 4 aces (at most one player can); a 0 is dropped, anything else refused."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise InvalidInput(Text(N_('Aces must be given as player and count, e.g. {"Ana": 3}.')), field="aces")
    aces: dict[str, int] = {}
    for name, count in raw.items():
        seats.require_player(players, name, field=f"aces.{name}")
        if isinstance(count, bool) or not isinstance(count, int):
            raise InvalidInput(Text(N_("The number of aces must be a whole number.")), field=f"aces.{name}")
        if count == 0:
            continue
        if count not in ACES_ENTERED:
            raise InconsistentHand(
                Text(N_("Only holders of 3 or 4 aces are entered; %(name)s has %(count)s."), name=name, count=count),
                field=f"aces.{name}",
            )
        aces[name] = count
    if len(aces) > 1:
        raise InconsistentHand(Text(N_("Only one player can hold 3 or 4 of the four aces.")), field="aces")
    return aces


def _replay_auction(
    players: tuple[str, ...],
    dealer: str,
    options: JubileuOptions,
    aces: Mapping[str, int],
    raw: object,
) -> tuple[tuple[tuple[str, Call], ...], Contract | None]:
    auction = replay_pairs(
        Auction(players=players, dealer=dealer, options=options, aces=aces), players, raw, parse_call
    )
    return tuple(auction.calls), auction.contract


def _parse_contract(players: Sequence[str], raw: object) -> Contract | None:
    if not isinstance(raw, Mapping):
        raise InvalidInput(Text(N_("The contract must be an object with bid and declarers.")), field="contract")
    bid = parse_call(raw.get("bid"), field="contract.bid")
    names = raw.get("declarers", [])
    if not isinstance(names, Sequence) or isinstance(names, str):
        raise InvalidInput(Text(N_("The declarers must be a list of players.")), field="contract.declarers")
    declarers = tuple(seats.require_player(players, n, field=f"contract.declarers[{i}]") for i, n in enumerate(names))
    if len(set(declarers)) != len(declarers):
        raise InconsistentHand(Text(N_("A declarer is named twice.")), field="contract.declarers")
    if isinstance(bid, Pass):
        if declarers:
            raise InconsistentHand(Text(N_("When everybody passed there is no declarer.")), field="contract.declarers")
        return None
    if not declarers:
        raise InvalidInput(Text(N_("Name the declarer.")), field="contract.declarers")
    if len(declarers) > 1 and bid is not Bid.MEIA_MISERIA:
        raise InconsistentHand(
            Text(N_("Only Meia Miséria may have several declarers; %(bid)s has one."), bid=bid.label),
            field="contract.declarers",
        )
    return Contract(bid=bid, declarers=declarers)


def _contract_key(contract: Contract | None) -> tuple[Bid, frozenset[str]] | None:
    return None if contract is None else (contract.bid, frozenset(contract.declarers))


def _check_direct_contract(contract: Contract | None, aces: Mapping[str, int], options: JubileuOptions) -> None:
    """Without the auction, still refuse what no auction could have produced."""
    forced = next(iter(aces), None)
    if contract is None:
        if forced is not None:
            raise InconsistentHand(
                Text(N_("%(name)s holds %(count)s aces and could not have passed."), name=forced, count=aces[forced]),
                field="contract",
            )
        return
    if (
        contract.bid is Bid.JOGO_OBRIGATORIO
        and options.jogo_obrigatorio_bidders == "aces"
        and contract.declarers[0] not in aces
    ):
        raise InconsistentHand(
            Text(N_("Only a player holding 3 or 4 aces may bid Jogo Obrigatório.")), field="contract"
        )
    if forced is not None and contract.bid.rank < Bid.JOGO_OBRIGATORIO.rank:
        raise InconsistentHand(
            Text(
                N_("%(name)s holds %(count)s aces, so the contract must be at least Jogo Obrigatório."),
                name=forced,
                count=aces[forced],
            ),
            field="contract",
        )


def calls_king(aces: Mapping[str, int], declarer: str) -> bool:
    """In Jogo Obrigatório the partner is called by a king unless the declarer holds exactly 3
    aces (then it is the holder of the 4th ace). A non-holder, allowed under the "anyone may
    bid it" option, calls a king too."""
    return aces.get(declarer, 4) != 3


def _check_details(
    contract: Contract,
    ultima: Suit,
    aces: Mapping[str, int],
    options: JubileuOptions,
    values: Mapping[str, Any],
) -> tuple[Suit | None, Suit | None, str | None]:
    """Trump, called card and partner for the contract."""
    bid = contract.bid
    trump = _trump(bid, ultima, values.get("trump"))
    called: Suit | None = values.get("called")
    partner: str | None = values.get("partner")
    if not bid.info.partnership:
        if called is not None:
            raise InconsistentHand(Text(N_("%(bid)s has no called card."), bid=bid.label), field="called")
        if partner is not None:
            raise InconsistentHand(Text(N_("%(bid)s is played without a partner."), bid=bid.label), field="partner")
        return trump, None, None
    # Checked in the order things are settled at the table: the called card and the trump
    # first, the partner last (the flow asks in this order and offers only accepted values).
    declarer = contract.declarers[0]
    if bid is Bid.JOGO_OBRIGATORIO:
        return trump, called, _jogo_obrigatorio_partner(declarer, trump, called, partner, aces, options)
    return trump, called, _jubileu_partner(declarer, trump, called, partner, options)


def _trump(bid: Bid, ultima: Suit, trump: Suit | None) -> Suit | None:
    """The contract's trump: none in Meia Miséria, the última's suit in the contracts da Última
    (filled in when left out), named by the declarer or the partner otherwise."""
    who = bid.info.trump
    if who is Trump.NONE and trump is not None:
        raise InconsistentHand(Text(N_("Meia Miséria is played without trump.")), field="trump")
    if who is Trump.ULTIMA:
        if trump is not None and trump is not ultima:
            raise InconsistentHand(
                Text(
                    N_("In %(bid)s the trump is the suit of the última (%(suit)s)."), bid=bid.label, suit=ultima.label
                ),
                field="trump",
            )
        return ultima
    if who in (Trump.DECLARER, Trump.PARTNER) and trump is None:
        raise InvalidInput(Text(N_("Give the trump suit of %(bid)s."), bid=bid.label), field="trump")
    return trump


def _require_partner(partner: str | None) -> str:
    if partner is None:
        raise InvalidInput(Text(N_("Give the partner: the player who holds the called card.")), field="partner")
    return partner


def _jogo_obrigatorio_partner(
    declarer: str,
    trump: Suit | None,
    called: Suit | None,
    partner: str | None,
    aces: Mapping[str, int],
    options: JubileuOptions,
) -> str:
    """A king called by suit (with 3 aces: the fourth ace), never of the trump suit; its holder
    is the partner, another player unless the table lets four aces call their own king."""
    four_aces = calls_king(aces, declarer)
    if called is None and four_aces:
        raise InvalidInput(Text(N_("Give the suit of the king the declarer called.")), field="called")
    if called is not None and trump is called:
        sentence = (
            N_("The trump cannot be the suit of the called king (%(suit)s).")
            if four_aces
            else N_("The trump cannot be the suit of the fourth ace (%(suit)s).")
        )
        raise InconsistentHand(Text(sentence, suit=called.label), field="trump")
    partner = _require_partner(partner)
    if partner == declarer and not _own_partner_allowed(Bid.JOGO_OBRIGATORIO, declarer, aces, options):
        raise InconsistentHand(
            Text(N_("The partner in Jogo Obrigatório must be another player, the holder of the called card.")),
            field="partner",
        )
    return partner


def _jubileu_partner(
    declarer: str, trump: Suit | None, called: Suit | None, partner: str | None, options: JubileuOptions
) -> str:
    """Jubileu and Jubileu da Última: an ace called by suit, never the trump ace; its holder is
    the partner, another player unless the table lets the declarer call his own ace."""
    if called is None:
        raise InvalidInput(Text(N_("Give the suit of the called ace.")), field="called")
    if called is trump:
        raise InconsistentHand(
            Text(N_("The called ace cannot be the ace of trumps (%(suit)s)."), suit=called.label), field="called"
        )
    partner = _require_partner(partner)
    if partner == declarer and not _own_partner_allowed(Bid.JUBILEU, declarer, {}, options):
        raise InconsistentHand(
            Text(N_("The partner must be another player: the declarer cannot call an ace from their own hand.")),
            field="partner",
        )
    return partner


def _own_partner_allowed(bid: Bid, declarer: str, aces: Mapping[str, int], options: JubileuOptions) -> bool:
    """Whether the declarer may name himself as partner (the called card was in his own hand):
    in Jogo Obrigatório only when he called a king, at a table that allows it; in the Jubileu
    contracts at a table that lets him call his own ace."""
    if bid is Bid.JOGO_OBRIGATORIO:
        return calls_king(aces, declarer) and options.jogo_obrigatorio_self_king != "refuse"
    return options.jubileu_self_ace != "refuse"


# --------------------------------------------------------------------------- what may come next
#
# The contract's details as a guided page asks them, one function a step: the values the parse
# (:func:`_check_details`) lets past that step, given the contract and the details before it.
# The page offers these and never tries a value through the parse; a property test keeps the two
# in step.


def trump_choices(bid: Bid, ultima: Suit, called: Suit | None) -> tuple[Suit, ...]:
    """The trumps ``bid`` accepts: none in Meia Miséria, the última's suit in the contracts da
    Última, any suit otherwise; never the suit Jogo Obrigatório's partner was called by (the
    page asks that first, as the table settles it).

    >>> [s.value for s in trump_choices(Bid.JOGO_OBRIGATORIO, Suit.COPAS, Suit.PAUS)]
    ['copas', 'ouros', 'espadas']
    """
    who = bid.info.trump
    if who is Trump.NONE:
        return ()
    suits = (ultima,) if who is Trump.ULTIMA else tuple(Suit)
    if bid is Bid.JOGO_OBRIGATORIO and called is not None:
        return tuple(suit for suit in suits if suit is not called)
    return suits


def called_choices(bid: Bid, ultima: Suit, trump: Suit | None) -> tuple[Suit, ...]:
    """The suits a partnership contract may call, given its trump so far: no card without a
    partnership; in the Jubileu contracts any ace but the ace of trumps; in Jogo Obrigatório any
    suit (the trump is then chosen among the others). While the trump is refused or still owed,
    every suit is open here (the parse stops at the trump first)."""
    if not bid.info.partnership:
        return ()
    try:
        trump = _trump(bid, ultima, trump)
    except RulesError:
        return tuple(Suit)
    if bid is Bid.JOGO_OBRIGATORIO:
        return tuple(Suit)
    return tuple(suit for suit in Suit if suit is not trump)


def partner_choices(
    players: Sequence[str], bid: Bid, declarer: str, aces: Mapping[str, int], options: JubileuOptions
) -> tuple[str, ...]:
    """The players who may be the partner of a partnership contract (none without one): any
    seated player, the declarer only where he may call a card of his own hand."""
    if not bid.info.partnership:
        return ()
    allowed = _own_partner_allowed(bid, declarer, aces, options)
    return tuple(p for p in players if p != declarer or allowed)


# --------------------------------------------------------------------------- settlement


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """How one declarer's contract went: made or not, and the chips each payer owes."""

    made: bool
    tricks: int
    per_payer: int
    lines: tuple[Line, ...]


def outcome(bid: Bid, tricks: int, options: JubileuOptions, *, partnership: bool) -> Outcome:
    """Chips per paying player for ``tricks`` taken by the declaring side.

    >>> outcome(Bid.SOLO_NOVE, 7, JubileuOptions(), partnership=False).per_payer
    5
    >>> outcome(Bid.SOLO_NOVE, 8, JubileuOptions(), partnership=False).per_payer
    4
    """
    info = bid.info
    v = info.value
    if info.kind is Kind.PLUS:
        made = tricks >= info.tricks
        margin = tricks - info.tricks if made else info.tricks - tricks
    else:
        made = tricks == info.tricks
        margin = abs(tricks - info.tricks)
    if made:
        extra = margin if info.kind is Kind.PLUS and options.overtricks else 0
        if partnership and not options.overtricks_in_partnerships:
            extra = 0
        lines = [Line(text=Text(N_("%(bid)s made"), bid=bid.label), amount=v)]
        if extra:
            lines.append(
                Line(text=Text(*NP_("%(count)s overtrick", "%(count)s overtricks"), count=extra), amount=extra)
            )
        return Outcome(made=True, tricks=tricks, per_payer=v + extra, lines=tuple(lines))
    flat = info.kind is Kind.MISERE and options.misere_margin == "flat"
    extra = 0 if flat else max(0, margin - 1)
    if info.kind is Kind.MISERE:
        failed = Text(
            *NP_("%(bid)s failed with %(count)s trick", "%(bid)s failed with %(count)s tricks"),
            bid=bid.label,
            count=tricks,
        )
    else:
        failed = Text(
            *NP_("%(bid)s failed by %(count)s trick", "%(bid)s failed by %(count)s tricks"), bid=bid.label, count=margin
        )
    lines = [Line(text=failed, amount=v)]
    if extra:
        lines.append(
            Line(
                text=Text(
                    N_("Missed by %(margin)s tricks: %(count)s more (one for each trick missed beyond the first)"),
                    margin=margin,
                    count=extra,
                ),
                amount=extra,
            )
        )
    return Outcome(made=False, tricks=tricks, per_payer=v + extra, lines=tuple(lines))


def settle(hand: JubileuHand, options: JubileuOptions) -> Settlement:
    """Who pays whom for a validated hand. Deltas always sum to zero.

    Solo: the declarer receives ``a`` from each of the three others, or pays each ``a``.
    Partnership: each defender pays one of the pair (the defender next after the declarer in
    order of play pays the declarer), or the other way round. Several Meia Miséria
    declarers: each is settled as his own solo, and the results add up.
    """
    players = hand.players
    contract = hand.contract
    if contract is None:
        return Settlement(players=players, lines=(Line(text=Text(N_("Everybody passed: no chips move.")), amount=0),))
    bid = contract.bid
    payments: list[Payment] = []
    lines: list[Line] = []
    if bid.info.partnership and hand.partner is not None and hand.partner != contract.declarers[0]:
        declarer, partner = contract.declarers[0], hand.partner
        result = outcome(bid, hand.taken((declarer, partner)), options, partnership=True)
        defenders = [p for p in seats.order_from(players, declarer) if p not in (declarer, partner)]
        for side, defender in zip((declarer, partner), defenders):
            payments.append(_pay(defender, side, result))
        lines.extend(_with_total(result, several=False))
        return Settlement(players=players, payments=tuple(payments), lines=tuple(lines))
    solo_declarers = contract.declarers
    opponents_of = {
        d: [
            p
            for p in seats.order_from(players, d)
            if p != d and (options.meia_miseria_settlement == "everyone" or p not in solo_declarers)
        ]
        for d in solo_declarers
    }
    for declarer in solo_declarers:
        result = outcome(bid, hand.taken((declarer,)), options, partnership=False)
        for other in opponents_of[declarer]:
            payments.append(_pay(other, declarer, result))
        if len(solo_declarers) > 1:
            lines.extend(
                Line(text=Text(N_("%(name)s: %(line)s"), name=declarer, line=ln.text), amount=ln.amount, total=ln.total)
                for ln in _with_total(result, several=True)
            )
        else:
            lines.extend(_with_total(result, several=False))
    return Settlement(players=players, payments=tuple(p for p in payments if p.amount), lines=tuple(lines))


def _with_total(result: Outcome, *, several: bool) -> tuple[Line, ...]:
    """An outcome's lines, with what each payment comes to written under them when there is
    something to add up (an overtrick, tricks beyond the first) or when several declarers'
    sums stand one under the other."""
    if len(result.lines) == 1 and not several:
        return result.lines
    return (*result.lines, Line(text=Text(N_("Each payment")), amount=result.per_payer, total=True))


def _pay(opponent: str, declarer: str, result: Outcome) -> Payment:
    if result.made:
        return Payment(payer=opponent, payee=declarer, amount=result.per_payer)
    return Payment(payer=declarer, payee=opponent, amount=result.per_payer)


def contract_summary(hand: JubileuHand) -> dict[str, object]:
    """The contract as the API answers it: bid, declarers and, where they apply, partner and trump."""
    if hand.contract is None:
        return {"bid": PASSO.value, "declarers": []}
    out = hand.contract.to_json()
    if hand.partner is not None:
        out["partner"] = hand.partner
    if hand.trump is not None:
        out["trump"] = hand.trump.value
    if hand.called is not None:
        out["called"] = hand.called.value
    return out


GAME: Final = Game[JubileuOptions, JubileuHand](
    slug=SLUG,
    name="Jubileu",
    # Counter-clockwise: the deal, the auction and the tricks go to the right.
    passes_to="right",
    options_class=JubileuOptions,
    record=RECORD,
    parse=parse_hand,
    settle=settle,
    first_speaker=first_speaker,
    next_dealer=next_dealer,
    contract_json=contract_summary,
    stock_option="starting_chips",
    money_option="chip_value",
)
