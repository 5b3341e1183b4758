"""The export and import page: a table's, a season's and the whole club's data out of the app,
and an export back in, with buttons and a sentence each instead of addresses and curl.

Downloads are the API's own endpoints (referee.api: a table's export needs only its id, a
season's the club's code), so who may take what is decided there, once. Two things only this
page does: a full backup (referee.exports.backup) for a phone unlocked with the club's code,
and an import from a file chosen on the phone, for that phone only, with the form's CSRF token
standing in for the API's header (a cookie alone must not let another page post an import).
An import is all or nothing (referee.exports.import_tables): a refusal shows its sentence and
stores nothing; so does an import sent while another runs (one at a time: referee.import_claim).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from flask import Blueprint, Response, abort, current_app, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.exceptions import RequestEntityTooLarge

from referee import club, exports, import_claim, league, ledger
from referee.api import IMPORT_MAX_BYTES
from referee.extensions import csrf
from referee.i18n import render_text
from referee.inputs import parse_json
from referee.models import Table
from referee.rules import get_game
from referee.rules.errors import InvalidInput, RulesError
from referee.views.phone_tables import load, remember_token

bp = Blueprint("transfers", __name__)

#: Room in an upload's body for what surrounds the file (the form's boundaries and token).
FORM_OVERHEAD = 16 * 1024


@bp.get("/exports")
def index() -> ResponseReturnValue:
    """The page; ``?t=<table id>`` (from a table's page) offers that table's downloads too."""
    return _page()


def _page(status: int = 200, **result: object) -> tuple[str, int]:
    raw = request.args.get("t", "")
    table: Table | None = load(raw) if raw else None
    manager = club.is_manager()
    return render_template(
        "exports/index.html",
        table=table,
        table_name=(table.name or get_game(table.game).name) if table else "",
        seasons=league.seasons() if manager else [],
        manager=manager,
        max_mb=IMPORT_MAX_BYTES // (1024 * 1024),
        **result,
    ), status


@bp.get("/exports/backup")
def backup() -> ResponseReturnValue:
    """Everything, secrets included (token hashes, Pix keys): for the club's code only. A join code
    still open is left out (exports.backup)."""
    if not club.is_manager():
        abort(403)
    response = Response(json.dumps(exports.backup(live_codes=False), ensure_ascii=False), mimetype="application/json")
    stamp = league.local_date(datetime.now(UTC)).isoformat()
    response.headers["Content-Disposition"] = f'attachment; filename="referee-backup-{stamp}.json"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/exports/import")
@csrf.exempt  # checked below, once the body may be as large as an import
def import_file() -> ResponseReturnValue:
    """An export chosen on the phone, rebuilt hand by hand; this phone keeps each new table's
    owner token, and the page lists them so none is lost."""
    if not club.is_manager():
        abort(403)
    request.max_content_length = IMPORT_MAX_BYTES + FORM_OVERHEAD
    try:
        if current_app.config["WTF_CSRF_ENABLED"]:
            csrf.protect()
        upload = request.files.get("file")
        data = upload.read(IMPORT_MAX_BYTES + 1) if upload else b""
        if len(data) > IMPORT_MAX_BYTES:
            raise RequestEntityTooLarge()
    except RequestEntityTooLarge:
        return _refused(
            413,
            _(
                "An import sent over the network holds at most %(size)s MB. Import a larger file on the server itself, with the command flask --app referee import FILE.",
                size=IMPORT_MAX_BYTES // (1024 * 1024),
            ),
        )
    if not data:
        return _refused(400, _("Choose the file to import."))
    try:
        document = parse_json(data)
    except InvalidInput as exc:  # text no database can hold, or nested past any record
        return _refused(400, render_text(exc.text))
    except ValueError:  # not JSON, not UTF-8
        return _refused(400, _("This file is not an export of Referee: choose the .json file a download gave you."))
    try:
        made = exports.import_tables(document)
    except RulesError as exc:
        return _refused(400 if isinstance(exc, InvalidInput) else 422, render_text(exc.text))
    except ledger.Conflict as exc:
        return _refused(409, render_text(exc.text))
    except import_claim.Busy:
        return _busy()
    for table, token in made:
        remember_token(table, token)
    return _page(imported=[(t, t.name or get_game(t.game).name, token) for t, token in made])


def _busy() -> ResponseReturnValue:
    """Another import holds the claim (referee.import_claim): the page with the sentence, and a
    Retry-After a script can follow."""
    page, status = _refused(429, import_claim.busy_sentence())
    return page, status, {"Retry-After": str(import_claim.RETRY_AFTER)}


def _refused(status: int, sentence: str) -> tuple[str, int]:
    """The page again with the sentence; the import stored nothing."""
    return _page(status, import_error=sentence)
