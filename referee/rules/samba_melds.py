"""Samba meld checker: is a meld legal, what is it worth, does an opening reach the minimum.

A player types the cards of one meld, or of the team's first meld (saída), in a short notation
(:func:`parse_card`: ``Kc``, ``10♠``, ``2p``, ``JK``). :func:`check_meld` judges one meld as it
lies on the table; :func:`check_opening` judges an opening against the team's minimum, which
callers take from :func:`~referee.rules.samba.min_meld`. A verdict is data, never an exception:
every broken rule is a sentence in ``reasons``. Only a malformed request raises
:class:`~referee.rules.errors.InvalidInput` (400): :func:`parse_card` and :func:`parse_check`.

Readings where the text is silent (each is applied, and repeated, where it matters):

- A meld is judged in its final state; the order the cards went down in is not asked for. A
  second wild card is therefore fine in any group of 7 or more cards: such a group could always
  have been built in the allowed order (one wild, then the second as the seventh card).
- A canastra of wild cards ends at 7 cards ("até formar, inclusive, uma canastra de curingas"):
  an 8th wild card is refused.
- Black 3s never make a canastra: the 162 cards hold only six of them.
- One 100 penalty per canastra with 3 or more wild cards, however many.
- An illegal meld keeps its card points (for information) but has no premium, penalty or warning.

>>> check_meld(cards_of("Kc Ko Ke 2p 2c")).legal
False
>>> v = check_meld(cards_of("Kc Ko Ke Kp Kc 2p 2c"))
>>> v.kind, v.points, v.premium
('canastra_suja', 90, 300)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal

from .cards import Suit
from .errors import InvalidInput, reject_unknown_fields
from .samba import (
    ACE,
    CARDS,
    CLEAN_CANASTRA,
    COMBINATION,
    DIRTY_CANASTRA,
    HIGH,
    JOKER,
    JOKERS,
    LOW,
    PENALTY,
    SAMBA,
    TWO,
    WILD_CANASTRA,
    SambaOptions,
    min_meld,
)
from .text import N_, NP_, Text

# --------------------------------------------------------------------------- the cards

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER_CODE: Final = "JK"
#: A sequence runs 4 5 6 7 8 9 10 J Q K A; the ace follows the king, never comes before the 4.
SEQUENCE: Final = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECKS: Final = 3  # of 52 cards and 2 jokers each
assert DECKS * (52 + 2) == CARDS and DECKS * 2 == JOKERS
MIN_MELD_CARDS: Final = 3
MAX_WILDS: Final = 2  # in a canastra (more are scored with a penalty)

_VALUES: Final = {
    "A": ACE,
    "2": TWO,
    "3": LOW,
    "4": LOW,
    "5": LOW,
    "6": LOW,
    "7": LOW,
    "8": HIGH,
    "9": HIGH,
    "10": HIGH,
    "J": HIGH,
    "Q": HIGH,
    "K": HIGH,
}
_LETTERS: Final = {Suit.COPAS: "c", Suit.OUROS: "o", Suit.ESPADAS: "e", Suit.PAUS: "p"}
_SUIT_SPELLINGS: Final = {
    **{letter: suit for suit, letter in _LETTERS.items()},
    **{suit.symbol: suit for suit in Suit},
    "♡": Suit.COPAS,
    "♢": Suit.OUROS,
    "♤": Suit.ESPADAS,
    "♧": Suit.PAUS,
}
_JOKER_SPELLINGS: Final = frozenset({"jk", "joker", "*"})
#: Face ranks as translatable letters; the pt-BR catalogue keeps J, Q, K, A (Brazilian decks print them).
_FACES: Final = {"J": N_("J"), "Q": N_("Q"), "K": N_("K"), "A": N_("A")}
_SUIT_ORDER: Final = tuple(Suit)


def _rank_text(rank: str) -> Text | str:
    return Text(_FACES[rank]) if rank in _FACES else rank


@dataclass(frozen=True, kw_only=True)
class Card:
    """One card of the three decks: ``Card(rank="K", suit=Suit.COPAS)``, or a joker ``Card(rank="JK")``.

    >>> Card(rank="K", suit=Suit.COPAS).code, str(Card(rank="K", suit=Suit.COPAS).label)
    ('Kc', 'K♥')
    >>> [parse_card(s, field="card").value for s in ("JK", "2p", "Ao", "8e", "7c", "3p", "3c")]
    [50, 20, 20, 10, 5, 5, 0]
    """

    rank: str
    suit: Suit | None = None

    def __post_init__(self) -> None:
        if (self.rank == JOKER_CODE) != (self.suit is None) or (self.rank != JOKER_CODE and self.rank not in RANKS):
            raise ValueError(f"not a card: rank {self.rank!r}, suit {self.suit!r}")

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_CODE

    @property
    def is_wild(self) -> bool:
        """The jokers and the 2s stand for any card."""
        return self.is_joker or self.rank == "2"

    @property
    def is_red_three(self) -> bool:
        return self.rank == "3" and self.suit is not None and self.suit.is_red

    @property
    def is_natural(self) -> bool:
        """A natural card: neither wild nor a 3 (the 3s are special cards)."""
        return not self.is_wild and self.rank != "3"

    @property
    def value(self) -> int:
        """Joker 50, 2 and ace 20, K to 8 10, 7 to 4 and black 3 5; a red 3 is an honour, not a card value."""
        if self.is_joker:
            return JOKER
        return 0 if self.is_red_three else _VALUES[self.rank]

    @property
    def code(self) -> str:
        """The canonical spelling: rank and the suit's Portuguese initial (``10e``), a joker ``JK``."""
        return JOKER_CODE if self.suit is None else self.rank + _LETTERS[self.suit]

    @property
    def label(self) -> Text:
        if self.suit is None:
            return Text(N_("Joker"))
        return Text(N_("%(rank)s%(suit)s"), rank=_rank_text(self.rank), suit=self.suit.symbol)


