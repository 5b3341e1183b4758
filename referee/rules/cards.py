"""Suits and their names; the 40-card Spanish deck (Quatrilho). Other ranks arrive with the games that need them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Final

from .errors import InconsistentHand, InvalidInput
from .text import N_, Text


class Suit(Enum):
    """The four suits, by the slugs the API uses. Declaration order is the display order only."""

    COPAS = "copas"
    OUROS = "ouros"
    ESPADAS = "espadas"
    PAUS = "paus"

    @classmethod
    def named(cls, value: object) -> Suit | None:
        """The suit whose slug is ``value``, or None (a lookup for untrusted input, which never raises).

        >>> Suit.named("paus"), Suit.named("clubs"), Suit.named(None)
        (<Suit.PAUS: 'paus'>, None, None)
        """
        return _BY_SLUG.get(value) if isinstance(value, str) else None

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.COPAS, Suit.OUROS)

    @property
    def label(self) -> Text:
        return Text(_NAMES[self])


_BY_SLUG = {suit.value: suit for suit in Suit}
_SYMBOLS = {Suit.COPAS: "♥", Suit.OUROS: "♦", Suit.ESPADAS: "♠", Suit.PAUS: "♣"}
_NAMES = {
    Suit.COPAS: N_("hearts"),
    Suit.OUROS: N_("diamonds"),
    Suit.ESPADAS: N_("spades"),
    Suit.PAUS: N_("clubs"),
}


def parse_suit(raw: object, *, field: str) -> Suit:
    """A suit from its API slug, or the sentence that says it is not one.

    >>> parse_suit("paus", field="suit").label.render()
    'clubs'
    """
    if isinstance(raw, str):
        try:
            return Suit(raw)
        except ValueError:
            pass
    raise InvalidInput(
        Text(N_("%(value)s is not a suit (copas, ouros, espadas or paus)."), value=str(raw)), field=field
    )


# --------------------------------------------------------------------------- the Spanish deck

#: Spanish-deck ranks in the API spelling, weakest-numbered first. The 8s and 9s are
#: removed, leaving 10 ranks x 4 suits = 40 cards. "10" is the Dama (Sota),
#: "11" the Valete (Cavalo), "12" the Rei.
SPANISH_RANKS: Final = ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12")

#: Ranks of a full Spanish or French deck that the 40-card deck leaves out: naming one is a rule
#: break (422), not a typo (400).
REMOVED_SPANISH_RANKS: Final = ("8", "9")

_FIGURES: Final = {"1": 3, "2": 1, "3": 1, "4": 0, "5": 0, "6": 0, "7": 0, "10": 1, "11": 1, "12": 1}

_RANK_NAMES: Final = {
    "1": N_("Ace"),
    "2": N_("Two"),
    "3": N_("Three"),
    "4": N_("Four"),
    "5": N_("Five"),
    "6": N_("Six"),
    "7": N_("Seven"),
    "10": N_("Queen"),  # Dama (Sota)
    "11": N_("Jack"),  # Valete (Cavalo)
    "12": N_("King"),  # Rei
}


def figures_of(rank: str) -> int:
    """Figures a Spanish card is worth in Quatrilho: the Ás 3; the 3, 2, Rei,
    Valete and Dama 1 each; the 4 to 7 ("brancas") nothing.

    >>> figures_of("1"), figures_of("3"), figures_of("12"), figures_of("7")
    (3, 1, 1, 0)
    >>> 4 * sum(figures_of(r) for r in SPANISH_RANKS) + 3  # with the 3 for the last trick
    35
    """
    return _FIGURES[rank]


def card_name(rank: Text, suit: Suit) -> Text:
    """A card by name, as players say it: "Ás de copas", "Rei de ouros" ("Ace of hearts"). The
    one wording of a card for every deck; it needs no article, so no gender to agree with.

    >>> card_name(rank_label("12"), Suit.OUROS).render()
    'King of diamonds'
    """
    return Text(N_("%(rank)s of %(suit)s"), rank=rank, suit=suit.label)


def rank_label(rank: str) -> Text:
    """A Spanish rank's name (English msgid; the pt-BR catalogue gives Ás, Dois, ..., Dama, Valete, Rei)."""
    return Text(_RANK_NAMES[rank])


@dataclass(frozen=True, kw_only=True)
class Card:
    """One card of the 40-card Spanish deck: ``Card(rank="3", suit=Suit.PAUS)``."""

    rank: str
    suit: Suit

    def __post_init__(self) -> None:
        if self.rank not in SPANISH_RANKS:
            raise ValueError(f"{self.rank!r} is not a rank of the 40-card Spanish deck")

    @property
    def figures(self) -> int:
        return figures_of(self.rank)

    @property
    def label(self) -> Text:
        return card_name(rank_label(self.rank), self.suit)

    def to_json(self) -> dict[str, str]:
        return {"rank": self.rank, "suit": self.suit.value}

    @classmethod
    def parse(cls, raw: object, *, field: str) -> Card:
        """A card from the API shape ``{"rank": "3", "suit": "paus"}``.

        A wrong shape is :class:`InvalidInput` (400); an 8 or a 9, which the 40-card deck leaves
        out, is :class:`InconsistentHand` (422).
        """
        if not isinstance(raw, Mapping) or set(raw) != {"rank", "suit"}:
            raise InvalidInput(
                Text(N_('A card must be given as rank and suit, e.g. {"rank": "3", "suit": "paus"}.')),
                field=field,
            )
        rank, suit = raw["rank"], raw["suit"]
        if isinstance(rank, str) and rank in REMOVED_SPANISH_RANKS:
            raise InconsistentHand(
                Text(N_("There is no %(rank)s in the 40-card deck: the 8s and 9s are taken out."), rank=rank),
                field=f"{field}.rank",
            )
        if not isinstance(rank, str) or rank not in SPANISH_RANKS:
            raise InvalidInput(
                Text(
                    N_("%(rank)s is not a card rank; use one of: %(ranks)s."),
                    rank=str(rank),
                    ranks=", ".join(SPANISH_RANKS),
                ),
                field=f"{field}.rank",
            )
        if not isinstance(suit, str) or suit not in {s.value for s in Suit}:
            raise InvalidInput(
                Text(N_("%(value)s is not a suit (copas, ouros, espadas or paus)."), value=str(suit)),
                field=f"{field}.suit",
            )
        return cls(rank=rank, suit=Suit(suit))


#: The 40 cards, suit by suit.
SPANISH_DECK: Final = tuple(Card(rank=r, suit=s) for s in Suit for r in SPANISH_RANKS)


# --------------------------------------------------------------------------- the French ranks

#: The 13 ranks of the 52-card French deck in the API spelling, strongest first
#: (A > K > Q > J > 10 > ... > 2). A game with a shorter pack takes the ranks it keeps.
FRENCH_RANKS: Final = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")

_FRENCH_RANK_NAMES: Final = {
    "A": N_("Ace"),
    "K": N_("King"),
    "Q": N_("Queen"),
    "J": N_("Jack"),
    "10": N_("Ten"),
    "9": N_("Nine"),
    "8": N_("Eight"),
    "7": N_("Seven"),
    "6": N_("Six"),
    "5": N_("Five"),
    "4": N_("Four"),
    "3": N_("Three"),
    "2": N_("Two"),
}


def french_rank_label(rank: str) -> Text:
    """A French rank's name (English msgid), e.g. for "%(rank)s of %(suit)s".

    >>> french_rank_label("Q").render(), french_rank_label("10").render()
    ('Queen', 'Ten')
    """
    return Text(_FRENCH_RANK_NAMES[rank])
