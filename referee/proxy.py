"""Serving behind a TLS proxy (Caddy, ``make run-https`` or a club's own setup).

Behind a proxy every request reaches gunicorn from the proxy's address, over plain http. The
app must then take the client's address and the scheme from the proxy's ``X-Forwarded-*``
headers: the rate limits on guessing codes count a client without a session (a script on the
API) by its address, and behind the proxy every such client would share one count; links,
redirects and the QR codes the app draws must say https. Those headers are trusted only when the config says how many proxies stand
in front (``PROXIES``, from ``REFEREE_PROXIES``): served directly on the LAN, any phone could
write them and pass for another address.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix


def init_app(app: Flask) -> None:
    hops = int(app.config.get("PROXIES") or 0)
    if hops > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
