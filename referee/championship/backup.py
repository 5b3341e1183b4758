"""Championships in a club's backup, and back out of it.

A club's full backup (:func:`referee.exports.backup`) must carry its championships, so that a
restore after a lost database brings back the day as it stood: the settings, the entries with
their numbers, the re-entries, the rounds with their shown seeds, and each round's tables with
their counts and the fiscal's signature. The cards come back too: a card's token is derived from
its scoring link's id, and a restore keeps those ids (as it keeps the entries' ids, which the
round tables and the re-entries name).

Three steps, each called by :mod:`referee.exports`: :func:`dump` writes every championship into
the backup; :func:`read` checks a backup's championships before anything is written, refusing a
malformed one with an :class:`~referee.rules.errors.InvalidInput` that names the place
(``championships[0].tables[2].entries``); :func:`insert` stores what it read, inside the restore's
transaction. The document helpers (fields, ids, times) are :mod:`referee.documents`', shared
with referee.exports, which imports this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from referee import ledger
from referee.db import db
from referee.documents import (
    ACTOR_MAX,
    MEMBER_NAME_MAX,
    TABLE_ID,
    continue_ids,
    field,
    invalid,
    iso,
    maybe_timestamp,
    naming,
    row_id,
    short_text,
    timestamp,
    whole,
)
from referee.members import name_key
from referee.models import ChampCard, ChampEvent, Championship, ChampRound, ChampTeam, Entry, Reentry, RoundTable
from referee.rules import get_game
from referee.rules.errors import InvalidInput
from referee.rules.text import N_

from . import history, money, prizes, status
from . import rounds as draw
from . import settings as rules
from .entries import REENTRY_WHEN

#: A championship's settings in a backup, as the model names them.
SETTINGS = (
    "name",
    "game",
    "options",
    "locale",
    "chips",
    "rounds",
    "deals",
    "minutes",
    "table_size",
    "late_until",
    "reentries",
    "reentry_points",
    "five_deals",
    "reentry_when",
    "tiebreaks",
    *money.SETTINGS,
    "sealed",
    "prizes",
)


# --------------------------------------------------------------------------- backup


def dump() -> list[dict[str, Any]]:
    """Every championship, oldest first (:func:`_json`)."""
    return [
        _json(c) for c in db.session.scalars(select(Championship).order_by(Championship.created_at, Championship.id))
    ]


def _json(championship: Championship) -> dict[str, Any]:
    """A championship with its settings, its entries (with their ids: the round tables and the
    re-entries name them), its re-entries, its rounds and its rounds' tables."""
    cid = championship.id
    return {
        "id": cid,
        "created_at": iso(championship.created_at),
        "version": championship.version,
        "settings": {key: getattr(championship, key) for key in SETTINGS},
        "archived_at": iso(championship.archived_at),
        "entries": [
            {
                "id": e.id,
                "number": e.number,
                "name": e.name,
                "name_key": e.name_key,
                "member_id": e.member_id,
                "first_round": e.first_round,
                "created_at": iso(e.created_at),
                "status": e.status,
                "status_reason": e.status_reason,
                "fee_paid": e.fee_paid,
            }
            for e in db.session.scalars(select(Entry).where(Entry.championship_id == cid).order_by(Entry.id))
        ],
        "reentries": [
            {
                "entry_id": r.entry_id,
                "round": r.round,
                "chips": r.chips,
                "at": iso(r.at),
                "actor": r.actor,
                "undone_at": iso(r.undone_at),
                "undone_by": r.undone_by,
                "fee_paid": r.fee_paid,
            }
            for r in db.session.scalars(select(Reentry).where(Reentry.championship_id == cid).order_by(Reentry.id))
        ],
        "rounds": [
            {
                "number": r.number,
                "seed": r.seed,
                "planned": r.planned,
                "drawn_at": iso(r.drawn_at),
                "ends_at": iso(r.ends_at),
            }
            for r in db.session.scalars(
                select(ChampRound).where(ChampRound.championship_id == cid).order_by(ChampRound.number)
            )
        ],
        "tables": [
            {
                "round": t.round,
                "number": t.number,
                "table_id": t.table_id,
                "entries": list(t.entries),
                "counts": None if t.counts is None else dict(t.counts),
                "counted_by": t.counted_by,
                "scorer_access": t.scorer_access,
                "fiscal_access": t.fiscal_access,
                "signed_at": iso(t.signed_at),
                "signed_by": t.signed_by,
            }
            for t in db.session.scalars(
                select(RoundTable)
                .where(RoundTable.championship_id == cid)
                .order_by(RoundTable.round, RoundTable.number)
            )
        ],
        "teams": [
            {"name": t.name, "entries": list(t.entries), "created_at": iso(t.created_at)}
            for t in prizes.teams(championship)
        ],
        "history": [
            {
                "at": iso(line.at),
                "actor": line.actor,
                "kind": line.kind,
                "entry_id": line.entry_id,
                "round": line.round,
                "table": line.table,
                "detail": dict(line.detail or {}),
            }
            for line in history.lines(championship)
        ],
        # The day's table cards: per number, the generation its tokens are derived from.
        "cards": [
            {"number": c.number, "generation": c.generation}
            for c in db.session.scalars(
                select(ChampCard).where(ChampCard.championship_id == cid).order_by(ChampCard.number)
            )
        ],
    }


