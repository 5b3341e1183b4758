"""The tables this phone holds a way in to and has seen, and what it may do at one.

Every page about a table asks the same few questions of this phone: which tables it holds (the
keys kept on the server, :mod:`referee.keyring`), which it has seen, whether it may score or
owns the table, who is writing, and which hand it may still undo. Every view that shows or
changes a table imports them from here, a helper module of the views that holds no page of its
own, rather than from the table page's module.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from flask import abort, g, session

from referee import access, club, keyring, ledger, phone
from referee.club_scope import HOME_CLUB, current_club_id
from referee.errorpages import Revoked
from referee.models import Hand, Table
from referee.phone import device

PENDING_WINDOW = 30  # two-key entry: hands this recent can still be waiting for a confirmation
#: Where older versions kept the phone's tokens in clear, and which of its tables it owned:
#: moved to the server on the phone's next request (:func:`adopt_old_tokens`).
TOKENS = "scorer_tokens"
OWNED = "owned_tables"


def load(table_id: str) -> Table:
    try:
        return ledger.get_table(table_id)
    except ledger.NotFound:
        abort(404)


#: How many tables a phone remembers having seen: the session cookie must stay far below the
#: 4 KB browsers accept. The tables it holds a way in to are kept on the server (as many).
REMEMBERED = keyring.REMEMBERED
SEEN = "seen_tables"
UNDO = "undo"
ORDER = "table_order"


def _remember_seen(table_id: str) -> None:
    """Keep the table among those seen, for at most REMEMBERED tables: the least recently seen
    are forgotten first. Recency is a list of its own (``ORDER``): the session comes back from
    its cookie with its keys sorted, so a dict keeps no order."""
    entries = dict(session.get(SEEN, {}))
    entries[table_id] = 1
    order = [t for t in session.get(ORDER, []) if t != table_id and t in entries] + [table_id]
    for forgotten in order[: max(0, len(order) - REMEMBERED)]:
        entries.pop(forgotten, None)
    session[SEEN] = entries
    session[ORDER] = [t for t in order if t in entries]
    session.permanent = True


def held() -> dict[str, str]:
    """What this phone holds (table id -> token hash, referee.keyring), read once per request."""
    if "held" not in g:
        g.held = keyring.held(phone.key_hash())
    found: dict[str, str] = g.held
    return found


def remember_token(table: Table, token: str) -> None:
    """Score at ``table`` with ``token`` on this phone from now on (:func:`remember_hash`)."""
    remember_hash(table, access.hash_secret(token))


def remember_hash(table: Table, hashed: str) -> None:
    """Score at ``table`` with the token of hash ``hashed`` on this phone from now on.

    The owner's token is nowhere to be seen again once forgotten, and a table without it has
    nobody to revoke a leaked link or to close it. So a phone never trades the owner's controls
    for a weaker way in (the owner opening his own scoring link or join code to try it), nor the
    table's own token for any other, and the tables it owns are the last it forgets."""
    before = held().get(table.id)
    grant = access.held_grant(table, hashed)
    if before and before != hashed and (before == table.scorer_token_hash or not grant.is_owner):
        if access.held_grant(table, before).is_owner:
            return
    key_hash = _new_key()
    keyring.hold(key_hash, table.id, hashed, owned=grant.is_owner)
    g.pop("held", None)
    g.get("grants", {}).pop(table.id, None)  # grant_of asks again


def _new_key() -> str:
    """Give the phone a new key, holding what its old one held, and answer its hash: a cookie
    planted on the phone beforehand (or read off the air) then holds nothing the phone gains.

    The old key's rows stay until the phone comes back with the new key (a response lost on a
    club's Wi-Fi must not leave it holding nothing); a key made earlier in this same request never
    reached the phone, so its rows just move."""
    old_hash = phone.key_hash()
    phone.new_key()
    key_hash = phone.key_hash()
    assert key_hash is not None
    if old_hash:
        keyring.copy(old_hash, key_hash)
        if phone.replaced_name() in session:
            keyring.forget(old_hash)
        else:
            session[phone.replaced_name()] = old_hash
    return key_hash


