"""Command-line backup, restore, export and import (``flask --app referee ...``).

    flask --app referee backup club.json             everything, secrets included
    flask --app referee restore club.json            into an empty database
    flask --app referee restore --replace club.json  erasing what is there first
    flask --app referee backup-daily DIR --keep 14   the day's backup into DIR, for a timer
                                                     (referee.backups; restore reads its .json.gz)
    flask --app referee export --season 3 s3.json    a season (or --table ID ...; --csv)
    flask --app referee import s3.json               an export; prints each table's new token
    flask --app referee club-code                    a new club code (every manager phone signs out)

A backup holds the tables' token hashes and the members' Pix keys: the file is written readable
by its owner only. "-" reads standard input or writes standard output. The messages are English:
the command line has no phone to take a language from.
"""

from __future__ import annotations

import gzip
import json
import os
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from referee import backups, club, config, exports, league, ledger
from referee.db import db
from referee.inputs import parse_json
from referee.models import Table
from referee.rules.errors import RulesError


def init_app(app: Flask) -> None:
    for command in (backup_command, restore_command, export_command, import_command, club_code_command):
        app.cli.add_command(command)
    app.cli.add_command(backup_daily_command)


def _read(path: str) -> Any:
    """A JSON file, or a gzipped one (backup-daily writes those): told apart by gzip's magic."""
    try:
        raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        return parse_json(raw.decode("utf-8"))  # refuses text no database holds (a NUL from SQLite)
    except (OSError, EOFError, zlib.error, UnicodeDecodeError, ValueError) as exc:
        raise click.ClickException(f"Cannot read {path}: {exc}") from None


def _write(path: str, text: str) -> None:
    """Write all or nothing (a temporary file renamed over the target), owner-only."""
    if path == "-":
        click.echo(text, nl=False)
        return
    target = Path(path)
    fd, temporary = tempfile.mkstemp(dir=target.parent or ".", prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:  # mkstemp makes it 0600
            handle.write(text)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _refused(exc: RulesError | ledger.Conflict) -> click.ClickException:
    where = f" ({exc.field})" if isinstance(exc, RulesError) and exc.field else ""
    return click.ClickException(f"{exc.text}{where}")  # str(Text) is the English sentence


def _to_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


@click.command("backup")
@click.argument("path")
@with_appcontext
def backup_command(path: str) -> None:
    """Write every table, member and season (with secrets) to PATH."""
    data = exports.backup()
    _write(path, _to_json(data))
    if path != "-":
        click.echo(
            f"Backed up {len(data['tables'])} tables, {len(data['members'])} members, {len(data['seasons'])} seasons to {path}."
        )


@click.command("backup-daily")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--keep",
    default=backups.DEFAULT_KEEP,
    show_default=True,
    type=click.IntRange(min=1),
    help="How many days of backups to keep: this command's files of older days are deleted.",
)
@with_appcontext
def backup_daily_command(directory: Path, keep: int) -> None:
    """Write today's backup into DIRECTORY (referee-DATE.json.gz, and on SQLite a copy of the
    database file, referee-DATE.sqlite3), then delete this command's backups of older days beyond
    the newest KEEP. Other files in DIRECTORY are never touched. Safe while the app is serving;
    meant for a daily timer. Restore with: restore FILE.json.gz (or put the .sqlite3 file back)."""
    try:
        report = backups.take(directory, keep=keep)
    except backups.BackupFailed as exc:
        raise click.ClickException(str(exc)) from None
    counts = report.counts
    for path in report.written:
        click.echo(f"Wrote {path}")
    click.echo(f"({counts['tables']} tables, {counts['members']} members, {counts['seasons']} seasons.)")
    if report.no_copy:
        click.echo(f"No copy of the database file: {report.no_copy}.")
    for path in report.removed:
        click.echo(f"Removed {path}")


@click.command("restore")
@click.argument("path")
@click.option("--replace", is_flag=True, help="Delete everything in the database first.")
@with_appcontext
def restore_command(path: str, replace: bool) -> None:
    """Restore a backup from PATH into an empty database (or, with --replace, instead of it)."""
    try:
        counts = exports.restore(_read(path), replace=replace)
    except (RulesError, ledger.Conflict) as exc:
        raise _refused(exc) from None
    click.echo(f"Restored {counts['tables']} tables, {counts['members']} members, {counts['seasons']} seasons.")


@click.command("export")
@click.argument("path")
@click.option("--season", "season_id", type=int, help="The season's id.")
@click.option("--table", "table_ids", multiple=True, help="A table's id (may be repeated).")
@click.option("--csv", "as_csv", is_flag=True, help="One row per player per hand instead of JSON.")
@with_appcontext
def export_command(path: str, season_id: int | None, table_ids: tuple[str, ...], as_csv: bool) -> None:
    """Export a season's tables, the tables named, or (with neither) every table to PATH."""
    tables: list[Table] = []
    if season_id is not None:
        season = league.get_season(season_id)
        if season is None:
            raise click.ClickException(f"There is no season {season_id}.")
        tables = exports.season_tables(season)
    for table_id in table_ids:
        table = db.session.get(Table, table_id)
        if table is None:
            raise click.ClickException(f"There is no table {table_id}.")
        tables.append(table)
    if season_id is None and not table_ids:
        tables = exports.season_tables(None)
    _write(path, exports.tables_csv(tables) if as_csv else _to_json(exports.export_tables(tables)))
    if path != "-":
        click.echo(f"Exported {len(tables)} tables to {path}.")


@click.command("import")
@click.argument("path")
@with_appcontext
def import_command(path: str) -> None:
    """Import an export from PATH; prints each table's id and its new owner token."""
    try:
        made = exports.import_tables(_read(path))
    except (RulesError, ledger.Conflict) as exc:
        raise _refused(exc) from None
    for table, token in made:
        click.echo(f"{table.id} {token}")


@click.command("club-code")
@with_appcontext
def club_code_command() -> None:
    """Give the club a new code in instance/club_code and print it. Once the server restarts,
    the old code stops working and every phone that typed it must type the new one."""
    code = club.new_code()
    config.write_club_code(Path(current_app.instance_path), code)
    click.echo(f"The club's new code: {code}")
    click.echo(
        "Restart the server (make run) for it to take effect: every phone that managed the club then types it again."
    )
    click.echo("(A CLUB_CODE set in instance/config.py wins over this file: change it there instead.)")
