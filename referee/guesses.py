"""Wrong guesses at a code a person types (a table's join code, the club's code): how many are
allowed before the server stops listening for a while.

Only WRONG tries are stored and counted: a phone that joins five tables in an evening has
guessed nothing. They are counted over the last :data:`WINDOW_MINUTES`, four ways:

- **per phone** (:data:`PHONE_WRONG`): the phone's device id, kept in its session, so a phone
  that mistypes locks out only itself, never the other phones behind the club's Wi-Fi. An API
  call without a session is counted by its address.
- **per network** (:data:`NETWORK_WRONG`): the client's address (an IPv6 client by its /64
  prefix, the block one home or one phone gets; and all the /64s of a /48 together,
  :data:`SITE_WRONG`, since a home gets 256 of them). A script dropping its cookie gets a new
  device id with every guess, but not a new address: this is the ceiling it meets. The club's
  phones behind one Wi-Fi share an address, so it stays far above what a club night mistypes.
  A script flooding from that same Wi-Fi would lock that Wi-Fi out, so a phone whose session
  is older than the network's first wrong guess of the window (the session is signed: its
  birth time, referee.phone.born, can be trusted) does not answer for its network: it meets
  only the ceiling its network's known phones share (:data:`KNOWN_WRONG`), which a script that
  made sessions ahead of time reaches alone.
- **all together, softly** (:data:`SHARED_WRONG`): past it, a network that itself guessed
  wrong :data:`QUIET_WRONG` times lately is refused, while a network that did not (the phone
  at home typing the right code) still has its code checked. A flood from a few networks
  therefore never locks out the others.
- **all together, hard** (:data:`GLOBAL_WRONG`, and :data:`CLUB_CODE_WRONG` for the club's
  code): what bounds a flood from many networks, each spending its quiet quota. Reaching it
  takes hundreds of networks; then every code waits, which is the price of keeping the codes
  out of reach (the README gives the arithmetic, tests/web/test_guesses.py checks it).

When a ceiling is reached the code is not even looked at: a right code waits like a wrong one,
or a guesser would learn from the difference. Each stored row is a :class:`JoinAttempt` whose
``client`` is ``<kind>/<hash of the phone>`` (ending in :data:`KNOWN_MARK` for a known
phone) and ``network`` the network's prefix; rows older
than a day are deleted as new ones come.
"""

from __future__ import annotations

import enum
import hashlib
import ipaddress
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from flask import g, has_request_context, request
from flask_babel import gettext as _
from sqlalchemy import case, delete, func, select

from referee import phone as phone_module
from referee.db import db
from referee.models import JoinAttempt, aware, utcnow

#: How long a wrong guess counts. Long enough to slow a guesser, short enough that a player who
#: fumbled a code can try again before the next hand.
WINDOW_MINUTES = 10
#: Wrong codes of one kind one phone may type in the window: a person mistypes a few times,
#: a script a thousand.
PHONE_WRONG = 10
#: Wrong codes of every kind from one network in the window: forty phones behind a club's
#: Wi-Fi mistyping twice each stay below it; a script from one address gets 600 an hour.
NETWORK_WRONG = 100
#: Wrong codes from every network together in the window past which only quiet networks (see
#: :data:`QUIET_WRONG`) are still heard.
SHARED_WRONG = 300
#: A network with fewer wrong codes than this in the window is quiet: it is still heard past
#: :data:`SHARED_WRONG`, so a flood from elsewhere does not lock it out.
QUIET_WRONG = 5
#: Wrong club codes from every network together in the window: past it nobody is heard on the
#: club's code (a year of it is one chance in 24,000 of finding the code).
CLUB_CODE_WRONG = 800
#: Wrong codes of every kind from every network together in the window: past it nobody is heard.
GLOBAL_WRONG = 2000
#: Stored attempts older than this are deleted (nothing reads them).
KEEP = timedelta(days=1)
#: The prefix an IPv6 client is counted by: one home, one phone on a mobile network.
IPV6_PREFIX = 64
#: The wider prefix IPv6 clients are also counted by, together: a home is handed a /56 (256
#: networks of /64), a company a /48, so one of them could otherwise be hundreds of networks.
SITE_PREFIX = 48
#: Wrong codes of every kind from one /48 together in the window: two networks' worth.
SITE_WRONG = 200
#: Wrong codes of every kind from one network's known phones together in the window (a phone
#: known from before its network started guessing wrong, see :func:`refused`): what bounds a
#: script that made its sessions ahead of time, far above forty phones mistyping twice each.
KNOWN_WRONG = 100
#: What ends the stored ``client`` of a wrong code typed by a known phone.
KNOWN_MARK = "~"

JOIN = "join"
CLUB = "club"


class Limit(enum.Enum):
    """Which ceiling refused a guess: the phone's own (it may wait), or one it shares with
    others (its network's, or everyone's)."""

    PHONE = "phone"
    SHARED = "shared"


def key(kind: str, phone: str) -> str:
    """What is stored of a guess: its kind and the phone's hash (never the phone's id itself).
    At most 64 characters, the column's size."""
    return f"{kind}/{hashlib.sha256(phone.encode()).hexdigest()[:56]}"