# --------------------------------------------------------------------------- restore


@dataclass(frozen=True)
class Rows:
    """A championship of a backup, as rows to insert."""

    row: dict[str, Any]
    entries: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    reentries: list[dict[str, Any]]
    tables: list[dict[str, Any]]
    history: list[dict[str, Any]]
    cards: list[dict[str, Any]]
    teams: list[dict[str, Any]]


@dataclass
class _Known:
    """What a backup's championships may point at, and what they have taken so far (ids and
    tables are unique across the whole file)."""

    seats: Mapping[str, int]  # table id: its number of players
    links: Mapping[str, set[int]]  # table id: its accesses' ids
    members: set[int]
    championships: set[str]
    entries: set[int]
    tables: set[str]


def read(
    document: Mapping[str, Any],
    *,
    seats: Mapping[str, int],
    accesses: Mapping[str, set[int]],
    members: set[int],
) -> list[Rows]:
    """The championships of a backup document, checked (none in a backup made before they
    existed). What they may name: ``seats``, each table's number of players by table id;
    ``accesses``, each table's scoring links' ids by table id; ``members``, the members' ids."""
    if document.get("championships") is None:
        return []
    known = _Known(seats=seats, links=accesses, members=members, championships=set(), entries=set(), tables=set())
    raw = field(document, "championships", list, "")
    return [_championship(c, f"championships[{i}]", known) for i, c in enumerate(raw)]


def _championship(raw: object, where: str, known: _Known) -> Rows:
    raw = _object(raw, where)
    cid = field(raw, "id", str, where)
    if not TABLE_ID.fullmatch(cid):
        raise invalid(N_("%(field)s is missing or has the wrong type."), f"{where}.id", field="id")
    if cid in known.championships:
        raise _twice(where, "id")
    known.championships.add(cid)
    at = f"{where}.settings"
    settings = field(raw, "settings", dict, where)
    name = short_text(settings, "name", at, limit=120)
    if not name.strip():
        raise invalid(N_("Give the championship a name."), f"{at}.name")
    game = field(settings, "game", str, at)
    if game not in rules.GAMES:
        raise invalid(
            N_("A championship is played at a chip game: %(games)s."), f"{at}.game", games=", ".join(rules.GAMES)
        )
    options = field(settings, "options", dict, at)
    with naming(f"{at}.options"):
        get_game(game).parse_options(options)
    locale = field(settings, "locale", str, at)
    if locale not in set(ledger.LOCALES.values()):
        raise invalid(N_("The language must be pt-BR or en."), f"{at}.locale")
    rounds = whole(settings, "rounds", at, 1, rules.MAX_ROUNDS)
    table_size = whole(settings, "table_size", at, 4, 5)
    deals = whole(settings, "deals", at, table_size, rules.MAX_DEALS, optional=True)
    minutes = whole(settings, "minutes", at, *rules.MINUTES, optional=True)
    if (deals is None) == (minutes is None):
        raise invalid(N_("A round ends after a number of deals or after a time: choose one."), f"{at}.deals")
    reentry_points = settings.get("reentry_points")
    if not isinstance(reentry_points, str) or reentry_points not in rules.REENTRY_POINTS:
        raise invalid(N_("Choose how a re-entry's chips count."), f"{at}.reentry_points")
    reentry_when = settings.get("reentry_when", "out")  # a backup made before the setting: the default
    if not isinstance(reentry_when, str) or reentry_when not in REENTRY_WHEN:
        raise invalid(N_("Choose when a table recorded hand by hand takes a re-entry."), f"{at}.reentry_when")
    tiebreaks = field(settings, "tiebreaks", list, at)
    known_ones = all(isinstance(t, str) and t in rules.TIEBREAKS for t in tiebreaks)
    if not known_ones or len(set(tiebreaks)) < len(tiebreaks):
        raise invalid(N_("Each tie-break can be chosen once, from the list."), f"{at}.tiebreaks")
    row = {
        "id": cid,
        "name": name,
        "game": game,
        "options": dict(options),
        "locale": locale,
        "chips": whole(settings, "chips", at, 1, rules.MAX_CHIPS),
        "rounds": rounds,
        "deals": deals,
        "minutes": minutes,
        "table_size": table_size,
        "late_until": whole(settings, "late_until", at, 0, rounds),
        # None: as many as the player wants; a backup made before that reading carries a number.
        "reentries": whole(settings, "reentries", at, 0, 9, optional=True),
        "reentry_points": reentry_points,
        "five_deals": _five_deals(settings, at),
        "archived_at": maybe_timestamp(raw, "archived_at", where),
        "reentry_when": reentry_when,
        "tiebreaks": list(tiebreaks),
        **money.read_backup(settings, at),
        **_prize_settings(settings, at),
        "created_at": timestamp(raw, "created_at", where),
        "version": whole(raw, "version", where, 0, 2**31 - 1),
    }
    entries = _entries(raw, where, cid, rounds, known)
    ids = {e["id"] for e in entries}
    drawn = []
    for i, item in enumerate(field(raw, "rounds", list, where)):
        rw = f"{where}.rounds[{i}]"
        item = _object(item, rw)
        if whole(item, "number", rw, 1, rounds) != i + 1:
            raise invalid(N_("Rounds are numbered 1, 2, 3, … in order, without gaps."), f"{rw}.number")
        drawn.append(
            {
                "championship_id": cid,
                "number": i + 1,
                "seed": short_text(item, "seed", rw, limit=draw.SEED_MAX),
                # a backup from before the planned draw: its rounds were drawn alone
                "planned": whole(item, "planned", rw, 1, rounds, optional=True),
                "drawn_at": timestamp(item, "drawn_at", rw),
                "ends_at": maybe_timestamp(item, "ends_at", rw),
            }
        )
    reentries = _reentries(raw, where, cid, ids, len(drawn), rounds)
    tables = _round_tables(raw, where, cid, len(drawn), ids, known)
    return Rows(
        row=row,
        entries=entries,
        rounds=drawn,
        reentries=reentries,
        tables=tables,
        history=_history(raw, where, cid, ids),
        cards=_cards(raw, where, cid),
        teams=_teams(raw, where, cid, ids),
    )


