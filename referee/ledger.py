"""The one bridge between the database and the rules.

Views and the API call these functions; these call the rules engine and the models. What a
hand says is stored as events: the hand (its record, its settlement, its deltas per seat) and,
later, a void event; nothing is deleted. A table's balances, next hand number and next dealer
are derived from those events and kept on the table row (``Table.state``) so that recording a
hand reads nothing else; every write replaces that state under a version check, and voids and
corrections rebuild it from the hands (:func:`rebuild_state`).

Writes to one table run one after the other: each takes the table's write lock
(:func:`_lock_for_write`) before it reads the state it judges, so twenty phones recording at
once store twenty hands, numbered in the order the lock was granted, and nobody is refused for
having been second. Each write then validates everything (the engine raises a
:class:`RulesError` with a sentence and nothing is stored) and stores in one transaction. A
:class:`Conflict` is left for what the API calls one: a stale ``expected_number``, a finished
table, a hand already void. The unique (table, number) constraint and the state's version stay
as a second guard.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from flask_babel import force_locale
from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.attributes import set_committed_value

from referee import access, members
from referee.db import db
from referee.i18n import render_text
from referee.models import Hand, HandDelta, HandEvent, IdempotencyKey, Seat, Table, utcnow, voided
from referee.rules import GameRules, get_game
from referee.rules.errors import InconsistentHand, InvalidInput, RulesError
from referee.rules.pot import share_left_over
from referee.rules.scores import TeamScores
from referee.rules.seats import order_from
from referee.rules.settle import Line, Settlement, fewest_transfers
from referee.rules.text import N_, NP_, Text, text_from_json, text_to_json

NAME_MAX = 40
TABLE_NAME_MAX = 120
REASON_MAX = 200
LOCALES = {"pt_BR": "pt_BR", "pt-BR": "pt_BR", "pt": "pt_BR", "en": "en"}


#: Who made a write, stored as a code (pages show it in the reader's language).
BY_SCORER = "scorer"
BY_API = "api"


class Conflict(Exception):
    """The write lost a race or targets a finished table (HTTP 409). Carries a sentence."""

    def __init__(self, text: Text, *, current: int | None = None) -> None:
        super().__init__(str(text))
        self.text = text
        self.current = current


class NotFound(Exception):
    """No such table or hand (HTTP 404)."""


# --------------------------------------------------------------------------- tables


def _printable(text: str, *, field: str) -> str:
    """Refuse control characters (a NUL would reach PostgreSQL, which rejects it with a 500)."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise InvalidInput(Text(N_("Text cannot contain control characters.")), field=field)
    return text


def _clean_name(raw: object, *, field: str) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise InvalidInput(Text(N_("Each player needs a name.")), field=field)
    _printable(raw.replace("\t", " ").replace("\n", " ").replace("\r", " "), field=field)
    name = " ".join(raw.split())
    if len(name) > NAME_MAX:
        raise InvalidInput(Text(N_("A name has at most %(max)s letters."), max=NAME_MAX), field=field)
    return name


def create_table(
    *,
    game: object,
    players: object,
    dealer: object = None,
    name: object = None,
    options: object = None,
    locale: object = None,
    teams: object = None,
    follows: str | None = None,
    two_key: object = False,
    duration: object = None,
    table_id: str | None = None,
    member_names: Sequence[str] | None = None,
    commit: bool = True,
) -> tuple[Table, str]:
    """Validate and store a new table; answers the table and its scorer token (shown once).

    ``teams`` is for team games (Samba): the game checks them and fills in its defaults.
    ``follows`` names the table this one is a rematch of; ``duration`` is the time the players
    agreed to play, in minutes (the session clock), or None.

    An import (referee.exports) rebuilds a table under its old ``table_id``, with its seats'
    ``member_names`` (else each seat's name finds its member), and ``commit=False`` to store
    many tables in one transaction."""
    rules = get_game(game)
    if not isinstance(players, Sequence) or isinstance(players, str):
        raise InvalidInput(Text(N_("Players must be a list of names in order of play.")), field="players")
    names = [_clean_name(p, field=f"players[{i}]") for i, p in enumerate(players)]
    if not rules.min_players <= len(names) <= rules.max_players:
        count = (
            Text(N_("exactly %(n)s"), n=rules.min_players)
            if rules.min_players == rules.max_players
            else Text(N_("%(low)s to %(high)s"), low=rules.min_players, high=rules.max_players)
        )
        raise RulesError(
            Text(
                N_("%(game)s is played by %(count)s players, not %(given)s."),
                game=rules.name,
                count=count,
                given=len(names),
            ),
            field="players",
        )
    folded = [n.casefold() for n in names]
    for i, n in enumerate(folded):
        if n in folded[:i]:
            raise RulesError(
                Text(N_("Two players are called %(name)s; give each a different name."), name=names[i]),
                field=f"players[{i}]",
            )
    if dealer is None:
        first_dealer = len(names) - 1  # the API contract: the last player deals, so the first speaks first
    else:
        if not isinstance(dealer, str):
            raise InvalidInput(Text(N_("The dealer must be given by name.")), field="dealer")
        matches = [i for i, n in enumerate(names) if n == " ".join(dealer.split())]
        if not matches:
            raise RulesError(Text(N_("%(name)s is not seated at this table."), name=dealer), field="dealer")
        first_dealer = matches[0]
    if name is not None and not isinstance(name, str):
        raise InvalidInput(Text(N_("The table's name must be text.")), field="name")
    title = _printable(" ".join((name or "").split()), field="name")
    if len(title) > TABLE_NAME_MAX:
        raise InvalidInput(Text(N_("The table's name has at most %(max)s letters."), max=TABLE_NAME_MAX), field="name")
    if locale is not None and (not isinstance(locale, str) or locale not in LOCALES):
        raise InvalidInput(Text(N_("The language must be pt-BR or en.")), field="language")
    if not isinstance(two_key, bool):
        raise InvalidInput(Text(N_("two_key must be true or false.")), field="two_key")
    length = _duration(duration)
    parsed = rules.parse_options(options)
    team_of = {name: i for i, team in enumerate(rules.seat_teams(names, teams, parsed)) for name in team}
    token = access.new_token()
    table = Table(
        id=table_id or access.new_table_id(),
        game=rules.slug,
        name=title,
        options=rules.options_json(parsed),
        locale=LOCALES.get(str(locale), "pt_BR") if locale is not None else "pt_BR",
        scorer_token_hash=access.hash_secret(token),
        first_dealer=first_dealer,
        state=_state(
            balances=dict.fromkeys(names, 0),
            next_number=1,
            next_dealer=names[first_dealer],
            played=dict.fromkeys(names, 0),
        ),
        version=0,
        follows=follows,
        two_key=two_key,
        ends_at=utcnow() + length if length else None,
    )
    people = members.resolve(names if member_names is None else list(member_names))
    table.seats = [Seat(position=i, name=n, team=team_of[n], member_id=people[i].id) for i, n in enumerate(names)]
    db.session.add(table)
    _end_write(commit)
    return table, token


