"""`tools/upgrade.sh` upgrades a server in place, as docs/club-server.md tells an admin to run it
where there is no git and no systemd (a release unpacked over the checkout): `--no-pull
--no-restart`. It starts from what the previous release left: a database at that release's
schema holding a club's tables and hands, and a checkout whose catalogues were never compiled
(after `git pull` alone, pt-BR pages showed English). Afterwards the schema is current, the data
is the same, and the pages are in Portuguese.

The checkout's venv borrows this venv's packages through a .pth line (no network here), and pip
runs with no index: the script's own pip command still installs the checkout, editable, in it.
"""

from __future__ import annotations

import json
import subprocess
import venv
from collections.abc import Callable
from pathlib import Path

import flask_migrate
from flask import Flask
from sqlalchemy import text

from referee import MIGRATIONS, schema
from referee.club_scope import HOME_CLUB
from referee.extensions import db
from tests.conftest import TEST_DATABASE_URL
from tests.packaging.test_wheel import ROOT, copy_sources, environment, lend_packages
from tests.web.test_exports import club, snapshot

#: The schema the previous release (0.1.0, before releases carried their date) left databases at.
PREVIOUS_RELEASE_SCHEMA = "0006"

PROBE = """
import json, sys
import referee
from referee import create_app

client = create_app().test_client()
json.dump({"package": referee.__file__, "home": client.get("/").get_data(as_text=True)}, sys.stdout)
"""


def test_the_upgrade_command_brings_the_previous_release_up_to_date(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    checkout = tmp_path / "srv"
    checkout.mkdir()
    copy_sources(checkout, "constraints.txt", "tools")
    (checkout / "instance").mkdir()
    venv.create(checkout / ".venv", with_pip=False)
    lend_packages(checkout / ".venv")
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}" if TEST_DATABASE_URL.startswith("sqlite") else TEST_DATABASE_URL

    app = make_app({"SQLALCHEMY_DATABASE_URI": url}, empty=True)
    club(app, app.test_client())
    before = snapshot(app)  # read by today's models, which the previous schema lacks columns of
    with app.app_context():
        flask_migrate.downgrade(directory=str(MIGRATIONS), revision=PREVIOUS_RELEASE_SCHEMA)
        db.engine.dispose()

    env = environment(DATABASE_URL=url, PIP_NO_INDEX=1, PIP_NO_BUILD_ISOLATION=0, HOME=tmp_path)
    done = subprocess.run(
        [checkout / "tools" / "upgrade.sh", "--no-pull", "--no-restart"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    for step in ("code: kept", "dependencies: installed", "catalogues: compiled", "schema: upgraded", "restart: no "):
        assert step in done.stdout, done.stdout

    with app.app_context():
        assert schema._current(db.engine, MIGRATIONS)
        # The data the previous release held is the home club's, the server's first.
        assert db.session.execute(text("SELECT id FROM club")).scalars().all() == [HOME_CLUB]
        for table in ("game_table", "seat", "hand", "hand_delta", "member", "season"):
            clubs = db.session.execute(text(f"SELECT DISTINCT club_id FROM {table}")).scalars().all()
            assert clubs == [HOME_CLUB], table
        if db.engine.dialect.name == "sqlite":  # member was made again (0018): every reference whole
            assert db.session.execute(text("PRAGMA foreign_key_check")).all() == []
    assert snapshot(app) == before
    probe = subprocess.run(
        [checkout / ".venv" / "bin" / "python", "-c", PROBE],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert probe.returncode == 0, probe.stderr
    seen = json.loads(probe.stdout)
    assert Path(seen["package"]).is_relative_to(checkout)
    assert "Nova mesa" in seen["home"] and "New table" not in seen["home"]


def test_a_production_install_carries_no_test_tools() -> None:
    """The script installs the checkout without its [test] extra: the runtime dependencies,
    followed down to the last package, hold none of the test tools (458 MB against 127 MB)."""
    from importlib.metadata import PackageNotFoundError, distribution

    from packaging.requirements import Requirement

    seen: set[str] = set()
    todo = ["referee"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = distribution(name).requires or []
        except PackageNotFoundError:
            continue
        for line in requires:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name.lower().replace("_", "-"))
    assert not seen & {"pytest", "playwright", "hypothesis", "mypy", "schemathesis", "ruff", "build"}, seen
    assert {"flask", "gunicorn"} <= seen
    script = (ROOT / "tools" / "upgrade.sh").read_text()
    assert "pip install --quiet --disable-pip-version-check --no-cache-dir -c constraints.txt -e .\n" in script


def test_the_upgrade_as_another_user_than_root_on_a_service_changes_nothing(tmp_path: Path) -> None:
    """With systemd running the service, only root's restart upgrades the schema; the timers
    would run the new code on the old schema meanwhile. As another user the script refuses
    before it pulls or builds anything, and says to run it as root."""
    checkout = tmp_path / "srv"
    checkout.mkdir()
    copy_sources(checkout, "tools")
    tools = tmp_path / "bin"
    tools.mkdir()
    for name, script in (("systemctl", "exit 0"), ("id", "echo 1000"), ("git", "exit 1")):
        (tools / name).write_text(f"#!/bin/sh\n{script}\n")
        (tools / name).chmod(0o755)
    env = environment(PATH=f"{tools}:/usr/bin:/bin")
    done = subprocess.run(
        [checkout / "tools" / "upgrade.sh"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "as root" in done.stderr and "nothing was changed" in done.stderr
    assert not (checkout / ".venv").exists() and done.stdout == ""
