"""The daily backup a club server's timer runs (referee.backups, ``flask --app referee
backup-daily``): a club's tables, hands, members and season come back the same through the API
after the database is lost and the day's file restored (the JSON through ``restore``, on SQLite
the database copy put back); the folder keeps the newest days only, and only this command's own
files are ever deleted; every file is its owner's alone.

The restore runs ``flask --app referee`` in a subprocess, as a server's administrator would, on
the database the tests use (a SQLite file here, since the copy needs one; TEST_DATABASE_URL on
PostgreSQL).
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from contextlib import closing
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import inspect, select, text

from referee import ROOT, backups
from referee.extensions import db
from referee.models import Season
from tests.conftest import TEST_DATABASE_URL
from tests.web.test_exports import GAMES, answers, club, club_header, snapshot

from .api_support import API

ON_SQLITE = TEST_DATABASE_URL.startswith("sqlite")

# --------------------------------------------------------------------------- helpers


@pytest.fixture
def served(make_app: Callable[..., Flask], tmp_path: Path) -> Callable[[], Flask]:
    """Makes, when called, an app on the club's database as a server has it: a SQLite file in
    the instance folder (or TEST_DATABASE_URL's server database). Every call is a new app on the
    same database, like a restarted server."""
    return lambda: make_app(_config(tmp_path))


def _config(tmp_path: Path) -> dict[str, Any]:
    instance = tmp_path / "instance"
    url = f"sqlite:///{instance / 'referee.sqlite3'}" if ON_SQLITE else TEST_DATABASE_URL
    return {"INSTANCE_PATH": str(instance), "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test"}


def flask_command(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``flask --app referee ARGS`` in a process of its own, on the test's database and instance
    folder (the app factory's literal argument; the environment could not point the instance
    folder elsewhere)."""
    app = f"referee:create_app({_config(tmp_path)!r})"
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", app, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def through_the_api(client: FlaskClient, ids: list[str]) -> dict[str, Any]:
    """What the API answers about the club: each table, each of its hands, its settlement (the
    members' Pix keys), each season's export and each game's standings in it (the members)."""
    tables = answers(client, ids)
    out: dict[str, Any] = {"tables": tables, "hands": {}, "settlements": {}, "seasons": {}, "standings": {}}
    for table in tables:
        for hand in table["hands"]:
            response = client.get(f"{API}/tables/{table['id']}/hands/{hand['number']}")
            assert response.status_code == 200, response.get_data(as_text=True)
            out["hands"][f"{table['id']} {hand['number']}"] = response.get_json()
        response = client.get(f"{API}/tables/{table['id']}/settlement")
        assert response.status_code == 200, response.get_data(as_text=True)
        out["settlements"][table["id"]] = response.get_json()
    with client.application.app_context():
        season_ids = list(db.session.scalars(select(Season.id).order_by(Season.id)))
    assert season_ids
    for season_id in season_ids:
        response = client.get(f"{API}/seasons/{season_id}/export", headers=club_header(client))
        assert response.status_code == 200, response.get_data(as_text=True)
        out["seasons"][season_id] = {k: v for k, v in response.get_json().items() if k != "exported_at"}
        for game in sorted(GAMES):
            response = client.get(f"{API}/league/{game}/standings", query_string={"season": season_id})
            assert response.status_code == 200, response.get_data(as_text=True)
            out["standings"][f"{game} {season_id}"] = response.get_json()
    return out


def filled(served: Callable[[], Flask]) -> tuple[Flask, dict[str, Any], dict[str, Any]]:
    """A club: tables of every game (voided and corrected hands, a rematch, scoring links),
    members (a Pix key, a merge) and a season; with what the API and the database say of it."""
    app = served()
    client = app.test_client()
    ids = club(app, client)["ids"]
    before = {"api": through_the_api(client, ids), "rows": snapshot(app)}
    assert len(before["api"]["hands"]) > 20 and before["rows"]["members"] and before["rows"]["seasons"]
    assert any(h.get("void") for t in before["api"]["tables"] for h in t["hands"])
    assert any(h.get("replaces") for t in before["api"]["tables"] for h in t["hands"])
    return app, {"ids": ids}, before


def as_it_was(served: Callable[[], Flask], ids: list[str]) -> dict[str, Any]:
    app = served()
    return {"api": through_the_api(app.test_client(), ids), "rows": snapshot(app)}


def lose_the_database(app: Flask, tmp_path: Path) -> None:
    """What a dead disk would leave: no database at all (SQLite: no file; PostgreSQL: no table,
    not even the migrations' record, so the next start builds the schema anew)."""
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
        if db.engine.dialect.name == "postgresql":
            with db.engine.begin() as connection:
                for name in inspect(connection).get_table_names():
                    connection.execute(text(f'DROP TABLE "{name}" CASCADE'))
            db.engine.dispose()
            return
    for name in ("referee.sqlite3", "referee.sqlite3-wal", "referee.sqlite3-shm"):
        (tmp_path / "instance" / name).unlink(missing_ok=True)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --------------------------------------------------------------------------- restore, end to end


def test_the_json_backup_restores_the_club_from_the_command_line(served: Callable[[], Flask], tmp_path: Path) -> None:
    app, club_ids, before = filled(served)
    folder = tmp_path / "backups"

    made = flask_command(tmp_path, "backup-daily", str(folder), "--keep", "14")
    assert made.returncode == 0, made.stderr
    written = sorted(folder.glob("referee-*.json.gz"))
    assert len(written) == 1 and f"Wrote {written[0]}" in made.stdout
    assert "(4 tables, " in made.stdout
    document = json.loads(gzip.decompress(written[0].read_bytes()))
    assert document["format"] == "referee-backup" and len(document["tables"]) == 4

    lose_the_database(app, tmp_path)
    restored = flask_command(tmp_path, "restore", str(written[0]))
    assert restored.returncode == 0, restored.stderr
    assert "Restored 4 tables, " in restored.stdout

    assert as_it_was(served, club_ids["ids"]) == before


@pytest.mark.skipif(not ON_SQLITE, reason="the copy of the database file is made on SQLite only")
def test_the_sqlite_copy_is_consistent_while_a_write_is_under_way_and_restores_by_putting_it_back(
    served: Callable[[], Flask], tmp_path: Path
) -> None:
    app, club_ids, before = filled(served)
    database = tmp_path / "instance" / "referee.sqlite3"
    folder = tmp_path / "backups"

    # A scorer's write is half done (the write lock taken, nothing committed) while the backup
    # runs: in WAL mode the backup does not wait for it, and copies the database without it.
    writer = sqlite3.connect(database, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("UPDATE member SET pix_city = 'Xique-Xique'")
        # The lock stays held until the backup is over: that it ends at all, and well, proves it
        # did not wait for the write (it would wait for ever; the bound only stops a broken
        # backup from hanging the suite, far above any machine's time for it).
        results: list[Any] = []
        backup = threading.Thread(
            target=lambda: results.append(app.test_cli_runner().invoke(args=["backup-daily", str(folder)]))
        )
        backup.start()
        backup.join(300)
        assert results, "the backup waited for the write under way"
        result = results[0]
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert result.exit_code == 0, result.output
    copy = next(folder.glob("referee-*.sqlite3"))
    assert f"Wrote {copy}" in result.output
    assert mode(copy) == 0o600
    with closing(sqlite3.connect(copy)) as check:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert check.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file, no -wal
        assert check.execute("SELECT count(*) FROM member WHERE pix_city = 'Xique-Xique'").fetchone()[0] == 0
    assert not list(folder.glob("*-wal")) and not list(folder.glob("*-journal"))

    lose_the_database(app, tmp_path)
    shutil.copyfile(copy, database)
    assert as_it_was(served, club_ids["ids"]) == before


# --------------------------------------------------------------------------- the folder


def test_older_days_beyond_keep_go_and_nothing_else_is_touched(app: Flask, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    with app.app_context():
        today = backups.today()

    def day(n: int) -> str:
        return (today - timedelta(days=n)).isoformat()

    ours = {n: [folder / f"referee-{day(n)}.json.gz", folder / f"referee-{day(n)}.sqlite3"] for n in range(1, 6)}
    ours[7] = [folder / f"referee-{day(7)}.json.gz"]  # a day without a copy (PostgreSQL then)
    for paths in ours.values():
        for path in paths:
            path.write_bytes(b"old")
    others = [
        folder / "notes.txt",
        folder / "referee-backup.json",
        folder / f"referee-{day(30)}.json",  # not gzipped: somebody's own backup
        folder / f"referee-{day(30)}.json.gz.bak",
        folder / "referee-2020-02-30.json.gz",  # no such day
        folder / f"Referee-{day(30)}.sqlite3",
    ]
    for path in others:
        path.write_text("keep me")
    (folder / f"referee-{day(40)}.sqlite3").mkdir()  # a folder named like a backup
    (folder / f"referee-{day(50)}.json.gz").symlink_to(folder / "notes.txt")
    stale = folder / f".referee-{day(3)}.json.gz.k2j4h1q9.tmp"  # a run killed three days ago
    stale.write_bytes(b"half")
    os.utime(stale, (time.time() - 3 * 86400,) * 2)
    running = folder / f".referee-{today.isoformat()}.sqlite3.a8d7f6g5.tmp"  # a run still going
    running.write_bytes(b"half")

    result = app.test_cli_runner().invoke(args=["backup-daily", str(folder), "--keep", "3"])
    assert result.exit_code == 0, result.output

    written = [folder / f"referee-{today.isoformat()}.json.gz"]
    if ON_SQLITE:
        assert "No copy of the database file: an in-memory SQLite database has no file to copy." in result.output
    else:
        assert "No copy of the database file: postgresql: the JSON file is the whole backup." in result.output
    assert all(p.is_file() and mode(p) == 0o600 for p in written)
    kept = written + ours[1] + ours[2]  # today and the two newest days before it
    gone = ours[3] + ours[4] + ours[5] + ours[7] + [stale]
    assert all(p.exists() for p in kept) and not any(p.exists() for p in gone)
    assert all(p.read_text() == "keep me" for p in others)
    assert (folder / f"referee-{day(40)}.sqlite3").is_dir() and (folder / f"referee-{day(50)}.json.gz").is_symlink()
    assert running.exists()
    assert sorted(line.removeprefix("Removed ") for line in result.output.splitlines() if "Removed" in line) == sorted(
        map(str, gone)
    )

    # Run again the same day: the day's file is replaced, nothing more is removed.
    again = app.test_cli_runner().invoke(args=["backup-daily", str(folder), "--keep", "3"])
    assert again.exit_code == 0 and "Removed" not in again.output
    assert sorted(folder.glob(f"referee-{today.isoformat()}.*")) == written
    assert gzip.decompress(written[0].read_bytes()).startswith(b'{"format": "referee-backup"')


def test_files_and_a_new_folder_are_private_whatever_the_umask(app: Flask, tmp_path: Path) -> None:
    folder = tmp_path / "new" / "backups"
    previous = os.umask(0)
    try:
        result = app.test_cli_runner().invoke(args=["backup-daily", str(folder)])
    finally:
        os.umask(previous)
    assert result.exit_code == 0, result.output
    assert mode(folder) == 0o700
    files = list(folder.iterdir())
    assert files and all(mode(p) == 0o600 for p in files)
    assert not [p for p in files if p.name.startswith(".")]  # no temporary file left behind


def test_bad_input_is_a_sentence_and_a_non_zero_exit(app: Flask, tmp_path: Path) -> None:
    runner = app.test_cli_runner()
    a_file = tmp_path / "file"
    a_file.write_text("x")

    result = runner.invoke(args=["backup-daily", str(tmp_path), "--keep", "0"])
    assert result.exit_code != 0 and "'--keep': 0 is not in the range x>=1" in result.output
    result = runner.invoke(args=["backup-daily", str(a_file)])
    assert result.exit_code != 0 and "is a file" in result.output
    result = runner.invoke(args=["backup-daily", str(a_file / "below")])
    assert result.exit_code != 0 and f"Cannot make the folder {a_file / 'below'}" in result.output
    assert not list(tmp_path.glob("**/referee-*"))

    with app.app_context():
        with pytest.raises(backups.BackupFailed, match="at least 1"):
            backups.take(tmp_path / "x", keep=0)

    broken = tmp_path / "referee-2020-01-01.json.gz"
    broken.write_bytes(gzip.compress(b'{"format": "referee-backup"')[:-6])  # cut short
    result = runner.invoke(args=["restore", str(broken)])
    assert result.exit_code != 0 and f"Cannot read {broken}" in result.output


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into any folder")
def test_a_folder_it_may_not_write_into_is_a_sentence(app: Flask, tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir(mode=0o500)
    result = app.test_cli_runner().invoke(args=["backup-daily", str(folder)])
    assert result.exit_code != 0 and f"Cannot write into {folder}" in result.output
