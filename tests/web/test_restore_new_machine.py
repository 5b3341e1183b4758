"""A club's server restored on a new machine gives back every phone's access and every card.

The whole path as docs/club-server.md tells the admin: on server A, phones come in (a table's
owner, a scorer through a scoring link, one through a join code, the club's manager) and a
championship's cards are printed; the admin takes the backup with the command line; on a new
machine (an instance folder that does not exist yet, an empty database) the documented restore
runs; then the old phones' cookies and the old cards' links are replayed against the new
server: everything works, and the cards reprinted there are the same and work too. Only
public behaviour is asserted (answers to HTTP requests), never the session's layout.

The backup a manager downloads on a phone carries no key, and restoring it alone says that the
phones' sessions and the cards printed again will not work (and they do not; the cards printed
before hold their own token, and still work). A restore refuses, before storing
anything, to replace a key a server already uses unless told to. Runs on SQLite and on
PostgreSQL (TEST_DATABASE_URL).
"""

from __future__ import annotations

import gzip
import json
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from referee import ROOT, access, ledger
from referee.extensions import db
from referee.models import Table
from tests.conftest import TEST_DATABASE_URL, _empty_all_tables
from tests.web.championship_support import card_links, create, manager, register
from tests.web.club_support import add_club, phone_at
from tests.web.test_pages import new_table

ON_SQLITE = TEST_DATABASE_URL.startswith("sqlite")
NAMES = ["Ana", "Bia", "Caio", "Dani"]


def settings(instance: Path) -> dict[str, Any]:
    """A server as an admin runs it: the database in its instance folder (or the test's
    PostgreSQL), and the secret key and club code in that folder's files, made on first run."""
    url = f"sqlite:///{instance / 'referee.sqlite3'}" if ON_SQLITE else TEST_DATABASE_URL
    return {"INSTANCE_PATH": str(instance), "SQLALCHEMY_DATABASE_URI": url}


def flask(instance: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``flask --app referee ARGS`` as the admin types it, for the server of ``instance``."""
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", f"referee:create_app({settings(instance)!r})", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def server(make_app: Callable[..., Flask]) -> Callable[[Path], Flask]:
    """Serves ``instance`` as gunicorn would: no secret key or club code in the configuration."""
    plain = {"TESTING": False, "SECRET_KEY": None, "CLUB_CODE": None}
    return lambda instance: make_app({**settings(instance), **plain})


def moved(phone: FlaskClient, app: Flask) -> FlaskClient:
    """The same phone (its cookie jar) talking to another server at the same address."""
    other = app.test_client()
    cookie = phone.get_cookie("session")
    assert cookie is not None
    other.set_cookie("session", cookie.value)
    return other


def club_on(app: Flask) -> dict[str, Any]:
    """Phones of every kind at a table, a manager, and a championship's printed cards."""
    owner = app.test_client()
    table_id = new_table(owner)
    with app.app_context():
        table = ledger.get_table(table_id)
        _row, link = access.create_link(table, "Bia")
        _row, code = access.create_code(table, "Caio")
    scorer, joiner = app.test_client(), app.test_client()
    assert scorer.get(f"/j/{link}").status_code == 302
    assert joiner.post("/join", data={"code": code}).status_code == 302
    boss = manager(app)
    cid = create(boss, rounds="2")
    register(boss, cid, NAMES)
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "sorteio"}).status_code == 302
    cards = card_links(boss, cid, 1, "scorer") + card_links(boss, cid, 1, "fiscal")
    carded = app.test_client()
    scanned = carded.get(cards[0])  # a card used on the old server: to its table, as a scorer
    assert scanned.status_code == 302
    phones = {"owner": owner, "scorer": scorer, "joiner": joiner, "manager": boss, "carded": carded}
    carded_table = scanned.headers["Location"].rsplit("/t/", 1)[1]
    return {"table": table_id, "carded": carded_table, "cid": cid, "cards": cards, "phones": phones}


def rights(app: Flask, club: dict[str, Any], phones: dict[str, FlaskClient]) -> dict[str, int]:
    """What each phone may do on ``app``, as the status of a request only that right allows."""
    table = club["table"]
    return {
        "owner makes a join code": phones["owner"].post(f"/t/{table}/share/code").status_code,
        "scorer opens the record page": phones["scorer"].get(f"/t/{table}/hand").status_code,
        "join-code phone opens the record page": phones["joiner"].get(f"/t/{table}/hand").status_code,
        "manager downloads the backup": phones["manager"].get("/exports/backup").status_code,
        "card phone opens its round table's record page": phones["carded"].get(f"/t/{club['carded']}/hand").status_code,
    }


