"""Recording hands: judge a record (preview), store it, correct it, void it.

What a hand says is stored as events: the hand (its record, its result, its deltas per seat)
and, later, a void event; nothing is deleted. Each write validates everything first (the engine
raises a :class:`RulesError` with a sentence and nothing is stored), holds the table's write
lock (referee.ledger.state) and stores in one transaction. A :class:`Conflict` is left for what
the API calls one: a stale ``expected_number``, a finished table, a hand already void. The
unique (table, number) constraint and the state's version stay as a second guard.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from referee.db import db
from referee.models import Hand, HandDelta, HandEvent, Table, utcnow
from referee.rules.errors import InconsistentHand, RulesError
from referee.rules.text import N_, Text

from . import idempotency
from .cleaning import clean_reason, printable, whole_number
from .errors import Conflict, NotFound
from .history import all_hands, deals_done, get_hand, next_place, numbering
from .pots import check_pot_chain, chips_carried_in, on_the_table, with_carry
from .results import Preview, result, running, with_figures
from .state import (
    claim_state,
    current_dealer,
    end_write,
    lock_for_write,
    match_over,
    new_state,
    next_number,
    places_after,
    rebuild_state,
    save_state,
    standing,
    version_moved,
)
from .tables import match_rematch, options_of, players_of, rules_of, teams_of
from .two_key import agreed

#: Who made a write, stored as a code (pages show it in the reader's language).
BY_SCORER = "scorer"
BY_API = "api"

_INSERT_HAND = insert(Hand.__table__).returning(Hand.__table__.c.id)
_INSERT_DELTA = insert(HandDelta.__table__)


def preview_hand(
    table: Table,
    raw: object,
    *,
    dealer: str | None = None,
    number: int | None = None,
    correcting: bool = False,
    carried_in: int | None = None,
    options: Any = None,
) -> Preview:
    """Judge a record without storing it. Raises :class:`RulesError` with the engine's sentence.

    A match that is over (Samba past its target) takes no new hand, but its hands can still be
    corrected: a wrong last hand may be what ended it. ``options``: the table's parsed house
    rules, when the caller has them."""
    if table.finished_at is not None:
        raise Conflict(Text(N_("This table is finished: no more hands can be recorded.")))
    rules = rules_of(table)
    options = options_of(table) if options is None else options
    players = players_of(table)
    if not correcting and match_over(table, options):
        raise Conflict(Text(N_("This match is over. Start a rematch to play on.")))
    if correcting:
        _no_rematch_yet(table)
    if rules.kind.carries_pot:
        raw = with_carry(raw, on_the_table(table) if carried_in is None else carried_in)
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


def _no_rematch_yet(table: Table) -> None:
    """A match's hands are fixed once a rematch follows it (the rematch started from its end):
    no correction, no void."""
    if match_rematch(table) is not None:
        raise Conflict(Text(N_("This match has a rematch: its hands can no longer change.")))


@dataclass
class _Judged:
    """A hand judged against the table as this request read it (``version``): everything that
    storing it writes, or the hand already saved under its Idempotency-Key."""

    version: int
    number: int
    replayed: dict[str, Any] | None = None
    old: Hand | None = None
    out: str | None = None
    running: dict[str, int] | None = None
    match: Mapping[str, Any] | None = None  # the standing once the hand is counted
    next_dealer: str = ""
    deltas: Mapping[str, int] | None = None
    row: dict[str, Any] | None = None
    saved: dict[str, Any] | None = None
    state: dict[str, Any] | None = None  # the table's new state, once written by :func:`_claim`


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
    restores: Hand | None = None,
) -> tuple[int, dict[str, Any], bool]:
    """Validate, settle and store one hand. Answers ``(number, saved, replayed)``: ``saved`` is
    the hand as stored (:func:`_saved_hand`: its result, record and place in play) with its
    running figures (the totals after it, a scored game's standing), from which the API makes
    its answer; the ledger renders no sentence.

    ``replayed`` is true when ``idempotency_key`` was seen before with the same hand: the hand
    as first saved is returned, its running figures as they stand now, and nothing new is
    stored. ``replaces`` voids that hand in the same transaction (a correction) and takes its
    place in the rotation. ``restores``: the undone hand this one brings back
    (:func:`restore_hand`), whose place it takes. The table's state gives the number, the
    dealer and the balances; besides the table row, a save reads its seats (once per request)
    and, with a key, the key's row, and a correction reads the hands it restates.
    """
    key = printable(idempotency_key[:100], field="Idempotency-Key") if idempotency_key else None
    fingerprint = idempotency.digest(raw, replaces) if key else ""
    if expected_number is not None:
        expected_number = whole_number(
            expected_number, field="expected_number", sentence=N_("expected_number must be a hand number (1 or more).")
        )
    reason = clean_reason(reason)

    def judge() -> _Judged:
        return _judge(
            table,
            raw,
            key=key,
            fingerprint=fingerprint,
            expected_number=expected_number,
            replaces=replaces,
            actor=actor,
            restores=restores,
        )

    judged = _judge_then_lock(table, judge)
    if judged.replayed is not None:
        return judged.number, judged.replayed, True
    assert judged.saved is not None
    try:
        _store(table, judged, key=key, fingerprint=fingerprint, reason=reason, actor=actor)
        end_write(commit)
    except IntegrityError:
        db.session.rollback()
        idempotency.forget_stored(table)
        stored = idempotency.stored_answer(table, key, fingerprint) if key else None
        if stored is not None:
            return stored[0], stored[1], True
        place = numbering(table).place(judged.number)
        raise Conflict(
            Text(N_("Hand %(number)s was just recorded by another phone."), number=place)
            if place
            else Text(N_("Another phone changed the table at the same moment: check it, then save again.")),
            current=judged.number,
            taken=judged.number if place else None,
        ) from None
    # The answer's running figures, judged with the hand (the key and the hand keep its own).
    return judged.number, with_figures(judged.saved, judged.running or {}, judged.match), False


def _judge_then_lock(table: Table, judge: Callable[[], _Judged]) -> _Judged:
    """Judge the hand against the table as read, without the lock (the engine's work and the
    settlement and the result, the most of a write, run in parallel with other tables' writes); then
    take the lock, and if another write reached this table meanwhile (its version moved) judge
    again against what that write left. Either way what is stored was judged on the state it
    follows. A replayed hand is returned at once."""
    try:
        judged: _Judged | None = judge()
    except (RulesError, Conflict, NotFound):
        if not version_moved(table):
            raise  # judged on the table as it stands: refused, and no lock taken
        judged = None  # maybe only because of what this request read: judged again, locked
    if judged is not None and (judged.replayed is not None or _claim(table, judged)):
        return judged
    if not lock_for_write(table) or judged is None:
        judged = judge()
    return judged


def _claim(table: Table, judged: _Judged) -> bool:
    """Take the write lock by writing the judged hand's state, for a new hand whose state is
    counted on from the one read (not a correction, which asks the stored hands): one statement
    rather than a lock and an update, and the check that no write came between (see
    :func:`claim_state`). False when that does not apply or another write came first: the
    caller then takes the lock and judges again."""
    if judged.old is not None or not {"played", "live", "places"} <= table.state.keys():
        return False
    db.session.flush()  # anything the request changed goes first, as before a lock
    state = _state_after(table, judged)
    if not claim_state(table, state):
        return False
    judged.state = state
    return True


def _store(table: Table, judged: _Judged, *, key: str | None, fingerprint: str, reason: str, actor: str) -> None:
    """One transaction: the hand, its deltas, the void of a corrected hand, the key and the
    table's new state."""
    assert judged.row is not None and judged.deltas is not None and judged.saved is not None
    connection = db.session.connection()  # plain Core inserts: see referee.ledger.state
    hand_id = connection.execute(_INSERT_HAND, judged.row).scalar_one()
    # A row for every player who took part, zero or not (the league counts hands played from
    # them); none for a player sitting the hand out.
    connection.execute(
        _INSERT_DELTA,
        [
            {"hand_id": hand_id, "seat": seat, "amount": judged.deltas[name]}
            for seat, name in enumerate(players_of(table))
            if name != judged.out
        ],
    )
    if judged.old is not None:
        db.session.add(HandEvent(hand_id=judged.old.id, kind="void", reason=reason, actor=actor[:60]))
    db.session.flush()
    state = judged.state or _state_after(table, judged)
    judged.saved["next_dealer"] = state["next_dealer"]  # after a correction: the table's, not the hand's
    if key:  # a retry with this key gets this very hand back
        idempotency.remember(table, key, fingerprint, judged.number, judged.saved)
    # The standing judged with the hand is the new state's (a correction's rebuilt balances are
    # the judged ones: the cached state equals the rebuilt one); worked out again if ever not.
    same = state["balances"] == judged.running
    # A new hand that counts at once moves the seats' counters by its own deltas.
    added = None if judged.old is not None or table.two_key else _taking_part(table, judged)
    match = judged.match if same else standing(table, state["balances"])
    save_state(table, state, match, added=added, claimed=judged.state is not None)


def _taking_part(table: Table, judged: _Judged) -> dict[str, int]:
    """The hand's deltas of the players who took part, in order of play."""
    assert judged.deltas is not None
    return {name: judged.deltas[name] for name in players_of(table) if name != judged.out}


def _state_after(table: Table, judged: _Judged) -> dict[str, Any]:
    """The table's state once the judged hand is stored: counted on from the state read, or for
    a correction (which may or may not move the deal) asked of the hands."""
    if judged.old is not None:
        return rebuild_state(table)
    players = players_of(table)
    if "played" in table.state and "live" in table.state:
        played = {name: int(table.state["played"].get(name, 0)) + (name != judged.out) for name in players}
        live = int(table.state["live"]) + 1
    else:  # a state written before it kept these: counted from the hands (this one included)
        rebuilt = rebuild_state(table)
        played, live = rebuilt["played"], rebuilt["live"]
    assert judged.running is not None and judged.row is not None
    return new_state(
        balances=judged.running,
        next_number=judged.number + 1,
        next_dealer=judged.next_dealer,
        played=played,
        live=live,
        places=places_after(table, new_place=judged.row["position"] == judged.number),
    )


def _judge(
    table: Table,
    raw: Mapping[str, object],
    *,
    key: str | None,
    fingerprint: str,
    expected_number: int | None,
    replaces: object,
    actor: str,
    restores: Hand | None = None,
) -> _Judged:
    """Judge a hand against the table's state as it is in this session: the number it takes,
    the hand it corrects, its settlement, the row to insert and the hand saved. Raises what the
    write would (a Conflict for a stale ``expected_number``, the engine's RulesError)."""
    if key:
        stored = idempotency.stored_answer(table, key, fingerprint)
        if stored is not None:
            return _Judged(version=table.version, number=stored[0], replayed=stored[1])
    number = next_number(table)
    _check_expected(table, expected_number, number)
    old = _replaced(table, replaces)
    if old is None and deals_done(table):
        # A correction takes the place of the hand it replaces; anything else is one deal more.
        raise Conflict(
            Text(N_("This table has played its %(deals)s deals: the round is over here."), deals=table.deals)
        )
    options = options_of(table)
    preview = preview_hand(
        table,
        raw,
        dealer=old.dealer if old else current_dealer(table),
        number=number,
        correcting=old is not None,
        carried_in=chips_carried_in(table, old),
        options=options,
    )
    if old is not None:
        check_pot_chain(table, old, -sum(preview.settlement.deltas.values()))
    after = running(table, preview, old)
    match = standing(table, after, options)
    stored_result = result(table, preview, after, number=number, match=match)
    if table.two_key:
        stored_result["two_key"] = True  # waits for a confirmation from another phone
    if old is not None:
        stored_result["replaces"] = old.number
    if restores is not None:
        stored_result["restores"] = restores.number
    rules = rules_of(table)
    record = rules.hand_json(preview.hand)
    place = old or restores  # a correction or a restored hand deals where the hand it stands for did
    row = {
        "table_id": table.id,
        "number": number,
        "position": place.position if place else number,
        "dealer": preview.dealer,
        "next_dealer": preview.next_dealer,
        "record": record,
        "result": stored_result,
        "created_by": actor[:60],
        "created_at": utcnow(),
    }
    return _Judged(
        version=table.version,
        number=number,
        old=old,
        out=rules.sitting_out(players_of(table), preview.dealer, options),
        running=after,
        match=match,
        next_dealer=preview.next_dealer,
        deltas=preview.settlement.deltas,
        row=row,
        saved=_saved_hand(number, stored_result, record, _place_taken(table, old)),
    )


def _place_taken(table: Table, old: Hand | None) -> int:
    """The place in play a hand being stored takes: the corrected hand's, else the next one (a
    restored hand is always the newest, so it takes the next place too)."""
    if old is None:
        return next_place(table)
    shown = numbering(table)
    return shown.of(old) or shown.next


def _check_expected(table: Table, expected_number: int | None, number: int) -> None:
    """A client that says which hand it records (by the stored number it expects) is refused
    when another write came first. The sentence names hands by their places in play: the hand
    another phone recorded meanwhile, and the number the next hand will show."""
    if expected_number is None or expected_number == number:
        return
    shown = numbering(table)
    taken = _taken_since(table, expected_number) if expected_number < number else None
    if taken is not None:
        text = Text(
            N_("Hand %(expected)s was already recorded by another phone; the next hand is number %(number)s."),
            expected=shown.of(taken),
            number=shown.next,
        )
    elif expected_number < number:
        text = Text(
            N_("The table changed on another phone meanwhile; the next hand is number %(number)s."), number=shown.next
        )
    else:
        text = Text(N_("The next hand is number %(number)s."), number=shown.next)
    raise Conflict(text, current=number - 1, taken=taken.number if taken else None)


def _taken_since(table: Table, expected_number: int) -> Hand | None:
    """The first live hand stored since ``expected_number`` that took a new place (not a
    correction, which keeps the place of the hand it corrects), or None."""
    for hand in all_hands(table):
        if hand.number >= expected_number and not hand.is_void and "replaces" not in hand.result:
            return hand
    return None


def _replaced(table: Table, replaces: object) -> Hand | None:
    """The live hand a correction replaces (None for a new hand)."""
    if replaces is None:
        return None
    wanted = whole_number(
        replaces, field="replaces", sentence=N_("replaces must be the number of the hand to correct.")
    )
    old = get_hand(table, wanted)
    if old is None:
        raise NotFound()
    if old.is_void:
        raise Conflict(Text(N_("That hand is already void.")))
    return old


def _saved_hand(
    number: int, stored: Mapping[str, Any], record: Mapping[str, Any], display_number: int
) -> dict[str, Any]:
    """A hand as a write answers it and keeps under its Idempotency-Key: the stored result (its
    sentences as msgids, so no language is chosen here), the record, its number and the place
    in play it takes. The API renders its answer from it, the first time and on a retry alike."""
    return {**stored, "number": number, "record": dict(record), "display_number": display_number}


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
    lock_for_write(table)
    if table.finished_at is not None:
        raise Conflict(Text(N_("This table is finished: its hands can no longer change.")))
    reason = clean_reason(reason)
    hand = get_hand(table, number)
    if hand is None:
        raise NotFound()
    if hand.is_void:
        raise Conflict(Text(N_("That hand is already void.")))
    if not owner and agreed(table, hand):
        raise InconsistentHand(
            Text(
                N_(
                    "Hand %(number)s was confirmed by two people: correct it (the correction waits for a confirmation again), or ask the owner to void it."
                ),
                number=numbering(table).of(hand),
            )
        )
    _no_rematch_yet(table)
    check_pot_chain(table, hand, None)
    db.session.add(HandEvent(hand=hand, kind="void", reason=reason, actor=actor[:60]))
    try:
        db.session.flush()
        save_state(table, rebuild_state(table))
        end_write(commit)
    except IntegrityError:
        db.session.rollback()
        raise Conflict(Text(N_("That hand is already void."))) from None
    return hand


def restore_key(number: int) -> str:
    """The Idempotency-Key of bringing hand ``number`` back: a double tap on "redo" stores one hand."""
    return f"restore-{number}"


def restore_hand(table: Table, number: int, *, actor: str = "", commit: bool = True) -> tuple[int, bool]:
    """Bring back hand ``number``, undone by mistake: a new hand with the same record, judged
    again on the same table (the deal and the chips on the table are what they were before it),
    marked ``restores``, taking its place in the rotation. The void stays in the history: a
    mended slip is two entries, never an erasure. Answers ``(number, replayed)``.

    Only the newest hand can come back, and only while nothing was recorded after it: a hand
    played since was dealt by the dealer the undo left."""
    key = restore_key(number)
    done = idempotency.stored_number(table, key)
    if done is not None:
        return done, True
    hand = get_hand(table, number)
    if hand is None:
        raise NotFound()
    if not hand.is_void:
        raise Conflict(Text(N_("That hand is not void: there is nothing to bring back.")))
    if hand.number != next_number(table) - 1:
        raise Conflict(Text(N_("That hand can no longer be brought back: a hand was recorded after it.")))
    restored, _saved, replayed = record_hand(
        table,
        dict(hand.record),
        expected_number=hand.number + 1,
        actor=actor,
        idempotency_key=key,
        restores=hand,
        commit=commit,
    )
    return restored, replayed
