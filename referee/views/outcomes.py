"""What a hand made, for its line in the history ("Solo Sete · Ana: 9 tricks, made"), read from
what was stored with it: the contract, the record and the deltas. The record says how many
tricks a Jubileu side took, and the contract's own target says whether that made it: the sign of
a declarer's delta cannot, since in a Meia Miséria with two declarers one who failed still
collects from the other when the other failed worse. Without the tricks (a record that does not
give them), the sign of the delta is what is left."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.models import Hand
from referee.rules.jubileu import TRICKS, Bid, JubileuOptions, outcome
from referee.views import flow


@dataclass(frozen=True)
class Made:
    """One declaring side: who, the tricks it took (None when the record does not say), and
    whether it made its contract; ``mancha`` for a Quatrilho caller who pays for both."""

    names: tuple[str, ...]
    tricks: int | None
    made: bool
    mancha: bool = False


def _deltas(hand: Hand) -> Mapping[str, int]:
    deltas = hand.result.get("deltas")
    return deltas if isinstance(deltas, dict) else {}


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def jubileu(hand: Hand) -> list[Made]:
    """Each declaring side of a Jubileu hand: the pair (declarer + partner), the one solo, or
    each Meia Miséria declarer; nothing for "everybody passed"."""
    contract: Mapping[str, Any] = hand.result.get("contract") or {}
    declarers = [d for d in contract.get("declarers") or [] if isinstance(d, str)]
    if not declarers:
        return []
    deltas, record = _deltas(hand), hand.record
    bid = flow.member(Bid, contract.get("bid"))

    def made(name: str, taken: int | None) -> bool:
        if bid is None or taken is None or not 0 <= taken <= TRICKS:
            return deltas.get(name, 0) > 0
        return outcome(bid, taken, JubileuOptions(), partnership=False).made  # the target alone

    short = record.get("declarer_tricks")
    tricks = record.get("tricks") if isinstance(record.get("tricks"), dict) else {}
    partner = contract.get("partner")
    if isinstance(partner, str) and partner not in declarers:
        side = (declarers[0], partner)
        taken = _count(short) if short is not None else _sum(tricks, side)
        return [Made(side, taken, made(declarers[0], taken))]
    sides = []
    for name in declarers:
        if isinstance(short, dict):
            taken = _count(short.get(name))
        elif short is not None and len(declarers) == 1:
            taken = _count(short)
        else:
            taken = _count(tricks.get(name))
        sides.append(Made((name,), taken, made(name, taken)))
    return sides


def _sum(tricks: Mapping[str, object], side: tuple[str, ...]) -> int | None:
    counts = [_count(tricks.get(name)) for name in side]
    return None if any(c is None for c in counts) else sum(c for c in counts if c is not None)


def quatrilho(hand: Hand) -> Made | None:
    """A Quatrilho declarer's result (won or lost; a chamada lost with the caller paying for
    both, his partner nothing, is a mancha); None where nobody declared or nothing moved."""
    contract: Mapping[str, Any] = hand.result.get("contract") or {}
    declarer, partner = contract.get("declarer"), contract.get("partner")
    delta = _deltas(hand).get(declarer, 0) if isinstance(declarer, str) else 0
    if not delta or not isinstance(declarer, str):
        return None
    alone = not isinstance(partner, str) or partner == declarer
    side = (declarer,) if alone else (declarer, partner)
    mancha = contract.get("mode") == "chamada" and delta < 0 and not alone and _deltas(hand).get(partner) == 0
    return Made(side, None, delta > 0, mancha)
