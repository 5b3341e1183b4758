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
    """One line of "why this score": a sentence and the amount it stands for (per payer)."""

    text: Text
    amount: int


@dataclass(frozen=True, kw_only=True)
class Settlement:
    """What a hand moves. ``deltas`` sum to ``-carry`` (chips left on the table), usually zero."""

    players: tuple[str, ...]
    payments: tuple[Payment, ...] = ()
    lines: tuple[Line, ...] = ()
    carry: int = 0
    deltas: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        deltas = {name: 0 for name in self.players}
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
    by dynamic programming over subsets; beyond that a greedy plan is used (at most n - 1 payments).

    Tie-breaks, so that the same balances always give the same plan: players are taken in the
    order of ``balances``; among groupings of equal size the one found first in that order wins;
    inside a group the largest debtor pays the largest creditor first (earlier name on equal
    amounts).

    >>> [(t.payer, t.payee, t.amount) for t in fewest_transfers({"Ana": 5, "Bia": -5, "Caio": 0})]
    [('Bia', 'Ana', 5)]
    """
    if sum(balances.values()) != 0:
        raise ValueError("balances must sum to zero")
    names = [name for name, amount in balances.items() if amount != 0]
    if len(names) > EXACT_LIMIT:
        return tuple(_greedy(names, balances))
    groups = _zero_sum_groups(names, [balances[n] for n in names])
    transfers: list[Transfer] = []
    for group in groups:
        transfers.extend(_greedy(group, balances))
    return tuple(transfers)


def _zero_sum_groups(names: Sequence[str], amounts: Sequence[int]) -> list[list[str]]:
    """Partition ``names`` into the largest number of groups that each sum to zero.

    ``best[mask]`` is the most zero-sum groups a partition of ``mask`` can have: removing one
    player at a time, every intermediate set whose total is zero closes a group. Walking the same
    chain back from the full set recovers the groups in O(n^2).
    """
    n = len(names)
    size = 1 << n
    total = [0] * size
    best = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
        top = 0
        m = mask
        while m:
            bit = m & -m
            if best[mask ^ bit] > top:
                top = best[mask ^ bit]
            m ^= bit
        best[mask] = top + (total[mask] == 0)
    groups: list[list[str]] = []
    removed: list[str] = []
    mask = size - 1
    while mask:
        closes = total[mask] == 0
        for i in range(n):
            bit = 1 << i
            if mask & bit and best[mask ^ bit] + closes == best[mask]:
                break
        removed.append(names[i])
        mask ^= bit
        if total[mask] == 0:
            groups.append(removed)
            removed = []
    return groups


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
