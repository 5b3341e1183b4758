"""A club made from the server's home page, when the server lets anyone make one.

The page asks for the club's name only; the answer shows the club's address (a link and its QR
code) and its code, once: the server keeps only a hash of the code. The new club's managers type
the code at the club's address, as any club's do.
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee import clubs, qr
from referee.club import shown
from referee.extensions import db

bp = Blueprint("new_club", __name__)


def _offered() -> None:
    """Only where the server lets anyone make a club, and only at its root."""
    if not clubs.offers_new_clubs():
        abort(404)


@bp.get("/clubs/new")
def form() -> ResponseReturnValue:
    _offered()
    return render_template("home/new_club.html", name="", error=None)


@bp.post("/clubs/new")
def make() -> ResponseReturnValue:
    _offered()
    name = request.form.get("name", "")
    try:
        made, code = clubs.create_open(name)
    except clubs.ClubRefused as refused:
        db.session.rollback()
        status = 429 if isinstance(refused, clubs.TooMany) else 422
        return render_template("home/new_club.html", name=name[: clubs.NAME_MAX], error=str(refused)), status
    db.session.commit()
    address = f"{request.host_url.rstrip('/')}{clubs.server_root()}/{clubs.SEGMENT}/{made.slug}/"
    return render_template(
        "home/club_made.html",
        club=made,
        address=address,
        code=shown(code),
        qr=qr.svg(address, label=_("QR code of the club's address")),
    )