def parse_card(raw: object, *, field: str) -> Card:
    """A card from its short spelling: rank (``A 2 ... 10 J Q K``, any case) and suit (``c o e p``,
    any case, or ``♥ ♦ ♠ ♣``); a joker is ``JK``, ``joker`` or ``*``. Spaces are ignored.

    >>> [parse_card(s, field="c").code for s in ("Kc", "10♠", "2P", " q o ", "joker", "a♦")]
    ['Kc', '10e', '2p', 'Qo', 'JK', 'Ao']
    >>> parse_card("1c", field="melds[0][2]")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    referee.rules.errors.InvalidInput: "1c" is not a card. ...
    """
    if isinstance(raw, str):
        text = "".join(raw.split()).replace("\ufe0f", "")  # the emoji form of ♥ carries a selector
        if text.lower() in _JOKER_SPELLINGS:
            return Card(rank=JOKER_CODE)
        suit = _SUIT_SPELLINGS.get(text[-1:].lower())
        rank = text[:-1].upper()
        if suit is not None and rank in RANKS:
            return Card(rank=rank, suit=suit)
    shown = json.dumps(raw, ensure_ascii=False, default=str)
    raise InvalidInput(
        Text(
            N_(
                "%(card)s is not a card. Write the rank (A, 2 to 10, J, Q, K) and then the suit "
                "(c or ♥, o or ♦, e or ♠, p or ♣), as in Kc or 10♠; a joker is JK."
            ),
            card=shown if len(shown) <= 20 else shown[:19] + "…",
        ),
        field=field,
    )


def cards_of(spelled: str) -> tuple[Card, ...]:
    """Cards from one string separated by spaces, for tests and examples: ``cards_of("Kc Ko 2p")``."""
    return tuple(parse_card(word, field=f"cards[{i}]") for i, word in enumerate(spelled.split()))


def _table_order(card: Card) -> tuple[int, int, int]:
    """How a meld is shown: naturals up the sequence order (3s first), then 2s, then jokers."""
    suit = _SUIT_ORDER.index(card.suit) if card.suit is not None else 0
    if card.is_joker:
        return (2, 0, suit)
    if card.rank == "2":
        return (1, 0, suit)
    return (0, SEQUENCE.index(card.rank) if card.rank != "3" else -1, suit)


def _over(cards: Sequence[Card]) -> dict[str, int]:
    """Cards typed more often than the three decks hold them (3 of each, 6 jokers)."""
    counts = Counter(card.code for card in cards)
    return {code: n for code, n in counts.items() if n > (JOKERS if code == JOKER_CODE else DECKS)}


