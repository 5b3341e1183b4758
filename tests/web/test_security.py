"""Security basics for a server on a club's LAN: the headers on every kind of answer, the session
cookie's flags, the body size cap, long strings in the JSON API, no Werkzeug debugger, what a
request may carry (lone surrogates, deep JSON, huge numbers, far dates) and the database file."""

from __future__ import annotations

import io
import json
import os
import re
import stat
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from referee import create_app
from referee.extensions import db
from referee.models import Table
from referee.security import CSP, HEADERS

from .api_support import API

PLAYERS = ["Ana", "Bia", "Caio", "Dani"]
FORM = {
    "player_0": "Ana",
    "player_1": "Bia",
    "player_2": "Caio",
    "player_3": "Dani",
    "dealer": "3",
    "opt_starting_chips": "0",
    "opt_chip_value": "0",
    "opt_overtricks": "y",
    "opt_overtricks_in_partnerships": "y",
}
TOO_BIG = 65 * 1024  # MAX_CONTENT_LENGTH is 64 KB


def _tables(app: Flask) -> int:
    with app.app_context():
        return db.session.query(Table).count()


# -- Headers on every kind of answer ------------------------------------------------------------

ANSWERS: dict[str, Callable[[FlaskClient], TestResponse]] = {
    "html page": lambda c: c.get("/"),
    "html 404": lambda c: c.get("/no/such/page"),
    "html 405": lambda c: c.post("/"),
    "html 413": lambda c: c.post("/tables/new?game=jubileu", data={**FORM, "pad": "x" * TOO_BIG}),
    "json": lambda c: c.get(f"{API}/openapi.json"),
    "json 201": lambda c: c.post(f"{API}/tables", json={"game": "jubileu", "players": PLAYERS}),
    "json 400": lambda c: c.post(f"{API}/tables", data="[", content_type="application/json"),
    "json 404": lambda c: c.get(f"{API}/tables/nope"),
    "json 413": lambda c: c.post(f"{API}/tables", data=b"x" * TOO_BIG, content_type="application/json"),
    "static css": lambda c: c.get("/static/css/app.css"),
    "static gzip": lambda c: c.get("/static/js/app.js", headers={"Accept-Encoding": "gzip"}),
    "static 404": lambda c: c.get("/static/no-such-file.js"),
    "favicon": lambda c: c.get("/favicon.ico"),
    "manifest": lambda c: c.get("/manifest.webmanifest"),
    "service worker": lambda c: c.get("/sw.js"),
    "offline page": lambda c: c.get("/offline"),
}


@pytest.mark.parametrize("kind", list(ANSWERS))
def test_every_answer_carries_the_security_headers(client: FlaskClient, kind: str) -> None:
    response = ANSWERS[kind](client)
    expected_status = {"404": 404, "405": 405, "413": 413, "400": 400, "201": 201}
    status = next((s for word, s in expected_status.items() if kind.endswith(word)), 200)
    assert response.status_code == status, (kind, response.status_code)
    headers = response.headers
    assert headers["Content-Security-Policy"] == CSP
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert headers["Cross-Origin-Resource-Policy"] == "same-origin"
    assert headers["Permissions-Policy"] == HEADERS["Permissions-Policy"]


def test_a_not_modified_static_answer_carries_them_too(client: FlaskClient) -> None:
    first = client.get("/static/css/app.css")
    again = client.get("/static/css/app.css", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert again.headers["Content-Security-Policy"] == CSP
    assert again.headers["X-Content-Type-Options"] == "nosniff"


def test_the_content_security_policy_is_strict() -> None:
    directives = {part.split(" ", 1)[0]: part.split(" ", 1)[1] for part in CSP.split("; ")}
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["worker-src"] == "'self'"
    assert directives["manifest-src"] == "'self'"
    assert directives["connect-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["form-action"] == "'self'"
    assert directives["base-uri"] == "'self'"
    for loose in ("unsafe-inline", "unsafe-eval", "unsafe-hashes", "*", "http:", "https:"):
        assert loose not in CSP.split(), loose


def test_the_permissions_policy_denies_sensors_and_keeps_the_wake_lock() -> None:
    policy = dict(item.split("=", 1) for item in HEADERS["Permissions-Policy"].split(", "))
    for feature in (
        "camera",
        "microphone",
        "geolocation",
        "payment",
        "usb",
        "bluetooth",
        "serial",
        "hid",
        "midi",
        "display-capture",
        "accelerometer",
        "gyroscope",
        "magnetometer",
    ):
        assert policy[feature] == "()", feature
    assert policy["screen-wake-lock"] == "(self)"


# -- The session cookie ---------------------------------------------------------------------------


def _session_cookie(app: Flask) -> str:
    """The Set-Cookie header of the session (a page with a form token writes the session)."""
    response = app.test_client().get("/")
    cookies = [
        c for c in response.headers.getlist("Set-Cookie") if c.startswith(app.config["SESSION_COOKIE_NAME"] + "=")
    ]
    assert len(cookies) == 1, response.headers.getlist("Set-Cookie")
    return cookies[0]


def _app(tmp_path, **config: object) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "SECRET_KEY": "t",
            "INSTANCE_PATH": str(tmp_path),
            **config,
        }
    )


