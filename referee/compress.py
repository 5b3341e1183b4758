"""Gzip for text answers, because phones at a club table are often on a weak connection.

gunicorn does not compress, and a table may have no proxy in front of it, so the app does:
HTML, CSS, JS, JSON and SVG over 500 bytes are gzipped when the client accepts it. Static
files are compressed once per file version and kept in memory (they are few and small).
"""

from __future__ import annotations

import gzip
from functools import lru_cache

from flask import Flask, Response, request

MIN_SIZE = 500
TYPES = ("text/", "application/json", "application/javascript", "image/svg+xml", "application/manifest+json")


@lru_cache(maxsize=64)
def _static_gzip(key: tuple[str, str], data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)


def init_app(app: Flask) -> None:
    @app.after_request
    def compress(response: Response) -> Response:
        if (
            response.status_code < 200
            or response.status_code in (204, 304)
            or "gzip" not in request.headers.get("Accept-Encoding", "").lower()
            or "Content-Encoding" in response.headers
            or not (response.mimetype or "").startswith(TYPES)
            or response.is_streamed and not response.direct_passthrough
        ):
            return response
        response.direct_passthrough = False
        data = response.get_data()
        if len(data) < MIN_SIZE:
            return response
        if request.endpoint == "static":
            body = _static_gzip((request.path, response.headers.get("ETag", "")), data)
        else:
            body = gzip.compress(data, compresslevel=6, mtime=0)
        response.set_data(body)
        response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
        etag, weak = response.get_etag()
        if etag:
            response.set_etag(etag + "-gz", weak=weak)
        return response
