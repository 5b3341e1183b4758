"""Shared fixtures and Hypothesis profiles.

TEST_DATABASE_URL picks the database (default: in-memory SQLite):

    pg_virtualenv sh -c 'TEST_DATABASE_URL=postgresql+psycopg:// .venv/bin/pytest -q tests/web'

HYPOTHESIS_PROFILE picks how many examples every property test draws: "fast" (the default, what
`make test` runs) or "thorough" (five times as many, for a change to the rules engine):

    HYPOTHESIS_PROFILE=thorough .venv/bin/pytest -q tests/rules

No profile has a deadline: the time one example takes depends on the machine and on what else it
runs, and a test that is slow by nature draws fewer examples instead (tests/hypothesis_settings.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings
from sqlalchemy import text

from referee import create_app
from referee.extensions import db

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "sqlite://")

settings.register_profile("fast", max_examples=200, deadline=None)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fast"))


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    """A fresh app on an empty database whose schema came from the migrations.

    In-memory SQLite is new for every app. On a shared server database (PostgreSQL) every
    test starts from empty tables: all rows are removed after each test (the schema stays,
    so the migrations run once per session).
    """
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": TEST_DATABASE_URL,
            "WTF_CSRF_ENABLED": False,
            "SECRET_KEY": "test",
            "INSTANCE_PATH": str(tmp_path / "instance"),
        }
    )
    yield app
    with app.app_context():
        db.session.remove()
        if db.engine.dialect.name == "postgresql":
            _empty_all_tables()
        db.engine.dispose()


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[Callable[..., Flask]]:
    """Makes, when called, one more app with ``app``'s test configuration, ``config`` over it:
    a second database to import into, or a server restarted on the same one. ``empty=True``
    starts it from empty tables: on PostgreSQL, whose database every app shares, all rows are
    removed first (so take the figures of the apps before it first); an in-memory SQLite is new
    for every app anyway. Every app made is closed at the end, and on PostgreSQL the rows removed,
    as after ``app``."""
    made: list[Flask] = []

    def make(config: Mapping[str, Any] | None = None, *, empty: bool = False) -> Flask:
        new = create_app(
            {
                "TESTING": True,
                "SQLALCHEMY_DATABASE_URI": TEST_DATABASE_URL,
                "WTF_CSRF_ENABLED": False,
                "SECRET_KEY": "test",
                "INSTANCE_PATH": str(tmp_path / "instance"),
                **(config or {}),
            }
        )
        if empty:
            with new.app_context():
                if db.engine.dialect.name == "postgresql":
                    _empty_all_tables()
        made.append(new)
        return new

    yield make
    for new in made:
        with new.app_context():
            db.session.remove()
            if db.engine.dialect.name == "postgresql" and new is made[-1]:
                _empty_all_tables()
            db.engine.dispose()


def _empty_all_tables() -> None:
    names = ", ".join(f'"{t.name}"' for t in db.metadata.sorted_tables if t.name != "alembic_version")
    if names:
        with db.engine.begin() as connection:
            connection.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
