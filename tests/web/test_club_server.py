"""Serving a club for real: behind Caddy (the X-Forwarded-* headers trusted only when the config
says a proxy stands in front), secrets read from files, the page that lets a phone trust the
server's own certificate authority, and the Caddyfile that `make run-https` writes."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import ssl
import subprocess
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from referee import create_app
from referee.phone import guesser
from referee.serve import caddy
from tests.conftest import TEST_DATABASE_URL

ROOT = Path(__file__).resolve().parents[2]

#: A self-signed root made for these tests (openssl, P-256): any certificate will do.
ROOT_PEM = """-----BEGIN CERTIFICATE-----
MIIBjjCCATOgAwIBAgIUPAJaIyzskIcAvSOt+yKqtZUO+tAwCgYIKoZIzj0EAwIw
HDEaMBgGA1UEAwwRUmVmZXJlZSB0ZXN0IHJvb3QwHhcNMjYxMTI3MDA1NTAyWhcN
MzYxMTI0MDA1NTAyWjAcMRowGAYDVQQDDBFSZWZlcmVlIHRlc3Qgcm9vdDBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABJnV9sRkSwhJWasShn6yU0hUP20uOO4+Y2+j
Q+bj/LctNbNG86lab138DRPvA0bGbyuGFXZ3uv39g4KG4Tb6+5CjUzBRMB0GA1Ud
DgQWBBTHFvGI/xpvCoXiYjFLwwN890O/RzAfBgNVHSMEGDAWgBTHFvGI/xpvCoXi
YjFLwwN890O/RzAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kAMEYCIQD6
pUOIh7v55z5srfeYtJv/ZKB/Xp6CCR67mP98WJDugwIhAIG+honZXrGZAYj5m9K5
tXOdRFzDUY1wMTA+L6MhJu52
-----END CERTIFICATE-----
"""


def make(tmp_path: Path, **config: Any) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": TEST_DATABASE_URL,
            "SECRET_KEY": "test",
            "INSTANCE_PATH": str(tmp_path / "instance"),
            **config,
        }
    )


FORWARDED = {"X-Forwarded-For": "192.168.1.77", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "clube.local"}


def seen_through(app: Flask) -> dict[str, str]:
    """What a view takes from a request that came from 127.0.0.1 carrying FORWARDED: the address
    the rate limits count a session-less client by, the scheme, and an absolute link."""

    @app.get("/__probe")
    def probe() -> dict[str, str]:
        from flask import request, url_for

        return {"address": guesser(), "scheme": request.scheme, "link": url_for("home.index", _external=True)}

    answer = app.test_client().get("/__probe", headers=FORWARDED, environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert answer.status_code == 200
    return dict(answer.get_json())


def test_served_directly_the_forwarded_headers_are_ignored(tmp_path: Path) -> None:
    """On the LAN any phone could write them: a guesser would pass for another address."""
    assert seen_through(make(tmp_path)) == {
        "address": "address:127.0.0.1",
        "scheme": "http",
        "link": "http://localhost/",
    }


def test_behind_one_proxy_they_say_who_asked_and_over_what(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_PROXIES", "1")
    monkeypatch.setenv("REFEREE_HTTPS", "1")
    app = make(tmp_path)
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert seen_through(app) == {
        "address": "address:192.168.1.77",
        "scheme": "https",
        "link": "https://clube.local/",
    }


@pytest.mark.parametrize("value", ["two", "-1"])
def test_a_wrong_number_of_proxies_stops_the_start_with_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("REFEREE_PROXIES", value)
    with pytest.raises(SystemExit, match="a number of proxies is expected"):
        make(tmp_path)


def test_secrets_come_from_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A service keeps them in files (systemd credentials): SECRET_KEY_FILE, CLUB_CODE_FILE and
    DATABASE_URL_FILE name them; the values never appear on a command line."""
    (tmp_path / "key").write_text("a-secret-from-a-file\n")
    (tmp_path / "code").write_text("1234-5678-9012\n")
    monkeypatch.setenv("SECRET_KEY_FILE", str(tmp_path / "key"))
    monkeypatch.setenv("CLUB_CODE_FILE", str(tmp_path / "code"))
    database = tmp_path / "from-file.sqlite3"
    (tmp_path / "url").write_text(f"sqlite:///{database}\n")
    monkeypatch.setenv("DATABASE_URL_FILE", str(tmp_path / "url"))
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")})
    assert app.config["SECRET_KEY"] == "a-secret-from-a-file"
    assert app.config["CLUB_CODE"] == "1234-5678-9012"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{database}"
    assert database.is_file()  # the schema went there
    monkeypatch.setenv("SECRET_KEY_FILE", str(tmp_path / "missing"))
    with pytest.raises(SystemExit, match="SECRET_KEY_FILE=.*cannot read it"):
        create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")})


