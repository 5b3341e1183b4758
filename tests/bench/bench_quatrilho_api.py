"""POST /api/v1/tables/{id}/hands for Quatrilho under load on the production server.

`.venv/bin/python -m tests.bench.bench_quatrilho_api`. Prints figures; never asserts a timing.
Five-player tables, so every hand runs the rotation and the sit-out (the dealer sits out); the
hands are the mix of tests/bench/quatrilho_hands.py. The machinery is tests/bench/game_api.py;
no bare baseline here: bench_api measures it.
"""

from __future__ import annotations

from ._common import machine
from .bench_api import CLIENTS, SECONDS
from .game_api import api_figures
from .quatrilho_hands import PLAYERS, TEMPLATES, period, record


def main() -> None:
    machine()
    print(
        f"  load: {CLIENTS} clients, {SECONDS:.0f} s, one {len(PLAYERS)}-player Quatrilho table per client "
        f"(the dealer sits out), {len(TEMPLATES)} kinds of hand in rotation"
    )
    records = [record(PLAYERS, k) for k in range(period())]
    kinds = [TEMPLATES[k % len(TEMPLATES)][0] for k in range(len(records))]
    api_figures("quatrilho", PLAYERS, records, kinds)


if __name__ == "__main__":
    main()
