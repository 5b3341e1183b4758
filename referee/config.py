"""Configuration: defaults here; instance/config.py, the environment and the dict given to
create_app() override them, in that order."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask

from referee import club

LANGUAGES = ["pt_BR", "en"]


def data_folder(*, installed: bool, checkout: Path) -> Path:
    """Where this server keeps its data (the instance folder: database, secret key, club code,
    config.py). REFEREE_HOME when set; a checkout's own instance/ (``make run``); an installed
    wheel's $XDG_DATA_HOME/referee (~/.local/share/referee), never inside the venv, which an
    admin may delete and recreate at any upgrade.

    Releases before that kept a wheel's data in the venv (:func:`old_wheel_folder`). A venv
    upgraded in place from one of them still has its club there: as long as the new folder does
    not exist, the old one is used as it is (with a notice saying how to move it), never an
    empty new one. It is not moved here: every worker starting at once would race to move it."""
    if home := os.environ.get("REFEREE_HOME"):
        return Path(home).expanduser()
    if not installed:
        return checkout / "instance"
    folder = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "referee"
    old = old_wheel_folder()
    if old.is_dir() and not folder.exists():
        print(
            f"Referee's data is in {old}, inside the venv, where older releases kept it: it is used as it is."
            f" Deleting the venv would delete the club with it: stop the server and move that folder to {folder}.",
            file=sys.stderr,
        )
        return old
    return folder


def old_wheel_folder() -> Path:
    """Where an installed wheel kept its data before ~/.local/share/referee: Flask's own default
    instance folder for an installed package, <venv>/var/referee-instance."""
    return Path(sys.prefix) / "var" / "referee-instance"


def defaults(instance_path: str) -> dict[str, Any]:
    return {
        "SQLALCHEMY_DATABASE_URI": "sqlite:///" + os.path.join(instance_path, "referee.sqlite3"),
        # A request body larger than this is refused with 413 (a hand record is about 1 KB).
        "MAX_CONTENT_LENGTH": 64 * 1024,
        "BABEL_DEFAULT_LOCALE": "pt_BR",
        "BABEL_DEFAULT_TIMEZONE": "America/Sao_Paulo",
        "LANGUAGES": list(LANGUAGES),
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        # Send the session cookie only when the session changed. Refreshing it on every answer
        # let a slow answer (a live poll started earlier) put back an older cookie over a newer
        # one, and the phone forgot the table it had just opened or the scoring link it had just
        # used. The session stays valid this long after its last change:
        "SESSION_REFRESH_EACH_REQUEST": False,
        "PERMANENT_SESSION_LIFETIME": timedelta(days=180),
        # Secure only when served over HTTPS (REFEREE_HTTPS=1): on a plain-http LAN a Secure
        # cookie would never come back and every form would fail its CSRF check.
        "SESSION_COOKIE_SECURE": False,
        # Proxies in front that add X-Forwarded-* (REFEREE_PROXIES; referee/proxy.py). None by
        # default: served straight on the LAN, those headers are whatever a phone writes.
        "PROXIES": 0,
        "WTF_CSRF_TIME_LIMIT": None,
        "SQLALCHEMY_TRACK_MODIFICATIONS": False,
        # Static URLs carry ?v=<mtime> (see create_app), so browsers may keep them long.
        "SEND_FILE_MAX_AGE_DEFAULT": 30 * 24 * 3600,
    }


def normalise_database_url(url: str) -> str:
    """Point bare PostgreSQL URLs at the psycopg 3 driver (the only one we install)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def load(app: Flask, config: dict[str, Any] | None) -> None:
    """Fill app.config: defaults, instance/config.py, environment, then `config`."""
    app.config.from_mapping(defaults(app.instance_path))
    app.config.from_pyfile("config.py", silent=True)  # instance/config.py

    # Where the secret key and the club's code in force come from: a restore puts a backup's
    # in force only where it may write them (referee.server_keys).
    sources = {name: INSTANCE_CONFIG for name in KEPT if app.config.get(name)}
    if url := _from_environment("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = url
    for name in KEPT:
        if value := _from_environment(name):
            app.config[name] = value
            sources[name] = _environment_source(name)
    if (https := os.environ.get("REFEREE_HTTPS")) is not None:
        # Off for a word it does not know: a Secure cookie on a plain-http LAN fails every form.
        secure = on_off(https, default=False)
        app.config["SESSION_COOKIE_SECURE"] = secure
        app.config["PREFERRED_URL_SCHEME"] = "https" if secure else "http"
    if (proxies := os.environ.get("REFEREE_PROXIES")) is not None:
        app.config["PROXIES"] = _count(proxies, "REFEREE_PROXIES")
    # A server whose timer runs the ratings catch-up (deploy/referee-ratings.timer) tells its
    # pages not to start it themselves (referee/ratings.py).
    if (spawn := os.environ.get("RATINGS_SPAWN_CATCH_UP")) is not None:
        app.config["RATINGS_SPAWN_CATCH_UP"] = spawn
    # The address phones reach this server at, which the operator's commands print a club's
    # address with (referee/operator.py): https://referee.example.org, say.
    if url := os.environ.get("REFEREE_URL"):
        app.config["SERVER_URL"] = url
    # Whether anyone may make a club from the server's home page (off: only the operator can).
    if (open_clubs := os.environ.get("REFEREE_OPEN_CLUBS")) is not None:
        app.config["OPEN_CLUBS"] = open_clubs
    # Behind Caddy with its own authority (`python -m referee.serve --https`): where the page that installs
    # it finds the root certificate, and the ports the phones reach the server on.
    for name in ("CA_CERT", "HTTP_PORT", "HTTPS_PORT"):
        if value := os.environ.get("REFEREE_" + name):
            app.config[name] = value

    if config:
        app.config.from_mapping(config)
        sources.update({name: APP_CONFIG for name in KEPT if config.get(name)})
    # A bool from here on, whoever set it (the environment, instance/config.py, `config`): on
    # unless set to an off word (a word it does not know reads as on), because a club that just
    # runs `make run` expects the standings to come right by themselves.
    app.config["RATINGS_SPAWN_CATCH_UP"] = on_off(app.config.get("RATINGS_SPAWN_CATCH_UP", True), default=True)
    app.config["OPEN_CLUBS"] = on_off(app.config.get("OPEN_CLUBS", False), default=False)
    # FLASK_DEBUG in the environment must never switch debug on for a served table (it would
    # bypass the error pages); only an explicit DEBUG in the factory's config may.
    app.debug = bool((config or {}).get("DEBUG", False))

    app.config["SQLALCHEMY_DATABASE_URI"] = normalise_database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    engine_options(app)

    _secrets(app, sources)


def _secrets(app: Flask, sources: dict[str, str]) -> None:
    """The secret key and the club's code, where nothing set them: the instance folder's files,
    made on first run (random ones for a test). Notes in ``sources`` where each came from."""
    instance = Path(app.instance_path)
    if not app.config.get("SECRET_KEY"):
        if app.config.get("TESTING"):
            app.config["SECRET_KEY"] = secrets.token_urlsafe(32)
            sources["SECRET_KEY"] = MADE_NOW
        else:
            sources["SECRET_KEY"] = INSTANCE_FILE if (instance / "secret_key").exists() else MADE_NOW
            app.config["SECRET_KEY"] = _instance_secret_key(instance)
    if not app.config.get("CLUB_CODE"):
        # The club's code: a phone that types it may rename and merge members, store Pix keys,
        # edit seasons and see every table of a club night. `make run` prints it.
        if app.config.get("TESTING"):
            app.config["CLUB_CODE"] = club.new_code()
            sources["CLUB_CODE"] = MADE_NOW
        else:
            sources["CLUB_CODE"] = INSTANCE_FILE if (instance / "club_code").exists() else MADE_NOW
            app.config["CLUB_CODE"] = club_code(instance, secret_key=str(app.config["SECRET_KEY"]))
    elif not club.is_long(str(app.config["CLUB_CODE"])) and not app.config.get("TESTING"):
        print(
            f"Warning: CLUB_CODE in the config has fewer than {club.DIGITS} digits; at the rate limits it"
            " could be guessed within weeks. Set a longer one (flask --app referee club-code makes one).",
            file=sys.stderr,
        )
    app.config[SOURCES] = sources


#: The settings a server's own backup carries (referee.server_keys), each kept by default in
#: the instance folder's file of the same name in lower case.
KEPT = ("SECRET_KEY", "CLUB_CODE")
#: The config key saying where each of :data:`KEPT` in force came from: one of the words
#: below, or a phrase naming the environment variable or the file it was read from.
SOURCES = "KEY_SOURCES"
INSTANCE_FILE = "instance-file"  # instance/secret_key or instance/club_code, there before
MADE_NOW = "made-now"  # made by this very process: nothing was signed with it yet
INSTANCE_CONFIG = "instance/config.py"
APP_CONFIG = "the configuration given to create_app"


def _environment_source(name: str) -> str:
    if path := os.environ.get(name + "_FILE"):
        return f"the file {name}_FILE names ({path})"
    return f"the environment variable {name}"


def engine_options(app: Flask) -> None:
    """The engine's options for the database in the config, over any the config already sets."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    if url in ("sqlite://", "sqlite:///:memory:"):
        # One shared in-memory database for every connection (tests, embedding).
        from sqlalchemy.pool import StaticPool

        options.setdefault("poolclass", StaticPool)
        options.setdefault("connect_args", {"check_same_thread": False})
    elif url.startswith("postgresql"):
        # A pooled connection dies with the server behind it (a restart, an upgrade, an idle
        # timeout): each worker would answer its first request after that with a 500. A ping
        # before a connection is handed out (one round trip per checkout) replaces a dead one.
        options.setdefault("pool_pre_ping", True)
    if options:
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options


def _from_environment(name: str) -> str | None:
    """``name`` from the environment, or read from the file ``name_FILE`` names: a service keeps
    its secrets in files (systemd credentials, a mode-0600 file), because a value on the command
    line or in the unit itself is readable by every user of the machine (``ps``, ``systemctl
    show``)."""
    if path := os.environ.get(name + "_FILE"):
        try:
            return Path(path).read_text(encoding="utf-8").strip() or None
        except OSError as exc:
            raise SystemExit(f"{name}_FILE={path}: cannot read it ({exc.strerror}).") from None
    return os.environ.get(name) or None


#: The words an on/off setting understands, whatever their case and the spaces around them. An
#: empty value is off: a variable set to nothing (``RATINGS_SPAWN_CATCH_UP=``) turns it off.
ON_WORDS = ("1", "true", "yes", "on")
OFF_WORDS = ("0", "false", "no", "off", "")


def on_off(value: object, *, default: bool) -> bool:
    """An on/off setting as a bool. The environment and config files give words, read here and
    nowhere else; any other word reads as ``default``, which each setting picks for the side a
    typo should err on. A value that is not a string (a bool or a number from the config given
    to create_app) is taken as it is."""
    if not isinstance(value, str):
        return bool(value)
    word = value.strip().lower()
    if word in ON_WORDS:
        return True
    if word in OFF_WORDS:
        return False
    return default


def _count(value: str, name: str) -> int:
    try:
        count = int(value.strip() or "0")
    except ValueError:
        raise SystemExit(f"{name}={value!r}: a number of proxies is expected (0, 1, …).") from None
    if count < 0:
        raise SystemExit(f"{name}={value!r}: a number of proxies is expected (0, 1, …).")
    return count


def club_code(instance: Path, *, secret_key: str) -> str:
    """instance/club_code, made on first run. A short code written by an older version (six
    digits: guessable within weeks at the rate limits) is replaced at once, with a notice on
    stderr. The new code is derived from the old one and the secret key, so every worker
    starting together writes and uses the same code, and nobody without the key can predict it."""
    code = _instance_secret_key(instance, name="club_code", make=club.new_code)
    if club.is_long(code):
        return code
    digest = hmac.new(secret_key.encode(), b"club-code-upgrade:" + code.encode(), hashlib.sha256).digest()
    fresh = club.shown(str(int.from_bytes(digest, "big") % 10**club.DIGITS).zfill(club.DIGITS))
    write_club_code(instance, fresh)
    print(
        f"The club's code was too short to be safe and was replaced: the new code is {fresh}."
        " Phones that managed the club must type it once more.",
        file=sys.stderr,
    )
    return fresh


def write_club_code(instance: Path, code: str) -> None:
    """Put ``code`` in instance/club_code (mode 0600), replacing what was there in one step."""
    write_instance_secret(instance, "club_code", code)


def write_instance_secret(instance: Path, name: str, value: str) -> None:
    """Put ``value`` in instance/<name> (mode 0600), replacing what was there in one step."""
    os.replace(_private_file(instance, name, value), instance / name)


def _private_file(instance: Path, name: str, text: str) -> Path:
    """A new file holding ``text``, readable by its owner only, next to instance/<name>: moved
    or linked into place afterwards, so a reader never sees it half written."""
    instance.mkdir(parents=True, exist_ok=True)
    tmp = instance / f".{name}.{os.getpid()}.{secrets.token_hex(4)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(text + "\n")
    return tmp


def _instance_secret_key(instance: Path, *, name: str = "secret_key", make: Any = None) -> str:
    """Read instance/<name> (the secret key by default), creating it (mode 0600) on first run
    with ``make()`` (a long random key by default)."""
    path = instance / name
    try:
        key = path.read_text(encoding="ascii").strip()
        if key:
            return key
    except FileNotFoundError:
        pass
    # Link a private file into place: atomic, and the first of several workers starting
    # together wins while the others read its key.
    tmp = _private_file(instance, name, make() if make else secrets.token_urlsafe(48))
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass
    finally:
        tmp.unlink()
    return path.read_text(encoding="ascii").strip()
