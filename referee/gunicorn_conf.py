"""gunicorn's settings for serving Referee (``make run``; the tests' production server imports
them too): ``gunicorn --config python:referee.gunicorn_conf 'referee:create_app()'``.

Threaded workers that keep a connection open between requests: every tap of the hand-entry flow
is a request, and on a phone's Wi-Fi a new TCP handshake per tap costs a round trip each time
(gunicorn's default sync workers answer ``Connection: close`` to every request).

gunicorn writes ``Server: gunicorn`` into every answer and has no setting to leave it out; an
answer need not tell who serves it, so each worker swaps in a response without that header.
"""

from __future__ import annotations

from typing import Any

from gunicorn.http import wsgi

worker_class = "gthread"
#: Requests a worker serves at once: a phone waiting on a slow link holds a thread, not the worker.
threads = 4
#: Seconds an idle connection stays open: longer than the pause between two taps at the table.
keepalive = 75
#: No control socket (gunicorn 25+ opens one in $XDG_RUNTIME_DIR or $HOME/.gunicorn): the service's
#: home is read-only, where it logged an [ERROR] at every start, and two servers of one user
#: would share it. Nothing here uses ``gunicornc``; stop and reload the server by its signals.
control_socket_disable = True


class ResponseWithoutServer(wsgi.Response):  # type: ignore[misc]
    """gunicorn's HTTP/1 response, minus its ``Server`` header line."""

    def default_headers(self) -> list[str]:
        return [line for line in super().default_headers() if not line.lower().startswith("server:")]


def post_fork(server: Any, worker: Any) -> None:
    """In each worker, before it serves: gunicorn builds its responses with ``wsgi.Response``."""
    wsgi.Response = ResponseWithoutServer
