"""A championship round's seating, drawn from a seed that anyone can run again.

Quatrilho championships seat their players by lot each round. On paper the lot is trusted because
everyone watches the committee draw it; on a phone it is trusted because it can be checked: the
seating is a function of the seed shown on the plan, the entry numbers, and who already sat
together, so anyone who runs the draw again with the same seed gets the same tables.

Within that lot, the draw avoids seating again players who have already shared a table, as far
as it can, and spreads the five-player tables (where the dealer sits out each deal) over players
who have not sat at one yet. It starts from the seed's shuffle and swaps two players of different
tables while a swap lowers the cost (repeated pairs first, then repeated fives), in an order the
seed also fixes, until no swap helps; for a club-sized field it does so from a few shuffles of the
same lot and keeps the best. That is a local search: "as far as it can" is a promise of
effort, not of the best seating there is, and the plan says how many pairs meet again.

Standard library only, like the rest of the rules: the web layer stores the seed and the rounds.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import combinations

from .errors import InvalidInput
from .text import N_, Text

#: A repeated pair of tablemates outweighs any spreading of the five-player tables.
REPEAT_WEIGHT = 1000
#: Passes over every pair of players: each pass that swaps nobody ends the search, and a pass
#: costs a fraction of a second at 300 players.
MAX_PASSES = 12
#: Up to this many players, the search starts again from further shuffles of the same lot and
#: keeps the best seating: a swap at a time can get stuck where two swaps at once would help.
SMALL = 120
RESTARTS = 6


@dataclass(frozen=True)
class Draw:
    """A round's tables (entry numbers, in seat order), the seed they came from, and how many
    pairs of players meet again and how many players sit at a five-player table again."""

    seed: str
    tables: tuple[tuple[int, ...], ...]
    repeats: int
    fives_again: int


def table_sizes(players: int, *, size: int = 4, fives: bool = True) -> list[int]:
    """The tables for ``players``. With ``size`` 4: tables of four, and as few five-player
    tables as make the count come out (Quatrilho, where the fifth player sits out each deal in
    turn; ``fives`` false where the game has no fifth seat). With ``size`` 5 (the dealer sits
    out at every table): tables of five, and as few of four as make the count come out."""
    if size not in (4, 5):
        raise InvalidInput(Text(N_("Championship tables seat four or five players.")), field="size")
    if size == 5:
        fours_needed = (4 * players) % 5  # 4 x 4 = 16 = 1 (mod 5): each table of four takes one off
        count_of_fives = (players - 4 * fours_needed) // 5
        if players < 4 or count_of_fives < 0:
            raise InvalidInput(
                Text(
                    N_("%(count)s players cannot sit at tables of five and four: register or remove a player."),
                    count=players,
                ),
                field="players",
            )
        return [5] * count_of_fives + [4] * fours_needed
    fives_needed = players % 4 if fives else 0
    fours = (players - 5 * fives_needed) // 4
    if players < 4 or fours < 0 or (not fives and players % 4):
        if fives:
            raise InvalidInput(
                Text(
                    N_("%(count)s players cannot sit at tables of four and five: register or remove a player."),
                    count=players,
                ),
                field="players",
            )
        raise InvalidInput(
            Text(
                N_("%(count)s players cannot sit at tables of four: the count must be a multiple of four."),
                count=players,
            ),
            field="players",
        )
    return [5] * fives_needed + [4] * fours


def table_count(players: int, *, size: int = 4, fives: bool = True) -> int:
    """How many tables the draw makes for ``players`` (:func:`table_sizes`): what the day's
    table cards are printed for before round 1. A field the draw cannot seat yet counts as the
    next field it can (the committee registers or withdraws a player before the draw), so the
    cards never come one table short; no player, no table."""
    if players <= 0:
        return 0
    for field in range(players, players + 5 * 4 + 1):
        try:
            return len(table_sizes(field, size=size, fives=fives))
        except InvalidInput:
            continue
    raise AssertionError(players)  # every field of 16 or more is seated: unreachable


def pairs_met(tables: Sequence[Sequence[int]]) -> set[frozenset[int]]:
    """Every pair of players who shared one of ``tables``: what the next round's draw avoids."""
    return {frozenset(pair) for table in tables for pair in combinations(table, 2)}


