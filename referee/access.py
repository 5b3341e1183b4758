"""Who may do what at a table: the owner, scorers and watchers.

- **Watchers** need nothing but the table's id (the read-only link): it is 128 random
  bits, so knowing it is the permission to read.
- The **owner** holds the token answered when the table was created (``Table.scorer_token_hash``,
  the API's bearer token; a page never shows it again). The owner records, voids and corrects
  like a scorer, and alone can end the table, change its house rules before the first hand, turn
  two-key entry on or off, and create or revoke the ways in for scorers. He can hand the table
  over to another phone with an owner's link: an :class:`Access` of role owner, listed and
  revocable like a scorer's.
- **Scorers** come in through a scoring link (a 256-bit token in the URL, for a QR code) or a
  short **join code** the owner reads out (single use, valid for :data:`CODE_MINUTES`); a code
  becomes a token of its own when a phone redeems it. Each way in is an :class:`Access` row, so
  revoking one locks out exactly the phones that used it, at once.

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
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select

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
    if not token:
        return WATCHING
    hashed = hash_secret(token)
    if hmac.compare_digest(table.scorer_token_hash, hashed):
        return Grant(OWNER)
    row = db.session.execute(
        select(Access.id, Access.role).where(
            Access.token_hash == hashed, Access.table_id == table.id, Access.revoked_at.is_(None)
        )
    ).first()
    return Grant(row.role, row.id) if row is not None else WATCHING


def revoked(table: Table, token: str | None) -> bool:
    """Whether ``token`` came in through a way in to ``table`` that its owner revoked: the phone
    holding it is told so in words, instead of a bare refusal (it gets nothing more for it)."""
    if not token:
        return False
    row = db.session.execute(
        select(Access.id).where(
            Access.token_hash == hash_secret(token), Access.table_id == table.id, Access.revoked_at.is_not(None)
        )
    ).first()
    return row is not None


def _label(raw: object) -> str:
    """A label as typed, without control characters (a NUL would reach the database)."""
    return "".join(ch for ch in " ".join(str(raw or "").split()) if ch.isprintable())[:LABEL_MAX]


def create_link(table: Table, label: object = "", *, role: str = SCORER) -> tuple[Access, str]:
    """A scoring link: answers the access and its token (shown once, for the link and QR code).

    With ``role=OWNER`` it hands the table over: the phone that opens it gets the owner's
    controls too. That is how the owner's rights move to another phone: through an access that
    is listed and revocable like any other, never by showing the table's own token."""
    if role not in (SCORER, OWNER):
        raise ValueError(role)
    token = new_token()
    row = Access(table_id=table.id, role=role, label=_label(label), token_hash=hash_secret(token))
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


def create_code(table: Table, label: object = "") -> tuple[Access, str]:
    """A one-time join code for a scorer, valid for CODE_MINUTES."""
    code = new_code()
    row = Access(
        table_id=table.id,
        role=SCORER,
        label=_label(label),
        code_hash=hash_secret(code),
        code_expires_at=utcnow() + timedelta(minutes=CODE_MINUTES),
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
    """Lock an access out at once; False when there is no such live access at this table."""
    row = db.session.get(Access, access_id)
    if row is None or row.table_id != table.id or row.revoked_at is not None:
        return False
    row.revoked_at = utcnow()
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
