"""The settle-up: who ends up with what, and the fewest payments that clear it.

One table (the scoreboard, the API's settlement, its settle page), or several tables of the
same evening settled together (a club night), so that a player who sat at two tables pays or
collects once: one computation, :func:`settle_up`. Players are matched across tables by club
member, not by the name typed at each table.

The unit is the table's chips or units, with their money value when the table has one. Tables
settled together must share a unit: all of them with a money value (then everything is settled
in cents), or all of one game without one (then in that game's chips or units). Samba tables are
played for points, not payments, and are not settled; a patience (one player) pays nobody, so
tables settled together leave the patience tables out.

A pot game (Injun, Kentucky Derby, Lift Smoke) may stop with chips still on the table: they are
shared back before paying (:func:`to_settle`), and ``left_on_tables`` says how many;
:func:`chips_left` says who gets which, for the pages to tell before the night ends.

The payments are :func:`referee.rules.settle.fewest_transfers`: provably the fewest up to
``EXACT_LIMIT`` players with a non-zero balance; beyond that a greedy plan whose bound is stated
(at most one payment fewer than the players owing or owed, and never fewer than half of them).
The Pix codes and the text to share are the pages' (referee.settleup).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from referee.db import db
from referee.i18n import fmt_int, fmt_money, fmt_signed
from referee.models import Member, Table
from referee.rules.errors import RulesError
from referee.rules.pot import share_left_over
from referee.rules.seats import order_from
from referee.rules.settle import EXACT_LIMIT, fewest_transfers
from referee.rules.text import N_, Text

from .pots import on_the_table
from .state import current_dealer, standing, totals
from .tables import players_of, rules_of


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: int  # in the settle-up's unit (chips/units, or cents when in money)
    money: Decimal | None
    pix: dict[str, Any] | None = None  # a Pix code to pay it, added by the page (referee.settleup)


@dataclass(frozen=True)
class ChipsLeft:
    """The chips a pot game's table still holds, and who gets them if the night ends now
    (:func:`to_settle`'s share): every page showing balances or payments says it in one sentence
    (templates/settle/_chips_left.html), so no page can tell another story."""

    chips: int
    first: str  # who plays first next: the odd chips go in order of play from him
    shares: tuple[tuple[str, int], ...]  # (player, chips he gets back), in that order; none for 0


@dataclass(frozen=True)
class SettleUp:
    tables: tuple[Table, ...]
    game: str
    in_money: bool  # amounts are cents (tables settled together in money)
    balances: dict[str, int]  # person -> net, in the unit
    money: dict[str, Decimal] | None  # person -> net in money, when there is a money value
    payments: tuple[Payment, ...]
    exact: bool  # the payments are provably the fewest
    owing: int  # players with a non-zero balance
    per_table: dict[str, dict[str, int]] = field(default_factory=dict)
    #: Chips (cents, when in money) that were still on pot games' tables and were shared back.
    left_on_tables: int = 0
    #: Each pot game's table (by id) that still holds chips: how many, and who got them back.
    chips_left: dict[str, ChipsLeft] = field(default_factory=dict)

    @property
    def lower_bound(self) -> int:
        """The fewest payments any plan could have: half the players owing or owed (a group
        that clears itself has at least two)."""
        return math.ceil(self.owing / 2)

    @property
    def winner(self) -> str | None:
        best = max(self.balances.values(), default=0)
        if best <= 0:
            return None
        return next(name for name, amount in self.balances.items() if amount == best)

    def amount_text(self, amount: int) -> str:
        """An amount in the unit as a player reads it."""
        return fmt_money(Decimal(amount) / 100) if self.in_money else fmt_int(amount)

    def signed_text(self, amount: int) -> str:
        """A net result in the unit, signed: "+R$ 2,50", "−3"."""
        if self.in_money:
            return ("+" if amount > 0 else "") + fmt_money(Decimal(amount) / 100)
        return fmt_signed(amount)


# --------------------------------------------------------------------------- one table's unit


def stock(table: Table) -> dict[str, int]:
    """The starting stock per player (starting chips, talha), reported apart from net totals."""
    start = rules_of(table).stock_in(table.options)
    return {name: int(start or 0) for name in players_of(table)}


def stock_left(table: Table, balances: Mapping[str, int]) -> dict[str, int]:
    """What each player has left of the starting stock: the stock plus his net result."""
    start = stock(table)
    return {name: start[name] + balances.get(name, 0) for name in start}


def chip_value(table: Table) -> Decimal:
    """The money one chip (or unit) of this table is worth; 0 when it is played for chips only."""
    return Decimal(str(rules_of(table).chip_value_in(table.options)))


def money(table: Table, chips: int) -> str | None:
    """``chips`` in money at the table's chip value, as a decimal string; None when chips only."""
    value = chip_value(table)
    if value == 0:
        return None
    return format(value * chips, "f")


def to_settle(table: Table, balances: Mapping[str, int] | None = None) -> dict[str, int]:
    """The balances the settle-up clears. For a pot game, the chips still on the table are
    shared back equally (odd chips in order of play from the next deal's first player), so
    the balances sum to zero (rules.pot.share_left_over says why); otherwise the totals."""
    balances = dict(totals(table) if balances is None else balances)
    if not on_the_table(table, balances):
        return balances
    return share_left_over(balances, _order_of_play(table))


def chips_left(table: Table, balances: Mapping[str, int] | None = None) -> ChipsLeft | None:
    """The chips still on a pot game's table and each player's part of them if the night ends
    now (exactly what :func:`to_settle` adds); None when the table holds none."""
    balances = dict(totals(table) if balances is None else balances)
    chips = on_the_table(table, balances)
    if not chips:
        return None
    order = _order_of_play(table)
    settled = to_settle(table, balances)
    shares = tuple((name, settled[name] - balances[name]) for name in order if settled[name] != balances[name])
    return ChipsLeft(chips=chips, first=order[0], shares=shares)


def _order_of_play(table: Table) -> list[str]:
    """The players in order of play from whoever plays first in the next deal (the player the
    odd chips of a share go to first)."""
    rules = rules_of(table)
    players = players_of(table)
    first = rules.first_speaker(players, current_dealer(table), rules.parse_options(table.options))
    return order_from(players, first)


# --------------------------------------------------------------------------- the settle-up


def settlement(table: Table, *, balances: dict[str, int] | None = None) -> dict[str, Any]:
    """One table's settle-up as plain data (the scoreboard and ``GET …/settlement``): running
    balances and the fewest transfers that settle them (in chips and in money); for a game
    scored toward a target, the match score and the winner instead. ``balances``: the table's
    totals, when the caller has them."""
    balances = totals(table) if balances is None else balances
    match = standing(table, balances)
    if match is not None:
        return {**match, "totals": balances}
    result = _settle([table], [table], {table.id: balances}, members=None)
    transfers = []
    for payment in result.payments:
        item: dict[str, Any] = {"from": payment.payer, "to": payment.payee, "amount": payment.amount}
        if payment.money is not None:
            item["money"] = format(payment.money, "f")
        transfers.append(item)
    answer: dict[str, Any] = {"balances": balances, "transfers": transfers}
    if result.balances != balances:
        # A pot game stopped with chips on the table: they were shared back before paying.
        answer["on_the_table"] = result.left_on_tables
        answer["settled_balances"] = result.balances
    if money(table, 1) is not None:
        answer["money"] = {name: money(table, amount) for name, amount in balances.items()}
    return answer


def settle_up(tables: Sequence[Table], *, members: Sequence[Member] | None = None) -> SettleUp:
    """Settle ``tables`` together (one table: its own settle-up). RulesError when they cannot be.
    ``members``: the club members seated at them (:func:`members_of`), when the caller has them."""
    chosen = list(tables)
    paying = _paying_tables(chosen)
    return _settle(chosen, paying, {t.id: totals(t) for t in paying}, members=members)


def members_of(tables: Sequence[Table]) -> list[Member]:
    """The club members seated at ``tables``."""
    ids = {s.member_id for t in tables for s in t.seats if s.member_id is not None}
    return list(db.session.query(Member).filter(Member.id.in_(ids))) if ids else []


def _paying_tables(chosen: list[Table]) -> list[Table]:
    """The tables whose players pay each other: refused when none is chosen, when all of several
    are patiences (left out of a club night), and when one is played for points."""
    if not chosen:
        raise RulesError(Text(N_("Choose at least one table to settle.")), field="t")
    paying = chosen
    if len(chosen) > 1:
        paying = [t for t in chosen if not rules_of(t).kind.solo]
        if not paying:
            raise RulesError(
                Text(N_("A patience is played alone and nobody pays: there is nothing to settle.")), field="t"
            )
    if not all(rules_of(t).kind.settle_up for t in paying):
        raise RulesError(Text(N_("Samba is played for points, not payments: there is nothing to settle.")), field="t")
    return paying


def _unit(paying: list[Table]) -> tuple[list[Decimal], bool]:
    """Each table's chip value, and whether the tables are settled in money (cents): several
    tables settled together share a unit, or are refused."""
    values = [chip_value(t) for t in paying]
    in_money = len(paying) > 1 and all(values)
    if len(paying) > 1 and not in_money and (len({t.game for t in paying}) > 1 or len(set(values)) > 1):
        raise RulesError(
            Text(
                N_(
                    "These tables cannot be settled together: either every one of them has a money value per chip or unit, or all are tables of one game played for chips only."
                )
            ),
            field="t",
        )
    return values, in_money


def settle_together(tables: Sequence[Table]) -> tuple[list[Table], dict[str, Text]]:
    """Of an evening's paying tables, the largest group that shares a unit (:func:`_unit`'s rule:
    every table with a money value, or one game's tables played for chips only), which a club
    night offers to settle together, and for each other table the sentence saying why it cannot
    join them. On a tie the tables with a money value win: any game may join them."""
    with_money = [t for t in tables if chip_value(t)]
    chips_only: dict[str, list[Table]] = {}
    for table in tables:
        if not chip_value(table):
            chips_only.setdefault(table.game, []).append(table)
    group = max([with_money, *chips_only.values()], key=len)
    return group, {t.id: _apart(t, group is with_money) for t in tables if t not in group}


def _apart(table: Table, money_group: bool) -> Text:
    """Why ``table`` cannot be settled with the group :func:`settle_together` chose. Never "give
    it a money value": a table's house rules cannot change after its first hand; it is settled
    apart instead."""
    if money_group:
        return Text(N_("Played for chips only, while the others have a money value per chip: settle it apart."))
    if chip_value(table):
        return Text(N_("Played for money, while the others are played for chips only: settle it apart."))
    return Text(N_("Another game played for chips only: its chips are not worth the others’; settle it apart."))


def _settle(
    chosen: list[Table],
    paying: list[Table],
    balances_of: Mapping[str, Mapping[str, int]],
    *,
    members: Sequence[Member] | None,
) -> SettleUp:
    """The arithmetic: each paying table's balances (``balances_of`` its id), pot chips shared
    back, in the common unit, added up per person, and the fewest payments that clear them."""
    values, in_money = _unit(paying)
    people = _people(chosen, members)
    balances: dict[str, int] = {}
    per_table: dict[str, dict[str, int]] = {}
    left = 0
    chips: dict[str, ChipsLeft] = {}
    for table, value in zip(paying, values):
        left += _in_unit(on_the_table(table, balances_of[table.id]), value, in_money)
        told = chips_left(table, balances_of[table.id])
        if told is not None:
            chips[table.id] = told
        settled = to_settle(table, balances_of[table.id])  # a pot game's chips left on the table shared back
        per_table[table.id] = {}
        for position, name in enumerate(players_of(table)):
            who = people[(table.id, position)]
            amount = _in_unit(settled.get(name, 0), value, in_money)
            balances[who] = balances.get(who, 0) + amount
            per_table[table.id][who] = amount
    for table in chosen:
        if table not in paying:  # a patience at a club night: its player neither pays nor is paid
            per_table[table.id] = {people[(table.id, position)]: 0 for position in range(len(players_of(table)))}
    unit_value = None if in_money else values[0]
    payments = tuple(
        Payment(t.payer, t.payee, t.amount, _cash(t.amount, in_money, unit_value)) for t in fewest_transfers(balances)
    )
    owing = sum(1 for amount in balances.values() if amount)
    return SettleUp(
        tables=tuple(paying),
        game=paying[0].game if len({t.game for t in paying}) == 1 else "",
        in_money=in_money,
        balances=balances,
        money=_money_of(balances, in_money, unit_value),
        payments=payments,
        exact=owing <= EXACT_LIMIT,
        owing=owing,
        per_table=per_table,
        left_on_tables=left,
        chips_left=chips,
    )


def _people(chosen: Sequence[Table], members: Sequence[Member] | None) -> dict[tuple[str, int], str]:
    """Each seat's person: the member's name across several tables; at one table, the name
    played under (what its players saw all evening)."""
    if len(chosen) == 1:
        return {(chosen[0].id, position): name for position, name in enumerate(players_of(chosen[0]))}
    names = {m.id: m.name for m in (members_of(chosen) if members is None else members)}
    return {(t.id, s.position): names.get(s.member_id or -1, s.name) for t in chosen for s in t.seats}


def _in_unit(amount: int, value: Decimal, in_money: bool) -> int:
    """Chips of a table in the settle-up's unit: cents at the table's value, or the chips."""
    return int(value * amount * 100) if in_money else amount


def _cash(amount: int, in_money: bool, value: Decimal | None) -> Decimal | None:
    """An amount in the unit as money (None when played for chips only)."""
    if in_money:
        return Decimal(amount) / 100
    return value * amount if value else None


def _money_of(balances: Mapping[str, int], in_money: bool, value: Decimal | None) -> dict[str, Decimal] | None:
    if in_money:
        return {who: Decimal(amount) / 100 for who, amount in balances.items()}
    if value:
        return {who: value * amount for who, amount in balances.items()}
    return None
