"""Kentucky Derby's web side: its registration, and recording a race: the pingo and each player's bet, then the race itself, card
by card, on a drawing of the track, then who won and what each backer takes, then confirm.

Two short paths: the bets step offers the last race's bets again (one tap), and the race step
offers "only the winner" (one tap on the winning horse, and the second one when second place
is played) for a table that did not write the cards down; the record then has no cards.

The horses are the four aces. The scorer enters each card as it is turned (one tap: the card's
rank in its suit's row); the engine (:func:`referee.rules.kentucky_derby.replay`) says which
horse it went to, how far it moved, when the race is decided and which horses run a tie-break,
so the page never judges anything itself. Every card is a plain GET that adds it to the draft
in the URL; with JavaScript only the race region is fetched again (``?partial=race``), without
JavaScript the whole page is. Nothing is stored until the final POST. The shared machinery
(draft, retries, conflicts, corrections, undo of a stored hand) is in :mod:`referee.views.flow`
and :mod:`referee.views.hands`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from flask import render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import format_decimal
from flask_babel import gettext as _

from referee import ledger
from referee.i18n import MINUS, render_text
from referee.rules import kentucky_derby as derby
from referee.rules import seats
from referee.rules.cards import Suit
from referee.rules.errors import RulesError
from referee.rules.text import N_
from referee.views import flow
from referee.views.games.pages import GamePages

STEPS = ("bets", "cards", "preview")
#: A card in the draft is its rank and the first letter of its suit's Portuguese name ("Kc",
#: "10e"), as players write them, so a whole race fits easily in a link.
LETTERS: dict[str, str] = {"c": "copas", "o": "ouros", "e": "espadas", "p": "paus"}
LETTER_OF: dict[str, str] = {suit: letter for letter, suit in LETTERS.items()}
#: The ranks that can be turned (the aces are the horses), highest first, as on the keypad.
KEY_RANKS: tuple[str, ...] = tuple(rank for rank in derby.RANKS if rank != "A")
_CARD_FIELD = re.compile(r"^cards\[(\d+)\]")


def card_code(rank: str, suit: str) -> str:
    return f"{rank}{LETTER_OF[suit]}"


def parse_code(code: object) -> dict[str, str] | None:
    """``"Kc"`` → ``{"rank": "K", "suit": "copas"}``; None for anything that is not a card."""
    if not isinstance(code, str) or len(code) < 2 or code[-1] not in LETTERS or code[:-1] not in derby.RANKS:
        return None
    return {"rank": code[:-1], "suit": LETTERS[code[-1]]}


def spaces(half_spaces: int) -> str:
    """A position or a move in spaces, from half spaces: 5 → "2½", 1 → "½", 0 → "0"."""
    whole, half = divmod(abs(half_spaces), 2)
    text = (str(whole) if whole or not half else "") + ("½" if half else "")
    return text or "0"


def signed_spaces(half_spaces: int) -> str:
    """A move: "+2½", "−½" (a real minus sign), "0"."""
    if half_spaces > 0:
        return "+" + spaces(half_spaces)
    if half_spaces < 0:
        return "\u2212" + spaces(half_spaces)
    return "0"


def _chips(text: str | None) -> int | None:
    """A number of chips typed in a form: ASCII digits only (a number input sends "" for the
    rest). A number past the engine's bounds (:data:`~referee.rules.pot.MAX_CHIPS`) is kept
    for the engine to refuse with its sentence (more than nine digits as 10⁹)."""
    text = (text or "").strip()
    if text.isascii() and text.isdigit():
        return int(text) if len(text) <= 9 else 10**9
    return None


@dataclass
class DerbyDraft(flow.Draft):
    """A race under construction. ``bets`` maps a player to his horse's letter and the amount
    (``"c2"``: two chips on copas; ``"c"``: the table's usual bet); ``ready`` says the bets
    were sent; ``cards`` are the cards turned, in order, as codes; ``winner`` (and ``second``)
    the horses given instead of the cards, by their suit's name."""

    pingo: int | None = None
    bets: dict[str, str] = field(default_factory=dict)
    ready: bool = False
    cards: list[str] = field(default_factory=list)
    winner: str | None = None
    second: str | None = None

    TYPES: ClassVar[dict[str, type]] = {
        **flow.Draft.TYPES,
        "pingo": int,
        "bets": dict,
        "ready": bool,
        "cards": list,
        "winner": str,
        "second": str,
    }

    def clean(self) -> None:
        self.bets = {
            name: code
            for name, code in self.bets.items()
            if isinstance(name, str)
            and isinstance(code, str)
            and code[:1] in LETTERS
            and (code[1:] == "" or (code[1:].isascii() and code[1:].isdigit() and len(code) <= 11))
        }
        self.cards = [code for code in self.cards if parse_code(code) is not None][: derby.DECK_WITHOUT_ACES]
        # The cards or the places: a draft with cards is judged by them alone.
        if self.cards or self.winner not in LETTER_OF:
            self.winner = None
        if self.winner is None or self.second not in LETTER_OF or self.second == self.winner:
            self.second = None

    def record(self) -> dict[str, Any]:
        record: dict[str, Any] = {}
        if self.dealer is not None:
            record["dealer"] = self.dealer
        if self.pingo is not None:
            record["pingo"] = self.pingo
        bets: dict[str, dict[str, Any]] = {}
        for name, code in self.bets.items():
            bet: dict[str, Any] = {"horse": LETTERS[code[0]]}
            if code[1:]:
                bet["amount"] = int(code[1:])
            bets[name] = bet
        record["bets"] = bets
        if self.winner is not None:
            record["winner"] = self.winner
            if self.second is not None:
                record["second"] = self.second
        else:
            record["cards"] = [parse_code(code) for code in self.cards]
        return record


# --------------------------------------------------------------------------- the drawing


@dataclass(frozen=True)
class Lane:
    """One horse's lane on the drawing (SVG units)."""

    horse: str  # the suit slug
    y: int  # the lane's top
    x: float  # the horse's centre
    position: int  # half spaces
    moved: int | None  # the last card's move, when it was this horse's
    next: bool  # the next card goes to this horse
    running: bool  # still receiving cards (a tie-break leaves the others out)
    place: int | None  # 1 or 2 once decided
    middle: int  # the lane's middle, where the horse is drawn


@dataclass(frozen=True)
class Track:
    """The race drawn as an inline SVG: four lanes, the track cards as cells, the start and
    finish lines, and the horses (the aces) where they stand. Only drawing arithmetic here;
    the positions come from the engine."""

    WIDTH: ClassVar[int] = 360
    LANE: ClassVar[int] = 44
    START: ClassVar[int] = 20  # the start line (a horse on it is drawn centred there)
    NUMBERS: ClassVar[int] = 46  # the column on the right with each horse's position
    SCALE: ClassVar[int] = 18  # the row under the lanes with the spaces counted

    lanes: tuple[Lane, ...]
    cells: tuple[tuple[float, float, int], ...]  # x, width, number of each space of the track
    finish_x: float
    finish: int  # the finish line in half spaces

    @property
    def height(self) -> int:
        return 4 * self.LANE + self.SCALE

    @property
    def spaces(self) -> int:
        """The spaces from the start to the finish line (positions count half spaces)."""
        return self.finish // 2

    @property
    def lanes_height(self) -> int:
        return 4 * self.LANE

    @property
    def number_x(self) -> int:
        return self.WIDTH - self.NUMBERS // 2

    @property
    def checks(self) -> list[tuple[float, int]]:
        """The finish line's chequered squares (x, y), two columns of 6-unit squares."""
        return [(self.finish_x - 6 + 6 * (row % 2), row * 6) for row in range(self.lanes_height // 6)]

    @classmethod
    def of(cls, race: derby.Race, options: derby.DerbyOptions) -> Track:
        finish = options.finish_line
        furthest = max(race.positions.values())
        span = max(finish + 3, furthest + 1)  # half spaces shown: the line, and a little past it
        usable = cls.WIDTH - cls.START - 16 - cls.NUMBERS
        unit = usable / span

        def x(position: int) -> float:
            return round(cls.START + position * unit, 1)

        last = race.steps[-1] if race.steps else None
        lanes = []
        for i, horse in enumerate(derby.HORSES):
            place = 1 if horse in race.winners else 2 if horse in race.second else None
            lanes.append(
                Lane(
                    horse=horse.value,
                    y=i * cls.LANE,
                    middle=i * cls.LANE + cls.LANE // 2,
                    x=x(race.positions[horse]),
                    position=race.positions[horse],
                    moved=last.move if last is not None and last.horse is horse else None,
                    next=race.expecting is horse,
                    running=horse in race.runners,
                    place=place,
                )
            )
        cells = tuple((x(2 * k), round(2 * unit, 1), k + 1) for k in range(options.track_length))
        return cls(lanes=tuple(lanes), cells=cells, finish_x=x(finish), finish=finish)


# --------------------------------------------------------------------------- the flow


class DerbyFlow(flow.Flow):
    template = "games/kentucky_derby/hand.html"
    draft_class = DerbyDraft
    steps = STEPS
    draft: DerbyDraft
    options: derby.DerbyOptions

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.race: derby.Race | None = None
        self.error_field: str | None = None
        self._judged: dict[str, tuple[ledger.Preview | None, RulesError | None]] = {}
        super().__init__(*args, **kwargs)

    # -- the race so far

    @property
    def second_place(self) -> bool:
        return derby.second_place_in_play(len(self.players), self.options)

    @property
    def order(self) -> tuple[str, ...]:
        """The players in order of play: bets are asked from the dealer's left round to him."""
        return seats.order_from(self.players, seats.after(self.players, self.dealer))

    def replay(self, codes: list[str]) -> derby.Race:
        return derby.replay([parse_code(c) for c in codes], self.options, second_place=self.second_place)

    def sanitize(self) -> None:
        """Drop bets of players not seated and a second horse at a table that does not play
        second place; keep the longest start of the race the engine accepts and say why the rest
        went (a forged or stale link shows the rule it breaks)."""
        d = self.draft
        d.bets = {name: code for name, code in d.bets.items() if name in self.players}
        d.clean()
        if not self.second_place:
            d.second = None
        while True:
            try:
                self.race = self.replay(d.cards)
                return
            except RulesError as exc:
                self.show_error(exc)
                match = _CARD_FIELD.match(exc.field or "")
                d.cards = d.cards[: int(match.group(1))] if match else []

    def judge(self, draft: flow.Draft | None = None) -> tuple[ledger.Preview | None, RulesError | None]:
        """The engine's verdict on the draft (remembered: a page asks several times)."""
        draft = draft or self.draft
        key = json.dumps(self.record(draft), sort_keys=True)
        if key not in self._judged:
            self._judged[key] = super().judge(draft)
        return self._judged[key]

    def step(self) -> str:
        d = self.draft
        if not d.ready:
            return "bets"
        _preview, error = self.judge()
        if error is None:
            return "preview"
        where = (error.field or "").split(".")[0].split("[")[0]
        if where in ("pingo", "bets", "players", "dealer"):
            self.show_error(error)
            self.error_field = error.field
            return "bets"
        if d.winner is not None:
            if not (error.field == "second" and d.second is None):
                self.show_error(error)
            return "second"  # with a winner alone, what is left to ask is the second horse
        if self.race is not None and not self.race.over:
            return "cards"  # "the race is not over yet": the next card is asked for
        self.show_error(error)
        return "cards"

    # -- actions

    def apply(self, action: str) -> None:
        d = self.draft
        kind, _sep, arg = action.partition(":")
        if kind == "bets":
            self._read_bets()
        elif kind == "again":
            self._bets_again()
        elif kind in ("winner", "second"):
            self._place(kind, arg)
        elif kind == "card":
            self._card(arg)
        elif kind == "undo" and d.cards:
            d.cards.pop()
        elif kind == "back" and arg == "winner":
            d.winner = d.second = None
        elif kind == "back" and arg == "bets":
            d.ready = False

    def _place(self, kind: str, horse: str) -> None:
        """``winner:<suit>`` (only before the first card: the race is recorded by its places)
        and ``second:<suit>`` (after the winner, another horse)."""
        d = self.draft
        if horse not in LETTER_OF or not d.ready:
            return
        if kind == "winner" and not d.cards:
            d.winner, d.second = horse, None
        elif kind == "second" and d.winner is not None and horse != d.winner:
            d.second = horse

    def _card(self, code: str) -> None:
        """A card turned: added when the engine accepts it after the others (a card turned
        twice, after the end, an ace: not added, and its sentence shown)."""
        d = self.draft
        if parse_code(code) is None or d.winner is not None:
            return
        try:
            self.replay([*d.cards, code])
        except RulesError as exc:
            self.show_error(exc)
            return
        d.cards.append(code)

    def _read_bets(self) -> None:
        d, args = self.draft, request.args
        d.pingo = _chips(args.get("pingo"))
        bets = {}
        for i, name in enumerate(self.players):
            horse = args.get(f"h{i}")
            if horse in LETTER_OF:
                amount = _chips(args.get(f"a{i}"))
                bets[name] = LETTER_OF[horse] + ("" if amount is None else str(amount))
        d.bets = bets
        d.ready = True

    def _bets_again(self) -> None:
        """The last race's pingo and bets, for the players seated now; the race is next. A
        player who did not bet then is asked on the bets step (the engine names him)."""
        last = self.last_record
        if last is None or not isinstance(last.get("bets"), dict):
            return
        self._read_old_bets(last)
        self.draft.ready = True

    def _read_old_bets(self, old: dict[str, Any]) -> None:
        """The pingo and bets of a stored race into the draft."""
        d = self.draft
        pingo = old.get("pingo")
        d.pingo = pingo if type(pingo) is int else None
        d.bets = {}
        for name, bet in (old.get("bets") or {}).items():
            if isinstance(bet, str):
                bet = {"horse": bet}
            if isinstance(bet, dict) and bet.get("horse") in LETTER_OF:
                amount = bet.get("amount")
                d.bets[name] = LETTER_OF[bet["horse"]] + (str(amount) if type(amount) is int and amount >= 0 else "")

    def prefill(self, old: dict[str, Any]) -> None:
        d = self.draft
        self._read_old_bets(old)
        d.cards = []
        for card in old.get("cards") or []:
            if (
                isinstance(card, dict)
                and card.get("suit") in LETTER_OF
                and parse_code(f"{card.get('rank')}c") is not None
            ):
                d.cards.append(card_code(str(card["rank"]), card["suit"]))
        if not d.cards:  # a race recorded by its winner alone (a list: horses that shared it)
            d.winner, d.second = _first_horse(old.get("winner")), _first_horse(old.get("second"))
        d.ready = True

    # -- what the page shows

    def bet_of(self, name: str) -> tuple[str | None, int]:
        """A player's horse (or None) and amount, as the bets form shows them."""
        code = self.draft.bets.get(name, "")
        horse = LETTERS.get(code[:1])
        return horse, int(code[1:]) if code[1:] else self.options.bet

    def again(self) -> list[tuple[str, str, int]]:
        """The last race's bets as the bets step offers them again (name, horse, amount), for
        the players seated now; empty when there is nothing to offer."""
        last = self.last_record
        if last is None or not isinstance(last.get("bets"), dict):
            return []
        offered = []
        for name in self.order:
            bet = last["bets"].get(name)
            bet = {"horse": bet} if isinstance(bet, str) else bet
            if isinstance(bet, dict) and bet.get("horse") in LETTER_OF:
                amount = bet.get("amount")
                offered.append((name, bet["horse"], amount if type(amount) is int else self.options.bet))
        return offered

    def extra_context(self, step: str) -> dict[str, Any]:
        d = self.draft
        race = self.race or self.replay([])
        preview, _error = self.judge() if step == "preview" else (None, None)
        horses = [h.value for h in derby.HORSES]
        used = set(d.cards)
        last = race.steps[-1] if race.steps else None
        return {
            "order": self.order,
            "bets": {name: self.bet_of(name) for name in self.players},
            "pingo": self.options.pingo if d.pingo is None else d.pingo,
            "horses": horses,
            "again": self.again() if step == "bets" else [],
            "second_choices": [h for h in horses if h != d.winner],
            "race": race,
            "track": Track.of(race, self.options),
            "last": last,
            "last_note": race.notes[-1]
            if race.notes and last is not None and race.notes[-1].after == last.index
            else None,
            "keypad": [(s.value, [self._key(rank, s, used) for rank in KEY_RANKS]) for s in derby.HORSES],
            "preview": preview,
            "carried_in": self.carried_in,
            "second_place": self.second_place,
            "error_field": self.error_field,
            "spaces": spaces,
            "signed_spaces": signed_spaces,
            "Suit": Suit,
        }

    @staticmethod
    def _key(rank: str, suit: Suit, used: set[str]) -> tuple[str, str, bool, str]:
        """A key of the card keypad: its rank, its action's card code, whether that card was
        already turned, and its name ("King of hearts")."""
        code = card_code(rank, suit.value)
        return rank, code, code in used, render_text(derby.DerbyCard(rank=rank, suit=suit).label)

    def render(self, status: int = 200, **extra: Any) -> ResponseReturnValue:
        """``?partial=race`` (static/js/swap.js): only the race region, and the address bar gets
        the page's own link for the new draft; a step that is not the race asks for the page's
        ``<main>`` (``X-Swap-Redirect``)."""
        if request.args.get("partial") != "race":
            return super().render(status, **extra)
        context = {**self.context(), **extra}
        page_url = url_for("hands.record", table_id=self.table.id, d=self.draft.dump())
        if context["step"] in ("bets", "second") or self.draft.winner is not None:
            return "", 200, {"X-Swap-Redirect": page_url}
        body = render_template("games/kentucky_derby/race.html", **context)
        return body, status, {"X-Swap-Push-Url": page_url}


def _first_horse(value: object) -> str | None:
    """A stored place (a horse, or a list of horses that shared it) as the page's one horse:
    the first; a shared place is then corrected card by card or by the API."""
    if isinstance(value, list) and value:
        value = value[0]
    return value if isinstance(value, str) and value in LETTER_OF else None


__all__ = ["DerbyDraft", "DerbyFlow", "Track", "card_code", "parse_code", "signed_spaces", "spaces"]


# --------------------------------------------------------------------------- the rules page

#: The rows of the movement table: a label and a representative rank.
_ROWS = (
    (N_("King"), "K"),
    (N_("Queen"), "Q"),
    (N_("Jack"), "J"),
    (N_("7 to 10"), "9"),
    (N_("3 to 6"), "5"),
    (N_("Two"), "2"),
)


def rules_context() -> dict[str, Any]:
    """The movement table, each cell computed by the engine for the hearts horse (a card
    of the other colour, of its colour, of its own suit), in spaces."""
    defaults = derby.DerbyOptions()
    horse, same, other = Suit.COPAS, Suit.OUROS, Suit.ESPADAS
    rows = [
        (
            _(label),
            [
                _spaces(derby.movement(derby.DerbyCard(rank=rank, suit=suit), horse, defaults))
                for suit in (other, same, horse)
            ],
        )
        for label, rank in _ROWS
    ]
    return {
        "horses": derby.HORSES,
        "rows": rows,
        "track": defaults.track_length,
        "stock": defaults.stock,
        "second_above": derby.SECOND_PLACE_ABOVE,
        "low": derby.MIN_PLAYERS,
    }


def _spaces(half_spaces: int) -> str:
    """A move in spaces, signed, from the engine's half spaces: "+2,5", "−1", "0"."""
    text = format_decimal(abs(half_spaces) / 2, format="#,##0.#")
    return f"+{text}" if half_spaces > 0 else f"{MINUS}{text}" if half_spaces < 0 else text


REGISTRATION = GamePages(
    round_kind="race",
    slug=derby.SLUG,
    flow=DerbyFlow,
    rules_context=rules_context,
    turn_line=N_("%(dealer)s deals; %(speaker)s moves the horses."),
    dealer_help=N_(
        "Whoever draws the highest card (the ace is high) deals the first race. By default the last player deals; the deal then passes to the left."
    ),
)
