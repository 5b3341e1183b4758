"""Pots: the shared mechanics of the games where everybody puts chips in the middle and the
winners take them out (Injun, Kentucky Derby, Lift Smoke).

Four things every such game does the same way:

* **Reading an amount** (:func:`require_chips`): a whole number of chips from 0 to
  :data:`MAX_CHIPS`, refused with the game's own sentence otherwise; the chips each player
  starts with and what a chip is worth (:data:`CHIP_OPTIONS`, the last options of each game).
* **Antes into a pot** (:func:`antes`, :class:`Pot`): each player puts in the agreed chips; a
  pot nobody could take in the previous deal may already lie on the table (``carried_in``).
* **Splitting a pot** (:func:`split`): equal shares for the winners. Chips that do not divide
  evenly either stay on the table for the next deal (``odd_chips="carry"``) or go one each to
  the winners in the order given (``odd_chips="in_order"``; a game passes its winners in the
  order its rule names, e.g. from the dealer's left). A pot with no winner stays on the table
  whole.
* **Settling** (:func:`pot_settlement`, :class:`PotSettlement`): a player's delta is what he
  took out minus what he put in. Chips may come from the table (a pot carried in) or stay on it
  (odd chips, an unbacked pot), so the deltas sum to ``carried_in - carried_out``. The
  :class:`~referee.rules.settle.Settlement` invariant, ``sum(deltas) + carry == 0``, still holds
  because ``carry`` is the **net** chips the deal leaves on the table (``carried_out -
  carried_in``; negative when it takes up chips an earlier deal left). ``carried_out`` is what
  the next deal finds on the table: its ``carried_in``. Since every deal's net carry is part of
  its deltas, the chips on the table after any deal are minus the sum of all deltas so far.

Everything here is pure and checks its own arithmetic: chips are never created or lost.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from .errors import InconsistentHand, InvalidInput
from .options import CHIP_VALUE, STARTING_CHIPS, OptionSpec
from .record import Count
from .settle import Line, Payment, Settlement
from .text import N_, NP_, Text

#: The remainder of a split stays on the table for the next deal.
ODD_CHIPS_CARRY: Final = "carry"
#: The remainder of a split goes one chip each to the winners, in the order they are given.
ODD_CHIPS_IN_ORDER: Final = "in_order"
ODD_CHIPS: Final = (ODD_CHIPS_CARRY, ODD_CHIPS_IN_ORDER)
#: The largest amount a pot game takes in one field (an ante, a bet, chips carried in).
MAX_CHIPS: Final = 1_000_000


def carried_in_field(bounds: str = N_("The chips carried in are from 0 to a million, not %(value)s.")) -> Count:
    """A pot game's ``carried_in``: the chips already on the table, which the ledger fills in;
    ``bounds`` says, in the game's words, that a number is out of range."""
    return Count(
        name="carried_in",
        high=MAX_CHIPS,
        sentence=N_("The chips carried in are a whole number."),
        bounds=bounds,
        doc=CARRIED_IN_DOC,
    )


#: What the API document says of a pot game's ``carried_in``.
CARRIED_IN_DOC: Final = (
    "The chips already on the table from the deals before (the table's on_the_table). "
    "Filled in by the table; a record that names another amount is refused with 422."
)

#: The options every pot game ends with: the chips shown as each player's stock (display only)
#: and the money a chip is worth (the ledger's ``stock_option`` and ``money_option``).
CHIP_OPTIONS: Final[tuple[OptionSpec, ...]] = (
    STARTING_CHIPS,
    CHIP_VALUE,
)


def ante_option(help: Text, rule_ref: str) -> OptionSpec:
    """The ante option of a game that antes into a pot (Injun, Lift Smoke): one chip each by
    default; ``help`` says what the game's own text adds."""
    return OptionSpec(
        name="ante",
        kind="int",
        default=1,
        minimum=0,
        maximum=MAX_CHIPS,
        label=Text(N_("Ante: chips each player puts in before the deal")),
        help=help,
        rule_ref=rule_ref,
    )