def cards_work(app: Flask, links: list[str]) -> list[int]:
    """A new phone scanning each card: 302 (to its table) when the card is taken."""
    return [app.test_client().get(link).status_code for link in links]


def new_machine(old: Flask, tmp_path: Path) -> Path:
    """A fresh clone's instance folder (not made yet) and an empty database."""
    if not ON_SQLITE:
        with old.app_context():
            db.session.remove()
            _empty_all_tables()
    return tmp_path / "new-machine" / "instance"


def test_the_documented_restore_on_a_new_machine_gives_back_every_phone_and_card(
    server: Callable[[Path], Flask], tmp_path: Path
) -> None:
    old = server(tmp_path / "old" / "instance")
    club = club_on(old)
    before = rights(old, club, club["phones"])
    assert set(before.values()) == {200}, before
    strangers = {name: old.test_client() for name in club["phones"]}
    assert 200 not in rights(old, club, strangers).values()

    backup = tmp_path / "club.json"
    made = flask(tmp_path / "old" / "instance", "backup", str(backup))
    assert made.returncode == 0, made.stderr

    instance = new_machine(old, tmp_path)
    restored = flask(instance, "restore", str(backup))
    assert restored.returncode == 0, restored.stderr
    assert "Restored 2 tables" in restored.stdout and "secret key" in restored.stdout
    assert (instance / "secret_key").stat().st_mode & 0o077 == 0

    new = server(instance)
    phones = {name: moved(phone, new) for name, phone in club["phones"].items()}
    assert rights(new, club, phones) == before
    assert cards_work(new, club["cards"]) == [302] * len(club["cards"])
    reprinted = card_links(phones["manager"], club["cid"], 1, "scorer") + card_links(
        phones["manager"], club["cid"], 1, "fiscal"
    )
    assert reprinted == club["cards"]


def test_the_phone_download_carries_no_key_and_its_restore_says_what_does_not_come_back(
    server: Callable[[Path], Flask], tmp_path: Path
) -> None:
    old_instance = tmp_path / "old" / "instance"
    old = server(old_instance)
    club = club_on(old)
    page = club["phones"]["manager"].get("/exports").get_data(as_text=True)
    assert "não leva as chaves do servidor" in page  # says so where it is downloaded
    download = club["phones"]["manager"].get("/exports/backup")
    assert download.status_code == 200
    body = download.get_data(as_text=True)
    for name in ("secret_key", "club_code"):
        assert (old_instance / name).read_text().strip() not in body
    assert "server" not in json.loads(body)
    backup = tmp_path / "downloaded.json"
    backup.write_text(body)

    instance = new_machine(old, tmp_path)
    restored = flask(instance, "restore", str(backup))
    assert restored.returncode == 0, restored.stderr
    assert "Restored 2 tables" in restored.stdout
    assert "holds no server keys" in restored.stdout and "cards" in restored.stdout

    new = server(instance)
    phones = {name: moved(phone, new) for name, phone in club["phones"].items()}
    lost = rights(new, club, phones)
    assert lost["owner makes a join code"] != 200 and lost["manager downloads the backup"] != 200
    assert lost["scorer opens the record page"] != 200
    assert cards_work(new, club["cards"]) == [302] * len(club["cards"])  # each holds its own token
    reprinted = card_links(manager(new), club["cid"], 1, "scorer")
    assert set(reprinted).isdisjoint(club["cards"]) and set(cards_work(new, reprinted)) == {403}


#: A key the new machine made and has signed phones in with, before the restore.
KEY_IN_USE = "a key this server has signed phones with\n"


def a_backup_and_a_machine_with_its_own_key(
    server: Callable[[Path], Flask], tmp_path: Path
) -> tuple[dict[str, Any], Path, Path]:
    """The old server's club and its backup, and the new machine's instance folder, which
    already holds a key of its own."""
    old = server(tmp_path / "old" / "instance")
    club = club_on(old)
    backup = tmp_path / "club.json"
    assert server(tmp_path / "old" / "instance").test_cli_runner().invoke(args=["backup", str(backup)]).exit_code == 0
    instance = new_machine(old, tmp_path)
    instance.mkdir(parents=True)
    (instance / "secret_key").write_text(KEY_IN_USE)
    return club, backup, instance


def nothing_was_restored(new: Flask, instance: Path) -> bool:
    """The machine's own key is still in its file, and no table was stored."""
    with new.app_context():
        stored = db.session.scalar(select(func.count()).select_from(Table))
    return (instance / "secret_key").read_text() == KEY_IN_USE and stored == 0


