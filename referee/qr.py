"""QR codes as inline SVG, drawn by the server (qrcode's path factory: no Pillow, no image
request, nothing for the CSP to allow). Dark modules on a light box, whatever the page theme,
so every camera reads them."""

from __future__ import annotations

import re

import qrcode
import qrcode.image.svg
from markupsafe import Markup


def svg(data: str, *, label: str) -> Markup:
    """``data`` (a URL) as an accessible inline SVG of class ``qr``, named by ``label``."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    markup = image.to_string(encoding="unicode")
    markup = re.sub(r'^<svg width="[^"]*" height="[^"]*"', "<svg", markup, count=1)
    markup = markup.replace(' id="qr-path"', "")  # two codes on a page must not share an id
    title = Markup.escape(label)
    markup = markup.replace("<svg ", f'<svg class="qr" role="img" aria-label="{title}" ', 1)
    return Markup(markup)  # noqa: S704 - qrcode's own output, attributes escaped above
