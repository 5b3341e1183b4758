"""Print the URL(s) the phones at the table should open: `python tools/lan_urls.py PORT`.

The first LAN address's URL is also drawn as a QR code in the terminal, for the phone's camera:
two modules a character (upper and lower half blocks), a quiet zone of QUIET_ZONE modules. On a
terminal it is drawn black on white whatever the terminal's colours, since a code drawn in a dark
terminal's light foreground comes out reversed, and not every phone reads a reversed code.
Written elsewhere (a pipe, a log; or NO_COLOR set) it is plain text, dark modules as blocks: right
on a light background, reversed on a dark one.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Mapping
from typing import TextIO

QUIET_ZONE = 2  # modules of light around the code: scanners need a margin to find it
HALF_BLOCKS = {(False, False): " ", (True, False): "\u2580", (False, True): "\u2584", (True, True): "\u2588"}
BLACK_ON_WHITE, RESET = "\x1b[38;5;16;48;5;231m", "\x1b[0m"  # 256-colour: themes leave these alone


def lan_addresses() -> list[str]:
    found: list[str] = []
    # The address the default route would use (no packet is sent for a UDP connect).
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            found.append(s.getsockname()[0])
        except OSError:
            pass
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2).stdout
        found += [a for a in out.split() if ":" not in a]  # IPv4 only: easy to type
    except (OSError, subprocess.SubprocessError):
        pass
    unique = [a for i, a in enumerate(found) if a not in found[:i] and not a.startswith("127.")]
    return unique


#: Run in a fresh interpreter by :func:`prepare_app`: the factory named like gunicorn's app spec
#: (``module:expression``), then the club's code in force, grouped as it is typed.
PREPARE = """
import importlib, sys
from referee import club
module, _, expression = sys.argv[1].partition(":")
app = eval(expression or "app", vars(importlib.import_module(module)))
print(club.shown(str(app.config["CLUB_CODE"])))
"""


def prepare_app(env: Mapping[str, str] | None = None, spec: str = "referee:create_app()") -> str:
    """Start the app once, before any worker: it creates or upgrades the schema and makes the
    secret key and the club's code on a first run, so that workers starting together race for
    none of them. Answers the club's code in force, as the app's config decides it (CLUB_CODE,
    CLUB_CODE_FILE, instance/config.py, else instance/club_code): the one to print."""
    run = subprocess.run(
        [sys.executable, "-c", PREPARE, spec],
        env=dict(os.environ if env is None else env),
        stdout=subprocess.PIPE,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        raise SystemExit("The app did not start: see its messages above.")
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def club_code() -> str:
    """The club's code in force for this environment (see :func:`prepare_app`)."""
    return prepare_app()


def qr_lines(url: str, *, colour: bool) -> list[str]:
    """``url`` as a QR code in text, one line for two rows of modules; [] without the qrcode
    package (a bare Python), the URL above it is enough then."""
    try:
        import qrcode
        from qrcode.constants import ERROR_CORRECT_M
    except ImportError:
        return []
    code = qrcode.QRCode(border=QUIET_ZONE, error_correction=ERROR_CORRECT_M)
    code.add_data(url)
    code.make(fit=True)
    rows = [list(row) for row in code.get_matrix()]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))  # one more row of quiet zone
    lines = ["".join(HALF_BLOCKS[pair] for pair in zip(top, bottom)) for top, bottom in zip(rows[0::2], rows[1::2])]
    return [f"{BLACK_ON_WHITE}{line}{RESET}" for line in lines] if colour else lines


def use_colour(stream: TextIO) -> bool:
    """Colours only for a terminal that has them, and not against the NO_COLOR convention."""
    is_tty = getattr(stream, "isatty", lambda: False)()
    return bool(is_tty) and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def can_draw(stream: TextIO) -> bool:
    """Whether the stream's encoding has the block characters (a Latin-1 terminal has not):
    `make run` must start the server all the same. A stream without one holds text: it has."""
    try:
        "".join(HALF_BLOCKS.values()).encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def show_code(url: str, caption: str) -> None:
    """``url`` as a QR code on standard output, under ``caption``, where the terminal can draw it."""
    if can_draw(sys.stdout) and (lines := qr_lines(url, colour=use_colour(sys.stdout))):
        print(f"  {caption} ({url}):")
        for line in lines:
            print(f"    {line}")


def announce_lan(port: int | str, code: str, addresses: list[str]) -> None:
    """What `make run` prints once it answers: the URLs for the phones, a QR code of the first,
    and the club's code in force."""
    print()
    print("  Referee is starting. Open on the phones (same Wi-Fi):")
    for address in addresses or ["127.0.0.1"]:
        print(f"    http://{address}:{port}/")
    if not addresses:
        print("  (no LAN address found: only this machine can connect)")
    else:
        show_code(f"http://{addresses[0]}:{port}/", "Or point a phone's camera at this code")
    if code:
        print(f"  Club code (to manage members, Pix keys and seasons): {code}")
    print()
    sys.stdout.flush()


def main() -> None:
    port = sys.argv[1] if len(sys.argv) > 1 else "8000"
    announce_lan(port, club_code(), lan_addresses())


if __name__ == "__main__":
    main()