def _copies(cards: Sequence[Card], *, skip: frozenset[str] = frozenset()) -> list[Text]:
    """A sentence for each card typed more often than the three decks hold it (a typing mistake)."""
    over = _over(cards)
    shown = {card.code: card for card in cards if card.code in over and card.code not in skip}
    out: list[Text] = []
    for card in sorted(shown.values(), key=_table_order):
        if card.is_joker:
            words = N_("There are %(count)s jokers here, but the three decks hold only %(most)s.")
            out.append(Text(words, count=over[card.code], most=JOKERS))
        else:
            words = N_("%(card)s appears %(count)s times, but the three decks hold only %(most)s.")
            out.append(Text(words, card=card.label, count=over[card.code], most=DECKS))
    return out


# --------------------------------------------------------------------------- one meld

Kind = Literal[
    "group",
    "canastra_limpa",
    "canastra_suja",
    "canastra_de_curingas",
    "wild_group",
    "sequence",
    "samba",
    "black_threes",
    "illegal",
]
KINDS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "group": N_("Group"),
        "canastra_limpa": N_("Clean canastra"),
        "canastra_suja": N_("Dirty canastra"),
        "canastra_de_curingas": N_("Canastra of wild cards"),
        "wild_group": N_("Wild cards"),
        "sequence": N_("Sequence"),
        "samba": N_("Samba"),
        "black_threes": N_("Black 3s"),
        "illegal": N_("Not a legal meld"),
    }
)
#: The premium of each finished combination.
PREMIUMS: Final[Mapping[str, int]] = MappingProxyType(
    {
        "canastra_limpa": CLEAN_CANASTRA,
        "canastra_suja": DIRTY_CANASTRA,
        "canastra_de_curingas": WILD_CANASTRA,
        "samba": SAMBA,
    }
)


@dataclass(frozen=True, kw_only=True)
class MeldVerdict:
    """The judgement of one meld. ``cards`` are in table order (naturals up, then wild cards), so
    the verdict does not depend on the order the cards were typed in."""

    cards: tuple[Card, ...]
    kind: Kind
    legal: bool
    points: int
    premium: int = 0
    reasons: tuple[Text, ...] = ()
    warnings: tuple[Text, ...] = ()
    penalty: int = 0

    def __post_init__(self) -> None:
        if self.legal == bool(self.reasons) or self.legal == (self.kind == "illegal"):
            raise ValueError("a meld is legal exactly when it has no reasons and a kind")
        if self.premium != (PREMIUMS.get(self.kind, 0) if self.legal else 0) or (self.penalty and not self.legal):
            raise ValueError("the premium follows the kind; an illegal meld has no premium or penalty")

    @property
    def label(self) -> Text:
        return Text(KINDS[self.kind])

    def to_json(self, render: Callable[[Text], str]) -> dict[str, object]:
        return {
            "legal": self.legal,
            "kind": self.kind,
            "label": render(self.label),
            "points": self.points,
            "premium": self.premium,
            "penalty": self.penalty,
            "cards": [card.code for card in self.cards],
            "reasons": [render(t) for t in self.reasons],
            "warnings": [render(t) for t in self.warnings],
        }


@dataclass(frozen=True)
class _Shape:
    kind: Kind
    reasons: tuple[Text, ...] = ()
    warnings: tuple[Text, ...] = ()
    penalty: int = 0


