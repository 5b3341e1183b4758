"""`flask --app referee club-code`: --show prints the code in force without changing anything,
wherever it comes from; a new code is refused when the file it would go to is not the one in
force (CLUB_CODE_FILE, CLUB_CODE, instance/config.py win over instance/club_code)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from referee import create_app
from tests.conftest import TEST_DATABASE_URL


def served_app(instance: Path) -> Flask:
    """The app as a server starts it (not TESTING: the code comes from the files)."""
    return create_app({"SQLALCHEMY_DATABASE_URI": TEST_DATABASE_URL, "SECRET_KEY": "k", "INSTANCE_PATH": str(instance)})


def test_show_prints_the_code_in_instance_club_code_and_changes_nothing(tmp_path: Path) -> None:
    app = served_app(tmp_path)
    written = (tmp_path / "club_code").read_text(encoding="ascii")
    result = app.test_cli_runner().invoke(args=["club-code", "--show"])
    assert result.exit_code == 0, result.output
    assert result.output == f"The club's code: {written.strip()}\n(From {tmp_path / 'club_code'}.)\n"
    assert (tmp_path / "club_code").read_text(encoding="ascii") == written


def test_show_prints_the_code_club_code_file_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "club_code").write_text("1111 2222 3333\n", encoding="ascii")
    (tmp_path / "elsewhere").write_text("444455556666\n", encoding="ascii")
    monkeypatch.setenv("CLUB_CODE_FILE", str(tmp_path / "elsewhere"))
    result = served_app(tmp_path).test_cli_runner().invoke(args=["club-code", "--show"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "The club's code: 4444 5555 6666",
        f"(From the file CLUB_CODE_FILE names ({tmp_path / 'elsewhere'}).)",
    ]


def test_a_new_code_where_it_would_not_be_in_force_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "club_code").write_text("1111 2222 3333\n", encoding="ascii")
    (tmp_path / "config.py").write_text('CLUB_CODE = "4444 5555 6666"\n', encoding="ascii")
    monkeypatch.delenv("CLUB_CODE_FILE", raising=False)
    monkeypatch.delenv("CLUB_CODE", raising=False)
    result = served_app(tmp_path).test_cli_runner().invoke(args=["club-code"])
    assert result.exit_code == 1
    assert f"comes from CLUB_CODE in {tmp_path / 'config.py'}" in result.output
    assert (tmp_path / "club_code").read_text(encoding="ascii") == "1111 2222 3333\n"
