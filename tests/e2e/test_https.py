"""A club's server over HTTPS on the LAN, as `make run-https` starts it: Caddy with its own
certificate authority in front of gunicorn (`python -m referee.serve --https`), driven here on free ports
with a throwaway instance folder. The phone trusts the authority through the plain-http /ca
page; over HTTPS the session cookie is Secure, the service worker runs, and a table page opened
before opens again with the Wi-Fi down.

The browser trusts the local authority as a phone that installed it does: the root certificate
is added to the certificate store of the browser's own home folder (NSS's ``certutil``, which
Chromium reads on Linux). Accepting any certificate instead would not do: Chromium refuses to
run a service worker from a site whose certificate it does not trust.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.bench import _common
from tests.e2e.conftest import CHROMIUM, LAUNCH_ARGS, PHONE
from tests.e2e.test_pwa import WAIT_ACTIVE, wait_saved

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("caddy") is None, reason="Caddy is not installed (apt-get install caddy)"),
    pytest.mark.skipif(
        shutil.which("certutil") is None, reason="certutil is not installed (apt-get install libnss3-tools)"
    ),
]

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Stack:
    https: str
    http: str
    root_cert: Path
    log: Path


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The serving script on two ports held for its Caddy while it runs (Caddy cannot bind port
    0 and say which it got; a port found free, closed and handed over could be taken between)."""
    with _common.reserved_port() as https, _common.reserved_port() as http:
        yield from _serve(tmp_path_factory.mktemp("https-instance"), https, http)


def _serve(instance: Path, https: int, http: int) -> Iterator[Stack]:
    log = instance / "serve.log"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "referee.serve", "--https", "--instance", str(instance),
             "--https-port", str(https), "--http-port", str(http), "--workers", "1"],
            stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT, start_new_session=True,
        )  # fmt: skip
    root_cert = instance / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    context = None
    deadline = time.monotonic() + 60
    while True:  # polled until it answers over HTTPS, with a deadline far above any start-up
        try:
            if root_cert.is_file():
                context = context or ssl.create_default_context(cafile=str(root_cert))
                urllib.request.urlopen(f"https://localhost:{https}/", context=context, timeout=2).read()
                break
        except (OSError, urllib.error.URLError):
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            stop(process)
            pytest.fail("the HTTPS stack did not start:\n" + log.read_text(errors="replace")[-3000:])
        time.sleep(0.3)
    try:
        yield Stack(f"https://localhost:{https}", f"http://127.0.0.1:{http}", root_cert, log)
    finally:
        stop(process)


def stop(process: subprocess.Popen[bytes]) -> None:
    """The serving script and its Caddy and gunicorn (one process group)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
            process.wait(timeout=15)
            return
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue


def test_a_phone_trusts_the_server_on_the_plain_http_page(stack: Stack) -> None:
    page = urllib.request.urlopen(stack.http + "/ca", timeout=10).read().decode()
    der = ssl.PEM_cert_to_DER_cert(stack.root_cert.read_text())
    digest = hashlib.sha256(der).hexdigest().upper()
    assert ":".join(digest[i : i + 2] for i in range(0, 64, 2)) in page  # the fingerprint printed by make run-https
    assert "Confiar neste servidor" in page
    with urllib.request.urlopen(stack.http + "/ca/referee-root.crt", timeout=10) as answer:
        assert answer.headers["Content-Type"] == "application/x-x509-ca-cert"
        assert answer.read() == stack.root_cert.read_bytes()
    # Every other address on plain http goes to https.
    request = urllib.request.Request(stack.http + "/t/abc")
    opener = urllib.request.build_opener(NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as redirected:
        opener.open(request, timeout=10)
    assert redirected.value.headers["Location"] == stack.https.replace("localhost", "127.0.0.1") + "/t/abc"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def trusted_home(stack: Stack, home: Path) -> dict[str, str]:
    """An environment whose home folder's certificate store trusts the stack's authority."""
    store = home / ".pki" / "nssdb"
    store.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{store}", "-N", "--empty-password"], check=True)
    subprocess.run(
        ["certutil", "-d", f"sql:{store}", "-A", "-t", "C,,", "-n", "referee-club", "-i", str(stack.root_cert)],
        check=True,
    )
    return dict(os.environ, HOME=str(home))


@pytest.fixture
def trusting(browser_type: Any, stack: Stack, tmp_path: Path) -> Iterator[Any]:
    """A browser that trusts the stack's local authority."""
    browser = browser_type.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, env=trusted_home(stack, tmp_path))
    try:
        yield browser
    finally:
        browser.close()


def test_over_https_the_cookie_is_secure_the_worker_runs_and_a_table_opens_offline(
    trusting: Any, stack: Stack, shot: Any
) -> None:
    context = ssl.create_default_context(cafile=str(stack.root_cert))
    body = json.dumps({"game": "jubileu", "players": ["Ana", "Bia", "Caio", "Dani"], "name": "Mesa do clube"})
    request = urllib.request.Request(
        stack.https + "/api/v1/tables", data=body.encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, context=context, timeout=10) as answer:
        table = json.load(answer)
    phone = trusting.new_context(**PHONE)
    try:
        page = phone.new_page()
        page.goto(stack.https + "/")
        assert page.evaluate(bounded_wait()) == stack.https + "/"  # the service worker runs
        cookies = {c["name"]: c for c in phone.cookies()}
        assert cookies["session"]["secure"] is True
        home = page.locator("#trust-h")
        assert home.inner_text() == "Este servidor em HTTPS"  # the home page links the /ca page
        table_url = f"{stack.https}/w/{table['id']}"
        page.goto(table_url)
        heading = page.get_by_role("heading", level=1).inner_text()
        wait_saved(page, table_url)
        phone.set_offline(True)
        answer = page.goto(table_url)
        assert answer is not None and answer.ok and answer.from_service_worker
        assert page.get_by_role("heading", level=1).inner_text() == heading
        shot(page, "https-offline-table")
    finally:
        phone.close()


def test_over_https_chromium_finds_the_app_installable(browser_type: Any, stack: Stack, tmp_path: Path) -> None:
    """Chromium's own checks (Page.getInstallabilityErrors), which need a real profile."""
    context = browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=LAUNCH_ARGS,
        env=trusted_home(stack, tmp_path / "home"),
        **PHONE,
    )
    try:
        page = context.new_page()
        page.goto(stack.https + "/")
        assert page.evaluate(bounded_wait()) == stack.https + "/"
        page.reload()
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getAppManifest")["url"] == stack.https + "/manifest.webmanifest"
        errors = [e["errorId"] for e in cdp.send("Page.getInstallabilityErrors").get("installabilityErrors", [])]
        assert errors == [], errors
    finally:
        context.close()


def bounded_wait() -> str:
    """WAIT_ACTIVE, failing after 20 s: a worker that never starts fails the test, not hangs it."""
    return f"() => Promise.race([({WAIT_ACTIVE})(), new Promise((_, no) => setTimeout(() => no('no worker'), 20000))])"
