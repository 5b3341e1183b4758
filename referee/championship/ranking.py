"""The ranking: one chip, one point, round by round, places with the stated tie-breaks.

:func:`rank` is the arithmetic alone (property-tested); :func:`standings` reads what it needs
in four queries whatever the size of the field: the entries, the round tables, the seats' net
results (kept by the ledger with every hand) and the re-entries.

A round's points are the chips a player ends it with, less the chips his re-entries brought when
the championship says a re-entry buys play and not points. A table not yet signed off gives
provisional points (what its chips say now); a round a player did not sit (a late entry) gives
none. Places follow the total, then each tie-break in the order the manager chose; players
still level after them share the place.

A withdrawn or absent player keeps his line and his place (his points are his), with a mark. A
disqualified player has no place: his line comes after every ranked one, with the reason, and
his points take no round's star (the regulation's spirit: he is out of the contest, and nobody
is ranked below him for it).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import func, select

from referee.championship.signoff import final_chips
from referee.db import db
from referee.documents import csv_cell
from referee.models import Championship, Entry, Reentry, RoundTable, Seat


@dataclass(frozen=True)
class Played:
    """One entry's round: its points, whether its table is signed off, its re-entries."""

    points: int
    final: bool
    reentries: int = 0


@dataclass(frozen=True)
class Standing:
    """One line of the ranking."""

    number: int
    name: str
    rounds: tuple[Played | None, ...]
    place: int = 0
    total: int = 0
    reentries: int = 0
    best_round: int = 0
    last_round: int = 0
    prizes: tuple[int, ...] = field(default=())  # the rounds this entry had the best points of
    status: str = ""  # "", or the entry's state out of play (referee.championship.status)
    reason: str = ""  # a disqualification's

    @property
    def final(self) -> bool:
        return all(r is None or r.final for r in self.rounds)


def _signed(played: Played | None) -> int | None:
    """A round's points where its table is signed off: only these compete for the round's star."""
    return None if played is None or not played.final else played.points


def _key(line: Standing, tiebreaks: Sequence[str]) -> tuple[int, ...]:
    """Sort key, the best first: the total, then the tie-breaks in their order."""
    keys = [-line.total]
    for tiebreak in tiebreaks:
        if tiebreak == "best_round":
            keys.append(-line.best_round)
        elif tiebreak == "fewer_reentries":
            keys.append(line.reentries)
        elif tiebreak == "last_round":
            keys.append(-line.last_round)
    return tuple(keys)


def rank(
    entries: Mapping[int, str], played: Mapping[int, Sequence[Played | None]], rounds: int, tiebreaks: Sequence[str]
) -> list[Standing]:
    """The ranking of ``entries`` (number: name) from each entry's rounds (``played``, by
    number; a round not played is None), best first, with the round stars.

    A round's star (``Standing.prizes``) goes to the best points among the tables of that round
    already signed off: none before the first signature, none for a round nobody has played, and
    players level on those points share it (the ranking's tie-breaks do not split a star)."""
    lines = []
    for number, name in entries.items():
        row = tuple(played.get(number, ())) + (None,) * rounds
        row = row[:rounds]
        points = [r.points for r in row if r is not None]
        lines.append(
            Standing(
                number=number,
                name=name,
                rounds=row,
                total=sum(points),
                reentries=sum(r.reentries for r in row if r is not None),
                best_round=max(points, default=0),
                last_round=next((r.points for r in reversed(row) if r is not None), 0),
            )
        )
    best = {
        k: max((p for line in lines if (p := _signed(line.rounds[k])) is not None), default=None) for k in range(rounds)
    }
    ordered = sorted(lines, key=lambda line: (_key(line, tiebreaks), line.number))
    placed: list[Standing] = []
    for i, line in enumerate(ordered):
        same = i > 0 and _key(line, tiebreaks) == _key(ordered[i - 1], tiebreaks)
        place = placed[-1].place if same else i + 1
        prizes = tuple(k + 1 for k in range(rounds) if best[k] is not None and _signed(line.rounds[k]) == best[k])
        placed.append(replace(line, place=place, prizes=prizes))
    return placed


@dataclass(frozen=True)
class Board:
    """The ranking as the public pages, the CSV and the API show it: ``lines``, and the rounds
    whose points are hidden (``sealed``) because the championship seals the round and one of
    their tables is not signed off yet."""

    lines: list[Standing]
    sealed: tuple[int, ...] = ()