def network(address: str | None) -> str:
    """The network a client's address is counted by: an IPv4 address itself (an IPv4-mapped
    IPv6 one too), an IPv6 address by its /64 prefix, since one home or one phone is handed a
    whole /64 and could take a new address in it for every guess. The prefix is written in full
    (``2001:0db8:0001:0002::/64``) so that the /64s of one /48 begin alike (:func:`site`). What
    is not an address (a test client, a Unix socket) counts as one network, ``?``."""
    try:
        parsed = ipaddress.ip_address((address or "").split("%", 1)[0])
    except ValueError:
        return "?"
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        prefix = ipaddress.IPv6Network((parsed, IPV6_PREFIX), strict=False).network_address
        return ":".join(prefix.exploded.split(":")[: IPV6_PREFIX // 16]) + f"::/{IPV6_PREFIX}"
    return str(parsed)


def site(net: str) -> str | None:
    """What every /64 of the same /48 as ``net`` begins with (``2001:0db8:0001:``); None for an
    IPv4 network, which is one address."""
    if not net.endswith(f"::/{IPV6_PREFIX}"):
        return None
    return ":".join(net.split(":")[: SITE_PREFIX // 16]) + ":"


def client_network() -> str:
    """The network of the request being answered (request.remote_addr: behind the club's proxy
    ProxyFix puts the client's address there; a forwarded header is never read here)."""
    return network(request.remote_addr if has_request_context() else None)


class _Counts(NamedTuple):
    mine: int  # this phone's, of this kind
    network: int  # its network's
    known: int  # its network's known phones'
    site: int  # its /48's (an IPv6 client), else its network's
    first: datetime | None  # the first of its network's (or /48's) in the window
    club_codes: int  # everyone's on the club code
    everyone: int


def _counts(kind: str, phone: str, net: str) -> _Counts:
    """Wrong guesses in the window, in one query."""
    since = utcnow() - timedelta(minutes=WINDOW_MINUTES)
    prefix = site(net)
    near = JoinAttempt.network.startswith(prefix, autoescape=True) if prefix else JoinAttempt.network == net

    def where(condition: Any) -> Any:
        return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)

    mine = key(kind, phone)
    row = db.session.execute(
        select(
            where(JoinAttempt.client.in_([mine, mine + KNOWN_MARK])),
            where(JoinAttempt.network == net),
            where((JoinAttempt.network == net) & JoinAttempt.client.endswith(KNOWN_MARK)),
            where(near),
            func.min(case((near, JoinAttempt.at), else_=None)),
            where(JoinAttempt.client.startswith(f"{CLUB}/")),
            func.count(),
        ).where(JoinAttempt.at >= since, JoinAttempt.ok.is_(False))
    ).one()
    first = row[4]
    if isinstance(first, str):  # SQLite gives a computed time back as text
        first = datetime.fromisoformat(first)
    counts = [int(n) for n in row[:4]] + [aware(first) if first else None] + [int(n) for n in row[5:]]
    return _Counts(*counts)


def _known_before(first: datetime | None) -> bool:
    """This phone's session was made before its network (or /48) typed its first wrong code of
    the window: a phone of the club, not the script flooding from its Wi-Fi with a new cookie
    for every guess. Such a phone is judged by its own count, never its network's."""
    born = phone_module.born() if has_request_context() else None
    return first is not None and born is not None and born < first


def refused(kind: str, phone: str) -> Limit | None:
    """The ceiling this guess would go over (None: the code may be checked). The phone's own
    count first, so a guesser hears about its own limit rather than everyone's; everyone's
    ceilings next, which nobody escapes; its network's last. A phone known from before its
    network started guessing wrong does not answer for its network: it meets only the ceiling
    its network's known phones share (:data:`KNOWN_WRONG`). Whether it was known is kept for
    :func:`wrong`, which marks its guess so."""
    counts = _counts(kind, phone, client_network())
    known = phone.startswith("device:") and _known_before(counts.first)
    g.guesser_known = known
    if counts.mine >= PHONE_WRONG:
        return Limit.PHONE
    if counts.everyone >= GLOBAL_WRONG or (kind == CLUB and counts.club_codes >= CLUB_CODE_WRONG):
        return Limit.SHARED
    if known:
        return Limit.SHARED if counts.known >= KNOWN_WRONG else None
    if counts.network >= NETWORK_WRONG or counts.site >= SITE_WRONG:
        return Limit.SHARED
    if counts.everyone >= SHARED_WRONG and counts.network >= QUIET_WRONG:
        return Limit.SHARED
    return None


def wrong(kind: str, phone: str) -> None:
    """Count a wrong guess (the caller commits), and forget the ones nobody counts any more."""
    mark = KNOWN_MARK if has_request_context() and g.get("guesser_known") else ""
    db.session.add(JoinAttempt(client=key(kind, phone) + mark, network=client_network(), ok=False))
    db.session.execute(delete(JoinAttempt).where(JoinAttempt.at < utcnow() - KEEP))


def shared_sentence() -> str:
    """What a phone refused by a ceiling it shares reads: it did nothing wrong itself, and
    waiting is all it can do."""
    return _("Too many wrong codes were tried lately, from several phones. Wait ten minutes and try again.")
