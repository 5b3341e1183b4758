"""A championship's life after its creation: its settings changed until the first draw, deleted
before it, archived (and taken back) after it.

A committee that chose the wrong game with 23 players registered must not type them all again:
until a round is drawn nothing rests on the settings but the entries, which belong to no game,
so every setting can change (checked as a new championship's, :func:`.settings.check`). Once a
round is drawn, its tables were created from them, so only the name changes. The first draw is
also the line between deleting (nothing played yet: a test, a mistake) and archiving: a day that
was played is never erased, it leaves the list and refuses every write, and can come back.
Each change is a line of the day's history, whose sentence keeps what was there before.
"""

from __future__ import annotations

from typing import Any

from flask_babel import force_locale, gettext
from sqlalchemy import delete as sql_delete
from sqlalchemy import func, select

from referee import ledger
from referee.db import db
from referee.models import ChampEvent, Championship, Entry, Reentry, Table, utcnow
from referee.rules import get_game
from referee.rules.errors import RulesError
from referee.rules.text import N_, Text

from . import history
from .entries import REENTRY_WHEN
from .lock import lock
from .rounds import current_round, round_tables
from .settings import FIVE_DEALS, REENTRY_POINTS, TIEBREAKS, check, for_points

#: The settings a change may touch, in the order the history line states them, with the word
#: that names each one there.
LABELS: dict[str, str] = {
    "name": N_("name"),
    "game": N_("game"),
    "chips": N_("chips"),
    "rounds": N_("rounds"),
    "deals": N_("deals per round"),
    "minutes": N_("minutes per round"),
    "table_size": N_("table size"),
    "late_until": N_("late entries until round"),
    "reentries": N_("re-entries per round"),
    "reentry_points": N_("re-entry chips"),
    "five_deals": N_("deals at a table of five"),
    "reentry_when": N_("re-entries taken"),
    "tiebreaks": N_("tie-breaks"),
    "options": N_("house rules"),
    "entry_fee": N_("entry fee"),
    "reentry_fee": N_("re-entry fee"),
    "pix_key": N_("key for Pix payments"),
    "pix_city": N_("Pix city"),
}

#: What can still change once a round is drawn: nothing the tables were made from. The money
#: of the day is the desk's business, and a fee typed wrong is mended at any time (what was
#: already received keeps the amount taken: :mod:`.money`).
ANY_TIME: frozenset[str] = frozenset({"name", "entry_fee", "reentry_fee", "pix_key", "pix_city"})

#: A setting's value in a few words, for the history line.
SHORT: dict[str, dict[str, str]] = {
    "reentry_points": {"counted": N_("every chip counts"), "repaid": N_("taken back")},
    "five_deals": {"per_table": N_("as a table of four"), "per_player": N_("a quarter more")},
    "reentry_when": {"out": N_("only when out"), "asked": N_("whenever asked")},
}
assert set(SHORT["reentry_points"]) == set(REENTRY_POINTS) and set(SHORT["five_deals"]) == set(FIVE_DEALS)
assert set(SHORT["reentry_when"]) == set(REENTRY_WHEN)


def drawn(championship: Championship) -> bool:
    return current_round(championship) > 0


def _shown(key: str, value: Any) -> str:
    """A setting's value as the history line states it (in the active language)."""
    if value is None:
        return gettext("no limit") if key == "reentries" else "–"
    if key == "game":
        return get_game(value).name
    if key in SHORT:
        return gettext(SHORT[key].get(value, value))
    if key == "tiebreaks":
        return ", ".join(gettext(TIEBREAKS[t]) for t in value) or "–"
    return str(value)


#: The money settings: their changes go in a line of their own that only the manager reads, as
#: the desk and the cash box are his. The Pix key (often a CPF or a phone number) is never
#: written out, even there: the line says that it changed.
MONEY: frozenset[str] = frozenset({"entry_fee", "reentry_fee", "pix_key", "pix_city"})


