"""The wheel that `python -m build` makes must serve every page in pt-BR after a plain install:
no checkout around it and no `make translations`; `referee-serve` serves it as `make run` does
(Caddy in front), with its data outside the venv; and the next release's wheel installs over it. The build runs without isolation, from
this venv's setuptools and Babel (pinned in constraints.txt), so the test needs no network. One
wheel is built and installed for the whole module: a build takes several seconds."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import urllib.request
import venv
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
from flask import Flask

import referee
from referee.config import data_folder
from tests.bench._common import stop

ROOT = Path(__file__).resolve().parents[2]
# What a fresh clone gives the build. The compiled catalogues are not in git, so none is copied:
# the build itself must make them.
FILE_CODE = "4444 5555 6666"
SOURCES = ("pyproject.toml", "setup.py", "README.md", "referee", "templates", "static")

# Runs in the clean venv, from a folder outside the repository; writes what it saw as JSON.
PROBE = """
import json, sys
import referee
from referee import create_app

tmp, out = sys.argv[1], sys.argv[2]
app = create_app({"INSTANCE_PATH": tmp + "/instance", "SQLALCHEMY_DATABASE_URI": "sqlite:///" + tmp + "/db.sqlite3"})
client = app.test_client()
home, css, worker = client.get("/"), client.get("/static/css/app.css"), client.get("/sw.js")
fallback = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"})  # no INSTANCE_PATH
with open(out, "w", encoding="utf-8") as f:
    json.dump({
        "package": referee.__file__,
        "folders": [app.template_folder, app.static_folder],
        "home": [home.status_code, home.get_data(as_text=True)],
        "css": [css.status_code, css.get_data(as_text=True)],
        "worker": [worker.status_code, worker.get_data(as_text=True)],
        "default_instance": fallback.instance_path,
    }, f)
"""


def environment(**extra: str | Path) -> dict[str, str]:
    """This process's environment without what would point Python or Referee elsewhere."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "REFEREE_HOME", "XDG_DATA_HOME")
    }
    return env | {k: str(v) for k, v in extra.items()}


def run(*args: str | Path, cwd: Path, **extra: str | Path) -> None:
    env = environment(**extra)
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"


def copy_sources(to: Path, *more: str) -> None:
    for name in (*SOURCES, *more):
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, to / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
        else:
            shutil.copy2(ROOT / name, to / name)


def build_wheel(source: Path, outdir: Path, *only: str) -> Path:
    """sdist first, then the wheel from it (what `python -m build` does): both must be whole.
    ``only="--wheel"`` skips the sdist."""
    run(sys.executable, "-m", "build", "--no-isolation", *only, "--outdir", outdir, source, cwd=source)
    (wheel,) = outdir.glob("referee-*.whl")
    return wheel


def pip_install(python: Path, wheel: Path) -> None:
    """A plain `pip install WHEEL`: no --force-reinstall, no --upgrade."""
    run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--no-deps",
        "--no-index",
        "--quiet",
        wheel,
        cwd=wheel.parent,
    )


def clean_venv(where: Path, wheel: Path) -> Path:
    """A venv holding only the wheel; a .pth line lends it this venv's packages as a plain path
    entry, so the editable install's finder in there never runs and `referee` is the wheel's."""
    venv.create(where, with_pip=False)
    python = where / "bin" / "python"
    pip_install(python, wheel)
    lend_packages(where)
    return python


def lend_packages(venv_folder: Path) -> None:
    """This venv's packages on the path of the venv at ``venv_folder``, as a plain entry."""
    site = Path(sysconfig.get_paths(vars={"base": str(venv_folder), "platbase": str(venv_folder)})["purelib"])
    (site / "lent.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")


class Installed(NamedTuple):
    source: Path
    env: Path
    python: Path
    wheel: Path


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    """The wheel built from a copy of the sources, installed in a clean venv."""
    tmp = tmp_path_factory.mktemp("wheel")
    source, dist, env = (tmp / name for name in ("source", "dist", "venv"))
    for folder in (source, dist):
        folder.mkdir()
    copy_sources(source)
    wheel = build_wheel(source, dist)
    yield Installed(source, env, clean_venv(env, wheel), wheel)


