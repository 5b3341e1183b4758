"""Response headers that every page, API answer, static file and error carries.

Referee usually runs over plain http on a club's LAN, so nothing here assumes HTTPS: the session
cookie gets its Secure flag only when REFEREE_HTTPS=1 (referee/config.py), and there is no HSTS.
"""

from __future__ import annotations

from flask import Flask, Response

CSP = "; ".join(
    [
        "default-src 'self'",
        "img-src 'self' data:",
        "style-src 'self'",
        "script-src 'self'",
        "connect-src 'self'",
        "worker-src 'self'",  # the service worker, /sw.js
        "manifest-src 'self'",  # /manifest.webmanifest
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

# Powerful features nobody at a card table needs are switched off for every frame. Joining a
# table by QR uses the phone's own camera app, which opens the link: no camera here. The screen
# wake lock (keeping the scoreboard lit) stays allowed for the site itself. Only features
# Chromium knows are listed: an unknown name is a console error on every page.
PERMISSIONS = ", ".join(
    [
        "accelerometer=()",
        "autoplay=()",
        "bluetooth=()",
        "camera=()",
        "display-capture=()",
        "geolocation=()",
        "gyroscope=()",
        "hid=()",
        "magnetometer=()",
        "microphone=()",
        "midi=()",
        "payment=()",
        "serial=()",
        "usb=()",
        "xr-spatial-tracking=()",
        "screen-wake-lock=(self)",
    ]
)

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": PERMISSIONS,
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


#: The same, by lower-case name: an answer's own headers are scanned once for the names it set
#: itself (a header a view set wins), rather than once per header (werkzeug's ``setdefault``
#: scans the list each time, twice: a tenth of a millisecond on every API write).
_BY_KEY = {name.lower(): (name, value) for name, value in HEADERS.items()}


def init_app(app: Flask) -> None:
    @app.after_request
    def security_headers(response: Response) -> Response:
        headers = response.headers
        present = {name.lower() for name in headers.keys()}
        headers.extend([pair for key, pair in _BY_KEY.items() if key not in present])
        return response
