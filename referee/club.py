"""The club's code: what lets a phone manage the league (members, Pix keys, seasons).

There are no accounts. Anyone on the table's network may create tables and read the league;
changing who a member is, or where his money goes (a Pix key), needs the code printed by
``make run`` (``instance/club_code``, or ``CLUB_CODE`` in the config). A phone that typed it
once keeps a flag in its session.
"""

from __future__ import annotations

import hmac

from flask import current_app, session

SESSION_FLAG = "club"


def is_manager() -> bool:
    """This phone typed the club's code."""
    return bool(session.get(SESSION_FLAG))


def unlock(code: object) -> bool:
    """Check a typed code (constant time); on success remember it on this phone."""
    expected = str(current_app.config["CLUB_CODE"])
    given = "".join(str(code or "").split())
    if not given or not hmac.compare_digest(given.encode(), expected.encode()):
        return False
    session[SESSION_FLAG] = True
    session.permanent = True
    return True


def lock() -> None:
    session.pop(SESSION_FLAG, None)
