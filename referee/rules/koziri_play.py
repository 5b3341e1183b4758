"""Koziri at the table: the cards, the suit choice, the deal helper and the answer checker.
Pure functions over the cards the players can see.

Koziri is played with open hands, so the referee can follow every card without dealing any:

* :func:`deal` — the dealer names the cards of *his* two suits he found among the half of the
  deck he turned up; the rule text's dealing procedure then fixes both players' whole hands (the same ranks
  in the opponent's corresponding suits, and each player receives what is left of the other's
  suits).
* :func:`check_answer` — the card on top of the pile, who answers and with what (a card or
  ``take``): legal or not, and why. A card beats the top card when it is a higher card of the
  same suit, or one of the answerer's *own* trumps played on a card that is not of that suit; the
  other player's trump suit is a plain suit for him. Taking the pile is always allowed
  and compulsory when nothing beats the card.

The module's surface: :class:`Card` (a card of the French 20-, 24- or 32-card pack, API shape
``{"rank": "K", "suit": "espadas"}``), :func:`deck_ranks`, :func:`deck_cards`, :class:`Role`,
:class:`SuitChoice` and :func:`parse_suits`, :class:`Deal` with :func:`deal` and
:func:`parse_deal`, :func:`beats`, :func:`beating_cards`, :class:`Verdict` with
:func:`check_answer`, :func:`check_answer_in_pack` and :func:`parse_answer`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from . import cards, seats
from .cards import FRENCH_RANKS, Suit, card_name, french_rank_label
from .errors import InconsistentHand, InvalidInput, reject_unknown_fields
from .text import N_, Text

#: Deck sizes the text allows.
DECK_SIZES: Final = (20, 24, 32)

#: The French ranks of the largest pack, strongest first (A > K > Q > J > 10 > ...). The
#: 32-card pack runs from the ace down to the 7 (the 8s and the 7s are added to the 24 cards).
RANKS: Final = FRENCH_RANKS[:8]

_RANKS_IN: Final = {20: RANKS[:5], 24: RANKS[:6], 32: RANKS}

#: ``"take"``: the answer that picks up the whole pile.
TAKE: Final = "take"


def deck_ranks(size: int) -> tuple[str, ...]:
    """The ranks of a Koziri pack of ``size`` cards, strongest first.

    >>> deck_ranks(20)
    ('A', 'K', 'Q', 'J', '10')
    >>> deck_ranks(32)[-2:]  # the 8s and the 7s
    ('8', '7')
    """
    if size not in _RANKS_IN:
        raise ValueError(f"a Koziri pack has 20, 24 or 32 cards, not {size}")
    return _RANKS_IN[size]


@dataclass(frozen=True, kw_only=True, order=False)
class Card:
    """One card of the French pack Koziri uses: ``Card(rank="K", suit=Suit.ESPADAS)``."""

    rank: str
    suit: Suit

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise ValueError(f"{self.rank!r} is not a Koziri rank")

    @property
    def strength(self) -> int:
        """Higher is stronger: the 7 is 0, the ace 7."""
        return len(RANKS) - 1 - RANKS.index(self.rank)

    @property
    def label(self) -> Text:
        return card_name(french_rank_label(self.rank), self.suit)

    @property
    def short(self) -> str:
        """``"K♠"``: how a card is written on a page and in a test."""
        return f"{self.rank}{self.suit.symbol}"

    def to_json(self) -> dict[str, str]:
        return {"rank": self.rank, "suit": self.suit.value}

    @classmethod
    def parse(cls, raw: object, *, field: str, deck: int) -> Card:
        """A card from the API shape, in a pack of ``deck`` cards.

        A wrong shape or a rank no French pack has is :class:`InvalidInput` (400); a rank the
        chosen pack leaves out (a 9 with 20 cards) is :class:`InconsistentHand` (422).
        """
        if not isinstance(raw, Mapping) or set(raw) != {"rank", "suit"}:
            raise InvalidInput(
                Text(N_('A card must be given as rank and suit, e.g. {"rank": "K", "suit": "espadas"}.')),
                field=field,
            )
        rank, suit = raw["rank"], raw["suit"]
        if not isinstance(rank, str) or rank not in RANKS:
            if isinstance(rank, str) and rank in ("2", "3", "4", "5", "6"):
                raise InconsistentHand(
                    Text(
                        N_(
                            "There is no %(rank)s in a Koziri pack: it keeps the cards from the ace down to the 7 at most."
                        ),
                        rank=rank,
                    ),
                    field=f"{field}.rank",
                )
            raise InvalidInput(
                Text(N_("%(rank)s is not a card rank; use one of: %(ranks)s."), rank=str(rank), ranks=", ".join(RANKS)),
                field=f"{field}.rank",
            )
        if rank not in deck_ranks(deck):
            raise InconsistentHand(
                Text(
                    N_(
                        "There is no %(rank)s in the %(deck)s-card pack, which runs from the ace down to the %(lowest)s."
                    ),
                    rank=rank,
                    deck=deck,
                    lowest=deck_ranks(deck)[-1],
                ),
                field=f"{field}.rank",
            )
        if not isinstance(suit, str) or suit not in {s.value for s in Suit}:
            raise InvalidInput(
                Text(N_("%(value)s is not a suit (copas, ouros, espadas or paus)."), value=str(suit)),
                field=f"{field}.suit",
            )
        return cls(rank=rank, suit=Suit(suit))


def card(short: str) -> Card:
    """A card from its short form, for tests and doctests: ``card("10♠")``.

    >>> card("10♠").label.render()
    'Ten of spades'
    """
    by_symbol = {s.symbol: s for s in Suit}
    return Card(rank=short[:-1], suit=by_symbol[short[-1]])


def deck_cards(size: int) -> tuple[Card, ...]:
    """Every card of the pack, suit by suit, strongest first.

    >>> len(deck_cards(20)), len(deck_cards(24)), len(deck_cards(32))
    (20, 24, 32)
    """
    return tuple(Card(rank=r, suit=s) for s in Suit for r in deck_ranks(size))


def _sorted(cards: Collection[Card], suits: Sequence[Suit]) -> tuple[Card, ...]:
    """Cards in the order of ``suits`` (trump first), strongest first within a suit."""
    return tuple(sorted(cards, key=lambda c: (suits.index(c.suit), -c.strength)))


# --------------------------------------------------------------------------- the suit choice


class Role(Enum):
    """The two seats of a game: the dealer, and his opponent (who leads first)."""

    DEALER = "dealer"
    OPPONENT = "opponent"

    @property
    def other(self) -> Role:
        return Role.OPPONENT if self is Role.DEALER else Role.DEALER

    @property
    def word(self) -> Text:
        """The seat's name where there are no players' names (a helper used without a table)."""
        return Text(N_("Dealer")) if self is Role.DEALER else Text(N_("Opponent"))


@dataclass(frozen=True, kw_only=True)
class SuitChoice:
    """Who owns which suit: the dealer picks his trump and his second suit; the opponent
    takes the other two and picks which is his trump. A broken choice cannot be built."""

    dealer_trump: Suit
    dealer_second: Suit
    opponent_trump: Suit

    def __post_init__(self) -> None:
        if self.dealer_trump is self.dealer_second:
            raise ValueError("the dealer's trump and second suit must differ")
        if self.opponent_trump in (self.dealer_trump, self.dealer_second):
            raise ValueError("the opponent's trump must be one of the suits the dealer left")

    @property
    def opponent_second(self) -> Suit:
        """The suit nobody chose: the opponent's second suit."""
        return next(s for s in Suit if s not in (self.dealer_trump, self.dealer_second, self.opponent_trump))

    def trump(self, role: Role) -> Suit:
        return self.dealer_trump if role is Role.DEALER else self.opponent_trump

    def second(self, role: Role) -> Suit:
        return self.dealer_second if role is Role.DEALER else self.opponent_second

    def suits(self, role: Role) -> tuple[Suit, Suit]:
        """``role``'s suits, trump first."""
        return self.trump(role), self.second(role)

    def owner(self, suit: Suit) -> Role:
        return Role.DEALER if suit in self.suits(Role.DEALER) else Role.OPPONENT

    def mirror(self, suit: Suit) -> Suit:
        """The corresponding suit of the other player: trump for trump, second for second.

        >>> c = SuitChoice(dealer_trump=Suit.ESPADAS, dealer_second=Suit.COPAS, opponent_trump=Suit.OUROS)
        >>> c.mirror(Suit.ESPADAS).value, c.mirror(Suit.COPAS).value, c.mirror(Suit.PAUS).value
        ('ouros', 'paus', 'copas')
        """
        role = self.owner(suit)
        other = role.other
        return self.trump(other) if suit is self.trump(role) else self.second(other)

    def to_json(self) -> dict[str, str]:
        return {
            "dealer_trump": self.dealer_trump.value,
            "dealer_second": self.dealer_second.value,
            "opponent_trump": self.opponent_trump.value,
            "opponent_second": self.opponent_second.value,
        }


