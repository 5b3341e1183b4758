"""Who may organise a championship, and how the day's history names him.

Every organiser's page and write starts here: the championship views all need these and
nothing else of one another, so they live apart from any of them (a view module importing
another view module for its helpers is how import cycles start).
"""

from __future__ import annotations

from flask import abort, redirect, url_for
from flask.typing import ResponseReturnValue

from referee import club, clubs
from referee.phone import device


def require_manager() -> None:
    """A write without the club's code is refused (403): every manager POST starts here."""
    if not club.is_manager():
        abort(403)


def manager_only() -> ResponseReturnValue | None:
    """A page read without the club's code sends the phone to type it, then brings it back:
    every manager GET starts here."""
    if club.is_manager():
        return None
    return redirect(url_for("players.club", next=clubs.here(query=True)))


def actor() -> str:
    """Who the day's history names for a manager's change: the club's code on this phone."""
    return "manager@" + device()
