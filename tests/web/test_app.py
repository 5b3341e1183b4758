"""The application factory, its schema, pages, errors and headers."""

from __future__ import annotations

import os
import random
import stat

import pytest
from babel.numbers import format_decimal
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import inspect, text

from referee import create_app
from referee.config import normalise_database_url
from referee.extensions import db
from referee.i18n import fmt_int, fmt_money, fmt_signed

SCHEMA = {"game_table", "seat", "hand", "hand_event", "idempotency_key", "alembic_version"}


def test_in_memory_app_has_the_migrated_schema(tmp_path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "INSTANCE_PATH": str(tmp_path),
        }
    )
    with app.app_context():
        names = set(inspect(db.engine).get_table_names())
        assert SCHEMA <= names
        version = db.session.execute(text("SELECT version_num FROM alembic_version")).scalar()
        assert version == "0021"
        # Another connection sees the same in-memory database (StaticPool).
        with db.engine.connect() as other:
            assert other.execute(text("SELECT count(*) FROM game_table")).scalar() == 0


def test_fixture_app_has_the_schema(app: Flask) -> None:
    with app.app_context():
        assert SCHEMA <= set(inspect(db.engine).get_table_names())


def test_create_app_twice_on_one_file_is_idempotent(tmp_path) -> None:
    config = {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'r.sqlite3'}",
        "INSTANCE_PATH": str(tmp_path),
    }
    create_app(dict(config))
    app = create_app(dict(config))
    with app.app_context():
        assert SCHEMA <= set(inspect(db.engine).get_table_names())