def test_an_installed_wheel_serves_pages_in_portuguese(installed: Installed, tmp_path: Path) -> None:
    source, env, python = installed.source, installed.env, installed.python
    work, home = tmp_path / "work", tmp_path / "home"
    work.mkdir()
    run(python, "-c", PROBE, work, work / "probe.json", cwd=work, HOME=home)
    seen = json.loads((work / "probe.json").read_text(encoding="utf-8"))

    package = Path(seen["package"]).parent
    assert package.is_relative_to(env), seen["package"]
    assert (package / "translations" / "pt_BR" / "LC_MESSAGES" / "messages.mo").is_file()
    assert all(Path(folder).is_relative_to(package) for folder in seen["folders"]), seen["folders"]
    status, html = seen["home"]
    assert status == 200
    assert "Nenhuma mesa em andamento." in html
    assert seen["css"] == [200, (source / "static" / "css" / "app.css").read_text(encoding="utf-8")]
    # The service worker is filled in from the package's own static/sw.js and offline page.
    assert seen["worker"][0] == 200 and "var CONFIG = " in seen["worker"][1]
    assert '"version": "dev"' not in seen["worker"][1]
    # Without INSTANCE_PATH or REFEREE_HOME an installed app keeps its data in the user's data
    # folder: recreating the venv must not delete the club.
    assert Path(seen["default_instance"]) == home / ".local" / "share" / "referee"


def test_referee_serve_puts_caddy_in_front_and_prints_the_code_in_force(installed: Installed, tmp_path: Path) -> None:
    """`referee-serve` from the wheel starts what `make run` starts: Caddy in front of gunicorn
    (where Caddy is installed, as in CI; else gunicorn alone and a warning), the address to open
    with the port it took for ``--port 0``, the club's code in force (here CLUB_CODE_FILE's), and
    the data folder outside the venv (Caddy's XDG folders do not move it)."""
    (tmp_path / "code").write_text(FILE_CODE + "\n", encoding="ascii")
    command = [installed.env / "bin" / "referee-serve", "--host", "127.0.0.1", "--port", "0", "--workers", "1"]
    env = environment(HOME=tmp_path, CLUB_CODE_FILE=tmp_path / "code")
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            command, env=env, cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    data = tmp_path / ".local" / "share" / "referee"
    try:
        deadline = time.monotonic() + 60
        while f"Data folder: {data}\n" not in (said := log.read_text(errors="replace")):  # the announcement's last line
            assert time.monotonic() < deadline and server.poll() is None, said
            time.sleep(0.1)
        port = re.search(r"^    http://127\.0\.0\.1:(\d+)/$", said, re.MULTILINE)
        assert port and int(port[1]) > 0, said
        with urllib.request.urlopen(f"http://127.0.0.1:{port[1]}/", timeout=10) as answer:
            assert "Nenhuma mesa em andamento." in answer.read().decode()
            server_header = answer.headers["Server"]
    finally:
        stop(server)
    said = log.read_text(errors="replace")
    assert f"Club code (to manage members, Pix keys and seasons): {FILE_CODE}" in said
    if shutil.which("caddy"):
        assert server_header == "Caddy" and "Caddy is not installed" not in said  # gunicorn's answers name nobody
    else:
        assert server_header is None and "Warning: Caddy is not installed" in said
    assert {"referee.sqlite3", "secret_key"} <= {p.name for p in data.iterdir()}
    assert "[ERROR]" not in said


def installed_version(python: Path) -> str:
    env = environment()
    code = "import importlib.metadata as m; print(m.version('referee'))"
    # Run away from the checkout: its referee.egg-info would answer from the current folder.
    done = subprocess.run([python, "-c", code], cwd=python.parent, env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_the_next_release_installs_over_the_wheel(installed: Installed, tmp_path: Path) -> None:
    """Each release has its own version (referee.__version__), so pip takes the next wheel
    as an upgrade; the same version again would be "already satisfied" and change nothing."""
    assert installed.wheel.name.startswith(f"referee-{referee.__version__}-")
    assert installed_version(installed.python) == referee.__version__
    init = installed.source / "referee" / "__init__.py"
    init.write_text(init.read_text().replace(f'"{referee.__version__}"', f'"{referee.__version__}.1"'))
    pip_install(installed.python, build_wheel(installed.source, tmp_path, "--wheel"))
    assert installed_version(installed.python) == f"{referee.__version__}.1"


def test_a_checkout_serves_its_own_folders(app: Flask) -> None:
    assert app.template_folder == str(ROOT / "templates")
    assert app.static_folder == str(ROOT / "static")


def test_a_wheel_upgraded_in_place_keeps_the_club_in_its_old_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Releases before ~/.local/share/referee kept a wheel's data in <venv>/var/referee-instance:
    a venv upgraded in place goes on using it (and says how to move it), never an empty folder;
    once moved, or on a new install, the new folder is the one."""
    monkeypatch.delenv("REFEREE_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    new = tmp_path / "share" / "referee"
    assert data_folder(installed=True, checkout=ROOT) == new
    old = tmp_path / "venv" / "var" / "referee-instance"
    old.mkdir(parents=True)
    (old / "referee.sqlite3").write_bytes(b"the club")
    assert data_folder(installed=True, checkout=ROOT) == old
    said = capsys.readouterr().err
    assert str(old) in said and str(new) in said and "move" in said
    new.mkdir(parents=True)  # the admin moved it
    assert data_folder(installed=True, checkout=ROOT) == new