def test_a_restore_refuses_to_replace_a_key_in_use_unless_told_and_stores_nothing(
    server: Callable[[Path], Flask], tmp_path: Path
) -> None:
    club, backup, instance = a_backup_and_a_machine_with_its_own_key(server, tmp_path)
    new = server(instance)
    refused = new.test_cli_runner().invoke(args=["restore", str(backup)])
    assert refused.exit_code != 0
    assert "Nothing was restored" in refused.output and "--replace-keys" in refused.output
    assert nothing_was_restored(new, instance)

    done = new.test_cli_runner().invoke(args=["restore", "--replace-keys", str(backup)])
    assert done.exit_code == 0, done.output
    phone = moved(club["phones"]["owner"], server(instance))
    assert phone.post(f"/t/{club['table']}/share/code").status_code == 200


def test_replacing_the_key_of_a_server_that_hosts_other_clubs_takes_saying_so(
    server: Callable[[Path], Flask], tmp_path: Path
) -> None:
    """The secret key signs the phones of every club on the server: the first club's restore
    does not sign out the others' phones, and cost their owners their tables, by default."""
    _club, backup, instance = a_backup_and_a_machine_with_its_own_key(server, tmp_path)
    new = server(instance)
    add_club(new, "bolinha")
    owner = phone_at(new, "bolinha")
    hosted_table = new_table(owner)
    assert owner.post(f"/t/{hosted_table}/share/code").status_code == 200

    refused = new.test_cli_runner().invoke(args=["restore", "--replace-keys", str(backup)])
    assert refused.exit_code != 0
    assert "1 other club" in refused.output and "--sign-out-every-club" in refused.output
    assert nothing_was_restored(new, instance)
    assert moved(owner, server(instance)).post(f"/k/bolinha/t/{hosted_table}/share/code").status_code == 200

    done = new.test_cli_runner().invoke(
        args=["restore", "--keys-only", "--replace-keys", "--sign-out-every-club", str(backup)]
    )
    assert done.exit_code == 0, done.output
    # As the sentence said: the hosted club's owner no longer manages his table.
    assert moved(owner, server(instance)).post(f"/k/bolinha/t/{hosted_table}/share/code").status_code != 200


def test_the_keys_of_a_server_whose_database_was_copied_whole_sign_every_club_back_in(
    server: Callable[[Path], Flask], tmp_path: Path
) -> None:
    """The documented move of a whole server on SQLite: its database file copied as it is (every
    club in it), then the first club's backup's keys put in force. The hosted clubs' phones were
    signed in with that very key, so nothing is refused and they keep their tables."""
    old_instance = tmp_path / "old" / "instance"
    old = server(old_instance)
    club_on(old)
    add_club(old, "bolinha")
    owner = phone_at(old, "bolinha")
    hosted_table = new_table(owner)
    backup = tmp_path / "club.json"
    assert server(old_instance).test_cli_runner().invoke(args=["backup", str(backup)]).exit_code == 0

    instance = tmp_path / "new-machine" / "instance"
    instance.mkdir(parents=True)
    if ON_SQLITE:  # the copy of the file; on PostgreSQL the new server reads the same database
        with (
            sqlite3.connect(old_instance / "referee.sqlite3") as source,
            sqlite3.connect(instance / "referee.sqlite3") as target,
        ):
            source.backup(target)
    (instance / "secret_key").write_text("a key the new machine made before the copy\n")
    done = server(instance).test_cli_runner().invoke(args=["restore", "--keys-only", "--replace-keys", str(backup)])
    assert done.exit_code == 0, done.output
    assert moved(owner, server(instance)).post(f"/k/bolinha/t/{hosted_table}/share/code").status_code == 200


def test_a_key_set_outside_the_instance_folder_is_named_and_printed_for_it(
    server: Callable[[Path], Flask], tmp_path: Path
) -> None:
    old = server(tmp_path / "old" / "instance")
    club_on(old)
    backup = tmp_path / "club.json"
    assert server(tmp_path / "old" / "instance").test_cli_runner().invoke(args=["backup", str(backup)]).exit_code == 0
    key = (tmp_path / "old" / "instance" / "secret_key").read_text().strip()

    instance = new_machine(old, tmp_path)
    elsewhere = server(instance)
    elsewhere.config.update(SECRET_KEY="from the service's own file", KEY_SOURCES={"SECRET_KEY": "SECRET_KEY_FILE"})
    runner = elsewhere.test_cli_runner()
    refused = runner.invoke(args=["restore", str(backup)])
    assert refused.exit_code != 0 and "SECRET_KEY_FILE" in refused.output and "--print-secret-key" in refused.output
    assert "other club" not in refused.output
    printed = runner.invoke(args=["restore", "--print-secret-key", str(backup)])
    assert printed.exit_code == 0 and printed.output == key + "\n"
    # Were the server also hosting a club, putting the backup's key there would sign its phones out: said.
    add_club(elsewhere, "bolinha")
    warned = runner.invoke(args=["restore", str(backup)])
    assert warned.exit_code != 0 and "SECRET_KEY_FILE" in warned.output
    assert "signs out every phone of the other club" in warned.output


