"""Quatrilho's web side: its registration, and recording a hand: the contract (or the "É bom?" helper that finds it), who plays
it, the called card from a picture of the 40-card deck, its holder, the card exchange of a
solo preto, figures with the last trick's 3 added by one tap, tricks, a preview naming the
case, confirm.

A chamada asks only what its settlement reads, each count one tap on a pad of the values still
possible: the caller's side's figures, its tricks, and the caller's own figures when the side lost
(the mancha); a chamada is also started by one tap on its caller. A solo preto asks the soloist's
figures (and his tricks only where capote and the one-trick rate apply to solos); a carreguete
who made the most and with how many figures. Counting every player's pile stays one tap away. The shared machinery is in :mod:`referee.views.flow` and :mod:`referee.views.hands`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from flask import request

from referee.i18n import render_text
from referee.models import Hand
from referee.rules import quatrilho
from referee.rules.cards import SPANISH_RANKS, Suit, figures_of
from referee.rules.errors import RulesError
from referee.rules.quatrilho import (
    Auction,
    Call,
    Mode,
    active_players,
    most_possible,
    parse_call,
    possible_side_tricks,
)
from referee.rules.seats import join_names
from referee.rules.text import N_, NP_
from referee.views import flow
from referee.views.games.made import Made, deltas_of
from referee.views.games.pages import GamePages

STEPS = (
    "mode",
    "auction",
    "declarer",
    "called_card",
    "partner",
    "giver",
    "side_figures",
    "side_tricks",
    "caller_figures",
    "most",
    "most_figures",
    "figures",
    "tricks",
    "preview",
)
SIDE_STEPS = ("side_figures", "side_tricks", "caller_figures")
COUNTING = (*SIDE_STEPS, "figures", "tricks")  # "change" opens these again with their counts
MOST_STEPS = ("most", "most_figures")
FIGURES = 35  # all figures of a hand, with the 3 of the last trick
LAST_TRICK = 3
TRICKS = 10


@dataclass
class QuatrilhoDraft(flow.Draft):
    """A Quatrilho hand under construction. ``figures`` are the card figures each player took;
    the 3 of the last trick are added to ``last`` when the record is built."""

    mode: str | None = None
    calls: list[list[str]] = field(default_factory=list)  # the optional "É bom?" auction
    helper: bool = False  # the auction helper is open
    declarer: str | None = None
    called_card: dict[str, str] | None = None
    partner: str | None = None
    exchange: bool | None = None  # solo preto: None not asked, False natural, True with a giver
    giver: str | None = None
    figures: dict[str, int] | None = None
    last: str | None = None
    tricks: dict[str, int] | None = None
    per_player: bool = False  # counted pile by pile instead of by sides (or by who made the most)
    side_figures: int | None = None
    side_tricks: int | None = None
    caller_figures: int | None = None
    most: list[str] | None = None  # a carreguete: who made the most (several on a tie)
    most_figures: int | None = None

    TYPES: ClassVar[dict[str, type]] = {
        **flow.Draft.TYPES,
        "mode": str,
        "calls": list,
        "helper": bool,
        "declarer": str,
        "called_card": dict,
        "partner": str,
        "exchange": bool,
        "giver": str,
        "figures": dict,
        "last": str,
        "tricks": dict,
        "per_player": bool,
        "side_figures": int,
        "side_tricks": int,
        "caller_figures": int,
        "most": list,
        "most_figures": int,
    }

    def clean(self) -> None:
        self.calls = [
            list(c) for c in self.calls if isinstance(c, list) and len(c) == 2 and all(isinstance(x, str) for x in c)
        ]
        card = self.called_card
        if card is not None and not (isinstance(card.get("rank"), str) and isinstance(card.get("suit"), str)):
            self.called_card = None
        if self.most is not None and not all(isinstance(name, str) for name in self.most):
            self.most = None
        for name in ("figures", "tricks"):
            counts = getattr(self, name)
            if counts is not None and not all(isinstance(k, str) and type(v) is int for k, v in counts.items()):
                setattr(self, name, None)

    def record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"mode": self.mode}
        if self.dealer is not None:
            record["dealer"] = self.dealer
        for key in ("declarer", "called_card", "partner", "giver", "tricks", *SIDE_STEPS, *MOST_STEPS):
            if getattr(self, key) is not None:
                record[key] = getattr(self, key)
        if self.figures is not None:
            figures = dict(self.figures)
            if self.last in figures:
                figures[self.last] += LAST_TRICK
            record["figures"] = figures
        if self.calls and not self.helper:
            record["auction"] = self.calls
        return record


class QuatrilhoFlow(flow.Flow):
    template = "games/quatrilho/hand.html"
    draft_class = QuatrilhoDraft
    steps = STEPS
    draft: QuatrilhoDraft

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.focus: str | None = None  # the player whose count was tapped to change it
        super().__init__(*args, **kwargs)

    @property
    def active(self) -> tuple[str, ...]:
        return active_players(self.players, self.dealer, self.options)

    @property
    def by_side(self) -> bool:
        """A chamada or a solo preto is counted by sides unless the scorer chose to count every pile."""
        return self.draft.mode in (Mode.CHAMADA.value, Mode.SOLO_PRETO.value) and not self.draft.per_player

    @property
    def by_most(self) -> bool:
        """A carreguete is counted by who made the most unless the scorer chose to count every pile."""
        return self.draft.mode == Mode.CARREGUETE.value and not self.draft.per_player

    @property
    def side(self) -> tuple[str, ...]:
        """The caller's side as the pads name it (the caller alone when he held the card)."""
        d = self.draft
        return tuple(p for p in self.active if p in (d.declarer, d.partner))

    def sanitize(self) -> None:
        d = self.draft
        if flow.member(Mode, d.mode) is None:
            d.mode = None
        for name in ("declarer", "partner", "giver", "last"):
            if getattr(d, name) not in self.active:
                setattr(d, name, None)
        while d.calls:  # keep the longest legal start of the auction; say why the rest went
            try:
                self.helper_auction()
                break
            except RulesError as exc:
                self.show_error(exc)
                d.calls = d.calls[:-1]

    def helper_auction(self) -> Auction:
        calls = [(p, parse_call(c, field="auction")) for p, c in self.draft.calls]
        return Auction.replay(active=self.active, calls=calls)

    def _opening_step(self) -> str | None:
        """The contract still to choose, or a counting step opened again with its counts."""
        d = self.draft
        if d.helper:
            return "auction"
        if d.mode is None:
            return "mode"
        if d.reopen in COUNTING and getattr(d, d.reopen) is not None:
            return d.reopen
        return None

    def step(self) -> str:
        d = self.draft
        opening = self._opening_step()
        if opening is not None:
            return opening
        mode = Mode(d.mode)
        _preview, where, error = self.complaint()
        if where in ("declarer", "called_card", "partner") and getattr(d, where) is None:
            return where
        if mode is Mode.SOLO_PRETO and d.exchange is None and where not in ("mode", "declarer"):
            return "giver"  # natural, or with a card exchange (and who gave it)
        if mode is Mode.SOLO_PRETO and d.exchange and d.giver is None:
            return "giver"
        if error is None:
            return where
        return self._count_step(where, error)

    def _count_step(self, where: str, error: RulesError) -> str:
        """The count the engine asks for next: a pad of the short form while nothing is counted
        yet, the count still missing, or the step whose count the engine refuses (with why)."""
        if where in ("figures", "tricks") and (self.by_side or self.by_most):
            return "side_figures" if self.by_side else "most"  # nothing counted yet
        if where in (*SIDE_STEPS, *MOST_STEPS, "figures", "tricks") and getattr(self.draft, where) is None:
            return where
        self.show_error(error)
        return where

    # -- actions

    def apply(self, action: str) -> None:
        kind, _sep, arg = action.partition(":")
        if kind in ("mode", "helper", "call", "undo"):
            self._contract(kind, arg)
        elif kind in ("declarer", "partner", "giver", "last"):
            self._seat(kind, arg)
        elif kind in ("natural", "exchange", "card"):
            self._cards(kind, arg)
        elif kind in ("figures", "tricks"):
            self._counts(kind, arg)
        elif kind in SIDE_STEPS or kind in ("chamada", "per_player"):
            self._chamada(kind, arg)
        elif kind in (*MOST_STEPS, "tie"):
            self._most(kind, arg)
        elif kind == "back":
            self._back(*arg.partition(":")[::2])

    def _contract(self, kind: str, arg: str) -> None:
        """The contract chosen, or the "É bom?" helper opened, called in or stepped back."""
        d = self.draft
        if kind == "mode" and flow.member(Mode, arg) is not None:
            self._reset()
            d.mode = arg
        elif kind == "helper":
            self._reset()
            d.helper, d.calls = True, []
        elif kind == "call":
            seat = flow.small_int(arg.partition(":")[0], len(self.players))
            if seat is not None:
                d.calls.append([self.players[seat], arg.partition(":")[2]])
                try:
                    self._finish_helper()
                except RulesError as exc:  # a call out of turn (a stale page, a double tap)
                    d.calls.pop()
                    self.show_error(exc)
        elif kind == "undo" and d.calls:
            d.calls.pop()
            d.helper = True

    def _seat(self, kind: str, arg: str) -> None:
        """Who declares, partners, gives the exchanged card or took the last trick; a new
        declarer asks his called card, partner and giver again."""
        d = self.draft
        seat = flow.small_int(arg, len(self.players))
        if seat is not None:
            setattr(d, kind, self.players[seat])
            if kind == "declarer":
                d.called_card = d.partner = d.giver = None

    def _cards(self, kind: str, arg: str) -> None:
        """A solo preto's exchange (natural, or with a giver), or the called card."""
        d = self.draft
        if kind == "natural":
            d.exchange, d.giver = False, None
        elif kind == "exchange":
            d.exchange = True
        else:
            rank, _s, suit = arg.partition(":")
            if rank in SPANISH_RANKS and flow.is_suit(suit):
                d.called_card = {"rank": rank, "suit": suit}
                d.partner = None

    def _counts(self, kind: str, arg: str) -> None:
        """The figures (and who took the last trick's 3), or the tricks (a solo branco's one
        question: did the declarer take a trick)."""
        d = self.draft
        if kind == "figures":
            d.figures = self._read_counts("f", FIGURES - LAST_TRICK)
            seat = flow.small_int(request.args.get("last"), len(self.players))
            d.last = self.players[seat] if seat is not None else None
        elif d.mode == Mode.SOLO_BRANCO.value and d.declarer:
            d.tricks = {d.declarer: 1 if arg == "1" else 0}
        else:
            d.tricks = self._read_counts("t", TRICKS)

    def _chamada(self, kind: str, arg: str) -> None:
        """A chamada started by a tap on its caller, a side count tapped on its pad, or the switch
        to counting every player's pile."""
        d = self.draft
        if kind == "chamada":
            seat = flow.small_int(arg, len(self.players))
            if seat is not None:
                self._reset()
                d.mode, d.declarer = Mode.CHAMADA.value, self.players[seat]
        elif kind == "per_player":
            d.per_player = True
            d.side_figures = d.side_tricks = d.caller_figures = None
            d.most, d.most_figures = None, None
        else:
            setattr(d, kind, flow.small_int(arg, FIGURES + 1))

    def _most(self, kind: str, arg: str) -> None:
        """A carreguete: one tap on who made the most, another on their figures; a tie adds the
        players who made as many (a second tap takes one out)."""
        d = self.draft
        if kind == "most_figures":
            d.most_figures = flow.small_int(arg, FIGURES + 1)
            return
        seat = flow.small_int(arg, len(self.players))
        if seat is None:
            return
        name = self.players[seat]
        if kind == "most":
            d.most, d.most_figures = [name], None
        elif d.most and name != d.most[0]:
            d.most = [p for p in d.most if p != name] if name in d.most else [*d.most, name]
            d.most_figures = None

    def _finish_helper(self) -> None:
        """When the "É bom?" auction is over, it decides the contract and who plays it."""
        auction = self.helper_auction()
        if not auction.complete:
            return
        mode, declarer = auction.result(no_bid=Mode(self.options.no_bid))
        d = self.draft
        d.helper = False
        d.mode, d.declarer = mode.value, declarer
        if mode is Mode.SOLO_PRETO and auction.solo is not None:
            d.exchange = auction.solo[1] is not Call.SOLO_PRETO_NATURAL

    def _read_counts(self, prefix: str, total: int) -> dict[str, int]:
        """Counts of the active players from the steppers; one blank is filled to the total."""
        counts = {
            name: flow.small_int((request.args.get(f"{prefix}{self.players.index(name)}") or "").strip(), 100)
            for name in self.active
        }
        blank = [n for n, v in counts.items() if v is None]
        if len(blank) == 1:
            counts[blank[0]] = max(0, total - sum(v or 0 for v in counts.values()))
        return {n: v or 0 for n, v in counts.items()}

    def _reset(self) -> None:
        d = self.draft
        d.mode, d.calls, d.helper = None, [], False
        d.declarer = d.partner = d.giver = d.last = None
        d.called_card = d.figures = d.tricks = None
        d.exchange = None
        d.per_player = False
        d.side_figures = d.side_tricks = d.caller_figures = None
        d.most, d.most_figures = None, None

    def _back(self, step: str, seat_text: str) -> None:
        """ "Change" on a step. A counting step is opened again with the counts it had and the
        last trick's choice (a correction shows what was stored), the tapped player's count
        first; any other step is asked again from scratch, with what follows it."""
        if step in COUNTING:
            self.draft.reopen = step
            seat = flow.small_int(seat_text, len(self.players))
            self.focus = self.players[seat] if seat is not None else None
        elif step in STEPS:
            self._clear_from(step)

    def _clear_from(self, step: str) -> None:
        d = self.draft
        if step in ("mode", "auction"):
            self._reset()
            d.helper = step == "auction"
            return
        order = STEPS.index(step)
        for name in STEPS[order:]:
            if name == "giver":
                d.exchange, d.giver = None, None
            elif name == "figures":
                d.figures, d.last = None, None
            elif hasattr(d, name) and name not in ("auction", "preview"):
                setattr(d, name, None)

    def prefill(self, old: dict[str, Any]) -> None:
        d = self.draft
        d.mode = old.get("mode")
        d.declarer, d.partner, d.giver = old.get("declarer"), old.get("partner"), old.get("giver")
        d.called_card = old.get("called_card")
        d.exchange = (d.giver is not None) if d.mode == Mode.SOLO_PRETO.value else None
        d.tricks = old.get("tricks")
        d.side_figures, d.side_tricks = old.get("side_figures"), old.get("side_tricks")
        d.caller_figures = old.get("caller_figures")
        most = old.get("most")
        d.most, d.most_figures = (list(most) if most else None), old.get("most_figures")
        d.per_player = (d.mode in (Mode.CHAMADA.value, Mode.SOLO_PRETO.value) and d.side_figures is None) or (
            d.mode == Mode.CARREGUETE.value and d.most is None
        )
        d.calls = [list(c) for c in old.get("auction") or []]
        figures = dict(old.get("figures") or {}) or None
        d.figures, d.last = figures, None
        if figures:  # the stored counts include the last trick's 3: let the scorer point at it
            d.last = next((n for n, v in figures.items() if v >= LAST_TRICK and (d.tricks or {}).get(n, 1) > 0), None)
            if d.last:
                figures[d.last] -= LAST_TRICK

    # -- what the page shows

    def choices(self, name: str) -> tuple[str, ...] | None:
        return quatrilho.partner_choices(self.active) if name == "partner" else None

    def extra_context(self, step: str) -> dict[str, Any]:
        d = self.draft
        ctx: dict[str, Any] = {
            "active": self.active,
            "modes": list(Mode),
            "mode": Mode(d.mode) if d.mode else None,
            "no_bid": self.options.no_bid,
            "carreguete_compare": self.options.carreguete_compare,
            "figures_total": FIGURES - LAST_TRICK,
            "tricks_total": TRICKS,
            "last_trick": LAST_TRICK,
            # The figures as the record will have them (the last trick's 3 added): one place.
            "figures_with_last": d.record().get("figures") or {},
            "focus": self.focus,
        }
        if step == "auction":
            auction = self.helper_auction()
            ctx.update(turn=auction.turn, legal=auction.legal_calls())
        elif step == "called_card":
            ctx["deck"] = [(suit.value, [(rank, figures_of(rank)) for rank in SPANISH_RANKS]) for suit in Suit]
        elif step == "partner":
            ctx["choices"] = self.legal("partner", list(self.active))
        elif step == "giver":
            ctx["choices"] = [p for p in self.active if p != d.declarer]
        elif step == "preview":
            ctx["preview"], _error = self.judge()
        ctx.update(self._short_form_context(step))
        return ctx

    def _short_form_context(self, step: str) -> dict[str, Any]:
        """The pads of the short forms and the names they count for (the side, who made the most)."""
        d = self.draft
        ctx: dict[str, Any] = {}
        if step in SIDE_STEPS or d.side_figures is not None:
            ctx["side_names"] = _names(self.side)
        if step in SIDE_STEPS:
            ctx["pad"], ctx["pad_value"] = self._pad(step), getattr(d, step)
        elif step == "most_figures":
            tied = len(d.most or ())
            ctx["pad"] = [n for n in range(FIGURES + 1) if most_possible(tied, n, self.options)]
            ctx["pad_value"] = d.most_figures
            ctx["others"] = [p for p in self.active if p not in (d.most or ())[:1]]
        if d.most:
            ctx["most_names"] = _names(d.most)
        return ctx

    def _pad(self, step: str) -> list[int]:
        """The values still possible for a side count: any of the 35 figures; the tricks those
        figures allow; the caller's own figures within the side's."""
        d = self.draft
        if step == "side_figures":
            return list(range(FIGURES + 1))
        if step == "side_tricks":
            alone = d.mode == Mode.SOLO_PRETO.value or d.partner == d.declarer
            return list(possible_side_tricks(d.side_figures or 0, alone=alone))
        return list(range((d.side_figures or 0) + 1))


