"""The server's operator makes clubs, each with its own code, and suspends or resumes them.

``flask --app referee clubs create "Clube do Bolinha"`` prints the club's name, its address and
its code on lines of their own; that code, and only it, makes a phone the club's manager at that
address (the first club's code does nothing there, nor the other way round); wrong codes count
within the club. A suspended club's address says so and serves nothing else, its data kept.
"""

from __future__ import annotations

import gzip
import json
import re
import stat
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from referee import guesses, server_keys
from referee.club_scope import ALL_CLUBS, HOME_CLUB
from referee.db import db
from referee.models import Club

from .championship_support import create, register
from .club_support import phone_at
from .test_club_league import FIRST, SECOND
from .test_ratings import play, table_of


def _create(app: Flask, *args: str) -> list[str]:
    result = app.test_cli_runner().invoke(args=["clubs", "create", *args])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def _manager(phone) -> bool:  # type: ignore[no-untyped-def]
    return 'name="action" value="lock"' in phone.get("/club").get_data(as_text=True)


def test_create_prints_the_name_the_full_address_and_the_code_on_lines_of_their_own(app: Flask) -> None:
    app.config["SERVER_URL"] = "https://referee.example.org/"
    lines = _create(app, "Clube do Bolinha")
    assert lines[:2] == ["Clube do Bolinha", "https://referee.example.org/k/clube-do-bolinha/"]
    assert re.fullmatch(r"\d{4} \d{4} \d{4}", lines[2]), lines
    again = _create(app, "Clube do Bolinha")
    assert again[1] == "https://referee.example.org/k/clube-do-bolinha-2/" and again[2] != lines[2]
    with app.app_context():
        kept = db.session.scalar(select(Club.code_digest).where(Club.slug == "clube-do-bolinha"))
        assert kept and re.sub(r"\D", "", lines[2]) not in kept  # a hash, not the code
    # The address answers, in the club's name.
    phone = phone_at(app, "clube-do-bolinha")
    assert phone.get("/").status_code == 200


def test_create_refuses_a_name_or_an_address_it_cannot_use(app: Flask) -> None:
    runner = app.test_cli_runner()
    for args in (["   "], ["x" * 81], ["Bolinha", "--slug", "Não pode"], ["Bolinha", "--slug", "clube"]):
        result = runner.invoke(args=["clubs", "create", *args])
        assert result.exit_code == 1 and result.output.startswith("Error: "), (args, result.output)
    with app.app_context():
        assert db.session.scalars(select(Club.slug)).all() == ["clube"]


def test_each_club_is_managed_with_its_own_code_only(app: Flask) -> None:
    code = _create(app, "Bolinha", "--slug", "bolinha")[2]
    there, here = phone_at(app, "bolinha"), app.test_client()
    for phone in (there, here):
        phone.set_cookie("lang", "en")
    assert there.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 422  # refused
    assert not _manager(there)
    assert there.post("/club", data={"code": code}).status_code == 302
    assert _manager(there) and not _manager(here)  # the same phone, the first club's address
    assert here.post("/club", data={"code": code}).status_code == 422
    assert here.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302
    assert _manager(here) and _manager(there)  # one phone may manage both
    # The API takes the club's own code in its header.
    for given, status in ((app.config["CLUB_CODE"], 401), (code, 400)):  # 400: the body, looked at once let in
        answer = there.post("/api/v1/import", json={}, headers={"X-Referee-Club-Code": given})
        assert answer.status_code == status, answer.get_data(as_text=True)
    # A new code signs the club's managers out, and only them.
    new = app.test_cli_runner().invoke(args=["clubs", "code", "bolinha"]).output.strip()
    assert re.fullmatch(r"\d{4} \d{4} \d{4}", new) and new != code
    assert not _manager(there) and _manager(here)
    assert there.post("/club", data={"code": new}).status_code == 302 and _manager(there)


def test_wrong_codes_count_within_their_club(app: Flask) -> None:
    _create(app, "Bolinha", "--slug", "bolinha")
    flood = phone_at(app, "bolinha")
    for n in range(guesses.PHONE_WRONG + 1):
        flood.post("/club", data={"code": f"{n:012d}"})
    assert flood.post("/club", data={"code": "0"}).status_code == 429
    # The same phone at the first club's address has its own count there.
    flood.prefix = ""
    assert flood.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302


def test_a_suspended_club_says_so_and_keeps_its_data_until_it_plays_again(app: Flask) -> None:
    _create(app, "Bolinha", "--slug", "bolinha")
    phone = phone_at(app, "bolinha")
    made = phone.post("/api/v1/tables", json={"game": "jubileu", "players": ["Ana", "Bia", "Caio", "Dani"]})
    assert made.status_code == 201
    runner = app.test_cli_runner()
    assert runner.invoke(args=["clubs", "suspend", "bolinha"]).output == "bolinha: suspended.\n"
    for path in ("/", f"/api/v1/tables/{made.get_json()['id']}", "/league/jubileu"):
        answer = phone.get(path, headers={"Accept-Language": "pt-BR"})
        assert answer.status_code == 403, path
        assert "suspenso" in answer.get_data(as_text=True), path
    listed = runner.invoke(args=["clubs", "list"]).output.splitlines()
    assert listed[0].startswith("clube  'Clube'  0 tables")
    assert listed[1].startswith("bolinha  'Bolinha'  1 tables, 4 members, 0 hands, last active 20")
    assert listed[1].endswith("SUSPENDED")
    assert runner.invoke(args=["clubs", "suspend", "clube"]).exit_code == 1  # the server's own
    assert runner.invoke(args=["clubs", "resume", "bolinha"]).output == "bolinha: playing again.\n"
    assert phone.get(f"/api/v1/tables/{made.get_json()['id']}").status_code == 200
    assert runner.invoke(args=["clubs", "suspend", "nada"]).exit_code == 2