def draw(
    players: Sequence[int],
    *,
    seed: str,
    fives: bool = True,
    size: int = 4,
    met: Collection[frozenset[int]] = (),
    sat_out: Collection[int] = (),
) -> Draw:
    """Seat ``players`` (entry numbers) for a round. ``met``: pairs who already shared a table;
    ``sat_out``: players who already sat at a five-player table (spread only with ``size`` 4,
    where a table of five is the exception)."""
    if len(set(players)) != len(players):
        raise InvalidInput(Text(N_("A player is listed twice for the draw.")), field="players")
    sizes = table_sizes(len(players), size=size, fives=fives)
    if size == 5:
        sat_out = ()
    lot = random.Random(hashlib.sha256(seed.encode()).digest())
    met_set = frozenset(met)
    fived = frozenset(sat_out)
    tables: list[list[int]] = []
    best = -1
    for _ in range(RESTARTS if len(players) <= SMALL else 1):
        order = sorted(players)
        lot.shuffle(order)
        tried: list[list[int]] = []
        for n in sizes:
            tried.append(order[:n])
            order = order[n:]
        _improve(tried, met_set, fived)
        if best < 0 or cost(tried, met_set, fived) < best:
            tables, best = tried, cost(tried, met_set, fived)
        if best == 0:
            break
    return Draw(
        seed=seed,
        tables=tuple(tuple(sorted(t)) for t in tables),
        repeats=repeats(tables, met_set),
        fives_again=sum(1 for t in tables if len(t) == 5 for p in t if p in fived),
    )


def repeats(tables: Sequence[Sequence[int]], met: Collection[frozenset[int]]) -> int:
    """Pairs of players seated together again."""
    return sum(1 for table in tables for pair in combinations(table, 2) if frozenset(pair) in met)


def cost(tables: Sequence[Sequence[int]], met: Collection[frozenset[int]], sat_out: Collection[int]) -> int:
    """What the draw lowers: repeated pairs, then players at a five-player table again."""
    fives = sum(1 for t in tables if len(t) == 5 for p in t if p in sat_out)
    return REPEAT_WEIGHT * repeats(tables, met) + fives


def _improve(tables: list[list[int]], met: frozenset[frozenset[int]], sat_out: frozenset[int]) -> None:
    """Swap players of different tables while a swap lowers the cost (first improvement, in
    seat order, which the seed fixed)."""

    known: dict[int, set[int]] = {}
    for pair in met:
        if len(pair) == 2:
            first_of, second_of = pair
            known.setdefault(first_of, set()).add(second_of)
            known.setdefault(second_of, set()).add(first_of)
    nobody: set[int] = set()

    def share(player: int, table: list[int], leaving: int) -> int:
        """What ``player`` costs at ``table`` once ``leaving`` has gone from it."""
        mates = known.get(player, nobody)
        repeated = sum(1 for other in table if other != leaving and other in mates)
        return REPEAT_WEIGHT * repeated + (1 if len(table) == 5 and player in sat_out else 0)

    for _ in range(MAX_PASSES):
        swapped = False
        for a, first in enumerate(tables):
            for b in range(a + 1, len(tables)):
                second = tables[b]
                for i, p in enumerate(first):
                    for j, q in enumerate(second):
                        before = share(p, first, p) + share(q, second, q)
                        if before == 0:
                            continue  # nothing to lower: no swap of these two can help
                        after = share(q, first, p) + share(p, second, q)
                        if after < before:
                            first[i], second[j] = q, p
                            p = q
                            swapped = True
        if not swapped:
            return
