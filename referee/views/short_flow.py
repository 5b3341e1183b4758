"""Recording a hand of the games with a short record: Koziri, Lift Smoke, El Gato, and the
patiences (Relógio and Relógio Real at a ``relogio`` table, Paciência do Cachorro).

One flow serves them all. Each game declares its record's fields (:class:`Field`) in its own
module of :mod:`referee.views.games`: who (a
player picker), suit (four suit buttons), choice (a few labelled buttons), count (number
buttons, or a stepper for a wide range), yes/no, and order (players tapped in the order they
went out, with "same trick" and undo). The page asks the first field still unanswered, one tap
each, then shows the engine's preview of the settlement and the confirm button. The buttons a
step offers are the values the game's rules say may come next (a function of its rules module
given to :meth:`ShortFlow.for_game`, asked by :meth:`referee.views.flow.Flow.legal`): Koziri's
opponent is offered only the two suits the dealer left.

A field may be prefilled from the table's options (Lift Smoke's ante), asked only under a
condition (Relógio's King exchange), skipped (Lift Smoke's order of going out) or offered only
on the preview (El Gato's). Everything else (the draft in the URL, the final POST, retries,
conflicts, corrections, undo) is the shared machinery of :mod:`referee.views.flow` and
:mod:`referee.views.hands`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from flask import request
from flask_babel import gettext as _

from referee import ledger
from referee.rules.cards import Suit
from referee.rules.record import Field as RecordField
from referee.rules.record import OutOrder, Player, RecordSpec, SuitField
from referee.rules.text import N_
from referee.views import flow

KINDS = ("who", "suit", "choice", "count", "yesno", "order")
#: A count with at most this many values is offered as buttons; a wider one as a stepper.
MAX_COUNT_BUTTONS = 6
MAX_ORDER = 12  # entries of an order of going out a draft may carry (10 players at most)

Answers = Mapping[str, Any]
#: A rules module's "what may come next" for a short record: the values the rules accept at a
#: field (by name) given the record so far, or None where any value of the field's kind is.
OpenChoices = Callable[[str, Mapping[str, object]], Collection[object] | None]


@dataclass(frozen=True, kw_only=True)
class Field:
    """One field of a game's record, and how the page asks for it.

    ``question``, ``help`` and the labels are English msgids (marked with ``N_``); they may
    name ``%(dealer)s``, ``%(opponent)s`` (the player after the dealer), ``%(player)s`` (the
    first seat), ``%(pot)s``, ``%(need)s`` and any answered player field (``%(winner)s``).
    """

    name: str  # the record's key, and the step's name
    kind: str  # one of KINDS
    label: str  # short, for the summary of what is decided (may name players too)
    question: str  # the step's heading
    help: str = ""
    #: choice and yesno: (value, label); a yes/no's values are "yes" and "no".
    choices: tuple[tuple[str, str], ...] = ()
    low: int = 0  # count: the smallest and largest values
    high: int = 0
    #: Prefilled from the table's options, shown in the summary with "change", never asked.
    default: Callable[[Any], Any] | None = None
    #: Asked only when this holds, given the answers so far and the table's options.
    when: Callable[[Answers, Any], bool] | None = None
    #: "" must be answered; "skip": asked, with a button to leave it out; "later": not asked,
    #: offered on the preview.
    optional: str = ""
    #: order: the field naming the player who never goes out (Lift Smoke's winner).
    survivor: str = ""
    #: order: the question once someone is placed.
    next_question: str = ""
    #: order: the toggle that puts the survivor in the last group (Lift Smoke).
    tie: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown field kind {self.kind!r}")

    def choice_label(self, value: object) -> str:
        for key, label in self.choices:
            if key == value or (self.kind == "yesno" and key == ("yes" if value else "no")):
                return label
        return str(value)


#: The answers to "did it come out?", shared by the patiences.
def asked(record: RecordSpec, name: str, **how: Any) -> Field:
    """The step that asks the record's field ``name``: its kind, bounds and values come from the
    game's declaration of its record (:class:`~referee.rules.record.RecordSpec`), so the page
    offers exactly what the engine accepts; ``how`` gives the words (and may name a kind where a
    number is asked as yes or no, as Relógio's King exchange, stored as 0 or 1)."""
    spec = next(f for f in record.fields if f.name == name)
    kind, bounds = _kind_of(spec)
    return Field(name=name, **{"kind": kind, **bounds, **how})


def _kind_of(spec: RecordField) -> tuple[str, dict[str, int]]:
    if isinstance(spec, Player):
        return "who", {}
    if isinstance(spec, SuitField):
        return "suit", {}
    if isinstance(spec, OutOrder):
        return "order", {}
    schema = spec.schema()
    types = schema.get("type")
    if "enum" in schema:
        return "choice", {}
    if types == "boolean":
        return "yesno", {}
    if "integer" in (types if isinstance(types, list) else [types]):
        return "count", {"low": schema["minimum"], "high": schema["maximum"]}
    raise ValueError(f"the flow has no step for the field {spec.name!r}")


WON_LOST = (("yes", N_("Yes, it came out")), ("no", N_("No, it did not")))


# --------------------------------------------------------------------------- the draft


def _plain(value: object) -> bool:
    """A value a field can hold: a string, a whole number, a boolean, or an order of going out
    (a short list of names and lists of names)."""
    if isinstance(value, (str, int)):  # bool is an int
        return not isinstance(value, str) or len(value) <= 200
    if isinstance(value, list) and len(value) <= MAX_ORDER:
        return all(
            isinstance(entry, str)
            or (isinstance(entry, list) and 0 < len(entry) <= MAX_ORDER and all(isinstance(x, str) for x in entry))
            for entry in value
        )
    return False


@dataclass
class ShortDraft(flow.Draft):
    """A short record under construction: the answers by field name (``v``), the optional
    fields left out (``skipped``) and the field being changed (``edit``)."""

    v: dict[str, Any] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    edit: str | None = None

    TYPES: ClassVar[dict[str, type]] = {**flow.Draft.TYPES, "v": dict, "skipped": list, "edit": str}

    def clean(self) -> None:
        self.v = {k: value for k, value in self.v.items() if isinstance(k, str) and _plain(value)}
        self.skipped = [s for s in self.skipped if isinstance(s, str)][: len(KINDS) * 2]


# --------------------------------------------------------------------------- the flow


class ShortFlow(flow.Flow):
    """The flow of one game with a short record; :meth:`for_game` makes a game's class."""

    template = "tables/short_hand.html"
    draft_class = ShortDraft
    fields: ClassVar[tuple[Field, ...]] = ()
    steps: ClassVar[tuple[str, ...]] = ("preview",)
    draft: ShortDraft

    @classmethod
    def for_game(cls, slug: str, declared: tuple[Field, ...], choices: OpenChoices | None = None) -> type[ShortFlow]:
        """A game's flow: its fields, and the function of its rules module that answers what may
        come next at a field given the record so far (e.g. :func:`referee.rules.koziri.open_choices`;
        none: any value of a field's kind)."""
        attrs: dict[str, Any] = {"fields": declared, "steps": (*(f.name for f in declared), "preview")}
        if choices is not None:

            def asked(self: ShortFlow, name: str) -> Collection[Any] | None:
                return choices(name, self.record())

            attrs["choices"] = asked
        return type(f"ShortFlow_{slug}", (cls,), attrs)

    # -- the declaration, for this table

    def field(self, name: str | None) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)

    def applies(self, f: Field, answers: Answers | None = None) -> bool:
        return f.when is None or f.when(self.draft.v if answers is None else answers, self.options)

    def active(self) -> list[Field]:
        """The fields this hand asks, given the answers so far."""
        return [f for f in self.fields if self.applies(f)]

    def valid(self, f: Field, value: object) -> bool:
        """The value has the field's kind (the engine judges the rest)."""
        if f.kind == "who":
            return value in self.players
        if f.kind == "suit":
            return flow.is_suit(value)
        if f.kind == "choice":
            return value in {key for key, _label in f.choices}
        if f.kind == "count":
            return type(value) is int and f.low <= value <= f.high
        if f.kind == "yesno":
            return isinstance(value, bool)
        names = [n for group in _groups(value) for n in group]
        return isinstance(value, list) and all(n in self.players for n in names) and len(set(names)) == len(names)

    def sanitize(self) -> None:
        """Drop answers of the wrong kind, of fields this hand does not ask, and of unknown
        fields; fill the prefilled ones (a forged link starts those parts again)."""
        d = self.draft
        d.v = {f.name: d.v[f.name] for f in self.fields if f.name in d.v and self.valid(f, d.v[f.name])}
        for f in self.fields:  # in order: a field's condition looks at the answers before it
            if not self.applies(f):
                d.v.pop(f.name, None)
            elif f.default is not None and f.name not in d.v:
                d.v[f.name] = f.default(self.options)
        optional = {f.name for f in self.fields if f.optional}
        d.skipped = [n for n in dict.fromkeys(d.skipped) if n in optional and n not in d.v]
        editing = self.field(d.edit)
        if editing is None or not self.applies(editing):
            d.edit = None

    # -- the order of going out

    def survivor(self, f: Field, answers: Answers | None = None) -> str | None:
        value = (self.draft.v if answers is None else answers).get(f.survivor)
        return value if isinstance(value, str) else None

    def placed(self, f: Field) -> list[str]:
        return [n for group in _groups(self.draft.v.get(f.name)) for n in group]

    def remaining(self, f: Field) -> list[str]:
        """The players still to be placed in the order (never the survivor)."""
        placed, survivor = self.placed(f), self.survivor(f)
        return [p for p in self.players if p not in placed and p != survivor]

    def complete(self, f: Field) -> bool:
        if f.name not in self.draft.v:
            return False
        return f.kind != "order" or not self.remaining(f)

    # -- steps

    def step(self) -> str:
        """The field being changed; else an answered field the engine refuses (with its
        sentence); else the first field still unanswered; else the preview."""
        d = self.draft
        if d.edit is not None:
            return d.edit
        _preview, where, error = self.complaint()
        complained = self.field(where)
        if error is not None and complained is not None and self.complete(complained):
            self.show_error(error)  # an answer the engine refuses (a forged link): ask it again
            return where
        for f in self.active():
            if f.name in d.skipped or (f.optional == "later" and f.name not in d.v):
                continue
            if not self.complete(f):
                return f.name
        if error is not None:
            self.show_error(error)
        return where

    def record(self, draft: flow.Draft | None = None) -> dict[str, Any]:
        d = draft or self.draft
        assert isinstance(d, ShortDraft)
        record: dict[str, Any] = {}
        if d.dealer is not None:
            record["dealer"] = d.dealer
        for f in self.fields:
            if f.name in d.v and self.applies(f, d.v):
                record[f.name] = d.v[f.name]
        return record

    # -- actions: set:<field>:<value>, edit:<field>, skip:<field>, out/with/undo/tie:<field>[:<seat>]

    def apply(self, action: str) -> None:
        d = self.draft
        kind, _sep, rest = action.partition(":")
        name, _sep, arg = rest.partition(":")
        f = self.field(name)
        if f is None or not self.applies(f):
            return
        if kind == "set":
            value = self._parse(f, arg if arg else request.args.get("n"))
            if value is not None:
                self._answer(f, value)
        elif kind == "edit":
            d.edit = f.name
            if f.kind == "order":
                d.v.pop(f.name, None)
            d.skipped = [n for n in d.skipped if n != f.name]
        elif kind == "skip" and f.optional:
            d.v.pop(f.name, None)
            d.skipped.append(f.name)
            d.edit = None
        elif f.kind == "order":
            self._order(f, kind, arg)

    def _parse(self, f: Field, text: str | None) -> Any:
        text = (text or "").strip()
        if f.kind == "who":
            seat = flow.small_int(text, len(self.players))
            return self.players[seat] if seat is not None else None
        if f.kind == "count":
            number = int(text) if text.isascii() and text.isdigit() and len(text) <= 7 else None
            return number if number is not None and f.low <= number <= f.high else None
        if f.kind == "yesno":
            return {"yes": True, "no": False}.get(text)
        if f.kind in ("suit", "choice"):
            return text if self.valid(f, text) else None
        return None

    def _answer(self, f: Field, value: Any) -> None:
        """Keep an answer; a changed answer asks again the fields after it (their answers may
        no longer fit), except the prefilled ones."""
        d = self.draft
        old = d.v.get(f.name)
        d.v[f.name] = value
        d.edit = None
        if old is not None and old != value:
            later = self.fields[self.fields.index(f) + 1 :]
            for g in later:
                if g.default is None:
                    d.v.pop(g.name, None)
                    d.skipped = [n for n in d.skipped if n != g.name]

    def _order(self, f: Field, kind: str, arg: str) -> None:
        """A tap on the order of going out: a player out (alone, or on the same trick as the
        last group), undo, or the survivor's tie; a tap that changes nothing is ignored."""
        d = self.draft
        groups = [list(g) for g in _groups(d.v.get(f.name))]
        if kind in ("out", "with"):
            changed = self._place(f, kind, arg, groups)
        elif kind == "undo":
            changed = _undo_last(groups)
        elif kind == "tie":
            changed = self._tie(f, groups)
        else:
            changed = False
        if not changed:
            return
        d.skipped = [n for n in d.skipped if n != f.name]
        if groups:
            d.v[f.name] = [g[0] if len(g) == 1 else g for g in groups]
        else:
            d.v.pop(f.name, None)
        if self.complete(f):
            d.edit = None

    def _place(self, f: Field, kind: str, arg: str, groups: list[list[str]]) -> bool:
        """The player at seat ``arg`` goes out: in a group of his own, or ("with") on the same
        trick as the last group. Not for a player already placed (a stale page, a double tap)."""
        seat = flow.small_int(arg, len(self.players))
        player = self.players[seat] if seat is not None else None
        if player is None or player not in self.remaining(f):
            return False
        if kind == "with" and groups:
            groups[-1].append(player)
        else:
            groups.append([player])
        return True

    def _tie(self, f: Field, groups: list[list[str]]) -> bool:
        """Put the survivor in the last group, or take him out of it (Lift Smoke)."""
        survivor = self.survivor(f)
        if not (f.tie and survivor and groups):
            return False
        if survivor in groups[-1]:
            groups[-1].remove(survivor)
        else:
            groups[-1].append(survivor)
        return True

    def prefill(self, old: dict[str, Any]) -> None:
        """A correction starts from the stored record (Relógio's exchanges stored as 0 or 1)."""
        d = self.draft
        for f in self.fields:
            value = old.get(f.name)
            if f.kind == "yesno" and type(value) is int:
                value = bool(value)
            if value is not None:
                d.v[f.name] = value
            elif f.optional:
                d.skipped.append(f.name)

    # -- what the page shows

    def names(self) -> dict[str, Any]:
        """The values a question or a help may name (every key always present)."""
        names: dict[str, Any] = {
            "dealer": self.dealer,
            "opponent": self.players[(self.players.index(self.dealer) + 1) % len(self.players)]
            if self.dealer in self.players
            else "",
            "player": self.players[0] if self.players else "",
            "pot": self.pot(),
            "need": "" if self.rules.goal(self.options) is None else self.rules.goal(self.options),
        }
        for f in self.fields:
            if f.kind == "who":
                names[f.name] = self.draft.v.get(f.name, "")
        return names

    def say(self, msgid: str) -> str:
        """A field's question or help in the reader's language, its names filled in."""
        return _(msgid) % self.names() if msgid else ""

    def pot(self) -> int | None:
        """A pot game's chips for this hand: every ante plus what lies on the table already."""
        if not self.rules.kind.carries_pot:
            return None
        ante = self.draft.v.get("ante", self.rules.ante(self.options))
        return int(ante) * len(self.players) + ledger.on_the_table(self.table)

    def extra_context(self, step: str) -> dict[str, Any]:
        f = self.field(step)
        ctx: dict[str, Any] = {"field": f, "fields": self.active(), "answers": self.draft.v, "pot": self.pot()}
        if f is not None:
            if f.kind == "who":
                ctx["choices"] = self.legal(f.name, list(self.players))
            elif f.kind == "suit":
                ctx["choices"] = self.legal(f.name, [s.value for s in Suit])
            elif f.kind == "choice":
                ctx["choices"] = self.legal(f.name, [key for key, _label in f.choices])
            elif f.kind == "count":
                ctx["numbers"] = list(range(f.low, f.high + 1)) if f.high - f.low < MAX_COUNT_BUTTONS else None
            elif f.kind == "order":
                ctx["groups"] = list(_groups(self.draft.v.get(f.name)))
                ctx["remaining"] = self.remaining(f)
        if step == "preview":
            ctx["preview"], _error = self.judge()
            ctx["later"] = [g for g in self.active() if g.optional == "later" and g.name not in self.draft.v]
        return ctx


def _undo_last(groups: list[list[str]]) -> bool:
    """Take back the last player placed in the order."""
    if not groups:
        return False
    groups[-1].pop()
    if not groups[-1]:
        groups.pop()
    return True


def _groups(value: object) -> list[tuple[str, ...]]:
    """An order of going out as groups of names (a bare name is a group of one)."""
    if not isinstance(value, list):
        return []
    return [(entry,) if isinstance(entry, str) else tuple(entry) for entry in value if isinstance(entry, (str, list))]


__all__ = ["WON_LOST", "Field", "ShortDraft", "ShortFlow"]
