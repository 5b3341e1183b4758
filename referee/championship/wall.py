"""The wall (the TV view) at a full day's size: the round's plan and the whole ranking, a page
at a time, each page filling the screen in type that reads from across the room.

Why pages of a fixed number of lines: at 300 players the plan has 75 tables and the ranking 300
lines; no type that reads from the back of a hall fits them on one screen, and a screen that
scrolls at its own pace loses the player looking for his line. So the server cuts both into
pages of :data:`PLAN_ROWS` x :data:`PLAN_COLUMNS` tables and :data:`RANK_ROWS` x
:data:`RANK_COLUMNS` lines; the type is sized from the screen's height (a line is a fixed share
of it), so a 1280x720 and a 1920x1080 screen show the same pages, only larger. The page's script
(static/js/wall.js) shows one page at a time for :data:`SECONDS_PER_PAGE` seconds and starts
again after the last: every line is on screen once a cycle. Without the script every page is
shown, one below the other, and the wall scrolls like any page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

#: A plan page: three columns of ten tables (a table's line holds its number and four or five
#: card numbers).
PLAN_COLUMNS = 3
PLAN_ROWS = 10
#: A ranking page: three columns of twelve lines (place, card number, name, points).
RANK_COLUMNS = 3
RANK_ROWS = 12
#: How long each page stays on the wall: time to find one's number in a column and read it.
SECONDS_PER_PAGE = 8


@dataclass(frozen=True)
class Page(Generic[T]):
    """One screen of the wall: what it shows (``plan`` or ``ranking``), its lines, and its place
    in its part (``index`` of ``of``, from 1)."""

    part: str
    index: int
    of: int
    lines: Sequence[T]

    @property
    def key(self) -> str:
        """What names the page across redraws (the script keeps showing the same page)."""
        return f"{self.part}-{self.index}"


def cut(part: str, lines: Sequence[T], per_page: int) -> list[Page[T]]:
    """``lines`` in pages of ``per_page`` (none for no lines).

    >>> [len(p.lines) for p in cut("plan", list(range(75)), 30)]
    [30, 30, 15]
    >>> cut("plan", [], 30)
    []
    """
    chunks = [lines[i : i + per_page] for i in range(0, len(lines), per_page)]
    return [Page(part, n, len(chunks), chunk) for n, chunk in enumerate(chunks, start=1)]


def plan_pages(tables: Sequence[T]) -> list[Page[T]]:
    return cut("plan", tables, PLAN_ROWS * PLAN_COLUMNS)


def ranking_pages(lines: Sequence[T]) -> list[Page[T]]:
    return cut("ranking", lines, RANK_ROWS * RANK_COLUMNS)


@dataclass(frozen=True)
class Figures:
    """The wall's paging for a day of ``tables`` tables and ``players`` ranking lines."""

    plan_pages: int
    ranking_pages: int
    plan_lines: int
    ranking_lines: int
    seconds: int

    @property
    def pages(self) -> int:
        return self.plan_pages + self.ranking_pages

    @property
    def cycle(self) -> int:
        """Seconds until every page has been shown once."""
        return self.pages * self.seconds


def figures(tables: int, players: int) -> Figures:
    """The paging at a given size, for the bench and the docs.

    >>> f = figures(75, 300)
    >>> (f.plan_pages, f.ranking_pages, f.pages, f.cycle)
    (3, 9, 12, 96)
    """
    per_plan, per_rank = PLAN_ROWS * PLAN_COLUMNS, RANK_ROWS * RANK_COLUMNS
    return Figures(
        plan_pages=-(-tables // per_plan),
        ranking_pages=-(-players // per_rank),
        plan_lines=per_plan,
        ranking_lines=per_rank,
        seconds=SECONDS_PER_PAGE,
    )
