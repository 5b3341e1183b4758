"""Club members' pages: the list of players, a player's page (games, net over time, best
partners, history), and managing members behind the club's code (rename, merge, Pix key).

Reading is open to anyone on the table's network, like the tables themselves; changing who a
member is, or where his money goes, needs the club's code (:mod:`referee.club`), and the Pix key
itself is shown only to a phone that typed it.

A player's page reads only his own seats, the other seats at his tables and his own hands
(never the whole league), so it costs the same however large the club grows.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from babel.dates import format_skeleton
from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import format_date, format_decimal, get_locale, ngettext
from flask_babel import gettext as _

from referee import charts, club, guesses, inputs, league, member_phones, members, pix, player_record, qr, ratings
from referee.db import db
from referee.errorpages import Missing
from referee.i18n import MINUS, fmt_int, render_text
from referee.inputs import local_path
from referee.models import Member, utcnow
from referee.player_record import Other, Sitting
from referee.rules import GAMES, get_game
from referee.rules.errors import InvalidInput, RulesError
from referee.rules.patience import PatienceStats
from referee.views.games import PAGES, PATIENCE_FIGURES
from referee.views.phone_tables import shown_tables

bp = Blueprint("players", __name__)

LIST_LIMIT = 100  # members listed at once; the search finds the others
HISTORY_PAGE = 20  # tables per page of a player's history
PARTNERS_SHOWN = 5
SEARCH_MAX = 40


# --------------------------------------------------------------------------- reading


def _fold(text: str) -> str:
    """What a search compares: no case, no accents ("jose" finds "José")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


@dataclass(frozen=True)
class GameRow:
    """His figures in one game, counted as the league counts them."""

    game: str
    tables: int
    hands: int
    net: int
    won: int

    @property
    def average(self) -> float:
        return league.per_hand(self.net, self.hands)


def game_rows(seats: Sequence[Sitting]) -> list[GameRow]:
    """His figures per game (tables with a hand played, as in the standings), in the order
    the app lists its games."""
    rows = []
    for game in _games(seats):
        mine = [s for s in seats if s.game == game and s.played > 0]
        rows.append(
            GameRow(
                game=game,
                tables=len(mine),
                hands=sum(s.played for s in mine),
                net=sum(s.net for s in mine),
                won=sum(s.won for s in mine),
            )
        )
    return rows


def _games(seats: Iterable[Sitting]) -> list[str]:
    played = {s.game for s in seats if s.played > 0}
    return [g for g in GAMES if g in played] + sorted(played - set(GAMES))


def net_over_time(seats: Sequence[Sitting], game: str) -> list[tuple[datetime, int, Sitting]]:
    """His running net in ``game`` after each table (oldest first; tables without a hand left
    out): what the chart draws and the table under it lists."""
    running, out = 0, []
    for seat in sorted((s for s in seats if s.game == game and s.played > 0), key=lambda s: (s.created_at, s.table_id)):
        running += seat.net
        out.append((seat.created_at, running, seat))
    return out


def chart(points: Sequence[tuple[datetime, int, Sitting]], game: str) -> Any:
    """The inline SVG of his running net in one game (nothing when there is no point)."""
    if not points:
        return ""
    name = GAMES[game].name if game in GAMES else game
    scored = game in GAMES and get_game(game).kind.points_match
    title = (
        _("Points after each %(game)s match", game=name) if scored else _("Net after each %(game)s table", game=name)
    )
    first, last = (format_date(league.local_date(points[i][0]), "medium") for i in (0, -1))
    description = ngettext(
        "From %(first)s to %(last)s, %(num)d table, ending at %(net)s.",
        "From %(first)s to %(last)s, %(num)d tables, ending at %(net)s.",
        len(points),
        first=first,
        last=last,
        net=fmt_int(points[-1][1]),
    )
    days = [league.local_date(when) for when, _value, _seat in points]
    # Day and month are enough within one year (the title's description gives the years).
    skeleton = "Md" if days[0].year == days[-1].year else "yMd"
    locale = get_locale() or "pt_BR"
    return charts.line_chart(
        [(format_skeleton(skeleton, day, locale=locale), value) for day, (_when, value, _seat) in zip(days, points)],
        title=title,
        chart_id=f"chart-{game}",
        fmt=fmt_int,
        description=description,
    )