def require_chips(
    raw: object,
    *,
    field: str,
    sentence: str,
    bounds: str | None = None,
    minimum: int = 0,
    maximum: int = MAX_CHIPS,
) -> int:
    """A whole number of chips from ``minimum`` to ``maximum``, or the game's sentence that says
    it is not one.

    ``sentence`` refuses what is not a whole number (:class:`InvalidInput`). ``bounds`` refuses a
    whole number out of range (:class:`InconsistentHand`, the number as ``%(value)s``); without
    ``bounds``, ``sentence`` refuses that too (:class:`InvalidInput`, ``maximum`` as ``%(max)s``).

    >>> require_chips(3, field="ante", sentence="The ante is a whole number of chips.")
    3
    >>> require_chips(-1, field="ante", sentence="The ante is a whole number.", bounds="Not %(value)s.")
    Traceback (most recent call last):
    ...
    referee.rules.errors.InconsistentHand: Not -1.
    """
    if bounds is None:
        if not isinstance(raw, int) or isinstance(raw, bool) or not minimum <= raw <= maximum:
            raise InvalidInput(Text(sentence, max=maximum), field=field)
        return raw
    if not isinstance(raw, int) or isinstance(raw, bool):
        raise InvalidInput(Text(sentence), field=field)
    if not minimum <= raw <= maximum:
        raise InconsistentHand(Text(bounds, value=raw), field=field)
    return raw


@dataclass(frozen=True, kw_only=True)
class Pot:
    """Chips in the middle: what each player put in (``paid``) plus any chips already on the
    table before the deal (``carried_in``). Immutable: :meth:`add` returns a new pot.

    >>> pot = antes(("Ana", "Bia", "Caio"), 2, carried_in=1).add("Bia", 5)
    >>> pot.chips, dict(pot.paid)
    (12, {'Ana': 2, 'Bia': 7, 'Caio': 2})
    """

    carried_in: int = 0
    paid: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.carried_in < 0 or any(chips < 0 for chips in self.paid.values()):
            raise ValueError("a pot holds no negative amounts")
        object.__setattr__(self, "paid", MappingProxyType(dict(self.paid)))

    @property
    def chips(self) -> int:
        """Everything in the pot."""
        return self.carried_in + sum(self.paid.values())

    def add(self, player: str, chips: int) -> Pot:
        """The pot after ``player`` puts in ``chips`` more (>= 0)."""
        if chips < 0:
            raise ValueError("chips go into a pot, never out of it")
        paid = dict(self.paid)
        paid[player] = paid.get(player, 0) + chips
        return Pot(carried_in=self.carried_in, paid=paid)


def antes(players: Sequence[str], ante: int, *, carried_in: int = 0) -> Pot:
    """A pot with every player's ante in it (the dealer's too), on top of ``carried_in``.

    >>> antes(("Ana", "Bia"), 3).chips
    6
    """
    if ante < 0:
        raise ValueError("an ante is never negative")
    return Pot(carried_in=carried_in, paid=dict.fromkeys(players, ante))


@dataclass(frozen=True, kw_only=True)
class Split:
    """A pot of ``chips`` shared among ``winners``: each one's share, and the ``carry`` (chips
    left on the table for the next deal). ``sum(shares) + carry == chips``."""

    chips: int
    winners: tuple[str, ...]
    shares: Mapping[str, int]
    carry: int

    def __post_init__(self) -> None:
        if sum(self.shares.values()) + self.carry != self.chips or self.carry < 0:
            raise ValueError("a split must account for every chip")
        object.__setattr__(self, "shares", MappingProxyType(dict(self.shares)))

    @property
    def each(self) -> int:
        """The equal share (before any odd chip)."""
        return self.chips // len(self.winners) if self.winners else 0

    @property
    def odd(self) -> int:
        """The chips that did not divide evenly (carried or handed out one by one)."""
        return self.chips % len(self.winners) if self.winners else 0


