"""Wrong guesses at a code a person types (a table's join code, the club's code): how many are
allowed before the server stops listening for a while.

Only WRONG tries are stored and counted: a phone that joins five tables in an evening has
guessed nothing. They are counted three ways, over the last :data:`WINDOW_MINUTES`:

- **per phone** (:data:`PHONE_WRONG`): the phone's device id, kept in its session, so a phone
  that mistypes locks out only itself, never the other phones behind the club's Wi-Fi (one
  address for all of them). An API call without a session is counted by its address.
- **per code**, where the code guessed at is known (:data:`CLUB_CODE_WRONG`): the club has one
  code, and a patient guesser changing phones (dropping its cookie makes a new one) is still
  guessing at it. A wrong join code matches no code, so join codes have no count of this kind.
- **all together** (:data:`GLOBAL_WRONG`): the ceiling a guesser meets however many phones or
  addresses it uses. It is what makes the codes' lengths safe (see the README's arithmetic).

When a ceiling is reached the code is not even looked at: a right code waits like a wrong one,
or a guesser would learn from the difference. Each stored row is a :class:`JoinAttempt` whose
``client`` is ``<kind>/<hash of the phone>``; rows older than a day are deleted as new ones come.
"""

from __future__ import annotations

import enum
import hashlib
from datetime import timedelta

from flask_babel import gettext as _
from sqlalchemy import delete, func, select

from referee.db import db
from referee.models import JoinAttempt, utcnow

#: How long a wrong guess counts. Long enough to slow a guesser, short enough that a player who
#: fumbled a code can try again before the next hand.
WINDOW_MINUTES = 10
#: Wrong codes of one kind one phone may type in the window: a person mistypes a few times,
#: a script a thousand.
PHONE_WRONG = 10
#: Wrong club codes from every phone together in the window: a few managers mistyping never
#: come near it, and it caps a guesser who keeps changing phones at 14,400 tries a day.
CLUB_CODE_WRONG = 100
#: Wrong codes of every kind from every phone together in the window: a club night of forty
#: phones stays far below it; at 43,200 tries a day the codes stay out of reach (README).
GLOBAL_WRONG = 300
#: Stored attempts older than this are deleted (nothing reads them).
KEEP = timedelta(days=1)

JOIN = "join"
CLUB = "club"


class Limit(enum.Enum):
    """Which ceiling refused a guess: the phone's own (it may wait), or one every phone shares."""

    PHONE = "phone"
    SHARED = "shared"


def key(kind: str, phone: str) -> str:
    """What is stored of a guess: its kind and the phone's hash (never the phone's id itself).
    At most 64 characters, the column's size."""
    return f"{kind}/{hashlib.sha256(phone.encode()).hexdigest()[:56]}"


def _wrong_since(*conditions: object) -> int:
    since = utcnow() - timedelta(minutes=WINDOW_MINUTES)
    query = (
        select(func.count())
        .select_from(JoinAttempt)
        .where(JoinAttempt.at >= since, JoinAttempt.ok.is_(False), *conditions)
    )
    return int(db.session.scalar(query) or 0)


def refused(kind: str, phone: str) -> Limit | None:
    """The ceiling this guess would go over (None: the code may be checked). The phone's own
    count first, so a guesser hears about its own limit rather than everyone's."""
    if _wrong_since(JoinAttempt.client == key(kind, phone)) >= PHONE_WRONG:
        return Limit.PHONE
    if kind == CLUB and _wrong_since(JoinAttempt.client.startswith(f"{CLUB}/")) >= CLUB_CODE_WRONG:
        return Limit.SHARED
    if _wrong_since() >= GLOBAL_WRONG:
        return Limit.SHARED
    return None


def wrong(kind: str, phone: str) -> None:
    """Count a wrong guess (the caller commits), and forget the ones nobody counts any more."""
    db.session.add(JoinAttempt(client=key(kind, phone), ok=False))
    db.session.execute(delete(JoinAttempt).where(JoinAttempt.at < utcnow() - KEEP))


def shared_sentence() -> str:
    """What a phone refused by a ceiling every phone shares reads: it did nothing wrong itself,
    and waiting is all it can do."""
    return _("Too many wrong codes were tried lately, from several phones. Wait ten minutes and try again.")
