"""Recording a hand: one route per table, handed to the game's own guided flow."""

from __future__ import annotations

from flask import Blueprint, abort
from flask.typing import ResponseReturnValue

from referee.models import Table
from referee.views import flow
from referee.views.derby_flow import DerbyFlow
from referee.views.injun_flow import InjunFlow
from referee.views.jubileu_flow import JubileuFlow
from referee.views.quatrilho_flow import QuatrilhoFlow
from referee.views.samba_flow import SambaFlow
from referee.views.short_flow import SHORT_FLOWS
from referee.views.tables import load, require_scorer

bp = Blueprint("hands", __name__)

FLOWS: dict[str, type[flow.Flow]] = {
    "jubileu": JubileuFlow,
    "quatrilho": QuatrilhoFlow,
    "samba": SambaFlow,
    "injun": InjunFlow,
    "kentucky_derby": DerbyFlow,
    **SHORT_FLOWS,
}


def _table_and_flow(table_id: str) -> tuple[Table, type[flow.Flow]]:
    table = load(table_id)
    require_scorer(table)
    flow_class = FLOWS.get(table.game)
    if flow_class is None:
        abort(404)
    return table, flow_class


@bp.get("/t/<table_id>/hand")
def record(table_id: str) -> ResponseReturnValue:
    return flow.page(*_table_and_flow(table_id))


@bp.post("/t/<table_id>/hand")
def save(table_id: str) -> ResponseReturnValue:
    return flow.save(*_table_and_flow(table_id))


@bp.post("/t/<table_id>/hand/all-pass")
def all_pass(table_id: str) -> ResponseReturnValue:
    """Jubileu's two-tap "everybody passed" (the form carries all_pass=1)."""
    return flow.save(*_table_and_flow(table_id))