def _five_deals(settings: Mapping[str, Any], at: str) -> str:
    """The tables of five's deals; "per_table" in a backup made before the setting existed
    (what its tables played)."""
    value = settings.get("five_deals", "per_table")
    if not isinstance(value, str) or value not in rules.FIVE_DEALS:
        raise invalid(N_("Choose how many deals a table of five plays."), f"{at}.five_deals")
    return value


def _reentries(
    raw: Mapping[str, Any], where: str, cid: str, ids: set[int], drawn: int, rounds: int
) -> list[dict[str, Any]]:
    """The re-entries, the undone ones with who undid them (none undone in an older backup)."""
    reentries = []
    for i, item in enumerate(field(raw, "reentries", list, where)):
        rw = f"{where}.reentries[{i}]"
        item = _object(item, rw)
        entry_id = row_id(item, "entry_id", rw)
        if entry_id not in ids:
            raise _unknown(f"{rw}.entry_id")
        if whole(item, "round", rw, 1, rounds) > drawn:
            raise _unknown(f"{rw}.round")
        reentries.append(
            {
                "championship_id": cid,
                "entry_id": entry_id,
                "round": item["round"],
                "chips": whole(item, "chips", rw, 1, rules.MAX_CHIPS),
                "at": timestamp(item, "at", rw),
                "actor": short_text(item, "actor", rw, limit=ACTOR_MAX),
                "undone_at": maybe_timestamp(item, "undone_at", rw),
                "undone_by": short_text(item, "undone_by", rw, limit=ACTOR_MAX, optional=True) or "",
                "fee_paid": money.read_paid(item, rw),
            }
        )
    return reentries


def _cards(raw: Mapping[str, Any], where: str, cid: str) -> list[dict[str, Any]]:
    """The day's table cards' generations (none in a backup made before them: every number at
    generation 1, the cards first printed)."""
    kept: list[dict[str, Any]] = []
    numbers: set[int] = set()
    for i, item in enumerate(field(raw, "cards", list, where, optional=True) or []):
        cw = f"{where}.cards[{i}]"
        item = _object(item, cw)
        number = whole(item, "number", cw, 1, 100_000)
        if number in numbers:
            raise _twice(cw, "number")
        numbers.add(number)
        kept.append(
            {"championship_id": cid, "number": number, "generation": whole(item, "generation", cw, 1, 2**31 - 1)}
        )
    return kept


