"""The settle-up at the end of a night: who ends up with what, and the payments that clear it.

One table, or several tables of the same evening settled together (a club night), so that a
player who sat at two tables pays or collects once. Players are matched across tables by club
member, not by the name typed at each table.

The unit is the table's chips or units, with their money value when the table has one. Tables
settled together must share a unit: all of them with a money value (then everything is settled
in cents), or all of one game without one (then in that game's chips or units). Samba tables are
played for points, not payments, and are not settled; a patience (one player) pays nobody, so
tables settled together leave the patience tables out.

A pot game (Injun, Kentucky Derby, Lift Smoke) may stop with chips still on the table: they are
shared back before paying (:func:`referee.ledger.to_settle`), and ``left_on_tables`` says how many.

The payments are :func:`referee.rules.settle.fewest_transfers`: provably the fewest up to
``EXACT_LIMIT`` players with a non-zero balance; beyond that a greedy plan whose bound is stated
(at most one payment fewer than the players owing or owed, and never fewer than half of them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from flask_babel import gettext as _

from referee import ledger
from referee.db import db
from referee.i18n import fmt_int, fmt_money, fmt_signed
from referee.models import Member, Table
from referee.rules.errors import RulesError
from referee.rules.settle import EXACT_LIMIT, fewest_transfers
from referee.rules.text import N_, Text


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: int  # in the settle-up's unit (chips/units, or cents when in money)
    money: Decimal | None
    pix: dict[str, Any] | None = None


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


def settle_up(tables: Sequence[Table]) -> SettleUp:
    """Settle ``tables`` together (one table: its own settle-up). RulesError when they cannot be."""
    if not tables:
        raise RulesError(Text(N_("Choose at least one table to settle.")), field="t")
    chosen = list(tables)
    if len(chosen) > 1:
        tables = [t for t in chosen if ledger.rules_of(t).max_players > 1]
        if not tables:
            raise RulesError(
                Text(N_("A patience is played alone and nobody pays: there is nothing to settle.")), field="t"
            )
    games = {t.game for t in tables}
    if any(ledger.rules_of(t).scored for t in tables):
        raise RulesError(Text(N_("Samba is played for points, not payments: there is nothing to settle.")), field="t")
    values = [ledger.chip_value(t) for t in tables]
    in_money = len(tables) > 1 and all(values)
    if len(tables) > 1 and not in_money and (len(games) > 1 or len(set(values)) > 1):
        raise RulesError(
            Text(N_("To settle tables of different games together, give every table a money value per chip or unit.")),
            field="t",
        )
    members = _members(chosen)
    people = _people(chosen, members)
    balances: dict[str, int] = {}
    per_table: dict[str, dict[str, int]] = {}
    left = 0
    for table, value in zip(tables, values):
        totals = ledger.to_settle(table)  # a pot game's chips left on the table shared back
        pot = ledger.on_the_table(table)
        left += int(value * pot * 100) if in_money else pot
        per_table[table.id] = {}
        for seat in table.seats:
            who = people[(table.id, seat.position)]
            amount = totals.get(seat.name, 0)
            amount = int(value * amount * 100) if in_money else amount
            balances[who] = balances.get(who, 0) + amount
            per_table[table.id][who] = amount
    for table in chosen:
        if table not in tables:  # a patience at a club night: its player neither pays nor is paid
            per_table[table.id] = {people[(table.id, seat.position)]: 0 for seat in table.seats}
    value = values[0] if not in_money else None
    money = (
        {who: Decimal(amount) / 100 for who, amount in balances.items()}
        if in_money
        else {who: value * amount for who, amount in balances.items()}
        if value
        else None
    )
    by_name = {m.name: m for m in members}
    payments = []
    for t in fewest_transfers(balances):
        cash = Decimal(t.amount) / 100 if in_money else (value * t.amount if value else None)
        payments.append(Payment(t.payer, t.payee, t.amount, cash, _pix(by_name.get(t.payee), cash)))
    owing = sum(1 for amount in balances.values() if amount)
    return SettleUp(
        tables=tuple(tables),
        game=tables[0].game if len(games) == 1 else "",
        in_money=in_money,
        balances=balances,
        money=money,
        payments=tuple(payments),
        exact=owing <= EXACT_LIMIT,
        owing=owing,
        per_table=per_table,
        left_on_tables=left,
    )


def _members(tables: Sequence[Table]) -> list[Member]:
    ids = {s.member_id for t in tables for s in t.seats if s.member_id is not None}
    return list(db.session.query(Member).filter(Member.id.in_(ids))) if ids else []


def _people(tables: Sequence[Table], members: Sequence[Member]) -> dict[tuple[str, int], str]:
    """Each seat's person: the member's name across several tables; at one table, the name
    played under (what its players saw all evening)."""
    if len(tables) == 1:
        return {(tables[0].id, s.position): s.name for s in tables[0].seats}
    names = {m.id: m.name for m in members}
    return {(t.id, s.position): names.get(s.member_id or -1, s.name) for t in tables for s in t.seats}


def _pix(member: Member | None, cash: Decimal | None) -> dict[str, Any] | None:
    """A static Pix code for a money payment to a member who stored a key."""
    if member is None or not member.pix_key or cash is None or cash <= 0:
        return None
    from referee import pix  # noqa: PLC0415 - only when a key is stored

    code = pix.payload(key=member.pix_key, name=member.name, city=member.pix_city, amount=cash)
    return {
        "payload": code,
        "svg": pix.qr_svg(
            code, label=_("Pix code to pay %(amount)s to %(name)s", amount=fmt_money(cash), name=member.name)
        ),
        "payee": member.name,
        "amount": fmt_money(cash),
    }


def summary(result: SettleUp, *, title: str, when: str) -> str:
    """The settle-up as plain text for a chat message: the result and who pays whom."""
    lines = [f"{title} · {when}"]
    if result.winner:
        lines.append(_("Best result: %(name)s, %(amount)s", name=result.winner, amount=_net(result, result.winner)))
    lines.append("")
    lines.append(_("Results:"))
    for who, _amount in sorted(result.balances.items(), key=lambda item: (-item[1], item[0].casefold())):
        lines.append(f"  {who}: {_net(result, who)}")
    lines.append("")
    if result.payments:
        lines.append(_("Payments:"))
        for p in result.payments:
            lines.append(
                "  "
                + _("%(payer)s pays %(amount)s to %(payee)s", payer=p.payer, payee=p.payee, amount=_amount(result, p))
            )
    else:
        lines.append(_("Nobody owes anything."))
    return "\n".join(lines)


def _net(result: SettleUp, who: str) -> str:
    """A player's net for the summary, with its money in brackets when counted in chips."""
    amount = result.balances[who]
    text = result.signed_text(amount)
    if not result.in_money and result.money is not None and amount:
        text += f" ({fmt_money(result.money[who])})"
    return text


def _amount(result: SettleUp, payment: Payment) -> str:
    if result.in_money:
        return fmt_money(Decimal(payment.amount) / 100)
    text = fmt_int(payment.amount)
    return f"{text} ({fmt_money(payment.money)})" if payment.money is not None else text
