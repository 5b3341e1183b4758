"""Secrets kept out of logs.

A scoring or hand-over link (``/j/<token>``), a championship card (``/f/<token>``, and a day
card's ``/c/<id>/m/<number>/card/<token>``) and a link that binds a phone to a member
(``/eu/<token>``) carry
their token in the path, which an access log writes on every request, and again in the
``Referer`` of the page's next requests; the API's bearer token and the session cookie (the
phone's key) travel in headers some log formats print. A log is read and kept by more people,
and for longer, than the tokens should be: what reaches it has those parts replaced by ``…``.
The access log (referee.gunicorn_conf), gunicorn's error log and the app's own log (an
exception is logged with its path) all go through :func:`text`.
"""

from __future__ import annotations

import logging
import re

HIDDEN = "…"


def _spelled(word: str) -> str:
    """``word`` as a pattern that also matches any of its letters percent-encoded."""
    return "".join(f"(?:{letter}|%{ord(letter):02x})" for letter in word)


#: The path segment after ``/j/``, ``/f/``, ``/eu/`` or a day card's ``/card/`` (also percent-encoded,
#: the slash too: gunicorn decodes ``/j%2F<token>`` to the same route).
_PATH = re.compile(
    r"(/(?:" + "|".join(_spelled(w) for w in ("j", "f", "card", "eu")) + r")(?:/|%2f))[^/?#\s\"'\]]+", re.IGNORECASE
)
#: A query parameter that could carry a secret, whatever the route.
_QUERY = re.compile(r"((?:^|[?&;])(?:token|code|key|secret|password)=)[^&;#\s\"']*", re.IGNORECASE)
#: Headers whose whole value is a secret: the API's bearer token, the session cookie.
SECRET_HEADERS = ("authorization", "proxy-authorization", "cookie", "set-cookie")


def text(value: str) -> str:
    """``value`` with the tokens of links and of query parameters replaced by ``…``.

    >>> text('GET /j/AbC-12_x?code=ABCD1234 HTTP/1.1')
    'GET /j/…?code=… HTTP/1.1'
    >>> text('http://club.local/f/9sd8f7/x')
    'http://club.local/f/…/x'
    """
    return _QUERY.sub(r"\1" + HIDDEN, _PATH.sub(r"\1" + HIDDEN, value))


def atom(name: str, value: object) -> object:
    """One of gunicorn's access-log atoms (``r``, ``U``, ``f``, ``{authorization}i``, ...), with
    its secrets hidden: a secret header or its WSGI variable entirely, any other text by
    :func:`text`."""
    lowered = name.lower()
    if any(h in lowered.replace("_", "-") for h in SECRET_HEADERS):
        return HIDDEN if value not in (None, "", "-") else value
    return text(value) if isinstance(value, str) else value


class Filter(logging.Filter):
    """Rewrites each record's message (and its traceback) through :func:`text` before any
    handler formats it."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = text(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = text(record.exc_text)
        return True


def guard(logger: logging.Logger) -> None:
    """Put the :class:`Filter` on ``logger`` (once, however often it is asked)."""
    if not any(isinstance(f, Filter) for f in logger.filters):
        logger.addFilter(Filter())
