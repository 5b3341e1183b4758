"""The server's operator's commands: the clubs a server hosts (``flask --app referee clubs``).

The operator is whoever runs the server: he makes clubs, lists them with their size and last
activity, gives a club a new code when its managers lost theirs, and suspends a club or lets it
play again. A club's own managers do everything else at the club's address, with its code.

Reading across clubs is the operator's alone: these commands ask with the ``all_clubs``
execution option (referee/club_scope.py), which no page and no API call uses.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

import click
from flask import current_app
from flask.cli import AppGroup
from flask_babel import force_locale
from sqlalchemy import func, select

from referee import clubs, exports
from referee.cli import write_private
from referee.club import shown
from referee.club_scope import ALL_CLUBS, HOME_CLUB, serving
from referee.db import db
from referee.models import Club, Hand, Member, Table, aware, utcnow
from referee.serve.announce import lan_addresses

cli = AppGroup("clubs", help="The clubs this server hosts: make, list, give a new code, suspend, export, delete.")

#: The port `make run` serves on, for a club's address when the server's is not set.
DEFAULT_PORT = 8000


def server_url() -> str:
    """The address phones reach this server at: REFEREE_URL (the config's SERVER_URL), or this
    machine's LAN address on the port `make run` serves on."""
    if url := current_app.config.get("SERVER_URL"):
        return str(url).rstrip("/")
    found = lan_addresses()
    return f"http://{found[0] if found else 'localhost'}:{DEFAULT_PORT}"


def address(slug: str) -> str:
    return f"{server_url()}/{clubs.SEGMENT}/{slug}/"


@dataclass(frozen=True)
class Size:
    """What a club holds, as the operator's list shows it."""

    slug: str
    name: str
    tables: int
    members: int
    hands: int
    last_active: datetime | None
    suspended: bool


def sizes() -> list[Size]:
    """Every club, in the order they were made, with its size and its last activity (its last
    table made or hand recorded): three grouped counts, whatever the number of clubs."""
    every = {ALL_CLUBS: True}
    counts: dict[str, dict[int, tuple[int, datetime | None]]] = {}
    for name, model, when in (("tables", Table, Table.created_at), ("hands", Hand, Hand.created_at)):
        query = select(model.club_id, func.count(), func.max(when)).group_by(model.club_id)
        counts[name] = {row[0]: (row[1], aware(row[2])) for row in db.session.execute(query, execution_options=every)}
    query = select(Member.club_id, func.count()).where(Member.merged_into.is_(None)).group_by(Member.club_id)
    people = dict(db.session.execute(query, execution_options=every).all())
    found = []
    for club in db.session.scalars(select(Club).order_by(Club.id)):
        tables, made = counts["tables"].get(club.id, (0, None))
        hands, played = counts["hands"].get(club.id, (0, None))
        moments = [m for m in (made, played) if m is not None]
        found.append(
            Size(
                slug=club.slug,
                name=club.name,
                tables=tables,
                members=int(people.get(club.id, 0)),
                hands=hands,
                last_active=max(moments) if moments else None,
                suspended=club.suspended_at is not None,
            )
        )
    return found


def _club(slug: str) -> Club:
    found = db.session.scalar(select(Club).where(Club.slug == slug))
    if found is None:
        raise click.BadParameter(
            f"no club is called {slug!r} (see: flask --app referee clubs list).", param_hint="SLUG"
        )
    return found


@cli.command("create")
@click.argument("name")
@click.option("--slug", default=None, help="The club's name in its address (default: made of its name).")
def create_command(name: str, slug: str | None) -> None:
    """Make a club; prints its name, its address and its code, each on a line of its own. The
    code is shown this once: the server keeps only a hash of it."""
    try:
        with force_locale("en"):  # the commands speak English, as the operator's other tools
            made, code = clubs.create(name, slug)
    except clubs.ClubRefused as refused:
        raise click.ClickException(str(refused)) from None
    db.session.commit()
    click.echo(made.name)
    click.echo(address(made.slug))
    click.echo(shown(code))


@cli.command("list")
def list_command() -> None:
    """Every club: its address's name, its size, its last activity, and whether it is suspended."""
    for size in sizes():
        when = size.last_active.strftime("%Y-%m-%d %H:%M") if size.last_active else "never"
        state = "  SUSPENDED" if size.suspended else ""
        click.echo(
            f"{size.slug}  {size.name!r}  {size.tables} tables, {size.members} members, {size.hands} hands,"
            f" last active {when}{state}"
        )


@cli.command("code")
@click.argument("slug")
def code_command(slug: str) -> None:
    """Give a club a new code and print it: every phone that typed the old one must type the
    new one. (The server's first club's code is the installation's: see `club-code`.)"""
    club = _club(slug)
    if club.id == HOME_CLUB:
        raise click.ClickException("The server's first club's code is the installation's: use `club-code`.")
    code = clubs.club.new_code()
    club.code_digest = clubs.club.digest(code)
    db.session.commit()
    click.echo(shown(code))


@cli.command("suspend")
@click.argument("slug")
def suspend_command(slug: str) -> None:
    """Suspend a club: its address says so and serves nothing else; its data is kept."""
    club = _club(slug)
    if club.id == HOME_CLUB:
        raise click.ClickException("The server's first club is the server's own: it cannot be suspended.")
    club.suspended_at = club.suspended_at or utcnow()
    db.session.commit()
    click.echo(f"{club.slug}: suspended.")


@cli.command("resume")
@click.argument("slug")
def resume_command(slug: str) -> None:
    """Let a suspended club play again."""
    club = _club(slug)
    club.suspended_at = None
    db.session.commit()
    click.echo(f"{club.slug}: playing again.")


def _export(club: Club, path: str) -> int:
    """Write everything ``club`` holds (as its managers' backup holds it) to ``path``, owner-only;
    answers how many tables it holds."""
    with serving(club.id):
        data = exports.backup(live_codes=False)
    data["club"] = {"slug": club.slug, "name": club.name}
    write_private(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    return len(data["tables"])


@cli.command("export")
@click.argument("slug")
@click.argument("path")
def export_command(slug: str, path: str) -> None:
    """Write everything a club holds to PATH: its tables with their hands, members, seasons and
    championships (what its managers' backup holds)."""
    club = _club(slug)
    tables = _export(club, path)
    if path != "-":
        click.echo(f"{club.slug}: {tables} tables written to {path}.")


@cli.command("delete")
@click.argument("slug")
@click.option("--export", "export_to", default=None, help="Write the club's final export to this file first.")
@click.option("--without-export", is_flag=True, help="Delete without a final export.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def delete_command(slug: str, export_to: str | None, without_export: bool, yes: bool) -> None:
    """Delete a club and everything it holds: tables, hands, members and their Pix keys,
    seasons, ratings, championships, links. Its final export is written first (--export FILE),
    unless --without-export says not to; nothing of the club is left in the database (the daily
    backups already written keep it until they are rotated out)."""
    club = _club(slug)
    if club.id == HOME_CLUB:
        raise click.ClickException("The server's first club is the server's own: it cannot be deleted.")
    if export_to is None and not without_export:
        raise click.ClickException(
            "Deleting a club removes everything it holds. Write its final export first with"
            " --export FILE, or say --without-export."
        )
    if not yes:
        click.confirm(f"Delete {club.name!r} ({club.slug}) and everything it holds?", abort=True)
    # Suspended first: no request writes into the club while its export and deletion run.
    club.suspended_at = club.suspended_at or utcnow()
    db.session.commit()
    if export_to is not None:
        click.echo(f"{club.slug}: final export, {_export(club, export_to)} tables, written to {export_to}.")
    removed = remove(club)
    click.echo(f"{slug}: deleted, with {removed} rows it held.")


def remove(club: Club) -> int:
    """Delete ``club``'s rows from every table, children before parents, then the club itself,
    in one transaction; answers how many rows went."""
    removed = 0
    with serving(club.id):
        for table in reversed(db.metadata.sorted_tables):
            if "club_id" in table.c:
                removed += db.session.execute(table.delete()).rowcount or 0  # limited to the club by the scope
    db.session.delete(club)
    db.session.commit()
    return removed
