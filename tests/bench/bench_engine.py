"""Hands settled per second by a pure engine (parse_hand + settle), no Flask, no DB.

`.venv/bin/python -m tests.bench.bench_engine` (Jubileu); bench_quatrilho_engine calls
:func:`engine_figures` with its own mix. Prints figures; never asserts a timing.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from referee.rules import get_game

from ._common import figure, machine, sized
from .hands import PLAYERS, TEMPLATES, record

SECONDS = sized(2.0, 0.1)


def engine_figures(
    game: str, players: Sequence[str], records: Sequence[Mapping[str, Any]], kinds: Sequence[str], label: str
) -> None:
    """Time ``records`` (built beforehand, so only the engine is timed) through the game's
    Game surface; ``kinds[i]`` names what record i is, for the per-kind costs."""
    rules = get_game(game)
    options = rules.parse_options(None)

    def judge(raw: Mapping[str, Any]) -> None:
        rules.settle(rules.parse_hand(raw, players=players, options=options, dealer=raw["dealer"]), options)

    for raw in records:  # every record must be valid, or the figure means nothing
        judge(raw)
    for _ in range(sized(20, 1)):  # warm-up
        for raw in records:
            judge(raw)
    passes = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < SECONDS:
        for raw in records:
            judge(raw)
        passes += 1
    hands = passes * len(records)
    print(f"  mix: {', '.join(f'{name} x{n}' for name, n in Counter(kinds).items())}")
    print(f"  {hands:,} hands in {elapsed:.2f} s (time.perf_counter)")
    figure(f"{label}: hands settled per second", hands / elapsed, "hands/s", "(none: track)", None)
    figure(f"{label}: time per hand", elapsed / hands * 1e6, "us", "(none: track)", None)
    costs = []
    for name in dict.fromkeys(kinds):
        raw = records[list(kinds).index(name)]
        n = sized(2000, 10)
        t = time.perf_counter()
        for _ in range(n):
            judge(raw)
        costs.append(((time.perf_counter() - t) / n * 1e6, name))
    print("  per kind (us/hand): " + ", ".join(f"{name} {us:.0f}" for us, name in sorted(costs, reverse=True)))


def main() -> None:
    machine()
    # 32 records: every template with each dealer it meets in the rotation.
    records = [record(PLAYERS, k) for k in range(4 * len(TEMPLATES))]
    kinds = [TEMPLATES[k % len(TEMPLATES)][0] for k in range(len(records))]
    engine_figures("jubileu", PLAYERS, records, kinds, "engine")


if __name__ == "__main__":
    main()
