"""The SQLAlchemy object and engine pragmas."""

from __future__ import annotations

import os
from typing import Any

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase

# Named constraints, so Alembic batch operations on SQLite can find and alter them.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


# Objects stay readable after a commit: a request that stores a hand then answers with it
# should not reload the table and its seats from the database.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})

#: Each SQLite connection's page cache, at most (KiB; SQLite's own default is 2,000). Each keeps
#: the pages it read until its cache is full, so a worker's memory grows with the database for
#: thousands of requests before it levels off, at this bound times the connections its threads
#: hold (one each). A small cache costs little: the operating system caches the file for every
#: worker at once, and in WAL mode a connection empties its cache anyway whenever another one
#: has written since its last transaction, which under a load of saves is nearly every time.
PAGE_CACHE_KIB = 512


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    """WAL + busy timeout: without them concurrent commits fail with "database is locked";
    a bounded page cache (:data:`PAGE_CACHE_KIB`)."""
    module = type(dbapi_connection).__module__
    if not module.startswith(("sqlite3", "pysqlite")):
        return
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA database_list")
        files = [row[2] for row in cursor.fetchall() if row[1] == "main"]
        if files and files[0]:  # "" for :memory: and temporary databases
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=15000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA cache_size=-{PAGE_CACHE_KIB}")
    finally:
        cursor.close()


@event.listens_for(Engine, "connect")
def _postgresql_plans(dbapi_connection: Any, connection_record: Any) -> None:
    """Every execution of a statement is planned for its own values, never by a generic plan.

    psycopg prepares a statement on the server once it has run five times, and PostgreSQL may
    then plan it once for any values. Every club's rows share the tables, and clubs differ in size
    by orders of magnitude: a generic plan judges ``club_id = $2`` by the average club, and for the
    largest one it would read the whole club's index to find one table's four seats (measured at a
    million hands among 1,000 clubs: a hand's save went from 10 ms to 25). Planning each execution
    costs a fraction of a millisecond on these short statements; the prepared parse is kept."""
    if not type(dbapi_connection).__module__.startswith("psycopg"):
        return
    # Outside a transaction, or the pool's rollback at the connection's first return undoes it.
    autocommit = dbapi_connection.autocommit
    dbapi_connection.autocommit = True
    try:
        with dbapi_connection.cursor() as cursor:
            cursor.execute("SET plan_cache_mode = force_custom_plan")
    finally:
        dbapi_connection.autocommit = autocommit


def create_private_sqlite_file(url: str) -> None:
    """Create a SQLite database's file, empty, readable and writable by its owner only (0600),
    before SQLite would create it world-readable: it holds the token hashes, the members and
    their Pix keys. SQLite gives the -wal and -shm files the mode of the database file. An
    existing file that others may read (made by an older version) is made private too, when it
    is ours to change; other databases and in-memory SQLite have no file."""
    parsed = make_url(url)
    path = parsed.database
    if parsed.get_backend_name() != "sqlite" or not path or path == ":memory:" or path.startswith("file:"):
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        for name in (path, path + "-wal", path + "-shm"):
            try:
                if os.stat(name).st_mode & 0o077 and os.stat(name).st_uid == os.getuid():
                    os.chmod(name, 0o600)
            except FileNotFoundError:
                pass
