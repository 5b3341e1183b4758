"""Shared fixtures and Hypothesis profiles.

TEST_DATABASE_URL picks the database (default: in-memory SQLite):

    pg_virtualenv sh -c 'TEST_DATABASE_URL=postgresql+psycopg:// .venv/bin/pytest -q tests/web'

The migrations run once per session, not once per test: on in-memory SQLite a template database
is migrated once and every app gets its own copy of it (SQLite's backup API, well under a
millisecond); on PostgreSQL the schema stays and the rows are removed after each test. Either
way every test starts from an empty migrated database. Tests of the migrations themselves
(tests/web/test_app.py, tests/packaging) build their own databases and still run them. What
building an app still recomputed per test is done once per session too: the migrations' latest
revision (referee/schema.py keeps it per process), werkzeug's compiled URL builders and
Jinja's compiled templates (tests/compiled_once.py).

HYPOTHESIS_PROFILE picks how many examples every property test draws: "fast" (the default, what
`make test` runs) or "thorough" (five times as many, for a change to the rules engine):

    HYPOTHESIS_PROFILE=thorough .venv/bin/pytest -q tests/rules

No profile has a deadline: the time one example takes depends on the machine and on what else it
runs, and a test that is slow by nature draws fewer examples instead (tests/hypothesis_settings.py).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings
from sqlalchemy import text

from referee import create_app
from referee.club_scope import HOME_CLUB
from referee.extensions import db
from tests import club_audit
from tests.compiled_once import share_compiled_builders, share_compiled_templates

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "sqlite://")

settings.register_profile("fast", max_examples=200, deadline=None)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fast"))

share_compiled_builders()  # every test builds an app: its URL rules' code is compiled once
club_audit.install()


#: The fixtures through which a test reaches TEST_DATABASE_URL's database.
DATABASE_FIXTURES = frozenset({"app", "make_app", "client", "migrated_sqlite", "migrated_sqlite_file"})


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--database-only",
        action="store_true",
        help="run only the tests whose outcome depends on TEST_DATABASE_URL: the PostgreSQL pass of "
        "`make test`, after a SQLite pass that ran every test (the others would only run again)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--database-only"):
        return
    keep = [item for item in items if _uses_the_database(item)]
    if dropped := [item for item in items if item not in keep]:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


def _uses_the_database(item: pytest.Item) -> bool:
    """Whether ``item`` reaches the test database: through a fixture of this file, by naming
    TEST_DATABASE_URL in its module, or as a proof test (tests/proof picks its backend from it)."""
    if DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    path = Path(str(item.path))
    return "proof" in path.parts or "TEST_DATABASE_URL" in _source(path)


_sources: dict[Path, str] = {}


def _source(path: Path) -> str:
    if path not in _sources:
        _sources[path] = path.read_text(encoding="utf-8")
    return _sources[path]


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sqlite3.Connection | None]:
    """An in-memory SQLite database the migrations ran on, once for the session; ``None`` on
    any other database. Running the migrations was 45 % of tests/web's time when every test ran
    them; a copy of this one costs a fraction of a millisecond."""
    if TEST_DATABASE_URL not in ("sqlite://", "sqlite:///:memory:"):
        yield None
        return
    made = create_app(_test_config(tmp_path_factory.mktemp("template"), None))
    template = sqlite3.connect(":memory:", check_same_thread=False)
    with made.app_context():
        raw = db.engine.raw_connection()
        try:
            raw.driver_connection.backup(template)
        finally:
            raw.close()
        db.engine.dispose()
    yield template
    template.close()


@pytest.fixture
def migrated_sqlite_file(migrated_sqlite: sqlite3.Connection | None) -> Callable[[Path], str]:
    """Makes, when called with a path, a SQLite file there holding a copy of the migrated
    template (when the session has one) and answers its URL: a database several connections or
    processes share, with its schema already current, so the app made on it runs no migration."""

    def make(path: Path) -> str:
        if migrated_sqlite is not None:
            with closing(sqlite3.connect(path)) as copy:
                migrated_sqlite.backup(copy)
        return f"sqlite:///{path}"

    return make


def _test_config(
    tmp_path: Path, template: sqlite3.Connection | None, over: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The configuration every test's app starts from, ``over`` over it. On in-memory SQLite
    each connection the engine opens is a new copy of the migrated ``template``, as each was a
    new empty database before (the app finds its schema current and runs no migration)."""
    config: dict[str, Any] = {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": TEST_DATABASE_URL,
        "WTF_CSRF_ENABLED": False,
        "SECRET_KEY": "test",
        "INSTANCE_PATH": str(tmp_path / "instance"),
        **(over or {}),
    }
    in_memory = config["SQLALCHEMY_DATABASE_URI"] in ("sqlite://", "sqlite:///:memory:")
    if template is not None and in_memory and "SQLALCHEMY_ENGINE_OPTIONS" not in config:

        def copy() -> sqlite3.Connection:
            connection = sqlite3.connect(":memory:", check_same_thread=False)
            template.backup(connection)
            return connection

        config["SQLALCHEMY_ENGINE_OPTIONS"] = {"creator": copy}
    return config


