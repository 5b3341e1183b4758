"""Injun's web side: its registration, and recording a hand: the betting action by action,
the cards compared, a preview, confirm.

The page always says whose turn it is and offers exactly what the engine allows him
(:meth:`referee.rules.injun.Betting.legal_actions`): in Poker a bet that tops the last one (a
few quick amounts and a stepper), the bet equal to it that closes the betting, or dropping out;
in Brag one chip, paying two to see (only with two players left), closing the pot with his card,
or dropping out. The running pots, each player's chips in and who is still in are shown after
every action, and the last action can be undone with a plain link (the draft is in the URL).
When the engine says the betting is over, the page asks the rank of exactly the players whose
cards are compared, then previews who takes which pot. The shared machinery (draft in the URL,
retries, conflicts, corrections, undo of a saved hand) is in :mod:`referee.views.flow` and
:mod:`referee.views.hands`.

A forged action (a button the page did not offer, or a link carrying illegal actions) is
refused with the engine's sentence and a 422; a forged save is judged as sent, so the engine
refuses it and nothing is stored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from flask import request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee.i18n import fmt_int, render_text
from referee.rules import injun
from referee.rules.cards import french_rank_label
from referee.rules.errors import RulesError
from referee.rules.seats import join_names
from referee.rules.text import N_, Text
from referee.views import flow
from referee.views.games.pages import GamePages

#: The engine's fields, in the order the page asks them. ``system`` and ``ante`` are both
#: answered on the page's "setup" step; the last is the preview.
STEPS = ("system", "ante", "actions", "cards", "preview")
SETUP = ("system", "ante")
SYSTEMS = tuple(s.value for s in injun.System)
#: Poker's quick amounts: the last bet plus each of these (the first bet: these amounts).
QUICK_RAISES = (1, 2, 3, 5, 10, 20)
#: Ranks on the card buttons, highest first (the engine's order, A high … 2 low).
RANKS_HIGH_FIRST = tuple(reversed(injun.RANKS))
_ACTION_INDEX = re.compile(r"actions\[(\d+)\]")


@dataclass
class InjunDraft(flow.Draft):
    """An Injun hand under construction, in the shape of the API record. The actions are kept
    as sent ([player, action] in the API spelling): the engine judges them, so a damaged link
    shows the rule it breaks instead of being quietly mended."""

    system: str | None = None  # None: the system of the table's last hand, else the table's option
    ante: int | None = None  # None: the table's option
    actions: list[Any] = field(default_factory=list)
    cards: dict[str, Any] | None = None  # None: not asked yet
    setup: bool = False  # the scorer asked to change the system or the ante

    TYPES: ClassVar[dict[str, type]] = {
        **flow.Draft.TYPES,
        "system": str,
        "ante": int,
        "actions": list,
        "cards": dict,
        "setup": bool,
    }

    def record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"system": self.system, "ante": self.ante, "actions": self.actions}
        if self.dealer is not None:
            record["dealer"] = self.dealer
        if self.cards:
            record["cards"] = self.cards
        return record


def describe(player: str, action: injun.Action, system: injun.System) -> str:
    """One action in words, for the list of what was done."""
    if action.kind is injun.Kind.DROP:
        return str(_("%(name)s drops out", name=player))
    if action.kind is injun.Kind.SEE:
        return str(_("%(name)s pays 2 chips to see", name=player))
    if action.kind is injun.Kind.CLOSE:
        return str(_("%(name)s closes the pot with their card", name=player))
    if system is injun.System.BRAG:
        return str(_("%(name)s bets 1 chip", name=player))
    return str(_("%(name)s bets %(amount)s", name=player, amount=action.amount))


def names(players: tuple[str, ...] | list[str]) -> str:
    """Players in a sentence ("Ana, Bia and Caio"), in the reader's language."""
    joined = join_names(list(players))
    return render_text(joined) if isinstance(joined, Text) else joined


def _amount(text: str | None) -> object:
    """A typed bet: a whole number, else the text itself, for the engine to refuse in words."""
    text = (text or "").strip()
    if text.isascii() and text.isdigit() and len(text) <= 9:
        return int(text)
    return text


