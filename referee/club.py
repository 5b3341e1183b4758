"""The club's code: what lets a phone manage the league (members, Pix keys, seasons).

There are no accounts. Anyone on the table's network may create tables and read the league;
changing who a member is, or where his money goes (a Pix key), needs the code printed by
``make run`` (``instance/club_code``, or ``CLUB_CODE`` in the config). A phone that typed it
once keeps a flag in its session.
"""

from __future__ import annotations

import enum
import hmac
from datetime import timedelta

from flask import current_app, request, session
from sqlalchemy import func, select

from referee import access
from referee.db import db
from referee.models import JoinAttempt, utcnow

SESSION_FLAG = "club"


class Check(enum.Enum):
    RIGHT = "right"
    WRONG = "wrong"
    TOO_MANY = "too_many"  # too many wrong codes from this client lately: not even checked


def is_manager() -> bool:
    """This phone typed the club's code."""
    return bool(session.get(SESSION_FLAG))


def check(code: object) -> Check:
    """Check a code typed on a page or sent to the API, in constant time. The code is short
    (six digits), so wrong tries are rate-limited per client address: at most
    access.ATTEMPTS per access.WINDOW_MINUTES, counted with the join codes' attempts (whose
    writer deletes the old rows) under a key of their own."""
    given = "".join(str(code or "").split())[:40]
    if not given:
        return Check.WRONG  # nothing was guessed: not counted
    client = access.hash_secret("club:" + (request.remote_addr or ""))
    since = utcnow() - timedelta(minutes=access.WINDOW_MINUTES)
    wrong = db.session.scalar(
        select(func.count()).select_from(JoinAttempt).where(JoinAttempt.client == client, JoinAttempt.at >= since, JoinAttempt.ok.is_(False))
    )
    if (wrong or 0) >= access.ATTEMPTS:
        return Check.TOO_MANY
    expected = str(current_app.config["CLUB_CODE"])
    ok = hmac.compare_digest(given.encode(), expected.encode())
    db.session.add(JoinAttempt(client=client, ok=ok))
    db.session.commit()
    return Check.RIGHT if ok else Check.WRONG


def unlock(code: object) -> Check:
    """Check a typed code; when right, remember on this phone that it manages the club."""
    result = check(code)
    if result is Check.RIGHT:
        session[SESSION_FLAG] = True
        session.permanent = True
    return result


def lock() -> None:
    session.pop(SESSION_FLAG, None)
