"""The server `make run` starts (referee/serve: Caddy in front of gunicorn) keeps saving a
scorer's hands while 64 slow clients hang on to it, half sending one byte of a request line and
then nothing, half sending whole headers and then a body one byte at a time. gunicorn alone
froze under the same load: its few threads each waited on one of them, without a deadline.

The same start also shows what reaches the app (the phone's address, never one a phone wrote
in X-Forwarded-For itself) and prints the club's code in force (here from CLUB_CODE_FILE, while
the instance folder holds another).

Figures (the save's p50/p95 with 0, 8 and 64 slow clients, old and new way):
`python -m tests.bench.run slow_clients`.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bench.slow_clients import Served, SlowClients, request, scorer, serve

from .conftest import fresh_database

SLOW = 64
SAVES = 20
FILE_CODE = "4444 5555 6666"
INSTANCE_CODE = "1111 2222 3333"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    if shutil.which("caddy") is None:
        pytest.fail("Caddy is not installed (make system-deps installs it): make run would serve without it")
    workdir = tmp_path_factory.mktemp("slow-clients")
    (workdir / "instance").mkdir()
    (workdir / "instance" / "club_code").write_text(INSTANCE_CODE + "\n", encoding="ascii")
    (workdir / "code").write_text(FILE_CODE + "\n", encoding="ascii")
    env = {"CLUB_CODE_FILE": str(workdir / "code")}
    with fresh_database(workdir) as url:
        with serve("caddy", workdir, env={**env, "DATABASE_URL": url}, app="tests.proof.address_app:referee()") as s:
            yield s


def test_a_scorer_saves_every_hand_while_64_slow_clients_hang_on(served: Served) -> None:
    with SlowClients(served.port, SLOW):
        saves = scorer(served.port, SAVES)
    assert saves.failures == []
    assert saves.ok == SAVES


def test_the_app_sees_the_phones_address_not_the_one_it_wrote(served: Served) -> None:
    forged = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"}
    status, seen = request(served.port, "GET", "/_client", headers=forged)
    assert status == 200
    assert seen == {"address": "127.0.0.1", "scheme": "http", "host": f"127.0.0.1:{served.port}"}


def test_the_club_code_printed_is_the_one_in_force(served: Served) -> None:
    out = served.output()
    assert f"Club code (to manage members, Pix keys and seasons): {FILE_CODE}" in out
    assert INSTANCE_CODE not in out


def test_make_run_starts_the_launcher() -> None:
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    assert "\t@exec $(PY) -m referee.serve --port $(PORT) --workers $(WORKERS)\n" in makefile
    assert "\t@exec $(PY) -m referee.serve --https --workers $(WORKERS)" in makefile  # make run-https: the same


def test_without_caddy_gunicorn_serves_alone_and_says_so(tmp_path: Path) -> None:
    """No Caddy on the PATH (nor apt-get to install it): plain http all the same, with a warning,
    and no proxy's headers trusted (a phone could write them), whatever the environment said."""
    bare_path = str(Path(sys.executable).parent)  # the venv's python and gunicorn only
    env = {"PATH": bare_path, "REFEREE_PROXIES": "1"}
    with serve("caddy", tmp_path, env=env, app="tests.proof.address_app:referee()") as served:
        status, seen = request(served.port, "GET", "/_client", headers={"X-Forwarded-For": "203.0.113.9"})
    assert (status, seen["address"]) == (200, "127.0.0.1")  # type: ignore[index]
    out = served.output()
    assert "Warning: Caddy is not installed, so gunicorn serves the phones alone" in out
    assert "Referee is starting" in out and "Club code" in out
