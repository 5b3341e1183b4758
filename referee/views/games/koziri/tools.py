"""Koziri's two referee helpers as phone pages: the deal helper and the
answer checker. Every form is a GET and nothing goes into the ledger, a result can be shared as a
link, and no JavaScript is needed (big radio and checkbox buttons).

* ``/koziri/deal``: the dealer taps his trump, his second suit and the opponent's trump, then
  the cards of his two suits he turned up; the page lists both players' full hands card by
  card, step by step as the rule text's dealing procedure gives them.
* ``/koziri/answer``: the two trumps, who answers, the card on top of the pile and the answer
  (a card, or take the pile), optionally the answerer's hand; the page says whether the answer
  is legal and why, and what would beat the top card for him.

With ``?t=<table id>`` (the links on a Koziri table's page) the pack size, the players' names,
the dealer by rotation (``dealer=<name>`` for the other player) and who leads first come from
the table; on a phone that scores there, the suits and cards the deal helper was told are
remembered for the table's next hand (:mod:`.deal`), so the hand form and
the answer checker start from them. Without it the pack is ``deck=20|24|32`` (default 32) and the players are called by
their seats. The judging is :mod:`referee.rules.koziri_play`; a refused form answers 400 (a
missing or malformed choice) or 422 (against the rules) with the engine's sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, abort, render_template, request, url_for
from flask.typing import ResponseReturnValue

from referee import ledger
from referee.i18n import render_text
from referee.models import Table
from referee.rules import koziri
from referee.rules.cards import Suit
from referee.rules.errors import InconsistentHand, InvalidInput, RulesError
from referee.rules.koziri_play import (
    DECK_SIZES,
    TAKE,
    Card,
    Deal,
    Role,
    SuitChoice,
    Verdict,
    check_answer_in_pack,
    deal,
    deck_ranks,
    parse_suit,
    parse_suits,
)
from referee.rules.text import N_, Text
from referee.views.phone_tables import can_score

from . import deal as koziri_deal

bp = Blueprint("koziri", __name__)

#: A card in a URL: its rank and the suit's letter (as the Samba meld checker writes them):
#: c copas, o ouros, e espadas, p paus. "Ke" is the king of spades, "10c" the ten of hearts.
LETTERS: Mapping[Suit, str] = {Suit.COPAS: "c", Suit.OUROS: "o", Suit.ESPADAS: "e", Suit.PAUS: "p"}
_BY_LETTER = {letter: suit for suit, letter in LETTERS.items()}
MAX_CARDS = 40  # more card codes than any pack holds are cut, not judged


SUIT_FIELDS = ("dealer_trump", "dealer_second", "opponent_trump")


def code(card: Card) -> str:
    return f"{card.rank}{LETTERS[card.suit]}"


def parse_code(raw: str, *, field: str, deck: int) -> Card:
    """A card from its URL code, judged by the engine (a 9 in the 20-card pack is refused)."""
    raw = raw.strip()[:8]
    suit = _BY_LETTER.get(raw[-1:].lower())
    return Card.parse({"rank": raw[:-1].upper(), "suit": suit.value if suit else raw[-1:]}, field=field, deck=deck)


# --------------------------------------------------------------------------- the table, if any


@dataclass(frozen=True)
class Seating:
    """The pack and the two seats: the table's players, or the seat words without a table."""

    table: Table | None
    deck: int
    names: Mapping[Role, str]
    first_lead: Role
    chosen_dealer: str | None = None  # a dealer other than the rotation's (``dealer=`` in the URL)

    def name(self, role: Role) -> str:
        return self.names[role]

    def link_args(self) -> dict[str, Any]:
        """What every link between the helpers carries: the table (or the pack) and the dealer."""
        if self.table is None:
            return {"deck": self.deck}
        args: dict[str, Any] = {"t": self.table.id}
        if self.chosen_dealer is not None:
            args["dealer"] = self.chosen_dealer
        return args


def seating() -> Seating:
    """From ``?t=`` (404 for an unknown table or another game) or ``?deck=``."""
    table_id = request.args.get("t")
    if not table_id:
        raw = request.args.get("deck", "")
        deck = int(raw) if raw in {str(n) for n in DECK_SIZES} else 32
        names = {role: render_text(role.word) for role in Role}
        return Seating(table=None, deck=deck, names=names, first_lead=Role.OPPONENT)
    try:
        table = ledger.get_table(table_id[:64])
    except ledger.NotFound:
        abort(404)
    if table.game != koziri.SLUG:
        abort(404)
    options = ledger.options_of(table)
    players = ledger.players_of(table)
    dealer = ledger.current_dealer(table)
    chosen = request.args.get("dealer")
    if chosen in players and chosen != dealer:
        dealer = chosen
    else:
        chosen = None
    names = {Role.DEALER: dealer, Role.OPPONENT: koziri.opponent_of(players, dealer)}
    return Seating(
        table=table, deck=options.deck, names=names, first_lead=koziri.leader_role(options), chosen_dealer=chosen
    )