def test_home_is_portuguese_by_default(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert '<html lang="pt-BR">' in html
    assert "Mesas em andamento" in html
    assert "Nenhuma mesa em andamento." in html


def test_language_switch_to_english_and_back(client: FlaskClient) -> None:
    response = client.get("/lang/en", headers={"Referer": "http://localhost/"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    html = client.get("/").get_data(as_text=True)
    assert '<html lang="en">' in html
    assert "Tables in progress" in html
    client.get("/lang/pt_BR")
    assert "Mesas em andamento" in client.get("/").get_data(as_text=True)


def test_language_switch_ignores_unknown_codes_and_foreign_referrers(client: FlaskClient) -> None:
    response = client.get("/lang/xx", headers={"Referer": "https://evil.example/phish"})
    assert response.headers["Location"] == "/"
    response = client.get("/lang/en", headers={"Referer": "http://localhost//evil.example/"})
    assert response.headers["Location"] == "/"
    assert "Mesas em andamento" not in client.get("/").get_data(as_text=True)


def test_home_lists_only_the_tables_this_phone_knows(app: Flask, client: FlaskClient) -> None:
    """A table's id is its read secret, so home lists the tables this browser created
    or opened, never everybody's."""
    from referee.models import utcnow

    def create(name: str) -> dict:
        body = {"game": "jubileu", "players": ["Ana", "Bia", "Caio", "Dani"], "name": name}
        return client.post("/api/v1/tables", json=body).get_json()

    mine, other, done = create("Sexta no clube"), create("Mesa de outro"), create("Terminada")
    auth = {"Authorization": f"Bearer {mine['token']}"}
    record = {"ultima": "copas", "auction": [[p, "passo"] for p in ["Ana", "Bia", "Caio", "Dani"]]}
    assert client.post(f"/api/v1/tables/{mine['id']}/hands", json=record, headers=auth).status_code == 201
    assert "Sexta no clube" not in client.get("/").get_data(as_text=True)  # never opened here
    client.get(f"/t/{mine['id']}")
    client.get(f"/w/{done['id']}")
    with app.app_context():
        from referee.models import Table

        db.session.get(Table, done["id"]).finished_at = utcnow()
        db.session.commit()
    html = client.get("/").get_data(as_text=True)
    assert "Sexta no clube" in html
    assert "Ana · Bia · Caio · Dani" in html
    assert "1 mão" in html
    assert "Mesa de outro" not in html
    assert "Terminada" not in html
    assert other["id"] not in html


def test_unknown_page_is_a_friendly_html_404(client: FlaskClient) -> None:
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "Página não encontrada" in html
    assert 'href="/"' in html


def test_unknown_api_path_is_a_json_404(client: FlaskClient) -> None:
    response = client.get("/api/v1/no-such-thing")
    assert response.status_code == 404
    assert response.mimetype == "application/json"
    error = response.get_json()["error"]
    assert error["code"] == "not_found"
    assert error["message"].endswith(".")


def test_method_not_allowed_keeps_the_allow_header(client: FlaskClient) -> None:
    response = client.post("/")
    assert response.status_code == 405
    assert "GET" in response.headers["Allow"]


def test_security_headers(client: FlaskClient) -> None:
    for path in ("/", "/no/such/page", "/api/v1/x"):
        headers = client.get(path).headers
        csp = headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "frame-ancestors 'none'" in csp
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"
        assert headers["X-Frame-Options"] == "DENY"
        assert "Permissions-Policy" in headers


def test_no_inline_script_or_style(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    assert "<style" not in html
    assert " style=" not in html
    assert "<script>" not in html
    assert " on" + "click=" not in html


def test_favicon_and_static_assets(client: FlaskClient) -> None:
    assert client.get("/favicon.ico").status_code == 200
    html = client.get("/").get_data(as_text=True)
    assert "/static/css/app.css?v=" in html
    assert "/static/js/app.js?v=" in html
    for path in (
        "/static/css/app.css",
        "/static/js/app.js",
        "/static/favicon.svg",
        "/static/js/swap.js",
    ):
        assert client.get(path).status_code == 200, path


def test_request_too_large_is_413(app: Flask) -> None:
    from flask import request

    def echo() -> str:
        return str(len(request.get_data()))

    app.add_url_rule("/api/v1/_echo", view_func=echo, methods=["POST"])
    app.add_url_rule("/_echo", "page_echo", view_func=echo, methods=["POST"])
    client = app.test_client()
    big = b"x" * (65 * 1024)
    response = client.post("/api/v1/_echo", data=big, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "payload_too_large"
    response = client.post("/_echo", data=big, content_type="application/octet-stream")
    assert response.status_code == 413
    assert "Grande demais" in response.get_data(as_text=True)


def test_secret_key_is_generated_once_into_the_instance_folder(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    instance = tmp_path / "instance"
    config = {"SQLALCHEMY_DATABASE_URI": "sqlite://", "INSTANCE_PATH": str(instance)}
    app = create_app(dict(config))
    key_file = instance / "secret_key"
    assert key_file.exists()
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    assert app.config["SECRET_KEY"] == key_file.read_text().strip()
    assert len(app.config["SECRET_KEY"]) >= 60
    again = create_app(dict(config))
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]
    assert not again.debug


def test_environment_overrides(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SECRET_KEY", "from-env")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite3'}")
    app = create_app({"INSTANCE_PATH": str(tmp_path)})
    assert app.config["SECRET_KEY"] == "from-env"
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("env.sqlite3")
    assert not (tmp_path / "secret_key").exists()


def test_postgres_urls_use_psycopg() -> None:
    assert normalise_database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_database_url("postgresql+psycopg://") == "postgresql+psycopg://"
    assert normalise_database_url("sqlite://") == "sqlite://"


def test_sqlite_file_database_uses_wal_and_pragmas(tmp_path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'wal.sqlite3'}",
            "INSTANCE_PATH": str(tmp_path),
        }
    )
    with app.app_context(), db.engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA busy_timeout")).scalar() == 15000
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 1  # NORMAL


def test_number_and_money_helpers(app: Flask) -> None:
    with app.test_request_context("/"):
        assert fmt_int(1234) == "1.234"
        assert fmt_signed(3) == "+3"
        assert fmt_signed(-3) == "\u22123"
        assert fmt_signed(0) == "0"
        assert fmt_money("1234.5") == "R$\xa01.234,50"
        assert fmt_money("-2") == "\u2212R$\xa02,00"
    with app.test_request_context("/", headers={"Cookie": "lang=en"}):
        assert fmt_int(1234) == "1,234"
        assert fmt_money("1234.5") == "R$1,234.50"


def test_whole_numbers_are_written_as_babel_writes_them(app: Flask) -> None:
    """fmt_int groups with Python and the locale's separator: the same text as Babel's."""
    lot = random.Random(7)
    numbers = [0, 1, 999, 1000, 1234, 99_999, 100_000, 10**6, 10**9 + 7, 10**12]
    numbers += [lot.randint(-(10**12), 10**12) for _ in range(500)]
    for cookie, locale in (("lang=pt_BR", "pt_BR"), ("lang=en", "en")):
        with app.test_request_context("/", headers={"Cookie": cookie}):
            for n in numbers + [-n for n in numbers]:
                expected = format_decimal(abs(n), locale=locale)
                assert fmt_int(n) == (f"\u2212{expected}" if n < 0 else expected), (n, locale)


def test_the_migrations_build_exactly_the_models(tmp_path) -> None:
    """A column added to a model without a migration (or the reverse) fails here, not in a
    club's database after an upgrade."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "INSTANCE_PATH": str(tmp_path)})
    with app.app_context(), db.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []


def test_the_migrations_name_foreign_keys_as_the_models(tmp_path) -> None:
    """Alembic finds a constraint by its name (batch operations on SQLite, a later drop): a
    migration naming one otherwise than the model would leave that later step failing."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "INSTANCE_PATH": str(tmp_path)})
    with app.app_context():
        found = inspect(db.engine)
        for table in db.metadata.sorted_tables:
            made = {fk["name"] for fk in found.get_foreign_keys(table.name)}
            assert made == {fk.name for fk in table.foreign_key_constraints}, table.name


def test_every_table_but_the_clubs_belongs_to_a_club(app: Flask, client: FlaskClient) -> None:
    """A club's rows are told apart by ``club_id`` on every table (a new table without it fails
    here); what the server held before clubs, and what it makes now, is the home club's."""
    from referee.club_scope import HOME_CLUB

    with app.app_context():
        found = inspect(db.engine)
        for name in found.get_table_names():
            if name in ("club", "alembic_version", "import_claim"):  # the server's own (one import at a time)
                continue
            columns = {column["name"]: column for column in found.get_columns(name)}
            assert "club_id" in columns and not columns["club_id"]["nullable"], name
            leading = [found.get_pk_constraint(name)["constrained_columns"][:1]]
            leading += [index["column_names"][:1] for index in found.get_indexes(name)]
            assert ["club_id"] in leading, name
        assert db.session.execute(text("SELECT id, slug FROM club")).all() == [(HOME_CLUB, "clube")]
    made = client.post("/api/v1/tables", json={"game": "jubileu", "players": ["Ana", "Bia", "Caio", "Dani"]})
    with app.app_context():
        query = text("SELECT club_id FROM game_table WHERE id = :id")
        assert db.session.execute(query, {"id": made.json["id"]}).scalar_one() == HOME_CLUB


def test_downgrading_below_the_phones_holds_is_refused_while_a_phone_holds_a_table(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    """What each phone may do lives only in phone_hold since 0007: going back would take it all.
    ``flask db downgrade`` stops with the sentence (flask_migrate logs it and exits 1)."""
    import flask_migrate

    from referee import MIGRATIONS

    made = app.test_client().post("/api/v1/tables", json={"game": "jubileu", "players": ["Ana", "Bia", "Caio", "Dani"]})
    phone = app.test_client()
    assert phone.post(f"/t/{made.json['id']}/scorer", data={"token": made.json["token"]}).status_code == 302
    with app.app_context():
        with pytest.raises(SystemExit):
            flask_migrate.downgrade(directory=str(MIGRATIONS), revision="0006")
        assert "every phone would lose its scoring and owner's rights" in caplog.text
        db.session.remove()
        assert db.session.execute(text("SELECT count(*) FROM phone_hold")).scalar() == 1
