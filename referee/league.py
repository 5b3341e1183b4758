"""The league: seasons and standings across tables.

Standings add up seats, not hands: every write to a table copies each seat's net result, hands
played and match won onto the seat (``ledger.state.save_state``), so a season's standings are one
grouped query over its tables' seats, whatever the number of hands. The tests recompute the same
figures from the hands alone (tests/web/league_audit.py) and hold the two equal.

Tie-breaks (stated on the page): for games settled in chips or units, the higher net, then the
higher average per hand, then fewer hands, then the name; for games played to a target (Samba),
more matches won, then the higher net points, then the name; for the patience games (one player,
nothing paid), more games won, then the higher win rate, then the name; for El Gato (often played
for nothing), fewer hands lost per hand played, then more hands, then the higher net, then the name.

The patience games are counted from their hands (:func:`patience_rows`): a patience table has
one seat and its net is always 0, and the seats keep no count of games won, so their standings
read each live hand's record (``won``, and which patience it was at a Relógio table).

Pot games (Injun, Kentucky Derby, Lift Smoke) may leave chips on the table for the next deal:
their nets then sum to minus those chips (:func:`on_the_tables`), not to zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from flask import current_app
from sqlalchemy import Select, case, func, select

from referee.db import db
from referee.models import Hand, Member, Season, Seat, Table, aware, counted
from referee.rules import get_game
from referee.rules.errors import InvalidInput, RulesError
from referee.rules.patience import PATIENCES, PatienceHand, PatienceStats, statistics
from referee.rules.text import N_, Text

SEASON_NAME_MAX = 60


def local_zone() -> ZoneInfo:
    """The club's time zone: dates (seasons, evenings) are the players' dates, not UTC's."""
    return ZoneInfo(current_app.config.get("BABEL_DEFAULT_TIMEZONE") or "America/Sao_Paulo")


def day_bounds(first: date, last: date) -> tuple[datetime, datetime]:
    """From the start of ``first`` to the end of ``last`` (local days), as UTC instants."""
    zone = local_zone()
    start = datetime.combine(first, time.min, tzinfo=zone).astimezone(UTC)
    end = datetime.combine(last + timedelta(days=1), time.min, tzinfo=zone).astimezone(UTC)
    return start, end


def local_date(moment: datetime) -> date:
    return aware(moment).astimezone(local_zone()).date()


def season_tables(season: Season | None, game: str | None = None) -> Select[tuple[Table]]:
    """The tables a season holds (created between its first and last day; all tables when
    ``season`` is None), of one game or of every game."""
    query = select(Table)
    if season is not None:
        start, end = day_bounds(season.starts_on, season.ends_on)
        query = query.where(Table.created_at >= start, Table.created_at < end)
    if game is not None:
        query = query.where(Table.game == game)
    return query.order_by(Table.created_at, Table.id)


# --------------------------------------------------------------------------- seasons


def seasons() -> list[Season]:
    """Every season, the latest first."""
    return list(db.session.scalars(select(Season).order_by(Season.starts_on.desc(), Season.id.desc())))


def get_season(season_id: object) -> Season | None:
    if isinstance(season_id, bool) or not isinstance(season_id, int):
        return None
    return db.session.get(Season, season_id)


def current_season(today: date | None = None) -> Season | None:
    """The season today falls in (the latest to start, if several overlap)."""
    today = today or local_date(datetime.now(UTC))
    return db.session.scalars(
        select(Season).where(Season.starts_on <= today, Season.ends_on >= today).order_by(Season.starts_on.desc())
    ).first()


#: The days the club's dates may name. A day at the very ends of the calendar (0001-01-01,
#: 9999-12-31) cannot be turned into the instants it runs between (day_bounds overflows), and
#: no card night falls outside these years.
FIRST_DAY = date(1900, 1, 1)
LAST_DAY = date(2999, 12, 31)


def parse_day(text: str) -> date:
    """A year-month-day date from a query or an import; ValueError for an unreadable one and
    for one outside :data:`FIRST_DAY` to :data:`LAST_DAY`."""
    day = date.fromisoformat(text)
    if not in_calendar(day):
        raise ValueError(f"{day} is not between {FIRST_DAY} and {LAST_DAY}")
    return day


def in_calendar(day: date) -> bool:
    """Between :data:`FIRST_DAY` and :data:`LAST_DAY`: far enough from the ends of Python's
    calendar that turning a day or a moment into local time never overflows."""
    return FIRST_DAY <= day <= LAST_DAY


