"""The production server (gunicorn, as `make run` starts it) does not name itself in its answers."""

from __future__ import annotations

from pathlib import Path

from referee.serve import processes

from .conftest import API, call, fresh_database, production_server


def test_answers_carry_no_server_header(tmp_path: Path) -> None:
    with fresh_database(tmp_path) as url, production_server(url, tmp_path, workers=1) as server:
        answers = {
            "page": call(server.port, "GET", "/"),
            "api": call(server.port, "GET", f"{API}/openapi.json"),
            "api 404": call(server.port, "GET", f"{API}/tables/nope"),
            "static": call(server.port, "GET", "/static/css/app.css"),
        }
    assert {name: reply.status for name, reply in answers.items()} == {
        "page": 200,
        "api": 200,
        "api 404": 404,
        "static": 200,
    }
    assert {name: reply.headers.get("server") for name, reply in answers.items()} == dict.fromkeys(answers)


def test_make_run_serves_with_the_same_settings() -> None:
    command = processes.gunicorn_command(bind="unix:/tmp/x.sock", workers=2, app="referee:create_app()", proxied=True)
    assert "--config python:referee.gunicorn_conf" in " ".join(command)
