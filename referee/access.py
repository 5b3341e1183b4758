"""Who may do what at a table: the owner, scorers and watchers.

- **Watchers** need nothing but the table's id (the read-only link): it is 128 random
  bits, so knowing it is the permission to read.
- The **owner** holds the token answered when the table was created (``Table.scorer_token_hash``,
  the API's bearer token; a page never shows it again). The owner records, voids and corrects
  like a scorer, and alone can end the table, change its house rules before the first hand, turn
  two-key entry on or off, and create or revoke the ways in for scorers. He can hand the table
  over to another phone with an owner's link: an :class:`Access` of role owner, listed and
  revocable like a scorer's. Such a link works once: the first phone that opens it is given a
  token of its own in its place (:func:`open_link`), and any later phone is told it was used.
- **Scorers** come in through a scoring link (a 256-bit token in the URL, for a QR code) or a
  short **join code** the owner reads out (single use, valid for :data:`CODE_MINUTES`); a code
  becomes a token of its own when a phone redeems it. Each way in is an :class:`Access` row, so
  revoking one locks out exactly the phones that used it, at once. An access made by a phone
  that was handed the table remembers the access it came through (``created_by``): revoking a
  hand-over revokes every way in made through it, and those made through those, at once.

Tokens and codes are stored as sha256 hashes only. Join codes are short on purpose (a person
types them), so wrong ones are rate-limited (per phone and all together: :mod:`referee.guesses`),
and a wrong code says only that it is wrong.

Every write names who made it (:func:`actor`): the role, the access used, and the phone (a
random id kept in the phone's session), so the history can say "by the owner, phone 3f9a".
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import or_, select, update

from referee import guesses
from referee.db import db
from referee.models import Access, Table, aware, utcnow

OWNER = "owner"
SCORER = "scorer"
WATCHER = "watcher"

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L: read out at a noisy table
CODE_LENGTH = 8  # 31**8: about 40 bits, with the rate limit and the expiry below
CODE_MINUTES = 30
LABEL_MAX = 40


class TooManyAttempts(Exception):
    """Too many wrong join codes lately (HTTP 429), from this phone or from every phone
    together: ``limit`` says which, for the sentence."""

    def __init__(self, limit: guesses.Limit) -> None:
        super().__init__(limit.value)
        self.limit = limit


class BadCode(Exception):
    """No such code, or it expired or was revoked (it says nothing more)."""


class SpentLink(Exception):
    """A hand-over link that another phone opened already: it gives nothing more."""


def new_token() -> str:
    """A token for the owner or a scoring link: 256 random bits, shown once."""
    return secrets.token_urlsafe(32)


def new_table_id() -> str:
    """A table's id: 128 random bits (it is what lets a watcher read the table), drawn again
    when it would start with a minus sign, which a spreadsheet opening an export takes for a
    formula (the CSV would then have to carry it with an apostrophe)."""
    while (table_id := secrets.token_urlsafe(16)).startswith("-"):
        pass
    return table_id


def hash_secret(secret: str) -> str:
    """What is stored of a token or a code: its sha256, never the secret itself."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class Grant:
    """What a token allows at a table."""

    role: str  # OWNER, SCORER or WATCHER
    access_id: int | None = None

    @property
    def can_score(self) -> bool:
        return self.role in (OWNER, SCORER)

    @property
    def is_owner(self) -> bool:
        return self.role == OWNER


WATCHING = Grant(WATCHER)


def grant(table: Table, token: str | None) -> Grant:
    """The role ``token`` gives at ``table``: owner, a scorer (through a live access), else a
    watcher. A revoked access gives nothing more than watching."""
    return held_grant(table, hash_secret(token) if token else None)


def held_grant(table: Table, hashed: str | None) -> Grant:
    """:func:`grant` for a token known by its hash only: what a phone holds (referee.keyring)."""
    if not hashed:
        return WATCHING
    if hmac.compare_digest(table.scorer_token_hash, hashed):
        return Grant(OWNER)
    row = db.session.execute(
        select(Access.id, Access.role).where(
            Access.token_hash == hashed,
            Access.table_id == table.id,
            Access.revoked_at.is_(None),
            # A hand-over link not yet opened is no credential: only open_link spends it, so
            # pasting it or sending it to the API would leave it working for one more phone.
            or_(Access.role != OWNER, Access.spent_hash.is_not(None)),
        )
    ).first()
    return Grant(row.role, row.id) if row is not None else WATCHING


def revoked(table: Table, token: str | None) -> bool:
    """Whether ``token`` came in through a way in to ``table`` that its owner revoked: the phone
    holding it is told so in words, instead of a bare refusal (it gets nothing more for it)."""
    return held_revoked(table, hash_secret(token) if token else None)


def held_revoked(table: Table, hashed: str | None) -> bool:
    """:func:`revoked` for a token known by its hash only."""
    if not hashed:
        return False
    row = db.session.execute(
        select(Access.id).where(
            Access.token_hash == hashed, Access.table_id == table.id, Access.revoked_at.is_not(None)
        )
    ).first()
    return row is not None


def _label(raw: object) -> str:
    """A label as typed, without control characters (a NUL would reach the database)."""
    return "".join(ch for ch in " ".join(str(raw or "").split()) if ch.isprintable())[:LABEL_MAX]


def create_link(table: Table, label: object = "", *, role: str = SCORER, by: int | None = None) -> tuple[Access, str]:
    """A scoring link: answers the access and its token (shown once, for the link and QR code).
    ``by`` is the access its maker came in through (None for the table's own token).

    With ``role=OWNER`` it hands the table over: the first phone that opens it gets the owner's
    controls too. That is how the owner's rights move to another phone: through an access that
    is listed and revocable like any other, never by showing the table's own token."""
    if role not in (SCORER, OWNER):
        raise ValueError(role)
    token = new_token()
    row = Access(table_id=table.id, role=role, label=_label(label), token_hash=hash_secret(token), created_by=by)
    db.session.add(row)
    db.session.commit()
    return row, token


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def spaced(code: str) -> str:
    """A code as shown and read out: two groups of four."""
    return f"{code[:4]}-{code[4:]}"


def normal_code(typed: str) -> str:
    """What a person typed, as a code: case, spaces and dashes do not matter."""
    return "".join(ch for ch in typed.upper() if ch.isalnum())[: CODE_LENGTH * 2]


def create_code(table: Table, label: object = "", *, by: int | None = None) -> tuple[Access, str]:
    """A one-time join code for a scorer, valid for CODE_MINUTES (``by``: see create_link)."""
    code = new_code()
    row = Access(
        table_id=table.id,
        role=SCORER,
        label=_label(label),
        code_hash=hash_secret(code),
        code_expires_at=utcnow() + timedelta(minutes=CODE_MINUTES),
        created_by=by,
    )
    db.session.add(row)
    db.session.commit()
    return row, code


def redeem_code(typed: str, *, client: str) -> tuple[Table, str]:
    """Turn a join code into a scorer token for the phone ``client`` (referee.phone.guesser).
    Raises :class:`TooManyAttempts` before looking at the code when too many wrong codes were
    typed lately, and :class:`BadCode` for a wrong, used, expired or revoked code. Only wrong
    codes are counted: joining is no guess."""
    limit = guesses.refused(guesses.JOIN, client)
    if limit is not None:
        raise TooManyAttempts(limit)
    code = normal_code(typed)
    row = (
        db.session.scalar(select(Access).where(Access.code_hash == hash_secret(code)))
        if len(code) == CODE_LENGTH
        else None
    )
    expires = aware(row.code_expires_at) if row is not None else None
    if row is None or row.revoked_at is not None or expires is None or expires <= utcnow():
        guesses.wrong(guesses.JOIN, client)
        db.session.commit()
        raise BadCode()
    token = new_token()
    row.token_hash, row.code_hash, row.code_expires_at = hash_secret(token), None, None
    db.session.commit()
    table = db.session.get(Table, row.table_id)
    assert table is not None
    return table, token


def redeem_link(token: str) -> Table | None:
    """The table a scoring link opens (None for an unknown or revoked link)."""
    row = db.session.scalar(select(Access).where(Access.token_hash == hash_secret(token), Access.revoked_at.is_(None)))
    return db.session.get(Table, row.table_id) if row is not None else None


def open_link(token: str, held: Mapping[str, str]) -> tuple[Table, str] | None:
    """What a link opened on a phone gives it: the table and the hash of the token the phone
    will hold (None for an unknown or revoked link). ``held`` is what the phone holds already
    (table id -> token hash, referee.keyring).

    A scoring link stays the phone's token (a QR code on the table serves every scorer). A
    hand-over link works once: the first phone gets a new token in its place, known to nobody,
    so the link in a chat, a browser history or a log opens nothing more; the same phone opening
    it again keeps what it got. A phone that is the table's owner already keeps what it holds
    and leaves the link for the phone it was meant for. Any other phone raises
    :class:`SpentLink`. Commits."""
    hashed = hash_secret(token)
    row = db.session.scalar(select(Access).where(Access.token_hash == hashed, Access.revoked_at.is_(None)))
    if row is not None and row.role != OWNER:
        return _table_of(row), hashed
    if row is not None and (mine := held.get(row.table_id)) and held_grant(_table_of(row), mine).is_owner:
        return _table_of(row), mine
    if row is not None:
        given = hash_secret(new_token())
        done = db.session.execute(
            update(Access)
            .where(Access.id == row.id, Access.token_hash == hashed)
            .values(token_hash=given, spent_hash=hashed)
        )
        db.session.commit()
        if done.rowcount == 1:  # type: ignore[attr-defined]
            return _table_of(row), given
        row = None  # another phone opened it at the same moment
    spent = db.session.scalar(select(Access).where(Access.spent_hash == hashed, Access.revoked_at.is_(None)))
    if spent is None:
        return None
    if spent.token_hash is not None and held.get(spent.table_id) == spent.token_hash:
        return _table_of(spent), spent.token_hash
    raise SpentLink()