def parse_suit(raw: object, *, field: str) -> Suit:
    if raw is None:
        raise InvalidInput(Text(_MISSING_SUIT[field]), field=field)
    return cards.parse_suit(raw, field=field)


_MISSING_SUIT: Final = {
    "dealer_trump": N_("Give the dealer's trump suit."),
    "dealer_second": N_("Give the dealer's second suit."),
    "opponent_trump": N_("Give the opponent's trump suit (one of the two suits the dealer left)."),
    "opponent_second": N_("Give the opponent's second suit."),
}


def parse_suits(raw: Mapping[str, object]) -> SuitChoice:
    """The suit choice from a record's ``dealer_trump``, ``dealer_second``, ``opponent_trump``
    and the optional ``opponent_second`` (derived; when given it must be the suit left over).
    Each check names its field."""
    dealer_trump = parse_suit(raw.get("dealer_trump"), field="dealer_trump")
    dealer_second = parse_suit(raw.get("dealer_second"), field="dealer_second")
    if dealer_second is dealer_trump:
        raise InconsistentHand(
            Text(
                N_("The dealer chooses two different suits: %(suit)s cannot be both his trump and his second suit."),
                suit=dealer_trump.label,
            ),
            field="dealer_second",
        )
    opponent_trump = parse_suit(raw.get("opponent_trump"), field="opponent_trump")
    if opponent_trump in (dealer_trump, dealer_second):
        left = [s for s in Suit if s not in (dealer_trump, dealer_second)]
        raise InconsistentHand(
            Text(
                N_(
                    "The opponent's trump must be one of the two suits the dealer left, %(first)s or %(second)s; %(suit)s is the dealer's."
                ),
                suit=opponent_trump.label,
                first=left[0].label,
                second=left[1].label,
            ),
            field="opponent_trump",
        )
    choice = SuitChoice(dealer_trump=dealer_trump, dealer_second=dealer_second, opponent_trump=opponent_trump)
    if raw.get("opponent_second") is not None:
        given = parse_suit(raw["opponent_second"], field="opponent_second")
        if given is not choice.opponent_second:
            raise InconsistentHand(
                Text(
                    N_("The opponent's second suit is the one nobody chose, %(suit)s."),
                    suit=choice.opponent_second.label,
                ),
                field="opponent_second",
            )
    return choice