def get_table(table_id: str) -> Table:
    table = db.session.scalar(_TABLE, {"table_id": table_id})
    if table is None:
        raise NotFound()
    return table


def rules_of(table: Table) -> GameRules[Any, Any]:
    return get_game(table.game)


def options_of(table: Table) -> Any:
    return rules_of(table).parse_options(table.options)


def players_of(table: Table) -> tuple[str, ...]:
    """The players in order of play (read once per request: seats never change)."""
    players: tuple[str, ...] | None = table.__dict__.get("_players")
    if players is None:
        seats = db.session.execute(_PLAYERS, {"table_id": table.id}).all()
        players = tuple(name for name, _team in seats)
        table.__dict__["_players"] = players
        table.__dict__["_teams"] = _group_teams(seats)
    return players


def teams_of(table: Table) -> tuple[tuple[str, ...], ...]:
    """The table's teams, in order of their index (each player alone where there are none)."""
    players_of(table)
    teams: tuple[tuple[str, ...], ...] = table.__dict__["_teams"]
    return teams


def _group_teams(seats: Sequence[Any]) -> tuple[tuple[str, ...], ...]:
    if any(team is None for _name, team in seats):  # tables made before teams were stored
        return tuple((name,) for name, _team in seats)
    groups: dict[int, list[str]] = {}
    for name, team in seats:
        groups.setdefault(int(team), []).append(name)
    return tuple(tuple(groups[i]) for i in sorted(groups))


# The write path's statements, built once: building a statement and its cache key costs more
# than running it on SQLite, and these run on every hand recorded.
_TABLE = select(Table).where(Table.id == bindparam("table_id"))
_PLAYERS = select(Seat.name, Seat.team).where(Seat.table_id == bindparam("table_id")).order_by(Seat.position)
_NEXT_NUMBER = select(func.max(Hand.number)).where(Hand.table_id == bindparam("table_id"))
_ROTATION = select(
    _NEXT_NUMBER.scalar_subquery(),
    select(Hand.next_dealer)
    .where(Hand.table_id == bindparam("table_id"), ~voided())
    .order_by(Hand.position.desc(), Hand.number.desc())
    .limit(1)
    .scalar_subquery(),
)
_TOTALS = (
    select(HandDelta.seat, func.sum(HandDelta.amount), func.count())
    .join(Hand, Hand.id == HandDelta.hand_id)
    .where(Hand.table_id == bindparam("table_id"), ~voided())
    .group_by(HandDelta.seat)
)
# Plain Core, run on the session's connection: the ORM's bulk-update path costs more than the
# statement itself, and the table object is updated by hand (set_committed_value).
_SAVE_STATE = (
    update(Table.__table__)
    .where(Table.__table__.c.id == bindparam("table_id"), Table.__table__.c.version == bindparam("read_version"))
    .values(state=bindparam("new_state"), version=bindparam("new_version"))
)
_SAVE_SEAT = (
    update(Seat.__table__)
    .where(Seat.__table__.c.table_id == bindparam("seat_table"), Seat.__table__.c.position == bindparam("seat"))
    .values(net=bindparam("net"), played=bindparam("hands"), won=bindparam("winner"))
)
_INSERT_HAND = insert(Hand.__table__).returning(Hand.__table__.c.id)
_INSERT_DELTA = insert(HandDelta.__table__)
_LIVE_COUNT = select(func.count()).select_from(Hand).where(Hand.table_id == bindparam("table_id"), ~voided())


def all_hands(table: Table) -> list[Hand]:
    """Every hand of the table with its events (two queries), for the history and the API."""
    query = select(Hand).where(Hand.table_id == table.id).order_by(Hand.number).options(selectinload(Hand.events))
    return list(db.session.scalars(query))


def recent_hands(table: Table, count: int) -> list[Hand]:
    """The last ``count`` hands, newest first, with their events."""
    query = (
        select(Hand)
        .where(Hand.table_id == table.id)
        .order_by(Hand.number.desc())
        .limit(count)
        .options(selectinload(Hand.events))
    )
    return list(db.session.scalars(query))


def live_count(table: Table) -> int:
    return db.session.scalar(_LIVE_COUNT, {"table_id": table.id}) or 0


def next_number(table: Table) -> int:
    """Hand numbers are never reused: a voided hand 3 keeps its number and the next is 4."""
    return int(table.state["next_number"])


def current_dealer(table: Table) -> str:
    """Who deals the next hand (kept in the table's state; see :func:`rebuild_state`)."""
    return str(table.state["next_dealer"])


def totals(table: Table) -> dict[str, int]:
    """Net result per player: the live hands' deltas added up (kept in the table's state and
    rebuilt from the hands by :func:`rebuild_state`); the starting stock is reported apart."""
    balances = table.state["balances"]
    return {name: int(balances.get(name, 0)) for name in players_of(table)}


def _state(
    *, balances: Mapping[str, int], next_number: int, next_dealer: str, played: Mapping[str, int]
) -> dict[str, Any]:
    """``played``: the live hands each player took part in (not sitting out), for the league."""
    return {"balances": dict(balances), "next_number": next_number, "next_dealer": next_dealer, "played": dict(played)}


def rebuild_state(table: Table) -> dict[str, Any]:
    """The table's state derived from its hands alone: what the cached state must always equal.

    Balances are one aggregate over the live hands' deltas; the next dealer follows the latest
    live hand by position (a correction takes the place of the hand it replaced, so correcting
    hand 3 after hand 5 does not pull the deal back); numbers are never reused.
    """
    players = players_of(table)
    balances = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    for seat, amount, count in db.session.execute(_TOTALS, {"table_id": table.id}):
        balances[players[seat]] = int(amount)
        played[players[seat]] = int(count)
    top, dealer = db.session.execute(_ROTATION, {"table_id": table.id}).one()
    return _state(
        balances=balances,
        next_number=(top or 0) + 1,
        next_dealer=dealer if dealer is not None else players[table.first_dealer],
        played=played,
    )