def test_a_server_with_the_ratings_timer_tells_its_pages_not_to_start_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """deploy/referee.service sets RATINGS_SPAWN_CATCH_UP=0: the timer runs the catch-up."""
    from referee import ratings

    assert ratings.spawns(make(tmp_path).config) is True
    monkeypatch.setenv("RATINGS_SPAWN_CATCH_UP", "0")
    assert ratings.spawns(make(tmp_path).config) is False


# --------------------------------------------------------------------------- trusting the server


def test_without_a_local_authority_there_is_nothing_to_trust(tmp_path: Path) -> None:
    client = make(tmp_path).test_client()
    assert client.get("/ca").status_code == 404
    assert client.get("/ca/referee-root.crt").status_code == 404
    assert 'id="trust-h"' not in client.get("/").get_data(as_text=True)


def test_the_page_to_trust_the_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "instance" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    root.parent.mkdir(parents=True)
    root.write_text(ROOT_PEM)
    monkeypatch.setenv("REFEREE_HTTP_PORT", "8080")
    monkeypatch.setenv("REFEREE_HTTPS_PORT", "8443")
    client = make(tmp_path).test_client()
    home = client.get("/", base_url="https://192.168.1.10:8443").get_data(as_text=True)
    assert 'id="trust-h"' in home and 'href="http://192.168.1.10:8080/ca"' in home
    assert "QR code da página para confiar neste servidor" in home
    page = client.get("/ca", base_url="http://192.168.1.10:8080").get_data(as_text=True)
    digest = hashlib.sha256(ssl.PEM_cert_to_DER_cert(ROOT_PEM)).hexdigest().upper()
    assert ":".join(digest[i : i + 2] for i in range(0, 64, 2)) in page
    assert 'href="https://192.168.1.10:8443/"' in page  # step 3: where to go once trusted
    assert "Certificado CA" in page and "Ajustes de Confiança de Certificado" in page
    answer = client.get("/ca/referee-root.crt")
    assert answer.status_code == 200 and answer.mimetype == "application/x-x509-ca-cert"
    assert answer.get_data(as_text=True) == ROOT_PEM


