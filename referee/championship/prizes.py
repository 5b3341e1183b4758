"""The prizes of the day: the prize table the committee sets, the quartets of the team prize,
and who wins what as the ranking stands, with the Pix code to pay each winner.

The prize table is written as a committee writes it on paper, one line a place: an amount
("R$ 500", "1.500,00"), a description ("troféu"), or both ("300 + troféu"). Amounts are kept in
centavos, so a prize shared never loses or makes up a centavo.

How ties go, stated once here and on the page:

- Places: the ranking's tie-breaks decide first. Players still level share the places they
  cover: two level in 3rd take the 3rd and 4th prizes together, split equally (:func:`split`).
- The round prize goes to the round's star (the best points among the tables of that round
  signed off, :func:`referee.championship.ranking.rank`); level players share it equally.
- Teams rank by the sum of their members' points; level teams share the places they cover, as
  players do. A team's money is split among its members equally.
- Every split gives equal shares and the centavos left over, one each, to the first by card
  number.
- A disqualified player wins nothing: he is left out of the places (the next player moves up),
  of the round prize and of his team's points and shares (:func:`excluded`).

A prize is provisional while a table it depends on is not signed off: the places and the teams
until the last table of the last round is, a round's prize until every table of that round is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Final

from sqlalchemy import func, select

from referee.championship import history
from referee.championship.lock import lock
from referee.championship.ranking import Board, Standing, visible_standings
from referee.db import db
from referee.members import name_key
from referee.models import Championship, ChampRound, ChampTeam, Entry, Member, RoundTable
from referee.rules.errors import InvalidInput, RulesError
from referee.rules.text import N_, Text

#: At most this many places (and team places) carry a prize; a national day pays 20.
MAX_PLACES: Final = 50
#: The largest single prize, in centavos (R$ 1,000,000.00).
MAX_CENTS: Final = 100_000_000
#: A prize's description, at most.
TEXT_MAX: Final = 60
TEAM_SIZE: Final = 4
TEAM_NAME_MAX: Final = 40

# "R$ 1.500,00 + troféu": an optional R$, an amount (groups of three digits after a dot or a comma
# are thousands, two digits after either are centavos: "1.500,00" and "1,500.00" alike), then an
# optional description after a "+".
_AMOUNT = re.compile(
    r"(?:R\$\s*)?(?P<whole>\d{1,3}(?:[.,]\d{3})+|\d{1,9})(?:[,.](?P<cents>\d{1,2}))?(?!\d)\s*(?:\+\s*(?P<rest>.+))?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Prize:
    """One place's prize: an amount in centavos (0: none) and a description."""

    cents: int = 0
    text: str = ""

    def json(self) -> dict[str, Any]:
        return {"cents": self.cents, "text": self.text}


@dataclass(frozen=True)
class Table:
    """The championship's prize table."""

    places: tuple[Prize, ...] = ()
    round: int = 0  # each round's prize, in centavos (0: none)
    teams: tuple[Prize, ...] = ()


def split(cents: int, count: int) -> list[int]:
    """``cents`` in ``count`` shares: equal, and the centavos left over one each to the first.

    >>> split(10001, 3)
    [3334, 3334, 3333]
    """
    if count <= 0:
        return []
    share, left = divmod(cents, count)
    return [share + (1 if i < left else 0) for i in range(count)]


def _cents(found: re.Match[str]) -> int:
    """The amount an :data:`_AMOUNT` match holds, in centavos."""
    return int(re.sub(r"\D", "", found["whole"])) * 100 + int((found["cents"] or "0").ljust(2, "0"))


def parse_line(raw: str, place: int) -> Prize:
    """One line of the prize table, or RulesError naming the place."""
    text = " ".join(raw.split())
    found = _AMOUNT.fullmatch(text)
    if found is None:
        if len(text) > TEXT_MAX:
            raise InvalidInput(
                Text(
                    N_("The prize of place %(place)s is too long: %(max)s characters at most."),
                    place=place,
                    max=TEXT_MAX,
                ),
                field="places",
            )
        return Prize(0, text)
    cents = _cents(found)
    if not 0 < cents <= MAX_CENTS:
        raise InvalidInput(
            Text(N_("The prize of place %(place)s must be more than zero and at most R$ 1.000.000."), place=place),
            field="places",
        )
    rest = (found["rest"] or "").strip()
    if len(rest) > TEXT_MAX:
        raise InvalidInput(
            Text(
                N_("The prize of place %(place)s is too long: %(max)s characters at most."), place=place, max=TEXT_MAX
            ),
            field="places",
        )
    return Prize(cents, rest)


