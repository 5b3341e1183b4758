"""The API's blueprint and what every API module shares: the error answer, the JSON body, the
table loader with its token check. Kept apart from the routes so that the modules adding routes
(championships; Koziri's helpers, which live with the game in referee.views.games.koziri) import
it without importing the package that imports them."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import Blueprint, Response, g, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee import access, ledger
from referee.errorpages import Refused, revoked_sentence
from referee.extensions import csrf
from referee.i18n import in_locale, render_text
from referee.models import Table
from referee.rules.errors import InvalidInput, RulesError

bp = Blueprint("api", __name__)
csrf.exempt(bp)  # the API authenticates writes with a bearer token, not a cookie

F = TypeVar("F", bound=Callable[..., ResponseReturnValue])


def error(status: int, code: str, message: str, field: str | None = None) -> tuple[Response, int]:
    body: dict[str, Any] = {"code": code, "message": message}
    if field:
        body["field"] = field
    return jsonify({"error": body}), status


def rules_error(exc: RulesError, locale: str = "pt_BR") -> tuple[Response, int]:
    status = 400 if isinstance(exc, InvalidInput) else 422
    with in_locale(locale):
        return error(status, exc.code, render_text(exc.text), exc.field)


def json_body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadBody()
    return body


class BadBody(Exception):
    pass


def query_locale() -> str:
    """The ``?language=`` of an endpoint without a table (pt-BR when absent). The document
    declares it an enum: any other value, an empty one too, is refused rather than read as
    the default, so that a misspelt language is noticed."""
    raw = request.args.get("language")
    if raw is None:
        return "pt_BR"
    if raw not in ledger.LOCALES:
        raise Refused(_("The language must be pt-BR or en."), field="language")
    return ledger.LOCALES[raw]


def with_table(write: bool) -> Callable[[F], F]:
    """Load the table (404), check the scorer token for writes (401), map errors to answers."""

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapper(table_id: str, **kwargs: Any) -> ResponseReturnValue:
            try:
                table = ledger.get_table(table_id)
            except ledger.NotFound:
                return error(404, "not_found", _("There is no table with this id."))
            with in_locale(table.locale):
                grant = access.grant(table, _bearer())
                if write and not grant.can_score:
                    return error(
                        401,
                        "unauthorized",
                        revoked_sentence()
                        if access.revoked(table, _bearer())
                        else _("Writing to this table needs its scorer token (Authorization: Bearer …)."),
                    )
                g.grant = grant
                g.actor = access.actor(grant, via="api")
                try:
                    return view(table, **kwargs)
                except BadBody:
                    return error(400, "invalid_input", _("The body must be a JSON object."))
                except RulesError as exc:
                    return rules_error(exc, table.locale)
                except ledger.Conflict as exc:
                    body = {"code": "conflict", "message": render_text(exc.text)}
                    if exc.current is not None:
                        body["current_number"] = exc.current
                    return jsonify({"error": body}), 409
                except ledger.NotFound:
                    return error(404, "not_found", _("There is no such hand at this table."))

        return wrapper  # type: ignore[return-value]

    return decorate


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _sep, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def urls(table: Table) -> dict[str, str]:
    return {
        "table": url_for("tables.show", table_id=table.id, _external=True),
        "watch": url_for("tables.watch", table_id=table.id, _external=True),
    }


def judge_body(
    judge: Callable[[dict[str, Any]], dict[str, Any]],
    locale_of: Callable[[dict[str, Any], str], str] | None = None,
) -> ResponseReturnValue:
    """A stateless helper's answer (nothing stored, no token): the body parsed in the query's
    language, ``judge`` run in ``locale_of(body, that language)`` (a named table's, say), its
    refusals mapped to the API's errors."""
    locale = query_locale()
    with in_locale(locale):
        try:
            body = json_body()
        except BadBody:
            return error(400, "invalid_input", _("The body must be a JSON object."))
    if locale_of is not None:
        locale = locale_of(body, locale)
    with in_locale(locale):
        try:
            return jsonify(judge(dict(body)))
        except ledger.NotFound:
            return error(404, "not_found", _("There is no table with this id."))
        except RulesError as exc:
            return rules_error(exc, locale)
