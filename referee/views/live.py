"""Live pages: every phone watching a table sees a new hand within two seconds.

Polling with conditional requests, chosen over server-sent events by measuring (see the note
and ``make bench``): the production server runs a few synchronous workers, and an open event
stream holds a worker per watcher, so fifty watchers would need fifty workers; a poll that
answers ``304 Not Modified`` costs one indexed read and about a hundred bytes. Pages that show a
table carry ``data-live-version`` (this endpoint) and the version they were drawn at; app.js asks
every 1.5 s while the page is visible, and redraws the page when the version moved. The version
is the table row's (``Table.version``), which every write moves on.
"""

from __future__ import annotations

from flask import Blueprint, render_template
from flask.typing import ResponseReturnValue

from referee.views.phone_tables import load, remember_seen
from referee.views.polling import table_version
from referee.views.table_page import board

bp = Blueprint("live", __name__)


@bp.get("/t/<table_id>/version")
def version(table_id: str) -> ResponseReturnValue:
    """The table's version, with an ETag, so an unchanged table answers 304 with no body."""
    return table_version(load(table_id))


@bp.get("/tv/<table_id>")
def tv(table_id: str) -> ResponseReturnValue:
    """The scoreboard in very large type for a shared screen or a phone propped on the table:
    dark by default, the screen kept awake where the browser allows it, nothing that writes."""
    table = load(table_id)
    remember_seen(table)
    data = board(table)
    data["can_score"] = False
    return render_template("tables/tv.html", **data)