def parse_lines(raw: object, *, field_name: str) -> tuple[Prize, ...]:
    """A list of places typed one a line (blank lines skipped)."""
    lines = [line for line in (raw if isinstance(raw, str) else "").splitlines() if line.strip()]
    if len(lines) > MAX_PLACES:
        raise InvalidInput(Text(N_("At most %(max)s places carry a prize."), max=MAX_PLACES), field=field_name)
    return tuple(parse_line(line, i) for i, line in enumerate(lines, 1))


def parse_amount(raw: object) -> int:
    """The round prize: empty for none, or an amount."""
    text = raw.strip() if isinstance(raw, str) else ""
    if not text:
        return 0
    found = _AMOUNT.fullmatch(" ".join(text.split()))
    if found is None or found["rest"]:
        raise InvalidInput(Text(N_("The round prize is an amount, such as 100 or 100,00.")), field="round")
    cents = _cents(found)
    if cents > MAX_CENTS:
        raise InvalidInput(Text(N_("The round prize is at most R$ 1.000.000.")), field="round")
    return cents


def table_of(championship: Championship) -> Table:
    """The prize table stored on the championship (none set: an empty one)."""
    stored = championship.prizes or {}

    def prizes(key: str) -> tuple[Prize, ...]:
        return tuple(Prize(int(p.get("cents", 0)), str(p.get("text", ""))) for p in stored.get(key) or [])

    return Table(places=prizes("places"), round=int(stored.get("round") or 0), teams=prizes("teams"))


def checked(raw: object) -> dict[str, Any] | None:
    """A stored prize table (a backup's) in its stored shape, or None when it is not one:
    ``places`` and ``teams`` lists of {cents, text} within the form's limits, ``round`` cents."""
    if not isinstance(raw, dict) or set(raw) - {"places", "round", "teams"}:
        return None

    def prize(item: object) -> dict[str, Any] | None:
        if not isinstance(item, dict) or set(item) != {"cents", "text"}:
            return None
        cents, text = item["cents"], item["text"]
        if isinstance(cents, bool) or not isinstance(cents, int) or not 0 <= cents <= MAX_CENTS:
            return None
        if not isinstance(text, str) or len(text) > TEXT_MAX or not (cents or text):
            return None
        return {"cents": cents, "text": text}

    out: dict[str, Any] = {}
    for key in ("places", "teams"):
        items = raw.get(key, [])
        if not isinstance(items, list) or len(items) > MAX_PLACES:
            return None
        out[key] = [prize(item) for item in items]
        if None in out[key]:
            return None
    cents = raw.get("round", 0)
    if isinstance(cents, bool) or not isinstance(cents, int) or not 0 <= cents <= MAX_CENTS:
        return None
    out["round"] = cents
    return out


def reais(cents: int) -> str:
    """An amount as the prize table is typed and the history keeps it, whatever the reader's
    language: "R$ 1.500,00" (it reads back as the same amount).

    >>> reais(150050)
    'R$ 1.500,50'
    """
    return f"R$ {cents // 100:,}".replace(",", ".") + f",{cents % 100:02d}"


def as_lines(prizes: Sequence[Prize]) -> str:
    """The places as the form shows them again, one a line."""
    return "\n".join(" + ".join(filter(None, (reais(p.cents) if p.cents else "", p.text))) for p in prizes)


def set_table(championship: Championship, *, places: object, round_prize: object, teams: object, actor: str) -> Table:
    """Check the whole prize table, then store it (committed) with its line in the day's history."""
    chosen = Table(
        places=parse_lines(places, field_name="places"),
        round=parse_amount(round_prize),
        teams=parse_lines(teams, field_name="teams"),
    )
    lock(championship)
    championship.prizes = {
        "places": [p.json() for p in chosen.places],
        "round": chosen.round,
        "teams": [p.json() for p in chosen.teams],
    }
    history.record(
        championship,
        "prizes_set",
        actor=actor,
        places=len(chosen.places),
        total=reais(sum(p.cents for p in chosen.places)),
    )
    db.session.commit()
    return chosen


def set_sealed(championship: Championship, sealed: bool, *, actor: str) -> None:
    """Seal the round, or stop sealing it (committed, with its line in the day's history)."""
    lock(championship)
    if championship.sealed == sealed:
        db.session.rollback()
        return
    championship.sealed = sealed
    history.record(championship, "round_sealed" if sealed else "round_unsealed", actor=actor)
    db.session.commit()


