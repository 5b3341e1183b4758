"""Daily backups for a club server's timer (``flask --app referee backup-daily DIR``).

Each run writes the day's files into one folder and deletes that command's own files of older
days beyond the newest ``keep``, so a timer can run it every day for years without anybody
looking at the folder:

- ``referee-YYYY-MM-DD.json.gz``: the backup document (:func:`referee.exports.backup`), gzipped,
  with the server's secret key and club code (:mod:`referee.server_keys`: without them no phone
  and no printed card would work after a restore). It works for every database, restores into an empty SQLite or PostgreSQL database alike (even
  a newer Referee's: it is replayed through the ledger), and ``restore`` reads it as it is.
- ``referee-k-<name>-YYYY-MM-DD.json.gz``: the same of each other club the server hosts (its
  own data only, without the server's keys), restored with ``restore --club <name>``.
- ``referee-YYYY-MM-DD.sqlite3``, on SQLite only: a copy of the database file, made through
  SQLite's online backup API in one read transaction, so it is consistent while gunicorn writes
  (WAL mode lets the copy read while others write). It is the quickest way back (put the file
  in place) and it holds everything, derived tables included, so it is kept *as well as* the
  JSON rather than instead of it: the JSON is the one that survives a change of database or of
  schema, and it is the one a person can read.

Both hold the owners' token hashes and the members' Pix keys (the JSON also the secret key): they are written readable by
their owner only, and atomically (a temporary file renamed over the target), so a run that dies
half-way never leaves a truncated backup under a real name. The day is the club's (its time
zone), like the rest of the app's dates.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from urllib.request import pathname2url

from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from referee import clubs, exports
from referee.club_scope import HOME_CLUB, serving
from referee.db import db
from referee.league import local_date

#: The names this command writes (a hosted club's JSON carries ``k-<its name>-``); nothing else
#: in the folder is ever touched.
OURS = re.compile(r"referee-(?:k-[a-z0-9-]+-)?(\d{4}-\d{2}-\d{2})\.(json\.gz|sqlite3)")
#: What a run that was killed may leave behind (see :func:`_write_atomically`).
LEFTOVER = re.compile(
    r"\.referee-(?:k-[a-z0-9-]+-)?\d{4}-\d{2}-\d{2}\.(json\.gz|sqlite3)\.[A-Za-z0-9_]+\.tmp(-journal|-wal|-shm)?"
)
#: A leftover younger than this may belong to a run still going (someone ran it by hand while
#: the timer's ran): left alone.
LEFTOVER_AGE = 24 * 3600
DEFAULT_KEEP = 14


class BackupFailed(Exception):
    """A sentence for the person or the timer's log: what could not be done, and where."""


@dataclass
class Report:
    written: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    no_copy: str = ""  # why no SQLite copy was made ("" when one was)


def today() -> date:
    return local_date(datetime.now(UTC))


def take(directory: Path, *, keep: int = DEFAULT_KEEP, day: date | None = None) -> Report:
    """Write the day's backup into ``directory`` (made, owner-only, if missing), then remove this
    command's files of older days beyond the newest ``keep`` days. Needs an app context."""
    if keep < 1:
        raise BackupFailed("--keep must be at least 1: the backup just written is always kept.")
    day = day or today()
    _prepare(directory)
    report = Report()
    try:
        with _one_snapshot():
            document = exports.backup(server_keys=True)
    except SQLAlchemyError as exc:
        raise BackupFailed(f"Cannot read the database: {getattr(exc, 'orig', None) or exc}") from None
    report.counts = {name: len(document[name]) for name in ("tables", "members", "seasons")}
    report.written.append(_write_json(directory / f"referee-{day.isoformat()}.json.gz", document))
    for club_id, slug in clubs.slugs().items():  # every other club the server hosts: its own file
        if club_id == HOME_CLUB:
            continue
        try:
            with serving(club_id), _one_snapshot():
                hosted = exports.backup()
        except SQLAlchemyError as exc:
            raise BackupFailed(f"Cannot read the database: {getattr(exc, 'orig', None) or exc}") from None
        hosted["club"] = {"slug": slug}
        report.written.append(_write_json(directory / f"referee-k-{slug}-{day.isoformat()}.json.gz", hosted))
    source, report.no_copy = sqlite_file()
    if source is not None:
        target = directory / f"referee-{day.isoformat()}.sqlite3"
        report.written.append(_write_atomically(target, lambda path: _copy_sqlite(source, path)))
    try:
        report.removed = rotate(directory, keep=keep, today=day)
    except OSError as exc:
        raise BackupFailed(
            f"The backup is written, but older ones in {directory} could not be removed: {exc}"
        ) from None
    return report


def _write_json(target: Path, document: dict[str, object]) -> Path:
    data = gzip.compress(json.dumps(document, ensure_ascii=False).encode("utf-8"), mtime=0)
    return _write_atomically(target, lambda path: path.write_bytes(data))


