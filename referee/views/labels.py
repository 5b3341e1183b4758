"""Display names for templates: suits, ranks, who wrote, and the words that differ by game (asked
of the game's registration). Game terms stay in Portuguese in every language (they are the
names players use); suit names are translated. A game's own terms (Jubileu's calls, Quatrilho's
contracts) are its module's, in :mod:`referee.views.games`, given to its templates as ``words``."""

from __future__ import annotations

from typing import Any

from flask_babel import get_translations
from flask_babel import gettext as _

from referee import access, ledger, phone
from referee.i18n import fmt_int, fmt_money, render_text
from referee.rules import seats
from referee.rules.cards import FRENCH_RANKS, SPANISH_RANKS, Suit, card_name, french_rank_label, rank_label
from referee.rules.options import OptionSpec, OptionValue
from referee.rules.patience import GAME_LABELS as PATIENCE_NAMES
from referee.rules.text import N_
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
    preposition with the article, "pelo dono", so each whole phrase is translated): the role, and
    the phone by the name the owner gave its way in ("by a scorer: Bia's phone"), or as this
    phone or another one. Never the phone's random id or an access number: a person reads it
    (see referee.access.actor for the stored code)."""
    legacy = {ledger.BY_SCORER: _("by the scorer"), ledger.BY_API: _("by the API")}
    if not code:
        return _("by someone")
    if code in legacy:
        return legacy[code]
    who = access.parse_actor(code)
    label = (names or {}).get(who.access_id) if who.access_id is not None else None
    if who.role not in (access.OWNER, access.SCORER):
        return _("by %(name)s", name=code)
    if who.via == "api":
        if who.role == access.OWNER and who.access_id is None:
            return _("by the API, with the owner's token")
        return _("by the API, with %(name)s's access", name=label) if label else _("by the API, with a scoring access")
    device = _phone(who.device, label, other=who.role == access.SCORER)
    if who.role == access.OWNER:
        return _("by the owner: %(phone)s", phone=device) if device else _("by the owner")
    return _("by a scorer: %(phone)s", phone=device) if device else _("by a scorer")


def _phone(device: str, label: str | None, *, other: bool) -> str:
    """The phone of a write in words: this phone first (Márcia reading her own hands on her
    phone reads "this phone", not "Márcia's phone" as if it were someone else's), else by its
    name, else (with ``other``: a scorer's) another phone. The table's owner on another phone
    needs no more than "by the owner"."""
    if device and device == phone.current():
        return _("this phone")
    if label:
        return _("%(name)s's phone", name=label)
    return _("another phone") if device and other else ""


def rank(code: str) -> str:
    """A Spanish-deck rank's name ("Ás", "Rei") in the reader's language."""
    return rank_label(code).render(_) if code in SPANISH_RANKS else code


def card(code: str, suit_slug: str | None, *, french: bool = False) -> str:
    """A card by name in the reader's language ("Ás de copas", "Rei de ouros"), wherever a page
    names one: a Spanish-deck rank (Quatrilho's "12"), or with ``french`` a French one (Jubileu's
    "A" and "K"). Anything else (a forged record) is shown as it came."""
    ranks, name = (FRENCH_RANKS, french_rank_label) if french else (SPANISH_RANKS, rank_label)
    card_suit = _suit(suit_slug)
    if code not in ranks or card_suit is None:
        return " ".join(str(part) for part in (code, suit_slug) if part)
    return card_name(name(code), card_suit).render(_)


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


def names(players: list[str] | tuple[str, ...]) -> str:
    """Several players in a sentence, as the reader's language joins them: "Ana e Caio"
    ("Ana and Caio"), "Ana, Bia e Caio"; nothing for nobody."""
    if not players:
        return ""
    joined = seats.join_names(list(players))
    return joined if isinstance(joined, str) else joined.render(_)


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


def net(game: str, delta: int) -> str:
    """What one player's net for a hand means in words ("pays 6 chips", "receives 4 units"), or
    nothing for a player the hand leaves even: the preview says what each one hands over or takes
    in, once, instead of one line per pair of players."""
    if not delta:
        return ""
    singular, plural = games.PAGES[game].pays if delta < 0 else games.PAGES[game].receives
    return ngettext(singular, plural, abs(delta), num=fmt_int(abs(delta)))


def house_rules(rules: Any, options: Any) -> list[dict[str, str]]:
    """The table's house rules that differ from the game's default, each as its rule with the
    value chosen ("Overtricks are paid: no") and the sentence that explains it. A result such as
    "Zé +1" can then be explained from the screen that shows it; an unchanged option says nothing
    a player needs, so it is left out."""
    chosen = options.to_json()
    return [
        {"rule": f"{render_text(spec.label)}: {option_value(spec, chosen[spec.name])}", "why": render_text(spec.help)}
        for spec in rules.option_specs
        if chosen.get(spec.name, spec.default) != spec.default
    ]


def option_value(spec: OptionSpec, value: OptionValue) -> str:
    """One option's value as a player reads it: yes or no, the choice's words, a number, money."""
    if spec.kind == "bool":
        return _("yes") if value else _("no")
    if spec.choices:  # a choice, or a number from a short list (Koziri's pack)
        return next((render_text(c.label) for c in spec.choices if c.value == str(value)), str(value))
    if spec.kind == "money":
        return fmt_money(str(value))
    return fmt_int(int(value))


# --------------------------------------------------------------------------- one round, by its number
# What a game calls one round of play is its registration's ``round_kind`` (a Kentucky Derby
# "race", a patience's "game", else "hand"); each sentence that names one by its number is
# written whole for each kind, so every language gets its own grammar.

_ABOUT_ONE: dict[str, dict[str, str]] = {
    "recorded": {
        "hand": N_("Hand %(number)s recorded."),
        "race": N_("Race %(number)s recorded."),
        "game": N_("Game %(number)s recorded."),
    },
    "undone": {
        "hand": N_("Hand %(number)s undone."),
        "race": N_("Race %(number)s undone."),
        "game": N_("Game %(number)s undone."),
    },
    "redo": {
        "hand": N_("Redo hand %(number)s"),
        "race": N_("Redo race %(number)s"),
        "game": N_("Redo game %(number)s"),
    },
    "back": {
        "hand": N_("Hand %(number)s is back."),
        "race": N_("Race %(number)s is back."),
        "game": N_("Game %(number)s is back."),
    },
    "corrected": {
        "hand": N_("Hand %(number)s was corrected."),
        "race": N_("Race %(number)s was corrected."),
        "game": N_("Game %(number)s was corrected."),
    },
    "void": {
        "hand": N_("Hand %(number)s is void. Balances and the deal were recomputed."),
        "race": N_("Race %(number)s is void. Balances and the deal were recomputed."),
        "game": N_("Game %(number)s is void."),
    },
    "confirmed": {
        "hand": N_("Hand %(number)s confirmed."),
        "race": N_("Race %(number)s confirmed."),
        "game": N_("Game %(number)s confirmed."),
    },
    "disputed": {
        "hand": N_("Hand %(number)s is marked disputed; the owner will sort it out."),
        "race": N_("Race %(number)s is marked disputed; the owner will sort it out."),
        "game": N_("Game %(number)s is marked disputed; the owner will sort it out."),
    },
}


def about_one(game: str, what: str, number: int | None) -> str:
    """A sentence naming one round of ``game`` by its place in play, in the game's own word
    ("Corrida 1 anotada.", "Partida 2 desfeita.", "Mão 3 confirmada.")."""
    kind = games.PAGES[game].round_kind
    return _(_ABOUT_ONE[what].get(kind, _ABOUT_ONE[what]["hand"]), number=number)
