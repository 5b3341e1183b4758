"""The rounds left in a championship day, planned together from the round's shown seed.

A draw that looks only at the round in hand (:mod:`.draw`) seats each round as well as it can
and may leave the next round no good choice: with twelve to sixteen players every pair that a
round uses is a pair the later rounds can no longer use, and choosing round 3 without looking at
round 4 can force two or four more repeats than needed. Sixteen players at tables of four, for
instance, can play five rounds without anyone meeting twice (the 4 x 4 affine plane), but only
if the first rounds are chosen with the last in mind.

So, when the number of rounds is known, the draw of round ``n`` plans rounds ``n`` to the last
together, given who already met, and seats round ``n`` as the plan says; the next round is
planned again from its own seed, with the field as it then is (late entries, players gone home).
The plan is a seeded tabu search over swaps of two players of one round. It starts from the
affine plane with its points relabelled by the seed (16 players at fours or 25 at fives, before
anyone met: every pair meets once over q + 1 rounds), else from what the round-by-round draw
would seat (so a club-sized field is never planned worse than that), else, above 120 players, a
quick greedy seating. Then it makes, again and again, the best swap of a player who meets someone
again that does not undo a recent swap, until it reaches a count no plan can beat or a fixed
number of swaps, and keeps the best plan seen. Everything it chooses
comes from the seed, so running it again with the same inputs gives the same tables: what the
plan page's check does.

What it lowers: pairs meeting again over the day (each meeting after a pair's first), then
players seated again at a table of five (with tables of four, where five is the exception).

Standard library only, like the rest of the rules.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import combinations

from .draw import REPEAT_WEIGHT, SMALL, Draw, draw, pairs_met, repeats, table_sizes
from .errors import InvalidInput
from .text import N_, Text

#: Swaps evaluated by the search, over the whole plan: bounds its time (about a second of pure
#: Python at most) whatever the field, and, being a count and not a clock, keeps it a function of
#: the seed.
EVALUATIONS = 150_000
#: Most swaps made, however small the field.
MOVES = 1_500
#: A player swapped out of a table does not go back to it for this many moves (plus a seeded
#: few), so the search leaves a local optimum instead of undoing its last swap.
TENURE = 6


@dataclass(frozen=True)
class Plan:
    """The rounds planned (tables of entry numbers, per round), the seed, and what the plan
    leaves over them: pairs meeting again and players at a table of five again."""

    seed: str
    rounds: tuple[tuple[tuple[int, ...], ...], ...]
    repeats: int
    fives_again: int
    first: Draw


def affine_plane(q: int) -> list[list[list[int]]]:
    """The q + 1 rounds of q tables of q (points 0..q*q-1) in which every pair meets exactly
    once: the lines of the affine plane over the field of q elements, one round per slope.
    For q = 4 the field is GF(4) (addition is XOR, multiplication by its table); for a prime q
    it is the integers mod q.

    >>> [len(r) for r in affine_plane(4)]
    [4, 4, 4, 4, 4]
    """
    if q == 4:
        mul = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]

        def add(a: int, b: int) -> int:
            return a ^ b

        def times(a: int, b: int) -> int:
            return mul[a][b]
    else:

        def add(a: int, b: int) -> int:
            return (a + b) % q

        def times(a: int, b: int) -> int:
            return (a * b) % q

    rounds = [[[x * q + y for y in range(q)] for x in range(q)]]  # the vertical lines x = c
    for slope in range(q):  # y = slope * x + c
        rounds.append([[x * q + add(times(slope, x), c) for x in range(q)] for c in range(q)])
    return rounds


def _floor(sizes: list[int], rounds: int, met: list[list[int]], fived: list[int], spread: bool) -> int:
    """A cost no plan goes below, where the search may stop: every meeting past the number of
    pairs there are is a repeat (per player: past the others he can meet), and every seat at a
    five past the number of players is a player there again."""
    n = len(met)
    pairs = sum(s * (s - 1) // 2 for s in sizes) * rounds + sum(map(sum, met)) // 2 - n * (n - 1) // 2
    fewest = min(sizes) - 1
    each = sum(max(0, fewest * rounds + sum(row) - (n - 1)) for row in met)
    fives = max(0, 5 * sizes.count(5) * rounds + sum(fived) - n) if spread else 0
    return REPEAT_WEIGHT * max(0, pairs, (each + 1) // 2) + fives


class _Search:
    """The plan being searched: tables per round (player indexes), who met whom how often
    (history counts once), and how many times each player sat at a table of five."""

    def __init__(self, n: int, tables: list[list[list[int]]], met: list[list[int]], fived: list[int], spread: bool):
        self.tables = tables
        self.met = met
        self.fived = fived
        self.spread = spread
        self.n = n
        for round_ in tables:
            for table in round_:
                self._seat(table, 1)

    def _seat(self, table: list[int], step: int) -> None:
        for a, b in combinations(table, 2):
            self.met[a][b] += step
            self.met[b][a] += step
        if len(table) == 5 and self.spread:
            for p in table:
                self.fived[p] += step

    def cost(self) -> int:
        again = sum(max(0, self.met[a][b] - 1) for a in range(self.n) for b in range(a + 1, self.n))
        fives = sum(max(0, f - 1) for f in self.fived) if self.spread else 0
        return REPEAT_WEIGHT * again + fives

    def delta(self, first: list[int], p: int, second: list[int], q: int) -> int:
        """What swapping ``p`` (at ``first``) and ``q`` (at ``second``) changes in the cost."""
        met_p, met_q = self.met[p], self.met[q]
        change = 0
        for x in first:
            if x != p:
                change += (met_q[x] >= 1) - (met_p[x] >= 2)
        for y in second:
            if y != q:
                change += (met_p[y] >= 1) - (met_q[y] >= 2)
        change *= REPEAT_WEIGHT
        if self.spread and len(first) != len(second):
            fived = self.fived
            if len(first) == 5:
                change += (fived[q] >= 1) - (fived[p] >= 2)
            else:
                change += (fived[p] >= 1) - (fived[q] >= 2)
        return change

    def swap(self, first: list[int], i: int, second: list[int], j: int) -> None:
        p, q = first[i], second[j]
        met_p, met_q = self.met[p], self.met[q]
        for x in first:
            if x != p:
                met_p[x] -= 1
                self.met[x][p] -= 1
                met_q[x] += 1
                self.met[x][q] += 1
        for y in second:
            if y != q:
                met_q[y] -= 1
                self.met[y][q] -= 1
                met_p[y] += 1
                self.met[y][p] += 1
        if self.spread and len(first) != len(second):
            sign = 1 if len(first) == 5 else -1
            self.fived[p] -= sign
            self.fived[q] += sign
        first[i], second[j] = q, p

    def troubled(self) -> list[tuple[int, int, int]]:
        """(round, table, seat) of every player who meets someone again or sits at a five again."""
        found = []
        for r, round_ in enumerate(self.tables):
            for t, table in enumerate(round_):
                five = self.spread and len(table) == 5
                for s, p in enumerate(table):
                    row = self.met[p]
                    if any(row[x] >= 2 for x in table if x != p) or (five and self.fived[p] >= 2):
                        found.append((r, t, s))
        return found


def _start(
    count: int, sizes: list[int], rounds: int, lot: random.Random, met: list[list[int]], fived: list[int], spread: bool
) -> list[list[list[int]]] | None:
    """A first plan: the affine plane relabelled by the seed where it fits a field nobody has
    played in yet; for a field larger than a club's, each round seated greedily (each player,
    in the seed's order, at the first table where he meets nobody again, or the one where he
    meets fewest); else None, and the search starts from the round-by-round draw."""
    q = sizes[0]
    fresh = not any(any(row) for row in met) and not any(fived)
    if fresh and count == q * q and all(s == q for s in sizes) and rounds <= q + 1:
        label = list(range(count))
        lot.shuffle(label)
        plane = affine_plane(q)
        lot.shuffle(plane)
        return [[[label[p] for p in line] for line in round_] for round_ in plane[:rounds]]
    if count <= SMALL:
        return None
    met = [row[:] for row in met]
    fived = fived[:]
    plan: list[list[list[int]]] = []
    for _ in range(rounds):
        order = list(range(count))
        lot.shuffle(order)
        tables: list[list[int]] = [[] for _ in sizes]
        for p in order:
            tables[_least_bad(p, tables, sizes, met[p], spread and fived[p] >= 1)].append(p)
        _Search(count, [tables], met, fived, spread)  # counts this round's meetings in
        plan.append(tables)
    return plan


def _least_bad(p: int, tables: list[list[int]], sizes: list[int], mates: list[int], fived_before: bool) -> int:
    """The first table with a seat where ``p`` meets nobody again, or the one where he meets fewest."""
    best, best_cost = -1, -1
    for t, table in enumerate(tables):
        if len(table) == sizes[t]:
            continue
        here = REPEAT_WEIGHT * sum(mates[x] >= 1 for x in table) + (fived_before and sizes[t] == 5)
        if best < 0 or here < best_cost:
            best, best_cost = t, here
            if here == 0:
                break
    return best


def _greedy(
    people: list[int],
    seed: str,
    rounds: int,
    fives: bool,
    size: int,
    met: Collection[frozenset[int]],
    sat_out: Collection[int],
    index: dict[int, int],
) -> list[list[list[int]]]:
    """The plan the round-by-round draw would make (round ``k`` drawn from ``seed`` and ``k``):
    where the search starts on a club-sized field, so the plan is never worse than it."""
    known, fived, tables = set(met), set(sat_out), []
    for k in range(rounds):
        one = draw(people, seed=seed if k == 0 else f"{seed}/{k}", fives=fives, size=size, met=known, sat_out=fived)
        known |= pairs_met(one.tables)
        fived |= {p for t in one.tables if len(t) == 5 for p in t}
        tables.append([[index[p] for p in t] for t in one.tables])
    return tables


def _who_met(index: dict[int, int], met: Collection[frozenset[int]]) -> list[list[int]]:
    """The pairs of ``met`` within the field, as a matrix over player indexes (1: they met)."""
    known = [[0] * len(index) for _ in index]
    for pair in met:
        if len(pair) == 2:
            a, b = (index.get(p) for p in pair)
            if a is not None and b is not None:
                known[a][b] = known[b][a] = 1
    return known


def plan(
    players: Sequence[int],
    *,
    seed: str,
    rounds: int,
    fives: bool = True,
    size: int = 4,
    met: Collection[frozenset[int]] = (),
    sat_out: Collection[int] = (),
) -> Plan:
    """Plan ``rounds`` rounds of ``players`` (entry numbers) from ``seed``, given the pairs who
    already shared a table (``met``) and who already sat at a table of five (``sat_out``).

    >>> day = plan(list(range(1, 17)), seed="1", rounds=5)
    >>> day.repeats, len(day.rounds), day.first.tables == day.rounds[0]
    (0, 5, True)
    """
    if len(set(players)) != len(players):
        raise InvalidInput(Text(N_("A player is listed twice for the draw.")), field="players")
    if rounds < 1:
        raise InvalidInput(Text(N_("A plan needs at least one round.")), field="rounds")
    sizes = table_sizes(len(players), size=size, fives=fives)
    spread = size == 4
    people = sorted(players)
    index = {p: i for i, p in enumerate(people)}
    n = len(people)
    known = _who_met(index, met)
    fived = [1 if spread and p in set(sat_out) else 0 for p in people]
    lot = random.Random(hashlib.sha256(f"plan:{seed}".encode()).digest())
    start = _start(n, sizes, rounds, lot, [r[:] for r in known], fived[:], spread)
    if start is None:
        start = _greedy(people, seed, rounds, fives, size, met, sat_out, index)
    floor = _floor(sizes, rounds, known, fived, spread)
    found, total = _tabu(_Search(n, start, known, fived, spread), lot, floor)
    tables = tuple(tuple(tuple(sorted(people[p] for p in t)) for t in round_) for round_ in found)
    met_set = frozenset(met)
    given_fives = frozenset(sat_out) if spread else frozenset()
    first = Draw(
        seed=seed,
        tables=tables[0],
        repeats=repeats(tables[0], met_set),
        fives_again=sum(1 for t in tables[0] if len(t) == 5 for p in t if p in given_fives),
    )
    return Plan(
        seed=seed, rounds=tables, repeats=total // REPEAT_WEIGHT, fives_again=total % REPEAT_WEIGHT, first=first
    )


def _best_swap(
    search: _Search,
    troubled: list[tuple[int, int, int]],
    tabu: dict[tuple[int, int, int], int],
    move: int,
    record: int,
    lot: random.Random,
) -> tuple[tuple[int, int, int, int, int] | None, int, int]:
    """The best swap of a troubled player with someone at another table of his round, not
    undoing a recent swap unless it beats the best plan seen (``record``: how far below the
    current cost that is); ties broken by the seed. Also the number of swaps looked at."""
    chosen: tuple[int, int, int, int, int] | None = None
    chosen_delta = ties = tried = 0
    for r, t, s in troubled:
        round_ = search.tables[r]
        first = round_[t]
        p = first[s]
        for u, second in enumerate(round_):
            if u == t:
                continue
            tried += len(second)
            for j, q in enumerate(second):
                change = search.delta(first, p, second, q)
                if chosen is not None and change > chosen_delta:
                    continue
                forbidden = tabu.get((r, p, u), -1) >= move or tabu.get((r, q, t), -1) >= move
                if forbidden and change >= record:
                    continue
                if chosen is None or change < chosen_delta:
                    chosen, chosen_delta, ties = (r, t, s, u, j), change, 1
                else:
                    ties += 1
                    if lot.randrange(ties) == 0:
                        chosen = (r, t, s, u, j)
    return chosen, chosen_delta, tried


def _tabu(search: _Search, lot: random.Random, floor: int) -> tuple[list[list[list[int]]], int]:
    """A seeded tabu search over swaps from ``search``, until it reaches ``floor`` (nothing
    lower exists) or its budget: the best plan it saw, and its cost."""
    current = search.cost()
    best, best_tables = current, [[t[:] for t in r] for r in search.tables]
    tabu: dict[tuple[int, int, int], int] = {}
    budget = EVALUATIONS
    for move in range(MOVES):
        if best <= floor or budget <= 0:
            break
        troubled = search.troubled()
        if not troubled:
            break
        chosen, chosen_delta, tried = _best_swap(search, troubled, tabu, move, best - current, lot)
        budget -= tried
        if chosen is None:
            break
        r, t, s, u, j = chosen
        round_ = search.tables[r]
        p, q = round_[t][s], round_[u][j]
        search.swap(round_[t], s, round_[u], j)
        tabu[(r, p, t)] = move + TENURE + lot.randrange(4)
        tabu[(r, q, u)] = move + TENURE + lot.randrange(4)
        current += chosen_delta
        if current < best:
            best, best_tables = current, [[table[:] for table in rr] for rr in search.tables]
    return best_tables, best
