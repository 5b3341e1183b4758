"""POST /api/v1/tables/{id}/hands for Samba under load on the production server.

`.venv/bin/python -m tests.bench.bench_samba_api`. Prints figures; never asserts a timing.
Four-player tables (two teams) playing to a high target, the mix of tests/bench/samba_hands.py;
every answer carries the teams' totals, opening melds and the match state.
"""

from __future__ import annotations

from ._common import machine
from .bench_api import CLIENTS, SECONDS
from .game_api import api_figures
from .samba_hands import OPTIONS, PLAYERS, TEMPLATES, period, record


def main() -> None:
    machine()
    print(
        f"  load: {CLIENTS} clients, {SECONDS:.0f} s, one 4-player Samba table per client, {len(TEMPLATES)} kinds of hand"
    )
    records = [record(k) for k in range(period())]
    kinds = [TEMPLATES[k % len(TEMPLATES)][0] for k in range(len(records))]
    api_figures("samba", PLAYERS, records, kinds, options=OPTIONS)


if __name__ == "__main__":
    main()