@dataclass
class Partner:
    """Someone who played on the member's side: how often, and how it went."""

    member_id: int
    name: str
    together: int = 0  # hands (games settled per hand) or matches (games played to a target)
    net: int = 0  # both players' deltas added up; for a team game, the team's points
    won: int = 0  # matches won together (games played to a target)


def declaring_pair(game: str, contract: Mapping[str, Any]) -> tuple[str, str] | None:
    """The two players who played as partners in a hand, from its stored contract, for the
    games whose hands can name two partners (their registration's ``declaring_pair``: Jubileu's
    partnership contracts, a Quatrilho call)."""
    pages = PAGES.get(game)
    if pages is None or pages.declaring_pair is None:
        return None
    return pages.declaring_pair(contract)


def partners(member: Member, seats: Sequence[Sitting]) -> dict[str, list[Partner]]:
    """His best partners per game (:func:`_teammates` for games played in teams,
    :func:`_hand_partners` for the others).

    Order: for a team game, more matches won together, then more points, then the name; else
    the higher net together, then more hands together, then the name."""
    others = player_record.others(member)
    found: dict[str, dict[int, Partner]] = {}
    _teammates(seats, others, found)
    _hand_partners(member, seats, others, found)
    return {game: sorted(rows.values(), key=_partner_order(game)) for game, rows in found.items()}


def _teammates(
    seats: Sequence[Sitting], others: Mapping[str, list[Other]], found: dict[str, dict[int, Partner]]
) -> None:
    """Games played in teams (Samba): everyone on his team (same ``Seat.team``) at each table
    with a hand played; the matches together, the matches won together and the team's points
    (every player of a team scores the team's points, so they are counted once)."""
    for seat in seats:
        if seat.team is None or seat.played == 0 or seat.game not in GAMES or not get_game(seat.game).kind.points_match:
            continue
        for other in others.get(seat.table_id, []):
            if other.team == seat.team:
                row = found.setdefault(seat.game, {}).setdefault(other.member_id, Partner(other.member_id, other.name))
                row.together += 1
                row.net += seat.net
                row.won += seat.won


def _hand_partners(
    member: Member, seats: Sequence[Sitting], others: Mapping[str, list[Other]], found: dict[str, dict[int, Partner]]
) -> None:
    """Games with partnerships hand by hand (Jubileu, Quatrilho): the partner in each live hand
    where he and one other player were the declaring side (:func:`declaring_pair`), with the
    hands together and both players' results added up. Reads his own hands only."""
    games = [g for g, pages in PAGES.items() if pages.declaring_pair and any(s.game == g for s in seats)]
    if not games:
        return
    by_name = {(table_id, o.seat_name): o for table_id, rows in others.items() for o in rows}
    for game, table_id, seat_name, result in player_record.hands_at(member, games):
        pair = declaring_pair(game, result.get("contract") or {})
        if pair is None or seat_name not in pair:
            continue
        other = by_name.get((table_id, pair[1] if pair[0] == seat_name else pair[0]))
        if other is None:
            continue
        deltas = result.get("deltas") or {}
        row = found.setdefault(game, {}).setdefault(other.member_id, Partner(other.member_id, other.name))
        row.together += 1
        row.net += int(deltas.get(seat_name, 0)) + int(deltas.get(other.seat_name, 0))


def _partner_order(game: str) -> Callable[[Partner], tuple[int, int, str, int]]:
    """The order stated on the page (see :func:`partners`)."""
    if get_game(game).kind.points_match:
        return lambda p: (-p.won, -p.net, p.name.casefold(), p.member_id)
    return lambda p: (-p.net, -p.together, p.name.casefold(), p.member_id)