def check_meld(cards: Sequence[Card], *, going_out: bool = False) -> MeldVerdict:
    """Judge one meld as it lies on the table; ``going_out`` allows black 3s.

    Reasons come most important first: a red 3, too few cards, the shape's broken rules, then
    cards typed more often than the three decks hold.

    >>> v = check_meld(cards_of("4c 5c 6c 7c 8c 9c 10c"))
    >>> v.kind, v.points, v.premium
    ('samba', 50, 1500)
    >>> [str(r) for r in check_meld(cards_of("Kc Ko Kp 2e 2c")).reasons]
    ['The second wild card can only go in as the seventh card: a group of fewer than 7 cards holds one wild card at most (this one has 2).']
    >>> check_meld(cards_of("3e 3p 3e")).legal, check_meld(cards_of("3e 3p 3e"), going_out=True).legal
    (False, True)
    """
    laid = tuple(sorted(cards, key=_table_order))
    points = sum(card.value for card in laid)
    reasons: list[Text] = []
    if any(card.is_red_three for card in laid):
        reasons.append(Text(N_("Red 3s are laid down apart, never in a meld.")))
    if len(laid) < MIN_MELD_CARDS:
        reasons.append(Text(N_("A meld needs at least 3 cards.")))
    rest = tuple(card for card in laid if not card.is_red_three)
    shape = _shape(rest, going_out=going_out) if len(rest) >= MIN_MELD_CARDS else _Shape(kind="illegal")
    reasons += [*shape.reasons, *_copies(laid)]
    if reasons:
        return MeldVerdict(cards=laid, kind="illegal", legal=False, points=points, reasons=tuple(reasons))
    return MeldVerdict(
        cards=laid,
        kind=shape.kind,
        legal=True,
        points=points,
        premium=PREMIUMS.get(shape.kind, 0),
        warnings=shape.warnings,
        penalty=shape.penalty,
    )


def _shape(cards: tuple[Card, ...], *, going_out: bool) -> _Shape:
    """Which combination these cards (no red 3 among them, at least 3) make, or why none."""
    wilds = sum(card.is_wild for card in cards)
    naturals = [card for card in cards if not card.is_wild]
    ranks = {card.rank for card in naturals}
    if not naturals:
        return _wild_only(len(cards))
    if ranks == {"3"}:
        return _black_threes(wilds, going_out=going_out)
    if len(ranks) == 1:
        return _group(len(naturals), wilds)
    return _sequence(naturals, wilds)


def _wild_only(count: int) -> _Shape:
    """Wild cards may meld on their own from 3 cards, "até formar, inclusive, uma
    canastra de curingas": the 7th card completes it, and nothing goes on top (our reading)."""
    if count > COMBINATION:
        return _Shape(
            kind="illegal",
            reasons=(Text(N_("A canastra of wild cards is complete at 7 cards; no more wild cards can be added.")),),
        )
    return _Shape(kind="canastra_de_curingas" if count == COMBINATION else "wild_group")


def _black_threes(wilds: int, *, going_out: bool) -> _Shape:
    """Black 3s meld only to go out, 3 or more, never with a wild card. Seven are
    impossible (there are six), so they never make a canastra."""
    reasons = []
    if wilds:
        reasons.append(Text(N_("Black 3s never go with wild cards.")))
    if not going_out:
        reasons.append(Text(N_("Black 3s can only be melded when going out.")))
    return _Shape(kind="illegal" if reasons else "black_threes", reasons=tuple(reasons))


def _group(naturals: int, wilds: int) -> _Shape:
    """A group needs 2 naturals, holds one wild until it has 7 cards ("o segundo curinga
    só pode ser colocado com sétima carta") and becomes a canastra at 7: clean without wilds,
    dirty with them. 3 or more wilds in a canastra still score as dirty, with a 100
    penalty and a warning."""
    count = naturals + wilds
    reasons = []
    if naturals < 2:
        reasons.append(Text(N_("A group needs at least 2 natural cards of its rank, besides the wild cards.")))
    if wilds > 1 and count < COMBINATION:
        reasons.append(
            Text(
                N_(
                    "The second wild card can only go in as the seventh card: a group of fewer than 7 cards "
                    "holds one wild card at most (this one has %(count)s)."
                ),
                count=wilds,
            )
        )
    if reasons:
        return _Shape(kind="illegal", reasons=tuple(reasons))
    if count < COMBINATION:
        return _Shape(kind="group")
    if wilds > MAX_WILDS:
        warning = Text(
            N_(
                "A canastra holds at most 2 wild cards: with %(count)s it still scores as dirty, "
                "but the team pays a %(penalty)s-point penalty."
            ),
            count=wilds,
            penalty=PENALTY,
        )
        return _Shape(kind="canastra_suja", warnings=(warning,), penalty=PENALTY)
    return _Shape(kind="canastra_suja" if wilds else "canastra_limpa")


def _missing(positions: Sequence[int]) -> int:
    return positions[-1] - positions[0] + 1 - len(positions) if positions else 0


