"""Quatrilho: seats, the "É bom?" auction, the hand record and the settlement.

Four players (a fifth sits out each hand), 40 Spanish cards, 10 tricks, 35 figures. A hand is
a chamada (the caller and the holder of the called card against the other two), a solo preto
(natural, or with one card exchanged), a solo branco, a carreguete (nobody bid; each for
himself) or goes "a monte" (redealt, nothing paid).

The module's surface: :data:`OPTIONS` (house rules as data) and :class:`QuatrilhoOptions`; the
seating helpers :func:`active_players`, :func:`sitting_out`, :func:`first_speaker` (the deal
passes on: the ``Game`` default); :class:`Auction` (``legal_calls``/``verify_call``/``call``) with
:func:`legal_answers` and :func:`resolve_auction`; :func:`parse_hand` (a posted record to a
validated :class:`QuatrilhoHand`, or a :class:`~referee.rules.errors.RulesError` with a
sentence) and :data:`RECORD`, the hand record's fields; :func:`settle`; and :data:`GAME`, the
game as the rest of the app sees it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Any, ClassVar, Final

from . import seats
from .auction import Auction as AuctionBase
from .auction import pairs_schema, replay_pairs
from .cards import SPANISH_RANKS, Card, Suit
from .errors import IllegalCall, InconsistentHand, InvalidInput, RulesError
from .game import Game, Teams
from .options import Choice, OptionSet, OptionSpec, OptionValue, from_spec
from .record import DEALER, Count, Custom, Field, Json, PerPlayer, Player, Record, RecordSpec, name_schema
from .settle import Line, Payment, Settlement
from .text import N_, NP_, Text

SLUG: Final = "quatrilho"
PLAYING: Final = 4  # players in each hand
MAX_PLAYERS: Final = 5  # the fifth sits out (cinqüilho)
TRICKS: Final = 10
FIGURES: Final = 35  # 32 in the cards + 3 for the last trick
LAST_TRICK: Final = 3
MAX_PER_TRICK: Final = 12  # four aces
WINNING: Final = 18  # "metade de 35, + 1"
FIGURES_PER_POINT: Final = 3
CAPOTE: Final = 22  # "taxa máxima", 11 x 2
ONE_TRICK: Final = 10
SOLO_PRETO_EXTRA: Final = 10  # "a taxa normal + 10 unidades"
GIVER_DIFFERENCE: Final = 10  # the giver pays 10 less / receives 10 more
MANCHA_BELOW: Final = 9  # the caller's own pile below 9 figures


class Mode(Enum):
    """What was played. Proper names at the table; not translated."""

    CHAMADA = "chamada"
    SOLO_PRETO = "solo_preto"
    SOLO_BRANCO = "solo_branco"
    CARREGUETE = "carreguete"
    MONTE = "monte"

    @property
    def label(self) -> str:
        return _MODE_NAMES[self]


_MODE_NAMES: Final = {
    Mode.CHAMADA: "Chamada",
    Mode.SOLO_PRETO: "Solo preto",
    Mode.SOLO_BRANCO: "Solo branco",
    Mode.CARREGUETE: "Carreguete",
    Mode.MONTE: "A monte",
}

#: Modes that nobody declares: what a table plays when everybody passed.
NO_BID_MODES: Final = (Mode.CARREGUETE, Mode.MONTE)


class Call(Enum):
    """What a player may say in the auction."""

    PASSO = "passo"
    CHAMO = "chamo"  # "I call" (after asking "É bom?")
    E_BOM = "e_bom"  # the answer to "É bom?" of a player who will not solo
    SOLO_BRANCO = "solo_branco"
    SOLO_PRETO = "solo_preto"  # with a card exchanged
    SOLO_PRETO_NATURAL = "solo_preto_natural"

    @property
    def label(self) -> str:
        return _CALL_NAMES[self]


_CALL_NAMES: Final = {
    Call.PASSO: "Passo",
    Call.CHAMO: "Chamo",
    Call.E_BOM: "É bom",
    Call.SOLO_BRANCO: "Solo branco",
    Call.SOLO_PRETO: "Solo preto",
    Call.SOLO_PRETO_NATURAL: "Solo preto natural",
}

#: Solo priority, lowest first: "1) solo preto – natural e demais, na ordem; 2) solo branco". A chamada
#: ranks below every solo and is only possible when nobody solos; carreguete is what is left.
SOLO_PRIORITY: Final = (Call.SOLO_BRANCO, Call.SOLO_PRETO, Call.SOLO_PRETO_NATURAL)
SOLO_MODE: Final = {
    Call.SOLO_BRANCO: Mode.SOLO_BRANCO,
    Call.SOLO_PRETO: Mode.SOLO_PRETO,
    Call.SOLO_PRETO_NATURAL: Mode.SOLO_PRETO,
}


def parse_call(raw: object, *, field: str) -> Call:
    if isinstance(raw, Call):
        return raw
    if isinstance(raw, str):
        try:
            return Call(raw)
        except ValueError:
            pass
    raise InvalidInput(
        Text(
            N_("%(call)s is not a Quatrilho call; use one of: %(calls)s."),
            call=str(raw),
            calls=", ".join(c.value for c in Call),
        ),
        field=field,
    )


# --------------------------------------------------------------------------- options

OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(
        name="variant",
        kind="choice",
        default="padrao",
        choices=(
            Choice(value="padrao", label=Text(N_("Standard rules"))),
            Choice(value="timbo", label=Text(N_("Timbó"))),
        ),
        label=Text(N_("Variant")),
        help=Text(
            N_(
                "Timbó: a monte when nobody bids, solo branco 10 per opponent, the card giver is paid like the others when the solo loses, the cutter sits out. An option set explicitly wins over the variant."
            )
        ),
        rule_ref="docs/rules.md#quatrilho-options",
    ),
    OptionSpec(
        name="no_bid",
        kind="choice",
        default="carreguete",
        choices=(
            Choice(value="carreguete", label=Text(N_("Carreguete: everyone plays for themselves"))),
            Choice(value="monte", label=Text(N_("A monte: redeal, nothing paid"))),
        ),
        label=Text(N_("When nobody calls or solos")),
        help=Text(N_("This only sets which choice the page shows first; a hand can always be recorded either way.")),
        rule_ref="docs/rules.md#quatrilho-options",
    ),
    OptionSpec(
        name="solo_branco_rate",
        kind="int",
        default=16,
        minimum=1,
        maximum=1000,
        label=Text(N_("Solo branco: units per opponent")),
        help=Text(N_("16 in the standard rules (48 in all), 10 in Timbó.")),
        rule_ref="docs/rules.md#quatrilho-options",
    ),
    OptionSpec(
        name="giver_on_loss",
        kind="choice",
        default="plus_10",
        choices=(
            Choice(value="plus_10", label=Text(N_("Receives 10 more than the others"))),
            Choice(value="same", label=Text(N_("Receives the same as the others (Timbó)"))),
        ),
        label=Text(N_("When a solo preto with an exchange loses, the player who gave the card")),
        help=Text(N_("On a win the giver always pays 10 less than the others.")),
        rule_ref="docs/rules.md#quatrilho-options",
    ),
    OptionSpec(
        name="sit_out",
        kind="choice",
        default="dealer",
        choices=(
            Choice(value="dealer", label=Text(N_("The dealer"))),
            Choice(value="cutter", label=Text(N_("The cutter (the player before the dealer)"))),
        ),
        label=Text(N_("With five players, who sits out")),
        help=Text(N_("The player sitting out neither pays nor receives.")),
        rule_ref="docs/rules.md#quatrilho-options",
    ),
    OptionSpec(
        name="one_trick",
        kind="choice",
        default="flat_10",
        choices=(
            Choice(value="flat_10", label=Text(N_("Always 10"))),
            Choice(value="cap_10", label=Text(N_("The normal rate, but at most 10"))),
        ),
        label=Text(N_("When the losing side took a single trick")),
        help=Text(N_("One trick, even without figures, saves the losers from the capote (22).")),
        rule_ref="docs/rules.md#quatrilho-options",
    ),
    OptionSpec(
        name="carreguete_rate",
        kind="int",
        default=6,
        minimum=1,
        maximum=1000,
        label=Text(N_("Carreguete: units the loser pays each other player")),
        help=Text(N_("The player with the most figures pays the minimum rate, 6, to each of the other three.")),
        rule_ref="docs/rules.md#quatrilho-options",
    ),
    OptionSpec(
        name="solo_natural_extra",
        kind="int",
        default=0,
        minimum=0,
        maximum=1000,
        label=Text(N_("Solo natural: extra units per opponent")),
        help=Text(
            N_("A solo preto without an exchange pays more, as the table agrees; 0 means the same as with an exchange.")
        ),
        rule_ref="docs/rules.md#quatrilho-options",
    ),
    OptionSpec(
        name="talha",
        kind="int",
        default=100,
        minimum=0,
        maximum=100_000,
        label=Text(N_("Starting units per player (talha)")),
        help=Text(N_("Only for display: balances are always counted from zero.")),
        rule_ref="docs/rules.md#quatrilho-options",
    ),
    OptionSpec(
        name="unit_value",
        kind="money",
        default="0",
        label=Text(N_("Money per unit")),
        help=Text(N_("Zero means units only.")),
    ),
    OptionSpec(
        name="capote_in_solos",
        kind="bool",
        default=False,
        label=Text(N_("Capote and the one-trick rate also in solo preto")),
        help=Text(
            N_(
                "When on, a solo preto with all 10 tricks uses 22 (one trick to the losers: 10) as the normal rate before adding 10."
            )
        ),
        rule_ref="docs/rules.md#quatrilho-options",
    ),
    OptionSpec(
        name="caller_alone",
        kind="choice",
        default="per_opponent",
        choices=(
            Choice(value="per_opponent", label=Text(N_("The normal rate with each of the three"))),
            Choice(value="as_solo", label=Text(N_("As a solo preto without exchange (10 more each)"))),
        ),
        label=Text(N_("A caller who calls a card from their own hand")),
        help=Text(N_("The caller then plays alone against the other three and still wins with 18 figures.")),
        rule_ref="docs/rules.md#quatrilho-options",
    ),
    OptionSpec(
        name="solo_rate_from",
        kind="choice",
        default="winning_side",
        choices=(
            Choice(value="winning_side", label=Text(N_("The winning side's figures"))),
            Choice(value="soloist", label=Text(N_("Always the soloist's figures"))),
        ),
        label=Text(N_("Solo preto: the normal rate is based on")),
        help=Text(N_("Figures divided by 3, remainder dropped.")),
        rule_ref="docs/rules.md#quatrilho-options",
    ),
    OptionSpec(
        name="carreguete_compare",
        kind="choice",
        default="figures",
        choices=(
            Choice(value="figures", label=Text(N_("Figures"))),
            Choice(value="points", label=Text(N_("Points (figures divided by 3)"))),
        ),
        label=Text(N_("Carreguete: the loser is the one with the most")),
        help=Text(N_("Comparing figures breaks ties that points would leave.")),
        rule_ref="docs/rules.md#quatrilho-options",
    ),
    OptionSpec(
        name="carreguete_ties",
        kind="choice",
        default="tied_pay",
        choices=(
            Choice(value="tied_pay", label=Text(N_("Each tied player pays each player not tied"))),
            Choice(value="redeal", label=Text(N_("Nobody pays; the hand counts as a redeal"))),
        ),
        label=Text(N_("Carreguete: a tie for the most")),
        help=Text(N_("Payments between tied players cancel out.")),
        rule_ref="docs/rules.md#quatrilho-options",
    ),
)

#: What ``variant: "timbo"`` presets; an option given explicitly wins.
TIMBO_PRESET: Final[Mapping[str, OptionValue]] = MappingProxyType(
    {"no_bid": "monte", "solo_branco_rate": 10, "giver_on_loss": "same", "sit_out": "cutter"}
)


@dataclass(frozen=True, kw_only=True)
class QuatrilhoOptions(OptionSet):
    """The house rules of one table; the defaults are the readings Referee chose where the rule text is open."""

    variant: str = from_spec()
    no_bid: str = from_spec()
    solo_branco_rate: int = from_spec()
    giver_on_loss: str = from_spec()
    sit_out: str = from_spec()
    one_trick: str = from_spec()
    carreguete_rate: int = from_spec()
    solo_natural_extra: int = from_spec()
    talha: int = from_spec()
    unit_value: str = from_spec()
    capote_in_solos: bool = from_spec()
    caller_alone: str = from_spec()
    solo_rate_from: str = from_spec()
    carreguete_compare: str = from_spec()
    carreguete_ties: str = from_spec()

    specs = OPTIONS

    @classmethod
    def checked(cls, values: dict[str, OptionValue], raw: object) -> dict[str, OptionValue]:
        """Under ``variant: "timbo"`` the Timbó preset fills what was not given explicitly (and
        to_json then writes the effective values, preset included)."""
        if values["variant"] == "timbo":
            given = raw if isinstance(raw, Mapping) else {}
            for name, value in TIMBO_PRESET.items():
                if name not in given:
                    values[name] = value
        return values


# --------------------------------------------------------------------------- seats


def sitting_out(players: Sequence[str], dealer: str, options: QuatrilhoOptions) -> str | None:
    """Who sits out when ``dealer`` deals: nobody at 4; at 5 the dealer, or under
    ``sit_out="cutter"`` the cutter, who sits just before the dealer in order of play (he cuts
    from the dealer's left while play runs to the right).

    >>> sitting_out(("Ana", "Bia", "Caio", "Dani", "Edu"), "Edu", QuatrilhoOptions())
    'Edu'
    >>> sitting_out(("Ana", "Bia", "Caio", "Dani", "Edu"), "Edu", QuatrilhoOptions(sit_out="cutter"))
    'Dani'
    """
    if len(players) <= PLAYING:
        return None
    if options.sit_out == "cutter":
        return seats.after(players, dealer, -1)
    return dealer


def active_players(players: Sequence[str], dealer: str, options: QuatrilhoOptions) -> tuple[str, ...]:
    """The four who play the hand, in order of play from the mão (the player after the dealer),
    skipping whoever sits out.

    >>> active_players(("Ana", "Bia", "Caio", "Dani"), "Dani", QuatrilhoOptions())
    ('Ana', 'Bia', 'Caio', 'Dani')
    >>> active_players(("Ana", "Bia", "Caio", "Dani", "Edu"), "Bia", QuatrilhoOptions(sit_out="cutter"))
    ('Caio', 'Dani', 'Edu', 'Bia')
    """
    out = sitting_out(players, dealer, options)
    return tuple(p for p in seats.order_from(players, seats.after(players, dealer)) if p != out)


def first_speaker(players: Sequence[str], dealer: str, options: QuatrilhoOptions | None = None) -> str:
    """The mão: first to the dealer's right, who speaks and leads first."""
    return active_players(players, dealer, options or QuatrilhoOptions())[0]


# --------------------------------------------------------------------------- the auction


class Auction(AuctionBase[Call]):
    """The "É bom?" auction of one hand, call by call.

    Each of the four active players speaks once, in order of play from the mão:

    * Until somebody calls or solos, a player says ``passo``, ``chamo`` (he asks "É bom?") or a
      solo. A pass is final: passing says he wants neither to call nor to solo (the rule text's
      PASSAR), so he is not asked again.
    * After ``chamo`` each later player answers ``e_bom`` (he will not solo) or announces a solo
      ("não é bom" commits him to it). A call stands only if nobody solos.
    * After a solo, a later player may only announce a higher solo (natural > with exchange >
      branco, :data:`SOLO_PRIORITY`); between equal solos the earlier speaker from the mão has
      priority, so an equal or lower solo after it is refused.

    ``legal_calls()`` lists what the player to speak may say; ``verify_call`` raises
    :class:`IllegalCall` with the reason; ``call`` records a call after verifying it. The page's
    buttons and the record check use the same ``_reason``: one definition of legal.
    """

    def __init__(self, *, active: Sequence[str]) -> None:
        if len(active) != PLAYING or len(set(active)) != PLAYING:
            raise ValueError("an auction needs the four active players")
        self.active = tuple(active)
        self.calls: list[tuple[str, Call]] = []
        self.caller: str | None = None
        self.solo: tuple[str, Call] | None = None  # the standing (best) solo and who announced it
        self.said_e_bom: set[str] = set()

    # -- questions

    CALLS = tuple(Call)

    @property
    def turn(self) -> str | None:
        n = len(self.calls)
        return self.active[n] if n < len(self.active) else None

    def result(self, *, no_bid: Mode = Mode.CARREGUETE) -> tuple[Mode, str | None]:
        """The contract once complete: the best solo, else the chamada, else ``no_bid``."""
        if not self.complete:
            raise ValueError("the auction is not complete")
        if self.solo is not None:
            return SOLO_MODE[self.solo[1]], self.solo[0]
        if self.caller is not None:
            return Mode.CHAMADA, self.caller
        return no_bid, None

    # -- actions

    def call(self, player: str, call: Call, *, field: str | None = None) -> None:
        """Record ``call`` by ``player`` after checking it (raises :class:`IllegalCall`)."""
        self.verify_call(player, call, field=field)
        if call is Call.CHAMO:
            self.caller = player
        elif call is Call.E_BOM:
            self.said_e_bom.add(player)
        elif call in SOLO_MODE:
            self.solo = (player, call)
        self.calls.append((player, call))

    @classmethod
    def replay(cls, *, active: Sequence[str], calls: Sequence[tuple[str, Call | str]]) -> Auction:
        """An auction with ``calls`` already made (each checked; :class:`IllegalCall` names the first bad one)."""
        auction = cls(active=active)
        for i, item in enumerate(calls):
            where = f"auction[{i}]"
            if isinstance(item, str) or not isinstance(item, Sequence) or len(item) != 2:
                raise InvalidInput(Text(N_("Each call must be a [player, call] pair.")), field=where)
            player, raw_call = item[0], item[1]
            if not isinstance(player, str):
                raise InvalidInput(Text(N_("A player must be given by name.")), field=where)
            auction.call(player, parse_call(raw_call, field=where), field=where)
        return auction

    # -- internals

    def _reason(self, player: str, call: Call) -> Text | None:
        """Why ``player`` may not make ``call`` now, or None when he may."""
        turn = self.turn
        if player not in self.active:
            return Text(N_("%(name)s does not play this hand and has no say in the auction."), name=player)
        if call in SOLO_MODE and player in self.said_e_bom:
            return Text(N_('%(name)s answered "é bom" and may no longer announce a solo.'), name=player)
        if turn is None:
            return Text(N_("The auction is already over: every player has spoken."))
        if player != turn:
            if any(p == player for p, _ in self.calls):
                return Text(N_("%(name)s has already spoken: %(turn)s speaks now."), name=player, turn=turn)
            return Text(N_("It is not %(name)s's turn: %(turn)s speaks now."), name=player, turn=turn)
        if call is Call.PASSO:
            if self.caller is not None:
                return Text(
                    N_('%(caller)s asked "É bom?": %(name)s answers "é bom" or announces a solo.'),
                    caller=self.caller,
                    name=player,
                )
            return None
        if call is Call.CHAMO:
            if self.solo is not None:
                return Text(
                    N_("A call is only allowed when nobody wants to solo, and %(name)s announced %(solo)s."),
                    name=self.solo[0],
                    solo=self.solo[1].label,
                )
            if self.caller is not None:
                return Text(
                    N_('%(caller)s has already called: %(name)s answers "é bom" or announces a solo.'),
                    caller=self.caller,
                    name=player,
                )
            return None
        if call is Call.E_BOM:
            if self.caller is None:
                return Text(
                    N_('"É bom" answers a call, and nobody has called: %(name)s may pass or announce a solo.'),
                    name=player,
                )
            return None
        if self.solo is not None and SOLO_PRIORITY.index(call) <= SOLO_PRIORITY.index(self.solo[1]):
            return Text(
                N_(
                    "%(name)s's %(solo)s has priority: after it only a higher solo may be announced (natural, then with an exchange, then branco)."
                ),
                name=self.solo[0],
                solo=self.solo[1].label,
            )
        return None


def legal_answers(calls_so_far: Sequence[tuple[str, Call | str]], active: Sequence[str]) -> list[str]:
    """What the next speaker may say after ``calls_so_far`` (for the page's "É bom?" helper).

    >>> legal_answers([], ("Ana", "Bia", "Caio", "Dani"))
    ['passo', 'chamo', 'solo_branco', 'solo_preto', 'solo_preto_natural']
    >>> legal_answers([("Ana", "chamo")], ("Ana", "Bia", "Caio", "Dani"))
    ['e_bom', 'solo_branco', 'solo_preto', 'solo_preto_natural']
    >>> legal_answers([("Ana", "solo_preto")], ("Ana", "Bia", "Caio", "Dani"))
    ['passo', 'solo_preto_natural']
    """
    return [c.value for c in Auction.replay(active=active, calls=calls_so_far).legal_calls()]


def resolve_auction(
    calls: Sequence[tuple[str, Call | str]], active: Sequence[str], *, no_bid: Mode = Mode.CARREGUETE
) -> tuple[Mode, str | None]:
    """Which contract a complete auction gives and who plays it (``no_bid`` when all passed).

    >>> resolve_auction([("Ana", "passo"), ("Bia", "chamo"), ("Caio", "e_bom"), ("Dani", "e_bom")], ("Ana", "Bia", "Caio", "Dani"))
    (<Mode.CHAMADA: 'chamada'>, 'Bia')
    >>> resolve_auction([("Ana", "chamo"), ("Bia", "solo_branco"), ("Caio", "solo_preto"), ("Dani", "e_bom")], ("Ana", "Bia", "Caio", "Dani"))
    (<Mode.SOLO_PRETO: 'solo_preto'>, 'Caio')
    """
    auction = Auction.replay(active=active, calls=calls)
    if not auction.complete:
        raise IllegalCall(
            Text(N_("The auction is not finished: %(name)s still has to speak."), name=auction.turn or ""),
            field="auction",
        )
    return auction.result(no_bid=no_bid)


# --------------------------------------------------------------------------- the hand record


_MODES: Final = ", ".join(m.value for m in Mode)


@dataclass(frozen=True, kw_only=True)
class _ModeField(Field):
    """What was played: one of :class:`Mode`; the sentences that ask for it or refuse another
    word list the modes."""

    sentence: str

    def read(self, value: object, *, players: Sequence[str]) -> Mode:
        mode = next((m for m in Mode if m.value == value), None)
        if mode is None:
            raise InvalidInput(Text(self.sentence, mode=str(value), modes=_MODES), field=self.name)
        return mode

    def schema(self) -> Json:
        return {"type": "string", "enum": [m.value for m in Mode]}

    def missing(self, raw: Mapping[str, object]) -> RulesError:
        return InvalidInput(Text(self.required or "", modes=_MODES), field=self.name)


@dataclass(frozen=True, kw_only=True)
class _PlayerOrNull(Player):
    """A seated player, or null for nobody (as for every optional field; the document says so here)."""

    def schema(self) -> Json:
        return {**name_schema(), "type": ["string", "null"]}


RECORD: Final = RecordSpec(
    game="Quatrilho",
    unknown=N_("A Quatrilho hand has no field called %(name)s."),
    player_counts=tuple(range(PLAYING, MAX_PLAYERS + 1)),
    doc="Figures include the 3 of the last trick and add up to 35; tricks add up to 10. "
    "With five players the one sitting out is not named.",
    fields=(
        DEALER,
        _ModeField(
            name="mode",
            required=N_("Say what was played (the mode): %(modes)s."),
            sentence=N_("%(mode)s is not a Quatrilho mode; use one of: %(modes)s."),
            doc="What was played: a chamada, a solo, a carreguete (nobody bid) or a monte (redealt).",
        ),
        Player(name="declarer", doc="The caller of a chamada, or the soloist."),
        Custom(
            name="called_card",
            doc="Chamada: the card the caller called.",
            json={
                "type": "object",
                "required": ["rank", "suit"],
                "properties": {
                    "rank": {"type": "string", "enum": list(SPANISH_RANKS)},
                    "suit": {"type": "string", "enum": [s.value for s in Suit]},
                },
            },
        ),
        Player(name="partner", doc="Holder of the called card; the caller himself means he plays alone."),
        _PlayerOrNull(name="giver", doc="Solo preto: who gave the requested card; absent or null for a solo natural."),
        PerPlayer(name="figures", high=FIGURES, what=N_("Figures"), every=False),
        PerPlayer(name="tricks", high=TRICKS, what=N_("Tricks"), every=False),
        Count(
            name="side_figures",
            high=FIGURES,
            sentence=N_("Give the figures the caller's side won, the last trick's 3 included: 0 to %(max)s."),
            doc="Chamada or solo preto, instead of figures and tricks: the figures the caller and partner (or the soloist) won.",
        ),
        Count(
            name="side_tricks",
            high=TRICKS,
            sentence=N_("Give the tricks the caller's side won: 0 to %(max)s."),
            doc="With side_figures: the tricks the caller and partner (or the soloist) won; a solo preto needs them only when capote and the one-trick rate apply to solos.",
        ),
        Count(
            name="caller_figures",
            high=FIGURES,
            sentence=N_("Give the figures in the caller's own pile: 0 to %(max)s."),
            doc="Chamada, with side_figures: the caller's own figures, needed when the side lost (the mancha).",
        ),
        Custom(
            name="most",
            doc="Carreguete, instead of figures: who made the most (several on a tie).",
            json={"type": "array", "items": name_schema(), "minItems": 1, "maxItems": PLAYING - 1},
        ),
        Count(
            name="most_figures",
            high=FIGURES,
            sentence=N_("Give the figures of whoever made the most, the last trick's 3 included: 0 to %(max)s."),
            doc="Carreguete, with most: the figures of whoever made the most (of any of them on a tie).",
        ),
        Custom(name="auction", doc="The calls as [player, call] pairs, in the order spoken.", json=pairs_schema(Call)),
    ),
    example={
        "dealer": "Dani",
        "mode": "chamada",
        "declarer": "Ana",
        "called_card": {"rank": "3", "suit": "paus"},
        "partner": "Caio",
        "figures": {"Ana": 11, "Bia": 8, "Caio": 9, "Dani": 7},
        "tricks": {"Ana": 3, "Bia": 2, "Caio": 3, "Dani": 2},
        "auction": [["Ana", "chamo"], ["Bia", "e_bom"], ["Caio", "e_bom"], ["Dani", "e_bom"]],
    },
    example_players=("Ana", "Bia", "Caio", "Dani"),
)

#: Fields each mode must carry (what its settlement reads).
_NEEDS: Final[Mapping[Mode, tuple[str, ...]]] = MappingProxyType(
    {
        Mode.CHAMADA: ("declarer", "called_card", "partner", "figures", "tricks"),
        Mode.SOLO_PRETO: ("declarer", "figures", "tricks"),
        Mode.SOLO_BRANCO: ("declarer", "tricks"),
        Mode.CARREGUETE: ("figures",),
        Mode.MONTE: (),
    }
)
#: The short form of a chamada or a solo preto: its side's counts instead of each player's.
_SIDE_FIELDS: Final = ("side_figures", "side_tricks", "caller_figures")
_NEEDS_BY_SIDE: Final[Mapping[Mode, tuple[str, ...]]] = MappingProxyType(
    {
        Mode.CHAMADA: ("declarer", "called_card", "partner", "side_figures", "side_tricks"),
        Mode.SOLO_PRETO: ("declarer", "side_figures"),
    }
)
#: The short form of a carreguete: who made the most, and with how many figures.
_MOST_FIELDS: Final = ("most", "most_figures")
_SIDE_SPECS: Final = {f.name: f for f in RECORD.fields if isinstance(f, Count) and f.name in _SIDE_FIELDS}
_MOST_SPEC: Final = next(f for f in RECORD.fields if isinstance(f, Count) and f.name == "most_figures")


@dataclass(frozen=True, kw_only=True)
class QuatrilhoHand(Record):
    """A validated Quatrilho hand. Build it with :func:`parse_hand`; built any other way it still
    checks itself: names seated, four players playing and the fifth sitting out, the declarer,
    partner and giver among the four, and what the mode's settlement reads present and counted.

    ``figures``/``tricks`` are keyed by the active players in order of play; for solo branco
    ``tricks`` holds the soloist's count (and any other given) and ``figures`` is None. A chamada
    may instead carry what its settlement reads and no more: ``side_figures`` and ``side_tricks``
    (the caller's side together) and ``caller_figures`` (the caller's own pile, for the mancha;
    needed only when the side lost), with ``figures`` and ``tricks`` None. A solo preto may carry the
    soloist's ``side_figures`` (and ``side_tricks``, which its settlement reads only when capote and
    the one-trick rate apply to solos); a carreguete who made the ``most`` and their
    ``most_figures``.
    """

    spec: ClassVar[RecordSpec] = RECORD

    players: tuple[str, ...]
    dealer: str
    active: tuple[str, ...]
    sitting_out: str | None
    mode: Mode
    declarer: str | None = None
    called_card: Card | None = None
    partner: str | None = None
    giver: str | None = None
    figures: Mapping[str, int] | None = None
    tricks: Mapping[str, int] | None = None
    side_figures: int | None = None
    side_tricks: int | None = None
    caller_figures: int | None = None
    most: tuple[str, ...] | None = None
    most_figures: int | None = None
    auction: tuple[tuple[str, Call], ...] | None = None

    def check(self) -> None:
        super().check()
        RECORD.check_table(self.players)
        rest = tuple(p for p in self.players if p not in self.active)
        if len(set(self.active)) != PLAYING or len(rest) != len(self.players) - PLAYING:
            raise ValueError("four of the seated players play a Quatrilho hand")
        if self.sitting_out != (rest[0] if rest else None):
            raise ValueError("the one seated player who does not play sits out")
        for name in ("declarer", "partner", "giver"):
            if getattr(self, name) is not None:
                _active_player(self.active, getattr(self, name), field=name)
        self._check_counts()

    def _check_counts(self) -> None:
        """What the mode's settlement reads is present, in whichever form it was given, and counted."""
        if (self.by_side and self.mode not in _NEEDS_BY_SIDE) or (self.by_most and self.mode is not Mode.CARREGUETE):
            raise ValueError(f"a hand played as {self.mode.value} is not given by sides or by who made the most")
        needs = _NEEDS_BY_SIDE[self.mode] if self.by_side else _MOST_FIELDS if self.by_most else _NEEDS[self.mode]
        missing = [name for name in needs if getattr(self, name) is None]
        if missing:
            raise ValueError(f"a hand played as {self.mode.value} needs {', '.join(missing)}")
        if self.figures is not None:
            _counts(self.players, self.active, self.figures, field="figures")
        if self.tricks is not None and self.mode is not Mode.SOLO_BRANCO:
            _counts(self.players, self.active, self.tricks, field="tricks")
        if self.by_side:
            given = {name: getattr(self, name) for name in (*_SIDE_FIELDS, "figures", "tricks")}
            _side_counts(
                self.mode,
                self.declarer,
                self.partner,
                {k: v for k, v in given.items() if v is not None},
                tricks_read=self.mode is Mode.CHAMADA,
            )
        for name in self.most or ():
            _active_player(self.active, name, field="most")

    @property
    def by_side(self) -> bool:
        """A chamada or solo preto given by its side's counts rather than each player's."""
        return any(getattr(self, name) is not None for name in _SIDE_FIELDS)

    @property
    def by_most(self) -> bool:
        """A carreguete given by who made the most rather than each player's figures."""
        return any(getattr(self, name) is not None for name in _MOST_FIELDS)

    @property
    def caller_alone(self) -> bool:
        """The caller called a card from his own hand."""
        return self.mode is Mode.CHAMADA and self.partner == self.declarer

    def to_json(self) -> dict[str, object]:
        """The record as the API gives it, dealer filled in."""
        out: dict[str, object] = {"dealer": self.dealer, "mode": self.mode.value}
        if self.declarer is not None:
            out["declarer"] = self.declarer
        if self.called_card is not None:
            out["called_card"] = self.called_card.to_json()
        if self.partner is not None:
            out["partner"] = self.partner
        if self.giver is not None:
            out["giver"] = self.giver
        if self.figures is not None:
            out["figures"] = dict(self.figures)
        if self.tricks is not None:
            out["tricks"] = dict(self.tricks)
        for name in _SIDE_FIELDS:
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.most is not None:
            out["most"] = list(self.most)
        if self.most_figures is not None:
            out["most_figures"] = self.most_figures
        if self.auction is not None:
            out["auction"] = [[p, c.value] for p, c in self.auction]
        return out


#: Fields each mode may carry besides dealer, mode and auction.
_ALLOWED: Final[Mapping[Mode, frozenset[str]]] = MappingProxyType(
    {
        Mode.CHAMADA: frozenset({"declarer", "called_card", "partner", "figures", "tricks", *_SIDE_FIELDS}),
        Mode.SOLO_PRETO: frozenset({"declarer", "giver", "figures", "tricks", "side_figures", "side_tricks"}),
        Mode.SOLO_BRANCO: frozenset({"declarer", "tricks"}),
        Mode.CARREGUETE: frozenset({"figures", "tricks", *_MOST_FIELDS}),
        Mode.MONTE: frozenset(),
    }
)

_NOT_IN_MODE: Final = {
    "declarer": N_("Nobody declares in a hand played as %(mode)s: leave out the declarer."),
    "called_card": N_("Only a chamada has a called card; this hand is %(mode)s."),
    "partner": N_("Only a chamada has a partner; this hand is %(mode)s."),
    "giver": N_("Only a solo preto can have a card giver; this hand is %(mode)s."),
    "figures": N_("Figures are not counted in %(mode)s: leave them out."),
    "tricks": N_("No tricks are played when the cards go a monte: leave them out."),
    **dict.fromkeys(
        _SIDE_FIELDS[:2],
        N_("Only a chamada or a solo preto is counted by sides; this hand is %(mode)s: leave out %(field)s."),
    ),
    "caller_figures": N_("Only a chamada has a caller's own pile; this hand is %(mode)s: leave out caller_figures."),
    **dict.fromkeys(
        _MOST_FIELDS,
        N_("Only a carreguete is counted by who made the most; this hand is %(mode)s: leave out %(field)s."),
    ),
}
_NOT_IN_MONTE: Final = {
    "figures": N_("Nothing is played when the cards go a monte: leave out the figures."),
    "tricks": N_("Nothing is played when the cards go a monte: leave out the tricks."),
}


def partner_choices(active: Sequence[str]) -> tuple[str, ...]:
    """What may come next at a Chamada's partner: any player of this hand (the caller too, who
    may call a card of his own hand), never the one sitting out (:func:`_active_player`)."""
    return tuple(active)


def _active_player(active: Sequence[str], name: str, *, field: str) -> str:
    """A seated player who plays this hand (the one sitting out cannot declare, partner or give)."""
    if name not in active:
        raise InconsistentHand(
            Text(N_("%(name)s sits out this hand and cannot take part in it."), name=name), field=field
        )
    return name


#: For figures and tricks: what the count is, what it adds up to, and the sentences that ask
#: for it and refuse another total.
_COUNTS: Final = {
    "figures": (
        N_("Figures"),
        FIGURES,
        N_("Give the figures each player who played won (they add up to 35)."),
        N_("The figures add up to %(sum)s; they must add up to %(total)s."),
    ),
    "tricks": (
        N_("Tricks"),
        TRICKS,
        N_("Give the tricks each player who played won (they add up to 10)."),
        N_("The tricks add up to %(sum)s; they must add up to %(total)s."),
    ),
}


def _counts(players: Sequence[str], active: Sequence[str], raw: object, *, field: str) -> dict[str, int]:
    """Figures or tricks: one count for each of the four who played (none for the one sitting
    out), adding up to the whole hand."""
    what, total, missing, wrong_total = _COUNTS[field]
    if raw is None:
        raise InvalidInput(Text(missing), field=field)
    counts = seats.require_counts(active, raw, field=field, total=None, maximum=total, what=Text(what), seated=players)
    if sum(counts.values()) != total:
        raise InconsistentHand(Text(wrong_total, sum=sum(counts.values()), total=total), field=field)
    return counts


def _check_figures_against_tricks(figures: Mapping[str, int], tricks: Mapping[str, int]) -> None:
    """Per player: figures belong to whoever won the trick, so 0 tricks means 0 figures and
    t tricks hold at most 12t + 3 figures (four aces in each, plus the last-trick bonus)."""
    for name, count in figures.items():
        t = tricks[name]
        if t == 0 and count > 0:
            raise InconsistentHand(
                Text(
                    *NP_(
                        "%(name)s took no trick, so cannot have won figures (%(count)s figure entered).",
                        "%(name)s took no trick, so cannot have won figures (%(count)s figures entered).",
                    ),
                    name=name,
                    count=count,
                ),
                field=f"figures.{name}",
            )
        most = MAX_PER_TRICK * t + LAST_TRICK
        if count > most:
            raise InconsistentHand(
                Text(
                    *NP_(
                        "%(name)s took %(count)s trick, which holds at most %(most)s figures (12 per trick plus 3 for the last); %(figures)s were entered.",
                        "%(name)s took %(count)s tricks, which hold at most %(most)s figures (12 per trick plus 3 for the last); %(figures)s were entered.",
                    ),
                    name=name,
                    count=t,
                    most=most,
                    figures=count,
                ),
                field=f"figures.{name}",
            )


def _parse_auction(players: tuple[str, ...], active: tuple[str, ...], raw: object) -> Auction:
    return replay_pairs(Auction(active=active), players, raw, parse_call)


def _check_auction_agrees(auction: Auction, mode: Mode, declarer: str | None, giver: str | None) -> None:
    """The record's mode, declarer and exchange must be what the auction produced."""
    result_mode, winner = auction.result()
    if winner is None:
        if mode not in NO_BID_MODES:
            raise InconsistentHand(
                Text(
                    N_("Everybody passed in the auction, so the hand is a carreguete or goes a monte, not %(mode)s."),
                    mode=mode.label,
                ),
                field="mode",
            )
        return
    if mode is not result_mode:
        raise InconsistentHand(
            Text(
                N_("The auction gives %(contract)s by %(name)s, but the record says %(mode)s."),
                contract=result_mode.label,
                name=winner,
                mode=mode.label,
            ),
            field="mode",
        )
    if declarer != winner:
        raise InconsistentHand(
            Text(
                N_("The auction gives %(contract)s to %(name)s, who must be the declarer."),
                contract=result_mode.label,
                name=winner,
            ),
            field="declarer",
        )
    if auction.solo is not None and auction.solo[1] is Call.SOLO_PRETO_NATURAL and giver is not None:
        raise InconsistentHand(
            Text(N_("%(name)s announced a natural solo, so no card was exchanged: leave out the giver."), name=winner),
            field="giver",
        )
    if auction.solo is not None and auction.solo[1] is Call.SOLO_PRETO and giver is None:
        raise InconsistentHand(
            Text(
                N_(
                    "%(name)s announced a solo preto with an exchange: name the player who gave the requested card (or record the call as solo_preto_natural)."
                ),
                name=winner,
            ),
            field="giver",
        )


def parse_hand(
    raw: object, *, players: Sequence[str], options: QuatrilhoOptions, dealer: str, teams: Teams = ()
) -> QuatrilhoHand:
    """Validate a posted Quatrilho record against the rules, or raise a :class:`RulesError`.

    ``dealer`` is the dealer by rotation; a record may name another seated player. The record's
    shape is :data:`RECORD`'s; the rules then follow the order a player would look: the
    auction, the fields the mode allows, the contract (declarer, called card, partner, giver),
    then the counts (figures, tricks, and the two together).
    """
    values = RECORD.read(raw, players=players)
    players = tuple(players)
    dealer = values.get("dealer") or seats.require_player(players, dealer, field="dealer")
    active = active_players(players, dealer, options)
    mode: Mode = values["mode"]
    auction = _parse_auction(players, active, values["auction"]) if "auction" in values else None
    _check_fields_of_mode(mode, values)
    declarer, called, partner, giver = _contract(active, mode, values)
    if auction is not None:
        _check_auction_agrees(auction, mode, declarer, giver)
    side = _side_counts(mode, declarer, partner, values, tricks_read=mode is Mode.CHAMADA or options.capote_in_solos)
    most = _most(players, active, mode, values, options)
    short = bool(side) or most is not None
    figures, tricks = (None, None) if short else _played(players, active, mode, declarer, values)
    return QuatrilhoHand(
        players=players,
        dealer=dealer,
        active=active,
        sitting_out=sitting_out(players, dealer, options),
        mode=mode,
        declarer=declarer,
        called_card=called,
        partner=partner,
        giver=giver,
        figures=MappingProxyType(figures) if figures is not None else None,
        tricks=MappingProxyType(tricks) if tricks is not None else None,
        side_figures=side.get("side_figures"),
        side_tricks=side.get("side_tricks"),
        caller_figures=side.get("caller_figures"),
        most=most[0] if most is not None else None,
        most_figures=most[1] if most is not None else None,
        auction=tuple(auction.calls) if auction is not None else None,
    )


def _check_fields_of_mode(mode: Mode, values: Mapping[str, Any]) -> None:
    """Each mode carries only its own fields (:data:`_ALLOWED`)."""
    for key in ("declarer", "called_card", "partner", "giver", "figures", "tricks", *_SIDE_FIELDS, *_MOST_FIELDS):
        if key in values and key not in _ALLOWED[mode]:
            if key == "giver" and mode is Mode.SOLO_BRANCO:
                raise InconsistentHand(
                    Text(N_("A solo branco may not exchange any card: leave out the giver.")), field="giver"
                )
            if mode is Mode.MONTE and key in _NOT_IN_MONTE:
                raise InconsistentHand(Text(_NOT_IN_MONTE[key]), field=key)
            raise InconsistentHand(Text(_NOT_IN_MODE[key], mode=mode.label, field=key), field=key)


def _contract(
    active: Sequence[str], mode: Mode, values: Mapping[str, Any]
) -> tuple[str | None, Card | None, str | None, str | None]:
    """The declarer, the called card, the partner and the giver, as the mode has them."""
    declarer = called = partner = giver = None
    if mode in (Mode.CHAMADA, Mode.SOLO_PRETO, Mode.SOLO_BRANCO):
        if "declarer" not in values:
            what = (
                N_("Name the caller (the declarer).")
                if mode is Mode.CHAMADA
                else N_("Name the soloist (the declarer).")
            )
            raise InvalidInput(Text(what), field="declarer")
        declarer = _active_player(active, values["declarer"], field="declarer")
    if mode is Mode.CHAMADA:
        if "called_card" not in values:
            raise InvalidInput(
                Text(N_('Give the called card, e.g. {"rank": "3", "suit": "paus"}.')), field="called_card"
            )
        called = Card.parse(values["called_card"], field="called_card")
        if "partner" not in values:
            raise InvalidInput(
                Text(
                    N_(
                        "Give the partner: the player who holds the called card (the caller, if they called their own card)."
                    )
                ),
                field="partner",
            )
        partner = _active_player(active, values["partner"], field="partner")
    if mode is Mode.SOLO_PRETO and "giver" in values:
        giver = _active_player(active, values["giver"], field="giver")
        if giver == declarer:
            raise InconsistentHand(
                Text(
                    N_(
                        "The giver is the opponent who gave the soloist the requested card, so it cannot be %(name)s, the soloist."
                    ),
                    name=giver,
                ),
                field="giver",
            )
    return declarer, called, partner, giver


def _played(
    players: Sequence[str], active: Sequence[str], mode: Mode, declarer: str | None, values: Mapping[str, Any]
) -> tuple[dict[str, int] | None, dict[str, int] | None]:
    """The figures and tricks the mode counts: both in a chamada or solo preto, the figures (and
    the tricks if given) in a carreguete, the tricks in a solo branco, nothing a monte."""
    if mode is Mode.SOLO_BRANCO:
        assert declarer is not None
        return None, _solo_branco_tricks(players, active, declarer, values.get("tricks"))
    if mode is Mode.MONTE:
        return None, None
    figures = _counts(players, active, values.get("figures"), field="figures")
    if mode is Mode.CARREGUETE and "tricks" not in values:
        return figures, None
    tricks = _counts(players, active, values.get("tricks"), field="tricks")
    _check_figures_against_tricks(figures, tricks)
    return figures, tricks


def _side_counts(
    mode: Mode, declarer: str | None, partner: str | None, values: Mapping[str, Any], *, tricks_read: bool
) -> dict[str, int]:
    """A chamada or a solo preto given by its side's counts (empty when given per player): the
    side's figures, and its tricks when the settlement reads them (always in a chamada; in a solo
    preto only when capote and the one-trick rate apply to solos), each side's figures possible
    with its tricks (what the per-player rule of :func:`_check_figures_against_tricks` allows,
    summed over the side). A solo's side is the soloist alone. The caller's own figures are
    checked by :func:`_check_caller_figures`."""
    given = {name: values[name] for name in _SIDE_FIELDS if name in values}
    if not given or mode not in _NEEDS_BY_SIDE:
        return given
    if "figures" in values or "tricks" in values:
        raise InconsistentHand(
            Text(N_("Give either each player's figures and tricks or the side's counts, not both.")),
            field="side_figures",
        )
    asked = _SIDE_ASKS[mode]
    for name in ("side_figures", "side_tricks") if tricks_read else ("side_figures",):
        if name not in given:
            raise InvalidInput(Text(asked[name], max=_SIDE_SPECS[name].high), field=name)
    alone = mode is Mode.SOLO_PRETO or declarer == partner
    if "side_tricks" in given:
        _check_side_holds(given["side_figures"], given["side_tricks"], alone=alone)
    if mode is Mode.CHAMADA:
        _check_caller_figures(given, alone=alone)
    return given


#: The sentences that ask for a missing side count, by mode.
_SIDE_ASKS: Final = {
    Mode.CHAMADA: {name: spec.sentence for name, spec in _SIDE_SPECS.items()},
    Mode.SOLO_PRETO: {
        "side_figures": N_("Give the figures the soloist won, the last trick's 3 included: 0 to %(max)s."),
        "side_tricks": N_("Give the tricks the soloist won: 0 to %(max)s."),
    },
}


def _check_side_holds(figures: int, tricks: int, *, alone: bool) -> None:
    """Each side's figures possible with its tricks."""
    size = 1 if alone else 2
    for t, f, k in ((tricks, figures, size), (TRICKS - tricks, FIGURES - figures, PLAYING - size)):
        most = _side_holds(t, k)
        if f > most:
            raise InconsistentHand(
                Text(
                    N_(
                        "A side that took %(tricks)s tricks holds at most %(most)s figures (none without a trick); %(figures)s were given."
                    ),
                    tricks=t,
                    most=most,
                    figures=f,
                ),
                field="side_tricks",
            )


def _check_caller_figures(given: Mapping[str, int], *, alone: bool) -> None:
    """The caller's own figures within the side's, asked only when the side lost (below 9 is the
    mancha) and equal to the side's when he played alone."""
    figures, own = given["side_figures"], given.get("caller_figures")
    if own is not None and (own > figures or (alone and own != figures)):
        raise InconsistentHand(
            Text(
                *NP_(
                    "The caller's own %(count)s figure is part of the side's %(figures)s (all of them when the caller plays alone).",
                    "The caller's own %(count)s figures are part of the side's %(figures)s (all of them when the caller plays alone).",
                ),
                count=own,
                figures=figures,
            ),
            field="caller_figures",
        )
    if own is None and not alone and figures < WINNING:
        raise InvalidInput(
            Text(N_("The caller's side lost: give the figures in the caller's own pile (fewer than 9 is a mancha).")),
            field="caller_figures",
        )


def _most(
    players: Sequence[str], active: Sequence[str], mode: Mode, values: Mapping[str, Any], options: QuatrilhoOptions
) -> tuple[tuple[str, ...], int] | None:
    """A carreguete given by who made the most and their figures (None when given per player):
    one to three of the four who played, in order of play, with a count that can be the most
    (by figures, or by points under ``carreguete_compare="points"``) when the others share the
    rest of the 35."""
    if mode is not Mode.CARREGUETE or not any(name in values for name in _MOST_FIELDS):
        return None
    if "figures" in values or "tricks" in values:
        raise InconsistentHand(
            Text(N_("Give either each player's figures or who made the most, not both.")), field="most"
        )
    raw = values.get("most")
    if not isinstance(raw, list) or not 1 <= len(raw) < PLAYING:
        raise InvalidInput(Text(N_("Name who made the most: one player, or two or three who tied.")), field="most")
    named = {_active_player(active, seats.require_player(players, name, field="most"), field="most") for name in raw}
    if len(named) != len(raw):
        raise InconsistentHand(Text(N_("A player is named twice among who made the most.")), field="most")
    if "most_figures" not in values:
        raise InvalidInput(Text(_MOST_SPEC.sentence, max=FIGURES), field="most_figures")
    top = values["most_figures"]
    if not most_possible(len(named), top, options):
        raise InconsistentHand(
            Text(
                *NP_(
                    "With %(count)s figure, %(names)s cannot have made the most while the others share the rest of the 35.",
                    "With %(count)s figures, %(names)s cannot have made the most while the others share the rest of the 35.",
                ),
                count=top,
                names=seats.join_names([p for p in active if p in named]),
            ),
            field="most_figures",
        )
    return tuple(p for p in active if p in named), top


def most_possible(tied: int, top: int, options: QuatrilhoOptions) -> bool:
    """Whether ``tied`` players, one with ``top`` figures, can make the most together while the
    others share the rest of the 35: by figures the tied all have ``top`` and the others fewer;
    by points the tied have the same points and the others fewer points."""
    if options.carreguete_compare == "points":
        p = points(top)
        low, high, others = (
            FIGURES_PER_POINT * p,
            FIGURES_PER_POINT * p + FIGURES_PER_POINT - 1,
            FIGURES_PER_POINT * p - 1,
        )
    else:
        low, high, others = top, top, top - 1
    if others < 0:
        return False
    least = max(top + (tied - 1) * low, FIGURES - (PLAYING - tied) * others)
    return least <= min(top + (tied - 1) * high, FIGURES)


def _side_holds(tricks: int, players: int) -> int:
    """The most figures ``players`` of one side can hold with ``tricks`` tricks between them: the
    per-player rule of :func:`_check_figures_against_tricks` (12 a trick, 3 more for each player
    who took one) summed over the side."""
    return MAX_PER_TRICK * tricks + LAST_TRICK * min(tricks, players)


def possible_side_tricks(side_figures: int, *, alone: bool) -> tuple[int, ...]:
    """The tricks the caller's side may have taken with ``side_figures`` figures (for the page's
    pad: only what the record check accepts).

    >>> possible_side_tricks(0, alone=False)
    (0, 1, 2, 3, 4, 5, 6, 7)
    >>> possible_side_tricks(35, alone=True)
    (3, 4, 5, 6, 7, 8, 9, 10)
    """
    size = 1 if alone else 2
    return tuple(
        t
        for t in range(TRICKS + 1)
        if side_figures <= _side_holds(t, size) and FIGURES - side_figures <= _side_holds(TRICKS - t, PLAYING - size)
    )


def _solo_branco_tricks(players: Sequence[str], active: Sequence[str], soloist: str, raw: object) -> dict[str, int]:
    """Play stops at the soloist's first trick, so his count is 0 (won) or 1 (lost). Other
    players' counts are optional; given in full with a clean solo they cover all 10 tricks."""
    if raw is None:
        raise InvalidInput(
            Text(N_("Give the number of tricks %(name)s took: 0 (won) or 1 (lost)."), name=soloist),
            field=f"tricks.{soloist}",
        )
    counts = seats.require_counts(
        active, raw, field="tricks", total=None, maximum=TRICKS, what=Text(N_("Tricks")), seated=players, required=False
    )
    if soloist not in counts:
        raise InvalidInput(
            Text(N_("Give the number of tricks %(name)s took: 0 (won) or 1 (lost)."), name=soloist),
            field=f"tricks.{soloist}",
        )
    if counts[soloist] not in (0, 1):
        raise InconsistentHand(
            Text(
                N_(
                    "A solo branco stops at the soloist's first trick, so %(name)s took 0 tricks (won) or 1 (lost), not %(count)s."
                ),
                name=soloist,
                count=counts[soloist],
            ),
            field=f"tricks.{soloist}",
        )
    total = sum(counts.values())
    if total > TRICKS or (counts[soloist] == 0 and len(counts) == len(active) and total != TRICKS):
        raise InconsistentHand(
            Text(
                N_(
                    "The tricks add up to %(sum)s; a solo branco won without a trick has all 10 tricks played, and there are never more than 10."
                ),
                sum=total,
            ),
            field="tricks",
        )
    return counts


# --------------------------------------------------------------------------- settlement


def points(figures: int) -> int:
    """Points for ``figures``: 1 point per 3 figures, the remainder dropped.

    >>> points(20)  # the rule text: "20 : 3 = 6 (resto 2, desprezado)"
    6
    >>> points(35)  # the whole game: 11 points
    11
    >>> points(18)  # the minimum rate ("taxa mínima")
    6
    """
    return figures // FIGURES_PER_POINT


def chamada_rate(winning_figures: int, losing_tricks: int, options: QuatrilhoOptions) -> int:
    """Units per player in a chamada: 22 for a capote (the losers took no
    trick), 10 when the losers took exactly one trick (under ``one_trick="cap_10"`` the
    normal rate capped at 10), else the normal rate P = figures // 3.

    >>> chamada_rate(20, 3, QuatrilhoOptions())  # the rule text's example: "quem perdeu paga 6"
    6
    >>> chamada_rate(35, 0, QuatrilhoOptions())  # vinte-e-dois
    22
    >>> chamada_rate(35, 1, QuatrilhoOptions())  # one trick, even without figures
    10
    >>> chamada_rate(26, 1, QuatrilhoOptions()), chamada_rate(26, 1, QuatrilhoOptions(one_trick="cap_10"))
    (10, 8)
    """
    return _rate(points(winning_figures), losing_tricks, options)[0]


def _rate(p: int, losing_tricks: int | None, options: QuatrilhoOptions) -> tuple[int, str]:
    """The rate for normal points ``p`` and the losers' tricks: (amount, "normal"|"capote"|"one_trick")."""
    if losing_tricks == 0:
        return CAPOTE, "capote"
    if losing_tricks == 1:
        return (ONE_TRICK if options.one_trick == "flat_10" else min(ONE_TRICK, p)), "one_trick"
    return p, "normal"


def _rate_lines(
    p: int,
    amount: int,
    case: str,
    winners: Sequence[str],
    losers: Sequence[str],
    winning_figures: int,
    options: QuatrilhoOptions,
) -> list[Line]:
    won = Text(
        N_("%(names)s won with %(figures)s of the 35 figures: %(points)s points (figures divided by 3)."),
        names=seats.join_names(winners),
        figures=winning_figures,
        points=p,
    )
    if case == "capote":
        return [
            Line(text=won, amount=0),
            Line(
                text=Text(
                    N_("Capote (vinte-e-dois): %(names)s took all 10 tricks, so the rate is 22."),
                    names=seats.join_names(winners),
                ),
                amount=amount,
            ),
        ]
    if case == "one_trick":
        if amount == p:
            text = Text(
                N_("%(names)s took a single trick; the rate stays %(amount)s."),
                names=seats.join_names(losers),
                amount=amount,
            )
        elif options.one_trick == "flat_10":
            text = Text(
                N_("%(names)s took a single trick, so the rate is 10 instead of %(points)s."),
                names=seats.join_names(losers),
                points=p,
            )
        else:
            text = Text(
                N_("%(names)s took a single trick, so the rate is at most 10: %(amount)s."),
                names=seats.join_names(losers),
                amount=amount,
            )
        return [Line(text=won, amount=0), Line(text=text, amount=amount)]
    return [Line(text=won, amount=p)]


def _pay(payer: str, payee: str, amount: int) -> list[Payment]:
    return [Payment(payer=payer, payee=payee, amount=amount)] if amount > 0 else []


def settle(hand: QuatrilhoHand, options: QuatrilhoOptions) -> Settlement:
    """Who pays whom for a validated hand. Deltas always sum to zero; the
    player sitting out is in the settlement with 0."""
    if hand.mode is Mode.CHAMADA:
        payments, lines = _settle_chamada(hand, options)
    elif hand.mode is Mode.SOLO_PRETO:
        payments, lines = _settle_solo_preto(hand, options)
    elif hand.mode is Mode.SOLO_BRANCO:
        payments, lines = _settle_solo_branco(hand, options)
    elif hand.mode is Mode.CARREGUETE:
        payments, lines = _settle_carreguete(hand, options)
    else:
        payments, lines = [], [Line(text=Text(N_("Nobody bid and the cards went a monte: nothing is paid.")), amount=0)]
    if hand.sitting_out is not None:
        lines.append(Line(text=Text(N_("%(name)s sat out this hand."), name=hand.sitting_out), amount=0))
    return Settlement(players=hand.players, payments=tuple(payments), lines=tuple(lines))


def _settle_chamada(hand: QuatrilhoHand, options: QuatrilhoOptions) -> tuple[list[Payment], list[Line]]:
    """2 v 2: each loser pays the rate, each winner receives it; losers are paired with
    winners in order of play. Mancha: a losing caller with fewer than 9 figures of his own pays
    both winners, his partner nothing. Caller alone: the rate with each of the
    three, or as a solo preto without giver under ``caller_alone="as_solo"``."""
    assert hand.declarer is not None and hand.partner is not None
    caller = hand.declarer
    if hand.caller_alone and options.caller_alone == "as_solo":
        return _settle_solo(hand, options, natural=True, declared_solo=False)
    side = (caller,) if hand.caller_alone else tuple(p for p in hand.active if p in (caller, hand.partner))
    others = tuple(p for p in hand.active if p not in side)
    side_figures, side_tricks, own = _side_totals(hand, side)
    assert side_tricks is not None  # a chamada always has its tricks
    won = side_figures >= WINNING
    winners, losers = (side, others) if won else (others, side)
    w = max(side_figures, FIGURES - side_figures)
    p = points(w)
    amount, case = _rate(p, TRICKS - side_tricks if won else side_tricks, options)
    lines = _rate_lines(p, amount, case, winners, losers, w, options)
    payments: list[Payment] = []
    if hand.caller_alone:
        lines.append(
            Line(
                text=Text(
                    N_(
                        "%(name)s called a card from their own hand and played alone against the other three: the rate with each of them."
                    ),
                    name=caller,
                ),
                amount=0,
            )
        )
        for other in others:
            payments += _pay(other, caller, amount) if won else _pay(caller, other, amount)
        return payments, lines
    if not won and own is not None and own < MANCHA_BELOW:
        lines.append(
            Line(
                text=Text(
                    *NP_(
                        "Mancha: %(name)s, the caller, made only %(count)s figure in his own pile (fewer than 9) and pays for both; %(partner)s pays nothing.",
                        "Mancha: %(name)s, the caller, made only %(count)s figures in his own pile (fewer than 9) and pays for both; %(partner)s pays nothing.",
                    ),
                    name=caller,
                    count=own,
                    partner=hand.partner,
                ),
                amount=0,
            )
        )
        for winner in winners:
            payments += _pay(caller, winner, amount)
        return payments, lines
    for loser, winner in zip(losers, winners):
        payments += _pay(loser, winner, amount)
    return payments, lines


def _side_totals(hand: QuatrilhoHand, side: Sequence[str]) -> tuple[int, int | None, int | None]:
    """The side's figures and tricks and the caller's own figures, whichever form the chamada or
    solo was given in (the caller's figures may be absent from the short form when his side won; a
    solo's tricks when its settlement does not read them)."""
    if hand.side_figures is not None:
        return hand.side_figures, hand.side_tricks, hand.caller_figures
    assert hand.figures is not None and hand.tricks is not None and hand.declarer is not None
    figures, tricks = hand.figures, hand.tricks
    return sum(figures[p] for p in side), sum(tricks[p] for p in side), figures[hand.declarer]


def _settle_solo_preto(hand: QuatrilhoHand, options: QuatrilhoOptions) -> tuple[list[Payment], list[Line]]:
    return _settle_solo(hand, options, natural=hand.giver is None, declared_solo=True)


def _settle_solo(
    hand: QuatrilhoHand, options: QuatrilhoOptions, *, natural: bool, declared_solo: bool
) -> tuple[list[Payment], list[Line]]:
    """Solo preto: each opponent pays or receives the rate + 10 (plus the natural extra when no
    card was exchanged). With a giver: on a win he pays 10 less (the rate); on a loss he
    receives 10 more (rate + 20), or the same as the others under ``giver_on_loss="same"``.
    The rate is ``points`` of the winning side's figures (or of the soloist's
    under ``solo_rate_from="soloist"``); capote and one trick only under ``capote_in_solos``.
    Also used for a caller alone under ``caller_alone="as_solo"`` (no natural extra:
    he did not announce a solo)."""
    assert hand.declarer is not None
    soloist = hand.declarer
    opponents = tuple(p for p in hand.active if p != soloist)
    own, own_tricks, _own = _side_totals(hand, (soloist,))
    won = own >= WINNING
    w = own if won else FIGURES - own
    basis = w if options.solo_rate_from == "winning_side" else own
    p = points(basis)
    if options.capote_in_solos and own_tricks is not None:
        amount, case = _rate(p, (TRICKS - own_tricks) if won else own_tricks, options)
    else:  # capote and the one-trick rate are for chamadas, unless the table applies them to solos
        amount, case = p, "normal"
    winners, losers = ((soloist,), opponents) if won else (opponents, (soloist,))
    lines = [_solo_opening(soloist, own, won, natural=natural, declared_solo=declared_solo)]
    rate = (
        NP_(
            "Normal rate from the winning side's %(count)s figure: %(points)s.",
            "Normal rate from the winning side's %(count)s figures: %(points)s.",
        )
        if options.solo_rate_from == "winning_side"
        else NP_(
            "Normal rate from the soloist's %(count)s figure: %(points)s.",
            "Normal rate from the soloist's %(count)s figures: %(points)s.",
        )
    )
    rate_text = Text(*rate, count=basis, points=p)
    # A capote or a single trick replaces the normal rate: the replaced figure stays in words.
    lines.append(Line(text=rate_text, amount=p if case == "normal" else 0))
    lines += _rate_lines(p, amount, case, winners, losers, w, options)[1:]
    lines.append(Line(text=Text(N_("Solo preto: 10 more from or to each opponent.")), amount=SOLO_PRETO_EXTRA))
    per = amount + SOLO_PRETO_EXTRA
    if natural and declared_solo and options.solo_natural_extra:
        lines.append(
            Line(
                text=Text(N_("Solo natural (no card exchanged): the table's extra per opponent.")),
                amount=options.solo_natural_extra,
            )
        )
        per += options.solo_natural_extra
    lines.append(Line(text=Text(N_("Each payment")), amount=per, total=True))
    payments: list[Payment] = []
    for opponent in opponents:
        share = per
        if opponent == hand.giver:
            share, line = _giver_share(opponent, per, won, options)
            lines.append(line)
        payments += _pay(opponent, soloist, share) if won else _pay(soloist, opponent, share)
    return payments, lines


def _solo_opening(soloist: str, own: int, won: bool, *, natural: bool, declared_solo: bool) -> Line:
    """The breakdown's first line, words only: the solo won or lost with the soloist's figures,
    or a caller alone settled as a solo."""
    if not declared_solo:
        return Line(
            text=Text(
                N_(
                    "%(name)s called a card from their own hand and played alone against the other three: settled as a solo preto without exchange."
                ),
                name=soloist,
            ),
            amount=0,
        )
    kind = Text(N_("Solo preto natural")) if natural else Text(N_("Solo preto with an exchange"))
    verdict = (
        NP_("%(kind)s won by %(name)s with %(count)s figure.", "%(kind)s won by %(name)s with %(count)s figures.")
        if won
        else NP_(
            "%(kind)s lost by %(name)s with %(count)s figure.", "%(kind)s lost by %(name)s with %(count)s figures."
        )
    )
    return Line(text=Text(*verdict, kind=kind, name=soloist, count=own), amount=0)


def _giver_share(giver: str, per: int, won: bool, options: QuatrilhoOptions) -> tuple[int, Line]:
    """What the opponent who gave the soloist the requested card pays (10 less than the others)
    or receives (10 more, or the same under ``giver_on_loss="same"``)."""
    if won:
        share = per - GIVER_DIFFERENCE
        return share, Line(text=Text(N_("%(name)s gave the requested card and pays 10 less."), name=giver), amount=0)
    if options.giver_on_loss == "plus_10":
        share = per + GIVER_DIFFERENCE
        return share, Line(
            text=Text(N_("%(name)s gave the requested card and receives 10 more."), name=giver), amount=0
        )
    return per, Line(
        text=Text(N_("%(name)s gave the requested card and receives the same as the others."), name=giver), amount=0
    )


def _settle_solo_branco(hand: QuatrilhoHand, options: QuatrilhoOptions) -> tuple[list[Payment], list[Line]]:
    """Solo branco: the rate (16, Timbó 10) with each opponent; lost on the soloist's first trick."""
    assert hand.tricks is not None and hand.declarer is not None
    soloist = hand.declarer
    rate = options.solo_branco_rate
    won = hand.tricks[soloist] == 0
    if won:
        text = Text(
            N_("Solo branco won: %(name)s took no trick and receives %(rate)s from each opponent."),
            name=soloist,
            rate=rate,
        )
    else:
        text = Text(
            N_("Solo branco lost: %(name)s took a trick and pays %(rate)s to each opponent."), name=soloist, rate=rate
        )
    payments: list[Payment] = []
    for opponent in hand.active:
        if opponent != soloist:
            payments += _pay(opponent, soloist, rate) if won else _pay(soloist, opponent, rate)
    return payments, [Line(text=text, amount=rate)]


def carreguete_losers(figures: Mapping[str, int], options: QuatrilhoOptions) -> tuple[str, ...]:
    """Who made the most: by figures, or by points under ``carreguete_compare="points"``.
    Several players when they tie for the most, in the order of ``figures``.

    >>> carreguete_losers({"Ana": 12, "Bia": 11, "Caio": 6, "Dani": 6}, QuatrilhoOptions())
    ('Ana',)
    >>> carreguete_losers({"Ana": 12, "Bia": 14, "Caio": 3, "Dani": 6}, QuatrilhoOptions(carreguete_compare="points"))
    ('Ana', 'Bia')
    """
    score = {p: (points(f) if options.carreguete_compare == "points" else f) for p, f in figures.items()}
    top = max(score.values())
    return tuple(p for p in figures if score[p] == top)


def _carreguete_top(hand: QuatrilhoHand, options: QuatrilhoOptions) -> tuple[tuple[str, ...], int]:
    """Who made the most and the most made (figures, or points under ``carreguete_compare="points"``),
    whichever form the carreguete was given in."""
    compare = points if options.carreguete_compare == "points" else int
    if hand.most is not None and hand.most_figures is not None:
        return hand.most, compare(hand.most_figures)
    assert hand.figures is not None
    losers = carreguete_losers(hand.figures, options)
    return losers, max(compare(hand.figures[p]) for p in losers)


def _settle_carreguete(hand: QuatrilhoHand, options: QuatrilhoOptions) -> tuple[list[Payment], list[Line]]:
    """The player with the most pays the rate to each other player. Ties: each tied
    player pays each player not tied, or nobody pays under ``carreguete_ties="redeal"``."""
    losers, top = _carreguete_top(hand, options)
    rate = options.carreguete_rate
    what = Text(N_("points")) if options.carreguete_compare == "points" else Text(N_("figures"))
    if len(losers) > 1 and options.carreguete_ties == "redeal":
        return [], [
            Line(
                text=Text(
                    N_(
                        "Carreguete: %(names)s tie for the most %(what)s (%(top)s); nobody pays and the hand counts as a redeal."
                    ),
                    names=seats.join_names(losers),
                    what=what,
                    top=top,
                ),
                amount=0,
            )
        ]
    if len(losers) == 1:
        text = Text(
            N_("Carreguete: %(name)s made the most %(what)s (%(top)s) and pays %(rate)s to each other player."),
            name=losers[0],
            what=what,
            top=top,
            rate=rate,
        )
    else:
        text = Text(
            N_(
                "Carreguete: %(names)s tie for the most %(what)s (%(top)s); each pays %(rate)s to each player not tied."
            ),
            names=seats.join_names(losers),
            what=what,
            top=top,
            rate=rate,
        )
    payments: list[Payment] = []
    for loser in losers:
        for other in hand.active:
            if other not in losers:
                payments += _pay(loser, other, rate)
    return payments, [Line(text=text, amount=rate)]


def contract_summary(hand: QuatrilhoHand) -> dict[str, object]:
    """What was played, as the API answers it (every key present, None where it does not apply)."""
    return {
        "mode": hand.mode.value,
        "declarer": hand.declarer,
        "partner": hand.partner,
        "giver": hand.giver,
        "called_card": hand.called_card.to_json() if hand.called_card is not None else None,
        "sitting_out": hand.sitting_out,
    }


GAME: Final = Game[QuatrilhoOptions, QuatrilhoHand](
    slug=SLUG,
    name="Quatrilho",
    # The standard rules go to the right (counter-clockwise); Timbó's go the other way.
    passes_to="right",
    options_class=QuatrilhoOptions,
    record=RECORD,
    parse=parse_hand,
    settle=settle,
    first_speaker=first_speaker,
    # The deal passes on whatever was played: a hand "a monte" (or a carreguete tie under
    # ``carreguete_ties="redeal"``) is a hand too, and the text names no other dealer.
    sitting_out=sitting_out,
    contract_json=contract_summary,
    stock_option="talha",
    money_option="unit_value",
)