def _flags(cookie: str) -> set[str]:
    return {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}


def test_session_cookie_on_plain_http_is_httponly_lax_and_not_secure(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("REFEREE_HTTPS", raising=False)
    cookie = _session_cookie(_app(tmp_path))
    assert "httponly" in _flags(cookie)
    assert "SameSite=Lax" in cookie
    assert "secure" not in _flags(cookie)


@pytest.mark.parametrize("value", ["1", "true", "yes"])
def test_referee_https_makes_the_session_cookie_secure(tmp_path, monkeypatch, value: str) -> None:
    monkeypatch.setenv("REFEREE_HTTPS", value)
    app = _app(tmp_path)
    assert app.config["SESSION_COOKIE_SECURE"] is True
    cookie = _session_cookie(app)
    assert {"secure", "httponly"} <= _flags(cookie)
    assert "SameSite=Lax" in cookie


@pytest.mark.parametrize("value", ["0", "", "no"])
def test_referee_https_off(tmp_path, monkeypatch, value: str) -> None:
    monkeypatch.setenv("REFEREE_HTTPS", value)
    app = _app(tmp_path)
    assert app.config["SESSION_COOKIE_SECURE"] is False
    assert "secure" not in _flags(_session_cookie(app))


def test_the_config_given_to_create_app_wins_over_referee_https(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("REFEREE_HTTPS", "1")
    assert _app(tmp_path, SESSION_COOKIE_SECURE=False).config["SESSION_COOKIE_SECURE"] is False


# -- The body cap --------------------------------------------------------------------------------


def test_a_too_large_api_body_is_a_json_413_sentence_and_stores_nothing(app: Flask, client: FlaskClient) -> None:
    body = '{"game": "jubileu", "players": ["Ana", "Bia", "Caio", "Dani"], "name": "' + "x" * TOO_BIG + '"}'
    response = client.post(f"{API}/tables", data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.mimetype == "application/json"
    error = response.get_json()["error"]
    assert error["code"] == "payload_too_large"
    assert error["message"] == "O que você enviou é grande demais."
    assert _tables(app) == 0
    # The same table, small enough, is stored: the cap is what refused it.
    small = {"game": "jubileu", "players": PLAYERS, "name": "Sexta"}
    assert client.post(f"{API}/tables", json=small).status_code == 201
    assert _tables(app) == 1


def test_a_too_large_hand_is_refused_and_stores_nothing(app: Flask, client: FlaskClient) -> None:
    table = client.post(f"{API}/tables", json={"game": "jubileu", "players": PLAYERS}).get_json()
    auth = {"Authorization": f"Bearer {table['token']}", "Idempotency-Key": "big-1"}
    record = {"ultima": "copas", "auction": [[p, "passo"] for p in PLAYERS], "pad": "x" * TOO_BIG}
    response = client.post(f"{API}/tables/{table['id']}/hands", json=record, headers=auth)
    assert response.status_code == 413
    assert response.get_json()["error"]["message"].endswith(".")
    assert client.get(f"{API}/tables/{table['id']}/hands/1").status_code == 404


def test_a_too_large_form_is_an_html_413_page_and_stores_nothing(app: Flask, client: FlaskClient) -> None:
    response = client.post("/tables/new?game=jubileu", data={**FORM, "pad": "x" * TOO_BIG})
    assert response.status_code == 413
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "Grande demais" in html
    assert "O que você enviou é grande demais." in html
    assert _tables(app) == 0


def test_a_body_without_content_length_is_cut_at_the_cap_too(app: Flask, client: FlaskClient) -> None:
    """A chunked upload (no Content-Length) is counted as it is read."""
    response = client.post(
        f"{API}/tables",
        input_stream=io.BytesIO(b'{"game": "jubileu", "name": "' + b"x" * TOO_BIG + b'"}'),
        content_type="application/json",
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert response.status_code == 413
    assert _tables(app) == 0


# -- Long strings in the JSON API ----------------------------------------------------------------

LONG = "x" * 5000


def test_long_strings_in_the_json_api_are_refused_with_a_sentence(app: Flask, client: FlaskClient) -> None:
    refused = client.post(f"{API}/tables", json={"game": "jubileu", "players": PLAYERS[:3] + [LONG]})
    assert refused.status_code == 400
    assert refused.get_json()["error"]["field"] == "players[3]"
    assert (
        client.post(f"{API}/tables", json={"game": "jubileu", "players": PLAYERS, "language": LONG}).status_code == 400
    )
    assert _tables(app) == 0

    table = client.post(f"{API}/tables", json={"game": "jubileu", "players": PLAYERS}).get_json()
    auth = {"Authorization": f"Bearer {table['token']}"}
    record = {"ultima": "copas", "auction": [[p, "passo"] for p in PLAYERS]}
    hands = f"{API}/tables/{table['id']}/hands"
    response = client.post(hands, json=record, headers={**auth, "Idempotency-Key": LONG[:101]})
    assert response.status_code == 400
    assert response.get_json()["error"]["field"] == "Idempotency-Key"
    assert client.get(f"{hands}/1").status_code == 404
    assert client.post(hands, json=record, headers=auth).status_code == 201
    response = client.post(f"{hands}/1/void", json={"reason": LONG}, headers=auth)
    assert response.status_code == 400
    assert response.get_json()["error"]["field"] == "reason"
    response = client.post(hands, json={**record, "replaces": 1, "reason": LONG}, headers=auth)
    assert response.status_code == 400
    hand = client.get(f"{hands}/1").get_json()
    assert not hand.get("void") and "voided" not in hand, hand
    assert client.get(f"{hands}/2").status_code == 404


def test_a_long_table_name_is_refused(app: Flask, client: FlaskClient) -> None:
    response = client.post(f"{API}/tables", json={"game": "jubileu", "players": PLAYERS, "name": LONG})
    assert response.status_code == 400
    assert _tables(app) == 0


# -- No debugger, ever ----------------------------------------------------------------------------


def test_no_debugger_console_even_with_flask_debug_in_the_environment(tmp_path, monkeypatch) -> None:
    from werkzeug.debug import DebuggedApplication

    monkeypatch.setenv("FLASK_DEBUG", "1")
    app = _app(tmp_path)
    assert not isinstance(app.wsgi_app, DebuggedApplication)
    client = app.test_client()
    for path in (
        "/console",
        "/console?__debugger__=yes&cmd=resource&f=debugger.js",
        "/?__debugger__=yes&cmd=resource&f=style.css",
    ):
        response = client.get(path)
        assert response.status_code in (200, 404), path
        assert b"__debugger__" not in response.data and b"Werkzeug" not in response.data, path
    assert client.get("/console").status_code == 404
    assert not any(rule.rule.startswith("/console") for rule in app.url_map.iter_rules())


# -- What a request may carry (referee.inputs) ---------------------------------------------------

HUGE = 99999999999999999999  # beyond 64 bits
JUST_TOO_BIG = 2**31  # beyond PostgreSQL's integer column


def _scored_table(client: FlaskClient) -> tuple[dict, dict[str, str]]:
    """A Jubileu table with one hand (all passed), and its scorer's Authorization header."""
    table = client.post(f"{API}/tables", json={"game": "jubileu", "players": PLAYERS}).get_json()
    auth = {"Authorization": f"Bearer {table['token']}"}
    record = {"ultima": "copas", "auction": [[p, "passo"] for p in PLAYERS]}
    assert client.post(f"{API}/tables/{table['id']}/hands", json=record, headers=auth).status_code == 201
    return table, auth


def _refused(response: TestResponse) -> dict:
    assert response.status_code == 400, (response.status_code, response.get_data(as_text=True)[:300])
    error = response.get_json()["error"]
    assert error["code"] == "invalid_input"
    assert error["message"].endswith("."), error
    return error


def test_a_lone_surrogate_anywhere_in_a_json_body_is_refused_and_stores_nothing(
    app: Flask, client: FlaskClient
) -> None:
    # A lone surrogate has no UTF-8 form: no database can store it. json.dumps writes it as \ud800.
    _refused(
        client.post(
            f"{API}/tables",
            data='{"game": "jubileu", "players": ["\\ud800", "Bia", "Caio", "Dani"]}',
            content_type="application/json",
        )
    )
    assert _tables(app) == 0
    table, auth = _scored_table(client)
    hands = f"{API}/tables/{table['id']}/hands"
    _refused(
        client.post(f"{hands}/1/void", data='{"reason": "a\\udfffb"}', content_type="application/json", headers=auth)
    )
    correction = {"ultima": "copas", "auction": [[p, "passo"] for p in PLAYERS], "replaces": 1, "reason": "\ud800"}
    _refused(client.post(hands, data=json.dumps(correction), content_type="application/json", headers=auth))
    hand = client.get(f"{hands}/1").get_json()
    assert not hand.get("void"), hand
    assert client.get(f"{hands}/2").status_code == 404

    export = client.get(f"{API}/tables/{table['id']}/export").get_data(as_text=True)
    forged = export.replace(table["id"], "x" * len(table["id"])).replace('"Ana"', '"\\udc00na"')
    club_code = {"X-Referee-Club-Code": app.config["CLUB_CODE"]}
    _refused(client.post(f"{API}/import", data=forged, content_type="application/json", headers=club_code))
    assert _tables(app) == 1


def _json_posts(app: Flask) -> list[str]:
    """Every API route that takes a POST (and so may read a JSON body), as a rule."""
    return sorted(
        r.rule for r in app.url_map.iter_rules() if r.endpoint.startswith("api.") and "POST" in (r.methods or ())
    )


DEEP = {"array": "[" * 30000, "object": '{"a":' * 12000}  # both under the 64 KB cap


@pytest.mark.parametrize("shape", list(DEEP))
def test_deeply_nested_json_is_refused_on_every_endpoint_with_or_without_credentials(
    app: Flask, client: FlaskClient, shape: str
) -> None:
    table, auth = _scored_table(client)
    credentials = {**auth, "X-Referee-Club-Code": app.config["CLUB_CODE"]}
    rules = _json_posts(app)
    assert len(rules) >= 8, rules
    refused = set()
    for rule in rules:
        path = rule.replace("<table_id>", table["id"]).replace("<int:number>", "1")
        with_them = client.post(path, data=DEEP[shape], content_type="application/json", headers=credentials)
        assert with_them.status_code < 500, (rule, with_them.status_code)  # confirm, rematch: no body read
        if with_them.status_code == 400:
            assert "64" in _refused(with_them)["message"], rule
            refused.add(rule.rsplit("/", 1)[-1])
        without = client.post(path, data=DEEP[shape], content_type="application/json")
        assert without.status_code in (400, 401, 403), (rule, without.status_code)
    assert {"tables", "hands", "preview", "void", "dispute", "meld-check", "deal", "answer", "import"} <= refused, (
        refused
    )
    assert _tables(app) == 1
    assert client.get(f"{API}/tables/{table['id']}").get_json()["next_number"] == 2


def test_a_body_nested_as_deep_as_a_record_may_be_is_still_read(client: FlaskClient) -> None:
    from referee.inputs import MAX_DEPTH

    nested = (
        '{"game": "jubileu", "players": ["Ana", "Bia", "Caio", "Dani"], "options": '
        + "[" * (MAX_DEPTH - 1)
        + "]" * (MAX_DEPTH - 1)
        + "}"
    )
    # Read, then judged by the engine (options must be an object): the engine's own refusal.
    assert "64" not in _refused(client.post(f"{API}/tables", data=nested, content_type="application/json"))["message"]


def _int_routes(app: Flask) -> list[tuple[str, str, str]]:
    """(rule, method, int argument) for every route with an <int:...> in its URL."""
    out = []
    for rule in app.url_map.iter_rules():
        for name, converter in rule._converters.items():
            if converter.__class__.__name__ != "UnicodeConverter":
                for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                    out.append((rule.rule, method, name))
    return out


@pytest.mark.parametrize("number", [str(HUGE), str(JUST_TOO_BIG), "9" * 5000])
def test_a_number_too_big_for_the_database_in_any_path_names_nothing(
    app: Flask, client: FlaskClient, number: str
) -> None:
    table, auth = _scored_table(client)
    routes = _int_routes(app)
    assert {
        "/players/<int:member_id>",
        "/league/seasons/<int:season_id>",
        "/api/v1/seasons/<int:season_id>/export",
        "/t/<table_id>/hands/<int:number>/void",
        "/api/v1/tables/<table_id>/hands/<int:number>",
    } <= {r for r, _m, _a in routes}
    for rule, method, name in routes:
        path = re.sub(r"<int:\w+>", "1", rule.replace(f"<int:{name}>", number)).replace("<table_id>", table["id"])
        response = client.open(path, method=method, headers=auth)
        assert response.status_code == 404, (rule, method, response.status_code)
        assert response.get_data(as_text=True).strip(), rule


def test_the_largest_database_id_is_still_looked_up(app: Flask, client: FlaskClient) -> None:
    from referee.inputs import MAX_ID

    urls = app.url_map.bind("localhost")
    assert urls.match(f"/players/{MAX_ID}") == ("players.show", {"member_id": MAX_ID})
    assert client.get(f"/players/{MAX_ID}").status_code == 404  # no such member, asked of the database


@pytest.mark.parametrize("value", [str(HUGE), str(JUST_TOO_BIG), "²", "9" * 5000, "0"])
def test_a_number_too_big_for_the_database_in_a_query_names_nothing(client: FlaskClient, value: str) -> None:
    assert client.get("/league/jubileu", query_string={"season": value}).status_code == 404
    response = client.get(f"{API}/league/jubileu/standings", query_string={"season": value})
    assert response.status_code == 404
    assert response.get_json()["error"]["message"].endswith(".")
    assert client.get("/players", query_string={"page": value}).status_code == 200  # the first page
    samba = client.post(f"{API}/tables", json={"game": "samba", "players": PLAYERS}).get_json()
    for name in ("team", "required"):
        assert client.get("/samba/melds", query_string={"t": samba["id"], name: value}).status_code == 200


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01", "1899-12-31", "3000-01-01"])
def test_a_date_at_the_ends_of_the_calendar_is_not_a_server_error(app: Flask, client: FlaskClient, day: str) -> None:
    assert (
        client.get("/night", query_string={"date": day}).status_code == 200
    )  # read as today, like any unreadable date
    assert client.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302
    response = client.post("/league/seasons", data={"name": "Longa", "starts_on": "2026-01-01", "ends_on": day})
    assert response.status_code in (400, 422), response.status_code
    assert "1900" in response.get_data(as_text=True) or day < "2026", day
    response = client.post("/league/seasons", data={"name": "Longa", "starts_on": day, "ends_on": "2026-01-01"})
    assert response.status_code in (400, 422), response.status_code
    assert client.get("/league/jubileu").status_code == 200  # nothing stored that the standings cannot read


# -- The database file ---------------------------------------------------------------------------


def test_the_sqlite_database_file_is_readable_by_its_owner_only(tmp_path) -> None:
    path = tmp_path / "referee.sqlite3"
    previous = os.umask(0o022)  # a usual umask: SQLite alone would make the file 0644
    try:
        app = _app(tmp_path, SQLALCHEMY_DATABASE_URI=f"sqlite:///{path}")
        assert app.test_client().post(f"{API}/tables", json={"game": "jubileu", "players": PLAYERS}).status_code == 201
        files = [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]
        assert all(f.exists() for f in files), files
        assert {f.name: oct(stat.S_IMODE(f.stat().st_mode)) for f in files} == {f.name: "0o600" for f in files}
        with app.app_context():
            db.engine.dispose()
    finally:
        os.umask(previous)


def test_a_database_file_an_older_version_left_readable_is_made_private_at_start(tmp_path) -> None:
    path = tmp_path / "referee.sqlite3"
    path.touch(mode=0o644)
    path.chmod(0o644)
    app = _app(tmp_path, SQLALCHEMY_DATABASE_URI=f"sqlite:///{path}")
    assert oct(stat.S_IMODE(path.stat().st_mode)) == "0o600"
    with app.app_context():
        db.engine.dispose()


def test_a_control_character_in_an_idempotency_key_is_refused_not_sent_to_the_database(
    app: Flask, client: FlaskClient
) -> None:
    """A forged draft can carry any key; PostgreSQL answers a NUL in a query with an error (a 500
    once), so such a key is refused before any query and matches no stored hand."""
    from referee import ledger
    from referee.rules.errors import InvalidInput

    from .api_support import all_pass_record, create_table

    made = create_table(client)
    with app.app_context():
        table = ledger.get_table(made["id"])
        assert ledger.stored_number(table, "k\x00ey") is None
        with pytest.raises(InvalidInput) as refused:
            ledger.record_hand(table, all_pass_record("Dani"), idempotency_key="k\x00ey")
        assert refused.value.field == "Idempotency-Key"
        db.session.rollback()
        assert ledger.next_number(ledger.get_table(made["id"])) == 1


def test_a_table_id_with_a_nul_byte_names_no_table_on_either_database(client: FlaskClient) -> None:
    """The Koziri helpers read a table id from the JSON body: one holding a NUL byte is a table
    that does not exist (404 with the sentence), never a query PostgreSQL refuses (a 500)."""
    answer = client.post("/api/v1/koziri/answer?language=en", json={"table": "abc\x00def"})
    assert answer.status_code in (400, 404, 422), answer.get_data(as_text=True)
    assert answer.get_json()["error"]["message"]
    deal = client.post("/api/v1/koziri/deal?language=en", json={"table": "abc\x00def"})
    assert deal.status_code < 500