#: The suit choices in the order :func:`parse_suits` reads them.
SUIT_STEPS: Final = ("dealer_trump", "dealer_second", "opponent_trump")


def open_suits(name: str, raw: Mapping[str, object]) -> tuple[Suit, ...]:
    """The suits :func:`parse_suits` accepts for the choice ``name`` (one of :data:`SUIT_STEPS`)
    given the choices before it in ``raw``: any suit for the dealer's trump, any other for his
    second suit, one of the two he left for the opponent's trump. While a choice before it is
    missing or refused, every suit is open here (the parse stops at that earlier choice), so a
    guided page offers exactly what the parse would let past this step.

    >>> [s.value for s in open_suits("opponent_trump", {"dealer_trump": "espadas", "dealer_second": "copas"})]
    ['ouros', 'paus']
    """
    earlier = [Suit.named(raw.get(step)) for step in SUIT_STEPS[: SUIT_STEPS.index(name)]]
    if None in earlier or len(set(earlier)) < len(earlier):
        return tuple(Suit)
    return tuple(suit for suit in Suit if suit not in earlier)


# --------------------------------------------------------------------------- the deal helper


@dataclass(frozen=True, kw_only=True)
class Deal:
    """Both players' hands as the rule text's dealing procedure gives them, step by step.

    ``kept``: the dealer's turned-up cards of his own suits; ``matched``: the same ranks in the
    opponent's corresponding suits, set out for the opponent; ``to_opponent``: the rest of the
    dealer's suits (the pile handed to the opponent); ``to_dealer``: the rest of the opponent's
    suits (the pile the dealer keeps). Each list is in suit order (trump first), strongest first.
    """

    deck: int
    suits: SuitChoice
    kept: tuple[Card, ...]
    matched: tuple[Card, ...]
    to_opponent: tuple[Card, ...]
    to_dealer: tuple[Card, ...]

    def hand(self, role: Role) -> tuple[Card, ...]:
        """``role``'s full hand: his own suits (trump first), then the other player's."""
        cards = self.kept + self.to_dealer if role is Role.DEALER else self.matched + self.to_opponent
        return _sorted(cards, self.suits.suits(role) + self.suits.suits(role.other))

    @property
    def dealer_hand(self) -> tuple[Card, ...]:
        return self.hand(Role.DEALER)

    @property
    def opponent_hand(self) -> tuple[Card, ...]:
        return self.hand(Role.OPPONENT)

    def to_json(self) -> dict[str, object]:
        def cards(seq: Sequence[Card]) -> list[dict[str, str]]:
            return [c.to_json() for c in seq]

        return {
            "deck": self.deck,
            **self.suits.to_json(),
            "kept": cards(self.kept),
            "matched": cards(self.matched),
            "to_opponent": cards(self.to_opponent),
            "to_dealer": cards(self.to_dealer),
            "hands": {"dealer": cards(self.dealer_hand), "opponent": cards(self.opponent_hand)},
        }


