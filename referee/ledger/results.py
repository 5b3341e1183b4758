"""What the referee says of a hand, as stored with it (``Hand.result``): its deltas, the contract,
the "why this score" lines and the payments, and for a game scored toward a target each team's
score. Sentences are stored as msgids; the pages and the API render them in their reader's
language (referee.api.answers).

A hand's own figures (its deltas, lines, payments, a team's score) never change: a correction is
a new hand, so they are stored. What follows from the hands before it (the running totals, a
team's total and next opening meld, the match's end) is only true until an earlier hand is
corrected or voided, so it is not stored: an answer adds it (:func:`with_figures`), worked out
with the hand when it is recorded, else from the live hands' deltas (:func:`as_it_stands`).
Hands recorded by earlier versions still carry a copy; it is never read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, bindparam, func, or_, select

from referee.db import db
from referee.models import Hand, HandDelta, Table, voided
from referee.rules.scores import TeamScores
from referee.rules.settle import Line, Settlement
from referee.rules.text import N_, NP_, text_to_json

from .state import standing, totals
from .tables import options_of, players_of

#: Sentences that hands recorded by earlier versions carry in their stored "why" lines, since
#: reworded (they now agree with their count). Listed here so the catalogues keep their
#: translations and those hands still read in the reader's language.
EARLIER_SENTENCES = (
    N_("%(kind)s lost by %(name)s with %(figures)s figures."),
    N_("%(kind)s won by %(name)s with %(figures)s figures."),
    N_("%(names)s backed %(horses)s and share %(rest)s chips in proportion to their bets."),
    N_("%(names)s tie with %(rank)s and share it: %(each)s chips each."),
    N_("%(pot)s: %(chips)s chips to %(name)s, without a showdown."),
    N_("%(pot)s: %(chips)s chips; cards shown: %(cards)s."),
    N_("Nobody backed %(horses)s: the %(rest)s chips stay on the table for the next race."),
    N_("Normal rate from the soloist's %(figures)s figures: %(points)s."),
    N_("Normal rate from the winning side's %(figures)s figures: %(points)s."),
    N_(
        "The pot: %(count)s players put in %(staked)s chips (pingo %(pingo)s each plus their bets), with %(carried)s carried in from earlier races: %(pot)s."
    ),
    N_(
        "Nobody backed %(horses)s: every player takes back what he put in; the %(carried)s chips carried in stay on the table."
    ),
    N_(
        "Mancha: %(name)s, the caller, made only %(count)s figures in his own pile (fewer than 9) and pays for both; %(partner)s pays nothing."
    ),
)

#: The same for sentences with a singular and a plural (Lift Smoke's pot, before its lines
#: became a sum: the antes, then the pot under them).
EARLIER_PLURALS = (
    NP_(
        "The pot: %(players)s players ante %(count)s chip each, plus %(carried)s carried in: %(pot)s.",
        "The pot: %(players)s players ante %(count)s chips each, plus %(carried)s carried in: %(pot)s.",
    ),
    NP_(
        "The pot: %(players)s players ante %(count)s chip each: %(pot)s.",
        "The pot: %(players)s players ante %(count)s chips each: %(pot)s.",
    ),
)


@dataclass(frozen=True)
class Preview:
    """A validated, settled hand not yet stored: what the confirm step shows."""

    number: int
    dealer: str
    hand: Any
    settlement: Settlement | TeamScores
    next_dealer: str
    contract: Mapping[str, object]


def running(table: Table, preview: Preview, replaced: Hand | None = None) -> dict[str, int]:
    """Each player's total once ``preview`` is counted (and the hand it corrects is not)."""
    counted = totals(table)
    for name, delta in (replaced.result["deltas"] if replaced else {}).items():
        counted[name] -= int(delta)
    for name, delta in preview.settlement.deltas.items():
        counted[name] += delta
    return counted


