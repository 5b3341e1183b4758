"""Samba: the hand record, the checks and the score of each team.

Two to six players, 162 cards (three decks with their jokers). Teams meld groups (canastras:
clean, dirty or of wild cards) and same-suit sequences (a samba is seven of them); a team needs
two 7-card combinations to go out. Each hand scores per team; the first team to pass the target
(10,000) wins the match.

The module's surface: :data:`OPTIONS` (house rules as data) and :class:`SambaOptions`;
:func:`min_meld`; :data:`RECORD` (the hand record's fields, each team's part a :data:`TEAM`
record of its own), :class:`TeamHand` and :class:`SambaHand` with :func:`parse_hand` (a
posted record to a validated hand, or a :class:`~referee.rules.errors.RulesError` with a
sentence); :func:`score_team`, :func:`score_hand` and :func:`settle` (per-team scores with
their lines); :func:`match_state` and :func:`standing` (the end of the match).

Seating: :func:`default_teams`, :func:`seat_teams` (the checks of a posted seating),
:func:`seats_from_draw` (the partnership draw); the mão, after the dealer, and with it the deal
move one seat each hand (the ``Game`` defaults).
:data:`GAME` is the game as the rest of the app sees it. The meld checker (card lists of each
meld) lives in :mod:`referee.rules.samba_melds`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Final

from . import seats
from .errors import InconsistentHand, InvalidInput, RulesError, reject_unknown_fields
from .game import Game, Teams
from .kinds import MATCH
from .options import Choice, OptionSet, OptionSpec, OptionValue, from_spec
from .record import DEALER, Custom, Field, Json, Player, Record, RecordSpec, name_schema
from .scores import TeamScore, TeamScores, team_totals
from .settle import Line
from .text import N_, NP_, Text

SLUG: Final = "samba"

# --------------------------------------------------------------------------- the cards

JOKER: Final = 50
TWO: Final = 20  # a wild card too
ACE: Final = 20
HIGH: Final = 10  # K, Q, J, 10, 9, 8
LOW: Final = 5  # 7, 6, 5, 4 and the black 3
JOKERS: Final = 6
TWOS: Final = 12
WILD_CARDS: Final = JOKERS + TWOS  # 18
RED_THREES: Final = 6
CARDS: Final = 162
COMBINATION: Final = 7  # a canastra or a samba has (at least) 7 cards
TO_GO_OUT: Final = 2  # two 7-card combinations
#: Every card but the red 3s: 6 x 50 + 12 x 20 + 12 x 20 + 72 x 10 + 48 x 5 + 6 x 5.
ALL_POINTS: Final = JOKERS * JOKER + TWOS * TWO + 12 * ACE + 72 * HIGH + 48 * LOW + 6 * LOW
assert ALL_POINTS == 1770


@dataclass(frozen=True, kw_only=True)
class CardKind:
    """A box of the card counter: cards of the same value, and how many the 162 cards hold."""

    key: str
    label: Text
    value: int
    copies: int


#: The card counter: counting cards into these boxes gives the meld and hand points
#: without arithmetic. Red 3s are not here: they are honours, counted apart.
CARD_KINDS: Final = (
    CardKind(key="jokers", label=Text(N_("Jokers")), value=JOKER, copies=JOKERS),
    CardKind(key="twos", label=Text(N_("2s")), value=TWO, copies=TWOS),
    CardKind(key="aces", label=Text(N_("Aces")), value=ACE, copies=12),
    CardKind(key="high", label=Text(N_("K, Q, J, 10, 9, 8")), value=HIGH, copies=72),
    CardKind(key="low", label=Text(N_("7, 6, 5, 4")), value=LOW, copies=48),
    CardKind(key="black_threes", label=Text(N_("Black 3s")), value=LOW, copies=6),
)


def count_points(counts: Mapping[str, int]) -> int:
    """The card points of a pile counted into the counter's boxes.

    >>> count_points({"jokers": 1, "aces": 2, "low": 3})
    105
    """
    return sum(kind.value * counts.get(kind.key, 0) for kind in CARD_KINDS)


def check_card_counts(piles: Sequence[Mapping[str, int]], *, field: str | None = None) -> None:
    """Counted cards of every pile together (each team's table and hand) never exceed what the
    162 cards hold: 6 jokers, 12 twos, and so on."""
    for kind in CARD_KINDS:
        counted = sum(pile.get(kind.key, 0) for pile in piles)
        if counted > kind.copies:
            raise InconsistentHand(
                Text(
                    N_("%(count)s cards counted as %(kind)s; the 162 cards have only %(copies)s."),
                    count=counted,
                    kind=kind.label,
                    copies=kind.copies,
                ),
                field=field,
            )


# --------------------------------------------------------------------------- the premiums

CLEAN_CANASTRA: Final = 500
DIRTY_CANASTRA: Final = 300
WILD_CANASTRA: Final = 2000
SAMBA: Final = 1500
CANASTRAO: Final = 500  # 5 canastras
CANASTRAO_AT: Final = 5
CANASTRA_DE_CANASTRAS: Final = 2000  # 7 canastras
CANASTRA_DE_CANASTRAS_AT: Final = 7
RED_THREE: Final = 100
ALL_RED_THREES: Final = 1000
GOING_OUT: Final = 200
RED_THREE_IN_HAND: Final = 500
PENALTY: Final = 100

#: The cheapest a combination can be, for the "meld points at least ..." check: a clean
#: canastra of 7 low naturals; a dirty one is 6 low naturals and one wild (counted with the
#: wilds); a samba is 4 5 6 7 8 9 10 of one suit (5 x 4 + 10 x 3).
CHEAPEST_CLEAN: Final = COMBINATION * LOW  # 35
CHEAPEST_DIRTY_NATURALS: Final = (COMBINATION - 1) * LOW  # 30, plus its wild
CHEAPEST_SAMBA: Final = 4 * LOW + 3 * HIGH  # 50

#: The four categories of the hidden canastra and their premium.
HIDDEN: Final[Mapping[str, int]] = MappingProxyType(
    {"deal_alone": 1000, "deal_with_partner": 500, "play_alone": 500, "play_with_partner": 200}
)
HIDDEN_WORDS: Final = {
    "deal_alone": N_("Went out with a canastra hidden since the deal, without the partner's melds"),
    "deal_with_partner": N_("Went out with a canastra hidden since the deal, using the partner's melds"),
    "play_alone": N_("Went out with a canastra hidden, formed during play, without the partner's melds"),
    "play_with_partner": N_("Went out with a canastra hidden, formed during play, using the partner's melds"),
}

#: The penalties, each 100 (the red 3 laid down without two combinations is the negative
#: honour, not a penalty: it must not be counted twice).
PENALTY_KINDS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "three_wilds": N_("Three wild cards in a canastra"),
        "stock_out_of_turn": N_("Drew from the stock out of turn"),
        "pile_out_of_turn": N_("Took the discard pile out of turn"),
        "meld_out_of_turn": N_("Melded during another player's turn"),
        "out_after_refusal": N_("Tried to go out after the partner said no"),
        "asked_and_could_not": N_("Asked permission to go out and could not"),
    }
)

# --------------------------------------------------------------------------- options

OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(
        name="target",
        kind="int",
        default=10000,
        minimum=1,
        maximum=1_000_000,
        label=Text(N_("Points to win the match")),
        help=Text(N_("The match ends when a team passes this total; if more than one does, the highest total wins.")),
        rule_ref="docs/rules.md#samba-options",
    ),
    OptionSpec(
        name="win_at_target",
        kind="bool",
        default=False,
        label=Text(N_("Reaching the target is enough")),
        help=Text(N_('Off: a team must exceed the target ("supera os 10.000"); at exactly the target it plays on.')),
        rule_ref="docs/rules.md#samba-options",
    ),
    OptionSpec(
        name="top_min_meld",
        kind="int",
        default=150,
        minimum=150,
        maximum=160,
        label=Text(N_("Opening meld from 7,000 points")),
        help=Text(N_("150 or 160 in card points.")),
        rule_ref="docs/rules.md#samba-options",
    ),
    OptionSpec(
        name="six_red_threes_unmade",
        kind="choice",
        default="flip",
        choices=(
            Choice(value="flip", label=Text(N_("Minus 1,000 (the honour with its sign turned)"))),
            Choice(value="per_card", label=Text(N_("Minus 100 per red 3 (600)"))),
        ),
        label=Text(N_("All six red 3s without two 7-card combinations")),
        help=Text(N_("A team with all six red 3s but without two canastras or sambas loses this much.")),
        rule_ref="docs/rules.md#samba-options",
    ),
    OptionSpec(
        name="canastra_bonuses_cumulative",
        kind="bool",
        default=False,
        label=Text(N_("Canastrão and canastra de canastras add up")),
        help=Text(N_("Off: 5 or 6 canastras score 500, 7 or more 2,000. On: 7 or more score 2,500.")),
        rule_ref="docs/rules.md#samba-options",
    ),
    OptionSpec(
        name="sambas_count_for_canastrao",
        kind="bool",
        default=False,
        label=Text(N_("Sambas count as canastras for the canastrão")),
        help=Text(N_("Off: only canastras (clean, dirty and of wild cards) are counted.")),
        rule_ref="docs/rules.md#samba-options",
    ),
    OptionSpec(
        name="five_players",
        kind="bool",
        default=False,
        label=Text(N_("Allow five players")),
        help=Text(N_("The rule text lists 2, 3, 4 or 6 players. On: five may play, everyone alone.")),
        rule_ref="docs/rules.md#samba-options",
    ),
)

TOP_MIN_MELDS: Final = (150, 160)


@dataclass(frozen=True, kw_only=True)
class SambaOptions(OptionSet):
    """The house rules of one table; the defaults are the readings Referee chose where the rule text is open."""

    target: int = from_spec()
    win_at_target: bool = from_spec()
    top_min_meld: int = from_spec()
    six_red_threes_unmade: str = from_spec()
    canastra_bonuses_cumulative: bool = from_spec()
    sambas_count_for_canastrao: bool = from_spec()
    five_players: bool = from_spec()

    specs = OPTIONS

    @classmethod
    def checked(cls, values: dict[str, OptionValue], raw: object) -> dict[str, OptionValue]:
        """The top opening minimum is one of the two the texts know."""
        if values["top_min_meld"] not in TOP_MIN_MELDS:
            spec = next(spec for spec in OPTIONS if spec.name == "top_min_meld")
            raise spec.not_one_of([str(n) for n in TOP_MIN_MELDS])
        return values


# --------------------------------------------------------------------------- the opening meld


def min_meld(total: int, options: SambaOptions) -> int:
    """The card points a team's first meld (saída) needs, given its total before the hand.

    >>> [min_meld(t, SambaOptions()) for t in (-5, 0, 1495, 1500, 2995, 3000, 6995, 7000)]
    [15, 50, 50, 90, 90, 120, 120, 150]
    """
    if total < 0:
        return 15
    if total < 1500:
        return 50
    if total < 3000:
        return 90
    if total < 7000:
        return 120
    return options.top_min_meld


# --------------------------------------------------------------------------- seating

PLAYER_COUNTS: Final = (2, 3, 4, 6)  # and 5 under the five_players option
#: The tables a hand can be recorded at: five only under the five_players option, which
#: :func:`seat_teams` asks for when the table is seated.
TABLE_SIZES: Final = tuple(sorted((*PLAYER_COUNTS, 5)))
#: A team is one player, a pair, or three (two teams at six).
TEAM_SIZES: Final = (1, 2, 3)


def check_teams(players: Sequence[str], teams: Sequence[Sequence[str]]) -> Teams:
    """The table's teams: every player in exactly one, at least two teams (the API's ``teams``)."""
    out = tuple(tuple(team) for team in teams)
    flat = [name for team in out for name in team]
    if len(out) < 2 or any(not team for team in out) or sorted(flat) != sorted(players) or len(set(flat)) != len(flat):
        raise InvalidInput(
            Text(N_("Every player must be in exactly one team, with at least two teams.")), field="teams"
        )
    return out


def default_teams(players: Sequence[str], *, pairs: bool = False) -> Teams:
    """The API's default teams: partners across the table at 4 (``[[p0, p2], [p1, p3]]``), two teams of
    three at 6 (or, with ``pairs``, three pairs ``[[p0, p3], [p1, p4], [p2, p5]]``), each for
    himself with 2, 3 or 5 players. Partners always alternate in order of play.

    >>> default_teams(["A", "B", "C", "D"])
    (('A', 'C'), ('B', 'D'))
    >>> default_teams(["A", "B", "C", "D", "E", "F"], pairs=True)
    (('A', 'D'), ('B', 'E'), ('C', 'F'))
    """
    count = len(players)
    if count == 4:
        size = 2
    elif count == 6:
        size = 2 if pairs else 3
    else:
        size = 1
    groups = count // size
    return tuple(tuple(players[i::groups]) for i in range(groups))


def seat_teams(players: Sequence[str], raw: object, options: SambaOptions) -> Teams:
    """The teams of a new table: the posted ``teams`` (names, every player in exactly one team,
    teams of equal size) or :func:`default_teams`. Five players need the ``five_players`` option."""
    count = len(players)
    if count == 5 and not options.five_players:
        raise RulesError(
            Text(N_("Samba is played by 2, 3, 4 or 6 players; five need the house rule that allows it.")),
            field="players",
        )
    if count not in (*PLAYER_COUNTS, 5):
        raise RulesError(
            Text(N_("Samba is played by 2, 3, 4 or 6 players, not %(given)s."), given=count), field="players"
        )
    if raw is None:
        return default_teams(players)
    if not isinstance(raw, list) or not all(
        isinstance(team, list) and all(isinstance(n, str) for n in team) for team in raw
    ):
        raise InvalidInput(Text(N_("Teams must be a list of lists of player names.")), field="teams")
    named = [[" ".join(name.split()) for name in team] for team in raw]
    for i, team in enumerate(named):
        for j, name in enumerate(team):
            seats.require_player(players, name, field=f"teams[{i}][{j}]")
    teams = check_teams(players, named)
    if len({len(team) for team in teams}) != 1:
        raise RulesError(Text(N_("Teams must have the same number of players.")), field="teams")
    return teams


def seats_from_draw(draws: Mapping[str, int]) -> tuple[tuple[str, ...], Teams]:
    """The partnership draw: each player draws one of as many consecutive cards as
    there are players (4 or 6); even cards play against odd ones; the highest card is the mão,
    and the others sit in decreasing order of their cards, so partners alternate.

    Answers the order of play (the mão first; the dealer is the last, the player before the
    mão) and the two teams (the mão's first). ``draws`` maps each name to the card's number
    (ace 1 up to king 13).

    >>> seats_from_draw({"Ana": 7, "Bia": 9, "Caio": 8, "Dani": 10})
    (('Dani', 'Bia', 'Caio', 'Ana'), (('Dani', 'Caio'), ('Bia', 'Ana')))
    """
    if len(draws) not in (4, 6):
        raise InvalidInput(Text(N_("The draw is for four or six players.")), field="draw")
    if any(isinstance(card, bool) or not isinstance(card, int) for card in draws.values()):
        raise InvalidInput(Text(N_("Each card drawn is a number from 1 (ace) to 13 (king).")), field="draw")
    cards = sorted(draws.values())
    if any(not 1 <= c <= 13 for c in cards) or cards != list(range(cards[0], cards[0] + len(cards))):
        raise InconsistentHand(
            Text(N_("The cards drawn must be consecutive and all different, e.g. 7, 8, 9 and 10.")),
            field="draw",
        )
    order = tuple(sorted(draws, key=lambda name: -draws[name]))
    mao_parity = draws[order[0]] % 2
    teams = (
        tuple(n for n in order if draws[n] % 2 == mao_parity),
        tuple(n for n in order if draws[n] % 2 != mao_parity),
    )
    return order, teams


# --------------------------------------------------------------------------- the hand record
#
# A team's part of the hand is a record of its own (:data:`TEAM`), nested in the hand's
# (:data:`RECORD`). Its fields read at a path into the hand (``teams[0].sambas``), so that a
# mistake points at the team it is in; built alone (a :class:`TeamHand` made by hand) they
# check the same things under their own names.


class _TeamField(Field):
    """A field of a team's part of the hand: :meth:`take` reads it (``None`` when left out)
    and points its errors at ``at``."""

    def take(self, value: object, *, at: str) -> Any:
        raise NotImplementedError

    def read(self, value: object, *, players: Sequence[str]) -> Any:
        return self.take(value, at=self.name)

    def check_built(self, value: object, *, players: Sequence[str]) -> None:
        self.take(value, at=self.name)


@dataclass(frozen=True, kw_only=True)
class _TeamCount(_TeamField):
    """A whole number from 0 to ``high``, a multiple of ``step`` (card points go by fives);
    the sentences name it by ``what``. Every team gives every count."""

    what: str
    high: int
    step: int = 1
    required: str | None = N_("%(what)s: the number is missing.")

    def take(self, value: object, *, at: str) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= self.high and not value % self.step:
            return value  # the common case, without building the sentences
        what = Text(self.what)
        if value is None:
            raise InvalidInput(Text(str(self.required), what=what), field=at)
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidInput(Text(N_("%(what)s must be a whole number."), what=what), field=at)
        if not 0 <= value <= self.high:
            raise InconsistentHand(
                Text(
                    N_("%(what)s cannot be %(value)s; it goes from 0 to %(maximum)s."),
                    what=what,
                    value=value,
                    maximum=self.high,
                ),
                field=at,
            )
        if value % self.step:
            raise InconsistentHand(
                Text(
                    N_("%(what)s: %(value)s is not possible, every card is worth a multiple of 5."),
                    what=what,
                    value=value,
                ),
                field=at,
            )
        return value

    def schema(self) -> Json:
        out: Json = {"type": "integer", "minimum": 0, "maximum": self.high}
        if self.step > 1:
            out["multipleOf"] = self.step
        return out


@dataclass(frozen=True, kw_only=True)
class _HiddenCanastra(_TeamField):
    """One of the :data:`HIDDEN` categories, or nothing."""

    def take(self, value: object, *, at: str) -> str | None:
        if value is not None and (not isinstance(value, str) or value not in HIDDEN):
            raise InvalidInput(
                Text(
                    N_("%(value)s is not a hidden-canastra category; use one of: %(values)s."),
                    value=str(value),
                    values=", ".join(HIDDEN),
                ),
                field=at,
            )
        return value

    def schema(self) -> Json:
        return {"type": ["string", "null"], "enum": [*HIDDEN, None]}


@dataclass(frozen=True, kw_only=True)
class _Penalties(_TeamField):
    """How many penalties, or the list of their kinds (:data:`PENALTY_KINDS`): read as the count
    and the kinds (None when only the count was given)."""

    high: int

    def take(self, value: object, *, at: str) -> tuple[int, tuple[str, ...] | None]:
        if value is None:
            return 0, None
        if isinstance(value, int) and not isinstance(value, bool):
            if not 0 <= value <= self.high:
                raise InconsistentHand(
                    Text(
                        N_("Penalties: %(value)s is not a possible number; give 0 to %(maximum)s."),
                        value=value,
                        maximum=self.high,
                    ),
                    field=at,
                )
            return value, None
        if isinstance(value, list) and len(value) <= self.high:
            for i, kind in enumerate(value):
                if not isinstance(kind, str) or kind not in PENALTY_KINDS:
                    raise InvalidInput(
                        Text(
                            N_("%(kind)s is not a Samba penalty; use one of: %(kinds)s."),
                            kind=str(kind),
                            kinds=", ".join(PENALTY_KINDS),
                        ),
                        field=f"{at}[{i}]",
                    )
            return len(value), tuple(value)
        raise InvalidInput(Text(N_("Penalties: give how many (a whole number) or a list of their kinds.")), field=at)

    def schema(self) -> Json:
        return {
            "oneOf": [
                {"type": "integer", "minimum": 0, "maximum": self.high},
                {"type": "array", "items": {"type": "string", "enum": list(PENALTY_KINDS)}, "maxItems": self.high},
            ]
        }


@dataclass(frozen=True, kw_only=True)
class _WentOut(Player):
    """A seated player, or null: nobody went out, the stock ran out."""

    def schema(self) -> Json:
        return {**name_schema(), "type": ["string", "null"]}


#: No count can exceed what 162 cards allow.
MOST_COMBINATIONS: Final = CARDS // COMBINATION
MAX_PENALTIES: Final = 100
_COUNTS: Final = (
    _TeamCount(
        name="meld_points",
        what=N_("Melded points"),
        high=ALL_POINTS,
        step=LOW,
        doc="Card values of everything the team has on the table.",
    ),
    _TeamCount(
        name="hand_points",
        what=N_("Points left in hand"),
        high=ALL_POINTS,
        step=LOW,
        doc="Card values left in its hands, as a positive number.",
    ),
    _TeamCount(name="clean_canastras", what=N_("Clean canastras"), high=MOST_COMBINATIONS),
    _TeamCount(name="dirty_canastras", what=N_("Dirty canastras"), high=MOST_COMBINATIONS),
    _TeamCount(name="wild_canastras", what=N_("Canastras of wild cards"), high=MOST_COMBINATIONS),
    _TeamCount(name="sambas", what=N_("Sambas"), high=MOST_COMBINATIONS),
    _TeamCount(name="red_threes", what=N_("Red 3s laid down"), high=RED_THREES),
    _TeamCount(name="red_threes_in_hand", what=N_("Red 3s left in hand"), high=RED_THREES),
)
_HIDDEN_FIELD: Final = _HiddenCanastra(name="hidden_canastra", doc="Only for the team that went out.")
_PENALTIES_FIELD: Final = _Penalties(
    name="penalties", high=MAX_PENALTIES, doc=f"How many {PENALTY}-point penalties, or the list of their kinds."
)

#: The example hand of the API document: Caio's team went out (docs/api.md "Samba hand record").
_EXAMPLE_TEAMS: Final = (
    {
        "meld_points": 740,
        "hand_points": 35,
        "clean_canastras": 1,
        "dirty_canastras": 1,
        "wild_canastras": 0,
        "sambas": 1,
        "red_threes": 2,
        "red_threes_in_hand": 0,
        "hidden_canastra": None,
        "penalties": 0,
    },
    {
        "meld_points": 760,
        "hand_points": 120,
        "clean_canastras": 0,
        "dirty_canastras": 1,
        "wild_canastras": 0,
        "sambas": 0,
        "red_threes": 1,
        "red_threes_in_hand": 0,
        "hidden_canastra": None,
        "penalties": 1,
    },
)

TEAM: Final = RecordSpec(
    game="Samba",
    unknown=N_("A Samba team has no field called %(name)s."),
    player_counts=TEAM_SIZES,
    doc="One team's part of a Samba hand: its points, canastras and sambas, red 3s and penalties.",
    fields=(*_COUNTS, _HIDDEN_FIELD, _PENALTIES_FIELD),
    example=_EXAMPLE_TEAMS[0],
    example_players=("Ana", "Caio"),
)


def example_hand() -> dict[str, Any]:
    """A fresh copy of the API document's worked hand, without its dealer (Dani): the record the
    tests and docs settle by hand (3,405 to 740), so it is written once."""
    return {"went_out": "Caio", "teams": [dict(team) for team in _EXAMPLE_TEAMS]}


_TEAMS_FIELD: Final = Custom(
    name="teams",
    required=N_("Give each team's part of the hand as a list, in the order of the table's teams."),
    doc="Each team's part of the hand, in the order of the table's teams.",
    json={"type": "array", "items": TEAM.json_schema(), "minItems": 2, "maxItems": TABLE_SIZES[-1]},
)

RECORD: Final = RecordSpec(
    game="Samba",
    unknown=N_("A Samba hand has no field called %(name)s."),
    player_counts=TABLE_SIZES,
    doc=(
        "One entry per team, aligned with the table's teams. Refused with 422: going out without two "
        f"{COMBINATION}-card combinations, more than {RED_THREES} red 3s, more wild cards than {WILD_CARDS}, "
        "meld points below what the declared canastras and sambas must hold, "
        f"more than the {ALL_POINTS:,} points of the {CARDS} cards, "
        "a hidden-canastra bonus for a team that did not go out."
    ),
    fields=(
        DEALER,
        _WentOut(name="went_out", doc="Who went out; null when the stock ran out."),
        _TEAMS_FIELD,
    ),
    example={"dealer": "Dani", **example_hand()},
    example_players=("Ana", "Bia", "Caio", "Dani"),
)


@dataclass(frozen=True, kw_only=True)
class TeamHand(Record):
    """One team's part of a hand; ``penalties`` keeps the kinds when they were given
    (``penalty_kinds``), else only the count. Built any other way than by :func:`parse_hand`
    it still checks its fields (:data:`TEAM`), so a count out of bounds or an unknown hidden
    canastra or penalty fails here, not in the score."""

    spec: ClassVar[RecordSpec] = TEAM

    players: tuple[str, ...]
    meld_points: int
    hand_points: int
    clean_canastras: int
    dirty_canastras: int
    wild_canastras: int
    sambas: int
    red_threes: int
    red_threes_in_hand: int
    hidden_canastra: str | None = None
    penalties: int = 0
    penalty_kinds: tuple[str, ...] | None = None

    def check(self) -> None:
        super().check()
        if self.penalty_kinds is not None:
            _PENALTIES_FIELD.take(list(self.penalty_kinds), at="penalty_kinds")
            if len(self.penalty_kinds) != self.penalties:
                raise ValueError("penalties counts the penalty kinds when they are given")

    @property
    def canastras(self) -> int:
        return self.clean_canastras + self.dirty_canastras + self.wild_canastras

    @property
    def combinations(self) -> int:
        """7-card combinations: canastras of every kind and sambas."""
        return self.canastras + self.sambas

    @property
    def made(self) -> bool:
        """The team has the two 7-card combinations that allow going out and keep red 3s positive."""
        return self.combinations >= TO_GO_OUT

    def to_json(self) -> dict[str, object]:
        return {
            "meld_points": self.meld_points,
            "hand_points": self.hand_points,
            "clean_canastras": self.clean_canastras,
            "dirty_canastras": self.dirty_canastras,
            "wild_canastras": self.wild_canastras,
            "sambas": self.sambas,
            "red_threes": self.red_threes,
            "red_threes_in_hand": self.red_threes_in_hand,
            "hidden_canastra": self.hidden_canastra,
            "penalties": list(self.penalty_kinds) if self.penalty_kinds is not None else self.penalties,
        }


@dataclass(frozen=True, kw_only=True)
class SambaHand(Record):
    """A validated Samba hand. Build it with :func:`parse_hand`; built any other way it still
    checks its fields (:data:`RECORD`): the dealer and whoever went out sit in one of its teams."""

    spec: ClassVar[RecordSpec] = RECORD

    teams: tuple[TeamHand, ...]
    went_out: str | None = None
    dealer: str

    @property
    def players(self) -> tuple[str, ...]:
        """The table's players, team by team."""
        return tuple(name for team in self.teams for name in team.players)

    @property
    def out_team(self) -> int | None:
        """The index of the team that went out, or None when the stock ran out."""
        for i, team in enumerate(self.teams):
            if self.went_out in team.players:
                return i
        return None

    def to_json(self) -> dict[str, object]:
        return {"dealer": self.dealer, "went_out": self.went_out, "teams": [t.to_json() for t in self.teams]}


def cheapest_meld(clean: int, dirty: int, wild: int, sambas: int) -> int:
    """The fewest card points these canastras and sambas can hold: naturals at 5 (a samba at
    its cheapest, 4 to 10), and the wild cards they need (7 per wild canastra, 1 per dirty one)
    taken as 2s (20) while there are 2s, then jokers (50)."""
    wilds = COMBINATION * wild + dirty
    wild_points = min(wilds, TWOS) * TWO + max(0, wilds - TWOS) * JOKER
    return clean * CHEAPEST_CLEAN + dirty * CHEAPEST_DIRTY_NATURALS + sambas * CHEAPEST_SAMBA + wild_points


def _team_parts(raw: object, table: Teams) -> tuple[TeamHand, ...]:
    """Each team's part, one per table team and in their order."""
    if not isinstance(raw, list):
        raise InvalidInput(Text(str(_TEAMS_FIELD.required)), field=_TEAMS_FIELD.name)
    if len(raw) != len(table):
        raise InvalidInput(
            Text(
                N_("This table has %(expected)s teams; the hand gives %(given)s."),
                expected=len(table),
                given=len(raw),
            ),
            field="teams",
        )
    return tuple(_parse_team(part, players, field=f"teams[{i}]") for i, (part, players) in enumerate(zip(raw, table)))


def _parse_team(raw: object, players: tuple[str, ...], *, field: str) -> TeamHand:
    """One team's part: its fields in :data:`TEAM`'s order, then what they imply."""
    if not isinstance(raw, Mapping):
        raise InvalidInput(Text(N_("Each team's part of the hand must be a JSON object.")), field=field)
    reject_unknown_fields(raw, TEAM.names, TEAM.unknown, field=field)
    counts = {f.name: f.take(raw.get(f.name), at=f"{field}.{f.name}") for f in _COUNTS}
    hidden = _HIDDEN_FIELD.take(raw.get(_HIDDEN_FIELD.name), at=f"{field}.{_HIDDEN_FIELD.name}")
    count, kinds = _PENALTIES_FIELD.take(raw.get(_PENALTIES_FIELD.name), at=f"{field}.{_PENALTIES_FIELD.name}")
    team = TeamHand(players=players, hidden_canastra=hidden, penalties=count, penalty_kinds=kinds, **counts)
    _check_team(team, field=field)
    return team


def _check_team(team: TeamHand, *, field: str) -> None:
    """What one team's counts imply: the wild cards its canastras need, the cards its
    combinations need, the points they hold at the least."""
    if team.wild_canastras * COMBINATION + team.dirty_canastras > WILD_CARDS:
        raise InconsistentHand(
            Text(
                N_(
                    "%(wild)s canastras of wild cards and %(dirty)s dirty canastras need more than the 18 wild cards there are."
                ),
                wild=team.wild_canastras,
                dirty=team.dirty_canastras,
            ),
            field=f"{field}.wild_canastras",
        )
    if team.combinations * COMBINATION > CARDS - RED_THREES:
        raise InconsistentHand(
            Text(N_("%(count)s canastras and sambas need more cards than the game has."), count=team.combinations),
            field=field,
        )
    least = cheapest_meld(team.clean_canastras, team.dirty_canastras, team.wild_canastras, team.sambas)
    if team.meld_points < least:
        raise InconsistentHand(
            Text(
                N_(
                    "Melded points %(points)s are too few: the canastras and sambas declared are worth at least %(least)s."
                ),
                points=team.meld_points,
                least=least,
            ),
            field=f"{field}.meld_points",
        )


def _check_all_teams(teams: Sequence[TeamHand]) -> None:
    """What all teams' counts together cannot exceed: the red 3s, the points of the 162
    cards, the wild cards, the cards of every combination, the points they hold at the least."""
    reds = sum(t.red_threes + t.red_threes_in_hand for t in teams)
    if reds > RED_THREES:
        raise InconsistentHand(
            Text(N_("There are only 6 red 3s; the teams give %(count)s."), count=reds), field="teams"
        )
    points = sum(t.meld_points + t.hand_points for t in teams)
    if points > ALL_POINTS:
        raise InconsistentHand(
            Text(N_("Melded and hand points add up to %(points)s; all 162 cards are worth only 1,770."), points=points),
            field="teams",
        )
    wilds = sum(t.wild_canastras * COMBINATION + t.dirty_canastras for t in teams)
    if wilds > WILD_CARDS:
        raise InconsistentHand(
            Text(N_("The canastras declared need %(count)s wild cards; there are only 18."), count=wilds),
            field="teams",
        )
    combinations = sum(t.combinations for t in teams)
    if combinations * COMBINATION > CARDS - RED_THREES:
        raise InconsistentHand(
            Text(N_("%(count)s canastras and sambas in all need more cards than the game has."), count=combinations),
            field="teams",
        )
    least = cheapest_meld(
        sum(t.clean_canastras for t in teams),
        sum(t.dirty_canastras for t in teams),
        sum(t.wild_canastras for t in teams),
        sum(t.sambas for t in teams),
    )
    if least > sum(t.meld_points for t in teams):
        raise InconsistentHand(
            Text(
                N_("The canastras and sambas of all teams are worth at least %(least)s, more than the points melded."),
                least=least,
            ),
            field="teams",
        )


def _check_going_out(hand: SambaHand) -> None:
    """Only a team with two 7-card combinations goes out, and only that team scores a hidden canastra."""
    out = hand.out_team
    if out is not None and not hand.teams[out].made:
        raise InconsistentHand(
            Text(
                N_(
                    "%(name)s cannot have gone out: the team needs two 7-card combinations (canastras or sambas) and has %(count)s."
                ),
                name=hand.went_out,
                count=hand.teams[out].combinations,
            ),
            field="went_out",
        )
    for i, team in enumerate(hand.teams):
        if team.hidden_canastra is not None and i != out:
            raise InconsistentHand(
                Text(N_("Only the team that went out can score a hidden canastra.")),
                field=f"teams[{i}].hidden_canastra",
            )


def parse_hand(
    raw: object, *, players: Sequence[str], options: SambaOptions, dealer: str, teams: Teams = ()
) -> SambaHand:
    """Validate a posted Samba record against the rules, or raise a :class:`RulesError`.

    ``dealer`` is the dealer by rotation; a record may name another seated player (as the other
    games' records may), and the answer always names one. ``teams`` are the table's (by default
    :func:`default_teams`).

    The checks run in the order a player would look: the record's shape (:data:`RECORD`: no
    unknown field, a table Samba is played at, the dealer and who went out seated), each team's
    counts and what they imply (:data:`TEAM`: wild cards, meld points), then the table as a
    whole (red 3s, the points of all 162 cards, going out with two 7-card combinations, the
    hidden canastra). No check depends on the house rules yet.
    """
    values = RECORD.read(raw, players=players)
    table = check_teams(players, teams or default_teams(players))
    hand = SambaHand(
        teams=_team_parts(values["teams"], table),
        went_out=values.get("went_out"),
        dealer=values.get("dealer", dealer),
    )
    _check_all_teams(hand.teams)
    _check_going_out(hand)
    return hand


# --------------------------------------------------------------------------- scoring


def canastra_premium(canastras: int, options: SambaOptions) -> int:
    """Canastrão (5) and canastra de canastras (7), not cumulative by default."""
    if canastras >= CANASTRA_DE_CANASTRAS_AT:
        return CANASTRA_DE_CANASTRAS + (CANASTRAO if options.canastra_bonuses_cumulative else 0)
    if canastras >= CANASTRAO_AT:
        return CANASTRAO
    return 0


def red_three_honour(laid: int, made: bool, options: SambaOptions) -> int:
    """100 a red 3 laid down, 1,000 for all six; negative without two 7-card combinations
    (for six: -1,000 by default, -600 under ``per_card``)."""
    if laid == RED_THREES:
        if made:
            return ALL_RED_THREES
        return -ALL_RED_THREES if options.six_red_threes_unmade == "flip" else -RED_THREE * laid
    return RED_THREE * laid if made else -RED_THREE * laid


def score_team(team: TeamHand, *, went_out: bool, options: SambaOptions) -> TeamScore:
    """One team's hand score, line by line."""
    lines: list[Line] = [Line(text=Text(N_("Melded cards")), amount=team.meld_points)]

    def per(count: int, each: int, words: tuple[str, str]) -> None:
        if count:
            lines.append(Line(text=Text(*words, count=count), amount=count * each))

    per(team.clean_canastras, CLEAN_CANASTRA, NP_("%(count)s clean canastra", "%(count)s clean canastras"))
    per(team.dirty_canastras, DIRTY_CANASTRA, NP_("%(count)s dirty canastra", "%(count)s dirty canastras"))
    per(
        team.wild_canastras, WILD_CANASTRA, NP_("%(count)s canastra of wild cards", "%(count)s canastras of wild cards")
    )
    per(team.sambas, SAMBA, NP_("%(count)s samba", "%(count)s sambas"))
    counted = team.canastras + (team.sambas if options.sambas_count_for_canastrao else 0)
    premium = canastra_premium(counted, options)
    if premium:
        words = N_("Canastra de canastras") if counted >= CANASTRA_DE_CANASTRAS_AT else N_("Canastrão")
        lines.append(Line(text=Text(words), amount=premium))
    if team.red_threes:
        honour = red_three_honour(team.red_threes, team.made, options)
        words2 = (
            NP_("%(count)s red 3 laid down", "%(count)s red 3s laid down")
            if team.made
            else NP_(
                "%(count)s red 3 laid down without two 7-card combinations",
                "%(count)s red 3s laid down without two 7-card combinations",
            )
        )
        lines.append(Line(text=Text(*words2, count=team.red_threes), amount=honour))
    if went_out:
        lines.append(Line(text=Text(N_("Went out")), amount=GOING_OUT))
        if team.hidden_canastra is not None:
            lines.append(Line(text=Text(HIDDEN_WORDS[team.hidden_canastra]), amount=HIDDEN[team.hidden_canastra]))
    if team.hand_points:
        lines.append(Line(text=Text(N_("Cards left in hand")), amount=-team.hand_points))
    per(
        team.red_threes_in_hand,
        -RED_THREE_IN_HAND,
        NP_("%(count)s red 3 left in hand", "%(count)s red 3s left in hand"),
    )
    if team.penalty_kinds is not None:
        for kind in team.penalty_kinds:
            lines.append(Line(text=Text(N_("Penalty: %(kind)s"), kind=Text(PENALTY_KINDS[kind])), amount=-PENALTY))
    else:
        per(team.penalties, -PENALTY, NP_("%(count)s penalty", "%(count)s penalties"))
    return TeamScore(players=team.players, score=sum(line.amount for line in lines), lines=tuple(lines))


def score_hand(hand: SambaHand, options: SambaOptions) -> tuple[TeamScore, ...]:
    """Every team's score for the hand, in the order of the table's teams. Penalties only cost
    the offending team ("em nenhum caso ... convertem-se em pontos para o par adversário")."""
    out = hand.out_team
    return tuple(score_team(team, went_out=i == out, options=options) for i, team in enumerate(hand.teams))


def settle(hand: SambaHand, options: SambaOptions) -> TeamScores:
    """Each player scores his team's points: a scored game, not payments."""
    return TeamScores(players=hand.players, teams=score_hand(hand, options))


def contract_summary(hand: SambaHand) -> dict[str, object]:
    """What the answer and the history show of a hand: who went out."""
    return {"went_out": hand.went_out}


# --------------------------------------------------------------------------- the match


@dataclass(frozen=True, kw_only=True)
class MatchState:
    finished: bool
    winner: int | None  # team index
    min_melds: tuple[int, ...]


def match_state(totals: Sequence[int], options: SambaOptions) -> MatchState:
    """Has the match ended, and who won?

    A team passes the target when its total exceeds it (or reaches it under ``win_at_target``).
    One team past it wins; several: the highest total wins; a tie at the top plays one more hand.

    >>> match_state([10005, 9000], SambaOptions()).winner
    0
    >>> match_state([10000, 9000], SambaOptions()).finished
    False
    """
    past = [i for i, t in enumerate(totals) if t > options.target or (options.win_at_target and t == options.target)]
    melds = tuple(min_meld(t, options) for t in totals)
    if not past:
        return MatchState(finished=False, winner=None, min_melds=melds)
    best = max(totals[i] for i in past)
    leaders = [i for i in past if totals[i] == best]
    if len(leaders) > 1:
        return MatchState(finished=False, winner=None, min_melds=melds)
    return MatchState(finished=True, winner=leaders[0], min_melds=melds)


def standing(teams: Teams, totals: Mapping[str, int], options: SambaOptions) -> dict[str, Any]:
    """The match as the API answers it: each team's total and the opening meld it needs in the
    next hand, whether the match is over and the winning team's index."""
    scores = team_totals(teams, totals)
    state = match_state(scores, options)
    return {
        "teams": [
            {"players": list(team), "total": total, "min_meld": melds}
            for team, total, melds in zip(teams, scores, state.min_melds)
        ],
        "finished": state.finished,
        "winner": state.winner,
    }


GAME: Final = Game[SambaOptions, SambaHand](
    slug=SLUG,
    name="Samba",
    options_class=SambaOptions,
    record=RECORD,
    parse=parse_hand,
    settle=settle,
    contract_json=contract_summary,
    seat_teams=seat_teams,
    standing=standing,
    kind=MATCH,  # points per team toward the target: settle answers TeamScores, not payments
    goal_option="target",
)