def deal(*, deck: int, suits: SuitChoice, turned_up: Sequence[Card]) -> Deal:
    """Both hands from the dealer's turned-up cards of his own suits.

    The dealer turns up half the pack and keeps the cards of his two suits; the opponent gets the
    same ranks in his corresponding suits; what is left of the dealer's suits goes to the
    opponent and what is left of the opponent's suits to the dealer. Each ends with half the
    pack. The rule text's procedure example (32 cards; dealer ♠ trump, ♥ second; opponent ♦ trump):

    >>> s = SuitChoice(dealer_trump=Suit.ESPADAS, dealer_second=Suit.COPAS, opponent_trump=Suit.OUROS)
    >>> d = deal(deck=32, suits=s, turned_up=[card(x) for x in "K♠ Q♠ J♠ 10♠ A♥ Q♥ J♥ 10♥ 9♥ 8♥".split()])
    >>> " ".join(c.short for c in d.matched)
    'K♦ Q♦ J♦ 10♦ A♣ Q♣ J♣ 10♣ 9♣ 8♣'
    >>> " ".join(c.short for c in d.dealer_hand)
    'K♠ Q♠ J♠ 10♠ A♥ Q♥ J♥ 10♥ 9♥ 8♥ A♦ 9♦ 8♦ 7♦ K♣ 7♣'
    >>> " ".join(c.short for c in d.opponent_hand)
    'K♦ Q♦ J♦ 10♦ A♣ Q♣ J♣ 10♣ 9♣ 8♣ A♠ 9♠ 8♠ 7♠ K♥ 7♥'

    Refuses (:class:`InconsistentHand`, field ``turned_up[i]``) a card of the opponent's suits
    (the dealer returns those to the pack), a card named twice, or more cards than half the pack.
    """
    half = deck // 2
    own = suits.suits(Role.DEALER)
    seen: set[Card] = set()
    for i, c in enumerate(turned_up):
        field = f"turned_up[{i}]"
        if c.rank not in deck_ranks(deck):
            raise InconsistentHand(
                Text(N_("There is no %(card)s in the %(deck)s-card pack."), card=c.label, deck=deck), field=field
            )
        if c.suit not in own:
            raise InconsistentHand(
                Text(
                    N_(
                        "The %(card)s is of the opponent's suits: the dealer puts it back in the pack and names only the cards of %(trump)s and %(second)s he turned up."
                    ),
                    card=c.label,
                    trump=own[0].label,
                    second=own[1].label,
                ),
                field=field,
            )
        if c in seen:
            raise InconsistentHand(Text(N_("The %(card)s is named twice."), card=c.label), field=field)
        seen.add(c)
        if len(seen) > half:
            raise InconsistentHand(
                Text(
                    N_("The dealer turns up only half the pack, %(half)s cards, so he cannot keep more than %(half)s."),
                    half=half,
                ),
                field=field,
            )
    ranks = deck_ranks(deck)
    kept = _sorted(seen, own)
    matched = tuple(Card(rank=c.rank, suit=suits.mirror(c.suit)) for c in kept)
    to_opponent = _sorted([Card(rank=r, suit=s) for s in own for r in ranks if Card(rank=r, suit=s) not in seen], own)
    theirs = suits.suits(Role.OPPONENT)
    taken = set(matched)
    to_dealer = _sorted(
        [Card(rank=r, suit=s) for s in theirs for r in ranks if Card(rank=r, suit=s) not in taken], theirs
    )
    return Deal(deck=deck, suits=suits, kept=kept, matched=matched, to_opponent=to_opponent, to_dealer=to_dealer)