# SQLite has one write lock for the whole file. A transaction that reads first and writes later
# fails at once ("database is locked") when another writer committed in between, whatever the
# busy timeout; one whose first statement writes waits for the lock instead. This no-op update
# is that first statement, and answers the version it found.
_LOCK_SQLITE = (
    update(Table.__table__)
    .where(Table.__table__.c.id == bindparam("table_id"))
    .values(version=Table.__table__.c.version)
    .returning(Table.__table__.c.version)
)
# PostgreSQL locks the table's row, the version read with it.
_LOCK_ROW = select(Table.__table__.c.version).where(Table.__table__.c.id == bindparam("table_id")).with_for_update()


def _lock_for_write(table: Table) -> bool:
    """Take the table's write lock; True when no write reached the table since this request
    read it (the version under the lock is the one read), else read the table again.

    Held until the write commits or rolls back, so writes to one table are serial: SQLite's
    database lock (taken by a first-statement write, waiting on the busy timeout), PostgreSQL's
    row lock (``SELECT ... FOR UPDATE``). Every write to a table moves its version on, so when
    the version moved, whatever else this request read of the table (a hand and its
    confirmations, read to offer an undo) is read again when next used."""
    read = table.version
    db.session.flush()
    statement = _LOCK_SQLITE if db.session.get_bind().dialect.name == "sqlite" else _LOCK_ROW
    if db.session.connection().execute(statement, {"table_id": table.id}).scalar_one() == read:
        return True
    db.session.expire_all()
    db.session.refresh(table)
    return False


def _save_state(table: Table, state: dict[str, Any]) -> None:
    """Replace the table's state if nobody else did since we read it; else :class:`Conflict`.

    The seats' league counters (net, hands played, match won) are copied from the state in the
    same transaction, so standings never disagree with the scoreboard."""
    connection = db.session.connection()
    done = connection.execute(
        _SAVE_STATE,
        {"table_id": table.id, "read_version": table.version, "new_state": state, "new_version": table.version + 1},
    )
    if done.rowcount != 1:
        db.session.rollback()
        raise Conflict(Text(N_("Another phone changed this table at the same moment. Check the table and try again.")))
    connection.execute(_SAVE_SEAT, _seat_counters(table, state))
    set_committed_value(table, "state", state)
    set_committed_value(table, "version", table.version + 1)


def match_winners(table: Table, balances: Mapping[str, int]) -> set[str]:
    """The players of the team that won the match with these totals (none while a game played
    to a target goes on, and never for a game settled in payments)."""
    match = standing(table, balances)
    return set(teams_of(table)[match["winner"]]) if match and match.get("winner") is not None else set()


