"""gunicorn's settings for serving Referee (``make run``; the tests' production server imports
them too): ``gunicorn --config python:referee.gunicorn_conf 'referee:create_app()'``.

Threaded workers that keep a connection open between requests: every tap of the hand-entry flow
is a request, and on a phone's Wi-Fi a new TCP handshake per tap costs a round trip each time
(gunicorn's default sync workers answer ``Connection: close`` to every request).

gunicorn writes ``Server: gunicorn`` into every answer and has no setting to leave it out; an
answer need not tell who serves it, so each worker swaps in a response without that header.

No secret reaches its logs (``--access-logfile -`` in `make run` and deploy/referee.service): the
logger below hides the tokens of ``/j/`` and ``/f/`` links, in the request line and the
``Referer``, and the bearer and cookie headers whatever the log format (referee.redact).
"""

from __future__ import annotations

import ctypes
from typing import Any

from gunicorn import glogging
from gunicorn.http import wsgi

from referee import redact

worker_class = "gthread"
#: Requests a worker serves at once: a phone waiting on a slow link holds a thread, not the worker.
threads = 4
#: Seconds an idle connection stays open: longer than the pause between two taps at the table.
keepalive = 75
#: No control socket (gunicorn 25+ opens one in $XDG_RUNTIME_DIR or $HOME/.gunicorn): the service's
#: home is read-only, where it logged an [ERROR] at every start, and two servers of one user
#: would share it. Nothing here uses ``gunicornc``; stop and reload the server by its signals.
control_socket_disable = True


class RedactingLogger(glogging.Logger):  # type: ignore[misc]
    """gunicorn's logger, with the secrets of every access-log atom and error message hidden."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        redact.guard(self.error_log)
        redact.guard(self.access_log)

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        found = super().atoms(resp, req, environ, request_time)
        return {name: redact.atom(name, value) for name, value in found.items()}


logger_class = RedactingLogger


class ResponseWithoutServer(wsgi.Response):  # type: ignore[misc]
    """gunicorn's HTTP/1 response, minus its ``Server`` header line."""

    def default_headers(self) -> list[str]:
        return [line for line in super().default_headers() if not line.lower().startswith("server:")]


#: glibc's malloc arenas per worker, at most. glibc gives each thread that allocates while another
#: holds the lock an arena of its own (up to 8 per core), and an arena keeps the memory freed in
#: it for its own thread's later use: the worker's threads, each answering requests in turn,
#: spread its heap over as many arenas and the worker's resident memory creeps up for hours.
#: Two (the main thread's and one that the threads share) cost no measurable speed here: the
#: threads spend their time in SQLite and in Python, which holds its own lock anyway.
MALLOC_ARENAS = 2
#: mallopt's parameter number for the arena bound (glibc's malloc.h).
M_ARENA_MAX = -8


def bound_malloc_arenas() -> bool:
    """Cap glibc's arenas for the threads started from now on; False where there is no glibc
    (another C library has its own allocator and no such setting)."""
    try:
        # The running program's own symbols, the C library's among them (no library search).
        return bool(ctypes.CDLL(None).mallopt(M_ARENA_MAX, MALLOC_ARENAS))
    except (OSError, AttributeError):
        return False


def post_fork(server: Any, worker: Any) -> None:
    """In each worker, before it serves (and before its threads start): gunicorn builds its
    responses with ``wsgi.Response``; malloc's arenas are bounded (:data:`MALLOC_ARENAS`)."""
    wsgi.Response = ResponseWithoutServer
    bound_malloc_arenas()