def _parse_date(raw: object, *, field: str) -> date:
    """A season's date from its form, refused with a sentence that says what to type."""
    try:
        day = raw if isinstance(raw, date) else date.fromisoformat(str(raw))
    except ValueError:
        raise InvalidInput(Text(N_("Give the dates as year-month-day, for example 2026-03-01.")), field=field) from None
    if not in_calendar(day):
        first, last = FIRST_DAY.year, LAST_DAY.year
        raise InvalidInput(
            Text(N_("Give a date between the years %(first)s and %(last)s."), first=first, last=last), field=field
        )
    return day


def save_season(season: Season | None, *, name: object, starts_on: object, ends_on: object) -> Season:
    """Create (``season`` None) or change a season; checked before anything is stored."""
    if not isinstance(name, str) or not " ".join(name.split()):
        raise InvalidInput(Text(N_("Give the season a name.")), field="name")
    title = " ".join(name.split())
    if len(title) > SEASON_NAME_MAX:
        raise InvalidInput(Text(N_("A season's name has at most %(max)s letters."), max=SEASON_NAME_MAX), field="name")
    first = _parse_date(starts_on, field="starts_on")
    last = _parse_date(ends_on, field="ends_on")
    if last < first:
        raise RulesError(Text(N_("A season cannot end before it starts.")), field="ends_on")
    season = season or Season()
    season.name, season.starts_on, season.ends_on = title, first, last
    db.session.add(season)
    db.session.commit()
    return season


# --------------------------------------------------------------------------- standings


def per_hand(net: int, hands: int) -> float:
    """The league's average: net per hand played (0 before the first hand)."""
    return net / hands if hands else 0.0


@dataclass(frozen=True)
class Row:
    """One member's line in a game's standings. ``won`` counts matches won (a game played to
    a target) or games won (a patience, where ``hands`` are the games played and ``by_patience``
    gives (patience, games, wins) for each patience he played at this game's tables)."""

    member_id: int
    name: str
    tables: int
    hands: int
    net: int
    won: int
    by_patience: tuple[tuple[str, int, int], ...] = ()
    #: Hands lost, for a game ranked by losses (El Gato's "gato"); None for the others.
    lost: int | None = None

    @property
    def average(self) -> float:
        return per_hand(self.net, self.hands)

    @property
    def loss_rate(self) -> float:
        """Hands lost per hand played (El Gato), 0 before the first."""
        return (self.lost or 0) / self.hands if self.hands else 0.0

    @property
    def win_rate(self) -> float:
        """Games won per game played (a patience), 0 before the first."""
        return self.won / self.hands if self.hands else 0.0

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "member_id": self.member_id,
            "name": self.name,
            "tables": self.tables,
            "hands": self.hands,
            "net": self.net,
            "won": self.won,
            "average": round(self.average, 3),
        }
        if self.lost is not None:
            out["lost"] = self.lost
            out["loss_rate"] = round(self.loss_rate, 4)
        if self.by_patience:
            out["win_rate"] = round(self.win_rate, 4)
            out["patiences"] = {game: {"games": games, "wins": wins} for game, games, wins in self.by_patience}
        return out


def _ordered(rows: Sequence[Row], game: str) -> list[Row]:
    """The stated tie-break order (module docstring), which the game's kind keeps."""
    return sorted(rows, key=get_game(game).kind.rank_key)


def on_the_tables(game: str, season: Season | None = None) -> int:
    """The chips a pot game's tables of the season left on the table for a next deal (pots
    nobody won, odd chips of a split): minus the sum of every seat's net. 0 for other games."""
    if not get_game(game).kind.carries_pot:
        return 0
    tables = season_tables(season, game).with_only_columns(Table.id).order_by(None).subquery()
    return -int(
        db.session.scalar(select(func.coalesce(func.sum(Seat.net), 0)).join(tables, tables.c.id == Seat.table_id)) or 0
    )


def patience_hands(query: Select[Any]) -> list[tuple[tuple[Any, ...], PatienceHand]]:
    """Each row of ``query`` — any leading columns, then the table's game and options, the
    seat's name and the hand's record, for live patience hands — as its leading columns and
    the hand its record stands for, read again by the game's own rules."""
    out = []
    for *key, game, options, seat_name, record in db.session.execute(query):
        rules = get_game(game)
        hand = rules.parse_hand(record, players=(seat_name,), options=rules.parse_options(options), dealer=seat_name)
        out.append((tuple(key), hand))
    return out