class InjunFlow(flow.Flow):
    template = "games/injun/hand.html"
    draft_class = InjunDraft
    steps = STEPS
    draft: InjunDraft

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.refused = False  # something sent was illegal: the page answers 422
        super().__init__(*args, **kwargs)

    # -- the betting, as the engine replays it

    @property
    def system(self) -> injun.System:
        return injun.System(self.draft.system)

    def replay(self, actions: list[Any]) -> tuple[injun.Betting, RulesError | None]:
        """The betting after ``actions``, stopped before the first one the engine refuses (and
        its complaint)."""
        kwargs: dict[str, Any] = {
            "players": self.players,
            "dealer": self.dealer,
            "system": self.system,
            "ante": self.draft.ante,
            "carried_in": self.carried_in,
            "options": self.options,
        }
        try:
            return injun.replay(actions, **kwargs), None
        except RulesError as exc:
            match = _ACTION_INDEX.fullmatch(exc.field or "")
            good = int(match.group(1)) if match else 0
            return injun.replay(actions[:good], **kwargs), exc

    def needed(self) -> list[str]:
        """Whose cards are compared, in order from the dealer's left (empty while betting)."""
        if not self.betting.over:
            return []
        shown = {p for hp in self.pots() if hp.contested for p in hp.contenders}
        return [p for p in self.betting.order if p in shown]

    def pots(self) -> tuple[injun.HandPot, ...]:
        return self.betting.result(surrender_closed=self.options.surrender_closed)

    # -- flow hooks

    def sanitize(self) -> None:
        """Fill the system and ante from the table; cut the actions at the first one the engine
        refuses (its sentence becomes the page's error); keep only the cards the engine asks.
        A save is left as sent: the engine refuses a forged one and nothing is stored."""
        d = self.draft
        if d.system not in SYSTEMS:
            d.system = self.usual_system()
        if d.ante is None or not 0 <= d.ante <= injun.MAX_CHIPS:
            d.ante = self.options.ante
        saving = request.method == "POST"
        if not isinstance(d.actions, list):
            d.actions = []
        self.betting, error = self.replay(d.actions)
        if error is not None and not saving:
            self.show_error(error)
            self.refused = True
            d.actions = d.actions[: len(self.betting.actions)]
        if saving or d.cards is None:
            return
        needed = self.needed()
        d.cards = {p: d.cards[p] for p in needed if d.cards.get(p) in injun.RANKS} if needed else None

    def usual_system(self) -> str:
        """The system a new hand starts with: the one the table's last hand was played in (a
        table that switched to Brag goes on in Brag), else the table's option."""
        last = self.last_record or {}
        return last["system"] if last.get("system") in SYSTEMS else self.options.system

    def step(self) -> str:
        d = self.draft
        if d.setup:
            return "setup"
        if not self.betting.over:
            return "actions"
        if any(p not in (d.cards or {}) for p in self.needed()):
            return "cards"
        _preview, where, error = self.complaint()
        if error is not None:
            self.show_error(error)
            if where in SETUP:
                return "setup"
            return where
        return "preview"

    def apply(self, action: str) -> None:
        d = self.draft
        kind, _sep, arg = action.partition(":")
        if kind == "act":
            self._act(arg)
        elif kind == "undo":
            if d.actions:
                d.actions.pop()
            d.cards = None
            d.setup = False
        elif kind == "card":
            self._card(arg)
        elif kind == "back" and arg == "setup":
            d.setup = True
        elif kind == "back" and arg == "cards":
            d.cards = None
        elif kind == "setup":
            self._setup()
        elif kind == "system" and arg in SYSTEMS and not d.actions:
            # The one-tap switch, offered before the first action: nothing to start again.
            d.system, d.cards = arg, None

    def _act(self, arg: str) -> None:
        """``act:<seat>:<kind>[:<amount>]``: the player's action, checked by the engine before it
        joins the draft. A Poker bet's amount is in the button or in the stepper (``amount``)."""
        d = self.draft
        seat_text, _sep, rest = arg.partition(":")
        what, _sep, amount_text = rest.partition(":")
        seat = flow.small_int(seat_text, len(self.players))
        if seat is None or what not in ("bet", "drop", "see", "close"):
            return
        raw: object = what
        if what == "bet" and self.system is injun.System.POKER:
            raw = {"bet": _amount(amount_text if amount_text else request.args.get("amount"))}
        _betting, error = self.replay([*d.actions, [self.players[seat], raw]])
        if error is not None:
            self.show_error(error)
            self.refused = True
            return
        d.actions.append([self.players[seat], raw])
        d.cards = None

    def _card(self, arg: str) -> None:
        """``card:<seat>:<rank>``: a card shown. The engine refuses a rank that does not exist
        or a card that is not compared in this hand."""
        d = self.draft
        seat_text, _sep, rank = arg.partition(":")
        seat = flow.small_int(seat_text, len(self.players))
        if seat is None:
            return
        name = self.players[seat]
        cards = {**(d.cards or {}), name: rank}
        _preview, error = self.judge(d.replace(cards=cards))
        if error is not None and error.field == f"cards.{name}":
            self.show_error(error)
            self.refused = True
            return
        d.cards = cards

    def _setup(self) -> None:
        """The system and the ante from the setup step; another system starts the betting again
        (the same actions mean other things in it)."""
        d = self.draft
        system = request.args.get("system")
        system = system if system in SYSTEMS else d.system
        ante = _amount(request.args.get("ante"))
        _preview, error = self.judge(d.replace(system=system, ante=ante, actions=[], cards=None))
        if error is not None and error.field in SETUP:
            self.show_error(error)
            self.refused = True
            return
        assert isinstance(ante, int)
        if system != d.system:
            d.actions, d.cards = [], None
        d.system, d.ante, d.setup = system, ante, False

    def prefill(self, old: dict[str, Any]) -> None:
        d = self.draft
        d.system = old.get("system")
        d.ante = old.get("ante")
        d.actions = [list(a) for a in old.get("actions") or []]
        d.cards = dict(old["cards"]) if old.get("cards") else None

    def render(self, status: int = 200, **extra: Any) -> ResponseReturnValue:
        if self.refused and status == 200:
            status = 422
        return super().render(status, **extra)

    # -- what the page shows

    def extra_context(self, step: str) -> dict[str, Any]:
        b = self.betting
        system = self.system
        ctx: dict[str, Any] = {
            "system": system,
            "systems": list(injun.System),
            "carried_in": self.carried_in,
            "done": [describe(p, a, system) for p, a in b.actions],
            "rows": self.rows(),
            "pot_rows": self.pot_rows(),
            "turn": b.turn,
            "betting_count": len(b.betting),
            "end": self.end_sentence(),
            "rank_label": lambda rank: french_rank_label(rank).render(_),
        }
        if step == "setup":
            spec = next(s for s in injun.OPTIONS if s.name == "system")
            ctx["system_choices"] = [(c.value, render_text(c.label)) for c in spec.choices]
        if step == "actions" and b.turn is not None:
            ctx.update(self._turn_context())
        elif step == "cards":
            ctx.update(self._cards_context())
        elif step == "preview":
            preview, _error = self.judge()
            ctx["preview"] = preview
            ctx["showdowns"] = self.showdowns()
            if preview is not None:
                ctx["carried_out"] = getattr(preview.settlement, "carried_out", 0)
        return ctx

    def _turn_context(self) -> dict[str, Any]:
        """What the player whose turn it is may do: the legal actions, Poker's quick amounts."""
        b = self.betting
        legal = b.legal_actions()
        ctx: dict[str, Any] = {"legal": legal, "seat": self.players.index(b.turn)}
        if legal.raise_from is not None:
            base = legal.raise_from - 1
            ctx["quick"] = [base + k for k in QUICK_RAISES if base + k <= injun.MAX_CHIPS]
        ctx["last_bettor"] = next((p for p, a in reversed(b.actions) if a.kind is injun.Kind.BET), None)
        ctx["top"] = b.top
        return ctx

    def _cards_context(self) -> dict[str, Any]:
        """Whose rank to ask next, and the ranks still in the deck."""
        needed = self.needed()
        cards = self.draft.cards or {}
        return {
            "asking": next((p for p in needed if p not in cards), None),
            "needed": needed,
            "ranks": [r for r in RANKS_HIGH_FIRST if list(cards.values()).count(r) < injun.PER_RANK],
            "showdowns": self.showdowns(),
        }

    def rows(self) -> list[dict[str, Any]]:
        """Each player in order from the dealer's left: chips in, and still in or not."""
        b = self.betting
        paid = b.paid()
        return [
            {
                "name": name,
                "paid": paid[name],
                "status": b.status[name].value,
                "pot": b.closers.index(name) + 1 if name in b.closers else None,
                "turn": name == b.turn,
            }
            for name in b.order
        ]

    def pot_rows(self) -> list[dict[str, Any]]:
        """The pots so far: each closed one with its closer, then the open one."""
        b = self.betting
        return [
            {"number": k + 1, "chips": pot.chips, "closer": b.closers[k] if k < len(b.closers) else None}
            for k, pot in enumerate(b.pots)
        ]

    def showdowns(self) -> list[dict[str, Any]]:
        """Once the betting is over: each pot with chips and who may take it."""
        if not self.betting.over:
            return []
        return [
            {
                "number": k + 1,
                "chips": hp.chips,
                "closer": hp.closer,
                "names": names(hp.contenders),
                "contested": hp.contested,
            }
            for k, hp in enumerate(self.pots())
            if hp.chips
        ]

    def end_sentence(self) -> str | None:
        """How the betting ended, in words (None while it goes on)."""
        b = self.betting
        if b.end is None:
            return None
        last = b.actions[-1][0] if b.actions else ""
        if b.end is injun.End.CALLED:
            return str(_("%(name)s matched the bet before: the betting is closed.", name=b.closed_by or last))
        if b.end is injun.End.LAST_STANDING:
            return str(_("Everybody else dropped out: %(name)s is the last player betting.", name=b.betting[0]))
        if b.end is injun.End.SEEN:
            return str(_("%(name)s paid 2 chips to see: the cards are compared.", name=last))
        return str(_("%(name)s closed the pot, leaving %(other)s alone in the betting.", name=last, other=b.betting[0]))


