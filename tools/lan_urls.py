"""Print the URL(s) the phones at the table should open: `python tools/lan_urls.py PORT`."""

from __future__ import annotations

import socket
import subprocess
import sys


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


def club_code() -> str:
    """The club's code from instance/club_code (created by the app's first start)."""
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "instance" / "club_code"
    try:
        return path.read_text(encoding="ascii").strip()
    except OSError:
        return ""


def main() -> None:
    port = sys.argv[1] if len(sys.argv) > 1 else "8000"
    addresses = lan_addresses()
    print()
    print("  Referee is starting. Open on the phones (same Wi-Fi):")
    for address in addresses or ["127.0.0.1"]:
        print(f"    http://{address}:{port}/")
    if not addresses:
        print("  (no LAN address found: only this machine can connect)")
    code = club_code()
    if code:
        print(f"  Club code (to manage members, Pix keys and seasons): {code}")
    print()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
