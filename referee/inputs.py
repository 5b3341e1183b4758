"""What a request may carry, checked once where it comes in rather than in each view.

- Integers in URLs (``<int:...>``: row ids and hand numbers) fit the database's ``integer``
  column, 1 to 2**31-1 (PostgreSQL's is 32-bit): a larger one names nothing, so the route does
  not match and the answer is the usual 404, never an overflow deep in the driver.
- :func:`database_id` does the same for an id in a query string (``?season=``), and
  :func:`whole_number` reads any other number there (a page, a team's index).
- JSON bodies are parsed by :func:`parse_json` (Flask's ``request.get_json`` goes through
  :class:`JSONProvider`, the import page reads its file with it): nesting deeper than any record
  (a RecursionError in the parser, or in whatever walks the record later) is refused with a 400
  and a sentence, before any view sees it.
- Text no database can store is refused (:data:`BROKEN`, a 400 and one sentence) wherever the
  request carries it: a JSON body's strings and keys, a form's fields and their names
  (:class:`Request`), the query and the path (:func:`refuse_broken_address`). A lone surrogate
  has no UTF-8 form; a NUL is refused by PostgreSQL's text (SQLite would keep it, and a backup
  made there could then never be restored on PostgreSQL). Nothing legitimate holds either: no
  keyboard types them. Refused at the door, they reach no view, no field and no query.
- A place to go back to (``next``, a referrer) is followed only when it is a clean path on this
  site (:func:`local_path`): one helper for every redirect that comes from the request; a URL
  the request carries is split by :func:`split_url`, which answers None rather than raising.
- Names (players, members, a table's title, a reason) lose their bidirectional controls
  (:func:`strip_bidi`) wherever they are cleaned, forms and API alike: one right-to-left
  override in "Bia" would otherwise turn a whole payment line around ("anA a 21 agap aiB").
  Names stored before (an old backup) are isolated where they are shown (``bdi`` and
  ``referee.i18n.isolate``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import SplitResult, urlsplit

from flask import Flask, request
from flask import Request as FlaskRequest
from flask.json.provider import DefaultJSONProvider
from werkzeug.routing import IntegerConverter, Map

from referee.errorpages import Refused
from referee.i18n import render_text
from referee.rules.errors import InvalidInput
from referee.rules.text import N_, Text

#: The largest value of an SQL ``integer`` column (PostgreSQL's is 32-bit; SQLite's would hold
#: more, but the two databases must answer alike).
MAX_ID = 2**31 - 1

#: The deepest nesting a JSON body may have. A backup (tables, hands, records, a Samba team's
#: piles) is about ten deep; Python's own parser gives up near a thousand.
MAX_DEPTH = 64

#: What no text column can hold: a NUL (PostgreSQL refuses it) or a UTF-16 surrogate (no UTF-8
#: form; after json.loads joins the valid pairs, any one left is a lone surrogate).
BROKEN = re.compile("[\x00\ud800-\udfff]")

#: The characters that reorder the text around them: the embeddings and overrides (LRE, RLE, PDF,
#: LRO, RLO), the isolates (LRI, RLI, FSI, PDI), the marks (LRM, RLM) and the Arabic letter mark.
#: A name never needs one: the browser works out each name's own direction by itself.
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


class DatabaseInt(IntegerConverter):
    """``<int:...>`` for this app: 1 to :data:`MAX_ID`, at most ten ASCII digits (so that a
    thousand-digit "id" is not even converted)."""

    regex = r"\d{1,10}"

    def __init__(
        self, map: Map, fixed_digits: int = 0, min: int | None = 1, max: int | None = MAX_ID, signed: bool = False
    ) -> None:
        super().__init__(map, fixed_digits=fixed_digits, min=min, max=max, signed=signed)


def strip_bidi(text: str) -> str:
    """``text`` without its bidirectional controls (:data:`BIDI_CONTROLS`)."""
    return BIDI_CONTROLS.sub("", text)


def local_path(value: str | None, default: str) -> str:
    """``value`` when it is a clean path on this site, else ``default``: the one check of every
    ``next`` and referrer the app redirects to.

    Clean means: it starts with one "/", and holds no whitespace and no control character
    anywhere. Browsers drop tabs and newlines from a URL before they follow it, so
    "/<tab>/evil.example" would become "//evil.example", another site; a newline would also
    break the Location header itself. A backslash after the first "/" reads as a second "/"."""
    if not isinstance(value, str) or not value.startswith("/") or value.startswith(("//", "/\\")):
        return default
    if any(char.isspace() or not char.isprintable() for char in value):
        return default
    parts = split_url(value)
    if parts is None or parts.scheme or parts.netloc:
        return default
    return value


def split_url(value: str) -> SplitResult | None:
    """``urlsplit(value)``, or None for what it cannot read: a URL from the request (a Referer,
    a ``next``) is whatever the client sent, and ``urlsplit`` raises ValueError on some of it
    ("http://[::1/x", a bracketed host that is no address). Every URL the app reads from a
    request is split here, so none of them can turn into an error page."""
    try:
        return urlsplit(value)
    except ValueError:
        return None


def whole_number(text: str | None, *, low: int = 1, high: int = MAX_ID) -> int | None:
    """``text`` (a query or form field) as a whole number from ``low`` to ``high``, else None.
    Only ASCII digits count: ``str.isdigit`` also says yes to "²" (which ``int`` refuses) and
    to thousands of digits (which ``int`` refuses too, past 4300)."""
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > len(str(high)):
        return None
    number = int(text)
    return number if low <= number <= high else None


def database_id(text: str | None) -> int | None:
    """``text`` as a row id (1 to :data:`MAX_ID`), or None: a larger number names no row."""
    return whole_number(text)


def parse_json(data: str | bytes, **kwargs: Any) -> Any:
    """``json.loads``, refusing with :class:`InvalidInput` (a ValueError, like a syntax error)
    what nothing after it could handle: nesting deeper than :data:`MAX_DEPTH`, and strings or
    keys holding :data:`BROKEN` text."""
    try:
        value = json.loads(data, **kwargs)
    except RecursionError:
        raise _too_deep() from None
    _check(value)
    return value


def _too_deep() -> InvalidInput:
    return InvalidInput(
        Text(N_("What you sent is nested more than %(max)s levels deep; no record needs that many."), max=MAX_DEPTH)
    )


def _broken(field: str | None = None) -> InvalidInput:
    return InvalidInput(
        Text(N_("Some text in what you sent has a character no text can hold (a NUL or a lone surrogate).")),
        field=field,
    )


def _refuse_broken(texts: Iterable[str]) -> None:
    """A 400 with the sentence when one of ``texts`` holds :data:`BROKEN` text."""
    if any(BROKEN.search(text) for text in texts):
        raise Refused(render_text(_broken().text))


class Request(FlaskRequest):
    """Flask's request, whose form (urlencoded or multipart) is refused whole when a field or a
    field's name holds :data:`BROKEN` text: checked once, the first time anything reads it
    (the CSRF check, a view), so every form of the app is covered and none has to ask."""

    def _load_form_data(self) -> None:
        super()._load_form_data()
        _refuse_broken(text for pair in self.form.items(multi=True) for text in pair)


def refuse_broken_address() -> None:
    """Before every view: the path and the query, where a NUL ("%00") would otherwise reach a
    lookup by id or a search."""
    _refuse_broken([request.path, *(text for pair in request.args.items(multi=True) for text in pair)])


#: A place in a parsed document: its value, its depth, and where it hangs (its parent's place
#: and its key or index), kept as a chain so that a path is spelled only for a refusal.
_Place = tuple[Any, int, "tuple[Any, ...] | None", "str | int | None"]


def _check(value: Any) -> None:
    """Walk the parsed value without recursion (its depth is what is being checked). Broken text
    is refused naming where it is, as the import's own checks do ("tables[0].players[3]")."""
    pending: list[_Place] = [(value, 1, None, None)]
    while pending:
        place = pending.pop()
        item, depth = place[0], place[1]
        if isinstance(item, str):
            if BROKEN.search(item):
                raise _broken(_path(place))
        elif isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                raise _too_deep()
            if isinstance(item, dict):
                for key, child in item.items():
                    if BROKEN.search(key):
                        raise _broken(_path(place))
                    pending.append((child, depth + 1, place, key))
            else:
                pending.extend((child, depth + 1, place, index) for index, child in enumerate(item))


def _path(place: _Place) -> str | None:
    """Where ``place`` is in the document: "tables[0].name"; None for the document itself."""
    parts: list[str] = []
    while place[2] is not None:
        key = place[3]
        parts.append(f"[{key}]" if isinstance(key, int) else f".{key}")
        place = place[2]
    return "".join(reversed(parts)).lstrip(".") or None


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, with request bodies read by :func:`parse_json`. A refusal is raised as an
    HTTP 400 (:class:`Refused`), not a ValueError: ``get_json(silent=True)`` would swallow that
    and the player would read "the body must be a JSON object" about a body that is one."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return parse_json(s, **kwargs)
        except InvalidInput as exc:
            raise Refused(render_text(exc.text), exc.field) from exc


def init_app(app: Flask) -> None:
    """Before any blueprint registers its routes: they bind ``int`` when they are added."""
    app.url_map.converters["int"] = DatabaseInt
    app.json = JSONProvider(app)
    app.request_class = Request
    app.before_request(refuse_broken_address)