def closed(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``folder`` as the service user sees /etc/referee made mode 0700 by root: nothing in it can
    be looked at or opened. Root passes every permission check, so the refusal is simulated."""

    def refuse(path: Path) -> None:
        if Path(path).is_relative_to(folder) and Path(path) != folder:
            raise PermissionError(13, "Permission denied", str(path))

    stat, open_ = Path.stat, Path.open
    monkeypatch.setattr(Path, "stat", lambda self, **kw: (refuse(self), stat(self, **kw))[1])
    monkeypatch.setattr(Path, "open", lambda self, *a, **kw: (refuse(self), open_(self, *a, **kw))[1])


def test_a_certificate_the_server_cannot_read_is_named_not_a_server_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "etc-referee"
    folder.mkdir()
    (folder / "ca-root.crt").write_text(ROOT_PEM)
    monkeypatch.setenv("REFEREE_CA_CERT", str(folder / "ca-root.crt"))
    client = make(tmp_path).test_client()
    closed(folder, monkeypatch)
    home = client.get("/")
    assert home.status_code == 200 and 'id="trust-h"' not in home.get_data(as_text=True)
    for url in ("/ca", "/ca/referee-root.crt"):
        answer = client.get(url)
        assert answer.status_code == 503
        page = answer.get_data(as_text=True)
        assert f"O servidor não consegue ler o arquivo de certificado {folder / 'ca-root.crt'}" in page


@pytest.mark.parametrize(
    ("content", "sentence"),
    [
        (None, "O arquivo de certificado {} não existe."),
        ("not a certificate", "O arquivo {} não é um certificado PEM."),
    ],
)
def test_a_configured_certificate_that_is_missing_or_wrong_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str | None, sentence: str
) -> None:
    path = tmp_path / "ca-root.crt"
    if content is not None:
        path.write_text(content)
    monkeypatch.setenv("REFEREE_CA_CERT", str(path))
    client = make(tmp_path).test_client()
    assert client.get("/").status_code == 200
    answer = client.get("/ca")
    assert answer.status_code == 503 and sentence.format(path) in answer.get_data(as_text=True)


# --------------------------------------------------------------------------- the Caddyfile


def adapts(text: str, tmp_path: Path) -> None:
    """Caddy itself reads the file (where it is installed: `caddy adapt` only parses it)."""
    if shutil.which("caddy") is None:
        return
    (tmp_path / "Caddyfile").write_text(text)
    run = subprocess.run(
        ["caddy", "adapt", "--config", str(tmp_path / "Caddyfile"), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr


def test_the_lan_caddyfile_serves_the_trust_page_on_http_and_the_rest_on_https(tmp_path: Path) -> None:
    text = caddy.caddyfile(
        upstreams=["127.0.0.1:8000"], https_port=8443, http_port=8080, hosts=["192.168.1.10", "localhost"]
    )
    assert "admin off" in text and "local_certs" in text and "auto_https disable_redirects" in text
    assert "https://192.168.1.10:8443, https://localhost:8443 {\n\ttls internal\n\treverse_proxy 127.0.0.1:8000" in text
    assert "@trust path /ca /ca/* /static/*" in text
    assert "redir https://{http.request.host}:8443{uri}" in text
    adapts(text, tmp_path)


def test_a_domain_gets_caddys_defaults_and_several_servers_are_balanced(tmp_path: Path) -> None:
    text = caddy.caddyfile(
        upstreams=["127.0.0.1:8001", "127.0.0.1:8002"], https_port=443, http_port=80, domain="clube.example.org"
    )
    assert "local_certs" not in text and "http_port" not in text
    assert "clube.example.org {" in text
    assert "reverse_proxy 127.0.0.1:8001 127.0.0.1:8002 {\n\t\tlb_policy round_robin" in text
    adapts(text, tmp_path)


def test_make_runs_caddyfile_reads_each_request_whole_within_deadlines(tmp_path: Path) -> None:
    """Plain http (`make run`): slow clients wait in Caddy, never in gunicorn's threads."""
    text = caddy.caddyfile(upstreams=["unix//tmp/referee-x/gunicorn.sock"], http_port=8000)
    assert "auto_https off" in text and "admin off" in text
    assert "http://:8000 {\n\treverse_proxy unix//tmp/referee-x/gunicorn.sock {\n\t\tbuffer_requests" in text
    assert f"max_buffer_size {caddy.MAX_BUFFER}" in text
    assert f"read_header {caddy.READ_HEADER}" in text and f"read_body {caddy.READ_BODY}" in text
    assert "tls" not in text and "bind" not in text
    adapts(text, tmp_path)
    assert "\tbind 127.0.0.1\n" in caddy.caddyfile(upstreams=["unix//s"], http_port=8000, bind="127.0.0.1")


def adapted(path: Path) -> dict[str, Any]:
    """Caddy's own reading of a Caddyfile, as JSON (`caddy adapt` parses; it binds nothing)."""
    run = subprocess.run(
        ["caddy", "adapt", "--config", str(path), "--adapter", "caddyfile"], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    return dict(json.loads(run.stdout))


def proxies(node: Any) -> list[dict[str, Any]]:
    """Every reverse_proxy handler in an adapted configuration, however deep."""
    if isinstance(node, list):
        return [found for item in node for found in proxies(item)]
    if not isinstance(node, dict):
        return []
    own = [node] if node.get("handler") == "reverse_proxy" else []
    return own + [found for value in node.values() for found in proxies(value)]


@pytest.mark.parametrize("name", ["Caddyfile", "Caddyfile.lan"])
def test_the_services_caddyfiles_read_requests_within_the_launchers_deadlines(name: str, tmp_path: Path) -> None:
    """Debian's caddy service in front of referee.service gets what `make run` and
    `referee-serve` give their own Caddy: the same client deadlines and request buffering."""
    text = (ROOT / "deploy" / name).read_text()
    assert caddy.server_options() in text.replace("    ", "\t")
    assert caddy.log_options() in text.replace("    ", "\t")  # the log keeps no token
    assert text.count("reverse_proxy 127.0.0.1:8000") == text.count(f"max_buffer_size {caddy.MAX_BUFFER}") > 0
    if shutil.which("caddy") is None:
        pytest.skip("Caddy is not installed: the file was read, not adapted")
    # Caddy reads both the same way: launcher's deadlines (nanoseconds) on every server, and
    # every proxy buffering each request's body.
    launcher = tmp_path / "launcher"
    launcher.write_text(caddy.caddyfile(upstreams=["127.0.0.1:8000"], http_port=8000))
    wanted = adapted(launcher)["apps"]["http"]["servers"]["srv0"]
    servers = adapted(ROOT / "deploy" / name)["apps"]["http"]["servers"]
    for server in servers.values():
        for key in ("read_header_timeout", "read_timeout", "idle_timeout"):
            assert server[key] == wanted[key], (key, server)
    (want,) = proxies(wanted)
    found = proxies(servers)
    assert found and all(p["buffer_requests"] == want["buffer_requests"] is True for p in found)
    assert all(p["max_buffer_size"] == want["max_buffer_size"] for p in found)
    # And Caddy accepts it whole (its modules set up; nothing is bound), its files kept here.
    folders = {"XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    command = ["caddy", "validate", "--adapter", "caddyfile", "--config", str(ROOT / "deploy" / name)]
    run = subprocess.run(command, capture_output=True, text=True, env={**os.environ, **folders}, timeout=60)
    assert run.returncode == 0, run.stderr
