"""A championship's seating draw at the size of a Brazilian championship: 300 players, 75
tables, five rounds, each drawn against every pair who met in the rounds before.

`.venv/bin/python -m tests.bench.run draw`. Prints each round's time and what it left (pairs
meeting again, players at a five-player table again); never asserts a timing.
"""

from __future__ import annotations

import time

from referee.rules.draw import draw, pairs_met

from ._common import figure, machine

PLAYERS = 300
ROUNDS = 5


def main() -> None:
    machine()
    print(f"== draw: {PLAYERS} players, {ROUNDS} rounds", flush=True)
    players = list(range(1, PLAYERS + 1))
    met: set[frozenset[int]] = set()
    fived: set[int] = set()
    for n in range(1, ROUNDS + 1):
        started = time.perf_counter()
        result = draw(players, seed=f"bench-{n}", met=met, sat_out=fived)
        ms = (time.perf_counter() - started) * 1000
        figure(f"round {n}: the draw", ms, "ms", "< 1000 ms", ms < 1000)
        print(f"    pairs meeting again {result.repeats}, at a five again {result.fives_again}", flush=True)
        met |= pairs_met(result.tables)
        fived |= {p for t in result.tables if len(t) == 5 for p in t}


if __name__ == "__main__":
    main()
