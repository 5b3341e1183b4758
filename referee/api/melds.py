"""The API's Samba meld check: each meld's verdict and the opening's, as JSON.

The meld checker page (referee.views.melds) and this answer judge with the same rules
(:mod:`referee.rules.samba_melds`); the answer lives with the API, below the views, so the API
imports no view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee import ledger
from referee.i18n import render_text
from referee.rules import samba, samba_melds
from referee.rules.errors import InconsistentHand, InvalidInput
from referee.rules.samba_melds import check_meld, check_opening
from referee.rules.text import N_, Text


def meld_answer(body: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /samba/meld-check``: each meld's verdict and, when a minimum is known (given, from
    the team's total, or from a team at a table), the opening's. Rendered in the current language."""
    body = dict(body)
    table_id, team = body.pop("table", None), body.pop("team", None)
    asked = samba_melds.parse_check(body)
    options, required = _team_minimum(table_id, team)
    if required is None:
        required = asked.minimum(options)
    melds = [check_meld(meld, going_out=asked.going_out) for meld in asked.melds]
    answer: dict[str, Any] = {
        "legal": all(m.legal for m in melds),
        "melds": [m.to_json(render_text) for m in melds],
        "opening": None,
    }
    if required is not None:
        opening = check_opening(
            asked.melds, required=required, discard_top=asked.discard_top, going_out=asked.going_out
        )
        answer["opening"] = opening.to_json(render_text)
    return answer


def _team_minimum(table_id: object, team: object) -> tuple[Any, int | None]:
    """The house rules and the opening minimum of ``team`` (an index) at table ``table_id``;
    the default rules and no minimum when no table is named."""
    if table_id is None:
        if team is not None:
            raise InvalidInput(Text(N_("team can only be given together with table.")), field="team")
        return samba.SambaOptions(), None
    if not isinstance(table_id, str):
        raise InvalidInput(Text(N_("table must be a table id.")), field="table")
    table = ledger.get_table(table_id)
    match = ledger.standing(table)
    if match is None:
        raise InconsistentHand(Text(N_("This table does not play Samba.")), field="table")
    if isinstance(team, bool) or not isinstance(team, int) or not 0 <= team < len(match["teams"]):
        raise InvalidInput(Text(N_("team must be the index of one of the table's teams.")), field="team")
    return ledger.options_of(table), int(match["teams"][team]["min_meld"])
