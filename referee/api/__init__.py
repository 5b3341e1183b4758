"""The JSON API (v1, described in docs/api.md): tables, hands, voids, settlement and the OpenAPI document.

Every handler is thin: parse the body, call one ledger function, answer. Errors of the rules
engine become 400/422 with the engine's sentence in the table's language; nothing is stored
when a write is refused (the ledger validates before it writes).
"""

from __future__ import annotations

from flask import Response, g, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import force_locale
from flask_babel import gettext as _
from werkzeug.exceptions import RequestEntityTooLarge

from referee import club, exports, guesses, import_claim, inputs, league, ledger, ratings
from referee.i18n import render_text
from referee.models import Table
from referee.rules import GAMES
from referee.rules.errors import InvalidInput, RulesError
from referee.rules.text import N_, Text

from . import answers, championships  # noqa: F401 (their routes go on bp)
from .blueprint import (  # noqa: F401 (the API's shared helpers, imported from here by older code)
    BadBody,
    bp,
    error,
    json_body,
    judge_body,
    query_locale,
    rules_error,
    urls,
    with_table,
)
from .melds import meld_answer
from .openapi import document


@bp.get("/openapi.json")
def openapi() -> ResponseReturnValue:
    return jsonify(document())


@bp.post("/tables")
def create_table() -> ResponseReturnValue:
    try:
        body = json_body()
    except BadBody:
        return error(400, "invalid_input", _("The body must be a JSON object."))
    locale = ledger.LOCALES.get(str(body.get("language")), "pt_BR")
    allowed = {"game", "players", "dealer", "name", "options", "teams", "language", "two_key", "duration_minutes"}
    unknown = sorted(set(body) - allowed)
    try:
        if unknown:
            raise InvalidInput(Text(N_("A table has no field called %(name)s."), name=unknown[0]), field=unknown[0])
        if "game" not in body or "players" not in body:
            missing = "game" if "game" not in body else "players"
            with force_locale(locale):  # the language asked for, like every other error here
                return error(400, "invalid_input", _("The field %(name)s is required.", name=missing), missing)
        table, token = ledger.create_table(
            game=body["game"],
            players=body["players"],
            dealer=body.get("dealer"),
            name=body.get("name"),
            options=body.get("options"),
            locale=body.get("language"),
            teams=body.get("teams"),
            two_key=body.get("two_key", False),
            duration=body.get("duration_minutes"),
        )
    except RulesError as exc:
        return rules_error(exc, locale)
    return _created(table, token)


def _created(table: Table, token: str) -> ResponseReturnValue:
    """The ``201`` of a new table: the table as created, with its scorer token (shown once)."""
    answer = answers.table_answer(table, urls=urls(table))
    keys = (
        "id",
        "game",
        "name",
        "players",
        "teams",
        "options",
        "language",
        "stock",
        "next_dealer",
        "follows",
        "two_key",
        "urls",
    )
    answer = {key: answer[key] for key in keys}
    answer["token"] = token
    response = jsonify(answer)
    response.status_code = 201
    response.headers["Location"] = url_for("api.get_table", table_id=table.id)
    return response


@bp.post("/tables/<table_id>/rematch")
@with_table(write=True)
def rematch(table: Table) -> ResponseReturnValue:
    """A new match with the same players, teams and options, once this one is over (extension)."""
    new, token = ledger.rematch(table)
    return _created(new, token)


@bp.post("/samba/meld-check")
def meld_check() -> ResponseReturnValue:
    """Judge Samba melds and, given the team's total or the minimum, an opening (extension).

    With ``"table"`` (an id) and ``"team"`` (an index), the minimum is that team's at the table,
    under the table's house rules. Nothing is stored and no token is needed."""
    return judge_body(meld_answer)


@bp.get("/tables/<table_id>")
@with_table(write=False)
def get_table(table: Table) -> ResponseReturnValue:
    return jsonify(answers.table_answer(table, urls=urls(table)))


@bp.post("/tables/<table_id>/hands")
@with_table(write=True)
def record_hand(table: Table) -> ResponseReturnValue:
    body = json_body()
    record = {k: v for k, v in body.items() if k not in ("expected_number", "replaces", "reason")}
    key = request.headers.get("Idempotency-Key") or None
    if key is not None and (not 1 <= len(key) <= 100 or not key.isprintable()):
        raise InvalidInput(
            Text(N_("The Idempotency-Key header must have 1 to 100 printable characters.")), field="Idempotency-Key"
        )
    reason = body.get("reason", "")
    if not isinstance(reason, str):
        raise InvalidInput(Text(N_("The reason must be text.")), field="reason")
    number, saved, replayed = ledger.record_hand(
        table,
        record,
        expected_number=body.get("expected_number"),
        actor=g.actor,
        idempotency_key=key,
        replaces=body.get("replaces"),
        reason=reason,
    )
    response = jsonify(answers.saved_answer(table, saved))
    response.status_code = 201
    response.headers["Location"] = url_for("api.get_hand", table_id=table.id, number=number)
    if replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


