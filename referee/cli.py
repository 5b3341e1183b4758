"""Command-line backup, restore, export and import (``flask --app referee ...``).

    flask --app referee backup club.json             everything, secrets and the server's keys included
    flask --app referee restore club.json            into an empty database, the backup's keys in force
    flask --app referee restore --replace club.json  erasing what is there first
    flask --app referee restore --keys-only club.json        only the keys (after putting a .sqlite3 copy back)
    flask --app referee restore --print-secret-key club.json  the backup's key, for SECRET_KEY_FILE
    flask --app referee backup-daily DIR --keep 14   the day's backup into DIR, for a timer
                                                     (referee.backups; restore reads its .json.gz)
    flask --app referee export --season 3 s3.json    a season (or --table ID ...; --csv)
    flask --app referee import s3.json               an export; prints each table's new token
    flask --app referee club-code                    a new club code (every manager phone signs out)
    flask --app referee club-code --show             the club code in force, unchanged

A backup holds the tables' token hashes, the members' Pix keys and the server's secret key
(referee.server_keys): the file is written readable by its owner only. "-" reads standard input or writes standard output. The messages are English:
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
from flask_babel import force_locale
from sqlalchemy import select

from referee import backups, club, clubs, config, exports, import_claim, league, ledger, server_keys
from referee.club_scope import HOME_CLUB, serving
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


def write_private(path: str, text: str) -> None:
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
    """Write every table, member and season (with secrets, and the server's secret key and
    club code, without which no phone and no printed card would work after a restore) to PATH."""
    _refuse_a_key_made_now("backup")
    data = exports.backup(server_keys=True)
    write_private(path, _to_json(data))
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
    meant for a daily timer. Restore with: restore FILE.json.gz (or put the .sqlite3 file back,
    and on another machine put the keys in force with restore --keys-only FILE.json.gz)."""
    _refuse_a_key_made_now("backup-daily")
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
@click.option(
    "--replace-keys",
    is_flag=True,
    help="Put the backup's secret key and club code in the instance folder even where this server has its own.",
)
@click.option(
    "--sign-out-every-club",
    is_flag=True,
    help="With --replace-keys on a server that hosts other clubs: replace the secret key all of them use.",
)
@click.option("--keys-only", is_flag=True, help="Put the backup's keys in force; leave the database alone.")
@click.option("--print-secret-key", is_flag=True, help="Only print the backup's secret key.")
@click.option("--print-club-code", is_flag=True, help="Only print the backup's club code.")
@click.option(
    "--club",
    "club_slug",
    default=None,
    help="Into this club of the server, by its address's name (a hosted club's daily backup, or its export).",
)
@with_appcontext
def restore_command(
    path: str,
    replace: bool,
    replace_keys: bool,
    sign_out_every_club: bool,
    keys_only: bool,
    print_secret_key: bool,
    print_club_code: bool,
    club_slug: str | None,
) -> None:
    """Restore a backup from PATH into an empty database (or, with --replace, instead of it),
    and put in force the server's secret key and club code it carries, so that the old phones
    and the printed championship cards work here too. With --club, into that club of the server
    (empty, or replaced): its data only, no server keys."""
    if club_slug is not None:
        found = clubs.slugs(club_slug)
        if not found:
            raise click.BadParameter(f"no club is called {club_slug!r}.", param_hint="--club")
        club_id = next(iter(found))
        if club_id != HOME_CLUB:
            with serving(club_id):
                _restore_data(_read(path), replace=replace)
            return
    document = _read(path)
    try:
        keys = server_keys.read(document) if isinstance(document, dict) else None
    except RulesError as exc:
        raise _refused(exc) from None
    if print_secret_key or print_club_code:
        if keys is None:
            raise click.ClickException(f"{path} holds no server keys: {NO_KEYS}")
        click.echo(keys["secret_key" if print_secret_key else "club_code"])
        return
    if keys_only and keys is None:
        raise click.ClickException(f"{path} holds no server keys: {NO_KEYS}")
    if replace:
        _refuse_a_key_made_now("restore --replace")
    try:
        steps: list[server_keys.Step] = []
        if keys is not None:
            others = 0 if sign_out_every_club or _came_from(document) else len(clubs.slugs()) - 1
            steps = server_keys.plan(keys, replace=replace_keys, other_clubs=others)
    except server_keys.Refused as exc:
        raise click.ClickException(f"Nothing was restored. {exc}") from None
    if not keys_only:
        _restore_data(document, replace=replace)
    _put_keys(steps, keys is not None)


def _came_from(document: dict[str, Any]) -> bool:
    """Whether this database already holds the backup's tables: copied from the backup's server
    (its SQLite file, a dump), whose clubs' phones were all signed in with the backup's key. That
    key then signs them back in, not out: no club's phones need to be counted."""
    tables = document.get("tables")
    listed = tables if isinstance(tables, list) else []
    ids = [t["id"] for t in listed if isinstance(t, dict) and isinstance(t.get("id"), str)][:100]
    return bool(ids) and db.session.scalar(select(Table.id).where(Table.id.in_(ids)).limit(1)) is not None


