"""Home page (tables in progress), language switch, favicon."""

from __future__ import annotations

from datetime import datetime, timezone
from urllib.parse import urlsplit

from flask import (
    abort,
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
from flask_babel import gettext as _

from referee import ledger
from referee.i18n import LANG_COOKIE
from referee.rules import GAME_NAMES
from referee.views.tables import known_tables

bp = Blueprint("home", __name__)

HOME_LIMIT = 50

def game_name(slug: str) -> str:
    return GAME_NAMES.get(slug, slug.replace("_", " ").title())


@bp.get("/")
def index() -> ResponseReturnValue:
    """The tables this phone knows (created, scored or opened here), most recently active
    first. Other tables are not listed: knowing a table's id is what lets one read it."""
    now = datetime.now(timezone.utc)
    tables = [
        {
            "table": row.table,
            "game": game_name(row.table.game),
            "players": list(row.players),
            "hands": row.hands,
            "last": format_timedelta(_aware(row.last) - now, add_direction=True),
            "last_iso": _aware(row.last).isoformat(),
        }
        for row in ledger.overview(known_tables())
    ]
    return render_template("home/index.html", tables=tables)


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes even for DateTime(timezone=True); they are UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


@bp.get("/lang/<code>")
def set_language(code: str) -> ResponseReturnValue:
    """Remember the chosen language in a cookie and go back where the user was."""
    if code not in current_app.config["LANGUAGES"]:
        code = current_app.config["BABEL_DEFAULT_LOCALE"]
    response = redirect(_same_site_referrer() or url_for("home.index"))
    response.set_cookie(
        LANG_COOKIE, code, max_age=365 * 24 * 3600, httponly=True, samesite="Lax",
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
    )
    return response


def _same_site_referrer() -> str | None:
    """The referrer's path if it is on this site (never redirect elsewhere)."""
    if not request.referrer:
        return None
    ref = urlsplit(request.referrer)
    if ref.netloc != request.host or not ref.path.startswith("/"):
        return None
    if ref.path.startswith(("//", "/lang/")):  # "//host" would leave the site
        return None
    return ref.path + (f"?{ref.query}" if ref.query else "")


@bp.get("/favicon.ico")
def favicon() -> ResponseReturnValue:
    return send_from_directory(
        current_app.static_folder or "static", "favicon.svg", mimetype="image/svg+xml",
        max_age=7 * 24 * 3600,
    )


@bp.get("/games/<slug>")
def game_rules(slug: str) -> ResponseReturnValue:
    """How Referee judges a game: drawn from the engine's own tables (ladder, card values,
    options), so the page and the referee can never disagree."""
    if slug == "jubileu":
        from referee.rules.jubileu import LADDER
        from referee.rules.jubileu import OPTIONS as JUBILEU_OPTIONS

        return render_template("home/rules_jubileu.html", ladder=LADDER, options=JUBILEU_OPTIONS)
    if slug == "quatrilho":
        from referee.rules.cards import SPANISH_RANKS, figures_of
        from referee.rules.quatrilho import OPTIONS as QUATRILHO_OPTIONS

        values = [(rank, figures_of(rank)) for rank in SPANISH_RANKS]
        return render_template("home/rules_quatrilho.html", values=values, options=QUATRILHO_OPTIONS)
    if slug == "samba":
        from referee.rules import samba

        premiums = [
            (_("Clean canastra"), samba.CLEAN_CANASTRA),
            (_("Dirty canastra (1 or 2 wild cards)"), samba.DIRTY_CANASTRA),
            (_("Canastra of wild cards"), samba.WILD_CANASTRA),
            (_("Samba (7 in sequence of one suit)"), samba.SAMBA),
            (_("Canastrão (5 canastras)"), samba.CANASTRAO),
            (_("Canastra de canastras (7 canastras)"), samba.CANASTRA_DE_CANASTRAS),
            (_("Each red 3"), samba.RED_THREE),
            (_("All six red 3s"), samba.ALL_RED_THREES),
            (_("Going out"), samba.GOING_OUT),
        ]
        bands = [
            (_("below 0"), samba.min_meld(-5, samba.SambaOptions())),
            (_("0 to 1,495"), samba.min_meld(0, samba.SambaOptions())),
            (_("1,500 to 2,995"), samba.min_meld(1500, samba.SambaOptions())),
            (_("3,000 to 6,995"), samba.min_meld(3000, samba.SambaOptions())),
            (_("7,000 or more"), samba.min_meld(7000, samba.SambaOptions())),
        ]
        return render_template(
            "home/rules_samba.html",
            card_kinds=samba.CARD_KINDS,
            premiums=premiums,
            hidden=samba.HIDDEN,
            penalties=samba.PENALTY_KINDS,
            bands=bands,
            options=samba.OPTIONS,
        )
    abort(404)