def _rows_of(app: Flask, club_id: int) -> dict[str, int]:
    """How many rows of each table belong to ``club_id`` (read as the operator, across clubs)."""
    with app.app_context():
        found = {}
        for table in db.metadata.sorted_tables:
            if "club_id" in table.c:
                query = select(func.count()).select_from(table).where(table.c.club_id == club_id)
                if n := db.session.execute(query, execution_options={ALL_CLUBS: True}).scalar():
                    found[table.name] = n
        db.session.remove()
        return found


def test_the_operator_exports_a_club_whole_then_deletes_everything_it_holds(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    # The first club plays a table; the hosted one plays a table, names a Pix key, runs a championship.
    play(client, table_of(client, "jubileu", FIRST), "jubileu", FIRST, range(2))
    code = _create(app, "Bolinha", "--slug", "bolinha")[2]
    with app.app_context():
        bolinha = db.session.scalar(select(Club.id).where(Club.slug == "bolinha"))
    phone = phone_at(app, "bolinha")
    play(phone, table_of(phone, "jubileu", SECOND), "jubileu", SECOND, range(3))
    assert phone.post("/club", data={"code": code}).status_code == 302
    lia = phone.get("/players").get_data(as_text=True)
    member = re.search(r'href="/k/bolinha/players/(\d+)"[^>]*>\s*Lia', lia)
    assert member, lia
    assert phone.post(f"/players/{member.group(1)}/pix", data={"pix_key": "lia@example.com"}).status_code == 302
    cid = create(phone, name="Copa Bolinha")
    register(phone, cid, ["Lia", "Rui", "Gal", "Zé"])
    first_rows = _rows_of(app, HOME_CLUB)
    held = _rows_of(app, bolinha)
    assert {"game_table", "hand", "member", "championship", "champ_entry"} <= set(held), held

    runner = app.test_cli_runner()
    refused = runner.invoke(args=["clubs", "delete", "bolinha", "--yes"])
    assert refused.exit_code == 1 and "--export FILE" in refused.output
    assert runner.invoke(args=["clubs", "delete", "clube", "--without-export", "--yes"]).exit_code == 1
    final = tmp_path / "bolinha.json"
    done = runner.invoke(args=["clubs", "delete", "bolinha", "--export", str(final), "--yes"])
    assert done.exit_code == 0, done.output
    assert done.output.splitlines() == [
        f"bolinha: final export, 1 tables, written to {final}.",
        f"bolinha: deleted, with {sum(held.values())} rows it held.",
    ]
    written = json.loads(final.read_text())
    assert written["club"] == {"slug": "bolinha", "name": "Bolinha"}
    assert len(written["tables"]) == 1 and len(written["championships"]) == 1
    assert "lia@example.com" in final.read_text() and {m["name"] for m in written["members"]} == {*SECOND, "Zé"}
    assert stat.S_IMODE(final.stat().st_mode) == 0o600
    assert _rows_of(app, bolinha) == {}
    assert _rows_of(app, HOME_CLUB) == first_rows
    assert phone.get("/").status_code == 404
    with app.app_context():
        assert db.session.scalars(select(Club.slug)).all() == ["clube"]


def test_the_daily_backup_keeps_each_club_in_its_own_file_and_restores_into_a_club(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    play(client, table_of(client, "jubileu", FIRST), "jubileu", FIRST, range(2))
    _create(app, "Bolinha", "--slug", "bolinha")
    phone = phone_at(app, "bolinha")
    table = table_of(phone, "jubileu", SECOND)
    play(phone, table, "jubileu", SECOND, range(3))
    runner = app.test_cli_runner()
    folder = tmp_path / "backups"
    daily = runner.invoke(args=["backup-daily", str(folder)])
    assert daily.exit_code == 0, daily.output
    files = sorted(p.name for p in folder.iterdir())
    assert len(files) == 2 and files[0].startswith("referee-2") and files[1].startswith("referee-k-bolinha-2"), files
    documents = [json.loads(gzip.decompress((folder / name).read_bytes())) for name in files]
    assert [sorted(m["name"] for m in d["members"]) for d in documents] == [sorted(FIRST), sorted(SECOND)]
    # The server's keys travel in the first club's backup only.
    assert server_keys.FIELD in documents[0] and server_keys.FIELD not in documents[1]
    assert stat.S_IMODE((folder / files[1]).stat().st_mode) == 0o600

    # The club is deleted, made again, and its backup restored into it.
    first_rows = _rows_of(app, HOME_CLUB)
    assert runner.invoke(args=["clubs", "delete", "bolinha", "--without-export", "--yes"]).exit_code == 0
    _create(app, "Bolinha", "--slug", "bolinha")
    restored = runner.invoke(args=["restore", str(folder / files[1]), "--club", "bolinha"])
    assert restored.exit_code == 0, restored.output
    assert restored.output.startswith("Restored 1 tables, 4 members")
    answer = phone.get(f"/api/v1/tables/{table['id']}")
    assert answer.status_code == 200 and answer.get_json()["next_number"] == 4
    play(phone, table, "jubileu", SECOND, range(3, 4))  # its owner's token came back with it
    assert client.get(f"/api/v1/tables/{table['id']}").status_code == 404  # not the first club's
    assert _rows_of(app, HOME_CLUB) == first_rows
    assert runner.invoke(args=["restore", str(folder / files[1]), "--club", "nada"]).exit_code == 2
