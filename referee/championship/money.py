"""The money of a championship day: the fees, the desk's "received" ticks and the cash box.

A championship charges an entry fee and a re-entry fee (either may be zero: no fee, nothing of
this shows). The club has no Pix key of its own in the app (members have theirs, for the
settle-up), so the key that receives a day's fees is set on the championship, with its city for
the BR Code. At the desk each entry and re-entry shows a static Pix code for its fee (the
key and the amount in the code, no payment provider behind it, :mod:`referee.pix`) and a
"received" tick that the desk can take back after a slip; both are lines in the day's history.

Decisions, stated once:

- **Money is a decimal string** ("20", "12.50"), as a table's chip value is: never a float.
- **A tick keeps the amount received**, not a yes: if the fee is changed after some were taken
  (the fees can change at any time), what was received stays what was received, and the cash
  box says so. The history keeps every tick and un-tick with who and when, so the row is never
  the only copy of what was there before.
- **What is due** is, for every entry and every live re-entry, the amount received where it was
  ticked, else the fee now: so due = received + still to receive, whatever the fees did in
  between. A player who withdrew still owes his entry. An absent player (he never turned up)
  owes no entry fee unless it was received. An undone re-entry is not due
  (:func:`live_reentries` is the one place that says which count).
- **The Pix transaction id** names what is paid (``INSC12`` for card number 12's entry,
  ``REENT34`` for re-entry 34), so a treasurer reading the bank statement can match each
  payment to its line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final, Literal

from flask_babel import gettext
from markupsafe import Markup
from sqlalchemy import Select, select

from referee import pix
from referee.db import db
from referee.documents import field, naming
from referee.i18n import fmt_money
from referee.ledger.errors import Conflict
from referee.models import Championship, Entry, Reentry
from referee.rules.errors import InvalidInput, RulesError
from referee.rules.text import N_, Text

from . import history
from .lock import lock

#: The largest fee a championship may charge (the press reports R$20-150 entries).
FEE_MAX: Final = Decimal(10_000)
#: The settings this module reads from a form or a backup, as the model names them.
SETTINGS: Final = ("entry_fee", "reentry_fee", "pix_key", "pix_city")

#: An amount as typed: reais with a comma or a dot before one or two centavos digits, or with
#: the thousands grouped by dots and a comma before the centavos.
_AMOUNT: Final = re.compile(r"[0-9]{1,5}(?:[.,][0-9]{1,2})?")
_GROUPED: Final = re.compile(r"[0-9]{1,2}\.[0-9]{3}(?:,[0-9]{1,2})?")

Kind = Literal["entry", "reentry"]
KINDS: Final[tuple[Kind, ...]] = ("entry", "reentry")


# --------------------------------------------------------------------------- settings


def parse_fee(raw: object, *, field: str) -> str:
    """A fee as typed ("20", "20,00", "R$ 12,50", "1.000,00", empty for none) as a decimal
    string: whole reais stay whole ("20"), centavos keep two decimals ("12.50"). A dot before
    three digits groups thousands ("1.000" is a thousand reais), never centavos."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return "0"
    text = raw.strip().removeprefix("R$").strip() if isinstance(raw, str) else ""
    if _AMOUNT.fullmatch(text) or _GROUPED.fullmatch(text):
        value = Decimal(text.replace(".", "").replace(",", ".") if _GROUPED.fullmatch(text) else text.replace(",", "."))
        if value <= FEE_MAX:
            return format(value.to_integral() if value == value.to_integral() else value.quantize(Decimal("0.01")), "f")
    raise InvalidInput(
        Text(N_("A fee is an amount in reais from 0 to 10,000, such as 20 or 12,50 (at most two decimals).")),
        field=field,
    )


def read_settings(raw: object) -> dict[str, str]:
    """The money settings from a form (or any mapping of the :data:`SETTINGS` names), checked:
    the fees, and the Pix key normalised as the DICT writes it (empty: the desk takes cash only
    and shows no code). Raises RulesError with the field."""
    values: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    fees = {key: parse_fee(values.get(key), field=key) for key in ("entry_fee", "reentry_fee")}
    typed_key = values.get("pix_key")
    typed_city = values.get("pix_city")
    key = pix.normalize_key(typed_key) if isinstance(typed_key, str) and typed_key.strip() else ""
    city = pix.normalize_city(typed_city) if key and isinstance(typed_city, str) and typed_city.strip() else ""
    return {**fees, "pix_key": key, "pix_city": city}


