"""Jubileu hands settled per second by the pure engine (parse_hand + settle), no Flask, no DB.

`.venv/bin/python -m tests.bench.bench_engine`. Prints figures; never asserts a timing.
"""

from __future__ import annotations

import time
from collections import Counter

from referee.rules.jubileu import JubileuOptions, parse_hand, settle

from ._common import figure, machine
from .hands import PLAYERS, TEMPLATES, record

SECONDS = 2.0
TARGET = None  # the issue sets no target for the engine: the figure is for tracking


def main() -> None:
    machine()
    options = JubileuOptions()
    # 32 records: every template with each dealer it meets in the rotation, built beforehand so
    # only the engine is timed.
    records = [record(PLAYERS, k) for k in range(4 * len(TEMPLATES))]
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
    print(f"  mix: {', '.join(f'{name} x{n}' for name, n in kinds.items())}")
    print(f"  {hands:,} hands in {elapsed:.2f} s (time.perf_counter)")
    figure("engine: hands settled per second", hands / elapsed, "hands/s", "(none: track)", None)
    figure("engine: time per hand", per_hand_us, "us", "(none: track)", None)

    # which kind costs what (the auction replay dominates; all-pass is the cheapest)
    worst = []
    for name, template in TEMPLATES:
        raw = next(r for k, r in enumerate(records) if TEMPLATES[k % len(TEMPLATES)][0] == name)
        n = 2000
        t = time.perf_counter()
        for _ in range(n):
            settle(parse_hand(raw, players=PLAYERS, options=options, dealer=raw["dealer"]), options)
        worst.append(((time.perf_counter() - t) / n * 1e6, name))
    print("  per kind (us/hand): " + ", ".join(f"{name} {us:.0f}" for us, name in sorted(worst, reverse=True)))


if __name__ == "__main__":
    main()