# --------------------------------------------------------------------------- teams


def teams(championship: Championship) -> list[ChampTeam]:
    return list(
        db.session.scalars(select(ChampTeam).where(ChampTeam.championship_id == championship.id).order_by(ChampTeam.id))
    )


def _team_form(name: object, numbers: Sequence[object]) -> tuple[str, list[int]]:
    """The team's name and its four card numbers (in order) as typed, or InvalidInput."""
    title = " ".join(name.split()) if isinstance(name, str) else ""
    if not title or len(title) > TEAM_NAME_MAX:
        raise InvalidInput(
            Text(N_("Give the team a name of up to %(max)s characters."), max=TEAM_NAME_MAX), field="team_name"
        )
    typed = [str(n).strip() for n in numbers if str(n or "").strip()]
    if len(typed) != TEAM_SIZE or not all(t.isascii() and t.isdigit() and len(t) <= 6 for t in typed):
        raise InvalidInput(Text(N_("A team is four players: type their four card numbers.")), field="team_numbers")
    wanted = sorted(int(t) for t in typed)
    if len(set(wanted)) != TEAM_SIZE:
        raise InvalidInput(Text(N_("A team is four different players.")), field="team_numbers")
    return title, wanted


def _team_refusal(
    championship: Championship, title: str, found: dict[int, Entry], wanted: list[int]
) -> RulesError | None:
    """Why these players cannot form this team now: a number nobody has, a disqualified player
    (his points no longer count, so the team would be three players' points), a name taken, a
    player already in a team."""
    missing = [n for n in wanted if n not in found]
    if missing:
        return InvalidInput(Text(N_("No player has the number %(number)s."), number=missing[0]), field="team_numbers")
    out = [found[n] for n in wanted if found[n].status == "disqualified"]
    if out:
        return RulesError(
            Text(
                N_("%(name)s (no. %(number)s) is disqualified: his points no longer count, so he cannot be in a team."),
                name=out[0].name,
                number=out[0].number,
            ),
            field="team_numbers",
        )
    existing = teams(championship)
    if any(t.name_key == name_key(title) for t in existing):
        return RulesError(Text(N_("There is already a team called %(name)s."), name=title), field="team_name")
    taken = {entry_id: t for t in existing for entry_id in t.entries}
    for number in wanted:
        other = taken.get(found[number].id)
        if other is not None:
            return RulesError(
                Text(N_("Number %(number)s is already in the team %(team)s."), number=number, team=other.name),
                field="team_numbers",
            )
    return None


def form_team(championship: Championship, name: object, numbers: Sequence[object], *, actor: str) -> ChampTeam:
    """A team named ``name`` of the four entries with the card ``numbers`` (committed), checked
    under the championship's lock so that two phones cannot put one player in two teams."""
    title, wanted = _team_form(name, numbers)
    lock(championship)
    query = select(Entry).where(Entry.championship_id == championship.id, Entry.number.in_(wanted))
    found = {e.number: e for e in db.session.scalars(query)}
    refusal = _team_refusal(championship, title, found, wanted)
    if refusal is not None:
        db.session.rollback()
        raise refusal
    team = ChampTeam(
        championship_id=championship.id,
        name=title,
        name_key=name_key(title),
        entries=[found[n].id for n in wanted],
    )
    db.session.add(team)
    history.record(championship, "team_formed", actor=actor, team=title, numbers=", ".join(map(str, wanted)))
    db.session.commit()
    return team


def remove_team(championship: Championship, team_id: int, *, actor: str) -> ChampTeam | None:
    """Undo a team (committed); None when there is no such team."""
    lock(championship)
    team = db.session.get(ChampTeam, team_id)
    if team is None or team.championship_id != championship.id:
        db.session.rollback()
        return None
    numbers = sorted(db.session.scalars(select(Entry.number).where(Entry.id.in_(team.entries))))
    history.record(
        championship, "team_removed", actor=actor, team=team.name, numbers=", ".join(str(n) for n in numbers)
    )
    db.session.delete(team)
    db.session.commit()
    return team


# --------------------------------------------------------------------------- who wins what


def excluded(championship: Championship) -> set[int]:
    """The card numbers that win nothing: the disqualified entries (:mod:`.status`)."""
    return set(
        db.session.scalars(
            select(Entry.number).where(Entry.championship_id == championship.id, Entry.status == "disqualified")
        )
    )