def visible_standings(championship: Championship) -> Board:
    """The ranking every reader shows: the one function behind the ranking page, the TV, the
    players' pages, the CSV and the prize list.

    With the round sealed (``Championship.sealed``), a round counts only once every one of its
    tables is signed off: until then the points stand as they did after the last round fully
    signed, so a player ahead gains nothing by slowing his table down (he cannot see where he
    stands), and the others cannot play against a live number."""
    return _standings(championship, seal=championship.sealed)


def standings(championship: Championship) -> list[Standing]:
    """The championship's ranking as it stands (provisional where a table is not signed off),
    seal or not: the committee's view. The pages read :func:`visible_standings`."""
    return _standings(championship, seal=False).lines


def _standings(championship: Championship, *, seal: bool) -> Board:
    entries = list(
        db.session.execute(
            select(Entry.id, Entry.number, Entry.name, Entry.status, Entry.status_reason).where(
                Entry.championship_id == championship.id
            )
        )
    )
    number_of = {entry_id: number for entry_id, number, *_rest in entries}
    tables = list(db.session.scalars(select(RoundTable).where(RoundTable.championship_id == championship.id)))
    nets: dict[str, dict[int, int]] = defaultdict(dict)
    seats = select(Seat.table_id, Seat.position, Seat.net).join(RoundTable, RoundTable.table_id == Seat.table_id)
    for table_id, position, net in db.session.execute(seats.where(RoundTable.championship_id == championship.id)):
        nets[table_id][position] = net
    bought: dict[tuple[int, int], tuple[int, int]] = {}
    for entry_id, round_number, chips, count in db.session.execute(
        select(Reentry.entry_id, Reentry.round, func.sum(Reentry.chips), func.count())
        .where(Reentry.championship_id == championship.id, Reentry.undone_at.is_(None))
        .group_by(Reentry.entry_id, Reentry.round)
    ):
        bought[(entry_id, round_number)] = (int(chips), int(count))
    repaid = championship.reentry_points == "repaid"
    played: dict[int, list[Played | None]] = {number: [None] * championship.rounds for number in number_of.values()}
    hidden = sorted({row.round for row in tables if row.signed_at is None}) if seal else []
    for row in tables:
        if row.round > championship.rounds or row.round in hidden:
            continue
        extras = {entry_id: bought.get((entry_id, row.round), (0, 0))[0] for entry_id in row.entries}
        for entry_id, chips in final_chips(championship, row, extras, nets[row.table_id]).items():
            extra, count = bought.get((entry_id, row.round), (0, 0))
            points = chips - extra if repaid else chips
            played[number_of[entry_id]][row.round - 1] = Played(points, row.signed_at is not None, count)
    return Board(_ranked(championship, entries, played), tuple(hidden))


def _ranked(
    championship: Championship, entries: Sequence[Any], played: Mapping[int, Sequence[Played | None]]
) -> list[Standing]:
    """The places among the players not disqualified; the disqualified after them, with no
    place and no star, each line with its status and reason."""
    state = {number: (status, reason) for _id, number, _name, status, reason in entries}
    out = {number for number, (status, _reason) in state.items() if status == "disqualified"}
    ranked = rank(
        {number: name for _id, number, name, *_rest in entries if number not in out},
        played,
        championship.rounds,
        championship.tiebreaks,
    )
    ranked += [
        replace(line, place=0, prizes=())
        for line in rank(
            {number: name for _id, number, name, *_rest in entries if number in out},
            played,
            championship.rounds,
            championship.tiebreaks,
        )
    ]
    return [replace(line, status=state[line.number][0], reason=state[line.number][1]) for line in ranked]


def ranking_csv(championship: Championship, lines: Sequence[Standing]) -> str:
    """The ranking as CSV (RFC 4180, CRLF, a header row): place, number, name, each round's
    points (empty for a round not played), total, re-entries, whether every table the line
    counts is signed off, and the entry's state out of play (with a disqualification's reason;
    a disqualified line's place is empty). Names a spreadsheet would run as a formula get a leading apostrophe."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    rounds = [f"round_{k}" for k in range(1, championship.rounds + 1)]
    writer.writerow(["place", "number", "name", *rounds, "total", "reentries", "final", "status", "reason"])
    for line in lines:
        points = ["" if r is None else r.points for r in line.rounds]
        writer.writerow(
            [
                line.place or "",
                line.number,
                csv_cell(line.name),
                *points,
                line.total,
                line.reentries,
                int(line.final),
                line.status,
                csv_cell(line.reason),
            ]
        )
    return out.getvalue()