@dataclass
class Problems:
    """The sentences that refuse a form, by field, and the status they answer."""

    by_field: dict[str, str] = field(default_factory=dict)
    status: int = 200

    def add(self, exc: RulesError, field_name: str | None = None) -> None:
        key = field_name or exc.field or "form"
        self.by_field.setdefault(key, render_text(exc.text))
        status = 400 if isinstance(exc, InvalidInput) else 422
        self.status = status if self.status == 200 else min(self.status, status)

    def __bool__(self) -> bool:
        return bool(self.by_field)


def suit_rows(cards: Iterable[Card], order: Sequence[Suit]) -> list[tuple[Suit, list[Card]]]:
    """Cards grouped by suit in ``order`` (the engine already sorts them strongest first);
    suits without a card are left out."""
    cards = list(cards)
    return [(suit, [c for c in cards if c.suit is suit]) for suit in order if any(c.suit is suit for c in cards)]


# --------------------------------------------------------------------------- the deal helper


@bp.get("/koziri/deal")
def deal_helper() -> ResponseReturnValue:
    seat = seating()
    args = request.args
    step = args.get("step")
    chosen = {name: args.get(name) for name in SUIT_FIELDS}
    problems = Problems()
    suits: SuitChoice | None = None
    if step in ("cards", "hands"):
        try:
            suits = parse_suits(chosen)
        except RulesError as exc:
            problems.add(exc)
    codes = args.getlist("c")[:MAX_CARDS]
    dealt: Deal | None = None
    if suits is not None and step == "hands":
        try:
            turned_up = [parse_code(c, field=f"turned_up[{i}]", deck=seat.deck) for i, c in enumerate(codes)]
            dealt = deal(deck=seat.deck, suits=suits, turned_up=turned_up)
        except RulesError as exc:
            problems.add(exc, "cards")
    context: dict[str, Any] = {
        "seat": seat,
        "Role": Role,
        "suits_list": list(Suit),
        "chosen": chosen,
        "problems": problems.by_field,
        "deck_sizes": DECK_SIZES,
        "code": code,
        "card_of": lambda rank, suit: Card(rank=rank, suit=suit),
        "suits_args": {**seat.link_args(), **{k: v for k, v in chosen.items() if v}},
    }
    if suits is None:
        return render_template("koziri/deal.html", step="suits", **context), problems.status
    if seat.table is not None and can_score(seat.table):
        koziri_deal.remember(seat.table, seat.name(Role.DEALER), chosen, codes if dealt is not None else ())
    own = suits.suits(Role.DEALER)
    context.update(
        suits=suits,
        own=own,
        ranks=deck_ranks(seat.deck),
        picked=set(codes),
        half=seat.deck // 2,
        answer_args={
            **seat.link_args(),
            "dealer_trump": suits.dealer_trump.value,
            "opponent_trump": suits.opponent_trump.value,
        },
        cards_args={**seat.link_args(), **chosen, "step": "cards", "c": codes},
    )
    if dealt is None:
        return render_template("koziri/deal.html", step="cards", **context), problems.status
    theirs = suits.suits(Role.OPPONENT)
    names = {"dealer": seat.name(Role.DEALER), "opponent": seat.name(Role.OPPONENT)}
    context.update(
        dealt=dealt,
        steps=[
            (Text(N_("%(dealer)s keeps the cards of his suits he turned up"), **names), dealt.kept, own),
            (Text(N_("%(opponent)s gets the same ranks in his corresponding suits"), **names), dealt.matched, theirs),
            (Text(N_("The rest of %(dealer)s's suits go to %(opponent)s"), **names), dealt.to_opponent, own),
            (Text(N_("The rest of %(opponent)s's suits go to %(dealer)s"), **names), dealt.to_dealer, theirs),
        ],
        hands=[
            (Role.DEALER, suit_rows(dealt.dealer_hand, own + theirs)),
            (Role.OPPONENT, suit_rows(dealt.opponent_hand, theirs + own)),
        ],
    )
    if seat.table is not None and seat.chosen_dealer is None and can_score(seat.table):
        context["record_url"] = url_for("hands.record", table_id=seat.table.id)
    return render_template("koziri/deal.html", step="hands", **context)


# --------------------------------------------------------------------------- the answer checker


@dataclass(frozen=True)
class Beaters:
    """What beats the top card for the answerer, in words: the higher cards of its suit, and
    whether any of his trumps does (the top card is not of his trump suit)."""

    higher: list[Card]
    any_trump: bool
    trump: Suit


def _card(args: Mapping[str, str], prefix: str, *, field_name: str, deck: int, missing: str) -> Card:
    rank, suit = args.get(f"{prefix}_rank"), args.get(f"{prefix}_suit")
    if not rank or not suit:
        raise InvalidInput(Text(missing), field=field_name)
    return Card.parse({"rank": rank[:3], "suit": suit[:10]}, field=field_name, deck=deck)


