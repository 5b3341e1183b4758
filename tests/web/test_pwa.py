"""The installable app through the test client: the manifest and its icons, the service worker's
script and headers, the offline page in both languages."""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import struct
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (the first, right after the signature)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def css_variable(name: str) -> str:
    """A colour from the light scheme (the first :root block) of static/css/app.css."""
    css = (STATIC / "css" / "app.css").read_text("utf-8")
    root = css[css.index(":root {") :]
    root = root[: root.index("}")]
    match = re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{3,8}})\s*;", root)
    assert match, name
    return match.group(1).lower()


def service_worker_config(source: str) -> dict:
    match = re.search(r"^var CONFIG = (\{.*\});$", source, re.MULTILINE)
    assert match, "CONFIG line missing"
    return json.loads(match.group(1))


# -- The manifest --------------------------------------------------------------------------------


def test_the_manifest_makes_referee_installable(client: FlaskClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    assert response.headers["Cache-Control"] == "no-cache"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["name"] == "Referee"
    assert manifest["short_name"] and len(manifest["short_name"]) <= 12
    assert manifest["start_url"] == "/"
    assert manifest["scope"] == "/"
    assert manifest["id"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["lang"] == "pt-BR"
    assert manifest["description"].startswith("O Referee marca o placar")
    assert manifest["theme_color"] == css_variable("primary")
    assert manifest["background_color"] == css_variable("bg")


def test_the_manifest_icons_exist_with_the_sizes_they_claim(client: FlaskClient) -> None:
    icons = json.loads(client.get("/manifest.webmanifest").get_data(as_text=True))["icons"]
    seen = set()
    for icon in icons:
        assert icon["src"].startswith("/static/") and "?v=" in icon["src"], icon
        response = client.get(icon["src"])
        assert response.status_code == 200, icon
        assert response.mimetype == icon["type"], icon
        if icon["type"] == "image/png":
            width, height = png_size(response.data)
            assert icon["sizes"] == f"{width}x{height}", icon
            seen.add((width, icon["purpose"]))
        else:
            assert icon["type"] == "image/svg+xml" and icon["sizes"] == "any"
            assert response.data.lstrip().startswith(b"<svg")
            seen.add(("svg", icon["purpose"]))
    assert {(192, "any"), (512, "any"), ("svg", "any")} <= seen
    assert any(purpose == "maskable" and size in (192, 512) for size, purpose in seen)


@pytest.mark.parametrize("path", sorted(p.name for p in (STATIC / "icons").glob("*.png")))
def test_every_icon_file_is_a_square_png_of_the_size_in_its_name(path: str) -> None:
    width, height = png_size((STATIC / "icons" / path).read_bytes())
    assert width == height
    assert path.endswith(f"-{width}.png")


def test_a_maskable_icon_is_opaque_to_its_corners() -> None:
    """A maskable icon is cut to any shape: it must fill the square (PNG colour type 2, RGB)."""
    data = (STATIC / "icons" / "icon-maskable-512.png").read_bytes()
    assert data[25] == 2  # IHDR colour type: truecolour without alpha


def test_every_page_links_the_manifest_icons_and_pwa_script(client: FlaskClient) -> None:
    for path in ("/", "/offline", "/no/such/page"):
        html = client.get(path).get_data(as_text=True)
        head = html[: html.index("</head>")]
        assert '<link rel="manifest" href="/manifest.webmanifest">' in head
        assert re.search(r'<link rel="apple-touch-icon" href="/static/icons/apple-touch-icon-180\.png\?v=\d+">', head)
        assert '<meta name="theme-color" content="#0b5d3b">' in head
        assert '<meta name="mobile-web-app-capable" content="yes">' in head
        assert '<meta name="apple-mobile-web-app-title" content="Referee">' in head
        tag = re.search(r'<script src="/static/js/pwa\.js\?v=\d+"[^>]*>', head)
        assert tag, head
        assert " defer" in tag.group(0) and 'data-sw="/sw.js"' in tag.group(0)
        assert "{time}" in tag.group(0)  # the saved-copy sentence, for pwa.js
    apple = client.get(re.search(r'apple-touch-icon" href="([^"]+)"', head).group(1))
    assert png_size(apple.data) == (180, 180)


# -- The service worker --------------------------------------------------------------------------


def test_the_service_worker_is_javascript_from_the_root_and_never_cached_stale(client: FlaskClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "application/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert "Service-Worker-Allowed" not in response.headers  # at the root, its scope is "/" anyway
    etag = response.headers["ETag"]
    again = client.get("/sw.js", headers={"If-None-Match": etag})
    assert again.status_code == 304
    zipped = client.get("/sw.js", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert zipped.mimetype == "application/javascript"
    assert gzip.decompress(zipped.data) == response.data


def test_the_service_worker_precaches_the_shell_of_the_pages(client: FlaskClient) -> None:
    config = service_worker_config(client.get("/sw.js").get_data(as_text=True))
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])
    assert config["offline"] == "/offline"
    shell = config["shell"]
    assert shell[0] == "/offline"
    page = client.get("/").get_data(as_text=True)
    for url in re.findall(r'(?:href|src)="(/static/(?:css|js)/[^"]+)"', page):
        assert url in shell, url  # the very URLs a page asks for, version included
    names = {url.split("?")[0] for url in shell}
    assert {
        "/static/css/app.css",
        "/static/js/app.js",
        "/static/js/pwa.js",
        "/static/favicon.svg",
        "/static/js/swap.js",
        "/static/icons/icon-192.png",
    } <= names
    for url in shell:
        assert client.get(url).status_code == 200, url
        if url.startswith("/static/"):
            assert re.search(r"\?v=\d+$", url), url


def test_the_service_worker_leaves_writes_and_the_api_alone(client: FlaskClient) -> None:
    """The worker only ever answers GETs; POSTs and /api/ go to the network untouched (the page's
    own script queues hands with idempotency keys). A static check on its source."""
    source = client.get("/sw.js").get_data(as_text=True)
    fetch = source[source.index('addEventListener("fetch"') :]
    fetch = fetch[: fetch.index("\n});")]
    guards = fetch[: fetch.index("respondWith")]
    assert 'if (request.method !== "GET") return;' in guards
    assert "CLUB_API.test(url.pathname)" in guards
    # The API at the root and in a club's address (/k/<slug>/api/, referee/clubs.py), nothing else.
    literal = re.search(r"var CLUB_API = /(.+)/;", source)
    assert literal
    club_api = re.compile(literal[1].replace("\\/", "/"))
    assert club_api.match("/api/v1/tables") and club_api.match("/k/clube/api/v1/tables")
    assert not club_api.match("/t/api/x") and not club_api.match("/k/a/b/api/")
    assert "url.origin !== self.location.origin" in guards
    assert "cache.put" not in fetch


def test_the_version_follows_the_shell(app: Flask, tmp_path: Path) -> None:
    """A changed static file changes the worker's version, so phones fetch the new shell."""
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    app.static_folder = str(static)
    client = app.test_client()
    first = service_worker_config(client.get("/sw.js").get_data(as_text=True))["version"]
    assert service_worker_config(client.get("/sw.js").get_data(as_text=True))["version"] == first
    css = static / "css" / "app.css"
    os.utime(css, (css.stat().st_atime, css.stat().st_mtime + 60))
    assert service_worker_config(client.get("/sw.js").get_data(as_text=True))["version"] != first


# -- The offline page ----------------------------------------------------------------------------


def test_the_offline_page_in_portuguese(client: FlaskClient) -> None:
    response = client.get("/offline")
    assert response.status_code == 200
    assert response.headers["Content-Language"] == "pt-BR"
    assert response.headers["Cache-Control"] == "no-cache"
    html = response.get_data(as_text=True)
    assert '<html lang="pt-BR">' in html
    assert "Este celular está sem conexão" in html
    assert "Uma mão que você está registrando fica guardada neste celular e é enviada quando a conexão voltar." in html
    assert '<a class="btn btn-big btn-primary" href="">Tentar de novo</a>' in html
    assert "data-offline-page" in html


def test_the_offline_page_in_english(client: FlaskClient) -> None:
    client.get("/lang/en")
    response = client.get("/offline")
    assert response.headers["Content-Language"] == "en"
    html = response.get_data(as_text=True)
    assert '<html lang="en">' in html
    assert "This phone is offline" in html
    assert "A hand you are entering is kept on this phone and sent when the connection returns." in html
    assert 'href="">Try again</a>' in html
    assert "The network is slow or down: this is the copy saved on this phone ({time})." in html
