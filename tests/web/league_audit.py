"""The league's standings recomputed from the hands alone, for the tests only.

The app reads standings from the counters every write keeps on the seats (:func:`referee.league.standings`);
the tests (and the league benchmark) recompute them the slow way, from every live hand's deltas, and hold the
two equal.
"""

from __future__ import annotations

from sqlalchemy import func, select

from referee import ledger
from referee.db import db
from referee.league import Row, _live, _ordered, _with_losses, patience_rows, season_tables
from referee.models import Hand, HandDelta, Member, Season
from referee.rules import get_game


def standings_from_hands(game: str, season: Season | None = None) -> list[Row]:
    """The same standings recomputed from the hands alone (every live hand's deltas, and for a
    game played to a target each match's winner from its totals): the check on the seats'
    counters, and what an auditor would compute by hand."""
    if get_game(game).kind.ranked_by == "patience":
        return patience_rows(game, season)
    live = _live()
    per: dict[int, dict[str, int]] = {}
    names: dict[int, str] = {}
    for table in db.session.scalars(season_tables(season, game)):
        seats = {s.position: s for s in table.seats}
        counts = db.session.execute(
            select(HandDelta.seat, func.sum(HandDelta.amount), func.count())
            .join(Hand, Hand.id == HandDelta.hand_id)
            .where(Hand.table_id == table.id, live)
            .group_by(HandDelta.seat)
        ).all()
        balances = {seats[pos].name: int(amount) for pos, amount, _ in counts}
        winners = ledger.match_winners(table, {s.name: balances.get(s.name, 0) for s in table.seats})
        for pos, amount, count in counts:
            seat = seats[pos]
            if seat.member_id is None or not count:
                continue
            entry = per.setdefault(seat.member_id, {"tables": 0, "hands": 0, "net": 0, "won": 0})
            entry["tables"] += 1
            entry["hands"] += int(count)
            entry["net"] += int(amount)
            entry["won"] += seat.name in winners
    for member in db.session.scalars(select(Member).where(Member.id.in_(list(per)))):
        names[member.id] = member.name
    rows = [Row(i, names[i], e["tables"], e["hands"], e["net"], e["won"]) for i, e in per.items()]
    return _ordered(_with_losses(rows, game, season), game)