def _restore_data(document: Any, *, replace: bool) -> None:
    """The backup's data, under the import claim: a restore is the largest import of all, and
    an import stored meanwhile would clash with it or be erased by its --replace."""
    try:
        claim = import_claim.take()
    except import_claim.Busy:
        with force_locale("en"):
            raise click.ClickException(f"Nothing was restored. {import_claim.busy_sentence()}") from None
    try:
        counts = exports.restore(document, replace=replace)
    except (RulesError, ledger.Conflict) as exc:
        raise _refused(exc) from None
    finally:
        claim.release()
    click.echo(f"Restored {counts['tables']} tables, {counts['members']} members, {counts['seasons']} seasons.")


def _refuse_a_key_made_now(command: str) -> None:
    """Refuse when the secret key in force was made by this very command: no server has signed
    anything with it, so the server this command was meant for reads its key from somewhere
    this shell was not told about (the service's SECRET_KEY_FILE). A backup would carry that
    new key (a restore then "succeeds" and every phone and card is lost), and a --replace
    restore would write it beside a server that never reads it. The key files made now are
    removed, so that the next run does not take them for the server's."""
    sources = current_app.config.get(config.SOURCES, {})
    if sources.get("SECRET_KEY") != config.MADE_NOW:
        return
    instance = Path(current_app.instance_path)
    for name, key, _what in server_keys.SETTINGS:
        if sources.get(key) == config.MADE_NOW:
            (instance / name).unlink(missing_ok=True)
    raise click.ClickException(
        f"Nothing was done: this server's secret key is not in {instance / 'secret_key'}, so {command} would"
        " use a key made just now, which no phone and no card knows. Run it with the server's own settings:"
        " on the service, systemctl start referee-backup.service for a backup, or as root in /opt/referee"
        ' SECRET_KEY="$(cat /etc/referee/secret_key)" runuser -u referee --'
        f" .venv/bin/flask --app referee {command} ... (with DATABASE_URL too if the server has one)."
    )


#: What a restore without the server's keys cannot bring back.
NO_KEYS = (
    "it was downloaded from a phone, or made before backups carried them. The data is back, but"
    " the phones of the old server have lost their rights here (owners, scorers and club managers:"
    " an owner's token is never shown again, so his phone can no longer manage his table), and the"
    " championship cards printed again from this server are refused (those printed before still work:"
    " keep them). Only a backup taken on the server itself (flask --app referee backup, or"
    " backup-daily) brings them back."
)


def _put_keys(steps: list[server_keys.Step], carried: bool) -> None:
    if not carried:
        click.echo(f"Warning: this backup holds no server keys: {NO_KEYS}")
        return
    try:
        written = server_keys.put(steps)
    except OSError as exc:
        raise click.ClickException(
            f"The backup's keys could not be written ({exc}): run restore --keys-only with the same file."
        ) from None
    for where in written:
        click.echo(f"Wrote the backup's {where.name.replace('_', ' ')} to {where}.")
    if written:
        click.echo("Restart the server so that it signs with them: the old phones and printed cards then work.")
    else:
        click.echo("The backup's secret key and club code are the ones in force: the old phones and cards work.")


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
    write_private(path, exports.tables_csv(tables) if as_csv else _to_json(exports.export_tables(tables)))
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
    except import_claim.Busy:
        with force_locale("en"):
            raise click.ClickException(import_claim.busy_sentence()) from None
    for table, token in made:
        click.echo(f"{table.id} {token}")


def _club_code_elsewhere() -> str | None:
    """What sets the club's code in force when it is not instance/club_code (the environment,
    instance/config.py, the factory's config), as the config noted it, or None when it is that
    file. A new code written to the file would then change nothing."""
    source = current_app.config[config.SOURCES].get("CLUB_CODE", config.INSTANCE_FILE)
    if source in (config.INSTANCE_FILE, config.MADE_NOW):
        return None
    if source == config.INSTANCE_CONFIG:
        return f"CLUB_CODE in {Path(current_app.instance_path) / 'config.py'}"
    return str(source)


@click.command("club-code")
@click.option("--show", is_flag=True, help="Print the code in force, and where it comes from, without changing it.")
@with_appcontext
def club_code_command(show: bool) -> None:
    """Give the club a new code in instance/club_code and print it (or, with --show, print the
    code in force and where it comes from). Once the server restarts, the old code stops
    working and every phone that typed it must type the new one."""
    elsewhere = _club_code_elsewhere()
    if show:
        click.echo(f"The club's code: {club.shown(str(current_app.config['CLUB_CODE']))}")
        click.echo(f"(From {elsewhere or Path(current_app.instance_path) / 'club_code'}.)")
        return
    if elsewhere:
        raise click.ClickException(
            f"The club's code in force comes from {elsewhere}, so a new one in instance/club_code would"
            f" change nothing: put a new code there instead (for example {club.new_code()}), then restart."
        )
    code = club.new_code()
    config.write_club_code(Path(current_app.instance_path), code)
    click.echo(f"The club's new code: {code}")
    click.echo(
        "Restart the server (make run) for it to take effect: every phone that managed the club then types it again."
    )