@bp.post("/tables/<table_id>/hands/preview")
@with_table(write=False)
def preview_hand(table: Table) -> ResponseReturnValue:
    """Judge a record and answer what it would settle, storing nothing (no token needed)."""
    body = json_body()
    return jsonify(answers.preview_answer(table, ledger.preview_hand(table, body)))


@bp.get("/tables/<table_id>/hands/<int:number>")
@with_table(write=False)
def get_hand(table: Table, number: int) -> ResponseReturnValue:
    hand = ledger.get_hand(table, number)
    if hand is None:
        raise ledger.NotFound()
    return jsonify(answers.hand_answer(table, hand))


@bp.post("/tables/<table_id>/hands/<int:number>/void")
@with_table(write=True)
def void_hand(table: Table, number: int) -> ResponseReturnValue:
    body = request.get_json(silent=True) if request.data else {}
    if not isinstance(body, dict):
        raise BadBody()
    reason = body.get("reason", "")
    if not isinstance(reason, str):
        raise InvalidInput(Text(N_("The reason must be text.")), field="reason")
    hand = ledger.void_hand(table, number, owner=g.grant.is_owner, reason=reason, actor=g.actor)
    return jsonify(answers.void_answer(table, hand))


@bp.post("/tables/<table_id>/hands/<int:number>/confirm")
@with_table(write=True)
def confirm_hand(table: Table, number: int) -> ResponseReturnValue:
    """Two-key entry: confirm a hand recorded by another client (extension)."""
    hand = ledger.confirm_hand(table, number, actor=g.actor)
    return jsonify(answers.hand_answer(table, hand))


@bp.post("/tables/<table_id>/hands/<int:number>/dispute")
@with_table(write=True)
def dispute_hand(table: Table, number: int) -> ResponseReturnValue:
    """Two-key entry: flag a hand for the owner (extension)."""
    body = request.get_json(silent=True) if request.data else {}
    if not isinstance(body, dict):
        raise BadBody()
    hand = ledger.dispute_hand(table, number, actor=g.actor, reason=body.get("reason", ""))
    return jsonify(answers.hand_answer(table, hand))


@bp.get("/tables/<table_id>/settlement")
@with_table(write=False)
def settlement(table: Table) -> ResponseReturnValue:
    return jsonify(ledger.settlement(table))


# --------------------------------------------------------------------------- exports and import


#: An import carries whole tables, far more than the app's MAX_CONTENT_LENGTH (64 KB, sized
#: for a hand) lets through; this endpoint alone accepts up to 1 MB (some 3,000 hands), which
#: an import judges and stores in well under gunicorn's 30 s limit for a request even on a busy
#: machine (tests/bench/bench_import.py). A bigger history goes through the command line
#: (``flask --app referee import FILE``), which has no such limit.
IMPORT_MAX_BYTES = 1024 * 1024
#: The header that carries the club's code (referee.club) for an import.
CLUB_CODE_HEADER = "X-Referee-Club-Code"


def _export(tables: list[Table], stem: str, *, as_csv: bool) -> Response:
    """The tables as an export (JSON) or as CSV, offered as a file to save (``stem`` holds only
    letters, digits, - and _)."""
    if as_csv:
        response = Response(exports.tables_csv(tables), mimetype="text/csv")
    else:
        response = jsonify(exports.export_tables(tables))
    response.headers["Content-Disposition"] = f'attachment; filename="{stem}.{"csv" if as_csv else "json"}"'
    return response


@bp.get("/tables/<table_id>/export")
@with_table(write=False)
def export_table(table: Table) -> ResponseReturnValue:
    """The table and its hands, lossless, for import elsewhere (no secrets; extension)."""
    return _export([table], f"referee-{table.id}", as_csv=False)


@bp.get("/tables/<table_id>/export.csv")
@with_table(write=False)
def export_table_csv(table: Table) -> ResponseReturnValue:
    """One row per player per hand, for spreadsheets (extension)."""
    return _export([table], f"referee-{table.id}", as_csv=True)


