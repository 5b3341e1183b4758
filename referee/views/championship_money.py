"""The money desk and the cash box of a championship (the club's code): each fee's Pix code with
its "received" tick, and the treasurer's page and CSV (:mod:`referee.championship.money`).

Every page here is the manager's: a fee's Pix code is no secret, but who paid and who has not is
the club's business, not the room's.
"""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Callable
from decimal import Decimal

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee.championship import money
from referee.championship.status import MARKS
from referee.documents import csv_cell
from referee.i18n import fmt_money, render_text
from referee.ledger import Conflict
from referee.models import Championship
from referee.rules.errors import RulesError
from referee.views import organiser
from referee.views.championship_manage_page import desk_line
from referee.views.championship_pages import load

bp = Blueprint("championship_money", __name__)

#: Where a tick sends the desk back to.
BACK = ("manage", "cashbox", "desk")


@bp.get("/c/<championship_id>/cashbox")
def cash_box(championship_id: str) -> ResponseReturnValue:
    """The treasurer's page: what is due, received and still to receive, by name."""
    found = load(championship_id)
    if (away := organiser.manager_only()) is not None:
        return away
    return _cash_box_page(found)


@bp.get("/c/<championship_id>/cashbox.csv")
def cash_box_csv(championship_id: str) -> ResponseReturnValue:
    """The cash box as CSV (RFC 4180, CRLF): one line per fee (what, card number, name, round,
    due, received, to receive, the player's status; amounts with a dot and two decimals), then
    the totals. A line's due is what was received if ticked, else the fee now (nothing for an
    absent player's entry), so the columns add up whatever the fees did."""
    found = load(championship_id)
    organiser.require_manager()
    box = money.cash_box(found)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["what", "number", "name", "round", "due", "received", "to_receive", "status"])
    for line in box.items:
        waiting = line.due if line.paid is None else Decimal(0)
        writer.writerow(
            [
                line.kind,
                line.number,
                csv_cell(line.name),
                line.round or "",
                *map(_cents, (line.due, line.paid, waiting)),
                line.status,
            ]
        )
    writer.writerow(["total", "", "", "", _cents(box.due), _cents(box.received), _cents(box.to_receive), ""])
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="cashbox-{found.id[:8]}.csv"'
    response.headers["Cache-Control"] = "no-store"
    return response


def _money_text() -> Callable[[Decimal], str]:
    """:func:`~referee.i18n.fmt_money` remembered for one page: Babel takes a millisecond an
    amount, and the cash box of a 300-player day prints the same two fees hundreds of times."""
    return functools.cache(fmt_money)


def _cents(value: Decimal | None) -> str:
    return "" if value is None else f"{value:.2f}"


@bp.route("/c/<championship_id>/desk/<kind>/<int:ref>", methods=["GET", "POST"])
def desk(championship_id: str, kind: str, ref: int) -> ResponseReturnValue:
    """GET: one fee at the desk, its Pix code, big, and its tick. POST: the tick (:func:`tick`).
    One rule for both, so that a number too large for the database is a 404 for either (two
    rules on one path answer 405 when the number's converter refuses it)."""
    if request.method == "POST":
        return tick(championship_id, kind, ref)
    found = load(championship_id)
    if (away := organiser.manager_only()) is not None:
        return away
    line = money.item(found, kind, ref) if money.charges(found) else None
    if line is None:
        abort(404)
    return render_template("championship/desk.html", champ=found, card=desk_line(found, line, "desk"))


def tick(championship_id: str, kind: str, ref: int) -> ResponseReturnValue:
    """Tick a fee as received (``received=1``) or take the tick back (``received=0``)."""
    found = load(championship_id)
    organiser.require_manager()
    received = request.form.get("received")
    if received not in ("0", "1"):
        return _refused(found, _("Say whether the fee was received."), 422)
    back = request.form.get("back") if request.form.get("back") in BACK else "cashbox"
    try:
        line = money.mark(found, kind, ref, received=received == "1", actor=organiser.actor())
    except LookupError:
        abort(404)
    except RulesError as exc:
        return _refused(found, render_text(exc.text), 422)
    except Conflict as exc:
        return _refused(found, render_text(exc.text), 409)
    if received == "1":
        flash(_("Received: %(amount)s from %(name)s.") % {"amount": fmt_money(line.fee), "name": line.name}, "success")
    else:
        flash(_("%(name)s's fee is no longer marked received.") % {"name": line.name}, "success")
    if back == "manage":
        anchor = "register" if kind == "entry" else "reentry"
        return redirect(url_for("championship_manage.manage", championship_id=found.id, _anchor=anchor))
    if back == "desk":
        return redirect(url_for("championship_money.desk", championship_id=found.id, kind=kind, ref=ref))
    return redirect(url_for("championship_money.cash_box", championship_id=found.id))


def _refused(found: Championship, error: str, status: int) -> ResponseReturnValue:
    return _cash_box_page(found, error), status


def _cash_box_page(found: Championship, error: str | None = None) -> str:
    box = money.cash_box(found)
    return render_template(
        "championship/cashbox.html",
        champ=found,
        box=box,
        charges=money.charges(found),
        brl=_money_text(),
        marks=MARKS,
        error=error,
    )
