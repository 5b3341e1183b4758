"""Serve Referee with Caddy in front of gunicorn: `make run` (plain http on the LAN) and
`make run-https` (HTTPS on the LAN, or on a domain). `python tools/serve.py --help`.

Why a proxy even on plain http: gunicorn's threaded workers give each connection a thread of
their few (WORKERS x 4) while its request is read, with no deadline once its first byte is in.
A handful of phones on a bad Wi-Fi (or one script) sending a byte and then nothing held every
thread, and the scorers' saves waited until the server gave up on nobody. gunicorn's own
documentation says its threaded and sync workers belong behind a buffering proxy. Caddy runs a
cheap goroutine per connection, reads each request whole within deadlines (READ_HEADER for the
headers, READ_BODY for the whole request) and buffers the body before it passes the request on,
so a gunicorn thread only ever serves a request that has fully arrived.

gunicorn listens on a Unix socket in a private folder (mode 0700) rather than on a port:
nothing but Caddy can reach it, so the X-Forwarded-For that Caddy writes (it replaces whatever
a phone wrote itself) is the only one the app ever trusts (REFEREE_PROXIES=1, referee/proxy.py),
and the rate limits count each phone by its own address.

On HTTPS without a domain, Caddy signs the server's certificate with a local authority of its
own (its files in instance/caddy/); each phone trusts it once through the /ca page, whose
address and fingerprint are printed here. With `--domain`, Caddy obtains a public certificate
by itself (ports 80 and 443 must reach this machine from the internet).

Without Caddy (not installed, and not root to install it), plain http is served by gunicorn
alone, with a warning: slow clients can then stall it. Ctrl-C stops everything.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from lan_urls import announce_lan, lan_addresses, prepare_app, show_code  # noqa: E402 (tools is not a package)

#: Caddy's deadlines for a client: its headers, then the whole request (body included). A
#: phone sends a request in a packet or two; only a stalled or hostile client takes longer.
READ_HEADER, READ_BODY, IDLE = "10s", "30s", "2m"
#: Request bodies up to this size are read whole by Caddy before gunicorn sees the request (the
#: app refuses anything above 64 KiB anyway: a hand is about 1 KB).
MAX_BUFFER = "1MiB"
#: gunicorn's access log, with the client's address as Caddy saw it (gunicorn's own would be
#: the socket's, empty).
PROXIED_ACCESS_LOG = '%({x-forwarded-for}i)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s"'
NO_CADDY_WARNING = (
    "Warning: Caddy is not installed, so gunicorn serves the phones alone: a few slow or stalled"
    " connections can then hold all its threads and freeze the scoring. Install it (as root:"
    " `apt-get install caddy`, or `make system-deps`) and start again."
)


def caddyfile(
    *,
    upstreams: Sequence[str],
    http_port: int,
    https_port: int | None = None,
    hosts: Sequence[str] = (),
    domain: str = "",
    bind: str = "",
) -> str:
    """Caddy's configuration. Plain http (no ``https_port``): one site on ``http_port``, every
    request passed on. HTTPS on the LAN: a site for each address the phones may use, with a
    certificate from Caddy's own authority, and on plain http only the page that installs that
    authority (everything else is redirected to https). On a domain: Caddy's defaults (a public
    certificate, http redirected). Every mode has the client deadlines and the request buffer.
    Caddy's admin endpoint is off: nothing on this machine can reconfigure it behind the
    organiser's back."""
    balance = "\n\t\tlb_policy round_robin\n\t\tfail_duration 10s" if len(upstreams) > 1 else ""
    # Caddy 2.6's words (later versions also take `request_buffers`).
    buffer = f"\n\t\tbuffer_requests\n\t\tmax_buffer_size {MAX_BUFFER}"
    proxy = "reverse_proxy " + " ".join(upstreams) + " {" + balance + buffer + "\n\t}"
    # Caddy's own log: errors only (its start-up chatter would bury the addresses printed here).
    servers = (
        f"\tservers {{\n\t\ttimeouts {{\n\t\t\tread_header {READ_HEADER}\n\t\t\tread_body {READ_BODY}\n"
        f"\t\t\tidle {IDLE}\n\t\t}}\n\t}}\n\tlog {{\n\t\tlevel ERROR\n\t}}\n"
    )
    listen = f"\tbind {bind}\n" if bind else ""
    if https_port is None:
        return f"{{\n\tadmin off\n\tauto_https off\n{servers}}}\n\nhttp://:{http_port} {{\n{listen}\t{proxy}\n}}\n"
    if domain:
        ports = "" if (https_port, http_port) == (443, 80) else f"\thttp_port {http_port}\n\thttps_port {https_port}\n"
        return f"{{\n\tadmin off\n{ports}{servers}}}\n\n{domain} {{\n{listen}\tencode gzip\n\t{proxy}\n}}\n"
    sites = ", ".join(f"https://{host}:{https_port}" for host in hosts)
    return (
        "{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n\tauto_https disable_redirects\n"
        f"\thttp_port {http_port}\n\thttps_port {https_port}\n{servers}}}\n\n"
        f"{sites} {{\n{listen}\ttls internal\n\t{proxy}\n}}\n\n"
        f"http://:{http_port} {{\n{listen}"
        "\t@trust path /ca /ca/* /static/*\n"
        f"\thandle @trust {{\n\t\t{proxy.replace(chr(10), chr(10) + chr(9))}\n\t}}\n"
        f"\thandle {{\n\t\tredir https://{{http.request.host}}:{https_port}{{uri}}\n\t}}\n}}\n"
    )


