"""Jubileu's web side: its registration, and recording a hand (the última, who holds 3 or 4
aces, the auction call by call, the contract's details, the tricks, a preview, confirm). The
shared machinery (draft in the URL, the engine deciding the next step, retries, conflicts,
undo) is in :mod:`referee.views.flow` and :mod:`referee.views.hands`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from babel.lists import format_list
from flask import request
from flask.typing import ResponseReturnValue
from flask_babel import get_locale

from referee.i18n import render_text
from referee.models import Hand
from referee.rules import jubileu
from referee.rules.cards import Suit
from referee.rules.errors import RulesError
from referee.rules.jubileu import (
    TRICKS,
    Auction,
    Bid,
    JubileuOptions,
    Pass,
    Trump,
    calls_king,
    outcome,
    parse_aces,
    parse_call,
)
from referee.rules.text import N_
from referee.views import flow
from referee.views.games.made import Made, count, deltas_of
from referee.views.games.pages import GamePages

STEPS = ("ultima", "aces", "auction", "contract", "trump", "called", "partner", "tricks", "preview")
DETAILS = ("called", "trump", "partner")


def _ladder_rows() -> tuple[tuple[Bid, ...], ...]:
    """The ladder as the auction page draws it, lowest first: each bid beside its "da Última"
    twin (the next rung, same tricks, the última's suit as trump), the others alone on their row.
    Drawn whole at every call, so a button never moves under a player's finger."""
    rows: list[tuple[Bid, ...]] = []
    for bid in Bid:
        last = rows[-1] if rows else ()
        twin = last[0] if len(last) == 1 else None
        if (
            bid.info.trump is Trump.ULTIMA
            and twin
            and (twin.info.tricks, twin.info.kind) == (bid.info.tricks, bid.info.kind)
        ):
            rows[-1] = (twin, bid)
        else:
            rows.append((bid,))
    return tuple(rows)


LADDER_ROWS = _ladder_rows()


@dataclass
class JubileuDraft(flow.Draft):
    """A Jubileu hand under construction, in the shape of the API record."""

    ultima: str | None = None
    aces: dict[str, int] | None = None  # None: not asked yet; {}: nobody
    calls: list[list[str]] = field(default_factory=list)
    direct: bool = False  # only the final contract is known
    contract: dict[str, Any] | None = None
    trump: str | None = None
    called: str | None = None
    partner: str | None = None
    tricks: dict[str, int] | None = None
    #: The short form (one tap on a pad): the declaring side's tricks, or each Meia Miséria declarer's.
    declarer_tricks: int | dict[str, int] | None = None

    TYPES: ClassVar[dict[str, type]] = {
        **flow.Draft.TYPES,
        "ultima": str,
        "aces": dict,
        "calls": list,
        "direct": bool,
        "contract": dict,
        "trump": str,
        "called": str,
        "partner": str,
        "tricks": dict,
        "declarer_tricks": object,  # a number or a mapping: checked in clean()
    }

    def clean(self) -> None:
        self.calls = [
            list(c) for c in self.calls if isinstance(c, list) and len(c) == 2 and all(isinstance(x, str) for x in c)
        ]
        contract = self.contract
        if contract is not None and not (
            isinstance(contract.get("bid"), str)
            and isinstance(contract.get("declarers"), list)
            and all(isinstance(x, str) for x in contract["declarers"])
        ):
            self.contract = None
        if self.tricks is not None and not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in self.tricks.items()
        ):
            self.tricks = None
        if not _short_form(self.declarer_tricks):
            self.declarer_tricks = None

    def record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"ultima": self.ultima}
        if self.dealer is not None:
            record["dealer"] = self.dealer
        if self.aces:
            record["aces"] = self.aces
        if self.direct:
            record["contract"] = self.contract
        else:
            record["auction"] = self.calls
        for key in ("trump", "called", "partner", "tricks", "declarer_tricks"):
            if getattr(self, key) is not None:
                record[key] = getattr(self, key)
        return record


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _short_form(value: object) -> bool:
    """A number, or whole numbers by name: the shapes of ``declarer_tricks``."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _count(v) for k, v in value.items())
    return _count(value)


class JubileuFlow(flow.Flow):
    template = "games/jubileu/hand.html"
    draft_class = JubileuDraft
    steps = STEPS
    draft: JubileuDraft

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.refused = False  # a call the engine refuses was sent: the page answers 422
        self.focus: str | None = None  # the player whose count was tapped to change it
        super().__init__(*args, **kwargs)

    def render(self, status: int = 200, **extra: Any) -> ResponseReturnValue:
        if self.refused and status == 200:
            status = 422
        return super().render(status, **extra)

    def sanitize(self) -> None:
        """Drop unknown values; cut an auction at its first illegal call, whose sentence becomes
        the page's error and the answer a 422 (a forged link, or a disabled button sent anyway,
        shows the rule it breaks, never a crash, and the call is not kept)."""
        if self._clean_fields():
            self._cut_at_illegal_call()
        self.in_full = True

    def sanitize_to_save(self) -> None:
        """The fields only: the engine replays the calls of the record it judges."""
        self.in_full = not self._clean_fields()

    def _clean_fields(self) -> bool:
        """Drop unknown suits and aces (and the calls, without aces); True when calls are left."""
        d = self.draft
        if not flow.is_suit(d.ultima):
            d.ultima = None
        for name in ("trump", "called"):
            if not flow.is_suit(getattr(d, name)):
                setattr(d, name, None)
        if d.aces is not None:
            try:
                d.aces = parse_aces(self.players, d.aces)
            except RulesError:
                d.aces = None
        if d.aces is None:
            d.calls = []
        return bool(d.calls)

    def _cut_at_illegal_call(self) -> None:
        d = self.draft
        auction = Auction(players=self.players, dealer=self.dealer, options=self.options, aces=d.aces)
        for i, (player, raw) in enumerate(d.calls):
            try:
                auction.call(player, parse_call(raw, field="auction"))
            except RulesError as exc:
                self.show_error(exc)
                self.refused = True
                d.calls = d.calls[:i]
                return

    def auction(self) -> Auction | None:
        if self.draft.aces is None or self.draft.direct:
            return None
        calls = [(p, parse_call(c, field="auction")) for p, c in self.draft.calls]
        return Auction.replay(
            players=self.players, dealer=self.dealer, options=self.options, aces=self.draft.aces, calls=calls
        )

    def contract_bid(self) -> Bid | None:
        if self.draft.direct:
            bid = (self.draft.contract or {}).get("bid")
            return flow.member(Bid, bid)
        auction = self.auction()
        contract = auction.contract if auction else None
        return contract.bid if contract else None

    def _opening_step(self) -> str | None:
        """The steps asked before the engine can judge anything, or the tricks opened again."""
        d = self.draft
        if d.ultima is None:
            return "ultima"
        if d.aces is None:
            return "aces"
        if d.direct and d.contract is None:
            return "contract"
        if d.reopen == "tricks" and (d.tricks is not None or d.declarer_tricks is not None):
            return "tricks"
        return None

    def step(self) -> str:
        """The first step still waiting for an answer."""
        d = self.draft
        opening = self._opening_step()
        if opening is not None:
            return opening
        _preview, where, error = self.complaint()
        if error is None:
            return where
        if where in ("auction", "contract") and not d.direct:
            auction = self.auction()
            if auction is not None and not auction.complete:
                return "auction"
        if (
            where not in ("ultima", "aces", "auction", "contract")
            and self.contract_bid() is Bid.JOGO_OBRIGATORIO
            and d.called is None
        ):
            # At the table the partner shows himself (4th ace or called king) and then names
            # trump, so ask in that order: the trump buttons can then leave out that suit.
            return "called"
        if where == "tricks" and d.tricks is None and (d.declarer_tricks is None or self.owed()):
            return "tricks"
        if where in DETAILS and getattr(d, where) is None:
            return where
        self.show_error(error)
        return where

    def apply(self, action: str) -> None:
        kind, _sep, arg = action.partition(":")
        if kind in ("ultima", "aces"):
            self._opening(kind, arg)
        elif kind in ("call", "undo", "direct", "auction", "contract"):
            self._bidding(kind, arg)
        elif kind in DETAILS:
            self._detail(kind, arg)
        elif kind == "tricks":
            self.draft.tricks, self.draft.declarer_tricks = self._read_tricks(), None
        elif kind == "side":
            self._side(arg)
        elif kind == "rest":
            self._rest(arg)
        elif kind == "back":
            self._back(*arg.partition(":")[::2])

    def _opening(self, kind: str, arg: str) -> None:
        """The última's suit, and who holds 3 or 4 aces ("none": nobody)."""
        d = self.draft
        if kind == "ultima":
            if flow.is_suit(arg):
                d.ultima = arg
        elif arg == "none":
            d.aces = {}
        else:
            seat_text, _s, count = arg.partition(":")
            seat = flow.small_int(seat_text, len(self.players))
            if seat is not None and count in ("3", "4"):
                d.aces = {self.players[seat]: int(count)}

    def _bidding(self, kind: str, arg: str) -> None:
        """A call of the auction (or its undo), or the contract entered directly; either way
        the contract's details are asked again."""
        d = self.draft
        if kind == "call":
            seat_text, _s, call = arg.partition(":")
            seat = flow.small_int(seat_text, len(self.players))
            if seat is None:
                return
            d.calls.append([self.players[seat], call])
        elif kind == "undo":
            if not d.calls:
                return
            d.calls.pop()
        elif kind == "direct":
            d.direct, d.calls = True, []
        elif kind == "auction":
            d.direct, d.contract = False, None
        self._clear_details()
        if kind == "contract":
            seats = [flow.small_int(i, len(self.players)) for i in request.args.getlist("declarer")]
            d.contract = {
                "bid": request.args.get("bid", ""),
                "declarers": [self.players[i] for i in seats if i is not None],
            }

    def _detail(self, kind: str, arg: str) -> None:
        """The partner (a seat), or the trump or the called king's suit."""
        seat = flow.small_int(arg, len(self.players))
        if kind == "partner" and seat is not None:
            self.draft.partner = self.players[seat]
        elif flow.is_suit(arg):
            setattr(self.draft, kind, arg)

    def _read_tricks(self) -> dict[str, int]:
        """Tricks per player from the steppers; a single blank is filled so the total is 13."""
        counts: dict[str, int | None] = {}
        for i, name in enumerate(self.players):
            counts[name] = flow.small_int((request.args.get(f"t{i}") or "").strip(), 100)
        blank = [n for n, v in counts.items() if v is None]
        if len(blank) == 1:
            counts[blank[0]] = max(0, TRICKS - sum(v or 0 for v in counts.values()))
        return {n: v or 0 for n, v in counts.items()}

    def _side(self, arg: str) -> None:
        """One tap on the pad: the tricks of the declaring side (``side:N``), or of the Meia
        Miséria declarer still owed a count (``side:<seat>:N``). The full counts give way; the
        other declarers' own counts stay (a correction changes one declarer's count in one tap)."""
        seat_text, _s, count_text = arg.rpartition(":")
        count = flow.small_int(count_text, TRICKS + 1)
        if count is None:
            return
        d = self.draft
        if isinstance(d.declarer_tricks, dict):
            counts = d.declarer_tricks
        else:
            counts = {n: v for n, v in (d.tricks or {}).items() if n in self.declarers()}
        d.tricks = None
        if not seat_text:
            d.declarer_tricks = count
            return
        seat = flow.small_int(seat_text, len(self.players))
        if seat is not None:
            d.declarer_tricks = {**counts, self.players[seat]: count}

    def owed(self) -> str | None:
        """With several Meia Miséria declarers, the first whose own count is still to come."""
        declarers = self.declarers()
        if len(declarers) < 2:
            return None
        if self.draft.reopen == "tricks":  # changing a count: the tapped declarer's, or the first's
            return self.focus if self.focus in declarers else declarers[0]
        given = self.draft.declarer_tricks if isinstance(self.draft.declarer_tricks, dict) else {}
        return next((p for p in declarers if p not in given), None)

    def rest_pass(self) -> list[str] | None:
        """The players a "the others pass" tap would pass for (all still to speak, until the
        auction ends), or None when that is not a legal way to end it now."""
        auction = self.auction()
        if auction is None or auction.standing is None:
            return None
        passed: list[str] = []
        while auction.turn is not None:
            player = auction.turn
            try:
                auction.call(player, Pass.PASSO)
            except RulesError:
                return None
            passed.append(player)
        return passed

    def _rest(self, suit: str) -> None:
        """ "The others pass" (and, for a contract whose declarer names trump, that trump)."""
        auction, passed = self.auction(), self.rest_pass()
        if auction is None or not passed:
            return
        self._clear_details()
        self.draft.calls.extend([p, Pass.PASSO.value] for p in passed)
        if flow.is_suit(suit) and self._names_trump(auction):
            self.draft.trump = suit

    def _clear_details(self) -> None:
        """A different contract makes its details meaningless: ask them again. Each player's
        tricks are what happened at the table whatever the contract, so they stay (the engine
        still checks them against the new contract); the declaring side's count does not, as
        the side may now be other players."""
        d = self.draft
        d.trump = d.called = d.partner = None
        d.declarer_tricks = None

    def _back(self, step: str, seat_text: str) -> None:
        """ "Change" on a step. The tricks are opened again with the counts they had (a
        correction shows what was stored), the tapped player's count first; any other step is
        asked again from scratch, with what follows it."""
        if step == "tricks":
            self.draft.reopen = step
            seat = flow.small_int(seat_text, len(self.players))
            self.focus = self.players[seat] if seat is not None else None
        elif step in STEPS:
            self._clear_from(step)

    def _clear_from(self, step: str) -> None:
        d = self.draft
        order = STEPS.index(step)
        if order <= STEPS.index("ultima"):
            d.ultima = None
        if order <= STEPS.index("aces"):
            d.aces, d.calls = None, []
        if step == "auction" or (step == "contract" and not d.direct):
            self._reopen_auction()  # a contract that came from the auction changes there
            return
        if order <= STEPS.index("contract"):
            d.contract = None
            d.trump = d.called = d.partner = None
        if step in DETAILS:
            setattr(d, step, None)
        d.tricks = d.declarer_tricks = None

    def _reopen_auction(self) -> None:
        """ "Change" on the auction: it opens again at its last bid, which is asked again with
        the passes after it (the calls before it stay: they were not in question); with no bid
        at all it starts over. "Undo last call" goes further back. The details follow the
        contract, so they are asked again (see :meth:`_clear_details`)."""
        d = self.draft
        bids = [i for i, (_player, raw) in enumerate(d.calls) if raw != Pass.PASSO.value]
        d.calls = d.calls[: bids[-1]] if bids else []
        d.direct, d.contract = False, None
        self._clear_details()

    def prefill(self, old: dict[str, Any]) -> None:
        d = self.draft
        d.ultima = old.get("ultima")
        d.aces = dict(old.get("aces") or {})
        if "auction" in old:
            d.calls = [list(c) for c in old["auction"]]
        else:
            d.direct = True
            d.contract = old.get("contract")
        d.trump, d.called, d.partner = old.get("trump"), old.get("called"), old.get("partner")
        # As it was entered: every player's tricks, or the pad's short form.
        d.tricks = old.get("tricks")
        d.declarer_tricks = old.get("declarer_tricks")

    def start(self, args: Any) -> None:
        """The table page's suit buttons open the flow with the última already chosen."""
        if self.draft.ultima is None and flow.is_suit(args.get("ultima")):
            self.draft.ultima = args["ultima"]

    def before_save(self, form: Any) -> None:
        """The "everybody passed" button records four passes straight from the aces step."""
        if form.get("all_pass"):
            d = self.draft
            d.aces = d.aces or {}
            d.direct = False
            d.calls = [
                [p, Pass.PASSO.value]
                for p in Auction(players=self.players, dealer=self.dealer, options=self.options).order
            ]
            d.trump = d.called = d.partner = None
            d.tricks = d.declarer_tricks = None

    # -- what the page shows

    def choices(self, name: str) -> tuple[str, ...] | None:
        """The contract's details the rules accept, given the contract and the details so far."""
        d, bid, declarers, ultima = self.draft, self.contract_bid(), self.declarers(), Suit.named(self.draft.ultima)
        if bid is None or not declarers or ultima is None:
            return None  # no contract yet: the steps before are asked first
        if name == "trump":
            return tuple(s.value for s in jubileu.trump_choices(bid, ultima, Suit.named(d.called)))
        if name == "called":
            return tuple(s.value for s in jubileu.called_choices(bid, ultima, Suit.named(d.trump)))
        if name == "partner":
            return jubileu.partner_choices(self.players, bid, declarers[0], d.aces or {}, self.options)
        return None

    def extra_context(self, step: str) -> dict[str, Any]:
        ctx: dict[str, Any] = {"bid": self.contract_bid()}
        auction = self.auction()
        if auction is not None:
            ctx["auction"] = auction
            if step == "auction":
                rest = self.rest_pass()
                ctx.update(
                    legal=auction.legal_calls(),
                    ladder=LADDER_ROWS,
                    passo=Pass.PASSO,
                    no_pass=self._why_no_pass(auction),
                    joiners=auction.joiners(),
                    turn=auction.turn,
                    standing=auction.standing,
                    declarers=auction.declarers,
                    rest=rest,
                    rest_names=format_list(rest or [], locale=str(get_locale() or "pt_BR")),
                    names_trump=self._names_trump(auction),
                )
        if step in ("trump", "called"):
            ctx["choices"] = self.legal(step, [s.value for s in Suit])
        elif step == "partner":
            ctx["choices"] = self.legal("partner", list(self.players))
        elif step == "tricks":
            ctx.update(
                tricks=self.draft.tricks or {},
                owed=self.owed(),
                pad=self.pad(),
                pad_value=self.pad_value(),
                focus=self.focus,
            )
        elif step == "preview":
            ctx["preview"], _error = self.judge()
        side = self.side()
        ctx.update(
            side=side,
            Trump=Trump,
            bids=list(Bid),
            total=TRICKS,
            redeal=self.options.all_pass == "redeal",
            king=bool(side) and calls_king(self.draft.aces or {}, side[0]),
        )
        return ctx

    @staticmethod
    def _why_no_pass(auction: Auction) -> str | None:
        """The engine's sentence when the player to speak may not pass (he holds 3 or 4 aces
        and nobody has bid Jogo Obrigatório yet), shown beside the disabled Passo."""
        if auction.turn is None:
            return None
        try:
            auction.verify_call(auction.turn, Pass.PASSO)
        except RulesError as exc:
            return render_text(exc.text)
        return None

    def _names_trump(self, auction: Auction) -> bool:
        """Whether the standing contract's declarer names trump, so "the others pass" can carry it."""
        standing = auction.standing
        return standing is not None and standing.info.trump is Trump.DECLARER

    def pad(self) -> range:
        """The counts still possible for the pad: 0..13, less what other declarers took."""
        given = self.draft.declarer_tricks if isinstance(self.draft.declarer_tricks, dict) else {}
        owed = self.owed()
        return range(TRICKS + 1 - sum(v for k, v in given.items() if k != owed))

    def pad_value(self) -> int | None:
        """The count the pad shows as chosen when the tricks are opened again: the owed
        declarer's, or the declaring side's, from the short form or from every player's."""
        d, owed = self.draft, self.owed()
        names = [owed] if owed else self.side()
        if isinstance(d.declarer_tricks, dict):
            return d.declarer_tricks.get(owed) if owed else None
        if d.declarer_tricks is not None:
            return None if owed else d.declarer_tricks
        counts = d.tricks or {}
        return sum(counts.get(n, 0) for n in names) if counts and names else None

    def declarers(self) -> list[str]:
        """The contract's declarers (several only in Meia Miséria), without the partner."""
        if self.contract_bid() is None:
            return []
        if self.draft.direct:
            return list((self.draft.contract or {}).get("declarers", []))
        auction = self.auction()
        return list(auction.declarers) if auction else []

    def complaint(self) -> tuple[Any, str, RulesError | None]:
        """The engine's complaints about ``declarer_tricks`` belong to the tricks step."""
        preview, where, error = super().complaint()
        if error is not None and (error.field or "").startswith("declarer_tricks"):
            where = "tricks"
        return preview, where, error

    def side(self) -> list[str]:
        """The declaring side, for the tricks and preview steps."""
        names = self.declarers()
        if self.draft.partner and self.draft.partner not in names:
            names.append(self.draft.partner)
        return names