def forget_replaced_key() -> None:
    """The phone came back with its new key: what its old key held goes."""
    replaced = session.pop(phone.replaced_name(), None)
    if isinstance(replaced, str) and replaced != phone.key_hash():
        keyring.forget(replaced)


def adopt_old_tokens() -> None:
    """A phone whose cookie still carries tokens in clear (an older version kept them there)
    keeps its rights: its tokens move to the server under its new key, least recently used
    first, and leave the cookie."""
    old = session.get(TOKENS)
    if old is None or current_club_id() != HOME_CLUB:  # those tokens were the first club's
        return
    session.pop(TOKENS)
    session.pop(OWNED, None)
    order = [t for t in session.get(ORDER, []) if isinstance(t, str)]
    rank = {t: i for i, t in enumerate(order)}
    tokens = (
        [(t, v) for t, v in old.items() if isinstance(t, str) and isinstance(v, str)] if isinstance(old, dict) else []
    )
    for table_id, token in sorted(tokens, key=lambda pair: rank.get(pair[0], -1)):
        try:
            table = ledger.get_table(table_id)
        except ledger.NotFound:
            continue
        remember_token(table, token)
    session[ORDER] = [t for t in order if t in session.get(SEEN, {})]


def remember_seen(table: Table) -> None:
    """The home page lists the tables this phone knows; nobody else's (the id is the secret)."""
    if table.id not in session.get(SEEN, {}):
        _remember_seen(table.id)


def known_tables() -> list[str]:
    return list(dict.fromkeys([*held(), *session.get(SEEN, {})]))


def shown_tables(ids: Iterable[str]) -> set[str]:
    """Of ``ids``, the tables a page may name by id (link to) on this phone: every one for a
    phone with the club's code, else those the phone knows. A table's id is the permission to
    read it, Pix keys included, so no page hands out the id of a table nobody gave this phone."""
    wanted = set(ids)
    return wanted if club.is_manager() else wanted.intersection(known_tables())


def offer_undo(table: Table, number: int) -> None:
    """Offer "undo" for the hand just recorded on this phone (not for a correction)."""
    session[UNDO] = {"table": table.id, "number": number}


def undoable(table: Table, next_number: int, loaded: Mapping[int, Hand] | None = None) -> int | None:
    """The hand this phone may still undo: its own last hand, if it is still the latest
    (``loaded``: hands the caller read already, with their events, by number)."""
    offer = session.get(UNDO) or {}
    if offer.get("table") == table.id and not offer.get("undone") and offer.get("number") == next_number - 1:
        hand = (loaded or {}).get(offer["number"]) or ledger.get_hand(table, offer["number"])
        if hand is not None and not hand.is_void and not ledger.agreed(table, hand):
            return hand.number
    return None


def redoable(table: Table, next_number: int) -> int | None:
    """The hand this phone just undid, while it can still come back: nothing recorded since."""
    offer = session.get(UNDO) or {}
    if offer.get("table") == table.id and offer.get("undone") and offer.get("number") == next_number - 1:
        hand = ledger.get_hand(table, offer["number"])
        if hand is not None and hand.is_void:
            return hand.number
    return None


def grant_of(table: Table) -> access.Grant:
    """What this phone may do at the table (what it holds there, checked once per request)."""
    cache = g.setdefault("grants", {})
    if table.id not in cache:
        cache[table.id] = access.held_grant(table, held().get(table.id))
    grant: access.Grant = cache[table.id]
    return grant


def can_score(table: Table) -> bool:
    return grant_of(table).can_score


def is_owner(table: Table) -> bool:
    return grant_of(table).is_owner


def require_scorer(table: Table) -> None:
    if not can_score(table):
        refuse_revoked(table)
        abort(401)


def refuse_revoked(table: Table) -> None:
    """A phone whose access the owner revoked is told so (403, referee.errorpages.Revoked), on
    the table page and on every write, instead of meeting a bare refusal."""
    if access.held_revoked(table, held().get(table.id)):
        raise Revoked(table.id)


def require_owner(table: Table) -> None:
    if not is_owner(table):
        abort(403)


def actor_code(table: Table) -> str:
    """Who is writing, as stored with the write: role, access and phone."""
    return access.actor(grant_of(table), device())