def caddy_binary(*, required: bool) -> str | None:
    """Caddy's path; installed from Debian's package when we are root. Without it: an error when
    ``required`` (HTTPS needs it), else None (plain http goes on without it, with a warning)."""
    found = shutil.which("caddy")
    if found:
        return found
    if os.geteuid() == 0:
        print("Installing Caddy (Debian's package)...", flush=True)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        with suppress(OSError):  # no apt-get: not Debian; said below
            subprocess.run(["apt-get", "install", "-y", "-qq", "caddy"], check=False, env=env)
        if found := shutil.which("caddy"):
            return found
    if required:
        raise SystemExit("Caddy is not installed: run `sudo apt-get install caddy`, then `make run-https` again.")
    return None


def gunicorn_command(*, bind: str, workers: int, app: str, proxied: bool) -> list[str]:
    """gunicorn with the production settings (referee.gunicorn_conf), as every mode starts it."""
    return [
        str(Path(sys.executable).with_name("gunicorn")),
        "--config",
        "python:referee.gunicorn_conf",
        "--bind",
        bind,
        "--workers",
        str(workers),
        "--access-logfile",
        "-",
        *(["--access-logformat", PROXIED_ACCESS_LOG] if proxied else []),
        app,
    ]


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--https", action="store_true", help="serve over HTTPS (Caddy required)")
    parser.add_argument("--domain", default="", help="with --https: a domain name pointing at this machine")
    parser.add_argument("--port", type=int, default=8000, help="plain http: the phones' port (default 8000)")
    parser.add_argument("--https-port", type=int, help="default 8443 on the LAN, 443 with a domain")
    parser.add_argument("--http-port", type=int, help="with --https: default 8080 on the LAN, 80 with a domain")
    parser.add_argument("--host", default="0.0.0.0", help="the address to listen on (default: every one)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--instance", type=Path, default=ROOT / "instance", help="where Caddy keeps its authority")
    parser.add_argument("--app", default="referee:create_app()", help="the WSGI application (gunicorn's spec)")
    args = parser.parse_args(argv)
    args.https = args.https or bool(args.domain)
    if args.https:
        args.https_port = args.https_port or (443 if args.domain else 8443)
        args.http_port = args.http_port or (80 if args.domain else 8080)
    return args


