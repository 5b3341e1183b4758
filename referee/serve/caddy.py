"""Caddy in front of gunicorn: the configuration the launcher writes, and where Caddy comes from.

The constants here are also what deploy/Caddyfile and deploy/Caddyfile.lan (Debian's caddy
service) say; tests/web/test_club_server.py checks that they agree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from contextlib import suppress

#: Caddy's deadlines for a client: its headers, then the whole request (body included). A
#: phone sends a request in a packet or two; only a stalled or hostile client takes longer.
READ_HEADER, READ_BODY, IDLE = "10s", "30s", "2m"
#: Request bodies up to this size are read whole by Caddy before gunicorn sees the request (the
#: app refuses anything above 64 KiB anyway: a hand is about 1 KB).
MAX_BUFFER = "1MiB"
NO_CADDY_WARNING = (
    "Warning: Caddy is not installed, so gunicorn serves the phones alone: a few slow or stalled"
    " connections can then hold all its threads and freeze the scoring. Install it (as root:"
    " `apt-get install caddy`) and start again."
)


def server_options() -> str:
    """The global options' ``servers`` block: the client deadlines, word for word as the
    service's Caddyfiles (deploy/) have them."""
    return (
        f"\tservers {{\n\t\ttimeouts {{\n\t\t\tread_header {READ_HEADER}\n\t\t\tread_body {READ_BODY}\n"
        f"\t\t\tidle {IDLE}\n\t\t}}\n\t}}\n"
    )


#: What Caddy's own log keeps of a request it logs (an error: gunicorn gone, a request cut): the
#: path without a link's or a card's token (``/j/…``, ``/f/…``, however spelled: gunicorn
#: decodes ``/%6A%2F<token>`` or ``//j/<token>`` to the same route, so the pattern takes any case,
#: the percent-encoded letters and slash, and repeated slashes; in a club's address, after
#: ``/k/<slug>``, too) and without its query string,
#: and no Referer (a page's next requests carry its ``/j/<token>`` address there). Caddy hides
#: cookies and the Authorization header itself. The app's own logs do the same (referee.redact).
LOG_FILTER = (
    "\t\tformat filter {\n\t\t\twrap console\n\t\t\tfields {\n"
    '\t\t\t\trequest>uri regexp "(?i)^((?:/+k/+[^/?]+)?/+(?:j|f|eu|%6a|%66|(?:e|%65)(?:u|%75))(?:/|%2f))[^?]*|[?].*$" "${1}\u2026"\n'
    "\t\t\t\trequest>headers>Referer delete\n\t\t\t}\n\t\t}\n"
)


def log_options(*, level: str = "") -> str:
    """The global options' ``log`` block: :data:`LOG_FILTER`, and ``level`` when given."""
    return "\tlog {\n" + (f"\t\tlevel {level}\n" if level else "") + LOG_FILTER + "\t}\n"


def reverse_proxy(upstreams: Sequence[str]) -> str:
    """``reverse_proxy`` to ``upstreams`` (balanced when several), each request's body read whole
    first. Caddy 2.6's words (later versions also take ``request_buffers``)."""
    balance = "\n\t\tlb_policy round_robin\n\t\tfail_duration 10s" if len(upstreams) > 1 else ""
    buffer = f"\n\t\tbuffer_requests\n\t\tmax_buffer_size {MAX_BUFFER}"
    return "reverse_proxy " + " ".join(upstreams) + " {" + balance + buffer + "\n\t}"


def caddyfile(
    *,
    upstreams: Sequence[str],
    http_port: int,
    https_port: int | None = None,
    hosts: Sequence[str] = (),
    domain: str = "",
    bind: str = "",
) -> str:
    """Caddy's configuration. Plain http (no ``https_port``): one site on ``http_port``, every
    request passed on. HTTPS on the LAN: a site for each address the phones may use, with a
    certificate from Caddy's own authority, and on plain http only the page that installs that
    authority (everything else is redirected to https). On a domain: Caddy's defaults (a public
    certificate, http redirected). Every mode has the client deadlines and the request buffer.
    Caddy's admin endpoint is off: nothing on this machine can reconfigure it behind the
    organiser's back."""
    proxy = reverse_proxy(upstreams)
    # Caddy's own log: errors only (its start-up chatter would bury the addresses printed).
    servers = server_options() + log_options(level="ERROR")
    listen = f"\tbind {bind}\n" if bind else ""
    if https_port is None:
        return f"{{\n\tadmin off\n\tauto_https off\n{servers}}}\n\nhttp://:{http_port} {{\n{listen}\t{proxy}\n}}\n"
    if domain:
        ports = "" if (https_port, http_port) == (443, 80) else f"\thttp_port {http_port}\n\thttps_port {https_port}\n"
        return f"{{\n\tadmin off\n{ports}{servers}}}\n\n{domain} {{\n{listen}\tencode gzip\n\t{proxy}\n}}\n"
    sites = ", ".join(f"https://{host}:{https_port}" for host in hosts)
    return (
        "{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n\tauto_https disable_redirects\n"
        f"\thttp_port {http_port}\n\thttps_port {https_port}\n{servers}}}\n\n"
        f"{sites} {{\n{listen}\ttls internal\n\t{proxy}\n}}\n\n"
        f"http://:{http_port} {{\n{listen}"
        "\t@trust path /ca /ca/* /static/*\n"
        f"\thandle @trust {{\n\t\t{proxy.replace(chr(10), chr(10) + chr(9))}\n\t}}\n"
        f"\thandle {{\n\t\tredir https://{{http.request.host}}:{https_port}{{uri}}\n\t}}\n}}\n"
    )


def caddy_binary(*, required: bool) -> str | None:
    """Caddy's path; installed from Debian's package when we are root. Without it: an error when
    ``required`` (HTTPS needs it), else None (plain http goes on without it, with a warning)."""
    found = shutil.which("caddy")
    if found:
        return found
    if os.geteuid() == 0:
        print("Installing Caddy (Debian's package)...", flush=True)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        with suppress(OSError):  # no apt-get: not Debian; said below
            subprocess.run(["apt-get", "install", "-y", "-qq", "caddy"], check=False, env=env)
        if found := shutil.which("caddy"):
            return found
    if required:
        raise SystemExit("Caddy is not installed: run `sudo apt-get install caddy`, then start again.")
    return None