@dataclass(frozen=True)
class _Run:
    """How the naturals of a would-be sequence lie along :data:`SEQUENCE` (3s left out):
    ``positions`` sorted, no rank twice (``distinct``), closing up with the wild cards at hand
    (``consecutive``), or closing up only when the order is read round, ace before the 4 (``wraps``)."""

    positions: tuple[int, ...]
    distinct: bool
    consecutive: bool
    wraps: bool


def _run(naturals: Sequence[Card], wilds: int) -> _Run:
    positions = tuple(sorted(SEQUENCE.index(card.rank) for card in naturals if card.rank != "3"))
    distinct = len(set(positions)) == len(positions)
    # The ace before the 4: the ranks close up only when the order is read round (K A 4 5).
    gaps = [b - a - 1 for a, b in zip(positions, positions[1:])] + [positions[0] + len(SEQUENCE) - positions[-1] - 1]
    round_missing = len(SEQUENCE) - len(positions) - max(gaps)
    wraps = (
        distinct
        and "A" in {card.rank for card in naturals}
        and round_missing < _missing(positions)
        and round_missing <= wilds
    )
    return _Run(
        positions=positions, distinct=distinct, consecutive=distinct and _missing(positions) <= wilds, wraps=wraps
    )


def _sequence(naturals: Sequence[Card], wilds: int) -> _Shape:
    """A sequence is 3 to 7 consecutive naturals of one suit between 4 and the ace; no
    wilds, no 3s, the ace only after the king; at 7 it is a samba, and nothing more goes on.

    Cards of several ranks that look like neither a sequence (one suit, or consecutive ranks)
    nor a group get one sentence saying so."""
    count = len(naturals) + wilds
    suits = {card.suit for card in naturals}
    threes = any(card.rank == "3" for card in naturals)
    run = _run(naturals, wilds)
    if len(suits) > 1 and (threes or not (run.consecutive or run.wraps)):
        return _Shape(
            kind="illegal",
            reasons=(
                Text(N_("These cards are neither a group (one rank) nor a sequence (consecutive cards of one suit).")),
            ),
        )
    reasons = [*_strangers(wilds=wilds, threes=threes, suits=suits), *_out_of_order(naturals, run)]
    if count > COMBINATION:
        reasons.append(Text(N_("A samba has exactly 7 cards; nothing can be added to it.")))
    if reasons:
        return _Shape(kind="illegal", reasons=tuple(reasons))
    return _Shape(kind="samba" if count == COMBINATION else "sequence")


def _strangers(*, wilds: int, threes: bool, suits: set[Suit | None]) -> list[Text]:
    """What a sequence cannot hold: wild cards, 3s, a second suit."""
    reasons = []
    if wilds:
        reasons.append(Text(N_("No wild cards in a sequence: it is made of natural cards only.")))
    if threes:
        reasons.append(Text(N_("No 3s in a sequence: it runs from 4 up to the ace.")))
    if len(suits) > 1:
        symbols = " ".join(suit.symbol for suit in _SUIT_ORDER if suit in suits)
        reasons.append(Text(N_("A sequence is all of one suit; these cards mix suits (%(suits)s)."), suits=symbols))
    return reasons


def _out_of_order(naturals: Sequence[Card], run: _Run) -> list[Text]:
    """Why the ranks do not run (the first that applies): a rank twice, the ace before the 4, a gap."""
    positions = run.positions
    if not run.distinct:
        twice = next(SEQUENCE[a] for a, b in zip(positions, positions[1:]) if a == b)
        return [Text(N_("A sequence cannot have the same rank twice (%(rank)s)."), rank=_rank_text(twice))]
    if run.wraps:
        return [Text(N_("The ace goes only after the king, never before the 4."))]
    if run.consecutive:
        return []
    plain = sorted((card for card in naturals if card.rank != "3"), key=_table_order)
    return [
        Text(
            *NP_(
                "A sequence needs consecutive cards: %(count)s card is missing between %(low)s and %(high)s.",
                "A sequence needs consecutive cards: %(count)s cards are missing between %(low)s and %(high)s.",
            ),
            count=_missing(positions),
            low=plain[0].label,
            high=plain[-1].label,
        )
    ]


# --------------------------------------------------------------------------- the opening


