"""gunicorn's settings for serving Referee (``make run``; the tests' production server imports
them too): ``gunicorn --config python:referee.gunicorn_conf 'referee:create_app()'``.

gunicorn writes ``Server: gunicorn`` into every answer and has no setting to leave it out; an
answer need not tell who serves it, so each worker swaps in a response without that header.
"""

from __future__ import annotations

from typing import Any

from gunicorn.http import wsgi


class ResponseWithoutServer(wsgi.Response):  # type: ignore[misc]
    """gunicorn's HTTP/1 response, minus its ``Server`` header line."""

    def default_headers(self) -> list[str]:
        return [line for line in super().default_headers() if not line.lower().startswith("server:")]


def post_fork(server: Any, worker: Any) -> None:
    """In each worker, before it serves: gunicorn builds its responses with ``wsgi.Response``."""
    wsgi.Response = ResponseWithoutServer