def result(
    table: Table, preview: Preview, after: dict[str, int], *, number: int, match: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The stored result of a hand, its own figures only: the one shape a recorded hand and a
    preview are both answered from (with :func:`with_figures`). ``match``: the standing once
    the hand is counted (a scored game's teams are named from it)."""
    players = players_of(table)
    stored: dict[str, Any] = {
        "number": number,
        "dealer": preview.dealer,
        "next_dealer": preview.next_dealer,
        "deltas": {name: preview.settlement.deltas[name] for name in players},
        "contract": dict(preview.contract),
        "lines": lines_json(preview.settlement.lines),
        "payments": payments_json(preview.settlement),
        **match_json(match, preview.settlement),
    }
    if preview.settlement.carry:
        stored["carry"] = preview.settlement.carry
    return stored


def lines_json(lines: Sequence[Line]) -> list[dict[str, Any]]:
    """Lines as stored; ``total`` only on the lines that sum those above them (older records
    have none, and read as they always did)."""
    return [
        {"text": text_to_json(line.text), "amount": line.amount, **({"total": True} if line.total else {})}
        for line in lines
    ]


def match_json(match: Mapping[str, Any] | None, outcome: Settlement | TeamScores) -> dict[str, Any]:
    """What a hand of a scored game adds to its stored result: each team (its players) with its
    score and lines (nothing for other games). ``match``: the standing after the hand."""
    if match is None or not isinstance(outcome, TeamScores):
        return {}
    teams = [
        {"players": team["players"], "score": score.score, "lines": lines_json(score.lines)}
        for team, score in zip(match["teams"], outcome.teams)
    ]
    return {"teams": teams}


def with_figures(
    stored: Mapping[str, Any], after: Mapping[str, int], match: Mapping[str, Any] | None
) -> dict[str, Any]:
    """``stored`` with what follows from the hands up to it: ``after``, the running totals, and
    for a scored game ``match``, their standing (each team's total and next opening meld, the
    match's end)."""
    restated = {**stored, "totals": dict(after)}
    if "teams" not in stored or match is None:
        return restated
    restated["teams"] = [
        {**now, "score": team["score"], "lines": team.get("lines", [])}
        for now, team in zip(match["teams"], stored["teams"])
    ]
    restated.update(finished=match["finished"], winner=match["winner"])
    return restated


def payments_json(settlement: Settlement | TeamScores) -> list[dict[str, Any]]:
    """Who pays whom in a hand."""
    return [{"from": p.payer, "to": p.payee, "amount": p.amount} for p in settlement.payments]


# Each seat's deltas over the live hands played before a place in play (position, then number:
# a correction comes after the hand it voids, in the same position).
_BEFORE = (
    select(HandDelta.seat, func.sum(HandDelta.amount))
    .join(Hand, Hand.id == HandDelta.hand_id)
    .where(
        Hand.table_id == bindparam("table_id"),
        ~voided(),
        or_(
            Hand.position < bindparam("position"),
            and_(Hand.position == bindparam("position"), Hand.number < bindparam("number")),
        ),
    )
    .group_by(HandDelta.seat)
)


def as_it_stands(table: Table, hands: Sequence[Hand], *, from_start: bool = False) -> dict[int, dict[str, Any]]:
    """Each hand's stored result (by its number) with what follows from the hands before it
    restated from the live hands as they stand now: the running totals and, for a game scored
    toward a target, each team's total, next opening meld and the match's end.

    ``hands`` must be consecutive in play (position, then number), such as every hand of the
    table (``from_start``: nothing comes before the first, and nothing is read) or one hand
    (one aggregate over the deltas before it). A void hand counts for nothing: its totals are
    those of its place without it."""
    ordered = sorted(hands, key=lambda hand: (hand.position, hand.number))
    if not ordered:
        return {}
    players = players_of(table)
    running = dict.fromkeys(players, 0)
    if not from_start:
        first = ordered[0]
        bind = {"table_id": table.id, "position": first.position, "number": first.number}
        for seat, amount in db.session.execute(_BEFORE, bind):
            running[players[seat]] = int(amount)
    options = options_of(table) if any("teams" in hand.result for hand in ordered) else None
    restated: dict[int, dict[str, Any]] = {}
    for hand in ordered:
        if not hand.is_void:
            for name, delta in hand.result["deltas"].items():
                if name in running:
                    running[name] += int(delta)
        restated[hand.number] = _restated(table, hand.result, dict(running), options)
    return restated


def _restated(table: Table, stored: Mapping[str, Any], after: dict[str, int], options: Any) -> dict[str, Any]:
    """``stored`` with ``after`` as its totals (and their standing, for a scored game)."""
    return with_figures(stored, after, standing(table, after, options) if "teams" in stored else None)