def _names(names: tuple[str, ...] | list[str]) -> str:
    """Players in a sentence of the page's language ("Ana e Caio"); nothing for nobody."""
    joined = join_names(list(names)) if names else ""
    return joined if isinstance(joined, str) else render_text(joined)


# --------------------------------------------------------------------------- the other pages


def mode(code: str) -> str:
    """A contract's name (proper names, the same in every language)."""
    found = flow.member(Mode, code)
    return found.label if found else code


def qcall(code: str) -> str:
    """An answer in the "É bom?" round."""
    found = flow.member(Call, code)
    return found.label if found else code


def declaring_pair(contract: Mapping[str, Any]) -> tuple[str, str] | None:
    """A call names the caller and the holder of the called card (no pair when the caller held
    it himself); a solo's giver is not a partner."""
    declarer, partner = contract.get("declarer"), contract.get("partner")
    if isinstance(declarer, str) and isinstance(partner, str) and partner != declarer:
        return declarer, partner
    return None


def rules_context() -> dict[str, Any]:
    return {"values": [(rank, figures_of(rank)) for rank in SPANISH_RANKS]}


def declarer_made(hand: Hand) -> Made | None:
    """What a Quatrilho hand made, for its line in the history: the declarer's result (won or
    lost; a chamada lost with the caller paying for both, his partner nothing, is a mancha);
    None where nobody declared or nothing moved."""
    contract: Mapping[str, Any] = hand.result.get("contract") or {}
    declarer, partner = contract.get("declarer"), contract.get("partner")
    delta = deltas_of(hand).get(declarer, 0) if isinstance(declarer, str) else 0
    if not delta or not isinstance(declarer, str):
        return None
    alone = not isinstance(partner, str) or partner == declarer
    side = (declarer,) if alone else (declarer, partner)
    mancha = contract.get("mode") == "chamada" and delta < 0 and not alone and deltas_of(hand).get(partner) == 0
    return Made(side, None, delta > 0, mancha)


REGISTRATION = GamePages(
    slug=quatrilho.SLUG,
    flow=QuatrilhoFlow,
    rules_context=rules_context,
    dealer_help=N_(
        "The rules do not say how the first dealer is chosen: the table agrees. By default the last player deals, so player 1, the mão, speaks and leads first; the player before the dealer cuts."
    ),
    seating_help=N_(
        "Write the names in the order the game goes round, to the right (counter-clockwise): after player 1 comes the one to their right, and so on; under the Timbó rules it goes to the left. With five players, one sits out each hand (the dealer, or the cutter under the Timbó rules)."
    ),
    last_round_title=N_("La tonda!"),
    last_round_start=N_("La tonda: start the last round"),
    time_up=N_("Call la tonda: whoever deals now deals no more; each player deals once more."),
    stock_left=NP_("talha: %(num)s unit left", "talha: %(num)s units left"),
    unit_note=(N_("Amounts in units."), N_("Amounts in units; %(value)s per unit.")),
    pays=NP_("pays %(num)s unit", "pays %(num)s units"),
    receives=NP_("receives %(num)s unit", "receives %(num)s units"),
    declaring_pair=declaring_pair,
    words={"mode": mode, "qcall": qcall, "made": declarer_made},
)
