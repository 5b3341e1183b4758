"""Recording a Jubileu hand: one guided page, step by step.

The draft record travels in the query string (``?d=...``), so every step is a plain GET: the
browser's back button steps back, a reload repeats nothing, and nothing is stored until the
final POST. Which step comes next, and which choices a step offers, is decided by asking the
engine: the draft is judged as if it were complete, and the first complaint names the step that
still needs an answer. The buttons of a step are exactly the values the engine would accept.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import asdict, dataclass, field
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee import ledger
from referee.views.tables import offer_undo
from referee.i18n import render_text
from referee.models import Table
from referee.rules.cards import Suit
from referee.rules.errors import RulesError
from referee.rules.jubileu import TRICKS, Auction, Bid, Pass, Trump, calls_king, first_speaker, parse_aces, parse_call

_FIELD_TYPES: dict[str, type] = {
    "n": int, "key": str, "dealer": str, "ultima": str, "aces": dict, "calls": list, "direct": bool,
    "contract": dict, "trump": str, "called": str, "partner": str, "tricks": dict, "replaces": int, "reason": str,
}
STEPS = ("ultima", "aces", "auction", "contract", "trump", "called", "partner", "tricks", "preview")
DETAILS = ("called", "trump", "partner")


@dataclass
class Draft:
    """A hand under construction, in the shape of the API record plus where the flow stands."""

    n: int = 0  # the hand number the scorer is recording (expected_number)
    key: str = ""  # idempotency key: a double tap on "confirm" stores one hand
    dealer: str | None = None  # fixed when the flow starts: a retry is judged as first sent
    ultima: str | None = None
    aces: dict[str, int] | None = None  # None: not asked yet; {}: nobody
    calls: list[list[str]] = field(default_factory=list)
    direct: bool = False  # only the final contract is known
    contract: dict[str, Any] | None = None
    trump: str | None = None
    called: str | None = None
    partner: str | None = None
    tricks: dict[str, int] | None = None
    replaces: int | None = None
    reason: str = ""

    @classmethod
    def load(cls, raw: str | None) -> Draft:
        """A draft from the query string: fields of the wrong type are dropped, so a forged or
        damaged link starts that part again instead of failing (the engine judges the rest)."""
        try:
            data = json.loads(raw or "{}")
        except ValueError:
            return cls()
        if not isinstance(data, dict):
            return cls()
        kept = {}
        for name, kind in _FIELD_TYPES.items():
            value = data.get(name)
            if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
                kept[name] = value
        draft = cls(**kept)
        draft.calls = [list(c) for c in draft.calls if isinstance(c, list) and len(c) == 2 and all(isinstance(x, str) for x in c)]
        if draft.contract is not None and not (
            isinstance(draft.contract.get("bid"), str)
            and isinstance(draft.contract.get("declarers"), list)
            and all(isinstance(x, str) for x in draft.contract["declarers"])
        ):
            draft.contract = None
        if draft.tricks is not None and not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in draft.tricks.items()
        ):
            draft.tricks = None
        return draft

    def dump(self) -> str:
        return json.dumps({k: v for k, v in asdict(self).items() if v not in (None, [], "", False)}, separators=(",", ":"), ensure_ascii=False)

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
        for key in ("trump", "called", "partner", "tricks"):
            if getattr(self, key) is not None:
                record[key] = getattr(self, key)
        return record


def small_int(text: str | None, below: int) -> int | None:
    """A seat index or a count typed in a form: plain ASCII digits below ``below``, else None."""
    if text and text.isascii() and text.isdigit() and len(text) <= 4 and int(text) < below:
        return int(text)
    return None


def step_of(error: RulesError) -> str:
    """Which step an engine complaint belongs to (by the field it names)."""
    name = (error.field or "").split(".")[0].split("[")[0]
    return {"auction": "auction", "contract": "contract", "aces": "aces", "ultima": "ultima"}.get(name, name if name in STEPS else "preview")


class Flow:
    """The state of one page view: the table, the draft and what the engine says of it."""

    def __init__(self, table: Table, draft: Draft) -> None:
        self.table = table
        self.draft = draft
        self.rules = ledger.rules_of(table)
        self.options = self.rules.parse_options(table.options)
        self.players = ledger.players_of(table)
        if draft.replaces is not None:
            old = ledger.get_hand(table, draft.replaces)
            if old is None:
                abort(404)
            self.dealer = old.dealer
        elif draft.dealer in self.players:
            self.dealer = draft.dealer
        else:
            self.dealer = ledger.current_dealer(table)
        draft.dealer = self.dealer
        self.speaker = first_speaker(self.players, self.dealer, self.options)
        self.error: str | None = None
        self.error_step: str | None = None
        self._sanitize()

    def _sanitize(self) -> None:
        """Make any draft safe to show: unknown values are dropped, and an auction is cut at
        its first illegal call, whose sentence becomes the page's error (a forged or stale
        link shows the rule it breaks, never a crash)."""
        d = self.draft
        if d.ultima not in Suit._value2member_map_:
            d.ultima = None
        for name in ("trump", "called"):
            if getattr(d, name) not in Suit._value2member_map_:
                setattr(d, name, None)
        if d.aces is not None:
            try:
                d.aces = parse_aces(self.players, d.aces)
            except RulesError:
                d.aces = None
        if d.aces is None:
            d.calls = []
            return
        auction = Auction(players=self.players, dealer=self.dealer, options=self.options, aces=d.aces)
        for i, item in enumerate(d.calls):
            try:
                player, raw = item
                auction.call(str(player), parse_call(raw, field="auction"))
            except RulesError as exc:
                self.error = render_text(exc.text)
                d.calls = d.calls[:i]
                return
            except (TypeError, ValueError):
                d.calls = d.calls[:i]
                return

    # -- judging

    def judge(self, draft: Draft | None = None) -> tuple[ledger.Preview | None, RulesError | None]:
        draft = draft or self.draft
        try:
            return ledger.preview_hand(self.table, draft.record(), dealer=self.dealer, number=draft.n or None), None
        except RulesError as exc:
            return None, exc

    def auction(self) -> Auction | None:
        if self.draft.aces is None or self.draft.direct:
            return None
        calls = [(p, parse_call(c, field="auction")) for p, c in self.draft.calls]
        return Auction.replay(players=self.players, dealer=self.dealer, options=self.options, aces=self.draft.aces, calls=calls)

    def contract_bid(self) -> Bid | None:
        if self.draft.direct:
            bid = (self.draft.contract or {}).get("bid")
            return Bid(bid) if bid in Bid._value2member_map_ else None
        auction = self.auction()
        contract = auction.contract if auction else None
        return contract.bid if contract else None

    def step(self) -> str:
        """The first step still waiting for an answer."""
        d = self.draft
        if d.ultima is None:
            return "ultima"
        if d.aces is None:
            return "aces"
        if d.direct and d.contract is None:
            return "contract"
        preview, error = self.judge()
        if error is None:
            return "preview"
        where = step_of(error)
        if where in ("auction", "contract") and not d.direct:
            auction = self.auction()
            if auction is not None and not auction.complete:
                return "auction"
        if where not in ("ultima", "aces", "auction", "contract") and self.contract_bid() is Bid.JOGO_OBRIGATORIO and d.called is None:
            # At the table the partner shows himself (4th ace or called king) and then names
            # trump, so ask in that order: the trump buttons can then leave out that suit.
            return "called"
        if where == "tricks" and d.tricks is None:
            return "tricks"
        if where in DETAILS and getattr(d, where) is None:
            return where
        if self.error is None:
            self.error = render_text(error.text)
        self.error_step = where
        return where

    def legal(self, name: str, candidates: list[Any]) -> list[Any]:
        """The candidate values for a detail that the engine accepts (its complaint moves on)."""
        ok = []
        for value in candidates:
            trial = Draft(**{**asdict(self.draft), name: value})
            _, error = self.judge(trial)
            if error is None or step_of(error) != name:
                ok.append(value)
        return ok

    # -- actions

    def apply(self, action: str) -> None:
        d = self.draft
        kind, _sep, arg = action.partition(":")
        if kind == "ultima" and arg in Suit._value2member_map_:
            d.ultima = arg
        elif kind == "aces":
            if arg == "none":
                d.aces = {}
            else:
                seat_text, _s, count = arg.partition(":")
                seat = small_int(seat_text, len(self.players))
                if seat is not None and count in ("3", "4"):
                    d.aces = {self.players[seat]: int(count)}
        elif kind == "call":
            seat_text, _s, call = arg.partition(":")
            seat = small_int(seat_text, len(self.players))
            if seat is not None:
                d.calls.append([self.players[seat], call])
                self._clear_details()
        elif kind == "undo" and d.calls:
            d.calls.pop()
            self._clear_details()
        elif kind == "direct":
            d.direct, d.calls = True, []
            self._clear_details()
        elif kind == "auction":
            d.direct, d.contract = False, None
            self._clear_details()
        elif kind == "contract":
            self._clear_details()
            bid = request.args.get("bid", "")
            seats = [small_int(i, len(self.players)) for i in request.args.getlist("declarer")]
            declarers = [self.players[i] for i in seats if i is not None]
            d.contract = {"bid": bid, "declarers": declarers}
        elif kind in DETAILS:
            seat = small_int(arg, len(self.players))
            if kind == "partner" and seat is not None:
                d.partner = self.players[seat]
            elif arg in Suit._value2member_map_:
                setattr(d, kind, arg)
        elif kind == "tricks":
            d.tricks = self._read_tricks()
        elif kind == "back" and arg in STEPS:
            self._clear_from(arg)
        self._sanitize()

    def _read_tricks(self) -> dict[str, int]:
        """Tricks per player from the steppers; a single blank is filled so the total is 13."""
        counts: dict[str, int | None] = {}
        for i, name in enumerate(self.players):
            counts[name] = small_int((request.args.get(f"t{i}") or "").strip(), 100)
        blank = [n for n, v in counts.items() if v is None]
        if len(blank) == 1:
            counts[blank[0]] = max(0, TRICKS - sum(v or 0 for v in counts.values()))
        return {n: v or 0 for n, v in counts.items()}

    def _clear_details(self) -> None:
        """A different contract makes its details meaningless: ask them again."""
        d = self.draft
        d.trump = d.called = d.partner = None
        d.tricks = None

    def _clear_from(self, step: str) -> None:
        d = self.draft
        order = STEPS.index(step)
        if order <= STEPS.index("ultima"):
            d.ultima = None
        if order <= STEPS.index("aces"):
            d.aces, d.calls = None, []
        if order <= STEPS.index("contract"):
            if d.calls and step == "auction":
                d.calls.pop()
            d.contract = None
            d.trump = d.called = d.partner = None
        if step in DETAILS:
            setattr(d, step, None)
        d.tricks = None

    # -- what the page shows

    def context(self) -> dict[str, Any]:
        step = self.step()
        ctx: dict[str, Any] = {
            "table": self.table,
            "flow": self,
            "draft": self.draft,
            "d": self.draft.dump(),
            "step": step,
            "players": self.players,
            "dealer": self.dealer,
            "speaker": self.speaker,
            "error": self.error,
            "bid": self.contract_bid(),
        }
        auction = self.auction()
        if auction is not None:
            ctx["auction"] = auction
            if step == "auction":
                ctx["legal"] = auction.legal_calls()
                ctx["joiners"] = auction.joiners()
                ctx["turn"] = auction.turn
                ctx["standing"] = auction.standing
                ctx["declarers"] = auction.declarers
        if step in ("trump", "called"):
            ctx["choices"] = self.legal(step, [s.value for s in Suit])
        elif step == "partner":
            ctx["choices"] = self.legal("partner", list(self.players))
        elif step == "tricks":
            ctx["tricks"] = self.draft.tricks or {}
            ctx["side"] = self.side()
        elif step == "preview":
            preview, _err = self.judge()
            ctx["preview"] = preview
            ctx["side"] = self.side()
        if self.contract_bid() is not None:
            ctx["trump_rule"] = self.contract_bid().info.trump  # type: ignore[union-attr]
        ctx["Trump"] = Trump
        ctx["bids"] = list(Bid)
        ctx["total"] = TRICKS
        ctx["redeal"] = self.options.all_pass == "redeal"
        side = self.side()
        ctx["king"] = bool(side) and calls_king(self.draft.aces or {}, side[0])
        return ctx

    def side(self) -> list[str]:
        """The declaring side, for the tricks and preview steps."""
        bid = self.contract_bid()
        if bid is None:
            return []
        if self.draft.direct:
            names = list((self.draft.contract or {}).get("declarers", []))
        else:
            auction = self.auction()
            names = list(auction.declarers) if auction else []
        if self.draft.partner and self.draft.partner not in names:
            names.append(self.draft.partner)
        return names


def page(table: Table) -> ResponseReturnValue:
    """GET: show the step the draft is at, after applying the button pressed (if any)."""
    draft = Draft.load(request.args.get("d"))
    if not draft.key:
        draft.key = secrets.token_urlsafe(16)
        draft.n = ledger.next_number(table)
    if request.args.get("ultima") and draft.ultima is None:
        draft.ultima = request.args["ultima"] if request.args["ultima"] in Suit._value2member_map_ else None
    replaces = small_int(request.args.get("replaces"), 1_000_000)
    if replaces is not None and draft.replaces is None:
        draft.replaces = replaces
        _prefill(table, draft)
    flow = Flow(table, draft)
    action = request.args.get("action")
    if action:
        flow.apply(action)
    return render_template("tables/jubileu_hand.html", **flow.context())


def _prefill(table: Table, draft: Draft) -> None:
    """A correction starts from the hand it corrects; the scorer changes what was wrong."""
    old = ledger.get_hand(table, draft.replaces) if draft.replaces is not None else None
    if old is None or old.is_void:
        abort(404)
    rec = old.record
    draft.ultima = rec.get("ultima")
    draft.aces = dict(rec.get("aces") or {})
    if "auction" in rec:
        draft.calls = [list(c) for c in rec["auction"]]
    else:
        draft.direct = True
        draft.contract = rec.get("contract")
    draft.trump, draft.called, draft.partner = rec.get("trump"), rec.get("called"), rec.get("partner")
    draft.tricks = rec.get("tricks")


def save(table: Table, *, all_pass: bool = False) -> ResponseReturnValue:
    """POST: store the hand (or an all-pass hand straight from the first steps)."""
    draft = Draft.load(request.form.get("d"))
    replayed_number = ledger.stored_number(table, draft.key) if draft.key else None
    if replayed_number is not None:  # a double tap, or a retry after a lost answer
        return redirect(url_for("tables.show", table_id=table.id))
    flow = Flow(table, draft)
    if all_pass:
        speaking = Auction(players=flow.players, dealer=flow.dealer, options=flow.options).order
        draft.aces = draft.aces or {}
        draft.direct = False
        draft.calls = [[p, Pass.PASSO.value] for p in speaking]
        draft.trump = draft.called = draft.partner = None
        draft.tricks = None
    if draft.replaces is not None:
        draft.reason = " ".join(str(request.form.get("reason") or draft.reason).split())[:200]
    if request.form.get("renumber"):
        draft.n = ledger.next_number(table)
    try:
        number, _answer, replayed = ledger.record_hand(
            table,
            draft.record(),
            expected_number=draft.n or None,
            actor=ledger.BY_SCORER,
            idempotency_key=draft.key or None,
            replaces=draft.replaces,
            reason=draft.reason,
        )
    except ledger.Conflict as exc:
        ctx = flow.context()
        ctx["conflict"] = render_text(exc.text)
        return render_template("tables/jubileu_hand.html", **ctx), 409
    except RulesError as exc:
        ctx = flow.context()
        ctx["error"] = render_text(exc.text)
        return render_template("tables/jubileu_hand.html", **ctx), 422
    if draft.replaces is not None:
        flash(_("Hand %(old)s was corrected: it is void and hand %(number)s takes its place.", old=draft.replaces, number=number), "success")
    elif not replayed:
        offer_undo(table, number)
    return redirect(url_for("tables.show", table_id=table.id))
