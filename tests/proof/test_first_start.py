"""The first start: gunicorn with four workers on an empty database, and nothing run before.

Each worker builds the app, and building the app brings the schema up to date. Four at once on
an empty database used to run the migrations together, and the server exited (2 starts in 3).
Now they wait for one another (referee/schema.py): every start serves.

    .venv/bin/pytest -q tests/proof/test_first_start.py
    pg_virtualenv sh -c 'TEST_DATABASE_URL=postgresql+psycopg:// .venv/bin/pytest -q tests/proof/test_first_start.py'
"""

from __future__ import annotations

from pathlib import Path

from tests.bench import _common
from tests.bench import hands as jubileu_hands

from .conftest import fresh_database

STARTS = 4


def test_four_workers_on_an_empty_database_start_every_time(tmp_path: Path) -> None:
    failed = []
    for attempt in range(STARTS):
        workdir = tmp_path / f"start-{attempt}"
        workdir.mkdir()
        with fresh_database(workdir) as url:
            env = {"DATABASE_URL": url, "BENCH_INSTANCE_PATH": str(workdir / "instance")}
            try:
                with _common.gunicorn("tests.bench.wsgi:referee()", env, workers=4) as server:
                    status, answer = _common.post_json(
                        server.base, "/api/v1/tables", {"game": "jubileu", "players": list(jubileu_hands.PLAYERS)}
                    )
                    assert status == 201, answer
            except RuntimeError as exc:  # gunicorn exited, or never got ready
                failed.append(f"start {attempt + 1}: {str(exc)[-600:]}")
    assert not failed, "\n\n".join(failed)