def read_backup(settings: Mapping[str, Any], where: str) -> dict[str, str]:
    """The money settings of a championship in a backup (``where``: its settings' place), checked
    as the form checks them; a backup made before fees existed charges none."""
    raw = {key: field(settings, key, str, where, optional=True) for key in SETTINGS}
    try:
        return read_settings(raw)
    except RulesError as exc:  # a malformed document, whatever the form would call it
        raise InvalidInput(exc.text, field=f"{where}.{exc.field}") from None


def read_paid(item: Mapping[str, Any], where: str) -> str | None:
    """An entry's or a re-entry's fee received, in a backup: None (not received, or a backup
    made before fees existed) or an amount above zero."""
    raw = field(item, "fee_paid", str, where, optional=True)
    if raw is None:
        return None
    with naming(where):
        amount = parse_fee(raw, field="fee_paid")
    if Decimal(amount) <= 0:
        raise InvalidInput(Text(N_("A fee received is more than zero.")), field=f"{where}.fee_paid")
    return amount


def charges(championship: Championship) -> bool:
    """Whether the day charges anything: without a fee the desk and the cash box show nothing."""
    return Decimal(championship.entry_fee) > 0 or Decimal(championship.reentry_fee) > 0


def fee_of(championship: Championship, kind: Kind) -> Decimal:
    return Decimal(championship.entry_fee if kind == "entry" else championship.reentry_fee)


# --------------------------------------------------------------------------- what is due


def live_reentries(championship: Championship) -> Select[tuple[Reentry]]:
    """The re-entries whose fee is due: the one query every count of re-entry money uses (an
    undone re-entry is left out here, and nowhere else)."""
    return select(Reentry).where(Reentry.championship_id == championship.id, Reentry.undone_at.is_(None))


@dataclass(frozen=True)
class Item:
    """One fee at the desk: an entry's, or a re-entry's (``round`` set)."""

    kind: Kind
    ref: int  # the entry's card number, or the re-entry's id
    number: int
    name: str
    round: int | None
    fee: Decimal
    paid: Decimal | None  # what the desk ticked as received
    status: str = ""  # the entry's (:mod:`.status`): "", withdrawn, absent or disqualified

    @property
    def txid(self) -> str:
        return f"INSC{self.ref}" if self.kind == "entry" else f"REENT{self.ref}"

    @property
    def excused(self) -> bool:
        """An absent player's entry fee not received: he never turned up, so it is not due."""
        return self.kind == "entry" and self.status == "absent" and self.paid is None

    @property
    def due(self) -> Decimal:
        """What this line adds to what is due: the amount taken if ticked, else the fee now."""
        if self.paid is not None:
            return self.paid
        return Decimal(0) if self.excused else self.fee


@dataclass(frozen=True)
class CashBox:
    """The treasurer's figures: counts and fees, what is due, received and still to receive."""

    entries: int
    reentries: int
    entry_fee: Decimal
    reentry_fee: Decimal
    items: tuple[Item, ...]

    @property
    def due(self) -> Decimal:
        return self.due_for("entry") + self.due_for("reentry")

    def due_for(self, kind: Kind) -> Decimal:
        """What the entries (or the re-entries) owe: received amounts plus fees still to receive."""
        return sum((i.due for i in self.items if i.kind == kind), Decimal(0))

    def charged(self, kind: Kind) -> int:
        """How many entries (or re-entries) owe a fee: all but the absent players' unpaid entries."""
        return sum(1 for i in self.items if i.kind == kind and not i.excused)

    @property
    def excused(self) -> tuple[Item, ...]:
        """The absent players' entries, not received and not due."""
        return tuple(i for i in self.items if i.excused)

    @property
    def repriced(self) -> bool:
        """Whether some fee was received at another amount than the fee now (the fee changed)."""
        return any(i.paid is not None and i.paid != i.fee for i in self.items)

    @property
    def received(self) -> Decimal:
        return sum((i.paid for i in self.items if i.paid is not None), Decimal(0))

    @property
    def waiting(self) -> tuple[Item, ...]:
        """The fees not received yet, by name (then card number)."""
        left = [i for i in self.items if i.paid is None and i.due > 0]
        return tuple(sorted(left, key=lambda i: (i.name.casefold(), i.number, i.round or 0)))

    @property
    def to_receive(self) -> Decimal:
        return sum((i.due for i in self.waiting), Decimal(0))

    @property
    def taken(self) -> tuple[Item, ...]:
        return tuple(i for i in self.items if i.paid is not None)