def test_a_malformed_key_section_is_a_sentence_and_nothing_is_stored(
    server: Callable[[Path], Flask], tmp_path: Path
) -> None:
    old = server(tmp_path / "old" / "instance")
    club_on(old)
    backup = tmp_path / "club.json"
    assert server(tmp_path / "old" / "instance").test_cli_runner().invoke(args=["backup", str(backup)]).exit_code == 0
    document = json.loads(backup.read_text())
    document["server"]["secret_key"] = "two\nlines"
    backup.write_text(json.dumps(document))

    instance = new_machine(old, tmp_path)
    new = server(instance)
    answer = new.test_cli_runner().invoke(args=["restore", str(backup)])
    assert answer.exit_code != 0 and "server.secret_key" in answer.output
    with new.app_context():
        assert db.session.scalar(select(func.count()).select_from(Table)) == 0


def test_the_daily_backup_carries_the_keys_and_puts_them_back_beside_its_sqlite_copy(
    server: Callable[[Path], Flask], tmp_path: Path
) -> None:
    old_instance = tmp_path / "old" / "instance"
    old = server(old_instance)
    club = club_on(old)
    folder = tmp_path / "backups"
    assert (
        server(tmp_path / "old" / "instance").test_cli_runner().invoke(args=["backup-daily", str(folder)]).exit_code
        == 0
    )
    (daily,) = folder.glob("referee-*.json.gz")
    document = json.loads(gzip.decompress(daily.read_bytes()))
    assert document["server"]["secret_key"] == (old_instance / "secret_key").read_text().strip()
    if not ON_SQLITE:
        return  # the copy of the database file is made on SQLite only

    instance = new_machine(old, tmp_path)
    instance.mkdir(parents=True)
    shutil.copy(next(folder.glob("referee-*.sqlite3")), instance / "referee.sqlite3")
    keys = server(instance).test_cli_runner().invoke(args=["restore", "--keys-only", str(daily)])
    assert keys.exit_code == 0, keys.output
    assert "Restored" not in keys.output and "secret key" in keys.output
    new = server(instance)
    phones = {name: moved(phone, new) for name, phone in club["phones"].items()}
    assert set(rights(new, club, phones).values()) == {200}


def test_a_backup_under_a_key_made_by_the_command_itself_is_refused_and_leaves_no_key(
    server: Callable[[Path], Flask], tmp_path: Path
) -> None:
    """The service reads its key from SECRET_KEY_FILE, which an admin's shell does not set: the
    command would make a new key of its own and carry it. It refuses and names how to run it,
    and leaves no key file behind for the next run to take for the server's."""
    instance = tmp_path / "service" / "instance"
    admin = server(instance)  # as the admin's shell loads it: no key anywhere yet
    runner = admin.test_cli_runner()
    for args in (["backup", str(tmp_path / "club.json")], ["backup-daily", str(tmp_path / "daily")]):
        refused = runner.invoke(args=args)
        assert refused.exit_code != 0 and "referee-backup.service" in refused.output, refused.output
        assert "/etc/referee/secret_key" in refused.output
    assert not (tmp_path / "club.json").exists() and not (tmp_path / "daily").exists()
    assert not (instance / "secret_key").exists() and not (instance / "club_code").exists()


def test_a_replacing_restore_under_a_key_made_by_the_command_itself_is_refused(
    server: Callable[[Path], Flask], tmp_path: Path
) -> None:
    old = server(tmp_path / "old" / "instance")
    club_on(old)
    backup = tmp_path / "club.json"
    assert server(tmp_path / "old" / "instance").test_cli_runner().invoke(args=["backup", str(backup)]).exit_code == 0
    with old.app_context():
        tables = db.session.scalar(select(func.count()).select_from(Table))
    (tmp_path / "old" / "instance" / "secret_key").unlink()  # the service's key is elsewhere
    (tmp_path / "old" / "instance" / "club_code").unlink()
    admin = server(tmp_path / "old" / "instance")
    refused = admin.test_cli_runner().invoke(args=["restore", "--replace", str(backup)])
    assert refused.exit_code != 0 and "secret_key" in refused.output, refused.output
    assert not (tmp_path / "old" / "instance" / "secret_key").exists()
    with admin.app_context():
        assert db.session.scalar(select(func.count()).select_from(Table)) == tables