def sqlite_file() -> tuple[Path | None, str]:
    """The app's SQLite database file, or None and why there is nothing to copy."""
    url = make_url(str(db.engine.url))
    if url.get_backend_name() != "sqlite":
        return None, f"{url.get_backend_name()}: the JSON file is the whole backup"
    name = url.database or ""
    if not name or name == ":memory:" or name.startswith("file:"):
        return None, "an in-memory SQLite database has no file to copy"
    return Path(name), ""


def rotate(directory: Path, *, keep: int, today: date) -> list[Path]:
    """Delete this command's files of every day but the newest ``keep`` (and ``today``, always),
    and the temporary files of runs killed over a day ago; answers what was deleted. Files of
    other names, folders and symbolic links are never touched. The newest days that *have* a
    backup are kept, not the last calendar days: a server switched off for a month still finds
    its last backups when it comes back."""
    days: dict[date, list[Path]] = {}
    removed: list[Path] = []
    for entry in sorted(directory.iterdir()):
        if entry.is_symlink() or not entry.is_file():
            continue
        if LEFTOVER.fullmatch(entry.name):
            if time.time() - entry.stat().st_mtime > LEFTOVER_AGE:
                entry.unlink(missing_ok=True)
                removed.append(entry)
            continue
        match = OURS.fullmatch(entry.name)
        if match is None:
            continue
        try:
            days.setdefault(date.fromisoformat(match[1]), []).append(entry)
        except ValueError:  # referee-2024-13-45.json.gz: not a name this command wrote
            continue
    kept = set(sorted(days, reverse=True)[:keep]) | {today}
    for day in sorted(set(days) - kept):
        for entry in days[day]:
            entry.unlink(missing_ok=True)
            removed.append(entry)
    return removed


def _prepare(directory: Path) -> None:
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    except FileExistsError:
        raise BackupFailed(f"{directory} is not a folder.") from None
    except OSError as exc:
        raise BackupFailed(f"Cannot make the folder {directory}: {exc.strerror or exc}.") from None
    if not os.access(directory, os.W_OK | os.X_OK):
        raise BackupFailed(f"Cannot write into {directory}: permission denied.")


@contextmanager
def _one_snapshot() -> Iterator[None]:
    """Make every query of the backup see the database as it was at one moment, while the
    tables go on being played. SQLite's driver would open no transaction for a SELECT (each one
    would see the latest commit: a hand's events without the hand); PostgreSQL's default, READ
    COMMITTED, takes a new snapshot for each statement. Nothing is written: rolled back."""
    db.session.rollback()
    if db.engine.dialect.name == "postgresql":
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ", "postgresql_readonly": True})
    elif db.engine.dialect.name == "sqlite":
        connection = db.session.connection()
        if not getattr(connection.connection.dbapi_connection, "in_transaction", True):
            connection.exec_driver_sql("BEGIN")  # deferred: writers are not held up
    try:
        yield
    finally:
        db.session.rollback()


def _write_atomically(target: Path, fill: Callable[[Path], object]) -> Path:
    """Have ``fill`` write a new private file next to ``target``, flush it to the disk, then
    rename it over ``target``: whoever reads ``target`` finds the old backup or the new one,
    whole. Any failure is a :class:`BackupFailed`, and the temporary file is removed."""
    try:
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")  # mode 0600
    except OSError as exc:
        raise BackupFailed(f"Cannot write into {target.parent}: {exc.strerror or exc}.") from None
    os.close(fd)
    temporary = Path(name)
    try:
        fill(temporary)
        os.chmod(temporary, 0o600)
        with open(temporary, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(temporary, target)
        _sync_folder(target.parent)
    except (OSError, sqlite3.Error) as exc:
        raise BackupFailed(f"Cannot write {target}: {getattr(exc, 'strerror', None) or exc}.") from None
    finally:
        for leftover in (temporary, *(Path(f"{temporary}{end}") for end in ("-journal", "-wal", "-shm"))):
            leftover.unlink(missing_ok=True)
    return target


def _sync_folder(folder: Path) -> None:
    """Make the rename itself survive a power cut (where the system lets a folder be synced)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _copy_sqlite(source: Path, target: Path) -> None:
    """Copy the live database through SQLite's backup API in one step (one read transaction:
    a consistent copy, never blocking the writers in WAL mode), then make the copy a plain
    single file (rollback journal) and check it before it takes a real name."""
    if not source.is_file():
        raise BackupFailed(f"The database file {source} is not there.")
    uri = f"file:{pathname2url(str(source.resolve()))}?mode=rw"  # rw: never create an empty one
    with closing(sqlite3.connect(uri, uri=True, timeout=15)) as live, closing(sqlite3.connect(target)) as copy:
        live.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")
        verdict = copy.execute("PRAGMA quick_check").fetchone()[0]
    if verdict != "ok":
        raise BackupFailed(f"The copy of {source} failed SQLite's check: {verdict}.")
