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


class Unavailable(Exception):
    """The server was told to offer a root certificate (REFEREE_CA_CERT, or Caddy's file in the
    instance folder) that this process cannot read. The trust page says so, with the path, so
    whoever set the server up can fix it; the home page just leaves its card out."""

    def __init__(self, path: Path, sentence: str) -> None:
        super().__init__(sentence)
        self.path = path
        self.sentence = sentence


def root_certificate() -> bytes | None:
    """The local authority's root certificate (PEM bytes), or None when this server has none.

    Raises Unavailable when one is configured but missing, unreadable by the user the server
    runs as, or not a certificate: a service install that copied the file somewhere its user
    cannot reach must hear where, not get an error page with no reason."""
    configured = current_app.config.get("CA_CERT")
    path = Path(configured) if configured else Path(current_app.instance_path) / CADDY_ROOT
    try:
        pem = path.read_bytes()
    except FileNotFoundError:
        if not configured:
            return None
        raise Unavailable(path, _("The certificate file %(path)s does not exist.", path=path)) from None
    except IsADirectoryError:
        raise Unavailable(path, _("%(path)s is a folder, not the certificate file.", path=path)) from None
    except OSError as exc:
        # Most often a PermissionError: the file, or a folder on its way, is closed to this user.
        sentence = _(
            "The server cannot read the certificate file %(path)s (%(reason)s): give the user it runs as"
            " read access to the file and to its folder.",
            path=path,
            reason=exc.strerror or type(exc).__name__,
        )
        raise Unavailable(path, sentence) from None
    try:
        ssl.PEM_cert_to_DER_cert(pem.decode("ascii"))
    except (ValueError, UnicodeDecodeError):
        raise Unavailable(path, _("The file %(path)s is not a PEM certificate.", path=path)) from None
    return pem


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
    try:
        if root_certificate() is None:
            return None
    except Unavailable as problem:
        current_app.logger.warning("The page to trust this server is off: %s", problem.sentence)
        return None
    url = address("http") + "/ca"
    return {"url": url, "qr": qr.svg(url, label=_("QR code of the page to trust this server"))}


def unavailable(problem: Unavailable) -> ResponseReturnValue:
    """503 with the sentence that says what is missing and where."""
    page = render_template(
        "errors/error.html", status=503, title=_("Certificate unavailable"), message=problem.sentence
    )
    return page, 503, {"Retry-After": "300"}


def certificate_or_404() -> bytes:
    pem = root_certificate()
    if pem is None:
        abort(404)
    return pem


@bp.get("/ca")
def page() -> ResponseReturnValue:
    try:
        pem = certificate_or_404()
    except Unavailable as problem:
        return unavailable(problem)
    return render_template(
        "server/ca.html",
        fingerprint=fingerprint(pem.decode("ascii")),
        https_url=address("https") + "/",
        here=card(),
        secure=request.is_secure,
    )


@bp.get("/ca/referee-root.crt")
def certificate() -> ResponseReturnValue:
    try:
        pem = certificate_or_404()
    except Unavailable as problem:
        return unavailable(problem)
    return Response(
        pem,
        mimetype="application/x-x509-ca-cert",
        headers={"Content-Disposition": 'attachment; filename="referee-root.crt"', "Cache-Control": "no-cache"},
    )
