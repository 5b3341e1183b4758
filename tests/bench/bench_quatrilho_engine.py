"""Quatrilho hands settled per second by the pure engine (parse_hand + settle), no Flask, no DB.

`.venv/bin/python -m tests.bench.bench_quatrilho_engine`. Prints figures; never asserts a timing.
Five-player tables (the dealer sits out), the mix of tests/bench/quatrilho_hands.py.
"""

from __future__ import annotations

import time
from collections import Counter

from referee.rules.quatrilho import QuatrilhoOptions, parse_hand, settle

from ._common import figure, machine
from .quatrilho_hands import PLAYERS, TEMPLATES, period, record

SECONDS = 2.0


def main() -> None:
    machine()
    options = QuatrilhoOptions()
    # 45 records: every template with each dealer it meets in the rotation, built beforehand so
    # only the engine is timed.
    records = [record(PLAYERS, k) for k in range(period())]
    kinds = Counter(TEMPLATES[k % len(TEMPLATES)][0] for k in range(len(records)))
    for raw in records:  # every record must be valid, or the figure means nothing
        settle(parse_hand(raw, players=PLAYERS, options=options, dealer=raw["dealer"]), options)

    def one_pass() -> None:
        for raw in records:
            settle(parse_hand(raw, players=PLAYERS, options=options, dealer=raw["dealer"]), options)

    for _ in range(20):  # warm-up
        one_pass()
    passes = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < SECONDS:
        one_pass()
        passes += 1
    hands = passes * len(records)
    per_hand_us = elapsed / hands * 1e6
    print(f"  mix ({len(PLAYERS)} players, the dealer sits out): {', '.join(f'{name} x{n}' for name, n in kinds.items())}")
    print(f"  {hands:,} hands in {elapsed:.2f} s (time.perf_counter)")
    figure("quatrilho engine: hands settled per second", hands / elapsed, "hands/s", "(none: track)", None)
    figure("quatrilho engine: time per hand", per_hand_us, "us", "(none: track)", None)

    costs = []
    for name, _template in TEMPLATES:
        raw = next(r for k, r in enumerate(records) if TEMPLATES[k % len(TEMPLATES)][0] == name)
        n = 2000
        t = time.perf_counter()
        for _ in range(n):
            settle(parse_hand(raw, players=PLAYERS, options=options, dealer=raw["dealer"]), options)
        costs.append(((time.perf_counter() - t) / n * 1e6, name))
    print("  per kind (us/hand): " + ", ".join(f"{name} {us:.0f}" for us, name in sorted(costs, reverse=True)))


if __name__ == "__main__":
    main()
