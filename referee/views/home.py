"""Home page (tables in progress), language switch, favicon."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import (
    Blueprint,
    current_app,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import format_timedelta

from referee import clubs, ledger, member_phones
from referee.i18n import LANG_COOKIE
from referee.inputs import local_path, split_url
from referee.models import aware
from referee.rules import GAMES
from referee.views import games
from referee.views.phone_tables import known_tables
from referee.views.trust_card import card as trust_card

bp = Blueprint("home", __name__)

HOME_LIMIT = 50


def game_name(slug: str) -> str:
    return GAMES[slug].name if slug in GAMES else slug.replace("_", " ").title()


@bp.get("/")
def index() -> ResponseReturnValue:
    """The tables this phone knows (created, scored or opened here), most recently active
    first. Other tables are not listed: knowing a table's id is what lets one read it."""
    now = datetime.now(UTC)
    tables = [
        {
            "table": row.table,
            "game": game_name(row.table.game),
            "players": list(row.players),
            "hands": row.hands,
            "last": format_timedelta(aware(row.last) - now, add_direction=True),
            "last_iso": aware(row.last).isoformat(),
        }
        for row in ledger.overview(known_tables())
    ]
    return render_template("home/index.html", tables=tables, trust=trust_card(), own_member=member_phones.owner())


@bp.get("/lang/<code>")
def set_language(code: str) -> ResponseReturnValue:
    """Remember the chosen language in a cookie and go back where the user was."""
    if code not in current_app.config["LANGUAGES"]:
        code = current_app.config["BABEL_DEFAULT_LOCALE"]
    response = redirect(_same_site_referrer() or url_for("home.index"))
    response.set_cookie(
        LANG_COOKIE,
        code,
        max_age=365 * 24 * 3600,
        httponly=True,
        samesite="Lax",
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
    )
    return response


def _same_site_referrer() -> str | None:
    """The referrer's path if it is on this site (never redirect elsewhere)."""
    if not request.referrer:
        return None
    ref = split_url(request.referrer)
    if ref is None or ref.netloc != request.host or not ref.path.startswith("/"):
        return None
    if clubs.inside(ref.path).startswith("/lang/"):
        return None
    return local_path(ref.path + (f"?{ref.query}" if ref.query else ""), "") or None


@bp.get("/favicon.ico")
def favicon() -> ResponseReturnValue:
    return send_from_directory(
        current_app.static_folder or "static",
        "favicon.svg",
        mimetype="image/svg+xml",
        max_age=7 * 24 * 3600,
    )


@bp.get("/games/<slug>")
def game_rules(slug: str) -> ResponseReturnValue:
    """How Referee judges a game: drawn from the engine's own tables (ladder, card values,
    movement, deal sizes, options), so the page and the referee can never disagree. Each game's
    page is its ``games/<slug>/rules.html`` with the context its registration gives
    (:attr:`GamePages.rules_context`), plus ``options``, the engine's house rules."""
    pages = games.pages_of(slug)
    return render_template(
        pages.template("rules.html"), options=GAMES[slug].option_specs, words=pages.words, **pages.rules_context()
    )