def parse_cards(raw: object, *, field: str, deck: int) -> tuple[Card, ...]:
    if not isinstance(raw, Sequence) or isinstance(raw, (str, bytes)):
        raise InvalidInput(Text(N_("Give the cards as a list of rank and suit.")), field=field)
    return tuple(Card.parse(item, field=f"{field}[{i}]", deck=deck) for i, item in enumerate(raw))


_DEAL_FIELDS: Final = frozenset({"dealer_trump", "dealer_second", "opponent_trump", "opponent_second", "turned_up"})


def parse_deal(raw: object, *, deck: int) -> Deal:
    """The deal helper from its JSON: ``{"dealer_trump", "dealer_second", "opponent_trump",
    "turned_up": [cards]}`` (``opponent_second`` optional); ``deck`` is the table's option."""
    if not isinstance(raw, Mapping):
        raise InvalidInput(Text(N_("The deal must be a JSON object.")))
    reject_unknown_fields(raw, _DEAL_FIELDS, N_("The deal helper has no field called %(name)s."))
    suits = parse_suits(raw)
    if raw.get("turned_up") is None:
        raise InvalidInput(
            Text(N_("List the cards of the dealer's two suits he turned up (an empty list if none).")),
            field="turned_up",
        )
    return deal(deck=deck, suits=suits, turned_up=parse_cards(raw["turned_up"], field="turned_up", deck=deck))


# --------------------------------------------------------------------------- the answer checker


