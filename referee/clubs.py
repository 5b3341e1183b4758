"""The clubs a server hosts, and the club of each request, read from its address.

A club lives under ``/k/<slug>/``: its pages, its tables, its API. The prefix is a path rather
than a host name so that a club is reached the same way on a LAN by the server's IP address, with
the one certificate Caddy makes for it, and from a QR code, with no DNS of its own. The
server's first club (the one ``make run`` serves, migration 0017) is also at the root, so a
one-club server's addresses are those it always had.

:class:`ClubAddress` moves the prefix from the path into the script root (``SCRIPT_NAME``) before
Flask sees the request: every route matches as at the root, and every address the app builds
(``url_for``, a redirect, a form's action, a QR code, a static file) stays inside the club
without any view knowing of clubs. :func:`find_club` keeps the club for the request.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import unicodedata
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any

from flask import Flask, current_app, g, request
from flask_babel import gettext as _
from sqlalchemy import bindparam, func, select
from werkzeug.exceptions import Forbidden, NotFound

from referee import club, guesses
from referee.club_scope import HOME_CLUB, current_club_id
from referee.db import db
from referee.models import Club, utcnow

#: The first segment of a club's address: ``/k/<slug>/``.
SEGMENT = "k"
#: A club's name in its address: lowercase letters, digits and inner dashes.
SLUG = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?")
#: Where the middleware leaves the club's id (a known club's address) or the slug of an unknown one.
CLUB_KEY = "referee.club_id"
UNKNOWN_KEY = "referee.club_unknown"
SUSPENDED_KEY = "referee.club_suspended"
#: The server's own root (the script root before a club's prefix): where the service worker is.
ROOT_KEY = "referee.root"

_CLUB_BY_SLUG = select(Club.id, Club.suspended_at).where(Club.slug == bindparam("slug"))


class NoClub(NotFound):
    """A 404 whose page says why: no club has this address (a mistyped or deleted club)."""

    def __init__(self) -> None:
        self.sentence = _("There is no club at this address.")
        super().__init__(description=self.sentence)


class ClubAddress:
    """WSGI middleware: ``/k/<slug>/rest`` of a club on this server is served as ``/rest`` under
    the script root ``/k/<slug>``; any other path as it is, for the server's first club. The path
    of an unknown club is left as it was: :func:`find_club` answers it, drawn from the server's
    root (its page's links and styles must not point into an address that does not exist)."""

    def __init__(self, app: Flask, wsgi: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.wsgi = wsgi

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        root = environ.get("SCRIPT_NAME", "")
        environ[ROOT_KEY] = root
        path = environ.get("PATH_INFO", "")
        head = f"/{SEGMENT}/"
        if path.startswith(head):
            slug, _slash, rest = path[len(head) :].partition("/")
            found = self._club(slug)
            if found is None:
                environ[UNKNOWN_KEY] = slug
            else:
                environ[CLUB_KEY], suspended = found
                if suspended:
                    environ[SUSPENDED_KEY] = True
                environ["SCRIPT_NAME"] = f"{root}{head}{slug}"
                environ["PATH_INFO"] = f"/{rest}"
        return self.wsgi(environ, start_response)

    def _club(self, slug: str) -> tuple[int, bool] | None:
        """The club of this address: its id and whether it is suspended."""
        if not SLUG.fullmatch(slug):
            return None
        with self.app.app_context():
            found = db.session.execute(_CLUB_BY_SLUG, {"slug": slug}).first()
            return None if found is None else (int(found[0]), found[1] is not None)


class Suspended(Forbidden):
    """A 403 whose page says why: the server's operator suspended this club."""

    def __init__(self) -> None:
        self.sentence = _("This club is suspended by the server's operator; its data is kept.")
        super().__init__(description=self.sentence)


def find_club() -> None:
    """Before every request: the club its address names, kept in ``g`` (the first club's at the
    root); a page that says so for an unknown or a suspended one."""
    g.club_id = request.environ.get(CLUB_KEY, HOME_CLUB)
    if UNKNOWN_KEY in request.environ:
        raise NoClub()
    if SUSPENDED_KEY in request.environ:
        raise Suspended()


def inside(path: str) -> str:
    """``path`` as seen inside its club: the address of an unknown club keeps its prefix."""
    head = f"/{SEGMENT}/"
    if path.startswith(head):
        return "/" + path[len(head) :].partition("/")[2]
    return path


def slugs(chosen: str | None = None) -> dict[int, str]:
    """The server's clubs (id -> slug, in the order they were made), or the one named ``chosen``
    (none if no club has that name): what a command acts for, one club at a time."""
    query = select(Club.id, Club.slug).order_by(Club.id)
    if chosen is not None:
        query = query.where(Club.slug == chosen)
    return dict(db.session.execute(query).all())


class ClubRefused(ValueError):
    """A club that cannot be made as asked: the sentence says why."""


#: A club's name: what its pages and the operator's list show.
NAME_MAX = 80


def slug_for(name: str) -> str:
    """An address's name made of a club's name: "Clube do Bolinha" -> "clube-do-bolinha"."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:40].strip("-")


#: Clubs made from the home page, at most, per network (an IPv4 address, an IPv6 /64) and for
#: the whole server, in a day: room for a group of friends who mistyped a name, none for a script.
OPEN_PER_NETWORK = 3
OPEN_PER_DAY = 100


def open_to_all() -> bool:
    """Whether anyone may make a club from the server's home page (the ``OPEN_CLUBS`` setting)."""
    return bool(current_app.config.get("OPEN_CLUBS"))


def offers_new_clubs() -> bool:
    """Whether this page may offer to make a club: the server lets anyone, and this is its root
    (not a club's address, nor the first club's at its prefix)."""
    return open_to_all() and current_club_id() == HOME_CLUB and request.script_root == server_root()


def _network_mark() -> str:
    """What a club made from the home page keeps of the network it came from: a hash under the
    secret key, enough to count that network's clubs and nothing more."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, b"club-made-from:" + guesses.client_network().encode(), hashlib.sha256).hexdigest()


def create_open(name: str) -> tuple[Club, str]:
    """A club made from the home page: as :func:`create`, within the day's limits per network
    and for the whole server."""
    since = utcnow() - timedelta(days=1)
    mark = _network_mark()
    counted = select(func.count()).select_from(Club).where(Club.created_at >= since, Club.created_from.is_not(None))
    if (db.session.scalar(counted.where(Club.created_from == mark)) or 0) >= OPEN_PER_NETWORK:
        raise TooMany(_("This network has made %(most)d clubs today: try again tomorrow.", most=OPEN_PER_NETWORK))
    if (db.session.scalar(counted) or 0) >= OPEN_PER_DAY:
        raise TooMany(_("This server has made all the clubs it makes in a day: try again tomorrow."))
    made, code = create(name)
    made.created_from = mark
    return made, code


class TooMany(ClubRefused):
    """A club refused by the day's limits."""


def create(name: str, slug: str | None = None) -> tuple[Club, str]:
    """Make a club on this server; answers it and its code (shown once: only a hash is kept).
    Without ``slug`` its address is made of its name (with a number after it when taken)."""
    name = " ".join(str(name or "").split())
    if not name or len(name) > NAME_MAX:
        raise ClubRefused(_("A club needs a name of 1 to %(most)d characters.", most=NAME_MAX))
    base = slug_for(name) if slug is None else slug
    if not SLUG.fullmatch(base or ""):
        raise ClubRefused(_("A club's address uses lowercase letters, digits and dashes only."))
    taken = set(db.session.scalars(select(Club.slug).where(Club.slug.startswith(base))))
    chosen = base
    if slug is not None and chosen in taken:
        raise ClubRefused(_("Another club already has that address."))
    number = 2
    while chosen in taken:
        suffix = f"-{number}"
        chosen, number = base[: 40 - len(suffix)].rstrip("-") + suffix, number + 1
    code = club.new_code()
    made = Club(name=name, slug=chosen, code_digest=club.digest(code))
    db.session.add(made)
    db.session.flush()
    return made, code


def served_name() -> str | None:
    """The name of the club a page is served for, when the server hosts it (None at the first
    club's, whose pages look as they always did)."""
    club_id = current_club_id()
    if club_id == HOME_CLUB:
        return None
    found = db.session.get(Club, club_id)
    return found.name if found is not None else None


def server_root() -> str:
    """The server's root path, whatever club's address the request came by ("" at the root)."""
    return str(request.environ.get(ROOT_KEY, request.script_root))


def at_root(url: str) -> str:
    """``url``, built inside the request's club, at the server's root instead (the service
    worker: one for the whole site, whatever club's page registers it)."""
    inner = request.script_root
    return server_root() + url[len(inner) :] if inner and url.startswith(inner) else url


def here(*, query: bool = False) -> str:
    """This request's own path as a link back to it (a ``next``): with the club's prefix."""
    path = request.full_path.rstrip("?") if query else request.path
    return request.script_root + path


def init_app(app: Flask) -> None:
    """The first wrapper of the Flask app (the host check and the proxy fix, around it, see the
    address as sent), and the club found first among the request's checks (before the host
    check, which errorpages.init_app puts in front of it)."""
    app.wsgi_app = ClubAddress(app, app.wsgi_app)  # type: ignore[method-assign]
    app.before_request_funcs.setdefault(None, []).insert(0, find_club)
