"""The league pages: standings per game and season, and the seasons themselves.

Anyone at the club may read the standings; creating or changing a season needs the club's code
(referee.club), like managing members.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee import club, inputs, league, ratings
from referee.i18n import render_text
from referee.rules import GAMES, get_game
from referee.rules.errors import RulesError

bp = Blueprint("league", __name__)

#: The standings show the top of the table; "show everyone" lists the rest (a phone does not
#: need a thousand rows, and drawing them is most of the page's cost in a big league).
SHOWN = 100


def _season_arg() -> tuple[Any, str]:
    """The season asked for: ?season=<id>, ?season=all, or by default the current one (all
    time when no season covers today)."""
    raw = request.args.get("season", "")
    if raw == "all":
        return None, "all"
    if raw.isdigit():
        season = league.get_season(inputs.database_id(raw))
        if season is None:
            abort(404)
        return season, raw
    season = league.current_season()
    return season, str(season.id) if season else "all"


@bp.get("/league")
def index() -> ResponseReturnValue:
    return redirect(url_for("league.standings", game=next(iter(GAMES)), **request.args))


@bp.get("/league/<game>")
def standings(game: str) -> ResponseReturnValue:
    """A game's standings over a season, with each player's rating."""
    if game not in GAMES:
        abort(404)
    season, chosen = _season_arg()
    rows = league.standings(game, season)
    everyone = request.args.get("all") == "1"
    rated, rebuilding = _ratings(game)
    kind = get_game(game).kind
    losses = kind.counts_losses
    return render_template(
        "league/standings.html",
        game=game,
        game_name=get_game(game).name,
        games=[(slug, GAMES[slug].name) for slug in GAMES],
        scored=kind.points_match,
        patience=kind.counts_wins,
        losses=losses,
        # El Gato played for nothing: every net is 0, so the column goes.
        show_net=not losses or any(row.net for row in rows),
        on_the_table=league.on_the_tables(game, season),
        rows=rows if everyone else rows[:SHOWN],
        total=len(rows),
        everyone=everyone,
        rated=rated,
        rebuilding=rebuilding,
        season=season,
        chosen=chosen,
        seasons=league.seasons(),
        manager=club.is_manager(),
    )


def _ratings(game: str) -> tuple[dict[int, Any], bool]:
    """Each member's rating in ``game``, and whether they are behind and being brought up to
    date by another process (a big rebuild is never done while the page waits: ratings.catch_up)."""
    rebuilding = ratings.catch_up(game)
    return {r.member_id: r for r in ratings.table(game, fresh=False)}, rebuilding


@bp.route("/league/seasons", methods=["GET", "POST"])
@bp.route("/league/seasons/<int:season_id>", methods=["GET", "POST"])
def seasons(season_id: int | None = None) -> ResponseReturnValue:
    """The seasons, and (with the club's code) a form to add one or change one."""
    season = league.get_season(season_id) if season_id is not None else None
    if season_id is not None and season is None:
        abort(404)
    error = None
    if request.method == "POST":
        if not club.is_manager():
            abort(403)
        try:
            saved = league.save_season(
                season,
                name=request.form.get("name"),
                starts_on=request.form.get("starts_on"),
                ends_on=request.form.get("ends_on"),
            )
        except RulesError as exc:
            error = render_text(exc.text)
        else:
            flash(_("Season %(name)s saved.", name=saved.name), "success")
            return redirect(url_for("league.seasons"))
    return render_template(
        "league/seasons.html",
        seasons=league.seasons(),
        season=season,
        error=error,
        manager=club.is_manager(),
        first_game=next(iter(GAMES)),  # a season's link opens the standings of the first game
    ), (422 if error else 200)