def _changes(championship: Championship, wanted: dict[str, Any], keys: frozenset[str]) -> str:
    """What changes, as "game: Jubileu → Quatrilho; rounds: 3 → 5", in the championship's
    language (the history keeps the sentence as it was written). The house rules name each
    option changed with its values, so the line keeps what was there before; a new game brings
    its own house rules, which the game's change says."""
    parts = []
    with force_locale(championship.locale):
        for key, label in LABELS.items():
            old, new = getattr(championship, key), wanted[key]
            if old == new or key not in keys:
                continue
            if key == "pix_key":
                parts.append(gettext("Pix key changed"))
                continue
            if key == "options" and wanted["game"] != championship.game:
                continue  # another game's house rules: the game's change says it
            if key == "options":
                keys = sorted(set(old) | set(new))
                moved = [f"{k} {old.get(k, '–')} → {new.get(k, '–')}" for k in keys if old.get(k) != new.get(k)]
                parts.append(f"{gettext(label)}: {', '.join(moved)}")
            else:
                parts.append(f"{gettext(label)}: {_shown(key, old)} → {_shown(key, new)}")
    return "; ".join(parts)


def change(championship: Championship, fields: dict[str, object], *, actor: str = "") -> bool:
    """Change the settings (committed, with a history line): every one until the first draw,
    only the name after it; refused with a sentence, nothing stored. False when nothing changed."""
    wanted = check(**fields)
    lock(championship)
    if drawn(championship):
        # A championship created before a chip was made worth nothing carries a chip value its
        # tables drop (for_points): that is no change of the committee's.
        stored = {key: getattr(championship, key) for key in LABELS}
        stored["options"] = for_points(championship.game, championship.options)
        moved = [key for key in LABELS if key not in ANY_TIME and stored[key] != wanted[key]]
        if moved:
            db.session.rollback()
            raise RulesError(
                Text(N_("Round 1 has been drawn: only the name and the fees can change now.")),
                field=moved[0],
            )
    text = _changes(championship, wanted, frozenset(LABELS) - MONEY)
    money = _changes(championship, wanted, MONEY)
    if not text and not money:
        db.session.rollback()
        return False
    for key in LABELS:
        setattr(championship, key, wanted[key])
    if text:
        history.record(championship, "settings_changed", actor=actor, changes=text)
    if money:
        history.record(championship, "money_changed", actor=actor, changes=money)
    db.session.commit()
    return True


def players(championship: Championship) -> int:
    return db.session.scalar(select(func.count()).where(Entry.championship_id == championship.id)) or 0


def delete(championship: Championship) -> None:
    """Delete a championship no round of which was drawn, with its entries and history
    (committed). After the first draw it can only be archived."""
    lock(championship)
    if drawn(championship):
        db.session.rollback()
        raise RulesError(Text(N_("Round 1 has been drawn: the championship can be archived, not deleted.")))
    for model in (ChampEvent, Reentry, Entry):
        db.session.execute(sql_delete(model).where(model.championship_id == championship.id))
    db.session.execute(sql_delete(Championship).where(Championship.id == championship.id))
    db.session.commit()


def _round_tables_open(championship: Championship) -> list[Table]:
    """The Referee tables of the round being played that are not signed off: they take hands."""
    ids = [row.table_id for row in round_tables(championship, current_round(championship)) if row.signed_at is None]
    return list(db.session.scalars(select(Table).where(Table.id.in_(ids)))) if ids else []


def archive(championship: Championship, *, actor: str = "") -> None:
    """Archive a championship after its first draw (committed, in the history): it leaves the
    list's main part and refuses every write (:func:`.lock.lock`). The round's tables still
    open are closed too, so that their scorers' cards record no more hands; they are the tables
    of that round with no signature, which :func:`unarchive` opens again."""
    lock(championship)
    if not drawn(championship):
        db.session.rollback()
        raise RulesError(Text(N_("No round was drawn yet: delete the championship instead.")))
    for table in _round_tables_open(championship):
        ledger.finish_table(table)
    championship.archived_at = utcnow()
    history.record(championship, "archived", actor=actor)
    db.session.commit()


def unarchive(championship: Championship, *, actor: str = "") -> None:
    """Take a championship out of the archive (committed, in the history): it takes writes
    again, and the round's tables that were not signed off take hands again."""
    lock(championship, archived_ok=True)
    if championship.archived_at is None:
        db.session.rollback()
        raise RulesError(Text(N_("This championship is not archived.")))
    championship.archived_at = None
    for table in _round_tables_open(championship):
        ledger.reopen_table(table)
    history.record(championship, "unarchived", actor=actor)
    db.session.commit()
