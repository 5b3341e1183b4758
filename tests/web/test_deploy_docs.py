"""The service recipe in docs/club-server.md, read as an admin reads it: its commands need no
`sudo` (a root shell is assumed; minimal Debian has no sudo), every file and section the docs
and the service files point to exists, and the LAN recipe's commands, run here with a folder of
the test's in place of /etc/referee, leave the root certificate readable by the service's group
and the secret key by root alone, at the path the service's drop-in names, where the trust page
then finds it."""

from __future__ import annotations

import grp
import gzip
import json
import os
import pwd
import re
import shlex
import shutil
import subprocess
import sysconfig
import venv
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask

from referee import create_app
from referee.extensions import db
from tests.conftest import TEST_DATABASE_URL, _empty_all_tables
from tests.packaging.test_wheel import copy_sources, environment, lend_packages
from tests.web.test_club_server import ROOT_PEM
from tests.web.test_deploy_units import directives
from tests.web.test_pages import new_table

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "club-server.md"
CADDY_DATA = "/var/lib/caddy/.local/share/caddy"
ON_SQLITE = TEST_DATABASE_URL.startswith("sqlite")


def code_lines(text: str) -> list[str]:
    """The lines inside the fenced code blocks of a Markdown text."""
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.M | re.S)
    return [line for block in blocks for line in block.splitlines()]


def headings(path: Path) -> set[str]:
    return {line.lstrip("#").strip() for line in path.read_text().splitlines() if line.startswith("#")}


def test_no_documented_command_uses_sudo() -> None:
    for doc in (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))):
        assert [line for line in code_lines(doc.read_text()) if re.search(r"\bsudo\b", line)] == [], doc.name


def test_every_file_and_section_pointed_to_exists() -> None:
    pointers = [(p, p.read_text()) for p in sorted((ROOT / "deploy").iterdir())] + [(GUIDE, GUIDE.read_text())]
    for source, text in pointers:
        for doc, section in re.findall(r'(docs/[\w-]+\.md), "([^"]+)"', text.replace("\n# ", " ")):
            assert (ROOT / doc).is_file(), (source.name, doc)
            assert section in headings(ROOT / doc), (source.name, section)
        for path in re.findall(r"(?:/opt/referee/|\b)((?:deploy|tools)/[\w.*-]+)", text):
            assert list(ROOT.glob(path.rstrip(".,"))), (source.name, path)
    assert re.search(r"docs/club-server\.md", (ROOT / "deploy" / "referee.service").read_text())


def test_the_documented_etc_referee_commands_let_the_service_read_the_certificate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    etc, caddy = tmp_path / "etc-referee", tmp_path / "caddy"
    (caddy / "pki" / "authorities" / "local").mkdir(parents=True)
    (caddy / "pki" / "authorities" / "local" / "root.crt").write_text(ROOT_PEM)
    me, my_group = pwd.getpwuid(os.getuid()).pw_name, grp.getgrgid(os.getgid()).gr_name
    service_group = directives("referee.service")["Group"] == ["referee"]
    assert service_group, "the unit runs as group referee, which the recipe gives /etc/referee"

    guide = GUIDE.read_text()
    recipes = block_after(guide, "As root, on Debian 12") + block_after(guide, "### HTTPS on the LAN as a service")
    lines = [line for line in recipes if "/etc/referee" in line]
    run = [line for line in lines if line.startswith(("install ", "(umask"))]
    assert any("ca-root.crt" in line for line in run), "the LAN recipe copies the root certificate"
    for line in run:
        here = line.replace("/etc/referee", str(etc)).replace(CADDY_DATA, str(caddy))
        here = here.replace("-o root", f"-o {me}").replace("-g referee", f"-g {my_group}")
        done = subprocess.run(["sh", "-c", here], capture_output=True, text=True)
        assert done.returncode == 0, (line, done.stderr)

    def mode(path: Path) -> int:
        return path.stat().st_mode & 0o777

    assert etc.stat().st_gid == os.getgid() and mode(etc) & 0o050 == 0o050  # the group may enter
    assert mode(etc / "ca-root.crt") & 0o040 and (etc / "ca-root.crt").stat().st_gid == os.getgid()
    assert mode(etc / "secret_key") == 0o600 and len((etc / "secret_key").read_text().strip()) >= 32

    # The drop-in names that copy; the trust page serves it.
    (environment,) = directives("referee-lan.conf")["Environment"]
    settings = dict(pair.split("=", 1) for pair in shlex.split(environment))
    assert settings["REFEREE_CA_CERT"] == "/etc/referee/ca-root.crt"
    monkeypatch.setenv("REFEREE_CA_CERT", settings["REFEREE_CA_CERT"].replace("/etc/referee", str(etc)))
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": TEST_DATABASE_URL, "INSTANCE_PATH": str(tmp_path / "i")}
    )
    assert app.test_client().get("/ca").status_code == 200


