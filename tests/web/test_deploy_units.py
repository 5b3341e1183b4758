"""The service files a club installs (deploy/): systemd checks every unit, and each command in
them runs for real here, with the paths of this checkout in place of /opt/referee and a
throwaway database: the schema upgrade before the workers, gunicorn serving, the daily backup,
the ratings catch-up. Secrets come as systemd hands them over: files in the credentials folder
(%d), named by *_FILE."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.bench import _common

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNITS = sorted(p.name for p in DEPLOY.iterdir() if p.suffix in (".service", ".timer"))


def directives(unit: str) -> dict[str, list[str]]:
    """The unit's settings, continuation lines joined, comments dropped (a key may repeat)."""
    text = (DEPLOY / unit).read_text().replace("\\\n", " ")
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        found.setdefault(key.strip(), []).append(value.strip())
    return found


def here(text: str, tmp_path: Path) -> str:
    """A unit's text for this machine: this checkout, and a backups folder of the test's."""
    return text.replace("/opt/referee", str(ROOT)).replace("/var/backups/referee", str(tmp_path / "backups"))


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_finds_nothing_wrong_in_the_units(tmp_path: Path) -> None:
    for unit in UNITS:
        (tmp_path / unit).write_text(here((DEPLOY / unit).read_text(), tmp_path))
    run = subprocess.run(
        ["systemd-analyze", "verify", *(str(tmp_path / u) for u in UNITS)], capture_output=True, text=True
    )
    complaints = [line for line in run.stderr.splitlines() if any(u in line for u in UNITS)]
    assert complaints == [] and run.returncode == 0, run.stderr


def test_every_timer_has_its_service() -> None:
    for unit in UNITS:
        if unit.endswith(".timer"):
            assert unit.replace(".timer", ".service") in UNITS


def environment(unit: str, tmp_path: Path, database: Path) -> dict[str, str]:
    """What systemd gives the unit's commands: its Environment= lines, %d its credentials."""
    credentials = tmp_path / "credentials"
    credentials.mkdir(exist_ok=True)
    (credentials / "secret_key").write_text("a-long-secret-for-the-club\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SECRET_KEY", "DATABASE_URL", "REFEREE_"))}
    for line in directives(unit).get("Environment", []):
        for pair in shlex.split(line):
            key, _, value = pair.partition("=")
            env[key] = value.replace("%d", str(credentials))
    env["DATABASE_URL"] = f"sqlite:///{database}"  # the unit's default is instance/ in the checkout
    return env


def command(unit: str, key: str, tmp_path: Path) -> list[str]:
    (value,) = directives(unit)[key]
    return shlex.split(here(value, tmp_path))


def test_each_service_runs_its_commands(tmp_path: Path) -> None:
    database = tmp_path / "club.sqlite3"
    # The schema first, before any worker: a fresh database comes out current.
    env = environment("referee.service", tmp_path, database)
    assert env["SECRET_KEY_FILE"] == str(tmp_path / "credentials" / "secret_key")
    upgrade = subprocess.run(
        command("referee.service", "ExecStartPre", tmp_path), env=env, cwd=ROOT, capture_output=True
    )
    assert upgrade.returncode == 0, upgrade.stderr.decode()[-2000:]
    assert database.is_file()

    # gunicorn serves the app from it (on the port the kernel picks instead of 8000; it says which).
    serve = [
        part.replace("127.0.0.1:8000", "127.0.0.1:0") for part in command("referee.service", "ExecStart", tmp_path)
    ]
    log = tmp_path / "gunicorn.log"
    with log.open("wb") as out:
        server = subprocess.Popen(serve, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=out)
    try:
        port = _common.gunicorn_port(server, log)
        deadline = time.monotonic() + 300  # a hang guard only: a loaded machine is slow to boot it
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as answer:
                    assert answer.status == 200
                    assert "Secure" in (answer.headers.get("Set-Cookie") or "")  # REFEREE_HTTPS=1
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=15)

    # The daily backup writes into its folder; the ratings catch-up has nothing to do and says so.
    backup = subprocess.run(
        command("referee-backup.service", "ExecStart", tmp_path),
        env=environment("referee-backup.service", tmp_path, database), cwd=ROOT, capture_output=True,
    )  # fmt: skip
    assert backup.returncode == 0, backup.stderr.decode()[-2000:]
    assert [p.suffix for p in sorted((tmp_path / "backups").iterdir())] == [".gz", ".sqlite3"]
    ratings = subprocess.run(
        command("referee-ratings.service", "ExecStart", tmp_path),
        env=environment("referee-ratings.service", tmp_path, database), cwd=ROOT, capture_output=True,
    )  # fmt: skip
    assert ratings.returncode == 0, ratings.stderr.decode()[-2000:]


@pytest.mark.skipif(shutil.which("caddy") is None, reason="Caddy is not installed")
@pytest.mark.parametrize("caddyfile", ["Caddyfile", "Caddyfile.lan"])
def test_caddy_reads_the_example_caddyfiles(caddyfile: str) -> None:
    run = subprocess.run(
        ["caddy", "adapt", "--config", str(DEPLOY / caddyfile), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert '"upstreams":[{"dial":"127.0.0.1:8000"}]' in run.stdout
