"""The table cards of the day: one scorer's card and one fiscal's card per table NUMBER, printed
once and valid for whatever round is played at that number.

Why not per round: each round's tables are new Referee tables with new ways in, so cards tied
to them had to be printed again every round (26 A4 pages a round at 75 tables). A number stays
put in the hall; the card stays on it.

How a card works:

- Its token is derived, never stored: an HMAC of the app's secret key and what names the card
  (the championship, the number, the role, and the number's *generation*). Only the generation
  is stored (:class:`~referee.models.ChampCard`; no row means generation 1), so the manager can
  print the set again at any time, and "new cards" for one number moves its generation on: the
  old card's link then answers that it was replaced (older generations are recognised, not
  merely unknown).
- Each round's table keeps its own scorer's and fiscal's :class:`~referee.models.Access`, made
  by the draw (:mod:`.rounds`), whose tokens only the server computes. Opening a card gives the
  phone the access of that role at the number's table *of the current round*, exactly what the
  per-round card gave: the scorer records hands or counts and cannot sign, the fiscal signs and
  cannot record. A number without a table in the current round answers so in a sentence.
- A phone that opened the card remembers which card it opened (the championship, the number,
  the role and the generation, in its signed session: no token) and follows it to the next
  round from the old table's page ("this number now", referee.views.championship_cards): the
  same as scanning the card again, which it could. A replaced card's generation is no longer
  the number's, so its phone follows nothing; and new cards revoke that number's accesses in
  every round, so it loses the table it held too.
- A phone that held a grant to an older round's table by any other way (a round's own card,
  printed for a scoring app) keeps only what it had there: that table is closed by its
  signature (no hand, count or signature after it), and the next round's table is reached only
  through the day's card.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from flask import current_app
from sqlalchemy import func, select, update

from referee import access
from referee.db import db
from referee.models import Access, ChampCard, Championship, Entry, RoundTable, utcnow
from referee.rules.errors import RulesError
from referee.rules.text import N_, Text

from . import history
from .lock import lock
from .rounds import FISCAL, current_round, round_tables, table_count, way_in

SCORER = access.SCORER
ROLES = (SCORER, FISCAL)


class Replaced(RulesError):
    """A card of an older generation: new cards were printed for its number."""


def generation(championship: Championship, number: int) -> int:
    """The number's current card generation (1 until its first "new cards")."""
    found = db.session.scalar(
        select(ChampCard.generation).where(ChampCard.championship_id == championship.id, ChampCard.number == number)
    )
    return found or 1


def token(championship_id: str, number: int, role: str, gen: int) -> str:
    """A day card's token: derived from the secret key and the card's name, never stored."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    name = f"championship-card:{championship_id}:{number}:{role}:{gen}"
    digest = hmac.new(key, name.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def role_of(championship: Championship, number: int, typed: str) -> str:
    """The role the card ``typed`` gives at ``number``, or a refusal: :class:`Replaced` for an
    older generation's card, :class:`RulesError` for a token that is no card at all."""
    gen = generation(championship, number)
    for role in ROLES:
        if hmac.compare_digest(token(championship.id, number, role, gen), typed):
            return role
    for older in range(gen - 1, 0, -1):
        if any(hmac.compare_digest(token(championship.id, number, role, older), typed) for role in ROLES):
            raise Replaced(
                Text(N_("This card was replaced by new cards for table %(table)s: ask the committee."), table=number)
            )
    raise RulesError(Text(N_("This table card does not work: it is not complete.")))


def table_now(championship: Championship, number: int) -> RoundTable:
    """The table played at ``number`` in the current round, or a sentence saying there is none."""
    current = current_round(championship)
    if not current:
        raise RulesError(Text(N_("No round has been drawn yet: this card works once round 1 is drawn.")))
    found = next((t for t in round_tables(championship, current) if t.number == number), None)
    if found is None:
        raise RulesError(
            Text(
                N_("Round %(round)s has no table %(table)s: look for your table on the plan."),
                round=current,
                table=number,
            )
        )
    return found


def access_of(row: RoundTable, role: str) -> int:
    access_id = row.fiscal_access if role == FISCAL else row.scorer_access
    assert access_id is not None
    return access_id


def numbers(championship: Championship) -> int:
    """How many table numbers the day's set covers: the most tables any round had, or the
    registered players would fill now (the set is printed before round 1)."""
    drawn = db.session.scalar(select(func.max(RoundTable.number)).where(RoundTable.championship_id == championship.id))
    players = db.session.scalar(select(func.count()).where(Entry.championship_id == championship.id)) or 0
    return max(drawn or 0, table_count(championship, players))


def renew(championship: Championship, number: int, *, actor: str) -> int:
    """New cards for one number (committed): its generation moves on, the scorer's and fiscal's
    accesses of every round's table at that number are revoked (a phone that used the old card
    follows nothing), and the current round's table there gets new ones for the new cards.
    Answers the new generation."""
    lock(championship)
    if number < 1 or number > max(numbers(championship), 1):
        db.session.rollback()
        raise RulesError(Text(N_("There is no table %(table)s in this championship."), table=number))
    row = db.session.scalar(
        select(ChampCard).where(ChampCard.championship_id == championship.id, ChampCard.number == number)
    )
    if row is None:
        row = ChampCard(championship_id=championship.id, number=number, generation=1)
        db.session.add(row)
    row.generation += 1
    tables = list(
        db.session.scalars(
            select(RoundTable).where(RoundTable.championship_id == championship.id, RoundTable.number == number)
        )
    )
    doomed = [a for t in tables for a in (t.scorer_access, t.fiscal_access) if a is not None]
    if doomed:
        db.session.execute(
            update(Access).where(Access.id.in_(doomed), Access.revoked_at.is_(None)).values(revoked_at=utcnow())
        )
    current = current_round(championship)
    for table in tables:
        if table.round == current:
            table.scorer_access = way_in(table.table_id, SCORER, f"M{number}")
            table.fiscal_access = way_in(table.table_id, FISCAL, f"M{number}")
    history.record(championship, "cards_renewed", actor=actor, table=number, generation=row.generation)
    db.session.commit()
    return row.generation
