"""Settlements and the fewest transfers that clear a set of balances.

A :class:`Settlement` is what one hand moves: payments between players, their net ``deltas`` and
a breakdown in words. It checks its own zero-sum invariant, so a scoring bug cannot reach a
table's totals. :func:`fewest_transfers` turns running balances into the shortest list of
payments (exact up to :data:`EXACT_LIMIT` players, greedy beyond).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from .text import Text


@dataclass(frozen=True, kw_only=True)
class Payment:
    """``payer`` gives ``amount`` (> 0) to ``payee``."""

    payer: str
    payee: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class Line:
    """One line of "why this score": a sentence and the amount it stands for (per payer).

    The lines read like a sum on paper: a ``total`` line is the sum of the amounts above it
    since the previous total, so a reader can add the column and get the figure written under
    it. A line with amount 0 is words only (its figures, if any, are in its sentence)."""

    text: Text
    amount: int
    total: bool = False


@dataclass(frozen=True, kw_only=True)
class Settlement:
    """What a hand moves. ``deltas`` sum to ``-carry`` (chips left on the table), usually zero."""

    players: tuple[str, ...]
    payments: tuple[Payment, ...] = ()
    lines: tuple[Line, ...] = ()
    carry: int = 0
    deltas: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        deltas = dict.fromkeys(self.players, 0)
        for p in self.payments:
            if p.amount <= 0 or p.payer == p.payee or p.payer not in deltas or p.payee not in deltas:
                raise ValueError(f"bad payment {p}")
            deltas[p.payer] -= p.amount
            deltas[p.payee] += p.amount
        if self.deltas and dict(self.deltas) != deltas:
            raise ValueError("deltas do not match the payments")
        object.__setattr__(self, "deltas", MappingProxyType(deltas))
        if sum(deltas.values()) + self.carry != 0:
            raise ValueError("a settlement must sum to zero")


@dataclass(frozen=True, kw_only=True)
class Transfer:
    payer: str
    payee: str
    amount: int


#: Above this many non-zero balances the exact search is replaced by a greedy plan.
EXACT_LIMIT = 20


def fewest_transfers(balances: Mapping[str, int]) -> tuple[Transfer, ...]:
    """The fewest payments that bring every balance to zero.

    The minimum is (players with a non-zero balance) minus (the largest number of disjoint groups
    that each sum to zero), because a group of k players can always be cleared with k - 1
    payments and never with fewer. Up to :data:`EXACT_LIMIT` players the grouping is found exactly
    (:func:`_zero_sum_groups`); beyond that a greedy plan is used (at most n - 1 payments, and
    no plan has fewer than n / 2).

    Tie-breaks, so that the same balances always give the same plan: players are taken in the
    order of ``balances``; two players owing and owed the same amount settle between themselves
    first (the earliest such pairs); among the other groupings of the largest size the one with
    the smallest groups in that order wins (see :func:`_zero_sum_groups`); inside a group the
    largest debtor pays the largest creditor first (earlier name on equal amounts).

    >>> [(t.payer, t.payee, t.amount) for t in fewest_transfers({"Ana": 5, "Bia": -5, "Caio": 0})]
    [('Bia', 'Ana', 5)]
    """
    if sum(balances.values()) != 0:
        raise ValueError("balances must sum to zero")
    names = [name for name, amount in balances.items() if amount != 0]
    if len(names) > EXACT_LIMIT:
        return tuple(_greedy(names, balances))
    pairs, rest = _opposite_pairs(names, balances)
    groups = pairs + _zero_sum_groups(rest, [balances[n] for n in rest])
    transfers: list[Transfer] = []
    for group in groups:
        transfers.extend(_greedy(group, balances))
    return tuple(transfers)


def _opposite_pairs(names: Sequence[str], balances: Mapping[str, int]) -> tuple[list[list[str]], list[str]]:
    """Players owing exactly what another is owed, paired off (earliest first), and the rest.

    Pairing them never costs a payment: if the two sat in different zero-sum groups, the pair
    and the union of what is left of both groups are two zero-sum groups again; if they sat in
    one group with others, the pair and the others are two groups instead of one. So the
    search below only sees the players that no such pair clears."""
    waiting: dict[int, list[str]] = {}
    pairs: list[list[str]] = []
    paired: set[str] = set()
    for name in names:
        amount = balances[name]
        partners = waiting.get(-amount)
        if partners:
            other = partners.pop(0)
            pairs.append([other, name])
            paired.update((other, name))
        else:
            waiting.setdefault(amount, []).append(name)
    return pairs, [n for n in names if n not in paired]


def _zero_sum_groups(names: Sequence[str], amounts: Sequence[int]) -> list[list[str]]:
    """Partition ``names`` into the largest number of groups that each sum to zero.

    The largest partition is the longest chain of zero-sum subsets, each strictly inside the
    next (their differences are the groups). Sets of subsets are held as Python integers used
    as bitsets over the 2^n subsets, so each step is a few operations on big integers, not a
    loop over a million subsets in Python:

    - ``zero``: every non-empty subset whose amounts sum to zero (found by meeting in the
      middle: the subset sums of each half, matched to their opposites);
    - ``levels[k]``: the zero-sum subsets on top of a chain of k + 1 of them; each level is the
      zero-sum subsets strictly above a member of the level before (:func:`_strict_supersets`);
    - the whole set sits on the last level; walking back down, each level gives the smallest
      zero-sum subset (as a number) strictly inside the current one, and peels off one group.
    """
    n = len(names)
    if n == 0:
        return []
    size = 1 << n
    full = size - 1
    half = n // 2
    left, right = _subset_sums(amounts[:half]), _subset_sums(amounts[half:])
    by_sum: dict[int, list[int]] = {}
    for b, total in enumerate(right):
        by_sum.setdefault(total, []).append(b << half)
    bits = bytearray(size // 8 + 1)
    for a, total in enumerate(left):
        for b in by_sum.get(-total, ()):
            m = a | b
            bits[m >> 3] |= 1 << (m & 7)
    zero = int.from_bytes(bits, "little") & ~1  # the empty set is not a group
    lacks = _lacks(n)
    levels = [zero]
    while True:
        above = zero & _strict_supersets(levels[-1], lacks)
        if not above >> full & 1:
            break
        levels.append(above)
    groups: list[list[str]] = []
    current = full
    for level in reversed(levels[:-1]):
        inside = 1 << current  # every subset of current, as a bitset over subsets
        for i in range(n):
            if current >> i & 1:
                inside |= (inside & ~lacks[i]) >> (1 << i)
        candidates = level & inside & ~(1 << current)
        smaller = (candidates & -candidates).bit_length() - 1
        groups.append([names[i] for i in range(n) if (current ^ smaller) >> i & 1])
        current = smaller
    groups.append([names[i] for i in range(n) if current >> i & 1])
    groups.reverse()
    return groups


def _subset_sums(amounts: Sequence[int]) -> list[int]:
    """The sum of every subset of ``amounts``, indexed by the subset as a bit mask."""
    sums = [0] * (1 << len(amounts))
    for mask in range(1, len(sums)):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + amounts[low.bit_length() - 1]
    return sums


def _lacks(n: int) -> list[int]:
    """For each player i, the bitset (over the 2^n subsets) of the subsets without i."""
    size = 1 << n
    result = []
    for i in range(n):
        pattern, length = (1 << (1 << i)) - 1, 1 << (i + 1)
        while length < size:
            pattern |= pattern << length
            length *= 2
        result.append(pattern)
    return result


def _strict_supersets(family: int, lacks: Sequence[int]) -> int:
    """Every subset strictly containing a member of ``family`` (all bitsets over subsets):
    first the members with one player added, then closed under adding any more."""
    up = 0
    for i, lack in enumerate(lacks):
        up |= (family & lack) << (1 << i)
    for i, lack in enumerate(lacks):
        up |= (up & lack) << (1 << i)
    return up


def _greedy(names: Sequence[str], balances: Mapping[str, int]) -> list[Transfer]:
    debt = {n: -balances[n] for n in names if balances[n] < 0}
    credit = {n: balances[n] for n in names if balances[n] > 0}
    order = {n: i for i, n in enumerate(names)}
    transfers: list[Transfer] = []
    while debt:
        payer = max(debt, key=lambda n: (debt[n], -order[n]))
        payee = max(credit, key=lambda n: (credit[n], -order[n]))
        amount = min(debt[payer], credit[payee])
        transfers.append(Transfer(payer=payer, payee=payee, amount=amount))
        for book, who in ((debt, payer), (credit, payee)):
            book[who] -= amount
            if book[who] == 0:
                del book[who]
    return transfers
