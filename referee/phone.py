"""This phone, without accounts: a random id and a random key kept in its session.

Writes and two-key confirmations name the phone that made them ("by the owner, phone 3f9a"),
and wrong guesses at a code are counted per phone (referee.guesses), so that the phones behind
one Wi-Fi, which share an address, never answer for each other. That short id is for showing,
not for proving: what the phone holds at its tables is kept on the server under the sha256 of
its :func:`key` (referee.keyring), 192 random bits that the session carries instead of tokens.
"""

from __future__ import annotations

import hashlib
import math
import secrets
import time
from datetime import UTC, datetime

from flask import request, session

from referee.club_scope import session_key

DEVICE = "device"
KEY = "phone_key"
#: When this phone's id was made (seconds since the epoch). The session is signed, so a phone
#: cannot make itself older: the guessing limits trust it (referee.guesses).
BORN = "born"
#: The hash of the key this phone had before its newest one, until a request shows the phone got
#: the new one (referee.views.tables.forget_replaced_key).
REPLACED = "phone_key_was"


def device() -> str:
    """This phone's id, made (and kept in its session) on first use, with the time it was made.
    A session from before that time was kept gets the time it is first seen again."""
    if DEVICE not in session:
        session[DEVICE] = secrets.token_hex(3)
        session.permanent = True
    if not isinstance(session.get(BORN), (int, float)) or isinstance(session.get(BORN), bool):
        session[BORN] = time.time()
    return str(session[DEVICE])


def born() -> datetime | None:
    """When this phone's id was made, as its signed session says; None for a phone without one."""
    value = session.get(BORN)
    if DEVICE not in session or isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if not math.isfinite(value) or not 0 <= value < 1e11:
        return None
    return datetime.fromtimestamp(value, UTC)


def key_name() -> str:
    """Where the session keeps this phone's key for the club served: one key per club, since
    each club's holds are its own."""
    return session_key(KEY)


def replaced_name() -> str:
    """Where the session keeps the hash of the key this phone had before, for the club served."""
    return session_key(REPLACED)


def new_key() -> str:
    """A new key for this phone in place of the one its session had, given each time the phone
    gains a way in (referee.views.tables.remember_hash, which moves its holds to it): a cookie
    planted on a phone beforehand, or read off the air, then holds nothing that phone gains."""
    session[key_name()] = secrets.token_urlsafe(24)
    session.permanent = True
    device()
    return str(session[key_name()])


def key_hash() -> str | None:
    """The sha256 of this phone's key, as the server keeps it; None for a phone without one (it
    holds nothing), without making one."""
    value = session.get(key_name())
    return hashlib.sha256(value.encode()).hexdigest() if isinstance(value, str) and value else None


def current() -> str | None:
    """This phone's id if its session has one, without making one (a page that only reads, such
    as the history saying "this phone", leaves a watcher's session as it was)."""
    value = session.get(DEVICE)
    return str(value) if value else None


def guesser() -> str:
    """Who is typing a code, for the rate limits: the phone's id when its session has one, else
    the client's address (an API script without a session). A page that takes a code calls
    :func:`device` first, so a phone typing its first code is already counted alone."""
    if DEVICE in session:
        return f"device:{session[DEVICE]}"
    return f"address:{request.remote_addr or ''}"