def pots(contract: Mapping[str, Any], cards: Mapping[str, str] | None) -> list[str]:
    """A hand's pots in its history line ("Ana wins 12", "pot closed by Bia: Bia wins
    8", "last pot: Ana and Caio share 4"): who took each, by the engine's own comparison."""
    pots = [p for p in contract.get("pots") or [] if p.get("chips")]
    out: list[str] = []
    for pot in pots:
        hand_pot = injun.HandPot(
            chips=pot["chips"], closer=pot.get("closer"), contenders=tuple(pot.get("contenders") or ())
        )
        try:
            winners = injun.winners_of(hand_pot, cards or {})
        except (KeyError, ValueError):
            continue  # a record without the cards it needs: say nothing rather than guess
        if len(winners) == 1:
            outcome = _("%(name)s wins %(chips)s", name=winners[0], chips=fmt_int(pot["chips"]))
        else:
            names = join_names(winners)
            outcome = _(
                "%(names)s share %(chips)s",
                names=render_text(names) if isinstance(names, Text) else names,
                chips=fmt_int(pot["chips"]),
            )
        if hand_pot.closer is not None:
            outcome = _("pot closed by %(name)s: %(outcome)s", name=hand_pot.closer, outcome=outcome)
        elif len(pots) > 1:
            outcome = _("last pot: %(outcome)s", outcome=outcome)
        out.append(outcome)
    return out


def rules_context() -> dict[str, Any]:
    return {
        "low": injun.MIN_PLAYERS,
        "high": injun.MAX_PLAYERS,
        "ranks": " ".join(reversed(injun.RANKS)),
        "brag_bet": injun.BRAG_BET,
        "see_cost": injun.SEE_COST,
        "per_rank": injun.PER_RANK,
    }


REGISTRATION = GamePages(
    slug=injun.SLUG,
    flow=InjunFlow,
    rules_context=rules_context,
    turn_line=N_("%(dealer)s deals; %(speaker)s bets first."),
    dealer_help=N_(
        "Deal the cards face up, one to each player in turn: the first to get an ace deals first. By default the last player deals, so player 1 bets first."
    ),
    words={"pots": pots},
)
