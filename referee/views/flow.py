"""The machinery every game's "record a hand" page shares.

A game's flow is one guided page. The draft record travels in the query string (``?d=...``),
so every step is a plain GET: the browser's back button steps back, a reload repeats nothing,
and nothing is stored until the final POST. Which step comes next, and which choices a step
offers, is decided by asking the rules: the draft is judged as if it were complete, and the
first complaint names the step that still needs an answer; the buttons a step offers are the
values the game's rules say may come next there, given the draft so far (:meth:`Flow.legal`
asks them: one question per step, no value tried through the engine).

A game supplies a :class:`Draft` subclass (its fields and how they make an API record) and a
:class:`Flow` subclass (its steps, its buttons' actions and its template), registered with its
web side in :mod:`referee.views.games`. Loading a damaged or forged draft and fixing the dealer
when the flow starts are handled here, once; the routes that show and save a draft (retries,
conflicts, undo) are :mod:`referee.views.hands`.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import asdict, dataclass
from enum import Enum
from functools import cached_property
from typing import Any, ClassVar, TypeVar

from flask import abort, render_template, request
from flask.typing import ResponseReturnValue

from referee import inputs, ledger
from referee.i18n import render_text
from referee.models import Hand, Table
from referee.rules.cards import Suit
from referee.rules.errors import RulesError

D = TypeVar("D", bound="Draft")
E = TypeVar("E", bound=Enum)


def member(kind: type[E], value: object) -> E | None:
    """The member of an engine enumeration (a suit, a bid, a mode) a form or a draft names, or
    None for anything else: a lookup for untrusted input that never raises."""
    for item in kind:
        if item.value == value:
            return item
    return None


def is_suit(value: object) -> bool:
    """Whether a value from a form or a draft names a suit (anything else is dropped or refused)."""
    return Suit.named(value) is not None


def small_int(text: str | None, below: int) -> int | None:
    """A seat index or a count typed in a form: plain ASCII digits below ``below``, else None."""
    if text and text.isascii() and text.isdigit() and len(text) <= 4 and int(text) < below:
        return int(text)
    return None


@dataclass
class Draft:
    """What every draft carries besides the game's own fields."""

    n: int = 0  # the hand number the scorer is recording (sent as expected_number)
    key: str = ""  # idempotency key: a double tap on "confirm" stores one hand
    dealer: str | None = None  # fixed when the flow starts: a retry is judged as first sent
    replaces: int | None = None  # a correction of this hand
    reason: str = ""
    #: A counting step "change" opened again with its counts kept (a correction shows what was
    #: stored, not zeros); the next answer closes it, whichever step it answers.
    reopen: str = ""

    #: Each field's JSON type; a field of another type is dropped when a draft is loaded.
    TYPES: ClassVar[dict[str, type]] = {
        "n": int,
        "key": str,
        "dealer": str,
        "replaces": int,
        "reason": str,
        "reopen": str,
    }

    @classmethod
    def load(cls: type[D], raw: str | None) -> D:
        """A draft from the query string: fields of the wrong type are dropped, so a forged or
        damaged link starts that part again instead of failing (the engine judges the rest)."""
        try:
            data = inputs.parse_json(raw or "{}")
        except ValueError:
            return cls()
        if not isinstance(data, dict):
            return cls()
        kept = {}
        for name, kind in cls.TYPES.items():
            value = data.get(name)
            if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
                kept[name] = value
        draft = cls(**kept)
        draft.clean()
        return draft

    def clean(self) -> None:
        """Deeper shape checks of the game's own fields (lists of pairs, nested objects)."""

    def dump(self) -> str:
        # None means "not asked yet"; {} and False are answers (Jubileu's aces: "nobody";
        # Quatrilho's exchange: "natural") and must survive the round trip.
        values = {k: v for k, v in asdict(self).items() if v is not None and v != [] and v != ""}
        return json.dumps(values, separators=(",", ":"), ensure_ascii=False)

    def record(self) -> dict[str, Any]:
        """The API record this draft stands for."""
        raise NotImplementedError

    def replace(self: D, **changes: Any) -> D:
        return type(self)(**{**asdict(self), **changes})