def _seat_counters(table: Table, state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The seats' rows for :data:`_SAVE_SEAT`: net and hands played from the state, and for a
    game played to a target whether the seat's team won the match."""
    players = players_of(table)
    balances = state["balances"]
    played = state.get("played") or {}
    winners = match_winners(table, balances)
    return [
        {
            "seat_table": table.id,
            "seat": position,
            "net": int(balances.get(name, 0)),
            "hands": int(played.get(name, 0)),
            "winner": name in winners,
        }
        for position, name in enumerate(players)
    ]


# --------------------------------------------------------------------------- hands


@dataclass(frozen=True)
class Preview:
    """A validated, settled hand not yet stored: what the confirm step shows."""

    number: int
    dealer: str
    hand: Any
    settlement: Settlement | TeamScores
    next_dealer: str
    contract: Mapping[str, object]


def on_the_table(table: Table, balances: Mapping[str, int] | None = None) -> int:
    """The chips a pot game left on the table for the next deal: whatever the players put in
    and nobody took, i.e. minus the sum of their net results (0 for games without a pot)."""
    if not rules_of(table).pots:
        return 0
    return -sum((totals(table) if balances is None else balances).values())


def chips_carried_in(table: Table, replaced: Hand | None = None) -> int:
    """The chips on the table a hand is played with: the table's now, or for a correction
    those of the hand it replaces (a correction keeps that hand's place in the deals)."""
    if replaced is not None:
        return int(replaced.record.get("carried_in", 0))
    return on_the_table(table)


def to_settle(table: Table, balances: Mapping[str, int] | None = None) -> dict[str, int]:
    """The balances the settle-up clears. For a pot game, the chips still on the table are
    shared back equally (odd chips in order of play from the next deal's first player), so
    the balances sum to zero (rules.pot.share_left_over says why); otherwise the totals."""
    balances = dict(totals(table) if balances is None else balances)
    if not on_the_table(table, balances):
        return balances
    rules = rules_of(table)
    players = players_of(table)
    first = rules.first_speaker(players, current_dealer(table), rules.parse_options(table.options))
    return share_left_over(balances, order_from(players, first))


def _with_carry(raw: object, carried_in: int) -> object:
    """A pot game's record with the chips already on the table filled in; a record that names
    another amount is refused (the table knows what lies on it)."""
    if not isinstance(raw, Mapping):
        return raw  # the game's parser refuses it with its own sentence
    given = raw.get("carried_in")
    if given is not None and given != carried_in:
        raise InconsistentHand(
            Text(
                N_("There are %(chips)s chips on the table from the deals before, not %(given)s."),
                chips=carried_in,
                given=str(given)[:20],
            ),
            field="carried_in",
        )
    return {**raw, "carried_in": carried_in}


def _check_pot_chain(table: Table, changed: Hand, new_carry: int | None) -> None:
    """A pot game: voiding or correcting ``changed`` must leave every later live hand with the
    chips it was played with (its ``carried_in``). A later hand that took chips ``changed``
    left on the table (or left chips ``changed`` took) is refused with a sentence: it has to be
    voided or corrected first, from the last one back. ``new_carry`` is the chips the corrected
    hand leaves on the table net (None for a void)."""
    if not rules_of(table).pots:
        return
    live = sorted((h for h in all_hands(table) if not h.is_void), key=lambda h: (h.position, h.number))
    running = 0
    for hand in live:
        if hand.id == changed.id:
            running += new_carry or 0
            continue
        if int(hand.record.get("carried_in", 0)) != running and hand.position > changed.position:
            raise InconsistentHand(
                Text(
                    *NP_(
                        "Hand %(later)s was played with %(count)s chip on the table from the deals before, and changing hand %(number)s would change that: void or correct hand %(later)s first.",
                        "Hand %(later)s was played with %(count)s chips on the table from the deals before, and changing hand %(number)s would change that: void or correct hand %(later)s first.",
                    ),
                    later=hand.number,
                    count=int(hand.record.get("carried_in", 0)),
                    number=changed.number,
                ),
                field="replaces" if new_carry is not None else None,
            )
        running -= sum(int(v) for v in hand.result["deltas"].values())


def preview_hand(
    table: Table,
    raw: object,
    *,
    dealer: str | None = None,
    number: int | None = None,
    correcting: bool = False,
    carried_in: int | None = None,
) -> Preview:
    """Judge a record without storing it. Raises :class:`RulesError` with the engine's sentence.

    A match that is over (Samba past its target) takes no new hand, but its hands can still be
    corrected: a wrong last hand may be what ended it."""
    if table.finished_at is not None:
        raise Conflict(Text(N_("This table is finished: no more hands can be recorded.")))
    rules = rules_of(table)
    options = rules.parse_options(table.options)
    players = players_of(table)
    if not correcting and match_over(table):
        raise Conflict(Text(N_("This match is over. Start a rematch to play on.")))
    if correcting and rules.scored and rematch_of(table) is not None:
        raise Conflict(Text(N_("This match has a rematch: its hands can no longer change.")))
    if rules.pots:
        raw = _with_carry(raw, on_the_table(table) if carried_in is None else carried_in)
    hand = rules.parse_hand(
        raw, players=players, options=options, dealer=dealer or current_dealer(table), teams=teams_of(table)
    )
    settlement = rules.settle(hand, options)
    return Preview(
        number=number or next_number(table),
        dealer=rules.dealer_of(hand),
        hand=hand,
        settlement=settlement,
        next_dealer=rules.next_dealer(players, hand, options),
        contract=rules.contract_json(hand),
    )


def _lines_json(lines: Sequence[Line]) -> list[dict[str, Any]]:
    return [{"text": text_to_json(line.text), "amount": line.amount} for line in lines]


def standing(table: Table, balances: Mapping[str, int] | None = None) -> Mapping[str, Any] | None:
    """For a game scored toward a target: the teams' totals, what each needs next, whether the
    match is over and who won (None for games settled in payments)."""
    rules = rules_of(table)
    if not rules.scored:
        return None
    return rules.standing(teams_of(table), totals(table) if balances is None else balances, options_of(table))


def match_over(table: Table) -> bool:
    """A scored game's match has ended (a team passed the target)."""
    match = standing(table)
    return bool(match and match["finished"])


def match_json(table: Table, outcome: Settlement | TeamScores, balances: Mapping[str, int]) -> dict[str, Any]:
    """What a hand of a scored game adds to its stored result: each team's score with its lines,
    its new total and next opening meld, and the match's end (nothing for other games)."""
    match = standing(table, balances)
    if match is None or not isinstance(outcome, TeamScores):
        return {}
    teams = [
        {**team, "score": score.score, "lines": _lines_json(score.lines)}
        for team, score in zip(match["teams"], outcome.teams)
    ]
    return {"teams": teams, "finished": match["finished"], "winner": match["winner"]}


def preview_answer(table: Table, preview: Preview) -> dict[str, Any]:
    """A judged, unstored hand as the API answers it (``POST …/hands/preview``): the same
    figures a stored hand would have, totals included, in the current language."""
    result = _result(table, preview, _running(table, preview), number=preview.number)
    return _render(preview.number, result)


def _running(table: Table, preview: Preview, replaced: Hand | None = None) -> dict[str, int]:
    """Each player's total once ``preview`` is counted (and the hand it corrects is not)."""
    running = totals(table)
    for name, delta in (replaced.result["deltas"] if replaced else {}).items():
        running[name] -= int(delta)
    for name, delta in preview.settlement.deltas.items():
        running[name] += delta
    return running


def _result(table: Table, preview: Preview, running: dict[str, int], *, number: int) -> dict[str, Any]:
    """What the referee says of a hand, as stored with it (sentences as msgids): the one shape
    a recorded hand and a preview are both answered from."""
    players = players_of(table)
    result: dict[str, Any] = {
        "number": number,
        "dealer": preview.dealer,
        "next_dealer": preview.next_dealer,
        "deltas": {name: preview.settlement.deltas[name] for name in players},
        "totals": running,
        "contract": dict(preview.contract),
        "lines": _lines_json(preview.settlement.lines),
        "payments": payments_json(preview.settlement),
        **match_json(table, preview.settlement, running),
    }
    if preview.settlement.carry:
        result["carry"] = preview.settlement.carry
    return result


def payments_json(settlement: Settlement | TeamScores) -> list[dict[str, Any]]:
    """Who pays whom in a hand, as the API answers it."""
    return [{"from": p.payer, "to": p.payee, "amount": p.amount} for p in settlement.payments]


def _whole_number(value: object, *, field: str, sentence: str, minimum: int = 1) -> int:
    # true == 1 and 1.0 == 1 in Python; a hand number must really be an integer.
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidInput(Text(sentence), field=field)
    return value


def _digest(raw: Mapping[str, object], replaces: object) -> str:
    """A fingerprint of a write, so a reused Idempotency-Key with another hand is refused."""
    body = json.dumps({"record": raw, "replaces": replaces}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(body.encode()).hexdigest()


@dataclass
class _Judged:
    """A hand judged against the table as this request read it (``version``): everything that
    storing it writes, or the answer already stored under its Idempotency-Key."""

    version: int
    number: int
    replayed: dict[str, Any] | None = None
    old: Hand | None = None
    out: str | None = None
    running: dict[str, int] | None = None
    next_dealer: str = ""
    deltas: Mapping[str, int] | None = None
    row: dict[str, Any] | None = None
    answer: dict[str, Any] | None = None


def record_hand(
    table: Table,
    raw: Mapping[str, object],
    *,
    expected_number: object = None,
    actor: str = "",
    idempotency_key: str | None = None,
    replaces: object = None,
    reason: object = "",
    commit: bool = True,
) -> tuple[int, dict[str, Any], bool]:
    """Validate, settle and store one hand. Answers ``(number, answer, replayed)``.

    ``replayed`` is true when ``idempotency_key`` was seen before with the same hand: the first
    answer is returned and nothing new is stored. ``replaces`` voids that hand in the same
    transaction (a correction) and takes its place in the rotation. Nothing but the table row is
    read: its state gives the number, the dealer and the balances.

    The hand is judged first against the table as read, without the lock (the engine's work
    and the answer's rendering, the most of a write, run in parallel with other tables'
    writes); then the lock is taken, and if another write reached this table meanwhile (its
    version moved) the hand is judged again against what that write left. Either way what is
    stored was judged on the state it follows.
    """
    key = _printable(idempotency_key[:100], field="Idempotency-Key") if idempotency_key else None
    digest = _digest(raw, replaces) if key else ""
    if expected_number is not None:
        expected_number = _whole_number(
            expected_number, field="expected_number", sentence=N_("expected_number must be a hand number (1 or more).")
        )
    reason = _reason(reason)

    def judge() -> _Judged:
        return _judge(
            table, raw, key=key, digest=digest, expected_number=expected_number, replaces=replaces, actor=actor
        )

    try:
        judged: _Judged | None = judge()
    except (RulesError, Conflict, NotFound):
        judged = None  # maybe only because of what this request read: judged again, locked
    if judged is not None and judged.replayed is not None:
        return judged.number, judged.replayed, True
    if not _lock_for_write(table) or judged is None:
        judged = judge()
        if judged.replayed is not None:
            return judged.number, judged.replayed, True
    number, old, row, answer = judged.number, judged.old, judged.row, judged.answer
    assert row is not None and answer is not None and judged.running is not None and judged.deltas is not None
    players = players_of(table)
    try:
        # One transaction: the hand, its deltas, the void of a corrected hand, the key and the
        # table's new state.
        connection = db.session.connection()  # plain Core inserts: see _SAVE_STATE
        hand_id = connection.execute(_INSERT_HAND, row).scalar_one()
        # A row for every player who took part, zero or not (the league counts hands played
        # from them); none for a player sitting the hand out.
        deltas = [
            {"hand_id": hand_id, "seat": seat, "amount": judged.deltas[name]}
            for seat, name in enumerate(players)
            if name != judged.out
        ]
        connection.execute(_INSERT_DELTA, deltas)
        if old is not None:
            db.session.add(HandEvent(hand_id=old.id, kind="void", reason=reason, actor=actor[:60]))
        db.session.flush()
        if old is None:
            if "played" in table.state:
                played = {name: int(table.state["played"].get(name, 0)) + (name != judged.out) for name in players}
            else:  # a state written before the league existed: count from the hands (this one included)
                played = rebuild_state(table)["played"]
            state = _state(
                balances=judged.running, next_number=number + 1, next_dealer=judged.next_dealer, played=played
            )
        else:
            state = rebuild_state(table)  # a correction may or may not move the deal: ask the hands
        answer["next_dealer"] = state["next_dealer"]  # after a correction: the table's, not the hand's
        if key:  # a retry with this key gets this very answer back
            db.session.add(
                IdempotencyKey(
                    table_id=table.id, key=key, status=201, body={"number": number, "digest": digest, "answer": answer}
                )
            )
        _save_state(table, state)
        _end_write(commit)
    except IntegrityError:
        db.session.rollback()
        if key:
            stored = _stored_answer(table, key, digest)
            if stored is not None:
                return stored[0], stored[1], True
        raise Conflict(
            Text(N_("Hand %(number)s was just recorded by another phone."), number=number),
            current=number,
        ) from None
    return number, answer, False


def _judge(
    table: Table,
    raw: Mapping[str, object],
    *,
    key: str | None,
    digest: str,
    expected_number: int | None,
    replaces: object,
    actor: str,
) -> _Judged:
    """Judge a hand against the table's state as it is in this session: the number it takes,
    the hand it corrects, its settlement, the row to insert and the answer. Raises what the
    write would (a Conflict for a stale ``expected_number``, the engine's RulesError)."""
    if key:
        stored = _stored_answer(table, key, digest)
        if stored is not None:
            return _Judged(version=table.version, number=stored[0], replayed=stored[1])
    number, dealer = next_number(table), current_dealer(table)
    if expected_number is not None and expected_number != number:
        raise Conflict(
            Text(
                N_("Hand %(expected)s was already recorded by another phone; the next hand is number %(number)s."),
                expected=expected_number,
                number=number,
            )
            if expected_number < number
            else Text(
                N_("The next hand is number %(number)s, not %(expected)s."), expected=expected_number, number=number
            ),
            current=number - 1,
        )
    old: Hand | None = None
    if replaces is not None:
        wanted = _whole_number(
            replaces, field="replaces", sentence=N_("replaces must be the number of the hand to correct.")
        )
        old = get_hand(table, wanted)
        if old is None:
            raise NotFound()
        if old.is_void:
            raise Conflict(Text(N_("Hand %(number)s is already void."), number=old.number))
    preview = preview_hand(
        table,
        raw,
        dealer=old.dealer if old else dealer,
        number=number,
        correcting=old is not None,
        carried_in=chips_carried_in(table, old),
    )
    rules = rules_of(table)
    players = players_of(table)
    if old is not None:
        _check_pot_chain(table, old, -sum(preview.settlement.deltas.values()))
    running = _running(table, preview, old)
    result = _result(table, preview, running, number=number)
    if table.two_key:
        result["two_key"] = True  # waits for a confirmation from another phone
    if old is not None:
        result["replaces"] = old.number
    record = rules.hand_json(preview.hand)
    row = {
        "table_id": table.id,
        "number": number,
        "position": old.position if old else number,
        "dealer": preview.dealer,
        "next_dealer": preview.next_dealer,
        "record": record,
        "result": result,
        "created_by": actor[:60],
        "created_at": utcnow(),
    }
    return _Judged(
        version=table.version,
        number=number,
        old=old,
        out=rules.sitting_out(players, preview.dealer, options_of(table)),
        running=running,
        next_dealer=preview.next_dealer,
        deltas=preview.settlement.deltas,
        row=row,
        answer=_answer(table, number=number, result=result, record=record, void=None),
    )


def agreed(table: Table, hand: Hand) -> bool:
    """Two people stand behind this hand: it was confirmed under two-key entry, or it corrects
    (through any chain of corrections) a hand that was. Voiding such a hand needs the owner:
    else a scorer would remove an agreed hand in two steps, correcting it and then voiding or
    undoing the correction."""
    seen: set[int] = set()
    while hand.number not in seen:
        seen.add(hand.number)
        if hand.confirmed_by_both:
            return True
        replaced = get_hand(table, hand.result.get("replaces"))
        if replaced is None:
            return False
        hand = replaced
    return False


def _reason(reason: object) -> str:
    if not isinstance(reason, str):
        raise InvalidInput(Text(N_("The reason must be text.")), field="reason")
    reason = _printable(" ".join(reason.split()), field="reason")
    if len(reason) > REASON_MAX:
        raise InvalidInput(Text(N_("The reason has at most %(max)s characters."), max=REASON_MAX), field="reason")
    return reason


def stored_number(table: Table, key: str) -> int | None:
    """The hand already stored under an Idempotency-Key, if any (a double tap on "confirm"). A
    key with control characters was never stored (and PostgreSQL refuses a NUL in a query)."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in key):
        return None
    row = db.session.scalar(
        select(IdempotencyKey).where(IdempotencyKey.table_id == table.id, IdempotencyKey.key == key[:100])
    )
    return int(row.body["number"]) if row is not None else None


def _stored_answer(table: Table, key: str, digest: str) -> tuple[int, dict[str, Any]] | None:
    row = db.session.scalar(
        select(IdempotencyKey).where(IdempotencyKey.table_id == table.id, IdempotencyKey.key == key)
    )
    if row is None:
        return None
    if row.body.get("digest", digest) != digest:
        raise InconsistentHand(
            Text(N_("This Idempotency-Key was already used for a different hand; send a new key for a new hand.")),
            field="Idempotency-Key",
        )
    return int(row.body["number"]), dict(row.body["answer"])


def get_hand(table: Table, number: object) -> Hand | None:
    """Hand ``number`` of the table with its events (one indexed query), or None. A number
    beyond what a database integer holds names no hand (and must not reach the query)."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 2**31 - 1:
        return None
    query = select(Hand).where(Hand.table_id == table.id, Hand.number == number).options(selectinload(Hand.events))
    return db.session.scalar(query)


def void_hand(
    table: Table, number: int, *, owner: bool, reason: object = "", actor: str = "", commit: bool = True
) -> Hand:
    """Mark hand ``number`` void. It stays in the history with who voided it, when and why.

    A hand two people agreed on, or a correction of one (:func:`agreed`), is voided only by the
    ``owner`` (or an import, replaying what happened): a scorer alone would undo the other
    side's confirmation. He corrects it instead, and the correction waits for a confirmation.

    A partial unique index allows one void event per hand, so two phones voiding the same hand
    at the same moment store one void and the other gets a :class:`Conflict`.
    """
    _lock_for_write(table)
    if table.finished_at is not None:
        raise Conflict(Text(N_("This table is finished: its hands can no longer change.")))
    reason = _reason(reason)
    hand = get_hand(table, number)
    if hand is None:
        raise NotFound()
    if hand.is_void:
        raise Conflict(Text(N_("Hand %(number)s is already void."), number=number))
    if not owner and agreed(table, hand):
        raise InconsistentHand(
            Text(
                N_(
                    "Hand %(number)s was confirmed by two people: correct it (the correction waits for a confirmation again), or ask the owner to void it."
                ),
                number=number,
            )
        )
    if rules_of(table).scored and rematch_of(table) is not None:
        raise Conflict(Text(N_("This match has a rematch: its hands can no longer change.")))
    _check_pot_chain(table, hand, None)
    db.session.add(HandEvent(hand=hand, kind="void", reason=reason, actor=actor[:60]))
    try:
        db.session.flush()
        _save_state(table, rebuild_state(table))
        _end_write(commit)
    except IntegrityError:
        db.session.rollback()
        raise Conflict(Text(N_("Hand %(number)s is already void."), number=number)) from None
    return hand


# --------------------------------------------------------------------------- answers


def breakdown(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A stored hand's "why this score" lines, rendered in the current language (for a team
    game, every team's lines in turn, each marked with its team's index)."""
    lines = [_line(line) for line in result.get("lines", [])]
    for i, team in enumerate(result.get("teams", [])):
        lines.extend({**_line(line), "team": i} for line in team.get("lines", []))
    return lines


def _line(line: Mapping[str, Any]) -> dict[str, Any]:
    return {"label": render_text(text_from_json(line["text"])), "amount": line["amount"]}


def teams_answer(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A team game's hand: each team's score, new total, next opening meld and breakdown."""
    return [
        {
            "players": team["players"],
            "score": team["score"],
            "total": team["total"],
            "min_meld": team["min_meld"],
            "breakdown": [_line(line) for line in team.get("lines", [])],
        }
        for team in result.get("teams", [])
    ]


def hand_answer(table: Table, hand: Hand) -> dict[str, Any]:
    """A stored hand as the API answers it, in the table's language."""
    return _answer(
        table,
        number=hand.number,
        result=hand.result,
        record=hand.record,
        void=hand.void_event,
        status=hand.status,
        confirmed=hand.confirm_event,
    )


def _answer(
    table: Table,
    *,
    number: int,
    result: Mapping[str, Any],
    record: Mapping[str, Any],
    void: HandEvent | None,
    status: str | None = None,
    confirmed: HandEvent | None = None,
) -> dict[str, Any]:
    with force_locale(table.locale):
        answer = _render(number, result)
    answer["record"] = record
    if "replaces" in result:
        answer["replaces"] = result["replaces"]
    if result.get("two_key"):
        answer["status"] = status or "to_confirm"
        if confirmed is not None:
            answer["confirmed"] = {"at": _iso(confirmed.at), "by": confirmed.actor}
    if void is not None:
        answer["void"] = True
        answer["voided"] = {"at": _iso(void.at), "by": void.actor, "reason": void.reason}
    return answer


def _render(number: int, result: Mapping[str, Any]) -> dict[str, Any]:
    """A hand's result as the API answers it, its sentences in the current language."""
    answer: dict[str, Any] = {
        "number": number,
        "dealer": result["dealer"],
        "next_dealer": result["next_dealer"],
        "deltas": result["deltas"],
        "totals": result["totals"],
        "contract": result["contract"],
        "breakdown": breakdown(result),
        "payments": result.get("payments", []),
    }
    if "teams" in result:
        answer.update(teams=teams_answer(result), finished=result["finished"], winner=result["winner"])
    return answer


def void_answer(table: Table, hand: Hand) -> dict[str, Any]:
    """``POST …/void``: the voided hand as stored, with the table as it stands now (totals,
    next dealer and, for a match, each team's total and whether the match is over)."""
    answer = hand_answer(table, hand)
    answer["totals"] = totals(table)
    answer["next_dealer"] = current_dealer(table)
    match = standing(table)
    if match is not None:
        for team, now in zip(answer.get("teams", []), match["teams"]):
            team.update(total=now["total"], min_meld=now["min_meld"])
        answer.update(finished=match["finished"], winner=match["winner"])
    return answer


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()


def last_round(table: Table) -> dict[str, int] | None:
    """The last round ("la tonda"), once declared: it lasts one deal per player, so the evening
    ends when that many live hands have been recorded since it began."""
    if table.last_round_from is None:
        return None
    played = (
        db.session.scalar(
            select(func.count())
            .select_from(Hand)
            .where(Hand.table_id == table.id, Hand.number >= table.last_round_from, ~voided())
        )
        or 0
    )
    hands = len(players_of(table))
    return {"from": table.last_round_from, "hands": hands, "played": int(played), "left": max(0, hands - int(played))}


#: The session clock takes from a quarter of an hour to a whole day.
CLOCK_MINUTES = (15, 24 * 60)


def _duration(raw: object) -> timedelta | None:
    """The agreed playing time in minutes (None, "" or 0: no clock)."""
    if raw is None or raw == "" or raw == 0:
        return None
    if isinstance(raw, str) and raw.strip().isascii() and raw.strip().isdigit() and len(raw.strip()) <= 5:
        raw = int(raw.strip())
        if raw == 0:
            return None
    low, high = CLOCK_MINUTES
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise InvalidInput(
            Text(N_("The agreed time is a number of minutes from %(low)s to %(high)s."), low=low, high=high),
            field="duration_minutes",
        )
    return timedelta(minutes=raw)


def clock(table: Table, now: datetime | None = None) -> dict[str, Any] | None:
    """The session clock, when the players agreed on a time: when it ends, the whole minutes
    left (rounded up, 0 once over) and whether time is up."""
    if table.ends_at is None:
        return None
    ends = _aware(table.ends_at)
    left = (ends - (now or utcnow())).total_seconds()
    return {"ends_at": _iso(ends), "left": max(0, math.ceil(left / 60)), "over": left <= 0}


def set_clock(table: Table, minutes: object) -> None:
    """Start the clock again with ``minutes`` from now, or stop it (None, 0)."""
    _lock_for_write(table)
    if table.finished_at is not None:
        raise Conflict(Text(N_("This table is finished: its hands can no longer change.")))
    length = _duration(minutes)
    table.ends_at = utcnow() + length if length else None
    _touch(table)


def declare_last_round(table: Table, *, on: bool) -> None:
    """Start the last round with the next hand, or take the declaration back."""
    _lock_for_write(table)
    if table.finished_at is not None:
        raise Conflict(Text(N_("This table is finished: its hands can no longer change.")))
    table.last_round_from = next_number(table) if on else None
    _touch(table)


@dataclass(frozen=True)
class Overview:
    table: Table
    players: tuple[str, ...]
    hands: int  # live hands
    last: datetime  # last activity


def overview(table_ids: Sequence[str]) -> list[Overview]:
    """Open tables among ``table_ids``, most recently active first (three queries in all)."""
    if not table_ids:
        return []
    tables = list(db.session.scalars(select(Table).where(Table.id.in_(table_ids), Table.finished_at.is_(None))))
    if not tables:
        return []
    ids = [t.id for t in tables]
    activity = {
        tid: (last, live)
        for tid, last, live in db.session.execute(
            select(Hand.table_id, func.max(Hand.created_at), func.count().filter(~voided()))
            .where(Hand.table_id.in_(ids))
            .group_by(Hand.table_id)
        )
    }
    names: dict[str, list[str]] = {tid: [] for tid in ids}
    for tid, name in db.session.execute(
        select(Seat.table_id, Seat.name).where(Seat.table_id.in_(ids)).order_by(Seat.table_id, Seat.position)
    ):
        names[tid].append(name)
    rows = [
        Overview(
            table=t,
            players=tuple(names[t.id]),
            hands=int(activity.get(t.id, (None, 0))[1] or 0),
            last=activity.get(t.id, (None, 0))[0] or t.created_at,
        )
        for t in tables
    ]
    return sorted(rows, key=lambda r: _aware(r.last), reverse=True)


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes even for DateTime(timezone=True); they are UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def stock(table: Table) -> dict[str, int]:
    """The starting stock per player (starting chips, talha), reported apart from net totals."""
    option = rules_of(table).stock_option
    start = table.options.get(option, 0) if option else 0
    return {name: int(start or 0) for name in players_of(table)}


def stock_left(table: Table, balances: Mapping[str, int]) -> dict[str, int]:
    """What each player has left of the starting stock: the stock plus his net result."""
    start = stock(table)
    return {name: start[name] + balances.get(name, 0) for name in start}


def chip_value(table: Table) -> Decimal:
    """The money one chip (or unit) of this table is worth; 0 when it is played for chips only."""
    option = rules_of(table).money_option
    return Decimal(str(table.options.get(option, "0") if option else "0"))


def money(table: Table, chips: int) -> str | None:
    """``chips`` in money at the table's chip value, as a decimal string; None when chips only."""
    value = chip_value(table)
    if value == 0:
        return None
    return format(value * chips, "f")


def settlement(table: Table, *, balances: dict[str, int] | None = None) -> dict[str, Any]:
    """Running balances and the fewest transfers that settle them (in chips and in money); for a
    game scored toward a target, the match score and the winner instead."""
    balances = totals(table) if balances is None else balances
    match = standing(table, balances)
    if match is not None:
        return {**match, "totals": balances}
    settled = to_settle(table, balances)
    transfers = []
    for t in fewest_transfers(settled):
        item: dict[str, Any] = {"from": t.payer, "to": t.payee, "amount": t.amount}
        cash = money(table, t.amount)
        if cash is not None:
            item["money"] = cash
        transfers.append(item)
    answer: dict[str, Any] = {"balances": balances, "transfers": transfers}
    if settled != balances:
        # A pot game stopped with chips on the table: they were shared back before paying.
        answer["on_the_table"] = on_the_table(table, balances)
        answer["settled_balances"] = settled
    if money(table, 1) is not None:
        answer["money"] = {name: money(table, amount) for name, amount in balances.items()}
    return answer


def table_answer(table: Table, *, urls: Mapping[str, str]) -> dict[str, Any]:
    """``GET /tables/{id}``: the table as created (no token), its hands, totals and the dealer."""
    hands = all_hands(table)
    match = standing(table)
    return {
        "id": table.id,
        "game": table.game,
        "name": table.name,
        "players": list(players_of(table)),
        "options": table.options,
        "language": table.locale.replace("_", "-"),
        "created_at": _iso(table.created_at),
        "hands": [hand_answer(table, h) for h in hands],
        "totals": totals(table),
        "stock": stock(table),
        "next_dealer": current_dealer(table),
        "next_number": next_number(table),
        "teams": [list(team) for team in teams_of(table)],
        "finished": table.finished_at is not None or bool(match and match["finished"]),
        "winner": match["winner"] if match else None,
        **({"match": match["teams"]} if match else {}),
        "follows": table.follows,
        "two_key": table.two_key,
        "rematch": rematch_of(table),
        "last_round": last_round(table),
        "clock": clock(table),
        **({"on_the_table": on_the_table(table)} if rules_of(table).pots else {}),
        "urls": dict(urls),
    }


# --------------------------------------------------------------------------- rematches


def rematch_of(table: Table) -> str | None:
    """The id of the table that follows this one (its rematch), if there is one."""
    return db.session.scalar(select(Table.id).where(Table.follows == table.id).order_by(Table.created_at).limit(1))


def rematch(table: Table) -> tuple[Table, str]:
    """A new match at the same table: the same players in the same seats, the same teams,
    options and language; the deal goes on from where it stopped. Only once per table, and only
    when its match is over (a second phone asking gets :class:`Conflict`)."""
    _lock_for_write(table)  # judged on the match as it stands, not while a void changes it
    if not match_over(table):
        raise Conflict(Text(N_("This match is not over yet.")))
    if rematch_of(table) is not None:
        raise Conflict(Text(N_("A rematch of this table was already started.")))
    try:
        return create_table(
            game=table.game,
            players=list(players_of(table)),
            dealer=current_dealer(table),
            name=table.name,
            options=table.options,
            locale=table.locale,
            teams=[list(team) for team in teams_of(table)],
            follows=table.id,
            two_key=table.two_key,
        )
    except IntegrityError:
        db.session.rollback()
        raise Conflict(Text(N_("A rematch of this table was already started."))) from None


# --------------------------------------------------------------------------- the meld checker


def meld_check(body: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /samba/meld-check``: each meld's verdict and, when a minimum is known (given, from
    the team's total, or from a team at a table), the opening's. Rendered in the current language."""
    from referee.rules import samba, samba_melds

    body = dict(body)
    table_id, team = body.pop("table", None), body.pop("team", None)
    request = samba_melds.parse_check(body)
    options = samba.SambaOptions()
    required = None
    if table_id is not None:
        if not isinstance(table_id, str):
            raise InvalidInput(Text(N_("table must be a table id.")), field="table")
        table = get_table(table_id)
        match = standing(table)
        if match is None:
            raise InconsistentHand(Text(N_("This table does not play Samba.")), field="table")
        if isinstance(team, bool) or not isinstance(team, int) or not 0 <= team < len(match["teams"]):
            raise InvalidInput(Text(N_("team must be the index of one of the table's teams.")), field="team")
        options = options_of(table)
        required = int(match["teams"][team]["min_meld"])
    elif team is not None:
        raise InvalidInput(Text(N_("team can only be given together with table.")), field="team")
    if required is None:
        required = request.minimum(options)
    melds = [samba_melds.check_meld(meld, going_out=request.going_out) for meld in request.melds]
    answer: dict[str, Any] = {
        "legal": all(m.legal for m in melds),
        "melds": [m.to_json(render_text) for m in melds],
        "opening": None,
    }
    if required is not None:
        opening = samba_melds.check_opening(
            request.melds, required=required, discard_top=request.discard_top, going_out=request.going_out
        )
        answer["opening"] = opening.to_json(render_text)
    return answer


# --------------------------------------------------------------------------- the owner's controls


def has_hands(table: Table) -> bool:
    """Any hand at all, voided ones included (house rules may change only before the first)."""
    return next_number(table) > 1


def _end_write(commit: bool) -> None:
    """Commit a write, or with ``commit=False`` only flush it: an import replays many writes
    and commits (or rolls back) them all at once."""
    if commit:
        db.session.commit()
    else:
        db.session.flush()


def _touch(table: Table, *, commit: bool = True) -> None:
    """Commit a change to the table row and move its version on, so every phone watching sees
    it (the live view's ETag is the version) and a concurrent writer gets a Conflict."""
    db.session.flush()
    _save_state(table, dict(table.state))
    _end_write(commit)


def set_two_key(table: Table, *, on: bool) -> None:
    """Turn two-key entry on or off (hands already recorded keep their confirmations)."""
    _lock_for_write(table)
    if table.finished_at is not None:
        raise Conflict(Text(N_("This table is finished: its hands can no longer change.")))
    table.two_key = on
    _touch(table)


def finish_table(table: Table) -> None:
    """Close the table: no more hands, voids or corrections; everything stays readable."""
    _lock_for_write(table)
    if table.finished_at is None:
        table.finished_at = utcnow()
        _touch(table)


def change_options(table: Table, raw: object) -> None:
    """New house rules before the first hand (checked like a new table's, seating included)."""
    _lock_for_write(table)
    if has_hands(table):
        raise Conflict(Text(N_("House rules can only change before the first hand.")))
    if table.finished_at is not None:
        raise Conflict(Text(N_("This table is finished: its hands can no longer change.")))
    rules = rules_of(table)
    parsed = rules.parse_options(raw)
    # The seats stay; what new options can break is the player count (Samba's five_players).
    rules.seat_teams(players_of(table), None, parsed)
    table.options = rules.options_json(parsed)
    _touch(table)


# --------------------------------------------------------------------------- two-key entry


def confirm_hand(table: Table, number: int, *, actor: str, commit: bool = True) -> Hand:
    """Confirm a hand recorded under two-key entry. Another access than the one that recorded it
    must do it (:func:`access.may_confirm`): one person confirming his own hand proves nothing.
    An import replays its confirmations through here too, judged like any other."""
    hand = _two_key_hand(table, number)
    if not access.may_confirm(hand.created_by, actor):
        raise InconsistentHand(Text(N_("Someone else must confirm this hand: whoever recorded it cannot.")))
    db.session.add(HandEvent(hand=hand, kind="confirm", actor=actor[:60]))
    _touch(table, commit=commit)
    return hand


def dispute_hand(table: Table, number: int, *, actor: str, reason: object = "", commit: bool = True) -> Hand:
    """Flag a hand for the owner: it stays counted, marked disputed, until the owner confirms,
    voids or corrects it."""
    hand = _two_key_hand(table, number)
    db.session.add(HandEvent(hand=hand, kind="dispute", reason=_reason(reason), actor=actor[:60]))
    _touch(table, commit=commit)
    return hand


def _two_key_hand(table: Table, number: int) -> Hand:
    _lock_for_write(table)
    if table.finished_at is not None:
        raise Conflict(Text(N_("This table is finished: its hands can no longer change.")))
    hand = get_hand(table, number)
    if hand is None:
        raise NotFound()
    if hand.status not in ("to_confirm", "disputed"):
        raise Conflict(Text(N_("Hand %(number)s is not waiting for a confirmation."), number=number))
    return hand


def to_confirm(hands: Sequence[Hand]) -> list[Hand]:
    """The hands still waiting for a confirmation (or disputed), oldest first."""
    return [h for h in sorted(hands, key=lambda h: h.number) if h.status in ("to_confirm", "disputed")]
