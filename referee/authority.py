"""The server's own certificate authority, when a club serves over HTTPS on its LAN: where
Caddy keeps its root certificate, reading it (with a sentence when it cannot be read) and its
fingerprint. The trust page (referee.views.trust) shows them to the phones; the launcher
(referee.serve) prints the fingerprint on the organiser's screen. Neither needs the other.
"""

from __future__ import annotations

import hashlib
import ssl
from pathlib import Path

from flask import current_app
from flask_babel import gettext as _

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
