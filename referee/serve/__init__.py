"""The launcher: Caddy in front of gunicorn, the same for a checkout (`make run`, `make
run-https`) and an installed wheel (`referee-serve`, or `python -m referee.serve`).

- :mod:`referee.serve.cli`: the options, the processes started in order, the wait;
- :mod:`referee.serve.caddy`: the Caddyfile (client deadlines, request buffering) and Caddy's binary;
- :mod:`referee.serve.processes`: the app prepared once, gunicorn started, waited for, stopped;
- :mod:`referee.serve.announce`: the addresses, their QR code, the club's code in force.
"""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> None:
    """``referee-serve`` (pyproject's console script) and ``python -m referee.serve``."""
    from referee.serve.cli import main as run

    run(argv)
