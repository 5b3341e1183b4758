"""The installable app: the web manifest, the service worker at /sw.js and the offline page.

The worker's source is static/sw.js; it is served here, at the root, so that its scope is the
whole site, with its configuration filled in: the cache version and the shell it precaches
(static URLs carry ?v=<mtime>, see create_app). Any change to the shell, the worker, the
offline page or the translations changes the version, so phones fetch the new shell and the
worker drops the old caches.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import force_locale, get_locale
from flask_babel import gettext as _

bp = Blueprint("pwa", __name__)

ROOT = Path(__file__).resolve().parent.parent.parent
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"

# The colours of static/css/app.css (--primary and --bg in the light scheme).
THEME_COLOR = "#0b5d3b"
BACKGROUND_COLOR = "#f4f6f5"

# Icons, by file name under static/icons/: (size, purpose).
ICONS = [
    ("icon-192.png", 192, "any"),
    ("icon-512.png", 512, "any"),
    ("icon-maskable-192.png", 192, "maskable"),
    ("icon-maskable-512.png", 512, "maskable"),
]

_CONFIG_LINE = re.compile(r"^var CONFIG = .*;$", re.MULTILINE)


def _static(filename: str) -> str:
    return url_for("static", filename=filename)


@bp.get("/manifest.webmanifest")
def manifest() -> ResponseReturnValue:
    """The web app manifest (installing Referee on a phone's home screen). In pt-BR, the
    language of the club; the manifest is fetched without cookies, so it cannot follow the
    language a phone chose."""
    with force_locale("pt_BR"):
        description = _("Referee keeps the score of card games played with real cards.")
    icons: list[dict[str, Any]] = [
        {"src": _static("favicon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"}
    ]
    icons += [
        {"src": _static(f"icons/{name}"), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
        for name, size, purpose in ICONS
    ]
    document = {
        "id": "/",
        "name": "Referee",
        "short_name": "Referee",
        "description": description,
        "lang": "pt-BR",
        "dir": "ltr",
        "start_url": url_for("home.index"),
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "categories": ["games", "utilities"],
        "icons": icons,
    }
    body = json.dumps(document, ensure_ascii=False, indent=1)
    return _conditional(body, "application/manifest+json")


def shell() -> list[str]:
    """What the worker stores on install: the offline page, CSS, JavaScript, icons."""
    static = Path(current_app.static_folder or ROOT / "static")
    files = ["css/app.css", "js/swap.js", "js/app.js", "js/pwa.js", "favicon.svg"]
    files += sorted(f"icons/{p.name}" for p in (static / "icons").glob("*.png"))
    return [url_for("pwa.offline")] + [_static(f) for f in files if (static / f).is_file()]


def service_worker_source() -> str:
    """static/sw.js with its CONFIG line filled in."""
    source = (Path(current_app.static_folder or ROOT / "static") / "sw.js").read_text("utf-8")
    urls = shell()
    fingerprint = hashlib.sha256(source.encode())
    fingerprint.update("\n".join(urls).encode())
    # The offline page is precached as rendered: its template and catalogues count too.
    template = Path(current_app.template_folder or ROOT / "templates") / "offline.html"
    fingerprint.update(template.read_bytes())
    for catalogue in sorted(TRANSLATIONS.glob("*/LC_MESSAGES/messages.mo")):
        info = catalogue.stat()
        fingerprint.update(f"{catalogue.parent.parent.name}:{info.st_mtime_ns}:{info.st_size}".encode())
    config = {"version": fingerprint.hexdigest()[:16], "shell": urls, "offline": url_for("pwa.offline")}
    line = "var CONFIG = " + json.dumps(config, separators=(",", ":")) + ";"
    filled, count = _CONFIG_LINE.subn(lambda _match: line, source, count=1)
    if count != 1:
        raise RuntimeError("static/sw.js has no 'var CONFIG = ...;' line to fill in")
    return filled


@bp.get("/sw.js")
def service_worker() -> ResponseReturnValue:
    """The service worker, from the root so that its scope is "/". Served with no-cache: the
    browser checks it on each visit and gets a 304 while nothing changed."""
    return _conditional(service_worker_source(), "application/javascript")


@bp.get("/offline")
def offline() -> ResponseReturnValue:
    """What a page shows when the phone cannot reach the server and has no saved copy of it
    (the worker stores this page on install, in the phone's language)."""
    response = Response(render_template("offline.html"), mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Language"] = str(get_locale() or "pt_BR").replace("_", "-")
    return response


def _conditional(body: str, mimetype: str) -> ResponseReturnValue:
    """Answer body with an ETag and no-cache: the browser revalidates and usually gets a 304."""
    response = Response(body, mimetype=mimetype)
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(hashlib.sha256(body.encode()).hexdigest()[:32])
    return response.make_conditional(request)
