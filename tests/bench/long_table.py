"""A table with a long history, built in seconds: a few hands recorded through the ledger, then
copied row for row (the hand, its deltas) up to the size wanted, and the table's state rebuilt
from them. The copies' stored results keep the totals of the hand they copy; nothing that
answers reads those (every answer restates a hand's totals from the live hands)."""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import insert, select

from referee import ledger
from referee.extensions import db
from referee.ledger.state import rebuild_state, save_state
from referee.models import Hand, HandDelta

from .hands import PLAYERS, record

#: Hands recorded for real before copying: whole turns of the deal, so the copies rotate too.
RECORDED = 8


def long_table(app: Flask, hands: int, token_holder: dict[str, Any] | None = None) -> str:
    """A new Jubileu table of ``hands`` hands; answers its id (its token into ``token_holder``)."""
    with app.app_context():
        table, token = ledger.create_table(game="jubileu", players=list(PLAYERS), locale="en")
        if token_holder is not None:
            token_holder["token"] = token
        for k in range(min(hands, RECORDED)):
            ledger.record_hand(table, record(PLAYERS, k), actor="bench", commit=False)
        db.session.commit()
        if hands > RECORDED:
            _copy(table.id, hands)
            table = ledger.get_table(table.id)
            save_state(table, rebuild_state(table))
            db.session.commit()
        return table.id


def _copy(table_id: str, hands: int) -> None:
    """Hands RECORDED+1 .. ``hands``, each a copy of the recorded hand in the same turn."""
    models = list(db.session.scalars(select(Hand).where(Hand.table_id == table_id).order_by(Hand.number)))
    deltas = {
        hand.id: [(d.seat, d.amount) for d in hand.deltas] for hand in models
    }  # the seats that took part, as stored
    rows = []
    for number in range(RECORDED + 1, hands + 1):
        model = models[(number - 1) % RECORDED]
        rows.append(
            {
                "table_id": table_id,
                "number": number,
                "position": number,
                "dealer": model.dealer,
                "next_dealer": model.next_dealer,
                "record": model.record,
                "result": {**model.result, "number": number},
                "created_by": "bench",
                "created_at": model.created_at,
            }
        )
    for start in range(0, len(rows), 2000):
        db.session.execute(insert(Hand), rows[start : start + 2000])
    ids = db.session.execute(
        select(Hand.id, Hand.number).where(Hand.table_id == table_id, Hand.number > RECORDED)
    ).all()
    delta_rows = [
        {"hand_id": hand_id, "seat": seat, "amount": amount}
        for hand_id, number in ids
        for seat, amount in deltas[models[(number - 1) % RECORDED].id]
    ]
    for start in range(0, len(delta_rows), 5000):
        db.session.execute(insert(HandDelta), delta_rows[start : start + 5000])
