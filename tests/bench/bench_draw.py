"""A championship's seating draw at the size of a Brazilian championship (300 and 303 players,
75 tables, five rounds) and on club-sized fields, the day planned together (what the app does:
each round plans the rounds left from its own seed) beside the round-by-round draw it replaced.

`.venv/bin/python -m tests.bench.run draw` (`make bench-championship` runs it too). Prints each
round's time, the worst round's, and the pairs a day seats again; never asserts a timing.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from referee.rules.draw import Draw, draw, pairs_met
from referee.rules.plan import plan

from ._common import figure, machine, sized

ROUNDS = 5
#: The day sizes drawn, and the club-sized days' seeds (one of each in quick mode).
COUNTS = sized((300, 303), (300,))
CLUB_COUNTS = sized((12, 13, 16, 17, 20), (13,))
SEEDS = sized(20, 2)
TARGET_MS = 1000


def planned(players: list[int], seed: str, left: int, met: set[frozenset[int]], fived: set[int]) -> Draw:
    return plan(players, seed=seed, rounds=left, met=met, sat_out=fived).first


def alone(players: list[int], seed: str, left: int, met: set[frozenset[int]], fived: set[int]) -> Draw:
    return draw(players, seed=seed, met=met, sat_out=fived)


def day(count: int, seed: str, how: Callable[..., Draw], *, show: bool) -> tuple[float, int, int]:
    """A day of ``count`` players: the worst round's ms, pairs seated again, players at a five again."""
    players = list(range(1, count + 1))
    met: set[frozenset[int]] = set()
    fived: set[int] = set()
    worst, again, fives = 0.0, 0, 0
    for n in range(1, ROUNDS + 1):
        started = time.perf_counter()
        result = how(players, f"{seed}-{n}", ROUNDS - n + 1, met, fived)
        ms = (time.perf_counter() - started) * 1000
        if show:
            figure(f"  round {n}", ms, "ms", f"< {TARGET_MS} ms", ms < TARGET_MS)
        worst = max(worst, ms)
        again += result.repeats
        fives += result.fives_again
        met |= pairs_met(result.tables)
        fived |= {p for t in result.tables if len(t) == 5 for p in t}
    return worst, again, fives


def main() -> None:
    machine()
    for count in COUNTS:
        for label, how in (("round by round (before)", alone), ("planned together (now)", planned)):
            print(f"== draw: {count} players, {ROUNDS} rounds, {label}", flush=True)
            worst, again, fives = day(count, "bench", how, show=True)
            figure("the worst round", worst, "ms", f"< {TARGET_MS} ms", worst < TARGET_MS)
            print(f"    over the day: pairs meeting again {again}, at a five again {fives}", flush=True)
    seeds = SEEDS
    print(f"== draw: club-sized days of {ROUNDS} rounds, {seeds} seeds each: pairs meeting again", flush=True)
    for count in CLUB_COUNTS:
        before = sum(day(count, str(s), alone, show=False)[1] for s in range(seeds))
        started = time.perf_counter()
        after = [day(count, str(s), planned, show=False) for s in range(seeds)]
        slowest = max(w for w, _a, _f in after)
        print(
            f"  {count} players: round by round {before}, planned {sum(a for _w, a, _f in after)}"
            f" (slowest round {slowest:.0f} ms; {time.perf_counter() - started:.1f} s for the {seeds} days)",
            flush=True,
        )


if __name__ == "__main__":
    main()
