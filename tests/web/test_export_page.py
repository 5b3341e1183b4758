"""The export and import page: a table's downloads for whoever holds its id, a season's and the
full backup for the club's code only, and an import from a chosen file that shows its result or
its sentence and never stores half a document."""

from __future__ import annotations

import io
import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from referee import league
from referee.extensions import db
from referee.models import Hand, Table
from tests.web.api_support import API, create_table, record_ok, solo_record


def _unlock(app: Flask, client: FlaskClient) -> None:
    assert client.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302


def _played(client: FlaskClient) -> dict[str, Any]:
    table = create_table(client, name="Mesa do Zé")
    record_ok(client, table, solo_record("Dani"))
    return table


def _count(app: Flask, model: Any) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model)) or 0


def _upload(client: FlaskClient, content: bytes, name: str = "mesa.json") -> Any:
    client.set_cookie("lang", "en")
    return client.post(
        "/exports/import", data={"file": (io.BytesIO(content), name)}, content_type="multipart/form-data"
    )


def test_anyone_gets_the_page_with_a_table_they_hold_and_no_club_tools(client: FlaskClient) -> None:
    table = _played(client)
    client.set_cookie("lang", "en")
    page = client.get(f"/exports?t={table['id']}").get_data(as_text=True)
    assert f'href="{API}/tables/{table["id"]}/export.csv"' in page
    assert f'href="{API}/tables/{table["id"]}/export"' in page
    assert "Mesa do Zé" in page
    assert "/exports/backup" not in page and "/exports/import" not in page  # the club's code only
    assert "need the club’s code" in page
    assert client.get("/exports?t=nope-not-a-table").status_code == 404
    assert "Open the table" in client.get("/exports").get_data(as_text=True)


def test_the_page_is_linked_from_the_table_the_league_the_home_and_the_club_page(
    app: Flask, client: FlaskClient
) -> None:
    table = _played(client)
    assert f'href="/exports?t={table["id"]}"' in client.get(f"/t/{table['id']}").get_data(as_text=True)
    assert 'href="/exports"' in client.get("/league/jubileu").get_data(as_text=True)
    assert 'href="/exports"' in client.get("/league/seasons").get_data(as_text=True)
    assert 'href="/exports"' in client.get("/").get_data(as_text=True)
    _unlock(app, client)
    assert 'href="/exports"' in client.get("/club").get_data(as_text=True)


def test_a_watcher_gets_no_export_button_on_the_read_only_page(client: FlaskClient) -> None:
    table = _played(client)
    watcher = client.application.test_client()
    page = watcher.get(f"/w/{table['id']}").get_data(as_text=True)
    assert "/exports" not in page


def test_the_backup_and_the_import_are_refused_without_the_club_code(app: Flask, client: FlaskClient) -> None:
    table = _played(client)
    assert client.get("/exports/backup").status_code == 403
    document = client.get(f"{API}/tables/{table['id']}/export").get_data()
    tables = _count(app, Table)
    assert _upload(client, document).status_code == 403
    assert _count(app, Table) == tables


def test_the_club_code_gets_the_seasons_and_the_backup(app: Flask, client: FlaskClient) -> None:
    _played(client)
    with app.app_context():
        season = league.save_season(None, name="2027", starts_on="2027-01-01", ends_on="2027-12-31")
        season_id = season.id
    _unlock(app, client)
    page = client.get("/exports").get_data(as_text=True)
    assert f'href="{API}/seasons/{season_id}/export.csv"' in page and f'href="{API}/seasons/{season_id}/export"' in page
    assert client.get(f"{API}/seasons/{season_id}/export").status_code == 200  # this phone's code opens it
    backup = client.get("/exports/backup")
    assert backup.status_code == 200 and backup.headers["Cache-Control"] == "no-store"
    assert backup.headers["Content-Disposition"].startswith('attachment; filename="referee-backup-')
    assert backup.get_json()["format"] == "referee-backup" and len(backup.get_json()["tables"]) == 1


