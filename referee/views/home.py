"""Home page (tables in progress), language switch, favicon."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import format_decimal, format_timedelta
from flask_babel import gettext as _

from referee import ledger
from referee.i18n import LANG_COOKIE, MINUS
from referee.models import aware
from referee.rules import GAME_NAMES, GAMES
from referee.rules.text import N_
from referee.views.tables import known_tables

bp = Blueprint("home", __name__)

HOME_LIMIT = 50


def game_name(slug: str) -> str:
    return GAME_NAMES.get(slug, slug.replace("_", " ").title())


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
    return render_template("home/index.html", tables=tables)


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
    ref = urlsplit(request.referrer)
    if ref.netloc != request.host or not ref.path.startswith("/"):
        return None
    if ref.path.startswith(("//", "/lang/")):  # "//host" would leave the site
        return None
    return ref.path + (f"?{ref.query}" if ref.query else "")


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
    page is ``home/rules_<slug>.html`` with the context of its entry in :data:`RULES_PAGES`,
    plus ``options``, the engine's house rules."""
    page = RULES_PAGES.get(slug)
    if page is None or slug not in GAMES:
        abort(404)
    return render_template(f"home/rules_{slug}.html", options=GAMES[slug].option_specs, **page())


# --------------------------------------------------------------------------- each game's page


def _jubileu_page() -> dict[str, Any]:
    from referee.rules.jubileu import LADDER

    return {"ladder": LADDER}


def _quatrilho_page() -> dict[str, Any]:
    from referee.rules.cards import SPANISH_RANKS, figures_of

    return {"values": [(rank, figures_of(rank)) for rank in SPANISH_RANKS]}


def _samba_page() -> dict[str, Any]:
    from referee.rules import samba

    defaults = samba.SambaOptions()
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
        (_("below 0"), samba.min_meld(-5, defaults)),
        (_("0 to 1,495"), samba.min_meld(0, defaults)),
        (_("1,500 to 2,995"), samba.min_meld(1500, defaults)),
        (_("3,000 to 6,995"), samba.min_meld(3000, defaults)),
        (_("7,000 or more"), samba.min_meld(7000, defaults)),
    ]
    return {
        "card_kinds": samba.CARD_KINDS,
        "premiums": premiums,
        "hidden": samba.HIDDEN,
        "penalties": samba.PENALTY_KINDS,
        "bands": bands,
    }


def _koziri_page() -> dict[str, Any]:
    from referee.rules import koziri, koziri_play

    packs = [(size, " ".join(koziri_play.deck_ranks(size)), size // 2) for size in koziri_play.DECK_SIZES]
    return {"packs": packs, "default_pack": koziri.KoziriOptions().deck, "helpers": _koziri_helpers()}


def _koziri_helpers() -> dict[str, str]:
    """The Koziri helper pages this app serves (the deal helper, the answer checker), by kind:
    found in the URL map, so the rules page links only to what exists."""
    found: dict[str, str] = {}
    for rule in current_app.url_map.iter_rules():
        if not rule.rule.startswith("/koziri") or rule.arguments or "GET" not in (rule.methods or ()):
            continue
        for kind in ("deal", "answer"):
            if kind in rule.rule and kind not in found:
                found[kind] = url_for(rule.endpoint)
    return found


def _injun_page() -> dict[str, Any]:
    from referee.rules import injun

    return {
        "low": injun.MIN_PLAYERS,
        "high": injun.MAX_PLAYERS,
        "ranks": " ".join(reversed(injun.RANKS)),
        "brag_bet": injun.BRAG_BET,
        "see_cost": injun.SEE_COST,
        "per_rank": injun.PER_RANK,
    }


#: The rows of Kentucky Derby's movement table: a label and a representative rank.
_DERBY_ROWS = (
    (N_("King"), "K"),
    (N_("Queen"), "Q"),
    (N_("Jack"), "J"),
    (N_("7 to 10"), "9"),
    (N_("3 to 6"), "5"),
    (N_("Two"), "2"),
)


def _kentucky_derby_page() -> dict[str, Any]:
    """The movement table, each cell computed by the engine for the hearts horse (a card
    of the other colour, of its colour, of its own suit), in spaces."""
    from referee.rules import kentucky_derby as derby
    from referee.rules.cards import Suit

    defaults = derby.DerbyOptions()
    horse, same, other = Suit.COPAS, Suit.OUROS, Suit.ESPADAS
    rows = [
        (
            _(label),
            [
                _spaces(derby.movement(derby.DerbyCard(rank=rank, suit=suit), horse, defaults))
                for suit in (other, same, horse)
            ],
        )
        for label, rank in _DERBY_ROWS
    ]
    return {
        "horses": derby.HORSES,
        "rows": rows,
        "track": defaults.track_length,
        "stock": defaults.stock,
        "second_above": derby.SECOND_PLACE_ABOVE,
        "low": derby.MIN_PLAYERS,
    }


def _spaces(half_spaces: int) -> str:
    """A move in spaces, signed, from the engine's half spaces: "+2,5", "−1", "0"."""
    text = format_decimal(abs(half_spaces) / 2, format="#,##0.#")
    return f"+{text}" if half_spaces > 0 else f"{MINUS}{text}" if half_spaces < 0 else text


def _lift_smoke_page() -> dict[str, Any]:
    from referee.rules import lift_smoke

    return {"deals": [(n, lift_smoke.cards_each(n), lift_smoke.stock_size(n)) for n in lift_smoke.PLAYER_COUNTS]}


def _el_gato_page() -> dict[str, Any]:
    from referee.rules import el_gato

    names = {"10": _("sota (10)"), "1": _("ace (1)")}
    refused = [n for n in range(el_gato.MIN_PLAYERS, el_gato.MAX_PLAYERS + 1) if n not in el_gato.PLAYER_COUNTS]
    order = [names.get(rank, rank) for rank in el_gato.rank_order(el_gato.ElGatoOptions())]
    return {
        "deals": [(n, el_gato.cards_each(n)) for n in el_gato.PLAYER_COUNTS],
        "refused": _("%(some)s or %(last)s", some=", ".join(str(n) for n in refused[:-1]), last=refused[-1]),
        "order": order,
        "deck": el_gato.DECK,
    }


def _relogio_page() -> dict[str, Any]:
    from referee.rules import relogio

    return {"max_sequences": relogio.MAX_SEQUENCES, "to_win": relogio.RelogioOptions().sequences_to_win}


def _cachorro_page() -> dict[str, Any]:
    from referee.rules import cachorro

    return {
        "layouts": [cachorro.deal_layout(n) for n in range(1, cachorro.ROUNDS + 1)],
        "rounds": cachorro.ROUNDS,
        "dealt": cachorro.CARDS_DEALT,
        "kennel": cachorro.FIRST_KENNEL,
    }


#: Each game's rules page: a function giving its template's context (the engine's tables).
RULES_PAGES: dict[str, Callable[[], dict[str, Any]]] = {
    "jubileu": _jubileu_page,
    "quatrilho": _quatrilho_page,
    "samba": _samba_page,
    "koziri": _koziri_page,
    "injun": _injun_page,
    "kentucky_derby": _kentucky_derby_page,
    "lift_smoke": _lift_smoke_page,
    "el_gato": _el_gato_page,
    "relogio": _relogio_page,
    "cachorro": _cachorro_page,
}