def split(chips: int, winners: Sequence[str], *, odd_chips: str = ODD_CHIPS_CARRY) -> Split:
    """``chips`` shared equally among ``winners``.

    Tie-break for the remainder: under ``odd_chips="carry"`` it stays on the table
    (``carry``); under ``"in_order"`` the first winners in the order given get one chip each.
    With no winner at all the whole pot stays on the table.

    >>> s = split(10, ["Ana", "Bia", "Caio"])
    >>> dict(s.shares), s.carry
    ({'Ana': 3, 'Bia': 3, 'Caio': 3}, 1)
    >>> dict(split(11, ["Ana", "Bia", "Caio"], odd_chips="in_order").shares)
    {'Ana': 4, 'Bia': 4, 'Caio': 3}
    >>> split(7, []).carry
    7
    """
    if chips < 0:
        raise ValueError("a pot is never negative")
    if len(set(winners)) != len(winners):
        raise ValueError("a winner is named twice")
    if odd_chips not in ODD_CHIPS:
        raise ValueError(f"odd_chips must be one of {ODD_CHIPS}")
    if not winners:
        return Split(chips=chips, winners=(), shares={}, carry=chips)
    each, odd = divmod(chips, len(winners))
    shares = dict.fromkeys(winners, each)
    carry = odd
    if odd_chips == ODD_CHIPS_IN_ORDER:
        for name in winners[:odd]:
            shares[name] += 1
        carry = 0
    return Split(chips=chips, winners=tuple(winners), shares=shares, carry=carry)


def share_left_over(balances: Mapping[str, int], order: Sequence[str]) -> dict[str, int]:
    """The balances to settle when the players stop with chips still on the table.

    In a pot game the players' balances sum to minus the chips left on the table (an odd chip of
    a tie, a pot nobody won). The rule texts say nothing of the end of the night; the reading
    chosen (the rule text is silent; see the settle-up page) is that nobody owns those chips more than
    anybody else: they are shared equally among the players, one odd chip each to the first
    players of ``order`` (the order of play from the next deal's first player). Then the
    balances sum to zero and the payments can clear them.

    >>> share_left_over({"Ana": 0, "Bia": 0, "Caio": -1}, ["Ana", "Bia", "Caio"])
    {'Ana': 1, 'Bia': 0, 'Caio': -1}
    >>> share_left_over({"Ana": -4, "Bia": -3, "Caio": 0}, ["Caio", "Ana", "Bia"])
    {'Ana': -2, 'Bia': -1, 'Caio': 3}
    >>> share_left_over({"Ana": 2, "Bia": -2}, ["Ana", "Bia"])
    {'Ana': 2, 'Bia': -2}
    """
    if sorted(order) != sorted(balances):
        raise ValueError("the order must name every player once")
    left = -sum(balances.values())
    if left < 0:
        raise ValueError("more chips were won than were put in")
    shares = split(left, list(order), odd_chips=ODD_CHIPS_IN_ORDER).shares if left else {}
    return {name: amount + shares.get(name, 0) for name, amount in balances.items()}


@dataclass(frozen=True, kw_only=True)
class PotSettlement(Settlement):
    """A :class:`~referee.rules.settle.Settlement` whose chips went through a pot.

    ``deltas`` are given (what each player took out minus what he put in); ``payments`` show
    the part of them that moved from player to player, and never more than a player's own
    delta. ``carried_in`` chips were on the table before the deal, ``carried_out`` stay on it
    for the next one; ``carry`` is set to the net, ``carried_out - carried_in``, so the
    settlement's ``sum(deltas) + carry == 0`` holds.
    """

    carried_in: int = 0
    carried_out: int = 0

    def __post_init__(self) -> None:
        if self.carried_in < 0 or self.carried_out < 0:
            raise ValueError("carried chips are never negative")
        object.__setattr__(self, "carry", self.carried_out - self.carried_in)
        if set(self.deltas) != set(self.players):
            raise ValueError("a pot settlement gives every player's delta")
        deltas = {name: int(self.deltas[name]) for name in self.players}
        flows = dict.fromkeys(self.players, 0)
        for p in self.payments:
            if p.amount <= 0 or p.payer == p.payee or p.payer not in flows or p.payee not in flows:
                raise ValueError(f"bad payment {p}")
            flows[p.payer] -= p.amount
            flows[p.payee] += p.amount
        for name, flow in flows.items():
            delta = deltas[name]
            if flow and (flow * delta <= 0 or abs(flow) > abs(delta)):
                raise ValueError(f"the payments of {name} go beyond the delta")
        object.__setattr__(self, "deltas", MappingProxyType(deltas))
        if sum(deltas.values()) + self.carry != 0:
            raise ValueError("a pot settlement must account for every chip")


