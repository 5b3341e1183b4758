"""Gzip for CSS, JavaScript, JSON and SVG, because phones at a club table are often on a
weak connection and gunicorn does not compress.

A page loaded as a page is left alone: it carries the CSRF token next to text an attacker could
reflect, and compressing both together is the BREACH attack, which needs the attacker to make
the victim's browser ask for the page many times. The HTML a page's own script asks for (a tap
in a hand: its ``<main>``, the Derby's race, Samba's live score; static/js/swap.js) is
compressed: it is asked for with the ``X-Swap`` header, which another site's page cannot make a browser send (that would need a
CORS preflight, and the app answers none), so those many requests cannot be made. These are the
answers a player waits for at every tap, and they shrink four to five times. Only complete
(200) answers are compressed, so byte ranges stay right. Static files are compressed once per
version and kept in memory; their gzip variant has its own ETag and answers 304 to it.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable

from flask import Flask, Response, request

MIN_SIZE = 500
TYPES = (
    "text/css",
    "text/javascript",
    "application/json",
    "application/javascript",
    "image/svg+xml",
    "application/manifest+json",
)
_STATIC: dict[tuple[str, str], bytes] = {}


def _static_gzip(path: str, etag: str, data: bytes) -> bytes:
    key = (path, etag)
    if key not in _STATIC:
        if len(_STATIC) > 64:
            _STATIC.clear()
        _STATIC[key] = gzip.compress(data, compresslevel=9, mtime=0)
    return _STATIC[key]


def init_app(app: Flask, *, asked_by_script: Callable[[], bool]) -> None:
    """Compress the app's answers. ``asked_by_script`` tells whether this request came from the
    page's own script, with the header no other site can make a browser send (the views' swap
    protocol, referee.views.boost): the app passes it in, so this module, below the views, does
    not import them."""

    def _asked_by_script(response: Response) -> bool:
        return response.mimetype == "text/html" and asked_by_script()

    @app.after_request
    def compress(response: Response) -> Response:
        etag, weak = response.get_etag()
        if etag and request.if_none_match.contains(etag + "-gz") and response.status_code == 200:
            return Response(status=304, headers={"ETag": f'"{etag}-gz"', "Vary": "Accept-Encoding"})
        if (
            response.status_code != 200
            or "gzip" not in request.headers.get("Accept-Encoding", "").lower()
            or "Content-Encoding" in response.headers
            or not (response.mimetype or "").startswith(TYPES)
            and not _asked_by_script(response)
            or response.is_streamed
            and not response.direct_passthrough
        ):
            return response
        response.direct_passthrough = False
        data = response.get_data()
        if len(data) < MIN_SIZE:
            return response
        if request.endpoint == "static":
            body = _static_gzip(request.path, etag or "", data)
        else:
            body = gzip.compress(data, compresslevel=6, mtime=0)
        response.set_data(body)
        response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
        if etag:
            response.set_etag(etag + "-gz", weak=weak)
        return response
