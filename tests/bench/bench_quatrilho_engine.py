"""Quatrilho hands settled per second by the pure engine (parse_hand + settle), no Flask, no DB.

`.venv/bin/python -m tests.bench.bench_quatrilho_engine`. Prints figures; never asserts a timing.
Five-player tables (the dealer sits out), the mix of tests/bench/quatrilho_hands.py.
"""

from __future__ import annotations

from ._common import machine
from .bench_engine import engine_figures
from .quatrilho_hands import PLAYERS, TEMPLATES, period, record


def main() -> None:
    machine()
    # Every template with each dealer it meets in the rotation.
    records = [record(PLAYERS, k) for k in range(period())]
    kinds = [TEMPLATES[k % len(TEMPLATES)][0] for k in range(len(records))]
    print(f"  {len(PLAYERS)} players, the dealer sits out")
    engine_figures("quatrilho", PLAYERS, records, kinds, "quatrilho engine")


if __name__ == "__main__":
    main()
