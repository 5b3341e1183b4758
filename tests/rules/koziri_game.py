"""A Koziri game followed move by move, for the tests only.

The app records a game's result, never its moves; the tests play whole games with :class:`Play`
to check that the deal (:func:`~referee.rules.koziri_play.deal`), the answer checker
(:func:`~referee.rules.koziri_play.check_answer`) and the going-out option agree move after move.
Its examples run in tests/rules/test_doctests.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from referee.rules.errors import IllegalCall
from referee.rules.koziri_play import Card, Deal, Role, _sorted, beating_cards, beats, check_answer
from referee.rules.text import N_, Text


class IllegalMove(IllegalCall):
    """A card or a take the rules do not allow now."""

    code = "illegal_move"


#: ``"last_card"`` — a player wins as soon as he plays his last card (the text, literally);
#: ``"unbeaten"`` — his last card must stand: he wins when the other player takes the pile.
GOING_OUT: Final = ("last_card", "unbeaten")


_ROLE_NAMES: Final[Mapping[Role, str | Text]] = {
    Role.DEALER: Text(N_("the dealer")),
    Role.OPPONENT: Text(N_("the opponent")),
}


class Play:
    """A game followed move by move from a :class:`Deal` (verify / legal moves / play).

    A move is a :class:`Card` or None (take the pile). With the pile empty the player to move
    leads any card; otherwise he answers the top card with a card that beats it
    (:func:`beats`) or takes the whole pile, which is compulsory when nothing beats it. After a
    take the player who discarded last leads a new pile. ``leader`` is who leads first:
    the dealer's opponent by the text (option ``first_lead``). ``going_out``: see
    :data:`GOING_OUT`. ``names``: the players' names for the sentences (else "the dealer",
    "the opponent").

    The text's observation: a player holding every trump of the other can make him take them
    one by one, from the lowest up.

    >>> from referee.rules.cards import Suit
    >>> from referee.rules.koziri_play import SuitChoice, card, deal
    >>> s = SuitChoice(dealer_trump=Suit.ESPADAS, dealer_second=Suit.COPAS, opponent_trump=Suit.OUROS)
    >>> p = Play(deal(deck=20, suits=s, turned_up=[]), leader=Role.DEALER)  # the dealer holds every ♦
    >>> p.play(card("10♦"))
    >>> p.legal_moves()  # the opponent's trump suit, and nothing higher: he must take
    [None]
    >>> p.play(None); p.turn.value, len(p.hand(Role.OPPONENT))
    ('dealer', 11)
    """

    def __init__(
        self,
        the_deal: Deal,
        *,
        leader: Role = Role.OPPONENT,
        going_out: str = "last_card",
        names: Mapping[Role, str] | None = None,
    ) -> None:
        if going_out not in GOING_OUT:
            raise ValueError(f"going_out is one of {GOING_OUT}")
        self.names: Mapping[Role, str | Text] = dict(names) if names is not None else _ROLE_NAMES
        self.suits = the_deal.suits
        self.deck = the_deal.deck
        self.going_out = going_out
        self.hands: dict[Role, set[Card]] = {role: set(the_deal.hand(role)) for role in Role}
        self.pile: list[tuple[Role, Card]] = []
        self.turn: Role = leader
        self.winner: Role | None = None
        self.moves: list[tuple[Role, Card | None]] = []

    @property
    def top(self) -> Card | None:
        return self.pile[-1][1] if self.pile else None

    def hand(self, role: Role) -> tuple[Card, ...]:
        return _sorted(self.hands[role], self.suits.suits(role) + self.suits.suits(role.other))

    def legal_moves(self) -> list[Card | None]:
        """What the player to move may do: the cards he may lead or answer with, then None
        (take) when there is a pile. Empty once the game is over."""
        if self.winner is not None:
            return []
        top = self.top
        if top is None:
            return list(self.hand(self.turn))
        return [*beating_cards(top, self.hands[self.turn], trump=self.suits.trump(self.turn)), None]

    def reason(self, move: Card | None) -> Text | None:
        """Why the player to move may not make ``move``, or None when he may."""
        if self.winner is not None:
            return Text(N_("The game is over."))
        top = self.top
        if move is None:
            return Text(N_("There is no pile to take: the player to move leads a card.")) if top is None else None
        if move not in self.hands[self.turn]:
            return Text(N_("%(name)s does not hold the %(card)s."), name=self.names[self.turn], card=move.label)
        if top is not None and not beats(move, top, trump=self.suits.trump(self.turn)):
            verdict = check_answer(
                top=top,
                answer=move,
                trump=self.suits.trump(self.turn),
                other_trump=self.suits.trump(self.turn.other),
                who=self.names[self.turn],
            )
            return verdict.reason
        return None

    def play(self, move: Card | None, *, field: str | None = None) -> None:
        """Make ``move`` for the player whose turn it is (:class:`IllegalMove` with the reason)."""
        why = self.reason(move)
        if why is not None:
            raise IllegalMove(why, field=field)
        role = self.turn
        self.moves.append((role, move))
        if move is None:
            self.hands[role].update(c for _, c in self.pile)
            last = self.pile[-1][0]
            self.pile.clear()
            self.turn = last
            if self.going_out == "unbeaten" and not self.hands[last]:
                self.winner = last
            return
        self.hands[role].discard(move)
        self.pile.append((role, move))
        self.turn = role.other
        if self.going_out == "last_card" and not self.hands[role]:
            self.winner = role
