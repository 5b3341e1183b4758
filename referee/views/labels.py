"""Display names for templates: calls, suits, option values. Game terms stay in Portuguese in
every language (they are the names players use); suit names are translated."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import get_translations
from flask_babel import gettext as _

from referee import access, ledger
from referee.i18n import fmt_int, fmt_money, render_text
from referee.rules import injun
from referee.rules.cards import SPANISH_RANKS, Suit, rank_label
from referee.rules.jubileu import ALL_CALLS
from referee.rules.patience import GAME_LABELS as PATIENCE_NAMES
from referee.rules.quatrilho import Call as QCall
from referee.rules.quatrilho import Mode
from referee.rules.samba import HIDDEN_WORDS
from referee.rules.seats import join_names
from referee.rules.text import N_, Text

_CALLS = {c.value: c.label for c in ALL_CALLS}


def call(slug: str) -> str:
    return _CALLS.get(slug, slug)


def _suit(slug: str | None) -> Suit | None:
    return Suit(slug) if slug in Suit._value2member_map_ else None


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


def mode(code: str) -> str:
    """A Quatrilho contract's name (proper names, the same in every language)."""
    return Mode(code).label if code in Mode._value2member_map_ else code


def qcall(code: str) -> str:
    """An answer in Quatrilho's "É bom?" round."""
    return QCall(code).label if code in QCall._value2member_map_ else code


# --------------------------------------------------------------------------- per-game wording
# Words that differ by game live here, so a new game adds its words in one place instead of
# a branch in every template.


def ngettext(singular: str, plural: str, n: int, **values: object) -> str:
    """A plural sentence whose ``%(num)s`` may be pre-formatted (``fmt_int``), unlike
    flask_babel's ngettext, which fills ``num`` itself."""
    return get_translations().ngettext(singular, plural, n) % {"num": n, **values}


#: Who deals and who goes first, in each game's words (the default: "speaks", an auction).
#: A game whose first player does something else adds its sentence here.
TURN_LINE = N_("%(dealer)s deals; %(speaker)s speaks first.")
TURN_LINES: dict[str, str] = {
    "samba": N_("%(dealer)s deals; %(speaker)s plays first."),
    "kentucky_derby": N_("%(dealer)s deals; %(speaker)s moves the horses."),
    "injun": N_("%(dealer)s deals; %(speaker)s bets first."),
    "koziri": N_("%(dealer)s deals; %(speaker)s leads first."),
    "lift_smoke": N_("%(dealer)s deals; %(speaker)s leads the first trick."),
    "el_gato": N_("%(dealer)s deals; %(speaker)s plays first."),
    # A patience has one player and no deal to speak of: say whose game it is.
    "relogio": N_("%(dealer)s plays the patience."),
    "cachorro": N_("%(dealer)s plays the patience."),
}


def patience(slug: str) -> str:
    """A patience's name (Relógio, Relógio Real, Paciência do Cachorro: proper nouns)."""
    return PATIENCE_NAMES.get(slug, slug)


def turn_line(game: str, dealer: str, speaker: str) -> str:
    """Who deals and who goes first ("speaks" where there is an auction, "plays" in Samba)."""
    return _(TURN_LINES.get(game, TURN_LINE), dealer=dealer, speaker=speaker)


def injun_pots(contract: Mapping[str, Any], cards: Mapping[str, str] | None) -> list[str]:
    """An Injun hand's pots in its history line ("Ana wins 12", "pot closed by Bia: Bia wins
    8", "last pot: Ana and Caio share 4"): who took each, by the engine's own comparison."""
    pots = [p for p in contract.get("pots") or [] if p.get("chips")]
    out: list[str] = []
    for pot in pots:
        hand_pot = injun.HandPot(
            chips=pot["chips"], closer=pot.get("closer"), contenders=tuple(pot.get("contenders") or ())
        )
        try:
            winners = injun.winners_of(hand_pot, cards or {})
        except (KeyError, ValueError):
            continue  # a record without the cards it needs: say nothing rather than guess
        if len(winners) == 1:
            outcome = _("%(name)s wins %(chips)s", name=winners[0], chips=fmt_int(pot["chips"]))
        else:
            names = join_names(winners)
            outcome = _(
                "%(names)s share %(chips)s",
                names=render_text(names) if isinstance(names, Text) else names,
                chips=fmt_int(pot["chips"]),
            )
        if hand_pot.closer is not None:
            outcome = _("pot closed by %(name)s: %(outcome)s", name=hand_pot.closer, outcome=outcome)
        elif len(pots) > 1:
            outcome = _("last pot: %(outcome)s", outcome=outcome)
        out.append(outcome)
    return out


