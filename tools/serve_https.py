"""Serve Referee over HTTPS on the LAN, or on a domain: Caddy in front of gunicorn.

`make run-https` (or `python tools/serve_https.py --help`). Without a domain, Caddy signs the
server's certificate with a local authority of its own (its files in instance/caddy/); each
phone trusts it once through the /ca page, whose address and fingerprint are printed here. With
`--domain`, Caddy obtains a public certificate by itself (ports 80 and 443 must reach this
machine from the internet). Gunicorn then listens on 127.0.0.1 only, so every phone goes
through Caddy, and the app trusts Caddy's X-Forwarded-* headers (REFEREE_PROXIES=1). Ctrl-C
stops both.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from lan_urls import lan_addresses, show_code  # noqa: E402 (the tools folder is not a package)

from referee.views.trust import CADDY_ROOT as ROOT_CERT  # noqa: E402
from referee.views.trust import fingerprint  # noqa: E402


def caddyfile(
    *, upstreams: Sequence[str], https_port: int, http_port: int, hosts: Sequence[str] = (), domain: str = ""
) -> str:
    """Caddy's configuration. On the LAN: a site for each address the phones may use, with a
    certificate from Caddy's own authority, and on plain http only the page that installs that
    authority (everything else is redirected to https). On a domain: Caddy's defaults (a public
    certificate, http redirected). Caddy's admin endpoint is off: nothing on this machine can
    reconfigure it behind the organiser's back."""
    proxy = "reverse_proxy " + " ".join(upstreams)
    if len(upstreams) > 1:
        proxy += " {\n\t\tlb_policy round_robin\n\t\tfail_duration 10s\n\t}"
    if domain:
        ports = "" if (https_port, http_port) == (443, 80) else f"\n\thttp_port {http_port}\n\thttps_port {https_port}"
        return f"{{\n\tadmin off{ports}\n}}\n\n{domain} {{\n\tencode gzip\n\t{proxy}\n}}\n"
    sites = ", ".join(f"https://{host}:{https_port}" for host in hosts)
    return (
        "{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n\tauto_https disable_redirects\n"
        f"\thttp_port {http_port}\n\thttps_port {https_port}\n}}\n\n"
        f"{sites} {{\n\ttls internal\n\t{proxy}\n}}\n\n"
        f"http://:{http_port} {{\n"
        "\t@trust path /ca /ca/* /static/*\n"
        f"\thandle @trust {{\n\t\t{proxy}\n\t}}\n"
        f"\thandle {{\n\t\tredir https://{{http.request.host}}:{https_port}{{uri}}\n\t}}\n}}\n"
    )


def caddy_binary() -> str:
    found = shutil.which("caddy")
    if found:
        return found
    if os.geteuid() == 0:
        print("Installing Caddy (Debian's package)...", flush=True)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "install", "-y", "-qq", "caddy"], check=True, env=env)
        return shutil.which("caddy") or "caddy"
    raise SystemExit("Caddy is not installed: run `sudo apt-get install caddy`, then `make run-https` again.")


def wait_for(path: Path, process: subprocess.Popen[bytes], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not path.is_file():
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("Caddy did not start: see its messages above.")
        time.sleep(0.1)


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", default="", help="a domain name pointing at this machine (a public certificate)")
    parser.add_argument("--port", type=int, default=8000, help="gunicorn's port on 127.0.0.1 (default 8000)")
    parser.add_argument("--https-port", type=int, help="default 8443 on the LAN, 443 with a domain")
    parser.add_argument("--http-port", type=int, help="default 8080 on the LAN, 80 with a domain")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--instance", type=Path, default=ROOT / "instance")
    args = parser.parse_args(argv)
    args.https_port = args.https_port or (443 if args.domain else 8443)
    args.http_port = args.http_port or (80 if args.domain else 8080)
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse(argv)
    instance: Path = args.instance.resolve()
    instance.mkdir(parents=True, exist_ok=True)
    hosts = [*lan_addresses(), "localhost", "127.0.0.1"]
    config = instance / "Caddyfile"
    config.write_text(
        caddyfile(
            upstreams=[f"127.0.0.1:{args.port}"],
            https_port=args.https_port,
            http_port=args.http_port,
            hosts=hosts,
            domain=args.domain,
        ),
        encoding="utf-8",
    )
    env = dict(os.environ, XDG_DATA_HOME=str(instance), XDG_CONFIG_HOME=str(instance / "caddy-config"))
    env.update(
        REFEREE_HTTPS="1",
        REFEREE_PROXIES="1",
        REFEREE_HTTP_PORT=str(args.http_port),
        REFEREE_HTTPS_PORT=str(args.https_port),
        REFEREE_CA_CERT=str(instance / ROOT_CERT),
    )
    subprocess.run([sys.executable, "-c", "from referee import create_app; create_app()"], check=True, env=env)
    caddy = subprocess.Popen([caddy_binary(), "run", "--config", str(config), "--adapter", "caddyfile"], env=env)
    gunicorn = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("gunicorn")),
            "--config",
            "python:referee.gunicorn_conf",
            "--bind",
            f"127.0.0.1:{args.port}",
            "--workers",
            str(args.workers),
            "--access-logfile",
            "-",
            "referee:create_app()",
        ],
        env=env,
    )
    try:
        if not args.domain:
            wait_for(instance / ROOT_CERT, caddy)
        announce(args, hosts, instance)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        while caddy.poll() is None and gunicorn.poll() is None:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        for process in (gunicorn, caddy):
            if process.poll() is None:
                process.terminate()
        for process in (gunicorn, caddy):
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def announce(args: argparse.Namespace, hosts: Sequence[str], instance: Path) -> None:
    print()
    if args.domain:
        suffix = "" if args.https_port == 443 else f":{args.https_port}"
        print(f"  Referee over HTTPS: https://{args.domain}{suffix}/")
        print()
        sys.stdout.flush()
        return
    lan = [h for h in hosts if h not in ("localhost", "127.0.0.1")] or ["127.0.0.1"]
    print("  Referee over HTTPS. Open on the phones (same Wi-Fi):")
    for host in lan:
        print(f"    https://{host}:{args.https_port}/")
    print("  Each phone first trusts this server once, on this page (plain http):")
    print(f"    http://{lan[0]}:{args.http_port}/ca")
    show_code(f"http://{lan[0]}:{args.http_port}/ca", "Or point a phone's camera at this code")
    pem = (instance / ROOT_CERT).read_text(encoding="ascii")
    print(f"  The certificate's fingerprint (SHA-256), as the page shows it:\n    {fingerprint(pem)}")
    print()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
