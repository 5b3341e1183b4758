"""The database schema: brought to the latest migration once, whatever starts the app.

Every process that builds the app checks the schema (``create_app``), and so does ``flask
--app referee db upgrade``. Several gunicorn workers starting together on an empty database
would each find it behind and run the migrations at the same moment; the slower ones fail on
tables the first one just made, and gunicorn stops. So the check and the upgrade run under a
lock that one process holds at a time, and the revision is read again once it is held: the
others wait for the first, then find the schema current.

The lock is the database's own where it has one (PostgreSQL's advisory lock), else a file lock
(``flock``) next to the SQLite file, so every process on that database shares it whatever its
instance folder. An in-memory SQLite database belongs to one process and needs none.
"""

from __future__ import annotations

import fcntl
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from sqlalchemy import Engine, text

#: The PostgreSQL advisory lock's key: any fixed number other programs on the server are
#: unlikely to use.
ADVISORY_KEY = zlib.crc32(b"referee: schema migrations")


def ensure(migrations: Path) -> None:
    """Run the migrations in ``migrations`` if the database is not at their latest revision
    (idempotent; concurrent callers wait for one another). Needs an app context."""
    from flask_migrate import upgrade

    from referee.extensions import db

    if _current(db.engine, migrations):
        return
    with _lock(db.engine):
        if not _current(db.engine, migrations):  # someone may have upgraded while we waited
            upgrade(directory=str(migrations))


def _current(engine: Engine, migrations: Path) -> bool:
    from alembic.migration import MigrationContext

    with engine.connect() as connection:
        stored = set(MigrationContext.configure(connection).get_current_heads())
    return stored == _heads(migrations)


@cache
def _heads(migrations: Path) -> frozenset[str]:
    """The latest revisions of the migrations in ``migrations``. They are files shipped with the
    code, so they cannot change while it runs: read once per process, not for every app built
    (reading them loads every migration module, about a sixth of building an app)."""
    from alembic.script import ScriptDirectory

    return frozenset(ScriptDirectory(str(migrations)).get_heads())


@contextmanager
def _lock(engine: Engine) -> Iterator[None]:
    """Held by one process at a time for the database of ``engine`` (blocking)."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:  # a session lock: held by this connection
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": ADVISORY_KEY})
            try:
                yield
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_KEY})
                connection.commit()
        return
    database = engine.url.database if engine.dialect.name == "sqlite" else None
    if not database or database == ":memory:" or database.startswith("file:"):
        yield  # in memory (or a URI we do not parse): only this process sees it
        return
    with open(Path(database).with_name(Path(database).name + ".migrate-lock"), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file is closed
        yield
