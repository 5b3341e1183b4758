"""Games scored in points toward a target (Samba), not in payments between players.

A hand of such a game gives each team a score; a player's ``delta`` is his team's score, so a
table's running totals (kept per player by the ledger) are his team's total, and every member of
a team always shows the same figure. There is nothing to pay: the match ends when a team passes
the target. :class:`TeamScores` has the attributes the ledger reads from a
:class:`~referee.rules.settle.Settlement` (``players``, ``deltas``, ``lines``, ``payments``,
``carry``) plus the scores of each team with their lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from .settle import Line, Payment


@dataclass(frozen=True, kw_only=True)
class TeamScore:
    """A team's score for one hand and the lines that make it (they add up to ``score``)."""

    players: tuple[str, ...]
    score: int
    lines: tuple[Line, ...]

    def __post_init__(self) -> None:
        if sum(line.amount for line in self.lines) != self.score:
            raise ValueError("a team's lines must add up to its score")


@dataclass(frozen=True, kw_only=True)
class TeamScores:
    """Every team's score for one hand, in the order of the table's teams."""

    players: tuple[str, ...]
    teams: tuple[TeamScore, ...]
    lines: tuple[Line, ...] = ()  # the lines live with each team
    payments: tuple[Payment, ...] = ()
    carry: int = 0
    deltas: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        deltas = {name: team.score for team in self.teams for name in team.players}
        if sorted(deltas) != sorted(self.players) or sum(len(t.players) for t in self.teams) != len(self.players):
            raise ValueError("every player must be in exactly one team")
        object.__setattr__(self, "deltas", MappingProxyType({name: deltas[name] for name in self.players}))


def team_totals(teams: Sequence[Sequence[str]], totals: Mapping[str, int]) -> tuple[int, ...]:
    """A team's total is any member's total (they are equal by construction)."""
    return tuple(int(totals.get(team[0], 0)) for team in teams)
