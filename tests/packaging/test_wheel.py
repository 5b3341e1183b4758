"""The wheel that `python -m build` makes must serve every page in pt-BR after a plain install:
no checkout around it and no `make translations`. The build runs without isolation, from this
venv's setuptools and Babel (pinned in constraints.txt), so the test needs no network."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

from flask import Flask

ROOT = Path(__file__).resolve().parents[2]
# What a fresh clone gives the build. The compiled catalogues are not in git, so none is copied:
# the build itself must make them.
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
fallback = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"})
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


def run(*args: str | Path, cwd: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"


def copy_sources(to: Path) -> None:
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, to / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
        else:
            shutil.copy2(ROOT / name, to / name)


def build_wheel(source: Path, outdir: Path) -> Path:
    """sdist first, then the wheel from it (what `python -m build` does): both must be whole."""
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", outdir, source, cwd=source)
    (wheel,) = outdir.glob("referee-*.whl")
    return wheel


def clean_venv(where: Path, wheel: Path) -> Path:
    """A venv holding only the wheel; a .pth line lends it this venv's packages as a plain path
    entry, so the editable install's finder in there never runs and `referee` is the wheel's."""
    venv.create(where, with_pip=False)
    python = where / "bin" / "python"
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
        cwd=where,
    )
    site = Path(sysconfig.get_paths(vars={"base": str(where), "platbase": str(where)})["purelib"])
    (site / "lent.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return python


def test_an_installed_wheel_serves_pages_in_portuguese(tmp_path: Path) -> None:
    source, dist, env, work = (tmp_path / name for name in ("source", "dist", "venv", "work"))
    for folder in (source, dist, work):
        folder.mkdir()
    copy_sources(source)
    python = clean_venv(env, build_wheel(source, dist))

    run(python, "-c", PROBE, work, work / "probe.json", cwd=work)
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
    # Without INSTANCE_PATH an installed app keeps its data under the venv, not in site-packages.
    assert Path(seen["default_instance"]) == env / "var" / "referee-instance"


def test_a_checkout_serves_its_own_folders(app: Flask) -> None:
    assert app.template_folder == str(ROOT / "templates")
    assert app.static_folder == str(ROOT / "static")