def beats(answer: Card, top: Card, *, trump: Suit) -> bool:
    """Whether ``answer`` beats ``top`` for a player whose own trump is ``trump``: a
    higher card of the same suit, or any of his trumps on a card of another suit. The other
    player's trump suit is a plain suit here.

    >>> beats(card("9♥"), card("8♥"), trump=Suit.ESPADAS), beats(card("7♠"), card("A♥"), trump=Suit.ESPADAS)
    (True, True)
    >>> beats(card("K♠"), card("A♠"), trump=Suit.ESPADAS)  # the text's example: A♠ cannot be beaten
    False
    >>> beats(card("A♦"), card("8♥"), trump=Suit.ESPADAS)  # ♦ is the other player's trump: plain here
    False
    """
    if answer.suit is top.suit:
        return answer.strength > top.strength
    return answer.suit is trump


def beating_cards(top: Card, hand: Collection[Card], *, trump: Suit) -> tuple[Card, ...]:
    """The cards of ``hand`` that may answer ``top`` (besides taking), weakest first."""
    return tuple(
        sorted(
            (c for c in hand if beats(c, top, trump=trump)), key=lambda c: (c.suit is trump, c.strength, c.suit.value)
        )
    )


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """The answer checker's judgement.

    ``legal``: whether the answer is allowed; ``how``: ``"higher"`` (a higher card of the top
    card's suit), ``"trump"`` (one of the answerer's own trumps), ``"take"`` (the pile is picked
    up) or None when illegal; ``reason``: the sentence that explains it; ``beating``: when the
    answerer's hand was given, the cards in it that beat the top card (so ``compulsory``, a take
    with nothing that beats, can be told apart from a take by choice).
    """

    legal: bool
    how: str | None
    reason: Text
    beating: tuple[Card, ...] | None = None

    @property
    def compulsory(self) -> bool:
        return self.how == TAKE and self.beating == ()

    def to_json(self, render: Callable[[Text], str] = str) -> dict[str, object]:
        """The verdict for the API; ``render`` puts the reason in the table's language."""
        return {
            "legal": self.legal,
            "how": self.how,
            "reason": render(self.reason),
            "compulsory": self.compulsory,
            "beating": None if self.beating is None else [c.to_json() for c in self.beating],
        }


