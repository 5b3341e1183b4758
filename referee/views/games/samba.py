"""Samba's web side: its registration, its new-table partnerships, and recording a hand: one form with a card per team, a live score, then confirm.

Samba's arithmetic is long and done by tired people, so the page asks for what players can see
and count: who went out, each team's canastras and sambas, red 3s, penalties by kind, and the
card points on the table and left in hand, either typed or counted card by card into a few
boxes (:data:`referee.rules.samba.CARD_KINDS`). The score of every team updates as the scorer
types (``?partial=live``, fetched by static/js/swap.js); without JavaScript the "check" button does the same
on a full page. The shared machinery (draft in the URL, retries, conflicts, corrections) is in
:mod:`referee.views.flow` and :mod:`referee.views.hands`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from flask import render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee import ledger
from referee.api import answers
from referee.i18n import render_text
from referee.rules import samba
from referee.rules.errors import RulesError
from referee.rules.text import N_, Text
from referee.views import flow
from referee.views.games.pages import GamePages, Partnerships

STEPS = ("form", "confirm")
STOCK_RAN_OUT = "-"  # went_out when nobody went out (None means "not answered yet")

#: A team's counts on the form, in the order the page asks for them.
COUNTS = ("clean_canastras", "dirty_canastras", "wild_canastras", "sambas", "red_threes", "red_threes_in_hand")
POINTS = ("meld_points", "hand_points")
#: The card counter's piles: on the table (meld points) and left in hand (hand points).
PILES = {"meld_points": "mc", "hand_points": "hc"}
MAX_COUNT = 999


@dataclass
class SambaDraft(flow.Draft):
    """A Samba hand under construction. Each team is a dict of what its card on the form holds:
    counts, typed points, the card counter's piles (``mc``, ``hc``) and penalties by kind
    (``pen``); ``penalties`` keeps a bare count (a hand recorded through the API)."""

    went_out: str | None = None
    hidden: str | None = None  # the hidden-canastra category of the team that went out
    teams: list[dict[str, Any]] = field(default_factory=list)
    ready: bool = False  # the scorer asked to check the hand

    TYPES: ClassVar[dict[str, type]] = {
        **flow.Draft.TYPES,
        "went_out": str,
        "hidden": str,
        "teams": list,
        "ready": bool,
    }

    def clean(self) -> None:
        self.teams = [_clean_team(t) for t in self.teams if isinstance(t, dict)][:6]
        if self.hidden not in samba.HIDDEN:
            self.hidden = None

    def record(self) -> dict[str, Any]:
        teams = [_team_record(t) for t in self.teams]
        out = self.went_out if self.went_out != STOCK_RAN_OUT else None
        record: dict[str, Any] = {"went_out": out, "teams": teams}
        if self.dealer is not None:
            record["dealer"] = self.dealer
        return record


def _counts(raw: object) -> dict[str, int]:
    if not isinstance(raw, dict):
        return {}
    return {k: v for k, v in raw.items() if isinstance(k, str) and type(v) is int and 0 <= v <= MAX_COUNT}


def _clean_team(raw: dict[str, Any]) -> dict[str, Any]:
    team: dict[str, Any] = {k: raw[k] for k in (*COUNTS, *POINTS, "penalties") if type(raw.get(k)) is int}
    for key in ("mc", "hc", "pen"):
        counts = _counts(raw.get(key))
        if counts:
            team[key] = counts
    return team


def _team_record(team: dict[str, Any]) -> dict[str, Any]:
    """The API record of a team's card: typed points win; else the counter's sum."""
    record: dict[str, Any] = {key: team.get(key, 0) for key in COUNTS}
    for key, pile in PILES.items():
        record[key] = team[key] if key in team else samba.count_points(team.get(pile, {}))
    kinds = [kind for kind in samba.PENALTY_KINDS for _ in range(team.get("pen", {}).get(kind, 0))]
    record["penalties"] = team.get("penalties", 0) + len(kinds) if team.get("penalties") else kinds
    record["hidden_canastra"] = None
    return record


class SambaFlow(flow.Flow):
    template = "games/samba/hand.html"
    draft_class = SambaDraft
    steps = STEPS
    draft: SambaDraft

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.error_field: str | None = None

    @property
    def teams(self) -> tuple[tuple[str, ...], ...]:
        return ledger.teams_of(self.table)

    def sanitize(self) -> None:
        d = self.draft
        while len(d.teams) < len(self.teams):
            d.teams.append({})
        d.teams = d.teams[: len(self.teams)]
        if d.went_out not in (*self.players, STOCK_RAN_OUT):
            d.went_out = None

    def check(self, draft: flow.Draft) -> None:
        """No more cards counted, all piles together, than the 162 hold."""
        assert isinstance(draft, SambaDraft)
        samba.check_card_counts([t.get(pile, {}) for t in draft.teams for pile in PILES.values()], field="teams")

    def record(self, draft: flow.Draft | None = None) -> dict[str, Any]:
        """The draft's record, the hidden-canastra answer given to the team that went out (the
        page asks it once, not per team)."""
        d = draft or self.draft
        assert isinstance(d, SambaDraft)
        record = d.record()
        out = self.out_team(d)
        if out is not None and d.hidden:
            record["teams"][out]["hidden_canastra"] = d.hidden
        return record

    def out_team(self, draft: SambaDraft | None = None) -> int | None:
        went_out = (draft or self.draft).went_out
        return next((i for i, team in enumerate(self.teams) if went_out in team), None)

    def step(self) -> str:
        if self.draft.went_out is None or not self.draft.ready:
            return "form"
        _preview, error = self.judge()
        if error is None:
            return "confirm"
        self.show_error(error)
        self.error_field = error.field
        return "form"

    # -- actions

    def apply(self, action: str) -> None:
        d = self.draft
        if action in ("check", "live"):
            self._read_form()
            d.ready = action == "check"
        elif action == "back:form":
            d.ready = False

    def _read_form(self) -> None:
        d, args = self.draft, request.args
        went_out = args.get("went_out")
        if went_out == STOCK_RAN_OUT:
            d.went_out = STOCK_RAN_OUT
        else:
            seat = flow.small_int(went_out, len(self.players))
            d.went_out = self.players[seat] if seat is not None else None
        d.hidden = args.get("hidden") if args.get("hidden") in samba.HIDDEN else None
        teams = []
        for i, _team in enumerate(self.teams):
            team: dict[str, Any] = {}
            for key in COUNTS:
                team[key] = _number(args.get(f"t{i}_{key}")) or 0
            for key in POINTS:
                # A number input sends "" for anything but digits: blank means "use the counter".
                typed = flow.small_int((args.get(f"t{i}_{key}") or "").strip(), 10_000)
                if typed is not None:
                    team[key] = typed
            for pile in PILES.values():
                counts = {k.key: _number(args.get(f"t{i}_{pile}_{k.key}")) or 0 for k in samba.CARD_KINDS}
                if any(counts.values()):
                    team[pile] = counts
            pen = {kind: _number(args.get(f"t{i}_pen_{kind}")) or 0 for kind in samba.PENALTY_KINDS}
            if any(pen.values()):
                team["pen"] = pen
            old = _number(args.get(f"t{i}_penalties"))
            if old:
                team["penalties"] = old
            teams.append(team)
        d.teams = teams

    def prefill(self, old: dict[str, Any]) -> None:
        d = self.draft
        d.went_out = old.get("went_out") or STOCK_RAN_OUT
        d.teams = []
        for team in old.get("teams") or []:
            entry = {k: team.get(k, 0) for k in (*COUNTS, *POINTS)}
            penalties = team.get("penalties") or 0
            if isinstance(penalties, list):
                entry["pen"] = {kind: penalties.count(kind) for kind in samba.PENALTY_KINDS if kind in penalties}
            elif penalties:
                entry["penalties"] = penalties
            if team.get("hidden_canastra"):
                d.hidden = team["hidden_canastra"]
            d.teams.append(_clean_team(entry))

    # -- what the page shows

    def extra_context(self, step: str) -> dict[str, Any]:
        d = self.draft
        preview, error = self.judge() if d.went_out is not None else (None, None)
        totals = ledger.totals(self.table)
        match = ledger.standing(self.table, totals) or {"teams": []}
        return {
            "teams": self.teams,
            "team_drafts": d.teams,
            "records": self.record()["teams"],
            "before": match["teams"],  # totals and opening melds before this hand
            "out_team": self.out_team(),
            "preview": preview,
            "answer": answers.preview_answer(self.table, preview) if preview else None,
            "live_error": render_text(error.text) if error and d.went_out is not None else None,
            "error_field": self.error_field,
            "card_kinds": samba.CARD_KINDS,
            "penalty_kinds": samba.PENALTY_KINDS,
            "hidden_kinds": samba.HIDDEN,
            "counts": COUNTS,
            "stock_ran_out": STOCK_RAN_OUT,
            "tab": self.tab(),
        }

    def tab(self) -> int:
        """The team the form shows (one at a time): the one a refusal is about, else the one
        the scorer was on (``tab``), else the first."""
        field = self.error_field or ""
        if field.startswith("teams["):
            team = flow.small_int(field[6 : field.find("]")], len(self.teams))
            if team is not None:
                return team
        return flow.small_int(request.args.get("tab"), len(self.teams)) or 0

    def render(self, status: int = 200, **extra: Any) -> ResponseReturnValue:
        if request.args.get("partial") == "live":
            return render_template("games/samba/live.html", **{**self.context(), **extra}), status
        return super().render(status, **extra)


def _number(text: str | None) -> int | None:
    return flow.small_int((text or "").strip(), MAX_COUNT + 1) if text is not None else None


# --------------------------------------------------------------------------- the other pages

#: The cards of the partnership draw, lowest first.
DRAW_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def seat(
    names: list[str], dealer: str | None, form: Mapping[str, str]
) -> tuple[list[str], list[list[str]] | None, str | None]:
    """The seats and teams the new-table form asks for: partners across (the default), three
    pairs, each for himself, or the partnership draw of the rule text (each player's card
    decides the seats, the teams and the first dealer, the player before the mão)."""
    drawn = {name: form.get(f"draw_{i}", "") for i, name in enumerate(names)}
    if any(drawn.values()):
        if not all(card in DRAW_RANKS for card in drawn.values()):
            raise RulesError(Text(N_("Give the card every player drew, or none.")), field="draw")
        order, teams = samba.seats_from_draw({name: DRAW_RANKS.index(card) + 1 for name, card in drawn.items()})
        return list(order), [list(t) for t in teams], order[-1]
    layout = form.get("teams", "across")
    if layout == "alone":
        return names, [[name] for name in names], dealer
    if layout == "pairs":
        if len(names) != 6:
            raise RulesError(Text(N_("Three pairs need six players.")), field="teams")
        return names, [list(t) for t in samba.default_teams(names, pairs=True)], dealer
    return names, None, dealer


def hidden_canastra(key: str) -> str:
    """A hidden-canastra category, in words."""
    return _(samba.HIDDEN_WORDS[key]) if key in samba.HIDDEN_WORDS else key


def rules_context() -> dict[str, Any]:
    defaults = samba.SambaOptions()
    premiums = [
        (_("Clean canastra"), samba.CLEAN_CANASTRA),
        (_("Dirty canastra (1 or 2 wild cards)"), samba.DIRTY_CANASTRA),
        (_("Canastra of wild cards"), samba.WILD_CANASTRA),
        (_("Samba (7 in sequence of one suit)"), samba.SAMBA),
        (_("Canastrão (5 canastras)"), samba.CANASTRAO),
        (_("Canastra de canastras (7 canastras)"), samba.CANASTRA_DE_CANASTRAS),
        (_("Each red 3"), samba.RED_THREE),
        (_("All six red 3s"), samba.ALL_RED_THREES),
        (_("Going out"), samba.GOING_OUT),
    ]
    bands = [
        (_("below 0"), samba.min_meld(-5, defaults)),
        (_("0 to 1,495"), samba.min_meld(0, defaults)),
        (_("1,500 to 2,995"), samba.min_meld(1500, defaults)),
        (_("3,000 to 6,995"), samba.min_meld(3000, defaults)),
        (_("7,000 or more"), samba.min_meld(7000, defaults)),
    ]
    return {
        "card_kinds": samba.CARD_KINDS,
        "premiums": premiums,
        "hidden": samba.HIDDEN,
        "penalties": samba.PENALTY_KINDS,
        "bands": bands,
    }


REGISTRATION = GamePages(
    slug=samba.SLUG,
    flow=SambaFlow,
    rules_context=rules_context,
    turn_line=N_("%(dealer)s deals; %(speaker)s plays first."),
    dealer_help=N_(
        "The player before the one who plays first deals. By default the last player deals, so player 1 plays first; the partnership draw decides it too."
    ),
    seating_help=N_(
        "Write the names in the order the game goes round (to the left). Partners sit opposite each other: with four players, 1 and 3 play against 2 and 4; with six, 1, 3 and 5 against 2, 4 and 6."
    ),
    numbers_title=N_("The match"),
    partnerships=Partnerships(draw_ranks=DRAW_RANKS, seat=seat),
    words={"hidden_canastra": hidden_canastra},
)
