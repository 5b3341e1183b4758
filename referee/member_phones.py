"""Phones bound to a member: "this phone is Maria's", with no account, e-mail or password.

A manager (the club's code typed) makes a one-time link for a member and opens it on her phone,
or shows its QR code; a table's owner makes one for a player at his table, which shows her own page
but does not let her phone set her Pix key (:func:`sets_pix`). Opened there and confirmed (a link preview in a chat app only reads it),
the link is spent and the phone's session keeps a new random key whose hash the server keeps:
from then on the phone shows her own page and lets her set her own Pix key, at that club only.
The manager sees the member's phones on her page and revokes any of them; she can unbind her
own. A link not opened within :data:`LINK_HOURS` lapses.

Only hashes are stored (sha256 of 192 random bits): a copy of the database binds no phone.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from flask import session
from flask_babel import gettext as _
from sqlalchemy import select

from referee import members, phone
from referee.club_scope import session_key
from referee.db import db
from referee.models import Championship, ChampRound, Entry, Member, MemberPhone, RoundTable, aware, utcnow

#: How long a link waits to be opened.
LINK_HOURS = 24
#: How many phones (and links not yet opened) a member has at most: a phone, a tablet, a spare.
MOST = 5


class TooMany(Exception):
    """The member already has :data:`MOST` phones and links: revoke one first (the sentence)."""


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


#: Where the phone's session keeps its key, per club (a phone may be Maria's at one club and
#: nobody's at another).
SESSION_KEY = "member"


def live(member: Member) -> list[MemberPhone]:
    """The member's bound phones and the links not yet opened nor lapsed, oldest first."""
    now = utcnow()
    rows = db.session.scalars(
        select(MemberPhone)
        .where(MemberPhone.member_id == member.id, MemberPhone.revoked_at.is_(None))
        .order_by(MemberPhone.id)
    )
    return [row for row in rows if row.bound_at is not None or aware(row.link_expires_at) > now]


def make_link(member: Member, made_by: str) -> str:
    """A new one-time link's token for ``member`` (stored as a hash). Does not commit."""
    if len(live(member)) >= MOST:
        raise TooMany(
            _("%(name)s has %(most)d phones and links already: revoke one first.", name=member.name, most=MOST)
        )
    token = secrets.token_urlsafe(24)
    db.session.add(
        MemberPhone(
            member_id=member.id,
            link_hash=_hash(token),
            link_expires_at=utcnow() + timedelta(hours=LINK_HOURS),
            made_by=made_by[:60],
        )
    )
    db.session.flush()
    return token


def opened(token: str) -> tuple[MemberPhone, Member] | None:
    """The link ``token`` names, if it may still bind a phone, and its member."""
    row = db.session.scalar(select(MemberPhone).where(MemberPhone.link_hash == _hash(str(token)[:100])))
    if row is None or row.revoked_at is not None or row.bound_at is not None:
        return None
    if aware(row.link_expires_at) <= utcnow():
        return None
    member = members.get(row.member_id)
    return None if member is None else (row, member)


def bind(token: str) -> Member | None:
    """Bind this phone to the link's member and spend the link; None for a link that binds
    nothing (unknown, spent, lapsed, revoked). Commits."""
    found = opened(token)
    if found is None:
        return None
    row, member = found
    key = secrets.token_urlsafe(24)
    row.key_hash = _hash(key)
    row.bound_at = utcnow()
    row.device = phone.device()
    db.session.commit()
    session[session_key(SESSION_KEY)] = key
    session.permanent = True
    return member


def _bound_row() -> MemberPhone | None:
    key = session.get(session_key(SESSION_KEY))
    if not isinstance(key, str) or not key:
        return None
    row = db.session.scalar(select(MemberPhone).where(MemberPhone.key_hash == _hash(key)))
    return row if row is not None and row.revoked_at is None else None


def owner() -> Member | None:
    """The member this phone is bound to at the served club, if any (following merges)."""
    row = _bound_row()
    return None if row is None else members.get(row.member_id)


#: Who made a link: the club's manager, or a table's owner (``table:<id>``).
BY_CLUB = "club"


def by_table(table_id: str) -> str:
    return f"table:{table_id}"


def sets_pix() -> bool:
    """Whether this phone may set its member's Pix key: only when the club's manager bound it. A
    table's owner binds a phone to a player at his table for her own page only, since anyone can
    open a table and name a member at it: the key where her money goes is the club's to entrust."""
    row = _bound_row()
    return row is not None and row.made_by == BY_CLUB


def revoke(member: Member, phone_id: int) -> bool:
    """Revoke one of ``member``'s phones or links; False if it is not hers. Commits."""
    row = db.session.get(MemberPhone, phone_id)
    if row is None or members.get(row.member_id) is not member or row.revoked_at is not None:
        return False
    row.revoked_at = utcnow()
    db.session.commit()
    return True


def unbind() -> None:
    """This phone is hers no more (she said so on it). Commits."""
    row = _bound_row()
    if row is not None:
        row.revoked_at = utcnow()
        db.session.commit()
    session.pop(session_key(SESSION_KEY), None)


@dataclass(frozen=True)
class Seat:
    """Where a member sits next in a championship: its latest drawn round's table."""

    championship_id: str
    championship: str
    round: int
    table: int


def next_tables(member: Member) -> list[Seat]:
    """Her table in the latest drawn round of each championship she is entered in and that is
    not archived (a championship's public pages show the rest)."""
    found = []
    entries = db.session.execute(
        select(Entry, Championship)
        .join(Championship, Championship.id == Entry.championship_id)
        .where(Entry.member_id == member.id, Championship.archived_at.is_(None), Entry.status == "")
    ).all()
    for entry, championship in entries:
        latest = db.session.scalar(
            select(ChampRound.number)
            .where(ChampRound.championship_id == championship.id)
            .order_by(ChampRound.number.desc())
            .limit(1)
        )
        if latest is None:
            continue
        tables = db.session.scalars(
            select(RoundTable).where(RoundTable.championship_id == championship.id, RoundTable.round == latest)
        )
        for table in tables:
            if entry.id in (table.entries or []):
                found.append(Seat(championship.id, championship.name, latest, table.number))
    return found