def step_of(error: RulesError, steps: tuple[str, ...]) -> str:
    """Which step an engine complaint belongs to (by the first name of the field it points at)."""
    name = (error.field or "").split(".")[0].split("[")[0]
    return name if name in steps else steps[-1]


class Flow:
    """One page view: the table, the draft, and what the engine says of it."""

    template: ClassVar[str]
    draft_class: ClassVar[type[Draft]]
    steps: ClassVar[tuple[str, ...]]  # in order; the last one is the preview
    #: False once :meth:`sanitize_to_save` left a check to the engine: the draft is sanitized in
    #: full before a page is drawn from it (:meth:`render`) or when the engine refuses it.
    in_full: bool = True

    def __init__(self, table: Table, draft: Draft, *, sanitize: bool = True) -> None:
        """``sanitize=False``: the caller sanitizes the draft itself once it has its last
        changes (a save, after :meth:`before_save`), so the auction is not replayed twice."""
        self.table = table
        self.draft = draft
        self.rules = ledger.rules_of(table)
        self.options = ledger.options_of(table)
        self.players = ledger.players_of(table)
        self.replaced: Hand | None = None  # the hand a correction replaces
        if draft.replaces is not None:
            self.replaced = ledger.get_hand(table, draft.replaces)
            if self.replaced is None:
                abort(404)
            self.dealer = self.replaced.dealer
        elif draft.dealer in self.players:
            self.dealer = draft.dealer
        else:
            self.dealer = ledger.current_dealer(table)
        draft.dealer = self.dealer
        self.speaker = self.rules.first_speaker(self.players, self.dealer, self.options)
        self.sitting_out = self.rules.sitting_out(self.players, self.dealer, self.options)
        self.error: str | None = None
        if sanitize:
            self.sanitize()

    # -- for the game to fill in

    def sanitize(self) -> None:
        """Drop values the game cannot show; put the engine's sentence in ``self.error``."""

    def sanitize_to_save(self) -> None:
        """Sanitize a draft the engine is about to judge and store. The engine checks the whole
        record again, so a game may leave to it what costs most to check twice (Jubileu: the
        replay of the calls) and set :attr:`in_full` to False. By default, in full."""
        self.sanitize()

    def apply(self, action: str) -> None:
        """Apply the button pressed (``kind:argument``)."""

    def step(self) -> str:
        raise NotImplementedError

    def choices(self, name: str) -> Collection[Any] | None:
        """What may come next at the step ``name`` given the draft so far, as the game's rules
        answer it (a pure function of its rules module, property-tested against its parser), or
        None where any value of the step's kind is accepted (a winner who is any seated player)."""
        return None

    def extra_context(self, step: str) -> dict[str, Any]:
        return {}

    def prefill(self, old_record: dict[str, Any]) -> None:
        """A correction starts from the hand it corrects."""

    def before_save(self, form: Any) -> None:
        """Last changes from the confirm form (e.g. an all-pass shortcut)."""

    def start(self, args: Any) -> None:
        """Values a link into the flow may carry (e.g. the suit tapped on the table page)."""

    # -- shared

    def record(self, draft: Draft | None = None) -> dict[str, Any]:
        """The API record the draft stands for; a game adds what only the page knows (Samba:
        which team the hidden-canastra answer belongs to)."""
        return (draft or self.draft).record()

    def check(self, draft: Draft) -> None:
        """Checks of the page's own before the engine's (Samba: the card counter), raising
        :class:`RulesError`."""

    @cached_property
    def carried_in(self) -> int:
        """A pot game's chips on the table for this hand: the table's, or for a correction
        those of the hand it corrects (as the ledger will store it)."""
        return ledger.chips_carried_in(self.table, self.replaced)

    @cached_property
    def last_record(self) -> dict[str, Any] | None:
        """The record of the table's last hand that is not void (None before the first): a new
        hand may start from it (Kentucky Derby's same bets, Injun's betting system). A
        correction starts from the hand it corrects instead, so it gets None."""
        if self.draft.replaces is not None:
            return None
        hand = ledger.last_live_hand(self.table)
        return dict(hand.record) if hand is not None and isinstance(hand.record, dict) else None

    def judge(self, draft: Draft | None = None) -> tuple[ledger.Preview | None, RulesError | None]:
        draft = draft or self.draft
        try:
            self.check(draft)
            preview = ledger.preview_hand(
                self.table,
                self.record(draft),
                dealer=self.dealer,
                number=draft.n or None,
                correcting=draft.replaces is not None,
                carried_in=self.carried_in,
            )
            return preview, None
        except RulesError as exc:
            return None, exc
        except ledger.Conflict as exc:  # the table was closed (or the match ended) meanwhile
            return None, RulesError(exc.text)

    def complaint(self) -> tuple[ledger.Preview | None, str, RulesError | None]:
        """The preview if the draft is complete, else the step the engine's complaint is about."""
        preview, error = self.judge()
        if error is None:
            return preview, self.steps[-1], None
        return None, step_of(error, self.steps), error

    def legal(self, name: str, candidates: list[Any]) -> list[Any]:
        """The candidate values for the step ``name`` that the rules accept, in the candidates'
        order: those of :meth:`choices`, or every candidate where the rules set no limit."""
        allowed = self.choices(name)
        if allowed is None:
            return list(candidates)
        return [value for value in candidates if value in allowed]

    @cached_property
    def numbering(self) -> ledger.Numbering:
        return ledger.numbering(self.table)

    @cached_property
    def saved(self) -> Hand | None:
        """The hand this draft was already saved as (the browser's Back after a save brings its
        page again), or None."""
        number = ledger.stored_number(self.table, self.draft.key) if self.draft.key else None
        return ledger.get_hand(self.table, number) if number is not None else None

    def read_again(self) -> None:
        """Another write reached the table first (a save's conflict): what the flow read of its
        hands (the places they show, the carried pot, the last record) is read again when next used."""
        for name in ("numbering", "saved", "carried_in", "last_record"):
            self.__dict__.pop(name, None)

    def shown_number(self) -> int:
        """The number this hand shows on the pages: once saved, the place it took; else the
        corrected hand's (a correction keeps its place), else the next place's. The draft's
        ``n`` is the stored number it expects, never shown."""
        return self.numbering.of(self.saved) or self.numbering.of(self.replaced) or self.numbering.next

    def show_error(self, error: RulesError) -> None:
        if self.error is None:
            self.error = render_text(error.text)

    def context(self) -> dict[str, Any]:
        step = self.step()
        return {
            "table": self.table,
            "flow": self,
            "draft": self.draft,
            "d": self.draft.dump(),
            "step": step,
            "players": self.players,
            "dealer": self.dealer,
            "speaker": self.speaker,
            "sitting_out": self.sitting_out,
            "error": self.error,
            "numbering": self.numbering,
            "shown_n": self.shown_number(),
            # A new hand in progress is kept on the phone by table and place (app.js), and
            # offered back on its first page (no draft in the address yet).
            "draft_place": None if self.draft.replaces is not None else f"{self.table.id}:{self.shown_number()}",
            "draft_start": not request.values.get("d"),
            **self.extra_context(step),
        }

    def render(self, status: int = 200, **extra: Any) -> ResponseReturnValue:
        """The page for the draft. A save that left checks to the engine (:attr:`in_full`) and
        is answered with the page after all (a conflict, a missing reason) sanitizes the draft in
        full first: the page draws only what the rules allow, a forged call included."""
        if not self.in_full:
            self.sanitize()
        return render_template(self.template, **{**self.context(), **extra}), status


__all__ = ["Draft", "Flow", "is_suit", "small_int", "step_of"]
