"""The JSON API's answers: a hand, a voided hand, a preview, a table, as dicts ready for
``jsonify``. The ledger stores a hand's result with its sentences as msgids; they are rendered
here, in the table's language (a hand) or the current one (a preview, the "why" lines).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee import ledger
from referee.i18n import in_locale, render_text
from referee.ledger.clock import iso
from referee.ledger.idempotency import RENDERED
from referee.ledger.results import result, running, with_figures
from referee.models import Hand, HandEvent, Table
from referee.rules.text import text_from_json


def breakdown(stored: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A stored hand's "why this score" lines, rendered in the current language (for a team
    game, every team's lines in turn, each marked with its team's index)."""
    lines = [_line(line) for line in stored.get("lines", [])]
    for i, team in enumerate(stored.get("teams", [])):
        lines.extend({**_line(line), "team": i} for line in team.get("lines", []))
    return lines


def _line(line: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "label": render_text(text_from_json(line["text"])),
        "amount": line["amount"],
        "total": bool(line.get("total")),
    }


def teams_answer(stored: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A team game's hand: each team's score, new total, next opening meld and breakdown."""
    return [
        {
            "players": team["players"],
            "score": team["score"],
            "total": team["total"],
            "min_meld": team["min_meld"],
            "breakdown": [_line(line) for line in team.get("lines", [])],
        }
        for team in stored.get("teams", [])
    ]


def hand_answer(
    table: Table,
    hand: Hand,
    numbering: ledger.Numbering | None = None,
    stands: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A stored hand as the API answers it, in the table's language, with ``display_number``:
    its place in play now (``numbering``, when the caller has it, else asked of the ledger).
    Its totals are those the live hands make now (``stands``: its result as it stands, when
    the caller has it, else asked of the ledger), never a copy an earlier correction outdated."""
    answer = _answer(
        table,
        number=hand.number,
        result=stands if stands is not None else ledger.as_it_stands(table, [hand])[hand.number],
        record=hand.record,
        void=hand.void_event,
        status=hand.status,
        confirmed=hand.confirm_event,
    )
    answer["display_number"] = (numbering or ledger.numbering(table)).of(hand)
    return answer


def new_hand_answer(
    table: Table, *, number: int, result: Mapping[str, Any], record: Mapping[str, Any], display_number: int
) -> dict[str, Any]:
    """A hand being recorded as the API answers it (and stores under an Idempotency-Key), with
    the place in play it takes (``display_number``)."""
    answer = _answer(table, number=number, result=result, record=record, void=None)
    answer["display_number"] = display_number
    return answer


def saved_answer(table: Table, saved: Mapping[str, Any]) -> dict[str, Any]:
    """The answer to ``POST …/hands``: the hand as the ledger saved it (or gave back for a
    retried Idempotency-Key), rendered in the table's language."""
    if RENDERED in saved:  # kept whole by an older version: given back as it was
        return dict(saved[RENDERED])
    return new_hand_answer(
        table, number=saved["number"], result=saved, record=saved["record"], display_number=saved["display_number"]
    )


def _answer(
    table: Table,
    *,
    number: int,
    result: Mapping[str, Any],
    record: Mapping[str, Any],
    void: HandEvent | None,
    status: str | None = None,
    confirmed: HandEvent | None = None,
) -> dict[str, Any]:
    with in_locale(table.locale):
        answer = _render(number, result)
    answer["game"] = table.game  # which game's record this is (the document's discriminator)
    answer["record"] = record
    for link in ("replaces", "restores"):  # a correction, or a hand undone and brought back
        if link in result:
            answer[link] = result[link]
    if result.get("two_key"):
        answer["status"] = status or "to_confirm"
        if confirmed is not None:
            answer["confirmed"] = {"at": iso(confirmed.at), "by": confirmed.actor}
    if void is not None:
        answer["void"] = True
        answer["voided"] = {"at": iso(void.at), "by": void.actor, "reason": void.reason}
    return answer


def _render(number: int, stored: Mapping[str, Any]) -> dict[str, Any]:
    """A hand's result as the API answers it, its sentences in the current language."""
    answer: dict[str, Any] = {
        "number": number,
        "dealer": stored["dealer"],
        "next_dealer": stored["next_dealer"],
        "deltas": stored["deltas"],
        "totals": stored["totals"],
        "contract": stored["contract"],
        "breakdown": breakdown(stored),
        "payments": stored.get("payments", []),
    }
    if "teams" in stored:
        answer.update(teams=teams_answer(stored), finished=stored["finished"], winner=stored["winner"])
    return answer


def preview_answer(table: Table, preview: ledger.Preview) -> dict[str, Any]:
    """A judged, unstored hand as the API answers it (``POST …/hands/preview``): the same
    figures a stored hand would have, totals included, in the current language."""
    after = running(table, preview)
    match = ledger.standing(table, after)
    return _render(
        preview.number, with_figures(result(table, preview, after, number=preview.number, match=match), after, match)
    )


def void_answer(table: Table, hand: Hand) -> dict[str, Any]:
    """``POST …/void``: the voided hand as stored, with the table as it stands now (totals,
    next dealer and, for a match, each team's total and whether the match is over)."""
    answer = hand_answer(table, hand)
    answer["totals"] = ledger.totals(table)
    answer["next_dealer"] = ledger.current_dealer(table)
    match = ledger.standing(table)
    if match is not None:
        for team, now in zip(answer.get("teams", []), match["teams"]):
            team.update(total=now["total"], min_meld=now["min_meld"])
        answer.update(finished=match["finished"], winner=match["winner"])
    return answer


def table_answer(table: Table, *, urls: Mapping[str, str]) -> dict[str, Any]:
    """``GET /tables/{id}``: the table as created (no token), its hands, totals and the dealer."""
    hands = ledger.all_hands(table)
    numbering = ledger.numbering(table, hands)
    stands = ledger.as_it_stands(table, hands, from_start=True)
    match = ledger.standing(table)
    return {
        "id": table.id,
        "game": table.game,
        "name": table.name,
        "players": list(ledger.players_of(table)),
        "options": table.options,
        "language": table.locale.replace("_", "-"),
        "created_at": iso(table.created_at),
        "hands": [hand_answer(table, h, numbering, stands[h.number]) for h in hands],
        "totals": ledger.totals(table),
        "stock": ledger.stock(table),
        "next_dealer": ledger.current_dealer(table),
        "next_number": ledger.next_number(table),
        "teams": [list(team) for team in ledger.teams_of(table)],
        "finished": table.finished_at is not None or bool(match and match["finished"]),
        "winner": match["winner"] if match else None,
        **({"match": match["teams"]} if match else {}),
        "follows": table.follows,
        "two_key": table.two_key,
        "rematch": ledger.rematch_of(table),
        "last_round": ledger.last_round(table),
        "clock": ledger.clock(table),
        **({"on_the_table": pot} if (pot := ledger.pot_shown(table)) is not None else {}),
        "urls": dict(urls),
    }
