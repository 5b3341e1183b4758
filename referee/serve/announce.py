"""What the launcher prints once the server answers: the URL(s) the phones at the table should
open, the club's code in force and the data folder.

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
from collections.abc import Sequence
from pathlib import Path
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


def announce_lan(port: int | str, code: str, addresses: Sequence[str], data: str = "") -> None:
    """What `make run` prints once it answers: the URLs for the phones, a QR code of the first,
    the club's code in force and the data folder."""
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
    said_data(data)


def announce_https(*, https_port: int, http_port: int, domain: str, root_cert: Path, code: str, data: str = "") -> None:
    """What `make run-https` prints once Caddy answers: on a domain its address; on the LAN the
    HTTPS addresses, the plain-http page (and its QR code) where each phone trusts the server's
    authority once, and that authority's fingerprint; then the club's code in force."""
    from referee.authority import fingerprint

    print()
    if domain:
        suffix = "" if https_port == 443 else f":{https_port}"
        print(f"  Referee over HTTPS: https://{domain}{suffix}/")
    else:
        lan = lan_addresses() or ["127.0.0.1"]
        print("  Referee over HTTPS. Open on the phones (same Wi-Fi):")
        for host in lan:
            print(f"    https://{host}:{https_port}/")
        print("  Each phone first trusts this server once, on this page (plain http):")
        print(f"    http://{lan[0]}:{http_port}/ca")
        show_code(f"http://{lan[0]}:{http_port}/ca", "Or point a phone's camera at this code")
        pem = root_cert.read_text(encoding="ascii")
        print(f"  The certificate's fingerprint (SHA-256), as the page shows it:\n    {fingerprint(pem)}")
    print(f"  Club code (to manage members, Pix keys and seasons): {code}")
    said_data(data)


def said_data(data: str) -> None:
    """The announcement's last line, then a blank one: where the club's data lives (what to back
    up; an installed wheel keeps it outside its venv)."""
    if data:
        print(f"  Data folder: {data}")
    print()
    sys.stdout.flush()