def wait_until(ready: object, processes: Sequence[subprocess.Popen[bytes]], what: str, seconds: float = 30) -> None:
    """Poll ``ready()`` until it is true; give up when a process died or after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not ready():  # type: ignore[operator]
        if any(p.poll() is not None for p in processes) or time.monotonic() > deadline:
            raise SystemExit(f"{what} did not start: see the messages above.")
        time.sleep(0.1)


def answers(address: str | tuple[str, int]) -> bool:
    """Whether something accepts connections there (a Unix socket's path, or a TCP address)."""
    family = socket.AF_UNIX if isinstance(address, str) else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.settimeout(1)
        try:
            s.connect(address)
        except OSError:
            return False
    return True


def serves(address: str | tuple[str, int]) -> bool:
    """Whether the app answers there (any HTTP status): a worker has loaded it, and its start-up
    lines are out before the addresses are printed."""
    family = socket.AF_UNIX if isinstance(address, str) else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.settimeout(5)
        try:
            s.connect(address)
            s.sendall(b"GET /manifest.webmanifest HTTP/1.0\r\nHost: localhost\r\n\r\n")
            return s.recv(16).startswith(b"HTTP/")
        except OSError:
            return False


def main(argv: Sequence[str] | None = None) -> None:
    args = parse(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    private = Path(tempfile.mkdtemp(prefix="referee-"))  # mode 0700: gunicorn's socket, plain Caddy's files
    processes: list[subprocess.Popen[bytes]] = []
    try:
        serve(args, private, processes)
    except KeyboardInterrupt:
        pass
    finally:
        stop(processes)
        shutil.rmtree(private, ignore_errors=True)


def serve(args: argparse.Namespace, private: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    """Start Caddy and gunicorn (or gunicorn alone), say where to connect, and wait."""
    caddy = caddy_binary(required=args.https)
    env = app_environment(args, private, proxied=caddy is not None)
    code = prepare_app(env, args.app)  # schema and secret key, once, before the workers start
    if caddy is None:
        print(NO_CADDY_WARNING, file=sys.stderr, flush=True)
        command = gunicorn_command(bind=f"{args.host}:{args.port}", workers=args.workers, app=args.app, proxied=False)
        processes.append(subprocess.Popen(command, env=env))
        wait_until(lambda: serves((loopback(args.host), args.port)), processes, "gunicorn", seconds=60)
        announce_lan(args.port, code, listening_on(args.host))
    else:
        serve_behind_caddy(args, caddy, env, private, processes)
        if args.https:
            announce_https(args, args.instance.resolve(), code)
        else:
            wait_until(lambda: answers((loopback(args.host), args.port)), processes, "Caddy")
            announce_lan(args.port, code, listening_on(args.host))
    while all(p.poll() is None for p in processes):
        time.sleep(0.5)


def app_environment(args: argparse.Namespace, private: Path, *, proxied: bool) -> dict[str, str]:
    """The environment of the app (and Caddy): behind Caddy, the proxy's headers are trusted;
    over HTTPS, the app learns its ports and where the authority's certificate is."""
    # Exactly one proxy (Caddy) in front, or none: served directly, any phone could write the
    # X-Forwarded-* headers, so they are not trusted whatever the environment said.
    env = dict(os.environ, REFEREE_PROXIES="1" if proxied else "0")
    if proxied:
        env.update(XDG_DATA_HOME=str(private), XDG_CONFIG_HOME=str(private / "config"))
    if args.https:
        instance: Path = args.instance.resolve()
        instance.mkdir(parents=True, exist_ok=True)
        env.update(
            XDG_DATA_HOME=str(instance),  # Caddy's authority lives on between runs
            XDG_CONFIG_HOME=str(instance / "caddy-config"),
            REFEREE_HTTPS="1",
            REFEREE_HTTP_PORT=str(args.http_port),
            REFEREE_HTTPS_PORT=str(args.https_port),
            REFEREE_CA_CERT=str(instance / https_root_cert()),
        )
    return env


def serve_behind_caddy(
    args: argparse.Namespace, caddy: str, env: dict[str, str], private: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    """gunicorn on its private socket; once the app answers there, Caddy in front of it."""
    sock = private / "gunicorn.sock"
    command = gunicorn_command(bind=f"unix:{sock}", workers=args.workers, app=args.app, proxied=True)
    processes.append(subprocess.Popen(command, env=env))
    upstreams = [f"unix/{sock}"]
    instance: Path = args.instance.resolve()
    if args.https:
        config = instance / "Caddyfile"
        text = caddyfile(
            upstreams=upstreams,
            http_port=args.http_port,
            https_port=args.https_port,
            hosts=https_hosts(),
            domain=args.domain,
        )
    else:
        config = private / "Caddyfile"
        text = caddyfile(upstreams=upstreams, http_port=args.port, bind="" if args.host == "0.0.0.0" else args.host)
    config.write_text(text, encoding="utf-8")
    wait_until(lambda: serves(str(sock)), processes, "gunicorn", seconds=60)  # no 502 for the first phone
    processes.append(subprocess.Popen([caddy, "run", "--config", str(config), "--adapter", "caddyfile"], env=env))
    if args.https and not args.domain:
        wait_until((instance / https_root_cert()).is_file, processes, "Caddy", seconds=20)


def https_hosts() -> list[str]:
    """The names a phone may use for the server over HTTPS on the LAN (each gets a certificate)."""
    return [*lan_addresses(), "localhost", "127.0.0.1"]


def loopback(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "") else host


def listening_on(host: str) -> list[str]:
    """The addresses to print: the LAN's when listening on every address, else that one."""
    return lan_addresses() if host in ("0.0.0.0", "") else [host]


def https_root_cert() -> str:
    from referee.views.trust import CADDY_ROOT

    return str(CADDY_ROOT)


def stop(processes: Sequence[subprocess.Popen[bytes]]) -> None:
    """gunicorn first (it finishes the requests under way), then Caddy; killed after 10 s."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def announce_https(args: argparse.Namespace, instance: Path, code: str) -> None:
    from referee.views.trust import fingerprint

    print()
    if args.domain:
        suffix = "" if args.https_port == 443 else f":{args.https_port}"
        print(f"  Referee over HTTPS: https://{args.domain}{suffix}/")
    else:
        lan = lan_addresses() or ["127.0.0.1"]
        print("  Referee over HTTPS. Open on the phones (same Wi-Fi):")
        for host in lan:
            print(f"    https://{host}:{args.https_port}/")
        print("  Each phone first trusts this server once, on this page (plain http):")
        print(f"    http://{lan[0]}:{args.http_port}/ca")
        show_code(f"http://{lan[0]}:{args.http_port}/ca", "Or point a phone's camera at this code")
        pem = (instance / https_root_cert()).read_text(encoding="ascii")
        print(f"  The certificate's fingerprint (SHA-256), as the page shows it:\n    {fingerprint(pem)}")
    print(f"  Club code (to manage members, Pix keys and seasons): {code}")
    print()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