@dataclass(frozen=True, kw_only=True)
class OpeningVerdict:
    """The judgement of a team's first meld (saída). ``discard_meld`` is the index of the meld
    the top of the discard pile went into (its cards include it), or None."""

    melds: tuple[MeldVerdict, ...]
    legal: bool
    points: int
    required: int
    reached: bool
    reasons: tuple[Text, ...] = ()
    discard_top: Card | None = None
    discard_meld: int | None = None

    def to_json(self, render: Callable[[Text], str]) -> dict[str, object]:
        return {
            "legal": self.legal,
            "points": self.points,
            "required": self.required,
            "reached": self.reached,
            "melds": [meld.to_json(render) for meld in self.melds],
            "reasons": [render(t) for t in self.reasons],
            "discard_top": self.discard_top.code if self.discard_top is not None else None,
            "discard_meld": self.discard_meld,
        }


def _takes(meld: Sequence[Card], rank: str) -> bool:
    """A meld the top discard can join: a group of its rank with 2 naturals from the hand."""
    naturals = [card for card in meld if not card.is_wild]
    return len(naturals) >= 2 and all(card.rank == rank for card in naturals)


def _place_discard(hands: Sequence[Sequence[Card]], top: Card | None) -> tuple[int | None, list[Text]]:
    """The meld the top of the discard pile goes into (the first that :func:`_takes` it), or
    why it cannot be taken."""
    if top is None:
        return None, []
    if not top.is_natural:
        words = N_(
            "The top of the discard pile, %(card)s, cannot be taken: only a natural card (not a wild card or a 3) can."
        )
        return None, [Text(words, card=top.label)]
    target = next((i for i, meld in enumerate(hands) if _takes(meld, top.rank)), None)
    if target is None:
        words = N_(
            "The top of the discard pile, %(card)s, must go into a group of its rank "
            "with 2 natural cards of that rank from the hand."
        )
        return None, [Text(words, card=top.label)]
    return target, []


def _short_of(required: int, verdicts: Sequence[MeldVerdict]) -> list[Text]:
    """The sentence for an opening worth less than ``required`` (none when it reaches it); it
    says premiums do not count when the melds hold one."""
    points = sum(v.points for v in verdicts)
    if points >= required:
        return []
    words = (
        N_(
            "These cards are worth %(points)s; the team needs %(required)s to open (canastra and samba premiums do not count)."
        )
        if any(v.premium for v in verdicts)
        else N_("These cards are worth %(points)s; the team needs %(required)s to open.")
    )
    return [Text(words, points=points, required=required)]


def check_opening(
    melds: Sequence[Sequence[Card]],
    *,
    required: int,
    discard_top: Card | None = None,
    going_out: bool = False,
) -> OpeningVerdict:
    """Judge an opening (saída): every meld legal, and their card values at least
    ``required`` (met when equal). Premiums and red 3s never count.

    ``discard_top``: the top of the discard pile, taken with the opening. It must be a natural
    card and is added to the first meld that is a group of its rank holding 2 naturals from the
    hand ("duas cartas naturais iguais à superior"; a sequence cannot start from it). Its value
    counts only once placed.

    The rule text's example, needing 90: a clean canastra of kings is worth 70, one of aces 140.

    >>> kings = cards_of("Kc Ko Ke Kp Kc Ko Ke")
    >>> v = check_opening([kings], required=90)
    >>> v.points, v.reached, str(v.reasons[0])
    (70, False, 'These cards are worth 70; the team needs 90 to open (canastra and samba premiums do not count).')
    >>> check_opening([cards_of("Ac Ao Ae Ap Ac Ao Ae")], required=90).reached
    True
    >>> v = check_opening([cards_of("9e 9p 9c"), cards_of("Kc Ko")], required=50, discard_top=parse_card("Kp", field="t"))
    >>> v.points, v.reached, v.discard_meld, [c.code for c in v.melds[1].cards]
    (60, True, 1, ['Kc', 'Ko', 'Kp'])
    """
    hands = [tuple(meld) for meld in melds]
    target, top_reasons = _place_discard(hands, discard_top)
    if discard_top is not None and target is not None:
        hands[target] += (discard_top,)
    verdicts = tuple(check_meld(meld, going_out=going_out) for meld in hands)
    reasons: list[Text] = []
    if not verdicts:
        reasons.append(Text(N_("An opening needs at least one meld.")))
    reasons += [Text(N_("Meld %(number)s is not legal."), number=i + 1) for i, v in enumerate(verdicts) if not v.legal]
    within = frozenset(code for meld in hands for code in _over(meld))
    everything = [card for meld in hands for card in meld]
    if discard_top is not None and target is None:
        everything.append(discard_top)
    reasons += _copies(everything, skip=within)
    reasons += top_reasons
    legal = not reasons
    points = sum(v.points for v in verdicts)
    reasons += _short_of(required, verdicts)
    return OpeningVerdict(
        melds=verdicts,
        legal=legal,
        points=points,
        required=required,
        reached=legal and points >= required,
        reasons=tuple(reasons),
        discard_top=discard_top,
        discard_meld=target,
    )


