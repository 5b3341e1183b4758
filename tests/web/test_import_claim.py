"""One import at a time: while an import holds the claim (referee.import_claim) another one,
by the page or the API, is refused at once with a sentence and a Retry-After, and stores
nothing; a refused or failed import lets go of the claim, and a claim left by a killed process
lapses by itself.

Runs on SQLite and on PostgreSQL (TEST_DATABASE_URL)."""

from __future__ import annotations

import io
import json
from datetime import timedelta
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from referee import import_claim
from referee.extensions import db
from referee.models import Table, utcnow
from tests.web.api_support import API, create_table, record_ok, solo_record

SENTENCE = "Another import is running; try again in a minute."


def _document(client: FlaskClient, new_id: str) -> dict[str, Any]:
    table = create_table(client, name="Mesa do Zé")
    record_ok(client, table, solo_record("Dani"))
    document = client.get(f"{API}/tables/{table['id']}/export").get_json()
    document["tables"][0]["id"] = new_id
    return document


def _by_api(app: Flask, client: FlaskClient, document: object) -> Any:
    return client.post(
        f"{API}/import?language=en", json=document, headers={"X-Referee-Club-Code": app.config["CLUB_CODE"]}
    )


def _by_page(app: Flask, client: FlaskClient, document: object) -> Any:
    client.set_cookie("lang", "en")
    assert client.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302
    content = json.dumps(document).encode()
    return client.post(
        "/exports/import", data={"file": (io.BytesIO(content), "mesa.json")}, content_type="multipart/form-data"
    )


def _tables(app: Flask) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(Table)) or 0)


def _held_elsewhere(app: Flask) -> import_claim.Claim:
    """Another worker's import in the middle of its work."""
    with app.app_context():
        return import_claim.take()


def test_an_import_while_another_runs_is_told_to_wait_and_stores_nothing(app: Flask, client: FlaskClient) -> None:
    document = _document(client, "B" * 22)
    before = _tables(app)
    other = _held_elsewhere(app)
    answer = _by_api(app, client, document)
    assert answer.status_code == 429
    assert answer.get_json()["error"] == {"code": "busy", "message": SENTENCE}
    assert answer.headers["Retry-After"] == "60"
    page = _by_page(app, client, document)
    assert page.status_code == 429 and page.headers["Retry-After"] == "60"
    assert SENTENCE in unescape(page.get_data(as_text=True))
    assert _tables(app) == before
    with app.app_context():
        other.release()
    assert _by_api(app, client, document).status_code == 201
    assert _tables(app) == before + 1


def test_a_claim_left_by_a_killed_import_lapses(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = _document(client, "C" * 22)
    _held_elsewhere(app)  # never released: its worker was killed
    assert _by_api(app, client, document).status_code == 429
    later = utcnow() + timedelta(seconds=import_claim.LEASE + 1)
    monkeypatch.setattr(import_claim, "utcnow", lambda: later)
    assert _by_api(app, client, document).status_code == 201


def test_a_refused_import_lets_go_of_the_claim(app: Flask, client: FlaskClient) -> None:
    document = _document(client, "D" * 22)
    assert _by_api(app, client, {"format": "referee-export", "version": 1, "tables": "no"}).status_code == 400
    assert _by_page(app, client, {"format": "something else"}).status_code == 400
    assert _by_api(app, client, document).status_code == 201
    assert _by_api(app, client, document).status_code == 409  # the same ids again: refused, released
    document["tables"][0]["id"] = "E" * 22
    assert _by_page(app, client, document).status_code == 200


def test_a_long_import_renews_its_claim(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    with app.app_context():
        claim = import_claim.take()
        first = db.session.scalar(select(import_claim.CLAIM.c.held_until))
        later = utcnow() + timedelta(seconds=import_claim.LEASE)
        monkeypatch.setattr(import_claim, "utcnow", lambda: later)
        claim.keep()  # a third of the lease has not passed: nothing to do
        assert db.session.scalar(select(import_claim.CLAIM.c.held_until)) == first
        claim.renewed -= import_claim.LEASE
        claim.keep()
        db.session.rollback()
        renewed = db.session.scalar(select(import_claim.CLAIM.c.held_until))
        assert renewed is not None and first is not None and renewed > first
        with pytest.raises(import_claim.Busy):
            import_claim.take()  # still held at the old lease's end
        claim.release()
        import_claim.take().release()


def test_the_command_line_import_is_told_to_wait_too(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    path = tmp_path / "mesa.json"
    path.write_text(json.dumps(_document(client, "F" * 22)), encoding="utf-8")
    other = _held_elsewhere(app)
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 1 and SENTENCE in result.output, result.output
    with app.app_context():
        other.release()
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0 and "F" * 22 in result.output, result.output


def test_a_restore_waits_for_a_running_import_and_stores_nothing(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    create_table(client)
    path = tmp_path / "backup.json"
    assert app.test_cli_runner().invoke(args=["backup", str(path)]).exit_code == 0
    before = _tables(app)
    other = _held_elsewhere(app)
    result = app.test_cli_runner().invoke(args=["restore", "--replace", str(path)])
    assert result.exit_code == 1 and SENTENCE in result.output and "Nothing was restored" in result.output
    assert _tables(app) == before
    with app.app_context():
        other.release()
    result = app.test_cli_runner().invoke(args=["restore", "--replace", str(path)])
    assert result.exit_code == 0 and "Restored" in result.output, result.output
    assert _tables(app) == before
    with app.app_context():  # the restore let go of the claim it took
        import_claim.take().release()
