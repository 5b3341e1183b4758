"""Club members: the people behind the names typed at the tables.

A seat keeps the name used at its table (the hand records say it) and points at a member. A
name typed at a new table finds the active member with the same name, ignoring case and extra
spaces, or creates one; so the league follows people, and renaming or merging members never
rewrites a table's history.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from referee import inputs
from referee.db import db
from referee.models import Member, Rating, RatingRun, Seat, utcnow
from referee.rules.errors import InvalidInput, RulesError
from referee.rules.text import N_, Text

NAME_MAX = 40


def name_key(name: str) -> str:
    """What two spellings of one name share: casefolded, spaces collapsed."""
    return " ".join(name.split()).casefold()[:NAME_MAX]


def resolve(names: Sequence[str]) -> list[Member]:
    """The active member for each name, creating the missing ones (not committed).

    Two phones creating "Zé" at the same moment: the insert skips a key that is already there
    (ON CONFLICT DO NOTHING, in SQLite and PostgreSQL alike) and the row is read back, so the
    loser gets the winner's member and the surrounding transaction goes on untouched (no
    savepoint: on SQLite one opened before any write would commit by itself)."""
    keys = [name_key(n) for n in names]
    missing = {}
    present = set(db.session.scalars(select(Member.name_key).where(Member.name_key.in_(keys))))
    for name, key in zip(names, keys):
        if key not in present and key not in missing:
            missing[key] = " ".join(name.split())
    if missing:
        now = utcnow()
        rows = [
            {"name": name, "name_key": key, "pix_key": "", "pix_city": "", "created_at": now}
            for key, name in missing.items()
        ]
        insert = sqlite_insert if db.session.get_bind().dialect.name == "sqlite" else postgresql_insert
        db.session.execute(insert(Member).values(rows).on_conflict_do_nothing(index_elements=["club_id", "name_key"]))
    found = {m.name_key: m for m in db.session.scalars(select(Member).where(Member.name_key.in_(keys)))}
    return [found[k] for k in keys]


def active() -> list[Member]:
    """Every member not merged into another, by name."""
    return list(db.session.scalars(select(Member).where(Member.merged_into.is_(None)).order_by(Member.name_key)))


def get(member_id: object) -> Member | None:
    """A member by id, following merges to the member he became."""
    if isinstance(member_id, bool) or not isinstance(member_id, int):
        return None
    member = db.session.get(Member, member_id)
    seen = set()
    while member is not None and member.merged_into is not None and member.id not in seen:
        seen.add(member.id)
        member = db.session.get(Member, member.merged_into)
    return member


def _clean(name: object) -> str:
    if isinstance(name, str):
        name = inputs.strip_bidi(name)
    if not isinstance(name, str) or not " ".join(name.split()):
        raise InvalidInput(Text(N_("Type the member's name.")), field="name")
    name = " ".join(name.split())
    if len(name) > NAME_MAX or any(ord(c) < 32 or 127 <= ord(c) < 160 for c in name):
        raise InvalidInput(Text(N_("A name has at most %(max)s letters."), max=NAME_MAX), field="name")
    return name


def rename(member: Member, name: object) -> None:
    """Give a member a new name. Tables already played keep the name they were played under."""
    new = _clean(name)
    key = name_key(new)
    other = db.session.scalars(select(Member).where(Member.name_key == key, Member.id != member.id)).first()
    if other is not None:
        raise RulesError(
            Text(N_("%(name)s is already a member: merge the two instead of renaming."), name=other.name), field="name"
        )
    member.name, member.name_key = new, key
    db.session.commit()


def merge(duplicate: Member, into: Member) -> None:
    """Make ``duplicate`` the same person as ``into``: his seats move over, his row stays (with
    ``merged_into``) so old links still find him. Ratings are recomputed from the hands."""
    if duplicate.id == into.id:
        raise RulesError(Text(N_("A member cannot be merged into himself.")), field="into")
    if duplicate.merged_into is not None or into.merged_into is not None:
        raise RulesError(Text(N_("That member was already merged into another.")), field="into")
    db.session.execute(update(Seat).where(Seat.member_id == duplicate.id).values(member_id=into.id))
    db.session.execute(update(Member).where(Member.merged_into == duplicate.id).values(merged_into=into.id))
    duplicate.merged_into = into.id
    duplicate.name_key = None
    if not into.pix_key and duplicate.pix_key:
        into.pix_key, into.pix_city = duplicate.pix_key, duplicate.pix_city
    # Ratings follow the hands, and the hands now name one person: start them again.
    db.session.execute(Rating.__table__.delete())
    db.session.execute(RatingRun.__table__.delete())
    db.session.commit()
