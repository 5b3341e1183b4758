"""Samba hands scored per second by the pure engine (parse_hand + score), no Flask, no DB.

`.venv/bin/python -m tests.bench.bench_samba_engine`. Prints figures; never asserts a timing.
"""

from __future__ import annotations

from ._common import machine
from .bench_engine import engine_figures
from .samba_hands import PLAYERS, TEMPLATES, period, record


def main() -> None:
    machine()
    records = [record(k) for k in range(period())]
    kinds = [TEMPLATES[k % len(TEMPLATES)][0] for k in range(len(records))]
    engine_figures("samba", PLAYERS, records, kinds, "samba engine")


if __name__ == "__main__":
    main()
