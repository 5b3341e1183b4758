"""Browser tests: Playwright driving Debian's /usr/bin/chromium against a live server.

Never run `playwright install`; the browser is the system one. Run only these with
`.venv/bin/pytest -m e2e`; screenshots land in tests/e2e/screenshots/ (gitignored).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from referee import create_app

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).parent / "screenshots"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21aa", "best-practice"]
#: Chromium's switches and the phone every browser test (and tests/bench's tap bench) uses.
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
    "locale": "pt-BR",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not Path(CHROMIUM).exists():
        skip = pytest.mark.skip(reason=f"{CHROMIUM} missing (apt-get install chromium)")
        for item in items:
            if "e2e" in item.keywords:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": LAUNCH_ARGS,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_context_args,
        **PHONE,
    }


@pytest.fixture(scope="session")
def live_app(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A real app (file SQLite, CSRF on: real forms) shared by the session's browser tests."""
    folder = tmp_path_factory.mktemp("live")
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'live.sqlite3'}",
            "SECRET_KEY": "e2e",
            "INSTANCE_PATH": str(folder),
            "WTF_CSRF_ENABLED": True,
        }
    )
    app.add_url_rule("/_test/macros", "test_macros", _macros_page, methods=["GET", "POST"])
    return app


MACROS_PAGE = """{% extends "base.html" %}
{% from "_macros.html" import button, stepper, suit_picker, field_error %}
{% block content %}
<h1>Macros</h1>
<form method="post" class="card">
  <input type="hidden" name="csrf_token" value="{{ csrf_token() }}">
  {{ stepper("tricks", "Vazas da Ana", value=3, min=0, max=13, help="De 0 a 13.") }}
  {{ stepper("figures", "Figuras", value=0, min=0, max=35, error="Faltam 2 figuras.") }}
  {{ suit_picker("trump", "Trunfo", selected="ouros") }}
  {{ field_error("As vazas somam 12, mas devem somar 13.") }}
  {{ button("Confirmar") }}
</form>
{% if posted %}<p class="card" id="posted">{{ posted }}</p>{% endif %}
{% endblock %}"""


def _macros_page() -> str:
    """The shared macros on one page, for the browser tests (not part of the app)."""
    from flask import render_template_string, request

    posted = ", ".join(f"{k}={v}" for k, v in request.form.items() if k != "csrf_token")
    return render_template_string(MACROS_PAGE, posted=posted)


@pytest.fixture(scope="session")
def live_server(live_app) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """Serve live_app on 127.0.0.1:<free port> in a thread; yields the base URL."""
    server = make_server("127.0.0.1", 0, live_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


def _axe_source() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text("utf-8")


@pytest.fixture(scope="session")
def axe_source() -> str:
    return _axe_source()


@pytest.fixture
def axe_check(axe_source: str) -> Callable[..., None]:
    """axe_check(page) runs axe-core (WCAG 2.1 A/AA + best practices); fails on any violation."""

    def check(page: Any, context: str | None = None) -> None:
        page.evaluate(axe_source)  # Playwright's evaluate is not subject to the page's CSP
        results = page.evaluate(
            "([context, tags]) => axe.run(context || document,"
            " {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})",
            [context, AXE_TAGS],
        )
        violations = results["violations"]
        if violations:
            lines = [f"axe found {len(violations)} violation(s) on {page.url}:"]
            for v in violations:
                lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
                for node in v["nodes"][:5]:
                    lines.append(f"    {', '.join(map(str, node['target']))}")
                    summary = (node.get("failureSummary") or "").replace("\n", " ")
                    if summary:
                        lines.append(f"      {summary[:200]}")
            pytest.fail("\n".join(lines), pytrace=False)

    return check


@pytest.fixture
def shot() -> Callable[..., Path]:
    """shot(page, name) saves a full-page screenshot to tests/e2e/screenshots/<name>.png."""

    def take(page: Any, name: str) -> Path:
        SCREENSHOTS.mkdir(exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def console_errors(page: Any) -> list[str]:
    """Console errors and page errors (CSP violations show up here) seen by `page`."""
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors
