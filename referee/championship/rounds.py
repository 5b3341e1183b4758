"""A round: the draw from a shown seed, and the round's tables.

Each table of a round is an ordinary Referee table (its hands, corrections and history as at any
table, its seats pointing at the members), created by the draw with two ways in besides the
owner's, which nobody holds: a scorer's link for the phone that records it, and a fiscal's link
for the phone that signs it off. Both are tokens derived from the app's secret key and the
access's number (an HMAC), so the manager can print the cards again at any time while only their
hashes are stored, as for every other token. The committee prints the day's cards instead
(:mod:`.cards`): one per table number and role, which lead a phone to these accesses in
whatever round is played; new cards for a number replace them (:func:`.cards.renew`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Sequence
from datetime import timedelta

from flask import current_app
from sqlalchemy import func, select

from referee import access
from referee.db import db
from referee.ledger.create import create_table
from referee.models import Access, Championship, ChampRound, Entry, RoundTable, utcnow
from referee.rules import draw as lot
from referee.rules import get_game
from referee.rules import plan as planner
from referee.rules.errors import InvalidInput, RulesError
from referee.rules.text import N_, Text

from .lock import lock
from .settings import deals_at, for_points
from .status import in_play

FISCAL = "fiscal"
SEED_MAX = 40


def current_round(championship: Championship) -> int:
    """The latest round drawn (0 before the first draw)."""
    return (
        db.session.scalar(select(func.max(ChampRound.number)).where(ChampRound.championship_id == championship.id)) or 0
    )


def round_tables(championship: Championship, number: int) -> list[RoundTable]:
    return list(
        db.session.scalars(
            select(RoundTable)
            .where(RoundTable.championship_id == championship.id, RoundTable.round == number)
            .order_by(RoundTable.number)
        )
    )


def seat_of(championship: Championship, number: int, entry: Entry) -> RoundTable | None:
    """The table ``entry`` sits at in round ``number``."""
    return next((t for t in round_tables(championship, number) if entry.id in t.entries), None)


def table_label(championship: Championship, round_number: int, table_number: int) -> str:
    """The Referee table's name: the championship, the round and the table."""
    return f"{championship.name} · R{round_number} · M{table_number}"[:120]


def card_token(access_id: int) -> str:
    """The token of a championship table's scorer or fiscal access: derived, never stored."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    digest = hmac.new(key, f"championship-access:{access_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def way_in(table_id: str, role: str, label: str) -> int:
    row = Access(table_id=table_id, role=role, label=label[:40])
    db.session.add(row)
    db.session.flush()
    row.token_hash = access.hash_secret(card_token(row.id))
    return row.id


def _clean_seed(raw: object) -> str:
    """A seed typed by the manager (a lottery number, dice), or a fresh one."""
    if raw is None or raw == "":
        return secrets.token_hex(4)
    if not isinstance(raw, str):
        raise InvalidInput(Text(N_("The seed must be text.")), field="seed")
    seed = " ".join(raw.split())
    if not seed or len(seed) > SEED_MAX or not seed.isprintable():
        raise InvalidInput(Text(N_("A seed is up to %(max)s letters or digits."), max=SEED_MAX), field="seed")
    return seed


def met_before(championship: Championship, before: int) -> tuple[set[frozenset[int]], set[int]]:
    """Who sat with whom, and who sat at a table of five, in the rounds before ``before``:
    what the draw avoids (entry numbers)."""
    numbers = dict(
        db.session.execute(select(Entry.id, Entry.number).where(Entry.championship_id == championship.id)).all()
    )
    earlier = db.session.scalars(
        select(RoundTable.entries).where(RoundTable.championship_id == championship.id, RoundTable.round < before)
    )
    tables = [[numbers[e] for e in seated] for seated in earlier]
    return lot.pairs_met(tables), {p for t in tables if len(t) == 5 for p in t}


def players_for(championship: Championship, number: int) -> list[Entry]:
    """The entries round ``number`` seats (:func:`.status.in_play`). A draw already made is
    checked against the entries it seated (:func:`redraw`): a player withdrawn since then
    was in play when it was drawn."""
    return in_play(championship, number)


def too_few(championship: Championship, count: int) -> RulesError:
    """The draw's refusal for a field that does not fill its tables, with what the committee
    can do about it on its pages."""
    if championship.table_size == 4 and 5 not in get_game(championship.game).player_counts:
        sentence = N_(
            "%(count)s players in play cannot sit at tables of four: the count must be a multiple of four. "
            "Register a late entry, bring back a player withdrawn or absent, or withdraw one (tap his name in "
            "the list of players)."
        )
    else:
        sentence = N_(
            "%(count)s players in play do not fill the tables: register a late entry, bring back a player "
            "withdrawn or absent, or withdraw one (tap his name in the list of players)."
        )
    return RulesError(Text(sentence, count=count), field="round")


def seats_five(championship: Championship) -> bool:
    """Whether the championship's game has a fifth seat (a table of four may take a fifth player)."""
    return 5 in get_game(championship.game).player_counts


def table_count(championship: Championship, players: int) -> int:
    """How many tables the draw makes for ``players`` at this championship: the one count the
    draw and the day's table cards share (:func:`referee.rules.draw.table_count`)."""
    return lot.table_count(players, size=championship.table_size, fives=seats_five(championship))


def _lot(championship: Championship, number: int, entries: Sequence[Entry], seed: str, planned: int | None) -> lot.Draw:
    """Round ``number``'s tables: the first round of a plan of ``planned`` rounds (this one and
    those left, given who already met), or, for a round drawn before the draw planned the day
    (``planned`` None), the round drawn alone as it was then."""
    met, sat_out = met_before(championship, number)
    fives = seats_five(championship)
    numbers = [e.number for e in entries]
    if planned is None:
        return lot.draw(numbers, seed=seed, fives=fives, size=championship.table_size, met=met, sat_out=sat_out)
    day = planner.plan(
        numbers, seed=seed, rounds=planned, fives=fives, size=championship.table_size, met=met, sat_out=sat_out
    )
    return day.first


def pairs_again(championship: Championship) -> dict[int, tuple[int, int]]:
    """For each round drawn: the pairs of players who meet again in it (they shared a table
    in an earlier round), and over the day up to it. What the plan and the JSON show, read
    from the tables as stored."""
    numbers = dict(
        db.session.execute(select(Entry.id, Entry.number).where(Entry.championship_id == championship.id)).all()
    )
    by_round: dict[int, list[list[int]]] = {}
    for number, seated in db.session.execute(
        select(RoundTable.round, RoundTable.entries).where(RoundTable.championship_id == championship.id)
    ):
        by_round.setdefault(number, []).append([numbers[e] for e in seated])
    met: set[frozenset[int]] = set()
    counts, so_far = {}, 0
    for number in sorted(by_round):
        again = lot.repeats(by_round[number], met)
        so_far += again
        counts[number] = (again, so_far)
        met |= lot.pairs_met(by_round[number])
    return counts


def draw_round(championship: Championship, *, seed: object = None) -> ChampRound:
    """Draw the next round and create its tables (one transaction, committed): the rounds
    left are planned together so the day seats as few pairs again as it can.

    Refused while a table of the previous round is not signed off (its players' tablemates
    are what this draw avoids, and its chips are what the ranking carries), and after the
    last round."""
    lock(championship)
    number = current_round(championship) + 1
    if number > championship.rounds:
        raise RulesError(Text(N_("All %(rounds)s rounds have been drawn."), rounds=championship.rounds), field="round")
    if number > 1:
        open_tables = [t.number for t in round_tables(championship, number - 1) if t.signed_at is None]
        if open_tables:
            raise RulesError(
                Text(
                    N_("Round %(round)s still has tables to sign off: %(tables)s."),
                    round=number - 1,
                    tables=", ".join(str(n) for n in open_tables),
                ),
                field="round",
            )
    chosen = _clean_seed(seed)
    entries = players_for(championship, number)
    planned = championship.rounds - number + 1
    try:
        result = _lot(championship, number, entries, chosen, planned)
    except InvalidInput as exc:
        if exc.field == "players":
            raise too_few(championship, len(entries)) from None
        raise
    by_number = {e.number: e for e in entries}
    ends_at = utcnow() + timedelta(minutes=championship.minutes) if championship.minutes else None
    row = ChampRound(championship_id=championship.id, number=number, seed=chosen, ends_at=ends_at, planned=planned)
    db.session.add(row)
    for index, seated in enumerate(result.tables, start=1):
        people = [by_number[n] for n in seated]
        table, _owner_token = create_table(
            game=championship.game,
            players=[e.name for e in people],
            name=table_label(championship, number, index),
            options=for_points(championship.game, championship.options),  # an old one may carry a chip value
            locale=championship.locale,
            commit=False,
        )
        table.deals = deals_at(championship, len(people))
        table.ends_at = ends_at
        db.session.flush()
        db.session.add(
            RoundTable(
                championship_id=championship.id,
                round=number,
                number=index,
                table_id=table.id,
                entries=[e.id for e in people],
                scorer_access=way_in(table.id, access.SCORER, f"M{index}"),
                fiscal_access=way_in(table.id, FISCAL, f"M{index}"),
            )
        )
    db.session.commit()
    return row


def redraw(championship: Championship, number: int) -> bool:
    """Run round ``number``'s draw again from its seed and the rounds before it: True when it
    gives the tables stored (what anyone with the same inputs can check)."""
    stored = db.session.scalar(
        select(ChampRound).where(ChampRound.championship_id == championship.id, ChampRound.number == number)
    )
    if stored is None:
        return False
    stored_tables = round_tables(championship, number)
    seated = {e for t in stored_tables for e in t.entries}
    entries = list(
        db.session.scalars(
            select(Entry).where(Entry.championship_id == championship.id, Entry.id.in_(seated)).order_by(Entry.number)
        )
    )
    numbers = {e.id: e.number for e in entries}
    again = _lot(championship, number, entries, stored.seed, stored.planned)
    tables = tuple(tuple(numbers[e] for e in t.entries) for t in stored_tables)
    return again.tables == tables


def round_table_of(table_id: str) -> RoundTable | None:
    """The championship table a Referee table is, if any (its page says where it belongs)."""
    return db.session.scalar(select(RoundTable).where(RoundTable.table_id == table_id))