def check_answer(
    *,
    top: Card,
    answer: Card | None,
    trump: Suit,
    other_trump: Suit,
    who: str | Text,
    hand: Collection[Card] | None = None,
) -> Verdict:
    """Judge ``who``'s answer to ``top``: ``answer`` is a card, or None to take the pile.

    ``trump`` is the answerer's own trump, ``other_trump`` the other player's (a plain suit for
    the answerer). ``hand``, when given, is the answerer's hand: the answer must be in it, and a
    take is reported as compulsory when nothing in it beats the top card. An illegal answer is
    a :class:`Verdict` with ``legal=False`` (not an exception): the page shows why.

    >>> v = check_answer(top=card("A♠"), answer=None, trump=Suit.ESPADAS, other_trump=Suit.OUROS, who="Bia", hand=[card("K♠"), card("9♥")])
    >>> v.legal, v.compulsory
    (True, True)
    >>> check_answer(top=card("8♥"), answer=card("A♦"), trump=Suit.ESPADAS, other_trump=Suit.OUROS, who="Bia").legal
    False
    """
    beating = None if hand is None else beating_cards(top, hand, trump=trump)
    if hand is not None and top in hand:
        raise InconsistentHand(
            Text(
                N_("The %(card)s is on top of the pile, so it cannot be in %(name)s's hand."), card=top.label, name=who
            ),
            field="hand",
        )
    if answer is None:
        if beating == ():
            reason = Text(
                N_("%(name)s must take the pile: nothing in the hand beats the %(card)s."), name=who, card=top.label
            )
        elif beating is None:
            reason = Text(
                N_(
                    "%(name)s may always take the pile instead of answering; it is compulsory when nothing beats the %(card)s."
                ),
                name=who,
                card=top.label,
            )
        else:
            reason = Text(
                N_("%(name)s may take the pile by choice, although %(cards)s would beat the %(card)s."),
                name=who,
                cards=_list(beating),
                card=top.label,
            )
        return Verdict(legal=True, how=TAKE, reason=reason, beating=beating)
    if answer == top:
        return Verdict(
            legal=False,
            how=None,
            reason=Text(N_("The %(card)s is already on top of the pile."), card=top.label),
            beating=beating,
        )
    if hand is not None and answer not in hand:
        return Verdict(
            legal=False,
            how=None,
            reason=Text(N_("%(name)s does not hold the %(card)s."), name=who, card=answer.label),
            beating=beating,
        )
    if answer.suit is top.suit:
        if answer.strength > top.strength:
            if top.suit is trump:
                text = N_("Legal: the %(answer)s is a higher trump than the %(card)s.")
            else:
                text = N_("Legal: the %(answer)s is higher than the %(card)s, of the same suit.")
            return Verdict(
                legal=True, how="higher", reason=Text(text, answer=answer.label, card=top.label), beating=beating
            )
        if top.suit is trump:
            text = N_(
                "Not allowed: the %(card)s is of %(name)s's own trump suit, so only a higher trump beats it, and the %(answer)s is lower."
            )
        else:
            text = N_(
                "Not allowed: the %(answer)s is lower than the %(card)s; only a higher card of the suit or one of %(name)s's trumps beats it."
            )
        return Verdict(
            legal=False, how=None, reason=Text(text, answer=answer.label, card=top.label, name=who), beating=beating
        )
    if answer.suit is trump:
        if top.suit is other_trump:
            text = N_(
                "Legal: the %(answer)s is one of %(name)s's trumps, and the %(card)s is a plain card for %(name)s (the other player's trump is no trump here)."
            )
        else:
            text = N_("Legal: the %(answer)s is one of %(name)s's trumps, which beats any card of another suit.")
        return Verdict(
            legal=True, how="trump", reason=Text(text, answer=answer.label, card=top.label, name=who), beating=beating
        )
    if answer.suit is other_trump:
        text = N_(
            "Not allowed: %(suit)s is the other player's trump, a plain suit for %(name)s, so the %(answer)s does not beat the %(card)s."
        )
        return Verdict(
            legal=False,
            how=None,
            reason=Text(text, suit=answer.suit.label, name=who, answer=answer.label, card=top.label),
            beating=beating,
        )
    text = N_("Not allowed: the %(answer)s is neither a higher %(suit)s nor one of %(name)s's trumps (%(trump)s).")
    return Verdict(
        legal=False,
        how=None,
        reason=Text(text, answer=answer.label, suit=top.suit.label, name=who, trump=trump.label),
        beating=beating,
    )


def check_answer_in_pack(
    *,
    deck: int,
    top: Card,
    answer: Card | None,
    trump: Suit,
    other_trump: Suit,
    who: str | Text,
    hand: Collection[Card] | None = None,
) -> tuple[Verdict, tuple[Card, ...]]:
    """:func:`check_answer`, and the cards of the whole pack that would beat ``top`` for the
    answerer (weakest first, his trumps last): what he must hold not to take the pile.

    Without his hand, a take is compulsory only when nothing in the whole pack beats the top
    card (the ace of his own trump suit, the text's example); the verdict then says so, since
    no hand could do otherwise.

    >>> v, beating = check_answer_in_pack(deck=32, top=card("A♠"), answer=None, trump=Suit.ESPADAS, other_trump=Suit.OUROS, who="Bia")
    >>> v.compulsory, beating, v.reason.render()
    (True, (), 'Bia must take the pile: nothing in the pack beats the Ace of spades.')
    >>> v, beating = check_answer_in_pack(deck=20, top=card("K♥"), answer=None, trump=Suit.ESPADAS, other_trump=Suit.OUROS, who="Bia")
    >>> v.compulsory, " ".join(c.short for c in beating)
    (False, 'A♥ 10♠ J♠ Q♠ K♠ A♠')
    """
    rest = [c for c in deck_cards(deck) if c != top]
    in_pack = beating_cards(top, rest, trump=trump)
    if hand is None and not in_pack and answer is None:
        # No hand was given: the take is compulsory because of the whole pack, and says so.
        reason = Text(
            N_("%(name)s must take the pile: nothing in the pack beats the %(card)s."), name=who, card=top.label
        )
        return Verdict(legal=True, how=TAKE, reason=reason, beating=()), in_pack
    if hand is None and not in_pack:
        hand = rest
    return check_answer(top=top, answer=answer, trump=trump, other_trump=other_trump, who=who, hand=hand), in_pack


