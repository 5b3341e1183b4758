"""App-wide error handlers: a friendly HTML page, or the API's JSON error under /api/.

A request whose ``Host`` header is malformed, or not one the config trusts (``TRUSTED_HOSTS``),
is answered here too, with a 400 and a sentence: werkzeug would otherwise raise while Flask sets
the request up, outside every handler (a bare 500), or serve the page with links and QR codes
drawn from an empty host ("http:///t/…").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadRequest, Forbidden, HTTPException, InternalServerError, NotFound, SecurityError
from werkzeug.sansio.utils import host_is_trusted

from referee import clubs

CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    422: "unprocessable",
    429: "too_many_requests",
    500: "internal_error",
}


class Refused(BadRequest):
    """A 400 that says what was wrong in its own sentence (already in the language in force
    where it was raised), for a refusal made before any view runs: a body, a query parameter.
    ``field`` names the parameter, as the API's errors do."""

    def __init__(self, sentence: str, field: str | None = None) -> None:
        super().__init__(description=sentence)
        self.sentence = sentence
        self.field = field


class Missing(NotFound):
    """A 404 whose page says what is missing and what to do, in its own sentence."""

    def __init__(self, sentence: str) -> None:
        super().__init__(description=sentence)
        self.sentence = sentence


class Revoked(Forbidden):
    """A 403 for a phone whose way in to a table its owner revoked: a page that says so and what
    to do (ask for a new code; follow the table read-only meanwhile), not an error code."""

    def __init__(self, table_id: str) -> None:
        super().__init__(description=revoked_sentence())
        self.table_id = table_id


def revoked_sentence() -> str:
    """The one sentence of a revoked access, on the page and in the API's error (docs/api.md)."""
    return _("The table's owner cancelled this phone's access.")


def bad_host_sentence() -> str:
    return _("The address this page was asked for is malformed. Open it again from the club's link or QR code.")


#: Where the WSGI layer marks a request whose Host it replaced (:class:`HostCheck`).
BAD_HOST = "referee.bad_host"


class HostCheck:
    """WSGI middleware: a request with a malformed or untrusted ``Host`` reaches Flask with a
    harmless one in its place and a mark, so that the app sets it up as any other and
    :func:`refuse_bad_host` answers it with the error page. It sits inside the proxy fix, which
    is where ``X-Forwarded-Host`` becomes the Host."""

    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        host = environ.get("HTTP_HOST")
        trusted = self.app.config.get("TRUSTED_HOSTS") or None
        if host is not None and not host_is_trusted(host, trusted):
            environ[BAD_HOST] = True
            environ["HTTP_HOST"] = str(trusted[0]).lstrip(".") if trusted else "localhost"
        return self.wsgi_app(environ, start_response)


def refuse_bad_host() -> None:
    """The first thing every request does: refuse one whose Host was malformed."""
    if request.environ.get(BAD_HOST):
        raise Refused(bad_host_sentence())


def _message(status: int) -> str:
    # One sentence a player can act on; functions so gettext runs in the request's locale.
    messages = {
        400: _("The request could not be understood. Go back and try again."),
        401: _("Only the scorer of this table can do that."),
        403: _("You are not allowed to do that."),
        404: _("We could not find this page. Check the address or start from the home page."),
        405: _("This address does not accept that kind of request."),
        409: _("Someone changed this table at the same time. Reload the page and try again."),
        413: _("What you sent is too large."),
        422: _("That breaks a rule of the game."),
        429: _("Too many requests at once. Wait a moment and try again."),
        500: _("Something went wrong on our side. The hands recorded so far are safe; try again in a moment."),
    }
    return messages.get(status, messages[500])


def _titles(status: int) -> str:
    titles = {
        400: _("Bad request"),
        401: _("Scorer only"),
        403: _("Not allowed"),
        404: _("Page not found"),
        405: _("Not allowed here"),
        409: _("Conflict"),
        413: _("Too large"),
        422: _("Against the rules"),
        429: _("Slow down"),
        500: _("Server error"),
    }
    return titles.get(status, titles[500])


def handle_http_error(error: HTTPException) -> ResponseReturnValue:
    status = error.code or 500
    if status not in CODES:
        status = 500 if status >= 500 else 400
    message = _message(status)
    if isinstance(error, CSRFError):
        message = _("This form has expired or was already sent. Reload the page and try again.")
    sentence = getattr(error, "sentence", None)  # a refusal's own (Refused, clubs.NoClub)
    if isinstance(sentence, str):
        message = sentence
    if isinstance(error, SecurityError):  # a Host the config does not trust, met by werkzeug itself
        message = bad_host_sentence()
    if clubs.inside(request.path).startswith("/api/"):
        return _api_body(error, status, message), status, _extra_headers(error)
    if isinstance(error, Revoked):
        return render_template("errors/revoked.html", message=revoked_sentence(), table_id=error.table_id), status
    page = render_template("errors/error.html", status=status, title=_titles(status), message=message)
    return page, status, _extra_headers(error)


def _api_body(error: HTTPException, status: int, message: str) -> dict[str, Any]:
    """The API's error shape; a refusal is invalid input, naming its parameter."""
    body = {"code": CODES[status], "message": message}
    if isinstance(error, Refused):
        body["code"] = "invalid_input"
        if error.field:
            body["field"] = error.field
    return {"error": body}


def _extra_headers(error: HTTPException) -> list[tuple[str, str]]:
    """Keep what the exception says beyond the body (Allow on 405, Retry-After on 429)."""
    return [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]


def init_app(app: Flask) -> None:
    """Before the proxy fix wraps the app (see :class:`HostCheck`)."""
    app.wsgi_app = HostCheck(app, app.wsgi_app)  # type: ignore[method-assign]
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_bad_host)
    app.register_error_handler(HTTPException, handle_http_error)
    # Flask wraps any unhandled exception in InternalServerError(original_exception=...).
    app.register_error_handler(InternalServerError, handle_http_error)