# --------------------------------------------------------------------------- the API request

MAX_MELDS: Final = 20
MAX_MELD_CARDS: Final = 30
_CHECK_FIELDS: Final = ("melds", "going_out", "discard_top", "total", "required")


@dataclass(frozen=True, kw_only=True)
class CheckRequest:
    """A posted meld check. ``total`` (the team's score before the hand) or ``required`` (the
    minimum itself) asks for the opening verdict too; give one of them, or neither."""

    melds: tuple[tuple[Card, ...], ...]
    going_out: bool = False
    discard_top: Card | None = None
    total: int | None = None
    required: int | None = None

    def minimum(self, options: SambaOptions) -> int | None:
        """The opening minimum to check against, or None when only the melds are judged."""
        if self.required is not None:
            return self.required
        return min_meld(self.total, options) if self.total is not None else None


def parse_check(raw: object) -> CheckRequest:
    """The request ``{"melds": [["Kc", "Ko", "2p"], ...], "going_out": false, "discard_top": "Kp" | null,
    "total": 1234 | null, "required": 90 | null}``; a wrong shape is InvalidInput (400) with its field.

    >>> parse_check({"melds": [["Kc", "Ko", "JK"]], "required": 50}).melds[0][2].code
    'JK'
    >>> parse_check({"melds": [["Kc", "Ko", "Kx"]]})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    referee.rules.errors.InvalidInput: "Kx" is not a card. ...
    """
    if not isinstance(raw, Mapping):
        raise InvalidInput(Text(N_('A meld check is an object with its melds, e.g. {"melds": [["Kc", "Ko", "Kp"]]}.')))
    reject_unknown_fields(
        raw,
        _CHECK_FIELDS,
        N_("%(name)s is not a field of a meld check; use: %(names)s."),
        names=", ".join(_CHECK_FIELDS),
    )
    melds = raw.get("melds")
    if not isinstance(melds, (list, tuple)) or not 1 <= len(melds) <= MAX_MELDS:
        raise InvalidInput(
            Text(N_("Give the melds as a list of 1 to %(most)s melds, each a list of cards."), most=MAX_MELDS),
            field="melds",
        )
    parsed: list[tuple[Card, ...]] = []
    for i, meld in enumerate(melds):
        if not isinstance(meld, (list, tuple)) or len(meld) > MAX_MELD_CARDS:
            raise InvalidInput(
                Text(N_("A meld is a list of at most %(most)s cards."), most=MAX_MELD_CARDS), field=f"melds[{i}]"
            )
        parsed.append(tuple(parse_card(card, field=f"melds[{i}][{j}]") for j, card in enumerate(meld)))
    going_out = raw.get("going_out", False)
    if not isinstance(going_out, bool):
        raise InvalidInput(Text(N_("%(name)s must be true or false."), name="going_out"), field="going_out")
    top = raw.get("discard_top")
    total, required = raw.get("total"), raw.get("required")
    if total is not None and not (isinstance(total, int) and not isinstance(total, bool)):
        raise InvalidInput(Text(N_("%(name)s must be a whole number."), name="total"), field="total")
    if required is not None and not (isinstance(required, int) and not isinstance(required, bool) and required >= 0):
        raise InvalidInput(Text(N_("%(name)s must be a whole number, 0 or more."), name="required"), field="required")
    if total is not None and required is not None:
        raise InvalidInput(
            Text(N_("Give either the team's total or the required minimum, not both.")), field="required"
        )
    return CheckRequest(
        melds=tuple(parsed),
        going_out=going_out,
        discard_top=parse_card(top, field="discard_top") if top is not None else None,
        total=total,
        required=required,
    )