def _list(cards: Sequence[Card]) -> Text | str:
    """ "the 9 of hearts", "the 9 of hearts and the 7 of spades", "the 9 of hearts, ... and ..."."""
    parts = [Text(N_("the %(card)s"), card=c.label) for c in cards]
    if len(parts) == 1:
        return parts[0]
    out: Text = Text(N_("%(first)s and %(second)s"), first=parts[-2], second=parts[-1])
    for part in reversed(parts[:-2]):
        out = Text(N_("%(first)s, %(rest)s"), first=part, rest=out)
    return out


_ANSWER_FIELDS: Final = frozenset(
    {"dealer", "dealer_trump", "dealer_second", "opponent_trump", "opponent_second", "answers", "top", "answer", "hand"}
)


def parse_answer(raw: object, *, players: Sequence[str], dealer: str, deck: int) -> Verdict:
    """The answer checker from its JSON: the game's suits (as in the hand record), ``answers``
    (the player who answers), ``top`` (the card on top of the pile), ``answer`` (a card or
    ``"take"``) and optionally ``hand`` (the answerer's cards, all face up in Koziri).

    ``dealer`` is the rotation's; the body may name another seated player. A malformed body is a
    :class:`RulesError` with a field; an illegal answer is a :class:`Verdict` with the reason.
    """
    if not isinstance(raw, Mapping):
        raise InvalidInput(Text(N_("The answer to check must be a JSON object.")))
    reject_unknown_fields(raw, _ANSWER_FIELDS, N_("The answer checker has no field called %(name)s."))
    if raw.get("dealer") is not None:
        dealer = seats.require_player(players, raw["dealer"], field="dealer")
    suits = parse_suits(raw)
    if raw.get("answers") is None:
        raise InvalidInput(Text(N_("Name the player who answers.")), field="answers")
    who = seats.require_player(players, raw["answers"], field="answers")
    role = Role.DEALER if who == dealer else Role.OPPONENT
    if raw.get("top") is None:
        raise InvalidInput(Text(N_("Give the card on top of the pile.")), field="top")
    top = Card.parse(raw["top"], field="top", deck=deck)
    if raw.get("answer") is None or (isinstance(raw["answer"], str) and raw["answer"] != TAKE):
        raise InvalidInput(Text(N_('Give the answer: a card, or "take" to pick up the pile.')), field="answer")
    answer = None if raw["answer"] == TAKE else Card.parse(raw["answer"], field="answer", deck=deck)
    hand = None
    if raw.get("hand") is not None:
        cards = parse_cards(raw["hand"], field="hand", deck=deck)
        if len(set(cards)) != len(cards):
            dup = next(i for i, c in enumerate(cards) if c in cards[:i])
            raise InconsistentHand(
                Text(N_("The %(card)s is named twice."), card=cards[dup].label), field=f"hand[{dup}]"
            )
        hand = frozenset(cards)
    return check_answer(
        top=top, answer=answer, trump=suits.trump(role), other_trump=suits.trump(role.other), who=who, hand=hand
    )


__all__ = [
    "DECK_SIZES",
    "RANKS",
    "SUIT_STEPS",
    "TAKE",
    "Card",
    "Deal",
    "Role",
    "SuitChoice",
    "Verdict",
    "beating_cards",
    "beats",
    "card",
    "check_answer",
    "check_answer_in_pack",
    "deal",
    "deck_cards",
    "deck_ranks",
    "open_suits",
    "parse_answer",
    "parse_cards",
    "parse_deal",
    "parse_suits",
]