@pytest.fixture(autouse=True)
def club_audit_clean() -> Iterator[None]:
    """Fails a test in whose requests a statement touched a club's rows without naming the club
    (tests/club_audit.py)."""
    club_audit.unlimited.clear()
    yield
    found = list(dict.fromkeys(club_audit.unlimited))
    club_audit.unlimited.clear()
    assert not found, "statements that do not name the club:\n" + "\n".join(f"{p}: {s}" for p, s in found)


@pytest.fixture
def app(tmp_path: Path, migrated_sqlite: sqlite3.Connection | None) -> Iterator[Flask]:
    """A fresh app on an empty database whose schema came from the migrations.

    In-memory SQLite is new for every app. On a shared server database (PostgreSQL) every
    test starts from empty tables: all rows are removed after each test (the schema stays,
    so the migrations run once per session).
    """
    app = share_compiled_templates(create_app(_test_config(tmp_path, migrated_sqlite)))
    yield app
    with app.app_context():
        db.session.remove()
        if db.engine.dialect.name == "postgresql":
            _empty_all_tables()
        db.engine.dispose()


@pytest.fixture
def make_app(tmp_path: Path, migrated_sqlite: sqlite3.Connection | None) -> Iterator[Callable[..., Flask]]:
    """Makes, when called, one more app with ``app``'s test configuration, ``config`` over it:
    a second database to import into, or a server restarted on the same one. ``empty=True``
    starts it from empty tables: on PostgreSQL, whose database every app shares, all rows are
    removed first (so take the figures of the apps before it first); an in-memory SQLite is new
    for every app anyway. Every app made is closed at the end, and on PostgreSQL the rows removed,
    as after ``app``."""
    made: list[Flask] = []

    def make(config: Mapping[str, Any] | None = None, *, empty: bool = False) -> Flask:
        new = share_compiled_templates(create_app(_test_config(tmp_path, migrated_sqlite, config)))
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
    """Every table as the migrations left it: empty, but for the server's first club (0017)."""
    kept = ("alembic_version", "club")
    names = ", ".join(f'"{t.name}"' for t in db.metadata.sorted_tables if t.name not in kept)
    with db.engine.begin() as connection:
        if names:
            connection.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        connection.execute(text("DELETE FROM club WHERE id <> :home"), {"home": HOME_CLUB})
        connection.execute(  # and the first club as the migrations made it, whatever a test did to it
            text(
                "INSERT INTO club (id, slug, name, created_at) VALUES (:home, 'clube', 'Clube', now())"
                " ON CONFLICT (id) DO UPDATE SET slug = 'clube', name = 'Clube', code_digest = NULL,"
                " suspended_at = NULL, created_from = NULL"
            ),
            {"home": HOME_CLUB},
        )


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