def _club_code_refusal(refusal: str, *, phone_may: bool) -> tuple[Response, int] | None:
    """The error answer when the request lacks the club's code (None: go on). The code comes in
    the CLUB_CODE_HEADER header, or, where ``phone_may``, from a phone that typed it at /club
    (its session cookie). Wrong codes are counted like those typed at /club (referee.guesses)."""
    if phone_may and club.is_manager():
        return None
    checked = club.check(request.headers.get(CLUB_CODE_HEADER))
    if checked is club.Check.RIGHT:
        return None
    if checked is club.Check.TOO_MANY:
        return error(
            429, "too_many_tries", _("Too many wrong club codes were sent from here. Wait ten minutes and try again.")
        )
    if checked is club.Check.TOO_MANY_SHARED:
        return error(429, "too_many_tries", guesses.shared_sentence())
    return error(401, "unauthorized", refusal)


def _season_export(season_id: int, *, as_csv: bool) -> ResponseReturnValue:
    """A season's tables, their ids included: an id is the permission to read a table (and its
    payees' Pix keys), so the whole season is the club's business, like an import."""
    refused = _club_code_refusal(
        _("A season's export needs the club's code in the %(header)s header.", header=CLUB_CODE_HEADER), phone_may=True
    )
    if refused is not None:
        return refused
    season = league.get_season(season_id)
    if season is None:
        return error(404, "not_found", _("There is no season with this id."))
    return _export(exports.season_tables(season), f"referee-season-{season_id}", as_csv=as_csv)


@bp.get("/seasons/<int:season_id>/export")
def export_season(season_id: int) -> ResponseReturnValue:
    """Every table of a season as one export (extension)."""
    return _season_export(season_id, as_csv=False)


@bp.get("/seasons/<int:season_id>/export.csv")
def export_season_csv(season_id: int) -> ResponseReturnValue:
    return _season_export(season_id, as_csv=True)


@bp.get("/league/<game>/standings")
def standings(game: str) -> ResponseReturnValue:
    """A game's standings over a season (``?season=<id>``; all time without it), in the order
    the page gives, each row with the member's rating (extension, for a league's own site)."""
    if game not in GAMES:
        return error(404, "not_found", _("There is no game called %(name)s.", name=game[:40]))
    raw = request.args.get("season")
    season = None
    if raw is not None:
        season = league.get_season(inputs.database_id(raw))
        if season is None:
            return error(404, "not_found", _("There is no season with this id."))
    rows = league.standings(game, season)
    ratings.catch_up(game)
    rated = {r.member_id: r for r in ratings.table(game, fresh=False)}
    return jsonify(
        {
            "game": game,
            "season": {
                "id": season.id,
                "name": season.name,
                "starts_on": season.starts_on.isoformat(),
                "ends_on": season.ends_on.isoformat(),
            }
            if season
            else None,
            "standings": [
                {
                    **row.as_json(),
                    "rank": i,
                    "rating": rated[row.member_id].as_json() if row.member_id in rated else None,
                }
                for i, row in enumerate(rows, start=1)
            ],
        }
    )


@bp.post("/import")
def import_tables() -> ResponseReturnValue:
    """Rebuild the tables of an export, every hand judged again; answers each table's id and a
    new owner token (an export carries none). All or nothing (extension)."""
    request.max_content_length = IMPORT_MAX_BYTES
    locale = query_locale()
    with force_locale(locale):
        # An import may put tables (and their results) into any season: the club decides. The
        # header only: a cookie would let another page on the LAN post an import from a manager's
        # phone (the API takes no CSRF token).
        refused = _club_code_refusal(
            _("Importing tables needs the club's code in the %(header)s header.", header=CLUB_CODE_HEADER),
            phone_may=False,
        )
        if refused is not None:
            return refused
        try:
            made = exports.import_tables(json_body())
        except RequestEntityTooLarge:
            return error(
                413,
                "payload_too_large",
                _(
                    "An import sent over the network holds at most %(size)s MB. Import a larger file on the server itself, with the command flask --app referee import FILE.",
                    size=IMPORT_MAX_BYTES // (1024 * 1024),
                ),
            )
        except BadBody:
            return error(400, "invalid_input", _("The body must be a JSON object."))
        except RulesError as exc:
            return rules_error(exc, locale)
        except ledger.Conflict as exc:
            return error(409, "conflict", render_text(exc.text))
        except import_claim.Busy:
            body, status = error(429, "busy", import_claim.busy_sentence())
            body.headers["Retry-After"] = str(import_claim.RETRY_AFTER)
            return body, status
    response = jsonify([{"id": table.id, "token": token} for table, token in made])
    response.status_code = 201
    return response