def _live() -> Any:
    """The hands the league counts: live and confirmed (models.counted)."""
    return counted()


def patience_stats(*where: Any) -> dict[str, PatienceStats]:
    """The record per patience (games, wins, win rate, the figures) over the live patience
    hands that meet ``where``: a table's (its scoreboard) or a member's (his page)."""
    query = (
        select(Table.game, Table.options, Seat.name, Hand.record)
        .join(Table, Table.id == Hand.table_id)
        .join(Seat, Seat.table_id == Hand.table_id)
        .where(_live(), *where)
    )
    return statistics(hand for _key, hand in patience_hands(query))


def table_patience(table: Table) -> dict[str, PatienceStats] | None:
    """One patience table's record so far, per patience (a Relógio table holds two), for its
    scoreboard, where chips mean nothing; None for a game that is no patience."""
    if not get_game(table.game).kind.counts_wins:
        return None
    return patience_stats(Hand.table_id == table.id)


def patience_rows(game: str, season: Season | None = None) -> list[Row]:
    """A patience game's standings from its live hands: per member, the tables played, the
    games played and won, and the same for each patience (a Relógio table holds two)."""
    tables = season_tables(season, game).with_only_columns(Table.id).order_by(None).subquery()
    query = (
        select(Seat.member_id, Hand.table_id, Table.game, Table.options, Seat.name, Hand.record)
        .join(tables, tables.c.id == Hand.table_id)
        .join(Table, Table.id == Hand.table_id)
        .join(Seat, Seat.table_id == Hand.table_id)
        .where(_live(), Seat.member_id.is_not(None))
    )
    per: dict[int, list[PatienceHand]] = {}
    played: dict[int, set[str]] = {}
    for (member_id, table_id), hand in patience_hands(query):
        per.setdefault(member_id, []).append(hand)
        played.setdefault(member_id, set()).add(table_id)
    names = (
        dict(db.session.execute(select(Member.id, Member.name).where(Member.id.in_(list(per)))).all()) if per else {}
    )
    rows = []
    for member_id, hands in per.items():
        stats = statistics(hands)
        rows.append(
            Row(
                member_id,
                names[member_id],
                len(played[member_id]),
                len(hands),
                0,
                sum(s.wins for s in stats.values()),
                tuple((p, stats[p].games, stats[p].wins) for p in PATIENCES if p in stats),
            )
        )
    return _ordered(rows, game)


def losses(game: str, season: Season | None = None) -> dict[int, int]:
    """For a game ranked by losses (El Gato): each member's hands lost over the season's live
    hands, read from the records (the seats keep no such count)."""
    rules = get_game(game)
    if not rules.kind.counts_losses:
        return {}
    tables = season_tables(season, game).with_only_columns(Table.id).order_by(None).subquery()
    query = (
        select(Seat.member_id, Seat.name, Hand.record)
        .join(tables, tables.c.id == Hand.table_id)
        .join(Seat, Seat.table_id == Hand.table_id)
        .where(_live(), Seat.member_id.is_not(None))
    )
    lost: dict[int, int] = {}
    for member_id, name, record in db.session.execute(query):
        lost[member_id] = lost.get(member_id, 0) + (rules.loser_in(record) == name)
    return lost


def _with_losses(rows: list[Row], game: str, season: Season | None) -> list[Row]:
    if not get_game(game).kind.counts_losses:
        return rows
    lost = losses(game, season)
    return [replace(row, lost=lost.get(row.member_id, 0)) for row in rows]


def standings(game: str, season: Season | None = None) -> list[Row]:
    """A game's standings over a season (or all time): one grouped query over the seats (for a
    patience, over its hands: :func:`patience_rows`)."""
    if get_game(game).kind.counts_wins:
        return patience_rows(game, season)
    tables = season_tables(season, game).with_only_columns(Table.id).order_by(None).subquery()
    query = (
        select(
            Member.id,
            Member.name,
            func.sum(case((Seat.played > 0, 1), else_=0)),
            func.sum(Seat.played),
            func.sum(Seat.net),
            func.sum(case((Seat.won, 1), else_=0)),
        )
        .join(Seat, Seat.member_id == Member.id)
        .join(tables, tables.c.id == Seat.table_id)
        .group_by(Member.id, Member.name)
        .having(func.sum(Seat.played) > 0)
    )
    rows = [Row(int(i), n, int(t), int(h), int(net), int(w)) for i, n, t, h, net, w in db.session.execute(query)]
    return _ordered(_with_losses(rows, game, season), game)
