"""The installable app in Chromium: the service worker registers and takes control, pages open
from the phone when the network is gone (a saved copy, else the offline page), writes and the API
are never answered by the worker, and Chromium finds nothing missing to install the app."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from werkzeug.serving import make_server

from referee import create_app

pytestmark = pytest.mark.e2e

WAIT_ACTIVE = """async () => {
  const registration = await navigator.serviceWorker.ready;
  const worker = registration.active;
  if (worker.state !== "activated") {
    await new Promise((resolve) => worker.addEventListener("statechange", () => {
      if (worker.state === "activated") resolve();
    }));
  }
  return registration.scope;
}"""

CACHED_URLS = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    out[name] = (await (await caches.open(name)).keys()).map((r) => r.method + " " + r.url);
  }
  return out;
}"""


def activate(page: Any, url: str) -> str:
    """Open url and wait until the service worker is active; answers its scope."""
    page.goto(url)
    return page.evaluate(WAIT_ACTIVE)


SAVED_TEXT = """async (url) => {
  for (const name of await caches.keys()) {
    if (!name.startsWith("referee-pages-")) continue;
    const saved = await (await caches.open(name)).match(url, { ignoreVary: true });
    if (saved) return await saved.text();
  }
  return null;
}"""


def wait_saved(page: Any, url: str, timeout: float = 5.0, containing: str = "") -> None:
    """Wait until the worker has saved a copy of url (it saves after answering), one whose
    text contains ``containing`` when given: polled, the deadline only a bound on a hang."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        saved = page.evaluate(SAVED_TEXT, url)
        if saved is not None and containing in saved:
            return
        time.sleep(0.1)
    pytest.fail(f"{url} was not saved (with {containing!r}): {page.evaluate(CACHED_URLS)}")


def new_table(base: str) -> dict:
    body = json.dumps({"game": "jubileu", "players": ["Ana", "Bia", "Caio", "Dani"], "name": "Mesa offline"})
    request = urllib.request.Request(
        base + "/api/v1/tables", data=body.encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def test_the_service_worker_registers_and_controls_the_page(page, live_server, console_errors) -> None:
    assert activate(page, live_server + "/") == live_server + "/"
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == live_server + "/sw.js"
    caches = page.evaluate(CACHED_URLS)
    shells = [name for name in caches if name.startswith("referee-shell-")]
    assert len(shells) == 1, caches
    shell = caches[shells[0]]
    assert f"GET {live_server}/offline" in shell
    for asset in (
        "/static/css/app.css?v=",
        "/static/js/app.js?v=",
        "/static/js/pwa.js?v=",
        "/static/js/swap.js?v=",
        "/static/icons/icon-192.png?v=",
    ):
        assert any(asset in url for url in shell), asset
    # The page's own CSS and JavaScript now come from the worker's cache.
    sources = page.evaluate(
        "performance.getEntriesByType('resource').filter(e => e.name.includes('/static/'))"
        ".map(e => [e.name, e.deliveryType || '', e.workerStart > 0])"
    )
    assert sources and all(worker for _, _, worker in sources), sources
    assert console_errors == [], console_errors


def test_offline_a_saved_page_opens_and_an_unknown_one_shows_the_offline_page(
    page, context, live_server, axe_check, shot, console_errors
) -> None:
    table = new_table(live_server)
    table_url = f"{live_server}/w/{table['id']}"
    activate(page, live_server + "/")
    page.goto(table_url)  # through the worker now: it keeps a copy
    heading = page.get_by_role("heading", level=1).inner_text()
    wait_saved(page, table_url)
    page.evaluate("fetch('/api/v1/tables/' + {}).then(r => r.json())".format(json.dumps(table["id"])))

    context.set_offline(True)
    try:
        response = page.goto(table_url)
        assert response is not None and response.ok and response.from_service_worker
        assert page.get_by_role("heading", level=1).inner_text() == heading
        notice = page.locator("#saved-copy")
        assert notice.is_visible()
        assert notice.inner_text().startswith(
            "A rede está lenta ou fora do ar: esta é a cópia guardada neste celular ("
        )
        assert notice.get_by_role("link", name="Recarregar").get_attribute("href") == table_url
        shot(page, "offline-saved-copy")

        response = page.goto(live_server + "/games/jubileu")  # never opened on this phone
        assert response is not None and response.from_service_worker
        assert page.url == live_server + "/games/jubileu"
        assert page.get_by_role("heading", level=1).inner_text() == "Este celular está sem conexão"
        assert page.get_by_text("Uma mão que você está registrando fica guardada neste celular").is_visible()
        # Styled: the CSS came from the worker's cache.
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(244, 246, 245)"
        assert page.get_by_role("link", name="Tentar de novo").get_attribute("href") == ""
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, "offline-pt")
        axe_check(page)

        # Writes and the API are the network's: offline they fail, the worker never answers them.
        outcome = page.evaluate(
            """async (id) => {
              const tries = {
                post: () => fetch("/api/v1/tables", {method: "POST", headers: {"Content-Type": "application/json"},
                                                     body: JSON.stringify({game: "jubileu", players: ["A", "B", "C", "D"]})}),
                api: () => fetch("/api/v1/tables/" + id),
              };
              const out = {};
              for (const [name, run] of Object.entries(tries)) {
                try { const r = await run(); out[name] = "answered " + r.status; }
                catch (e) { out[name] = "network error"; }
              }
              return out;
            }""",
            table["id"],
        )
        assert outcome == {"post": "network error", "api": "network error"}

        # Back online, the offline page tries again by itself.
        with page.expect_navigation():
            context.set_offline(False)
        assert page.get_by_role("heading", level=1).inner_text() != "Este celular está sem conexão"
    finally:
        context.set_offline(False)

    cached = page.evaluate(CACHED_URLS)
    assert not any("/api/" in url or not url.startswith("GET ") for urls in cached.values() for url in urls), cached
    page.goto(table_url)
    assert page.locator("#saved-copy").count() == 0
    errors = [e for e in console_errors if "ERR_INTERNET_DISCONNECTED" not in e and "Failed to fetch" not in e]
    assert errors == [], errors


def test_the_offline_page_follows_the_chosen_language(page, context, live_server) -> None:
    activate(page, live_server + "/")
    page.get_by_role("link", name="EN").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "en"
    # The page told the worker its language; the stored offline page is fetched again in English.
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        language = page.evaluate(
            """async () => {
              for (const name of await caches.keys()) {
                if (!name.startsWith("referee-shell-")) continue;
                const offline = await (await caches.open(name)).match("/offline");
                if (offline) return offline.headers.get("Content-Language");
              }
            }"""
        )
        if language == "en":
            break
        time.sleep(0.1)
    assert language == "en"
    context.set_offline(True)
    try:
        page.goto(live_server + "/games/samba")
        assert page.get_by_role("heading", level=1).inner_text() == "This phone is offline"
    finally:
        context.set_offline(False)


def test_chromium_finds_referee_installable(
    browser_type, browser_type_launch_args, browser_context_args, live_server, tmp_path
) -> None:
    """Chromium's own checks (Page.getInstallabilityErrors). They need a real profile: in the
    usual throwaway context Chromium answers only "in-incognito"."""
    context = browser_type.launch_persistent_context(
        str(tmp_path / "profile"), **browser_type_launch_args, **browser_context_args
    )
    try:
        page = context.new_page()
        activate(page, live_server + "/")
        page.reload()
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == live_server + "/manifest.webmanifest"
        assert manifest.get("errors", []) == []
        try:
            answer = cdp.send("Page.getInstallabilityErrors")
        except Exception as exc:  # a Chromium without this command
            pytest.skip(f"Page.getInstallabilityErrors unavailable: {exc}")
        errors = [e["errorId"] for e in answer.get("installabilityErrors", [])]
        assert errors == [], errors
    finally:
        context.close()


# -- A slow network: the saved copy after a few seconds, the fresh page once it arrives ----------

SLOW_PAGE = """{% extends "base.html" %}
{% block content %}<h1>Versão {{ n }}</h1>{% endblock %}"""


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict]]:
    """An app of its own with a page whose answer can be delayed (state["delay"] seconds)."""
    from flask import render_template_string

    folder = tmp_path_factory.mktemp("slow")
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'slow.sqlite3'}",
            "SECRET_KEY": "e2e",
            "INSTANCE_PATH": str(folder),
        }
    )
    state = {"delay": 0.0, "n": 0}

    def slow() -> str:
        state["n"] += 1
        n = state["n"]
        time.sleep(state["delay"])
        return render_template_string(SLOW_PAGE, n=n)

    app.add_url_rule("/_test/slow", "slow", slow)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", state
    finally:
        server.shutdown()
        thread.join(timeout=5)


def test_a_slow_network_shows_the_saved_copy_marked_as_such(page, context, slow_server) -> None:
    base, state = slow_server
    activate(page, base + "/")
    page.goto(base + "/_test/slow")
    assert page.get_by_role("heading", level=1).inner_text() == "Versão 1"
    wait_saved(page, base + "/_test/slow")

    state["delay"] = 7.0
    started = time.monotonic()
    page.goto(base + "/_test/slow")
    waited = time.monotonic() - started
    # It tried the network first (about 4 s), and the saved copy (version 1, below) proves it did
    # not wait for the 7 s answer; no upper bound on the clock, which a loaded machine would break.
    assert waited > 3, waited
    assert page.get_by_role("heading", level=1).inner_text() == "Versão 1"
    assert page.locator("#saved-copy").inner_text().startswith("A rede está lenta ou fora do ar")

    # The late answer (version 2) still replaced the saved copy: offline, it is what opens.
    wait_saved(page, base + "/_test/slow", timeout=30, containing="Versão 2")
    state["delay"] = 0.0
    context.set_offline(True)
    try:
        page.goto(base + "/_test/slow")
        assert page.get_by_role("heading", level=1).inner_text() == "Versão 2"
        assert page.locator("#saved-copy").is_visible()
    finally:
        context.set_offline(False)
    page.goto(base + "/_test/slow")
    assert page.get_by_role("heading", level=1).inner_text() == "Versão 3"
    assert page.locator("#saved-copy").count() == 0
