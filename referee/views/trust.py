"""Trusting this server's own certificate authority: a club that serves Referee over HTTPS on
its LAN (``make run-https``) has no domain name, so Caddy signs the server's certificate with a
local authority of its own. A phone trusts it once; then the service worker runs, the app can be
installed on the home screen, and pages open while the Wi-Fi is down.

The page and the certificate are also served over plain http (Caddy passes ``/ca`` through
without redirecting it): before the phone trusts the authority, an https page would greet it with
a warning. The page shows the certificate's fingerprint, which ``make run-https`` prints on the
organiser's screen, so anyone can check that what they install is the server's and not one
slipped in on the way. Without a local authority (a domain with a public certificate, or plain
http) there is nothing to install: the page is not found and the home page does not link it.
"""

from __future__ import annotations

import hashlib
import ssl
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee import qr

bp = Blueprint("trust", __name__)

#: Where Caddy keeps its local authority's root when its data folder is the instance folder.
CADDY_ROOT = Path("caddy", "pki", "authorities", "local", "root.crt")


def root_certificate() -> Path | None:
    """The local authority's root certificate, when this server has one."""
    configured = current_app.config.get("CA_CERT")
    path = Path(configured) if configured else Path(current_app.instance_path) / CADDY_ROOT
    return path if path.is_file() else None


def fingerprint(pem: str) -> str:
    """SHA-256 of the certificate (its DER bytes), in the colon-separated hex that Android,
    iPhone and browsers show."""
    digest = hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem)).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


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
    if root_certificate() is None:
        return None
    url = address("http") + "/ca"
    return {"url": url, "qr": qr.svg(url, label=_("QR code of the page to trust this server"))}


@bp.get("/ca")
def page() -> ResponseReturnValue:
    path = root_certificate()
    if path is None:
        abort(404)
    pem = path.read_text(encoding="ascii")
    return render_template(
        "server/ca.html",
        fingerprint=fingerprint(pem),
        https_url=address("https") + "/",
        here=card(),
        secure=request.is_secure,
    )


@bp.get("/ca/referee-root.crt")
def certificate() -> ResponseReturnValue:
    path = root_certificate()
    if path is None:
        abort(404)
    return Response(
        path.read_bytes(),
        mimetype="application/x-x509-ca-cert",
        headers={"Content-Disposition": 'attachment; filename="referee-root.crt"', "Cache-Control": "no-cache"},
    )