def team_name(players: list[str] | tuple[str, ...]) -> str:
    """A team as players say it: "Ana & Caio", "Ana, Caio & Edu", or one name."""
    names = list(players)
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " & " + names[-1]


def hidden_canastra(key: str) -> str:
    """A hidden-canastra category, in words (Samba)."""
    return _(HIDDEN_WORDS[key]) if key in HIDDEN_WORDS else key


def numbers_title(game: str) -> str:
    """The heading of the new-table section with the numbers: stakes, or the match's target."""
    if game in ("relogio", "cachorro"):
        return _("The game")
    return _("The match") if game == "samba" else _("Stakes")


#: Who deals first and what that means for the first player, per game (the default: the
#: lowest card, as in Jubileu and Quatrilho).
DEALER_HELP_LOWEST = N_(
    "Whoever draws the lowest card deals first. By default the last player deals, so player 1 speaks first."
)
DEALER_HELP: dict[str, str] = {
    "samba": N_(
        "The player before the one who plays first deals. By default the last player deals, so player 1 plays first; the partnership draw decides it too."
    ),
    "el_gato": N_(
        "Whoever draws the highest card deals first. By default the last player deals, so player 1 gets the first card and plays first."
    ),
    "koziri": N_(
        "Whoever draws the highest card deals first. By default the second player deals, so player 1 is the opponent."
    ),
    "kentucky_derby": N_("By default the last player deals the first race; the deal then passes to the left."),
}

#: How to write the names in order of play, per game (the default: the round goes on from
#: player 1 to the next who plays).
SEATING_HELP_ROUND = N_(
    "Write the names in the order the game goes round: after player 1 comes the player who plays next, and so on."
)
SEATING_HELP: dict[str, str] = {
    "samba": N_(
        "Write the names in the order the game goes round (to the left). Partners sit opposite each other: with four players, 1 and 3 play against 2 and 4; with six, 1, 3 and 5 against 2, 4 and 6."
    ),
    "quatrilho": N_(
        "Write the names in the order the game goes round: after player 1 comes the one who plays next, and so on. With five players, one sits out each hand (the dealer, or the cutter under the Timbó rules)."
    ),
    "jubileu": N_(
        "Write the names in the order the game goes round. In Jubileu the cards, the auction and the tricks go to the right (counter-clockwise): after player 1 comes the one to their right, and so on."
    ),
}


def dealer_help(game: str) -> str:
    return _(DEALER_HELP.get(game, DEALER_HELP_LOWEST))


def seating_help(game: str) -> str:
    return _(SEATING_HELP.get(game, SEATING_HELP_ROUND))


def player_count(rules: Any) -> str:
    """How many play: "2 players", "4 to 6 players", or El Gato's list of counts that share the
    40 cards ("2, 4, 5, 8 or 10 players")."""
    counts = getattr(rules, "player_counts", None)
    if counts:
        return _(
            "%(counts)s players",
            counts=_("%(some)s or %(last)s", some=", ".join(str(n) for n in counts[:-1]), last=counts[-1]),
        )
    if rules.min_players == rules.max_players:
        return ngettext("%(num)s player", "%(num)s players", rules.min_players)
    return _("%(low)s to %(high)s players", low=rules.min_players, high=rules.max_players)


def last_round_title(game: str) -> str:
    return _("La tonda!") if game == "quatrilho" else _("Last round!")


def last_round_start(game: str) -> str:
    return _("La tonda: start the last round") if game == "quatrilho" else _("Start the last round")


def stock_left(game: str, left: int) -> str:
    """What a player has left of the stock he started with (Quatrilho's talha, or chips)."""
    if game == "quatrilho":
        return ngettext("talha: %(num)s unit left", "talha: %(num)s units left", left, num=fmt_int(left))
    return ngettext("%(num)s chip left", "%(num)s chips left", left, num=fmt_int(left))


def unit_note(game: str, value: str | None) -> str:
    """Under a settle-up: what the amounts count, and their money value when the table has one."""
    if game == "quatrilho":
        return _("Amounts in units; %(value)s per unit.", value=fmt_money(value)) if value else _("Amounts in units.")
    return _("Amounts in chips; %(value)s per chip.", value=fmt_money(value)) if value else _("Amounts in chips.")
