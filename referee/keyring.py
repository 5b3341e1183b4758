"""The ways in each phone holds, kept on the server under a hash of the phone's key.

A phone's session cookie is signed, not encrypted, and on a club's plain-http Wi-Fi anyone can
read it off the air. So it carries no token: only a random key (:func:`referee.phone.key`). Here,
per sha256 of that key, is which tables the phone holds and through which token (by the
token's hash, what :func:`referee.access.grant` compares). A key copied off the air still opens
what that phone holds until the owner revokes its access; HTTPS keeps it off the air.

A phone remembers at most :data:`REMEMBERED` tables; the least recently used go first, the
tables it owns last (nobody else could revoke a leaked link there or close the table). A token
is held by at most :data:`HOLDERS` phones, the most recent: a scoring link photographed off a
table and opened in a loop by a script without cookies (a new phone each time) makes no more
rows than that.
"""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from referee.db import db
from referee.models import PhoneHold

#: How many tables a phone holds a way in to.
REMEMBERED = 20
#: How many phones hold one token: far more than sit at a table or watch a championship's round.
HOLDERS = 100


def held(phone_hash: str | None) -> dict[str, str]:
    """Table id -> token hash, for every table the phone holds, least recently used first."""
    if not phone_hash:
        return {}
    rows = db.session.execute(
        select(PhoneHold.table_id, PhoneHold.token_hash)
        .where(PhoneHold.phone_hash == phone_hash)
        .order_by(PhoneHold.id)
    )
    return {row.table_id: row.token_hash for row in rows}


def hold(phone_hash: str, table_id: str, token_hash: str, *, owned: bool) -> None:
    """The phone holds ``table_id`` through ``token_hash`` from now on (its most recent), then
    forgets the oldest beyond REMEMBERED, owned tables last, and the token's oldest holders
    beyond HOLDERS. Commits.

    Two requests of one phone may race to hold the same table (a page and its live poll): the
    second finds the row made by the first, which says the same."""
    db.session.execute(delete(PhoneHold).where(PhoneHold.phone_hash == phone_hash, PhoneHold.table_id == table_id))
    db.session.add(PhoneHold(phone_hash=phone_hash, table_id=table_id, token_hash=token_hash, owned=owned))
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        return
    rows = db.session.execute(
        select(PhoneHold.id, PhoneHold.owned).where(PhoneHold.phone_hash == phone_hash).order_by(PhoneHold.id)
    ).all()
    extra = len(rows) - REMEMBERED
    if extra > 0:
        oldest_first = [r.id for r in rows if not r.owned] + [r.id for r in rows if r.owned]
        db.session.execute(delete(PhoneHold).where(PhoneHold.id.in_(oldest_first[:extra])))
    holders = db.session.scalars(
        select(PhoneHold.id)
        .where(PhoneHold.table_id == table_id, PhoneHold.token_hash == token_hash)
        .order_by(PhoneHold.id.desc())
        .offset(HOLDERS)
    ).all()
    if holders:
        db.session.execute(delete(PhoneHold).where(PhoneHold.id.in_(holders)))
    db.session.commit()


def copy(old_hash: str, new_hash: str) -> None:
    """What the phone held under its old key it holds under its new one too, in the same order
    (referee.phone.new_key); the old key's rows go once the phone is seen with the new one
    (:func:`forget`), so a response lost on the way leaves the phone what it had. Commits."""
    rows = db.session.scalars(select(PhoneHold).where(PhoneHold.phone_hash == old_hash).order_by(PhoneHold.id)).all()
    for row in rows:
        db.session.add(
            PhoneHold(phone_hash=new_hash, table_id=row.table_id, token_hash=row.token_hash, owned=row.owned)
        )
    db.session.commit()


def forget(phone_hash: str) -> None:
    """Everything held under a key no phone uses any more. Commits."""
    db.session.execute(delete(PhoneHold).where(PhoneHold.phone_hash == phone_hash))
    db.session.commit()
