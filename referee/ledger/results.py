"""What the referee says of a hand, as stored with it (``Hand.result``): its deltas, the totals
after it, the contract, the "why this score" lines and the payments, and for a game scored
toward a target each team's score and the match's end. Sentences are stored as msgids; the
pages and the API render them in their reader's language (referee.api.answers).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.models import Hand, Table
from referee.rules.scores import TeamScores
from referee.rules.settle import Line, Settlement
from referee.rules.text import N_, NP_, text_to_json

from .state import totals
from .tables import players_of

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
    """The stored result of a hand: the one shape a recorded hand and a preview are both
    answered from. ``after``: the totals once it is counted; ``match``: their standing."""
    players = players_of(table)
    stored: dict[str, Any] = {
        "number": number,
        "dealer": preview.dealer,
        "next_dealer": preview.next_dealer,
        "deltas": {name: preview.settlement.deltas[name] for name in players},
        "totals": after,
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
    """What a hand of a scored game adds to its stored result: each team's score with its lines,
    its new total and next opening meld, and the match's end (nothing for other games).
    ``match``: the standing after the hand."""
    if match is None or not isinstance(outcome, TeamScores):
        return {}
    teams = [
        {**team, "score": score.score, "lines": lines_json(score.lines)}
        for team, score in zip(match["teams"], outcome.teams)
    ]
    return {"teams": teams, "finished": match["finished"], "winner": match["winner"]}


def payments_json(settlement: Settlement | TeamScores) -> list[dict[str, Any]]:
    """Who pays whom in a hand."""
    return [{"from": p.payer, "to": p.payee, "amount": p.amount} for p in settlement.payments]
