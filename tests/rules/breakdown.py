"""The check every "why this score" breakdown must pass: its amounts add up as written.

A breakdown is read top to bottom like a paper sum: the amounts of the lines above a total add
up to that total, and the next group starts under it. A line with no amount is words only. A
breakdown without any total may show a single amount (the one figure the hand turns on), never
several that the reader would have to add up without being told to what.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.rules.settle import Line


def totals(lines: Sequence[Line]) -> list[int]:
    """The totals of a breakdown, top to bottom, after checking that every group adds up."""
    found: list[int] = []
    group: list[int] = []
    for line in lines:
        if getattr(line, "total", False):
            assert sum(group) == line.amount, f"{group} do not add up to the total {line.amount} ({line.text})"
            found.append(line.amount)
            group = []
        elif line.amount:
            group.append(line.amount)
    if found:
        assert not group, f"amounts {group} under the last total add up to nothing"
    else:
        assert len(group) <= 1, f"amounts {group} with no total to add up to"
    return found


def last_figure(lines: Sequence[Line]) -> int:
    """The figure a breakdown ends on: its last total, else its only amount (0 if none)."""
    found = totals(lines)
    if found:
        return found[-1]
    return next((line.amount for line in lines if line.amount), 0)