def patience_stats(member: Member, seats: Sequence[Sitting]) -> dict[str, PatienceStats]:
    """His record in each patience (Relógio, Relógio Real, Paciência do Cachorro) over his live
    patience hands: games, wins, win rate and the figures (:func:`referee.rules.patience.statistics`).
    Reads his own patience hands only, and none when he never sat at a patience table."""
    games = [g for g in {s.game for s in seats if s.played > 0} if g in GAMES and get_game(g).kind.counts_wins]
    if not games:
        return {}
    return player_record.patience_stats(member, games)


def patience_figure(stats: PatienceStats) -> str:
    """What else a patience's record says, in words (its game's registration: how often
    Relógio's king exchange was used, Relógio Real's sequences per game, the round the Cachorro
    came out in)."""
    figure = PATIENCE_FIGURES.get(stats.game)
    return figure(stats) if figure else ""


# --------------------------------------------------------------------------- pages


@bp.get("/players")
def index() -> ResponseReturnValue:
    """Every active member, searchable by a plain GET (works without JavaScript)."""
    query = " ".join(str(request.args.get("q") or "").split())[:SEARCH_MAX]
    rows = player_record.listed()
    total = len(rows)
    if query:
        wanted = _fold(query)
        rows = [r for r in rows if wanted in _fold(r.name)]
    return render_template(
        "players/index.html",
        rows=rows[:LIST_LIMIT],
        shown_all=len(rows) <= LIST_LIMIT,
        matching=len(rows),
        total=total,
        query=query,
        last_date=lambda row: _day(row.last) if row.last else None,
        is_manager=club.is_manager(),
    )


def _member_or_404(member_id: int) -> Member:
    member = members.get(member_id)
    if member is None:
        abort(404)
    return member


def _page(
    member: Member,
    *,
    status: int = 200,
    errors: Mapping[str, str] | None = None,
    typed: Mapping[str, str] | None = None,
    own: bool = False,
) -> ResponseReturnValue:
    seats = player_record.sittings(member)
    games = game_rows(seats)
    patience = patience_stats(member, seats)
    page = _page_number()
    start = (page - 1) * HISTORY_PAGE
    over_time = {row.game: net_over_time(seats, row.game) for row in games}
    history = seats[start : start + HISTORY_PAGE]
    manager = club.is_manager()
    return (
        render_template(
            "players/show.html",
            member=member,
            games=games,
            game_names={slug: rules.name for slug, rules in GAMES.items()},
            scored={row.game: row.game in GAMES and get_game(row.game).kind.points_match for row in games},
            patience=patience,
            patience_figure=patience_figure,
            patience_games={row.game for row in games if row.game in GAMES and get_game(row.game).kind.counts_wins},
            over_time=over_time,
            charts={game: chart(points, game) for game, points in over_time.items()},
            partners=partners(member, seats),
            partners_shown=PARTNERS_SHOWN,
            history=history,
            # Only tables this phone may open are links: a link hands out the table's id.
            linked=shown_tables(seat.table_id for seat in history),
            page=page,
            more=len(seats) > start + HISTORY_PAGE,
            tables_seen=len(seats),
            day=_day,
            average=_average,
            ratings=_ratings(member, [row.game for row in games]),
            is_manager=manager,
            others=[m for m in members.active() if m.id != member.id] if manager else [],
            phones=member_phones.live(member) if manager else [],
            own=own,
            next_tables=member_phones.next_tables(member) if own else [],
            own_pix=own and member_phones.sets_pix(),
            errors=errors or {},
            typed=typed or {},
        ),
        status,
    )


def _day(when: datetime) -> str:
    """A table's date in the history: day and month this year, the year too before."""
    day = league.local_date(when)
    this_year = league.local_date(utcnow()).year
    return format_skeleton("Md" if day.year == this_year else "yMd", day, locale=get_locale() or "pt_BR")


def _average(value: float) -> str:
    """A net per hand, signed, in the page's number format: two decimals for chips ("+0,25"),
    none once it is in the hundreds (Samba's points)."""
    text = format_decimal(abs(value), format="#,##0.00" if abs(value) < 100 else "#,##0")
    return f"{MINUS}{text}" if value < 0 else f"+{text}" if value > 0 else text


