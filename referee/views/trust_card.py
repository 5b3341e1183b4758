"""The way to this server's page to trust its certificate authority, as the pages show it: the
server's address on the host the phone used, and the card (plain-http address and QR code) the
home page and the trust page itself carry (:mod:`referee.views.trust`).
"""

from __future__ import annotations

from flask import current_app, request
from flask_babel import gettext as _

from referee import qr
from referee.authority import Unavailable, root_certificate


def address(scheme: str) -> str:
    """This server's address for ``scheme`` on the host the phone used, with the port the
    proxy serves it on (HTTP_PORT, HTTPS_PORT; the usual 80 and 443 are left out)."""
    port = current_app.config.get("HTTPS_PORT" if scheme == "https" else "HTTP_PORT")
    host = request.host.rsplit(":", 1)[0] if not request.host.endswith("]") else request.host
    shown = "" if not port or str(port) == ("443" if scheme == "https" else "80") else f":{port}"
    return f"{scheme}://{host}{shown}"


def card() -> dict[str, object] | None:
    """What the home page shows about this server's authority: the page's plain-http address
    and its QR code, or None when there is no authority to trust."""
    try:
        if root_certificate() is None:
            return None
    except Unavailable as problem:
        current_app.logger.warning("The page to trust this server is off: %s", problem.sentence)
        return None
    url = address("http") + "/ca"
    return {"url": url, "qr": qr.svg(url, label=_("QR code of the page to trust this server"))}