def block_after(text: str, marker: str) -> list[str]:
    """The lines of the first fenced code block after ``marker``."""
    block = re.search(r"^```[^\n]*\n(.*?)^```", text[text.index(marker) :], flags=re.M | re.S)
    assert block is not None, marker
    return block.group(1).splitlines()


def test_the_documented_restore_with_the_service_runs_as_written_and_gives_the_service_the_backups_key(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    """The "With the service" restore, run line by line (a folder of the test's for /opt/referee,
    /etc/referee and /var/backups/referee; this user for root and referee): tools/upgrade.sh
    builds the venv first, the restore replaces the keys that first run made, and the key the
    service reads is the backup's, so the old owner's phone keeps its rights."""
    me, my_group = pwd.getpwuid(os.getuid()).pw_name, grp.getgrgid(os.getgid()).gr_name
    plain = {"TESTING": False, "SECRET_KEY": None, "CLUB_CODE": None, "WTF_CSRF_ENABLED": False}
    old_url = f"sqlite:///{tmp_path / 'old.sqlite3'}" if ON_SQLITE else TEST_DATABASE_URL
    old = {**plain, "INSTANCE_PATH": str(tmp_path / "old"), "SQLALCHEMY_DATABASE_URI": old_url}
    owner = make_app(old).test_client()
    table = new_table(owner)
    daily = make_app(old).test_cli_runner().invoke(args=["backup-daily", str(tmp_path / "taken")])
    assert daily.exit_code == 0, daily.output
    (backup,) = (tmp_path / "taken").glob("referee-*.json.gz")
    keys = json.loads(gzip.decompress(backup.read_bytes()))["server"]
    admin = tmp_path / "admin"
    admin.mkdir()
    shutil.copy(backup, admin)
    if not ON_SQLITE:
        with make_app(old).app_context():
            db.session.remove()
            _empty_all_tables()

    checkout, etc, backups = tmp_path / "opt-referee", tmp_path / "etc-referee", tmp_path / "backups"
    checkout.mkdir()
    copy_sources(checkout, "constraints.txt", "tools")
    venv.create(checkout / ".venv", with_pip=False)  # what upgrade.sh makes; this venv's packages lent
    lend_packages(checkout / ".venv")
    # .venv/bin/flask, which pip writes when it installs Referee (here: once upgrade.sh did).
    site = sysconfig.get_paths(vars={"base": str(checkout / ".venv"), "platbase": str(checkout / ".venv")})["purelib"]
    flask = checkout / ".venv" / "bin" / "flask"
    flask.write_text(
        f'#!/bin/sh\nfor d in "{site}"/referee-*.dist-info; do [ -d "$d" ] &&'
        f' exec "{checkout}/.venv/bin/python" -m flask "$@"; done\necho "$0: not found" >&2; exit 127\n'
    )
    flask.chmod(0o755)
    guide = GUIDE.read_text()
    setup = [line for line in block_after(guide, "As root, on Debian 12") if line.startswith("install -d")]
    steps = block_after(guide, "**With the service** (`deploy/`)")
    script = "\n".join(["set -eu", *setup, *steps])
    for documented, here in (
        ("/opt/referee", str(checkout)),
        ("/etc/referee", str(etc)),
        ("/var/backups/referee", str(backups)),
        ("referee-YYYY-MM-DD.json.gz", backup.name),
        ("runuser -u referee -- ", ""),
        ("-o root -g referee", f"-o {me} -g {my_group}"),
        ("-o referee -g referee", f"-o {me} -g {my_group}"),
    ):
        script = script.replace(documented, here)
    database = {} if ON_SQLITE else {"DATABASE_URL": TEST_DATABASE_URL}
    env = environment(PIP_NO_INDEX=1, PIP_NO_BUILD_ISOLATION=0, HOME=tmp_path, **database)
    done = subprocess.run(["sh", "-c", script], cwd=admin, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, script + "\n" + done.stdout + done.stderr
    assert "Restored 1 tables" in done.stdout

    assert (etc / "secret_key").stat().st_mode & 0o777 == 0o600
    assert (etc / "secret_key").read_text().strip() == keys["secret_key"]
    assert (checkout / "instance" / "club_code").read_text().strip() == keys["club_code"]
    new_url = f"sqlite:///{checkout / 'instance' / 'referee.sqlite3'}" if ON_SQLITE else TEST_DATABASE_URL
    service = make_app(
        {
            **plain,
            "INSTANCE_PATH": str(checkout / "instance"),
            "SQLALCHEMY_DATABASE_URI": new_url,
            "SECRET_KEY": (etc / "secret_key").read_text().strip(),  # what SECRET_KEY_FILE gives it
        }
    )
    phone = service.test_client()
    cookie = owner.get_cookie("session")
    assert cookie is not None
    phone.set_cookie("session", cookie.value)
    assert phone.post(f"/t/{table}/share/code").status_code == 200
