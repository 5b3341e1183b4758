"""The QR code `make run` and `referee-serve` print (referee/serve/announce.py): the text drawn in the terminal, turned back
into an image cell by cell with only the margin it prints, reads back with zbarimg (the reader
the other QR tests use) as the first LAN address's URL, in plain text and in colour; what the
launcher printed before the code was added is all still there."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.serve import announce

#: Each character is two modules, one above the other: True is dark.
CELLS = {" ": (False, False), "\u2580": (True, False), "\u2584": (False, True), "\u2588": (True, True)}
CAPTION = "  Or point a phone's camera at this code"


class Terminal(io.StringIO):
    """Standard output as a terminal would be (the launcher colours only for one)."""

    encoding = "utf-8"

    def isatty(self) -> bool:
        return True


def run(
    monkeypatch: pytest.MonkeyPatch, addresses: list[str], port: str = "8123", stdout: io.TextIOBase | None = None
) -> str:
    out = stdout if stdout is not None else io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    announce.announce_lan(port, "1234 5678 9012", addresses)
    return out.getvalue() if isinstance(out, io.StringIO) else ""


def the_code(output: str) -> list[str]:
    """The lines of the code as printed, after the caption, without the four spaces of indent."""
    lines = output.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(CAPTION)) + 1
    code = []
    for line in lines[start:]:
        if not line.startswith("    "):
            break
        code.append(line[4:])
    return code


def read_back(lines: list[str], tmp_path: Path, scale: int = 4) -> str:
    """Draw the text's cells as a plain PBM (P1; 1 is black) at ``scale`` pixels a module, with
    no margin but the printed one, and answer what zbarimg reads in it."""
    zbarimg = shutil.which("zbarimg")
    if zbarimg is None:
        pytest.skip("zbarimg is not installed (zbar-tools): the code was drawn but not read back")
    rows: list[list[bool]] = []
    for line in lines:
        assert set(line) <= set(CELLS), f"not a code line: {line!r}"
        rows.append([CELLS[c][0] for c in line])
        rows.append([CELLS[c][1] for c in line])
    width = len(rows[0])
    assert all(len(row) == width for row in rows)
    pixels = []
    for row in rows:
        line = " ".join("1" if dark else "0" for dark in row for _ in range(scale))
        pixels += [line] * scale
    image = tmp_path / "code.pbm"
    image.write_text(f"P1\n{width * scale} {len(rows) * scale}\n" + "\n".join(pixels) + "\n", encoding="ascii")
    answer = subprocess.run([zbarimg, "--raw", "-q", str(image)], capture_output=True, text=True, timeout=30)
    assert answer.returncode == 0, f"zbarimg read nothing: {answer.stderr or answer.returncode}"
    return answer.stdout.strip()


def test_the_printed_code_reads_back_as_the_first_address_and_the_rest_is_still_printed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    output = run(monkeypatch, ["192.168.1.23", "10.0.0.5"])
    lines = output.split("\n")
    said = [
        "  Referee is starting. Open on the phones (same Wi-Fi):",
        "    http://192.168.1.23:8123/",
        "    http://10.0.0.5:8123/",
        "  Club code (to manage members, Pix keys and seasons): 1234 5678 9012",
    ]
    assert [line for line in lines if line in said] == said  # all of it, in the order of before
    assert lines[0] == "" and output.endswith("\n\n")
    assert f"{CAPTION} (http://192.168.1.23:8123/):" in lines
    code = the_code(output)
    assert "\x1b" not in output  # not a terminal: plain text
    assert read_back(code, tmp_path) == "http://192.168.1.23:8123/"


def test_the_code_keeps_a_quiet_zone_of_two_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    code = the_code(run(monkeypatch, ["172.16.254.201"], port="65535"))
    assert len(code) >= 12
    assert code[0].strip() == "" and code[-1].strip() == ""  # two modules above, two (or three) below
    assert all(line[:2] == "  " and line[-2:] == "  " for line in code)
    assert any(line[2] == "\u2588" for line in code)  # and not more: the finder pattern starts there


def test_on_a_terminal_it_is_black_on_white_and_reads_back(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    code = the_code(run(monkeypatch, ["192.168.0.7"], port="80", stdout=Terminal()))
    coloured = re.compile(re.escape(announce.BLACK_ON_WHITE) + r"(.*)" + re.escape(announce.RESET))
    cells = []
    for line in code:
        match = coloured.fullmatch(line)
        assert match, f"not drawn black on white: {line!r}"
        cells.append(match[1])
    assert read_back(cells, tmp_path) == "http://192.168.0.7:80/"


@pytest.mark.parametrize("setting", [("NO_COLOR", "1"), ("TERM", "dumb")])
def test_no_colour_where_the_terminal_asks_for_none(monkeypatch: pytest.MonkeyPatch, setting: tuple[str, str]) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv(*setting)
    output = run(monkeypatch, ["192.168.0.7"], stdout=Terminal())
    assert the_code(output) and "\x1b" not in output


def test_without_a_lan_address_there_is_no_code(monkeypatch: pytest.MonkeyPatch) -> None:
    output = run(monkeypatch, [])
    assert "    http://127.0.0.1:8123/" in output
    assert "  (no LAN address found: only this machine can connect)" in output
    assert CAPTION not in output and "\u2588" not in output


def test_a_terminal_without_the_block_characters_gets_the_urls_without_a_code(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = io.BytesIO()
    latin = io.TextIOWrapper(raw, encoding="latin-1")
    run(monkeypatch, ["192.168.1.23"], stdout=latin)
    latin.flush()
    output = raw.getvalue().decode("latin-1")
    assert "    http://192.168.1.23:8123/" in output and "1234 5678 9012" in output
    assert CAPTION not in output