def _table_of(row: Access) -> Table:
    table = db.session.get(Table, row.table_id)
    assert table is not None
    return table


def accesses(table: Table) -> list[Access]:
    """The table's ways in that still work (links, redeemed codes, codes not yet used)."""
    rows = db.session.scalars(
        select(Access).where(Access.table_id == table.id, Access.revoked_at.is_(None)).order_by(Access.id)
    )
    now = utcnow()
    return [r for r in rows if r.token_hash is not None or (aware(r.code_expires_at) or now) > now]


def labels(table: Table) -> dict[int, str]:
    """Each access's label ("Bia"), revoked ones included, for the history's "by ..." lines."""
    rows = db.session.execute(select(Access.id, Access.label).where(Access.table_id == table.id, Access.label != ""))
    return {row.id: row.label for row in rows}


def revoke(table: Table, access_id: int) -> bool:
    """Lock an access out at once, with every access made through it (by a phone it handed the
    table to), and through those in turn; False when there is no such live access here."""
    row = db.session.get(Access, access_id)
    if row is None or row.table_id != table.id or row.revoked_at is not None:
        return False
    doomed, frontier = {row.id}, [row.id]
    while frontier:
        made = db.session.scalars(
            select(Access.id).where(Access.created_by.in_(frontier), Access.revoked_at.is_(None))
        ).all()
        frontier = [i for i in made if i not in doomed]
        doomed.update(frontier)
    db.session.execute(update(Access).where(Access.id.in_(doomed)).values(revoked_at=utcnow()))
    db.session.commit()
    return True


def actor(grant: Grant, device: str = "", *, via: str = "") -> str:
    """The code stored with a write: ``[via/]role[:access][@device]`` (at most 60 characters).

    >>> actor(Grant(OWNER), "3f9a")
    'owner@3f9a'
    >>> actor(Grant(SCORER, 12), via="api")
    'api/scorer:12'
    """
    code = grant.role + (f":{grant.access_id}" if grant.access_id is not None else "")
    if via:
        code = f"{via}/{code}"
    if device:
        code += f"@{device}"
    return code[:60]


@dataclass(frozen=True)
class Actor:
    """A stored actor code taken apart, for the history."""

    via: str
    role: str
    access_id: int | None
    device: str


def parse_actor(code: str) -> Actor:
    """Read back :func:`actor`'s code; older codes ("scorer", "api") read as they were meant."""
    rest, _at, device = code.partition("@")
    via, _slash, who = rest.rpartition("/")
    if not who:
        who = rest
    if who == "api":  # before roles: the API with the owner's token
        return Actor(via="api", role=OWNER, access_id=None, device=device)
    role, _colon, number = who.partition(":")
    return Actor(via=via, role=role, access_id=int(number) if number.isdigit() else None, device=device)


def may_confirm(recorded_by: str, actor_code: str) -> bool:
    """Two-key entry: may the writer ``actor_code`` confirm a hand ``recorded_by`` wrote? Only
    through another access than the recorder's: another scoring link or join code, or the
    owner for a scorer's hand. Compared by the access the server granted, never by the browser
    or the route: a scorer opening his own scoring link in a fresh browser is still one person,
    and so is the owner on a page and through the API.

    >>> may_confirm("scorer:3@aa11", "scorer:3@bb22"), may_confirm("scorer:3@aa11", "owner@cc33")
    (False, True)
    >>> may_confirm("owner@aa11", "api/owner"), may_confirm("api/owner", "scorer:4@bb22")
    (False, True)
    """
    return _source(parse_actor(recorded_by)) != _source(parse_actor(actor_code))


def _source(who: Actor) -> tuple[str, int | None]:
    """The access a write came through: the owner's token, or one scoring access."""
    return who.role, who.access_id