@bp.get("/koziri/answer")
def answer_checker() -> ResponseReturnValue:
    seat = seating()
    args = request.args
    checking = args.get("check") == "1"
    problems = Problems()
    # Opened from the table without trumps: those the deal helper was told for this hand.
    recalled: dict[str, str] = {}
    if seat.table is not None and not checking and not any(args.get(n) for n in SUIT_FIELDS):
        recalled = koziri_deal.suits_of(koziri_deal.recall(seat.table, seat.name(Role.DEALER)))
    trumps = _trumps({**recalled, **args.to_dict()}, checking, problems)
    who = {"dealer": Role.DEALER, "opponent": Role.OPPONENT}.get(args.get("who", ""))
    verdict: Verdict | None = None
    beaters: Beaters | None = None
    top: Card | None = None
    answer: Card | None = None
    if checking:
        if who is None:
            problems.add(InvalidInput(Text(N_("Choose who answers.")), field="who"))
        top, answer, hand = _posted_cards(args, seat.deck, problems)
        if not problems and who is not None and top is not None:
            verdict, beaters = _judged(seat, who, trumps, top, answer, hand, problems)
    return render_template(
        "koziri/answer.html",
        seat=seat,
        Role=Role,
        suits_list=list(Suit),
        ranks=deck_ranks(seat.deck),
        trumps={role.value: suit.value for role, suit in trumps.items()},
        who=who,
        problems=problems.by_field,
        verdict=verdict,
        beaters=beaters,
        top=top,
        answer_card=answer if checking else None,
        deck_sizes=DECK_SIZES,
        card_of=lambda rank, suit: Card(rank=rank, suit=suit),
        hand_codes=set(args.getlist("h")[:MAX_CARDS]),
        code=code,
        deal_args=seat.link_args(),
        recalled=bool(recalled),
    ), problems.status


def _trumps(args: Mapping[str, str], checking: bool, problems: Problems) -> dict[Role, Suit]:
    """The two trumps chosen (each asked for once the answer is checked); the same suit for
    both is refused."""
    trumps: dict[Role, Suit] = {}
    for role, name in ((Role.DEALER, "dealer_trump"), (Role.OPPONENT, "opponent_trump")):
        if args.get(name) or checking:
            try:
                trumps[role] = parse_suit(args.get(name) or None, field=name)
            except RulesError as exc:
                problems.add(exc)
    if len(trumps) == 2 and trumps[Role.DEALER] is trumps[Role.OPPONENT]:
        problems.add(
            _refusal(
                N_("The two players' trumps are different suits: %(suit)s cannot be both."),
                "opponent_trump",
                suit=trumps[Role.DEALER].label,
            )
        )
    return trumps


def _posted_cards(args: Any, deck: int, problems: Problems) -> tuple[Card | None, Card | None, frozenset[Card] | None]:
    """The card on top of the pile, the answer (None: take the pile) and the answerer's hand
    if given; each one refused is left out, its sentence added to ``problems``."""
    top: Card | None = None
    answer: Card | None = None
    hand: frozenset[Card] | None = None
    try:
        top = _card(
            args,
            "top",
            field_name="top",
            deck=deck,
            missing=N_("Choose the card on top of the pile: its rank and its suit."),
        )
    except RulesError as exc:
        problems.add(exc, "top")
    try:
        if args.get("answer_rank") != TAKE:
            answer = _card(
                args,
                "answer",
                field_name="answer",
                deck=deck,
                missing=N_("Choose the answer: a card (rank and suit), or take the pile."),
            )
    except RulesError as exc:
        problems.add(exc, "answer")
    try:
        codes = args.getlist("h")[:MAX_CARDS]
        if codes:
            hand = frozenset(parse_code(c, field="hand", deck=deck) for c in codes)
    except RulesError as exc:
        problems.add(exc, "hand")
    return top, answer, hand


def _judged(
    seat: Seating,
    who: Role,
    trumps: Mapping[Role, Suit],
    top: Card,
    answer: Card | None,
    hand: frozenset[Card] | None,
    problems: Problems,
) -> tuple[Verdict | None, Beaters | None]:
    """The engine's verdict on the answer, and what would beat the top card for the answerer."""
    try:
        verdict, in_pack = check_answer_in_pack(
            deck=seat.deck,
            top=top,
            answer=answer,
            trump=trumps[who],
            other_trump=trumps[who.other],
            who=seat.name(who),
            hand=hand,
        )
    except RulesError as exc:
        problems.add(exc, "hand")
        return None, None
    beaters = Beaters(
        higher=[c for c in in_pack if c.suit is top.suit], any_trump=top.suit is not trumps[who], trump=trumps[who]
    )
    return verdict, beaters


def _refusal(msgid: str, field_name: str, **params: Any) -> RulesError:
    return InconsistentHand(Text(msgid, **params), field=field_name)