@dataclass(frozen=True)
class Share:
    """What one winner takes of a prize: his share in centavos, and the Pix code to pay it."""

    number: int
    name: str
    cents: int
    pix: dict[str, Any] | None = None


@dataclass(frozen=True)
class Award:
    """One prize with its winners: the places it pays (``first`` to ``last``; for a round
    prize, the round), the prize, the winners' shares, and whether the result is final and
    whether it is a tie."""

    first: int
    last: int
    prize: Prize
    shares: tuple[Share, ...] = ()
    final: bool = False
    tie: bool = False
    team: str = ""  # the team's name(s), for a team prize
    points: int | None = None


@dataclass(frozen=True)
class TeamLine:
    """A team in the team ranking."""

    team_id: int
    name: str
    members: tuple[Standing, ...]
    total: int
    place: int = 0


@dataclass
class Prizes:
    """The prize list as the page shows it."""

    awards: list[Award] = field(default_factory=list)
    rounds: list[Award] = field(default_factory=list)
    team_awards: list[Award] = field(default_factory=list)
    team_lines: list[TeamLine] = field(default_factory=list)
    sealed: tuple[int, ...] = ()
    final: bool = False

    @property
    def to_pay(self) -> int:
        return sum(s.cents for a in (*self.awards, *self.rounds, *self.team_awards) for s in a.shares)


def _groups(lines: Sequence[Any], key: Any) -> list[list[Any]]:
    """Consecutive lines level on ``key`` (already in order), as groups."""
    out: list[list[Any]] = []
    for line in lines:
        if out and key(out[-1][0]) == key(line):
            out[-1].append(line)
        else:
            out.append([line])
    return out


def _pooled(places: Sequence[Prize], start: int, count: int) -> Prize:
    """The prizes of places ``start``..``start+count-1`` (0-based) taken together."""
    taken = places[start : start + count]
    return Prize(sum(p.cents for p in taken), " + ".join(p.text for p in taken if p.text))


def _unclaimed(places: Sequence[Prize], at: int) -> list[Award]:
    """The places from ``at`` (0-based) that nobody holds yet, listed without a winner."""
    return [Award(first=k + 1, last=k + 1, prize=places[k]) for k in range(at, len(places))]


def place_awards(lines: Sequence[Standing], places: Sequence[Prize], final: bool) -> list[Award]:
    """The places' prizes to ``lines`` (eligible lines, in ranking order)."""
    awards = []
    at = 0
    for group in _groups(lines, lambda line: line.place):
        if at >= len(places):
            break
        prize = _pooled(places, at, len(group))
        ordered = sorted(group, key=lambda line: line.number)
        cents = split(prize.cents, len(ordered))
        awards.append(
            Award(
                first=at + 1,
                last=min(at + len(group), len(places)),
                prize=prize,
                shares=tuple(Share(line.number, line.name, c) for line, c in zip(ordered, cents)),
                final=final,
                tie=len(group) > 1,
                points=group[0].total,
            )
        )
        at += len(group)
    return awards + _unclaimed(places, at)


def round_awards(lines: Sequence[Standing], rounds: int, cents: int, complete: set[int]) -> list[Award]:
    """Each round's prize to its star (among ``lines``, the eligible ones); ``complete``: the
    rounds every table of which is signed off."""
    awards = []
    for k in range(1, rounds + 1):
        stars = sorted((line for line in lines if k in line.prizes), key=lambda line: line.number)
        if not stars:
            awards.append(Award(first=k, last=k, prize=Prize(cents)))
            continue
        result = stars[0].rounds[k - 1]
        shares = split(cents, len(stars))
        awards.append(
            Award(
                first=k,
                last=k,
                prize=Prize(cents),
                shares=tuple(Share(line.number, line.name, c) for line, c in zip(stars, shares)),
                final=k in complete,
                tie=len(stars) > 1,
                points=None if result is None else result.points,
            )
        )
    return awards


def team_ranking(lines: Sequence[Standing], formed: Sequence[ChampTeam], number_of: dict[int, int]) -> list[TeamLine]:
    """The teams by the sum of their eligible members' points, best first; level teams share
    the place (then listed by name)."""
    by_number = {line.number: line for line in lines}
    rows = []
    for team in formed:
        members = tuple(by_number[number_of[e]] for e in team.entries if e in number_of and number_of[e] in by_number)
        rows.append(TeamLine(team.id, team.name, members, sum(m.total for m in members)))
    rows.sort(key=lambda t: (-t.total, t.name.casefold()))
    placed = []
    for i, row in enumerate(rows):
        same = i > 0 and row.total == rows[i - 1].total
        placed.append(TeamLine(row.team_id, row.name, row.members, row.total, placed[-1].place if same else i + 1))
    return placed


