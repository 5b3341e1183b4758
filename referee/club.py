"""The club's code: what lets a phone manage the league (members, Pix keys, seasons) and see
every table of a club night.

There are no accounts. Anyone on the table's network may create tables and read the league;
changing who a member is, or where his money goes (a Pix key), needs the code printed by
``make run`` (``instance/club_code``, or ``CLUB_CODE`` in the config).

The code never expires, so it is long: :data:`DIGITS` digits, shown in groups of four and typed
on a numeric keypad, with or without the spaces. Wrong tries are limited per phone, per
network and all together (:mod:`referee.guesses`); the README gives the arithmetic.

A phone that typed it keeps in its session a fingerprint of the code (an HMAC under the app's
secret key, never the code itself), compared with the current code on every request: giving
the club a new code (``flask --app referee club-code``) signs every manager phone out.

Each club a server hosts has its own code. The server's first club keeps the code of the
installation (above); a club the operator or a visitor created keeps only a slow hash of its
code (:func:`digest`), shown once when the club is made (``flask --app referee clubs code`` gives
it a new one). Wrong tries count within the club (its ``join_attempt`` rows), so a flood at one
club locks no other out.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import secrets

from flask import current_app, session
from werkzeug.security import check_password_hash, generate_password_hash

from referee import guesses, phone
from referee.club_scope import HOME_CLUB, current_club_id, session_key
from referee.db import db
from referee.models import Club

#: The session key holding the fingerprint of the code this phone typed.
SESSION_KEY = "club"
#: 10**12 codes: a year of guessing at one network's ceilings tries one in 95,000 of them, one
#: in 24,000 even at the ceiling on wrong club codes from every network (README).
DIGITS = 12
#: A typed code longer than this is no code: it is cut before anything is compared.
TYPED_MAX = 40


class Check(enum.Enum):
    RIGHT = "right"
    WRONG = "wrong"
    TOO_MANY = "too_many"  # this phone's own ceiling: not even checked
    TOO_MANY_SHARED = "too_many_shared"  # a ceiling every phone shares: not even checked


def new_code() -> str:
    """A fresh code as written to instance/club_code and printed: ``1234 5678 9012``."""
    return shown("".join(secrets.choice("0123456789") for _ in range(DIGITS)))


def shown(code: str) -> str:
    """A code in groups of four digits, as printed and read out."""
    digits = normal(code)
    return " ".join(digits[i : i + 4] for i in range(0, len(digits), 4))


def normal(typed: object) -> str:
    """A code as compared: what was typed without spaces, dashes or dots."""
    return "".join(ch for ch in str(typed or "")[:TYPED_MAX] if ch not in " \t\r\n-.")


def is_long(code: str) -> bool:
    """Long enough for the guessing ceilings (an older version made six digits)."""
    return len(normal(code)) >= DIGITS


def digest(code: str) -> str:
    """What the server keeps of a hosted club's code (:class:`~referee.models.Club`): a salted,
    slow hash (scrypt), so that a copy of the database does not give the codes away."""
    return generate_password_hash(normal(code))


def _hosted_digest() -> str | None:
    """The digest of the served club's code, for a club the server hosts (not its first)."""
    club_id = current_club_id()
    if club_id == HOME_CLUB:
        return None
    found = db.session.get(Club, club_id)
    return found.code_digest if found is not None and found.code_digest else ""


def _matches(given: str) -> bool:
    """Whether ``given`` is the served club's code: the server's own (config) for its first club,
    the kept digest for another."""
    kept = _hosted_digest()
    if kept is None:
        return hmac.compare_digest(given.encode(), normal(current_app.config["CLUB_CODE"]).encode())
    return bool(kept) and check_password_hash(kept, given)


def _fingerprint() -> str:
    """What the session keeps of the served club's code: an HMAC under the secret key, so that
    the cookie never carries the code and stops matching the moment the code changes (for a
    hosted club, its digest, which a new code changes)."""
    kept = _hosted_digest()
    what = normal(current_app.config["CLUB_CODE"]) if kept is None else f"{current_club_id()}:{kept}"
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, b"club-code:" + what.encode(), hashlib.sha256).hexdigest()


def is_manager() -> bool:
    """This phone typed the served club's current code."""
    kept = session.get(session_key(SESSION_KEY))
    return isinstance(kept, str) and hmac.compare_digest(kept, _fingerprint())


def check(code: object) -> Check:
    """Check a code typed on a page or sent to the API, in constant time; a wrong one is
    counted for this phone (referee.phone.guesser) and against the club's code. An empty code
    guesses nothing and is not counted."""
    given = normal(code)
    if not given:
        return Check.WRONG
    who = phone.guesser()
    limit = guesses.refused(guesses.CLUB, who)
    if limit is not None:
        return Check.TOO_MANY if limit is guesses.Limit.PHONE else Check.TOO_MANY_SHARED
    if _matches(given):
        return Check.RIGHT
    guesses.wrong(guesses.CLUB, who)
    db.session.commit()
    return Check.WRONG


def unlock(code: object) -> Check:
    """Check a typed code; when right, remember on this phone that it manages the club."""
    phone.device()  # a phone's first try is counted for this phone, not for its Wi-Fi
    result = check(code)
    if result is Check.RIGHT:
        session[session_key(SESSION_KEY)] = _fingerprint()
        session.permanent = True
    return result


def lock() -> None:
    session.pop(session_key(SESSION_KEY), None)