def _prize_settings(settings: Mapping[str, Any], at: str) -> dict[str, Any]:
    """The seal and the prize table (a backup made before them: not sealed, no prizes)."""
    sealed = settings.get("sealed", False)
    if not isinstance(sealed, bool):
        raise invalid(N_("%(field)s is missing or has the wrong type."), f"{at}.sealed", field="sealed")
    table = prizes.checked(settings.get("prizes", {}))
    if table is None:
        raise invalid(N_("%(field)s is missing or has the wrong type."), f"{at}.prizes", field="prizes")
    return {"sealed": sealed, "prizes": table}


def _teams(raw: Mapping[str, Any], where: str, cid: str, entry_ids: set[int]) -> list[dict[str, Any]]:
    """The quartets of the team prize (none in a backup made before them): four entries of this
    championship each, an entry in one team at most, a name once."""
    kept: list[dict[str, Any]] = []
    taken: set[int] = set()
    keys: set[str] = set()
    for i, item in enumerate(field(raw, "teams", list, where, optional=True) or []):
        tw = f"{where}.teams[{i}]"
        item = _object(item, tw)
        name = short_text(item, "name", tw, limit=prizes.TEAM_NAME_MAX)
        key = name_key(name)
        if not name.strip():
            raise invalid(
                N_("Give the team a name of up to %(max)s characters."), f"{tw}.name", max=prizes.TEAM_NAME_MAX
            )
        if key in keys:
            raise _twice(tw, "name")
        keys.add(key)
        members = field(item, "entries", list, tw)
        if (
            len(members) != prizes.TEAM_SIZE
            or any(isinstance(e, bool) or not isinstance(e, int) or e not in entry_ids or e in taken for e in members)
            or len(set(members)) != len(members)
        ):
            raise _unknown(f"{tw}.entries")
        taken.update(members)
        kept.append(
            {
                "championship_id": cid,
                "name": name,
                "name_key": key,
                "entries": list(members),
                "created_at": timestamp(item, "created_at", tw),
            }
        )
    return kept


def _history(raw: Mapping[str, Any], where: str, cid: str, entry_ids: set[int]) -> list[dict[str, Any]]:
    """The day's history (none in a backup made before it was kept)."""
    kept = []
    for i, item in enumerate(field(raw, "history", list, where, optional=True) or []):
        hw = f"{where}.history[{i}]"
        item = _object(item, hw)
        kind = field(item, "kind", str, hw)
        if kind not in history.KINDS:
            raise _unknown(f"{hw}.kind")
        entry_id = row_id(item, "entry_id", hw, optional=True)
        if entry_id is not None and entry_id not in entry_ids:
            raise _unknown(f"{hw}.entry_id")
        detail = field(item, "detail", dict, hw)
        plain = all(
            isinstance(key, str)
            and len(key) <= 40
            and (
                value is None
                or (isinstance(value, str) and len(value) <= history.DETAIL_TEXT_MAX)
                or (isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**31)
            )
            for key, value in detail.items()
        )
        if not history.needs(kind) <= detail.keys():
            raise invalid(N_("%(field)s is missing or has the wrong type."), f"{hw}.detail", field=f"{hw}.detail")
        if not plain or len(detail) > 20:
            raise invalid(N_("%(field)s must be a JSON object."), f"{hw}.detail", field=f"{hw}.detail")
        kept.append(
            {
                "championship_id": cid,
                "at": timestamp(item, "at", hw),
                "actor": short_text(item, "actor", hw, limit=ACTOR_MAX),
                "kind": kind,
                "entry_id": entry_id,
                "round": whole(item, "round", hw, 1, 2**31 - 1, optional=True),
                "table": whole(item, "table", hw, 1, 100_000, optional=True),
                "detail": dict(detail),
            }
        )
    return kept