def payments_for(deltas: Mapping[str, int]) -> tuple[Payment, ...]:
    """Who pays whom for ``deltas`` that need not sum to zero: the losers pay the gainers,
    both taken in the order of ``deltas`` (the first loser pays the first gainer until one of
    them is square, and so on). Whatever is left over is a loss that stays on the table or a
    gain that came from it.

    >>> [(p.payer, p.payee, p.amount) for p in payments_for({"Ana": 5, "Bia": -3, "Caio": -3})]
    [('Bia', 'Ana', 3), ('Caio', 'Ana', 2)]
    """
    gainers = [name for name, amount in deltas.items() if amount > 0]
    losers = [name for name, amount in deltas.items() if amount < 0]
    due = {name: abs(amount) for name, amount in deltas.items()}
    payments: list[Payment] = []
    g = k = 0
    while g < len(gainers) and k < len(losers):
        payee, payer = gainers[g], losers[k]
        amount = min(due[payee], due[payer])
        payments.append(Payment(payer=payer, payee=payee, amount=amount))
        due[payee] -= amount
        due[payer] -= amount
        if due[payee] == 0:
            g += 1
        if due[payer] == 0:
            k += 1
    return tuple(payments)


def pot_settlement(
    players: Sequence[str],
    *,
    paid: Mapping[str, int],
    won: Mapping[str, int],
    carried_in: int = 0,
    carried_out: int = 0,
    lines: Sequence[Line] = (),
) -> PotSettlement:
    """The settlement of a deal from what each player put in (``paid``) and took out (``won``).

    Chips are conserved: everything paid plus ``carried_in`` is either won or ``carried_out``.

    >>> s = pot_settlement(("Ana", "Bia", "Caio"), paid={"Ana": 3, "Bia": 3, "Caio": 3},
    ...                    won={"Ana": 4, "Bia": 4}, carried_out=1)
    >>> dict(s.deltas), s.carry, s.carried_out
    ({'Ana': 1, 'Bia': 1, 'Caio': -3}, 1, 1)
    """
    for book in (paid, won):
        if any(name not in players or amount < 0 for name, amount in book.items()):
            raise ValueError("amounts are per seated player and never negative")
    if sum(paid.values()) + carried_in != sum(won.values()) + carried_out:
        raise ValueError("a pot must account for every chip")
    deltas = {name: won.get(name, 0) - paid.get(name, 0) for name in players}
    return PotSettlement(
        players=tuple(players),
        payments=payments_for(deltas),
        lines=tuple(lines),
        deltas=deltas,
        carried_in=carried_in,
        carried_out=carried_out,
    )


def ante_lines(players: int, ante: int, carried_in: int) -> list[Line]:
    """A pot game's first breakdown lines: everybody's ante, then the chips the last deal left
    on the table. Their amounts add up to the pot before any bet."""
    lines = [
        Line(
            text=Text(
                *NP_(
                    "%(count)s player put in an ante of %(ante)s.", "%(count)s players put in an ante of %(ante)s each."
                ),
                count=players,
                ante=ante,
            ),
            amount=players * ante,
        )
    ]
    if carried_in:
        lines.append(
            Line(
                text=Text(
                    *NP_(
                        "%(count)s chip left on the table by the last deal is in the pot.",
                        "%(count)s chips left on the table by the last deal are in the pot.",
                    ),
                    count=carried_in,
                ),
                amount=carried_in,
            )
        )
    return lines
