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

from flask import Blueprint, Response, abort, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee.authority import Unavailable, fingerprint, root_certificate
from referee.views.trust_card import address, card

bp = Blueprint("trust", __name__)


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