def _entries(raw: Mapping[str, Any], where: str, cid: str, rounds: int, known: _Known) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    numbers: set[int] = set()
    keys: set[str] = set()
    for i, item in enumerate(field(raw, "entries", list, where)):
        ew = f"{where}.entries[{i}]"
        item = _object(item, ew)
        entry = {
            "id": row_id(item, "id", ew),
            "championship_id": cid,
            "number": whole(item, "number", ew, 1, 100_000),
            "name": short_text(item, "name", ew, limit=MEMBER_NAME_MAX),
            "name_key": short_text(item, "name_key", ew, limit=MEMBER_NAME_MAX),
            "member_id": row_id(item, "member_id", ew, optional=True),
            "first_round": whole(item, "first_round", ew, 1, rounds),
            "created_at": timestamp(item, "created_at", ew),
            "status": item.get("status", ""),  # a backup made before entries left play: in play
            "status_reason": short_text(item, "status_reason", ew, limit=status.REASON_MAX, optional=True) or "",
            "fee_paid": money.read_paid(item, ew),
        }
        if not isinstance(entry["status"], str) or entry["status"] not in ("", *status.MARKS):
            raise invalid(N_("Choose withdrawn, absent or disqualified."), f"{ew}.status")
        if not entry["name"].strip():
            raise invalid(N_("Each player needs a name."), f"{ew}.name")
        for key, taken in (("id", known.entries), ("number", numbers), ("name_key", keys)):
            if entry[key] in taken:
                raise _twice(ew, key)
            taken.add(entry[key])
        if entry["member_id"] is not None and entry["member_id"] not in known.members:
            raise _unknown(f"{ew}.member_id")
        entries.append(entry)
    return entries


def _round_tables(
    raw: Mapping[str, Any], where: str, cid: str, drawn: int, entry_ids: set[int], known: _Known
) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = []
    numbers: set[tuple[int, int]] = set()
    for i, item in enumerate(field(raw, "tables", list, where)):
        tw = f"{where}.tables[{i}]"
        item = _object(item, tw)
        round_number = whole(item, "round", tw, 1, 2**31 - 1)
        if round_number > drawn:
            raise _unknown(f"{tw}.round")
        number = whole(item, "number", tw, 1, 100_000)
        if (round_number, number) in numbers:
            raise _twice(tw, "number")
        numbers.add((round_number, number))
        table_id = field(item, "table_id", str, tw)
        if table_id not in known.seats:
            raise _unknown(f"{tw}.table_id")
        if table_id in known.tables:
            raise _twice(tw, "table_id")
        known.tables.add(table_id)
        seated = field(item, "entries", list, tw)
        if (
            any(isinstance(e, bool) or not isinstance(e, int) or e not in entry_ids for e in seated)
            or len(set(seated)) != len(seated)
            or len(seated) != known.seats[table_id]
        ):
            raise _unknown(f"{tw}.entries")
        counts = field(item, "counts", dict, tw, optional=True)
        if counts is not None:
            if set(counts) != {str(e) for e in seated}:
                raise _unknown(f"{tw}.counts")
            counts = {key: whole(counts, key, f"{tw}.counts", 0, 2**31 - 1) for key in counts}
        accesses = {}
        for key in ("scorer_access", "fiscal_access"):
            accesses[key] = row_id(item, key, tw, optional=True)
            if accesses[key] is not None and accesses[key] not in known.links[table_id]:
                raise _unknown(f"{tw}.{key}")
        tables.append(
            {
                "championship_id": cid,
                "round": round_number,
                "number": number,
                "table_id": table_id,
                "entries": list(seated),
                **({} if counts is None else {"counts": counts}),  # unset: SQL NULL, as the app leaves it
                "counted_by": short_text(item, "counted_by", tw, limit=ACTOR_MAX),
                **accesses,
                "signed_at": maybe_timestamp(item, "signed_at", tw),
                "signed_by": short_text(item, "signed_by", tw, limit=ACTOR_MAX),
            }
        )
    return tables


def _object(raw: object, where: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise invalid(N_("%(field)s must be a JSON object."), where, field=where)
    return raw


def _unknown(where: str) -> InvalidInput:
    return invalid(N_("%(field)s names something this file does not hold."), where, field=where)


def _twice(where: str, key: str) -> InvalidInput:
    return invalid(N_("Two rows of this file have the same %(field)s."), f"{where}.{key}", field=key)


def insert(championships: Sequence[Rows]) -> None:
    """Store the championships :func:`read` checked, inside the restore's transaction and after
    the tables, accesses and members they point at; one kind of row at a time (the models have
    no relationships to order the inserts by). As the app's own rows, made through the models: a
    paper table's counts not yet typed are SQL NULL, not JSON null."""
    for model, kind in (
        (Championship, "row"),
        (Entry, "entries"),
        (ChampRound, "rounds"),
        (Reentry, "reentries"),
        (RoundTable, "tables"),
        (ChampEvent, "history"),
        (ChampCard, "cards"),
        (ChampTeam, "teams"),
    ):
        for championship in championships:
            made = getattr(championship, kind)
            db.session.add_all(model(**row) for row in ([made] if kind == "row" else made))
        db.session.flush()
    continue_ids(Entry, Reentry, ChampRound, RoundTable, ChampEvent, ChampCard, ChampTeam)