def _page_number() -> int:
    raw = request.args.get("page", "1")
    return inputs.whole_number(raw, high=99_999) or 1


@bp.get("/players/<int:member_id>")
def show(member_id: int) -> ResponseReturnValue:
    """A player's page; a member merged into another answers with the other's page."""
    member = _member_or_404(member_id)
    if member.id != member_id:
        return redirect(url_for("players.show", member_id=member.id))
    return _page(member)


# --------------------------------------------------------------------------- managing


def _require_manager() -> None:
    if not club.is_manager():
        abort(403)


def _refused(
    member: Member, exc: RulesError, field: str, typed: Mapping[str, str], *, own: bool = False
) -> ResponseReturnValue:
    """The player's page again (or her own, on her phone), the engine's sentence next to the
    form, nothing stored."""
    db.session.rollback()
    status = 400 if isinstance(exc, InvalidInput) else 422
    return _page(member, status=status, errors={field: render_text(exc.text)}, typed=typed, own=own)


def _ratings(member: Member, played: list[str]) -> dict[str, Any]:
    """His rating in each game he played, brought up to date first (see ratings.catch_up)."""
    for game in played:
        if game in GAMES:
            ratings.catch_up(game)
    return ratings.for_member(member.id, fresh=False)


@bp.post("/players/<int:member_id>/rename")
def rename(member_id: int) -> ResponseReturnValue:
    _require_manager()
    member = _member_or_404(member_id)
    name = str(request.form.get("name") or "")[:200]
    try:
        members.rename(member, name)
    except RulesError as exc:
        return _refused(member, exc, "name", {"name": name})
    flash(_("Renamed. Tables already played keep the names they were played under."), "success")
    return redirect(url_for("players.show", member_id=member.id))


@bp.post("/players/<int:member_id>/pix")
def set_pix(member_id: int) -> ResponseReturnValue:
    """Store (or, left empty, remove) the member's Pix key and the city its codes carry."""
    _require_manager()
    return _save_pix(_member_or_404(member_id), url_for("players.show", member_id=member_id))


def _save_pix(member: Member, back: str, *, own: bool = False) -> ResponseReturnValue:
    """A Pix key from the form (the manager's, or hers on her own phone), or the page again
    with the reason it was refused."""
    raw_key = str(request.form.get("pix_key") or "")[:200]
    raw_city = str(request.form.get("pix_city") or "")[:200]
    typed = {"pix_key": raw_key, "pix_city": raw_city}
    try:
        key = pix.normalize_key(raw_key) if raw_key.strip() else ""
    except RulesError as exc:
        return _refused(member, exc, "pix", typed, own=own)
    member.pix_key = key
    member.pix_city = pix.normalize_city(raw_city) if key and raw_city.strip() else ""
    db.session.commit()
    flash(_("Pix key saved.") if key else _("Pix key removed."), "success")
    return redirect(back)


# --------------------------------------------------------------------------- a member's phones


@bp.post("/players/<int:member_id>/phones")
def link_phone(member_id: int) -> ResponseReturnValue:
    """A one-time link that binds a phone to the member: shown with its QR code, to open on hers."""
    _require_manager()
    member = _member_or_404(member_id)
    try:
        token = member_phones.make_link(member, made_by=member_phones.BY_CLUB)
    except member_phones.TooMany as refused:
        db.session.rollback()
        return _page(member, status=422, errors={"phones": str(refused)})
    db.session.commit()
    url = url_for("players.bind_page", token=token, _external=True)
    return render_template(
        "players/phone_link.html",
        member=member,
        url=url,
        qr=qr.svg(url, label=_("QR code that binds a phone to %(name)s", name=member.name)),
        hours=member_phones.LINK_HOURS,
    )