# --------------------------------------------------------------------------- the other pages


_CALLS = {c.value: c.label for c in jubileu.ALL_CALLS}


def call(slug: str) -> str:
    """A call of the auction, or a contract, by its name (the same in every language)."""
    return _CALLS.get(slug, slug)


def declaring_pair(contract: Mapping[str, Any]) -> tuple[str, str] | None:
    """Partnership contracts name the declarer and his partner. Several Meia Miséria declarers
    are not partners (each plays for himself)."""
    declarers, partner = contract.get("declarers") or [], contract.get("partner")
    if len(declarers) == 1 and isinstance(partner, str) and partner != declarers[0]:
        return str(declarers[0]), partner
    return None


def called_rank(contract: Mapping[str, Any], record: Mapping[str, Any]) -> str:
    """Which card a partnership contract called, as a French rank: Jubileu's ace, Jogo
    Obrigatório's king, or its fourth ace when the declarer held three (the engine's rule)."""
    declarers, aces = contract.get("declarers") or [""], record.get("aces")
    if contract.get("bid") != Bid.JOGO_OBRIGATORIO.value:
        return "A"
    return "K" if calls_king(aces if isinstance(aces, Mapping) else {}, str(declarers[0])) else "A"


def sides_made(hand: Hand) -> list[Made]:
    """What a Jubileu hand made, for its line in the history: each declaring side (the pair,
    declarer + partner; the one solo; or each Meia Miséria declarer), nothing for "everybody
    passed". The record says how many tricks a side took, and the contract's own target says
    whether that made it: the sign of a declarer's delta cannot, since in a Meia Miséria with two
    declarers one who failed still collects from the other when the other failed worse. Without
    the tricks (a record that does not give them), the sign of the delta is what is left."""
    contract: Mapping[str, Any] = hand.result.get("contract") or {}
    declarers = [d for d in contract.get("declarers") or [] if isinstance(d, str)]
    if not declarers:
        return []
    deltas, record = deltas_of(hand), hand.record
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
        taken = count(short) if short is not None else _sum_tricks(tricks, side)
        return [Made(side, taken, made(declarers[0], taken))]
    sides = []
    for name in declarers:
        if isinstance(short, dict):
            taken = count(short.get(name))
        elif short is not None and len(declarers) == 1:
            taken = count(short)
        else:
            taken = count(tricks.get(name))
        sides.append(Made((name,), taken, made(name, taken)))
    return sides


def _sum_tricks(tricks: Mapping[str, object], side: tuple[str, ...]) -> int | None:
    counts = [count(tricks.get(name)) for name in side]
    return None if any(c is None for c in counts) else sum(c for c in counts if c is not None)


REGISTRATION = GamePages(
    slug=jubileu.SLUG,
    flow=JubileuFlow,
    rules_context=lambda: {"ladder": jubileu.LADDER},
    seating_help=N_(
        "Write the names in the order the game goes round. In Jubileu the cards, the auction and the tricks go to the right (counter-clockwise): after player 1 comes the one to their right, and so on."
    ),
    declaring_pair=declaring_pair,
    words={"call": call, "called_rank": called_rank, "made": sides_made},
)
