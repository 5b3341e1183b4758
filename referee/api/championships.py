"""A championship, read-only, for a federation's site or a results screen.

``GET /api/v1/championships/<id>``: its settings, the ranking as it stands (places, totals and
each round's points, provisional where a table is not signed off; each entry's status out of play;
the sealed rounds whose points it holds back), and each round drawn with its
seed, how many pairs of players meet again in it and over the day so far, and its tables with
their players by card number and name. Readable by the championship's id, as its public pages
are: it shows nothing those pages do not, and no way in (no card, no token).
"""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from sqlalchemy import select

from referee import championship
from referee.championship import Standing, visible_standings
from referee.championship.ranking import Board
from referee.db import db
from referee.ledger.clock import iso
from referee.models import Championship, ChampRound, Entry

from .blueprint import bp, error


def ranking_of(found: Championship) -> Board:
    """The ranking the JSON shows: the one place it is read, so it shows what the ranking page
    shows (whatever that page hides while a round is running, this hides too, and says which
    rounds it holds back)."""
    return visible_standings(found)


def _settings(found: Championship) -> dict[str, Any]:
    return {
        "chips": found.chips,
        "rounds": found.rounds,
        "deals": found.deals,
        "minutes": found.minutes,
        "table_size": found.table_size,
        "late_until": found.late_until,
        "reentries": found.reentries,
        "reentry_points": found.reentry_points,
        "tiebreaks": list(found.tiebreaks),
    }


def _line(line: Standing) -> dict[str, Any]:
    return {
        "place": line.place,
        "number": line.number,
        "name": line.name,
        "total": line.total,
        "final": line.final,
        "reentries": line.reentries,
        "rounds": [
            None if r is None else {"points": r.points, "final": r.final, "reentries": r.reentries} for r in line.rounds
        ],
        "round_prizes": list(line.prizes),
        "status": line.status,
        "reason": line.reason,
    }


def _rounds(found: Championship) -> list[dict[str, Any]]:
    people = {e.id: e for e in db.session.scalars(select(Entry).where(Entry.championship_id == found.id))}
    again = championship.pairs_again(found)
    drawn = db.session.scalars(
        select(ChampRound).where(ChampRound.championship_id == found.id).order_by(ChampRound.number)
    )
    return [
        {
            "number": r.number,
            "seed": r.seed,
            "drawn_at": iso(r.drawn_at),
            "ends_at": iso(r.ends_at) if r.ends_at else None,
            "pairs_again": again.get(r.number, (0, 0))[0],
            "pairs_again_so_far": again.get(r.number, (0, 0))[1],
            "tables": [
                {
                    "number": t.number,
                    "signed": t.signed_at is not None,
                    "players": [{"number": people[e].number, "name": people[e].name} for e in t.entries],
                }
                for t in championship.round_tables(found, r.number)
            ],
        }
        for r in drawn
    ]


@bp.get("/championships/<championship_id>")
def championship_json(championship_id: str) -> ResponseReturnValue:
    """A championship's settings, ranking and rounds (see the module's docstring)."""
    found = championship.get(championship_id)
    if found is None:
        return error(404, "not_found", _("There is no championship with this id."))
    board = ranking_of(found)
    return jsonify(
        {
            "id": found.id,
            "name": found.name,
            "game": found.game,
            "settings": _settings(found),
            "round": championship.current_round(found),
            "ranking": [_line(line) for line in board.lines],
            "sealed": list(board.sealed),
            "rounds": _rounds(found),
        }
    )