@bp.post("/players/<int:member_id>/phones/<int:phone_id>/revoke")
def revoke_phone(member_id: int, phone_id: int) -> ResponseReturnValue:
    _require_manager()
    member = _member_or_404(member_id)
    if not member_phones.revoke(member, phone_id):
        abort(404)
    flash(_("Revoked: that phone no longer shows %(name)s’s page.", name=member.name), "success")
    return redirect(url_for("players.show", member_id=member.id))


def _link_or_404(token: str) -> Member:
    found = member_phones.opened(token)
    if found is None:
        raise Missing(_("This link was already used, has lapsed or was revoked: ask the club for a new one."))
    return found[1]


@bp.get("/eu/<token>")
def bind_page(token: str) -> ResponseReturnValue:
    """Asks before binding: a chat app's preview of the link only reads this page."""
    return render_template("players/bind.html", member=_link_or_404(token), token=token)


@bp.post("/eu/<token>")
def bind(token: str) -> ResponseReturnValue:
    member = member_phones.bind(token)
    if member is None:
        _link_or_404(token)
    flash(_("This phone is %(name)s’s now.", name=member.name if member else ""), "success")
    return redirect(url_for("players.own_page"))


def _own_or_404() -> Member:
    member = member_phones.owner()
    if member is None:
        raise Missing(_("This phone is nobody’s at this club: the club’s manager can bind it to you."))
    return member


@bp.get("/eu")
def own_page() -> ResponseReturnValue:
    """Her own page, on the phone bound to her."""
    return _page(_own_or_404(), own=True)


@bp.post("/eu/pix")
def own_pix() -> ResponseReturnValue:
    """She sets (or removes) her own Pix key, without the club's code, on a phone the club's
    manager bound to her."""
    member = _own_or_404()
    if not member_phones.sets_pix():
        abort(403)
    return _save_pix(member, url_for("players.own_page"), own=True)


@bp.post("/eu/unbind")
def unbind() -> ResponseReturnValue:
    member_phones.unbind()
    flash(_("This phone is nobody’s now."), "success")
    return redirect(url_for("home.index"))


@bp.post("/players/<int:member_id>/merge")
def merge(member_id: int) -> ResponseReturnValue:
    """Two steps: the first POST shows what will happen, the second (``confirm=1``) does it."""
    _require_manager()
    member = _member_or_404(member_id)
    raw = str(request.form.get("into") or "")
    into = members.get(inputs.database_id(raw))
    if into is None or into.id == member.id or into.merged_into is not None:
        db.session.rollback()
        return _page(member, status=422, errors={"into": _("Choose the member this one is the same person as.")})
    if request.form.get("confirm") != "1":
        tables = player_record.seats_held(member)
        return render_template("players/merge.html", member=member, into=into, tables=tables)
    try:
        members.merge(member, into)
    except RulesError as exc:
        return _refused(member, exc, "into", {})
    flash(_("Merged: %(old)s is now %(new)s, with all the tables of both.", old=member.name, new=into.name), "success")
    return redirect(url_for("players.show", member_id=into.id))


# --------------------------------------------------------------------------- the club's code


@bp.route("/club", methods=["GET", "POST"], endpoint="club")
def club_page() -> ResponseReturnValue:
    """Type the club's code to manage members on this phone, or lock it again."""
    error, status = None, 200
    if request.method == "POST":
        if request.form.get("action") == "lock":
            club.lock()
            flash(_("This phone can no longer manage members."), "success")
            return redirect(url_for("players.club"))
        result = club.unlock(request.form.get("code"))
        if result is club.Check.TOO_MANY:
            error, status = _("Too many wrong codes were tried from this phone. Wait ten minutes and try again."), 429
        elif result is club.Check.TOO_MANY_SHARED:
            error, status = guesses.shared_sentence(), 429
        elif result is club.Check.RIGHT:
            flash(_("This phone can now manage members."), "success")
            return redirect(local_path(request.args.get("next"), url_for("players.index")))
        else:
            error, status = _("That is not the club's code."), 422
    return render_template("players/club.html", error=error, is_manager=club.is_manager()), status
