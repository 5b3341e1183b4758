"""The service recipe in docs/club-server.md, read as an admin reads it: its commands need no
`sudo` (a root shell is assumed; minimal Debian has no sudo), every file and section the docs
and the service files point to exists, and the LAN recipe's commands, run here with a folder of
the test's in place of /etc/referee, leave the root certificate readable by the service's group
and the secret key by root alone, at the path the service's drop-in names, where the trust page
then finds it."""

from __future__ import annotations

import grp
import os
import pwd
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from referee import create_app
from tests.conftest import TEST_DATABASE_URL
from tests.web.test_club_server import ROOT_PEM
from tests.web.test_deploy_units import directives

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "club-server.md"
CADDY_DATA = "/var/lib/caddy/.local/share/caddy"


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

    lines = [line for line in code_lines(GUIDE.read_text()) if "/etc/referee" in line]
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
