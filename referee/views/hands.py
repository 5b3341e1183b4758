"""Recording a hand: one route per table, handed to the game's own guided flow."""

from __future__ import annotations

from types import ModuleType

from flask import Blueprint, abort
from flask.typing import ResponseReturnValue

from referee.views import jubileu_flow
from referee.views.tables import load, require_scorer

bp = Blueprint("hands", __name__)

FLOWS: dict[str, ModuleType] = {"jubileu": jubileu_flow}


def _flow(table_id: str) -> tuple[ModuleType, object]:
    table = load(table_id)
    require_scorer(table)
    flow = FLOWS.get(table.game)
    if flow is None:
        abort(404)
    return flow, table


@bp.get("/t/<table_id>/hand")
def record(table_id: str) -> ResponseReturnValue:
    flow, table = _flow(table_id)
    return flow.page(table)  # type: ignore[no-any-return]


@bp.post("/t/<table_id>/hand")
def save(table_id: str) -> ResponseReturnValue:
    flow, table = _flow(table_id)
    return flow.save(table)  # type: ignore[no-any-return]


@bp.post("/t/<table_id>/hand/all-pass")
def all_pass(table_id: str) -> ResponseReturnValue:
    flow, table = _flow(table_id)
    return flow.save(table, all_pass=True)  # type: ignore[no-any-return]