def _paid(value: str | None) -> Decimal | None:
    return None if value is None else Decimal(value)


def _entry_item(championship: Championship, entry: Entry) -> Item:
    return Item(
        kind="entry",
        ref=entry.number,
        number=entry.number,
        name=entry.name,
        round=None,
        fee=fee_of(championship, "entry"),
        paid=_paid(entry.fee_paid),
        status=entry.status,
    )


def _reentry_item(championship: Championship, reentry: Reentry, entry: Entry) -> Item:
    return Item(
        kind="reentry",
        ref=reentry.id,
        number=entry.number,
        name=entry.name,
        round=reentry.round,
        fee=fee_of(championship, "reentry"),
        paid=_paid(reentry.fee_paid),
        status=entry.status,
    )


def cash_box(championship: Championship) -> CashBox:
    """Every fee of the day in card-number order (an entry, then its re-entries by round)."""
    entries = list(db.session.scalars(select(Entry).where(Entry.championship_id == championship.id)))
    by_id = {e.id: e for e in entries}
    again = list(db.session.scalars(live_reentries(championship).order_by(Reentry.round, Reentry.id)))
    items = [_entry_item(championship, e) for e in entries]
    items += [_reentry_item(championship, r, by_id[r.entry_id]) for r in again]
    items.sort(key=lambda i: (i.number, i.kind != "entry", i.round or 0, i.ref))
    return CashBox(
        entries=len(entries),
        reentries=len(again),
        entry_fee=fee_of(championship, "entry"),
        reentry_fee=fee_of(championship, "reentry"),
        items=tuple(items),
    )


def find(championship: Championship, kind: str, ref: int) -> tuple[Entry, Reentry | None] | None:
    """The entry (by card number) or live re-entry (by id) a desk line names, or None."""
    if kind == "entry":
        entry = db.session.scalar(select(Entry).where(Entry.championship_id == championship.id, Entry.number == ref))
        return None if entry is None else (entry, None)
    if kind == "reentry":
        reentry = db.session.scalar(live_reentries(championship).where(Reentry.id == ref))
        if reentry is None:
            return None
        entry = db.session.get(Entry, reentry.entry_id)
        assert entry is not None
        return entry, reentry
    return None


def item(championship: Championship, kind: str, ref: int) -> Item | None:
    found = find(championship, kind, ref)
    if found is None:
        return None
    entry, reentry = found
    return _entry_item(championship, entry) if reentry is None else _reentry_item(championship, reentry, entry)


# --------------------------------------------------------------------------- the desk


def mark(championship: Championship, kind: str, ref: int, *, received: bool, actor: str = "") -> Item:
    """Tick a fee as received (the current fee) or take the tick back (committed), with its line
    in the day's history. A tick twice, or an un-tick of nothing, is a Conflict (two phones at
    the desk): nothing changes. LookupError for a line that does not exist."""
    lock(championship)
    found = find(championship, kind, ref)
    if found is None:
        raise LookupError(ref)
    entry, reentry = found
    row: Entry | Reentry = entry if reentry is None else reentry
    fee = fee_of(championship, "entry" if reentry is None else "reentry")
    if fee <= 0 and received:
        raise RulesError(Text(N_("This championship charges no such fee.")), field="received")
    if (row.fee_paid is not None) == received:
        raise Conflict(
            Text(N_("%(name)s's fee is already marked received."), name=entry.name)
            if received
            else Text(N_("%(name)s's fee was not marked received."), name=entry.name)
        )
    amount = format(fee, "f") if received else row.fee_paid
    row.fee_paid = amount if received else None
    what = "entry" if reentry is None else "reentry"
    history.record(
        championship,
        f"{what}_fee_{'received' if received else 'unticked'}",
        actor=actor,
        entry=entry,
        round=None if reentry is None else reentry.round,
        amount=amount,
    )
    db.session.commit()
    result = item(championship, what, ref)
    assert result is not None
    return result


def pix_code(championship: Championship, line: Item) -> dict[str, Any] | None:
    """The static Pix code (text and QR) for a fee at the championship's key, or None without a
    key or a fee."""
    if not championship.pix_key or line.fee <= 0:
        return None
    code = pix.payload(
        key=championship.pix_key,
        name=championship.name,
        city=championship.pix_city,
        amount=line.fee,
        txid=line.txid,
    )
    label = gettext("Pix code to pay %(amount)s for %(name)s", amount=fmt_money(line.fee), name=line.name)
    svg: Markup = pix.qr_svg(code, label=label)
    return {"payload": code, "svg": svg}
