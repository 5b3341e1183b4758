"""``referee-serve``: what ``make run`` does, for an installed wheel, which has no Makefile.

It builds the app once first (the schema brought up to date, the secret key and club code made
on a first run), says where the data lives, then replaces itself with gunicorn on Referee's
settings (referee/gunicorn_conf.py), so the process an admin started is the server and stops
with Ctrl-C or a signal to its PID.
"""

from __future__ import annotations

import argparse
import os
import sys


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="referee-serve",
        description="Serve Referee with gunicorn. The data folder is REFEREE_HOME, else ~/.local/share/referee.",
    )
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: the whole LAN)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000; 0 picks a free one)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes (default 2)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    options = arguments(argv)
    from referee import create_app

    app = create_app()
    print(f"Data folder: {app.instance_path} (the club code is in its club_code file)", file=sys.stderr, flush=True)
    command = [sys.executable, "-m", "gunicorn", "--config", "python:referee.gunicorn_conf"]
    command += ["--bind", f"{options.host}:{options.port}", "--workers", str(options.workers)]
    command += ["--access-logfile", "-", "referee:create_app()"]
    os.execv(sys.executable, command)


if __name__ == "__main__":
    main()
