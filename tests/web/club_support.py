"""A second club on the test's server, and a phone that goes to its address."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from referee.db import db
from referee.models import Club


def add_club(app: Flask, slug: str, name: str | None = None) -> int:
    """A club made on the server (as the operator's command makes one); answers its id."""
    with app.app_context():
        club = Club(slug=slug, name=name or slug.title())
        db.session.add(club)
        db.session.commit()
        club_id = club.id
        db.session.remove()
    return club_id


class ClubPhone(FlaskClient):
    """A phone at a club's address: every path it asks is under ``/k/<slug>``."""

    prefix = ""

    def open(self, *args: Any, **kwargs: Any) -> Any:
        if args and isinstance(args[0], str) and args[0].startswith("/"):
            args = (self.prefix + args[0], *args[1:])
        return super().open(*args, **kwargs)


def phone_at(app: Flask, slug: str) -> ClubPhone:
    phone = ClubPhone(app, app.response_class, use_cookies=True)
    phone.prefix = f"/k/{slug}"
    return phone
