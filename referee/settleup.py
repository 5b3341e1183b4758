"""The settle-up as the pages show it: each payment's Pix code, and the text to share.

The arithmetic (one table, or a club night's tables settled together) is the ledger's
(:mod:`referee.ledger.settlement`); this adds what only the pages need: a static Pix code for a
money payment to a member who stored a key, and the summary to paste in the group chat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from referee import ledger
from referee.i18n import fmt_int, fmt_money, isolate
from referee.ledger.settlement import ChipsLeft, Payment, SettleUp
from referee.models import Member, Table

__all__ = ["Payment", "SettleUp", "chips_left_sentence", "settle_up", "summary"]


def settle_up(tables: Sequence[Table]) -> SettleUp:
    """Settle ``tables`` together (one table: its own settle-up), each money payment to a member
    who stored a Pix key with its code. RulesError when they cannot be settled."""
    chosen = list(tables)
    members = ledger.members_of(chosen)
    result = ledger.settle_up(chosen, members=members)
    by_name = {m.name: m for m in members}
    payments = tuple(replace(p, pix=pix_code(by_name.get(p.payee), p.money)) for p in result.payments)
    return replace(result, payments=payments)


def pix_code(member: Member | None, cash: Decimal | None) -> dict[str, Any] | None:
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


def chips_left_sentence(left: ChipsLeft, mark: Callable[[str], str] = isolate) -> str:
    """Where the chips still on a pot game's table are and who gets which if the night ends now:
    the one sentence every page showing balances or payments, and the chat summary, say
    (templates/settle/_chips_left.html). ``mark`` isolates each name: ``isolate`` for plain text,
    ``referee.i18n.bdi`` for a page (which then holds only marked names and our own words)."""
    shares = ", ".join(_("%(num)s to %(name)s", num=fmt_int(num), name=mark(name)) for name, num in left.shares)
    return ngettext(
        "%(num)s chip is on the table, won by nobody yet. If the night ends now, it goes back to the players before paying: %(shares)s (equal shares; a chip left over goes in order of play, from %(first)s, who plays first now).",
        "%(num)s chips are on the table, won by nobody yet. If the night ends now, they go back to the players before paying: %(shares)s (equal shares; chips left over go one each in order of play, from %(first)s, who plays first now).",
        left.chips,
        shares=shares,
        first=mark(left.first),
    )


def summary(result: SettleUp, *, title: str, when: str) -> str:
    """The settle-up as plain text for a chat message: the result and who pays whom. Every name
    (and the title) is isolated (:func:`referee.i18n.isolate`): nothing in one can reorder a line."""
    lines = [f"{isolate(title)} · {when}"]
    if result.winner:
        lines.append(
            _("Best result: %(name)s, %(amount)s", name=isolate(result.winner), amount=_net(result, result.winner))
        )
    lines.append("")
    lines.append(_("Results:"))
    for who in sorted(result.balances, key=lambda name: (-result.balances[name], name.casefold())):
        lines.append(f"  {isolate(who)}: {_net(result, who)}")
    for table in result.tables:
        if table.id in result.chips_left:
            where = f"{isolate(table.name)}: " if table.name and len(result.tables) > 1 else ""
            lines.append(where + chips_left_sentence(result.chips_left[table.id]))
    lines.append("")
    if result.payments:
        lines.append(_("Payments:"))
        for p in result.payments:
            lines.append(
                "  "
                + _(
                    "%(payer)s pays %(amount)s to %(payee)s",
                    payer=isolate(p.payer),
                    payee=isolate(p.payee),
                    amount=_amount(result, p),
                )
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
