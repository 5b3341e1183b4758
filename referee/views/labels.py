"""Display names for templates: suits, ranks, who wrote, and the words that differ by game (asked
of the game's registration). Game terms stay in Portuguese in every language (they are the
names players use); suit names are translated. A game's own terms (Jubileu's calls, Quatrilho's
contracts) are its module's, in :mod:`referee.views.games`, given to its templates as ``words``."""

from __future__ import annotations

from typing import Any

from flask_babel import get_translations
from flask_babel import gettext as _

from referee import access, ledger
from referee.i18n import fmt_int, fmt_money
from referee.rules.cards import SPANISH_RANKS, Suit, rank_label
from referee.rules.patience import GAME_LABELS as PATIENCE_NAMES
from referee.views import games  # read at call time: the games import these wordings helpers
from referee.views.flow import is_suit


def _suit(slug: str | None) -> Suit | None:
    return Suit(slug) if is_suit(slug) else None


def suit(slug: str | None) -> str:
    card = _suit(slug)
    return card.label.render(_) if card else ""


def symbol(slug: str | None) -> str:
    card = _suit(slug)
    return card.symbol if card else ""


def red(slug: str | None) -> bool:
    card = _suit(slug)
    return bool(card and card.is_red)


def by(code: str | None, names: dict[int, str] | None = None) -> str:
    """Who made a write, as "by ..." in the reader's language (Portuguese contracts the
    preposition with the article, "pelo dono", so each whole phrase is translated): the role,
    the scoring access used and the phone (see referee.access.actor)."""
    legacy = {ledger.BY_SCORER: _("by the scorer"), ledger.BY_API: _("by the API")}
    if not code:
        return _("by someone")
    if code in legacy:
        return legacy[code]
    who = access.parse_actor(code)
    if who.role == access.OWNER:
        phrase = _("by the API, with the owner's token") if who.via == "api" else _("by the owner")
    elif who.role == access.SCORER and who.access_id is not None:
        label = (names or {}).get(who.access_id)
        if who.via == "api":
            phrase = _("by the API, with scoring access %(n)s", n=who.access_id)
        elif label:
            phrase = _("by a scorer (%(label)s)", label=label)
        else:
            phrase = _("by a scorer (access %(n)s)", n=who.access_id)
    else:
        return _("by %(name)s", name=code)
    return _("%(who)s, phone %(device)s", who=phrase, device=who.device) if who.device else phrase


def rank(code: str) -> str:
    """A Spanish-deck rank's name ("Ás", "Rei") in the reader's language."""
    return rank_label(code).render(_) if code in SPANISH_RANKS else code


#: The card corner as players read it: A, 2..7, and the court cards by their Portuguese letters.
_SHORT = {"1": "A", "10": "D", "11": "V", "12": "R"}


def rank_short(code: str) -> str:
    return _SHORT.get(code, code)


# --------------------------------------------------------------------------- per-game wording
# Words that differ by game are the game's own (its registration in referee.views.games, where
# the defaults are); these functions translate them, so templates never branch on a game.


def ngettext(singular: str, plural: str, n: int, **values: object) -> str:
    """A plural sentence whose ``%(num)s`` may be pre-formatted (``fmt_int``), unlike
    flask_babel's ngettext, which fills ``num`` itself."""
    return get_translations().ngettext(singular, plural, n) % {"num": n, **values}


def patience(slug: str) -> str:
    """A patience's name (Relógio, Relógio Real, Paciência do Cachorro: proper nouns)."""
    return PATIENCE_NAMES.get(slug, slug)


def turn_line(game: str, dealer: str, speaker: str) -> str:
    """Who deals and who goes first ("speaks" where there is an auction, "plays" in Samba)."""
    return _(games.PAGES[game].turn_line, dealer=dealer, speaker=speaker)


def team_name(players: list[str] | tuple[str, ...]) -> str:
    """A team as players say it: "Ana & Caio", "Ana, Caio & Edu", or one name."""
    names = list(players)
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " & " + names[-1]


def numbers_title(game: str) -> str:
    """The heading of the new-table section with the numbers: stakes, or the match's target."""
    return _(games.PAGES[game].numbers_title)


def dealer_help(game: str) -> str:
    return _(games.PAGES[game].dealer_help)


def seating_help(game: str) -> str:
    return _(games.PAGES[game].seating_help)


def chooser_note(game: str) -> str:
    """A few words beside the game's name on the new-table chooser, if it has any."""
    note = games.PAGES[game].chooser_note
    return _(note) if note else ""


def player_count(rules: Any) -> str:
    """How many play: "2 players", "4 to 6 players", or El Gato's list of counts that share the
    40 cards ("2, 4, 5, 8 or 10 players")."""
    counts = tuple(rules.player_counts)
    if len(counts) == 1:
        return ngettext("%(num)s player", "%(num)s players", counts[0])
    if counts == tuple(range(counts[0], counts[-1] + 1)):
        return _("%(low)s to %(high)s players", low=counts[0], high=counts[-1])
    return _(
        "%(counts)s players",
        counts=_("%(some)s or %(last)s", some=", ".join(str(n) for n in counts[:-1]), last=counts[-1]),
    )


def last_round_title(game: str) -> str:
    return _(games.PAGES[game].last_round_title)


def last_round_start(game: str) -> str:
    return _(games.PAGES[game].last_round_start)


def time_up(game: str) -> str:
    """What to do when the agreed time runs out (call the last round)."""
    return _(games.PAGES[game].time_up)


def stock_left(game: str, left: int) -> str:
    """What a player has left of the stock he started with (Quatrilho's talha, or chips)."""
    singular, plural = games.PAGES[game].stock_left
    return ngettext(singular, plural, left, num=fmt_int(left))


def unit_note(game: str, value: str | None) -> str:
    """Under a settle-up: what the amounts count, and their money value when the table has one."""
    plain, with_money = games.PAGES[game].unit_note
    return _(with_money, value=fmt_money(value)) if value else _(plain)