def team_awards(ranked: Sequence[TeamLine], places: Sequence[Prize], final: bool) -> list[Award]:
    """The team places' prizes: level teams pool the places they cover; each team's part is
    split among its members."""
    awards = []
    at = 0
    for group in _groups(ranked, lambda t: t.place):
        if at >= len(places):
            break
        prize = _pooled(places, at, len(group))
        per_team = split(prize.cents, len(group))
        shares = []
        for team, cents in zip(sorted(group, key=lambda t: t.name.casefold()), per_team):
            members = sorted(team.members, key=lambda m: m.number)
            shares += [Share(m.number, m.name, c) for m, c in zip(members, split(cents, len(members)))]
        awards.append(
            Award(
                first=at + 1,
                last=min(at + len(group), len(places)),
                prize=prize,
                shares=tuple(shares),
                final=final,
                tie=len(group) > 1,
                team=" · ".join(t.name for t in group),
                points=group[0].total,
            )
        )
        at += len(group)
    return awards + _unclaimed(places, at)


def _complete_rounds(championship: Championship) -> tuple[set[int], bool]:
    """The rounds every table of which is signed off, and whether the whole day is."""
    drawn = set(db.session.scalars(select(ChampRound.number).where(ChampRound.championship_id == championship.id)))
    open_rounds = set(
        db.session.scalars(
            select(RoundTable.round)
            .where(RoundTable.championship_id == championship.id, RoundTable.signed_at.is_(None))
            .group_by(RoundTable.round)
        )
    )
    complete = drawn - open_rounds
    return complete, len(complete) == championship.rounds


def _with_pix(awards: Iterable[Award], payees: dict[int, Member]) -> list[Award]:
    """Each share paid in money to a member with a Pix key gets its code."""
    from referee.settleup import pix_code  # noqa: PLC0415 - the pages' Pix helper

    out = []
    for award in awards:
        shares = tuple(
            Share(s.number, s.name, s.cents, pix_code(payees.get(s.number), Decimal(s.cents) / 100)) if s.cents else s
            for s in award.shares
        )
        out.append(replace(award, shares=shares))
    return out


def prize_list(championship: Championship, board: Board | None = None) -> Prizes:
    """Who wins what as the ranking stands (the visible one: a sealed round counts for nobody
    yet), provisional until the tables it depends on are signed off."""
    board = board if board is not None else visible_standings(championship)
    chosen = table_of(championship)
    out = set(excluded(championship))
    # Nobody wins anything before a first table signs off: until then everybody holds his
    # starting chips, level, and would share every place. Then the winners follow the ranking,
    # provisional points included, among those who have played.
    eligible = [line for line in board.lines if line.number not in out and any(r is not None for r in line.rounds)]
    if not any(r is not None and r.final for line in eligible for r in line.rounds):
        eligible = []
    complete, day_done = _complete_rounds(championship)
    final = day_done and not board.sealed
    entry_rows = db.session.execute(select(Entry.id, Entry.number).where(Entry.championship_id == championship.id))
    number_of = {row[0]: row[1] for row in entry_rows}
    formed = teams(championship)
    ranked = team_ranking(eligible, formed, number_of)
    result = Prizes(
        awards=place_awards(eligible, chosen.places, final),
        rounds=round_awards(eligible, championship.rounds, chosen.round, complete) if chosen.round else [],
        team_awards=team_awards(ranked, chosen.teams, final),
        team_lines=ranked,
        sealed=board.sealed,
        final=final,
    )
    winners = {s.number for a in (*result.awards, *result.rounds, *result.team_awards) for s in a.shares if s.cents}
    if winners:
        paid = db.session.execute(
            select(Entry.number, Member)
            .join(Member, Member.id == Entry.member_id)
            .where(Entry.championship_id == championship.id, Entry.number.in_(winners), Member.pix_key != "")
        )
        payees = {row[0]: row[1] for row in paid}
        if payees:
            result.awards = _with_pix(result.awards, payees)
            result.rounds = _with_pix(result.rounds, payees)
            result.team_awards = _with_pix(result.team_awards, payees)
    return result


def team_count(championship: Championship) -> int:
    return int(db.session.scalar(select(func.count()).where(ChampTeam.championship_id == championship.id)) or 0)
