"""Serve Referee with Caddy in front of gunicorn: `make run` (plain http on the LAN), `make
run-https` (HTTPS on the LAN, or on a domain) and `referee-serve` (an installed wheel, which has
no Makefile) all start this, the same way. `python -m referee.serve --help`.

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
own (its files in the data folder's caddy/); each phone trusts it once through the /ca page, whose
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
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from referee import INSTALLED, ROOT
from referee.config import data_folder
from referee.serve.announce import announce_https, announce_lan, lan_addresses
from referee.serve.caddy import NO_CADDY_WARNING, caddy_binary, caddyfile
from referee.serve.processes import (
    Prepared,
    answers,
    free_port,
    gunicorn_command,
    prepare_app,
    serves,
    stop,
    wait_until,
)


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="referee-serve",
        description="Serve Referee on the LAN: Caddy in front of gunicorn (gunicorn alone, with a warning,"
        " without Caddy). The data folder is REFEREE_HOME, else a checkout's instance/, else"
        " ~/.local/share/referee.",
    )
    parser.add_argument("--https", action="store_true", help="serve over HTTPS (Caddy required)")
    parser.add_argument("--domain", default="", help="with --https: a domain name pointing at this machine")
    parser.add_argument(
        "--port", type=int, default=8000, help="plain http: the phones' port (default 8000; 0: a free one)"
    )
    parser.add_argument("--https-port", type=int, help="default 8443 on the LAN, 443 with a domain")
    parser.add_argument("--http-port", type=int, help="with --https: default 8080 on the LAN, 80 with a domain")
    parser.add_argument("--host", default="0.0.0.0", help="the address to listen on (default: every one)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes (default 2)")
    parser.add_argument("--instance", type=Path, help="where Caddy keeps its authority (default: the data folder)")
    parser.add_argument("--app", default="referee:create_app()", help="the WSGI application (gunicorn's spec)")
    args = parser.parse_args(argv)
    args.instance = args.instance or data_folder(installed=INSTALLED, checkout=ROOT)
    args.https = args.https or bool(args.domain)
    if args.https:
        args.https_port = args.https_port or (443 if args.domain else 8443)
        args.http_port = args.http_port or (80 if args.domain else 8080)
    elif args.port == 0:
        args.port = free_port(args.host)
    return args


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
    env = app_environment(args, proxied=caddy is not None)
    app = prepare_app(env, args.app)  # schema and secret key, once, before the workers start
    if caddy is None:
        print(NO_CADDY_WARNING, file=sys.stderr, flush=True)
        command = gunicorn_command(bind=f"{args.host}:{args.port}", workers=args.workers, app=args.app, proxied=False)
        processes.append(subprocess.Popen(command, env=env))
        wait_until(lambda: serves((loopback(args.host), args.port)), processes, "gunicorn", seconds=60)
        announce_lan(args.port, app.code, listening_on(args.host), app.data)
    else:
        serve_behind_caddy(args, caddy, env, private, processes)
        if args.https:
            say_https(args, app)
        else:
            wait_until(lambda: answers((loopback(args.host), args.port)), processes, "Caddy")
            announce_lan(args.port, app.code, listening_on(args.host), app.data)
    while all(p.poll() is None for p in processes):
        time.sleep(0.5)


def say_https(args: argparse.Namespace, app: Prepared) -> None:
    root_cert = args.instance.resolve() / https_root_cert()
    announce_https(
        https_port=args.https_port,
        http_port=args.http_port,
        domain=args.domain,
        root_cert=root_cert,
        code=app.code,
        data=app.data,
    )


def app_environment(args: argparse.Namespace, *, proxied: bool) -> dict[str, str]:
    """The environment of the app: behind Caddy, the proxy's headers are trusted; over HTTPS,
    the app learns its ports and where the authority's certificate is."""
    # Exactly one proxy (Caddy) in front, or none: served directly, any phone could write the
    # X-Forwarded-* headers, so they are not trusted whatever the environment said.
    env = dict(os.environ, REFEREE_PROXIES="1" if proxied else "0")
    if args.https:
        instance: Path = args.instance.resolve()
        instance.mkdir(parents=True, exist_ok=True)
        env.update(
            REFEREE_HTTPS="1",
            REFEREE_HTTP_PORT=str(args.http_port),
            REFEREE_HTTPS_PORT=str(args.https_port),
            REFEREE_CA_CERT=str(instance / https_root_cert()),
        )
    return env


def caddy_environment(env: dict[str, str], folder: Path) -> dict[str, str]:
    """Caddy's own: its data (the HTTPS authority) and config in ``folder``. Only Caddy's: an
    installed wheel's data folder follows XDG_DATA_HOME, and must not move with it."""
    return dict(env, XDG_DATA_HOME=str(folder), XDG_CONFIG_HOME=str(folder / "caddy-config"))


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
    # HTTPS: the authority lives on in the data folder between runs; plain http: nothing to keep.
    caddy_env = caddy_environment(env, instance if args.https else private)
    processes.append(subprocess.Popen([caddy, "run", "--config", str(config), "--adapter", "caddyfile"], env=caddy_env))
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
    from referee.authority import CADDY_ROOT

    return str(CADDY_ROOT)


if __name__ == "__main__":
    main()