def test_an_import_from_a_file_rebuilds_the_tables_and_this_phone_owns_them(app: Flask, client: FlaskClient) -> None:
    table = _played(client)
    document = client.get(f"{API}/tables/{table['id']}/export").get_json()
    document["tables"][0]["id"] = "B" * 22
    _unlock(app, client)
    answer = _upload(client, json.dumps(document).encode())
    assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    assert "1 table imported" in page and 'href="/t/' + "B" * 22 + '"' in page
    assert _count(app, Table) == 2
    new_id = "B" * 22
    # The owner's controls: this phone may hand out a scoring link; another phone may not.
    assert client.post(f"/t/{new_id}/share/link", data={"label": "TV"}).status_code in (200, 302)
    assert app.test_client().post(f"/t/{new_id}/share/link", data={"label": "TV"}).status_code == 403
    assert "<code>" in page  # the owner code, shown once so that none is lost


def test_a_refused_import_shows_its_sentence_and_stores_nothing(app: Flask, client: FlaskClient) -> None:
    table = _played(client)
    document = client.get(f"{API}/tables/{table['id']}/export").get_json()
    _unlock(app, client)
    tables, hands = _count(app, Table), _count(app, Hand)
    taken = _upload(client, json.dumps(document).encode())  # its id is already stored
    assert taken.status_code == 409 and "Nothing was imported." in taken.get_data(as_text=True)
    document["tables"][0]["id"] = "C" * 22
    document["tables"][0]["hands"][0]["record"]["tricks"]["Ana"] = 12  # thirteen tricks no longer
    doctored = _upload(client, json.dumps(document).encode())
    assert doctored.status_code in (400, 422) and 'role="alert"' in doctored.get_data(as_text=True)
    for junk in (b"", b"not json", b"\xff\xfe", b"[1, 2]", b'{"format": "referee-backup"}', b"[" * 200_000):
        refused = _upload(client, junk)
        assert 400 <= refused.status_code < 500, junk
        assert "Nothing was imported." in refused.get_data(as_text=True)
    assert (_count(app, Table), _count(app, Hand)) == (tables, hands)


def test_an_import_too_large_points_to_the_command_line(app: Flask, client: FlaskClient) -> None:
    _unlock(app, client)
    answer = _upload(client, b'{"tables": [], "x": "' + b"x" * (1024 * 1024 + 100) + b'"}')
    assert answer.status_code == 413
    assert "flask --app referee import" in answer.get_data(as_text=True)
    assert _upload(client, b"x" * (3 * 1024 * 1024)).status_code == 413  # beyond what the form may carry


def test_a_file_a_bit_larger_than_a_hand_form_is_accepted(app: Flask, client: FlaskClient) -> None:
    _unlock(app, client)
    padded = {"format": "referee-export", "version": 1, "tables": [], "note": "x" * 200_000}
    answer = _upload(client, json.dumps(padded).encode())
    assert answer.status_code == 200 and "0 tables imported" in answer.get_data(as_text=True)


def test_with_csrf_on_a_large_file_passes_with_the_form_token_and_not_without(app: Flask, client: FlaskClient) -> None:
    """The import checks the form's token itself, after raising the body limit: the app-wide
    check would refuse a file larger than a hand's form before reading its token."""
    _unlock(app, client)
    app.config["WTF_CSRF_ENABLED"] = True
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/exports").get_data(as_text=True))
    assert token
    padded = json.dumps({"format": "referee-export", "version": 1, "tables": [], "note": "x" * 300_000}).encode()
    files = {"file": (io.BytesIO(padded), "big.json")}
    with_token = client.post("/exports/import", data={"csrf_token": token.group(1), **files})
    assert with_token.status_code == 200
    forged = client.post("/exports/import", data={"file": (io.BytesIO(padded), "big.json")})
    assert forged.status_code == 400


def test_the_downloaded_backup_leaves_out_a_join_code_still_open(app: Flask, client: FlaskClient) -> None:
    """A join code's hash covers few enough codes to try them all while it is open: the backup a
    phone downloads leaves it out; the command line's backup (a restore on the server) keeps it."""
    from referee import exports

    from .test_access import join_code

    table = _played(client)
    owner = app.test_client()
    assert owner.post(f"/t/{table['id']}/scorer", data={"token": table["token"]}).status_code == 302
    join_code(owner, table["id"], "Bia")
    _unlock(app, client)
    codes = [
        a for t in client.get("/exports/backup").get_json()["tables"] for a in t["accesses"] if a["code_expires_at"]
    ]
    assert len(codes) == 1 and codes[0]["code_hash"] is None
    with app.app_context():
        kept = [a for t in exports.backup()["tables"] for a in t["accesses"] if a["code_expires_at"]]
    assert len(kept) == 1 and kept[0]["code_hash"]
