"""What the manager chooses when he creates a championship, each choice checked with a sentence.

The defaults follow the Quatrilho championships run on paper: 100 chips to every entry and
re-entry, every chip a point (ABAQ's regulation, Art. 8), as many re-entries as a player wants
(the 2005 national regulation), a round ended by a number of deals that every player deals
equally, tables of four (a fifth player where the count needs one, the dealer sitting out), late
entries until the end of round 1. Every setting can change until the first draw
(:mod:`.life`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from flask_babel import gettext

from referee import access
from referee.db import db
from referee.ledger.cleaning import clean_title
from referee.ledger.create import table_language
from referee.models import Championship
from referee.rules import GAMES as ALL_GAMES
from referee.rules import get_game
from referee.rules.errors import InvalidInput, RulesError
from referee.rules.text import N_, Text

from .money import read_settings as read_money

#: The games a championship can be played at: settled in chips (a stock each player starts
#: with) at tables of four.
GAMES: Final[tuple[str, ...]] = tuple(
    slug for slug, game in ALL_GAMES.items() if game.keeps_stock and 4 in game.player_counts
)

#: The tie-breaks a manager can order, each with the sentence the ranking page states.
TIEBREAKS: Final[dict[str, str]] = {
    "best_round": N_("the better single round"),
    "fewer_reentries": N_("fewer re-entries"),
    "last_round": N_("more points in the latest round"),
}
DEFAULT_TIEBREAKS: Final = ("best_round", "fewer_reentries", "last_round")

#: How a re-entry's chips count in the round's points. "counted" (the default, ABAQ's
#: regulation, Art. 8): every chip on the table at the end is a point, bought ones included;
#: "repaid": the new stack is paid back out of the chips counted at the end (a re-entry buys the
#: right to go on playing, not points).
REENTRY_POINTS: Final[dict[str, str]] = {
    "counted": N_("Every chip counted at the end is a point, a re-entry's included (ABAQ regulation)"),
    "repaid": N_("A re-entry's chips are taken back from the round's points (a re-entry buys play, not points)"),
}

#: The deals a table of five plays where its dealer sits out (Quatrilho). "per_table": the
#: round's deals, as a table of four, so each of its players plays four deals in five (32 of
#: 40); "per_player": 5/4 of them (50 for 40), so that everyone plays as many deals as at four.
FIVE_DEALS: Final[dict[str, str]] = {
    "per_table": N_("The same deals as a table of four: each of its players plays 4 in 5 (32 of 40)"),
    "per_player": N_("A quarter more deals (50 for 40): each of its players plays as many as at a table of four"),
}

MAX_ROUNDS = 20
MAX_CHIPS = 10_000
MAX_DEALS = 400
MINUTES = (15, 8 * 60)


def get(championship_id: str) -> Championship | None:
    return db.session.get(Championship, championship_id) if isinstance(championship_id, str) else None


def _whole(raw: object, *, field: str, low: int, high: int, sentence: str) -> int:
    """A whole number typed or sent, between ``low`` and ``high``."""
    if isinstance(raw, str) and raw.strip().isascii() and raw.strip().isdigit() and len(raw.strip()) <= 6:
        raw = int(raw.strip())
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise InvalidInput(Text(sentence, low=low, high=high), field=field)
    return raw


def create(*, locale: object = None, **fields: object) -> Championship:
    """Check everything (:func:`check`), then store the championship (committed)."""
    row = Championship(
        id=access.new_table_id(),
        locale=table_language(locale),
        version=0,
        **check(**fields),
    )
    db.session.add(row)
    db.session.commit()
    return row


def check(
    *,
    name: object,
    game: object,
    options: object = None,
    chips: object = 100,
    rounds: object = 5,
    deals: object = None,
    minutes: object = None,
    table_size: object = 4,
    late_until: object = 1,
    reentries: object = None,
    reentry_points: object = "counted",
    five_deals: object = "per_table",
    reentry_when: object = "out",
    tiebreaks: object = DEFAULT_TIEBREAKS,
    money: object = None,
) -> dict[str, Any]:
    """Every setting checked, as the model's columns; the first wrong one refused with its
    sentence. One check for a new championship and for one changed before its first draw. A
    round ends after ``deals`` deals or after ``minutes``: exactly one of the two; ``reentries``
    None or empty is no limit (the national regulation's reading); ``money``, the form's fees
    and Pix key (:func:`.money.read_settings`)."""
    title = clean_title(name)
    if not title:
        raise InvalidInput(Text(N_("Give the championship a name.")), field="name")
    if game not in GAMES:
        raise InvalidInput(
            Text(N_("A championship is played at a chip game: %(games)s."), games=", ".join(GAMES)), field="game"
        )
    rules = get_game(game)
    size = _whole(table_size, field="table_size", low=4, high=5, sentence=N_("Tables seat 4 or 5 players."))
    if size not in rules.player_counts:
        raise RulesError(Text(N_("%(game)s is not played at tables of five."), game=rules.name), field="table_size")
    stack = _whole(
        chips, field="chips", low=1, high=MAX_CHIPS, sentence=N_("Each entry receives from %(low)s to %(high)s chips.")
    )
    # The tables show every player's stack from the game's stock option.
    raw_options = rules.with_stock(options if isinstance(options, dict) else {}, stack)
    parsed = for_points(rules.slug, raw_options)
    count = _whole(
        rounds,
        field="rounds",
        low=1,
        high=MAX_ROUNDS,
        sentence=N_("A championship has from %(low)s to %(high)s rounds."),
    )
    round_deals, round_minutes = _round_end(deals, minutes, size)
    late = _whole(
        late_until,
        field="late_until",
        low=0,
        high=count,
        sentence=N_("Late entries are taken until a round from %(low)s to %(high)s."),
    )
    again = None
    if reentries not in (None, ""):
        again = _whole(
            reentries, field="reentries", low=0, high=9, sentence=N_("Re-entries per round: from %(low)s to %(high)s.")
        )
    if reentry_points not in REENTRY_POINTS:
        raise InvalidInput(Text(N_("Choose how a re-entry's chips count.")), field="reentry_points")
    if five_deals not in FIVE_DEALS:
        raise InvalidInput(Text(N_("Choose how many deals a table of five plays.")), field="five_deals")
    if reentry_when not in ("out", "asked"):  # referee.championship.entries.REENTRY_WHEN
        raise InvalidInput(
            Text(N_("Choose when a table recorded hand by hand takes a re-entry.")), field="reentry_when"
        )
    return {
        "name": title,
        "game": rules.slug,
        "options": parsed,
        "chips": stack,
        "rounds": count,
        "deals": round_deals,
        "minutes": round_minutes,
        "table_size": size,
        "late_until": late,
        "reentries": again,
        "reentry_points": str(reentry_points),
        "five_deals": str(five_deals),
        "reentry_when": str(reentry_when),
        "tiebreaks": _tiebreaks(tiebreaks),
        **read_money(money),
    }


def for_points(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The house rules of a championship's tables: ``options`` with no money on a chip.

    A championship's chips are points for the ranking; the prizes are the organiser's business,
    not a debt between tablemates. With a chip value, a round table's settle-up would show
    payments in money and each payee's Pix code, to players who never agreed to play for money,
    and the table's page is reached from a championship read by everyone in the room."""
    rules = get_game(game)
    return rules.options_json(rules.parse_options(rules.without_money(options)))


def _round_end(deals: object, minutes: object, size: int) -> tuple[int | None, int | None]:
    """A number of deals that every player deals equally (a multiple of the table size), or a
    clock; never both, never neither."""
    has_deals = deals not in (None, "", 0)
    has_minutes = minutes not in (None, "", 0)
    if has_deals == has_minutes:
        raise InvalidInput(Text(N_("A round ends after a number of deals or after a time: choose one.")), field="deals")
    if has_minutes:
        low, high = MINUTES
        return None, _whole(
            minutes, field="minutes", low=low, high=high, sentence=N_("A round lasts from %(low)s to %(high)s minutes.")
        )
    count = _whole(
        deals, field="deals", low=size, high=MAX_DEALS, sentence=N_("A round has from %(low)s to %(high)s deals.")
    )
    if count % size:
        raise RulesError(
            Text(
                N_("%(deals)s deals do not go round a table of %(size)s evenly: choose a multiple of %(size)s."),
                deals=count,
                size=size,
            ),
            field="deals",
        )
    return count, None


def _tiebreaks(raw: object) -> list[str]:
    if isinstance(raw, str) or not isinstance(raw, Sequence):
        raise InvalidInput(Text(N_("Choose the order of the tie-breaks.")), field="tiebreaks")
    order = [str(item) for item in raw if item]
    if any(item not in TIEBREAKS for item in order) or len(set(order)) != len(order):
        raise InvalidInput(Text(N_("Each tie-break can be chosen once, from the list.")), field="tiebreaks")
    return order


def playing_at(championship: Championship, seats: int) -> int:
    """How many of a table's ``seats`` play each deal: one fewer where the game's dealer sits
    out (Quatrilho at five), else all of them."""
    rules = get_game(championship.game)
    if seats not in rules.player_counts:
        return seats
    names = [f"p{i}" for i in range(seats)]
    out = rules.sitting_out(names, names[0], rules.parse_options(dict(championship.options)))
    return seats - (out is not None)


def deals_at(championship: Championship, seats: int) -> int | None:
    """The deals a table of ``seats`` plays in a round, always a multiple of ``seats`` so that
    everyone at every table deals equally, and at least one deal each.

    "per_table" (:data:`FIVE_DEALS`): the round's deals, or the largest multiple of ``seats``
    below them when they do not go round that table evenly. "per_player": as many as make each
    of its players play the deals a player plays at a table of the championship's size (50 at a
    Quatrilho table of five for 40 at fours), rounded down to a multiple of ``seats``."""
    if championship.deals is None:
        return None
    if championship.five_deals == "per_player":
        size = championship.table_size
        each = championship.deals * playing_at(championship, size) // size
        wanted = each * seats // playing_at(championship, seats)
        return max(seats, wanted - wanted % seats)
    return max(seats, championship.deals - championship.deals % seats)


def played_at(championship: Championship, seats: int) -> int | None:
    """The deals each player of a table of ``seats`` plays in a round (the dealer's sit-outs
    taken off): what the plan says of a table of five."""
    deals = deals_at(championship, seats)
    return None if deals is None else deals * playing_at(championship, seats) // seats


def describe(championship: Championship) -> dict[str, Any]:
    """The settings as the pages state them, in the reader's language."""
    return {
        "game": get_game(championship.game).name,
        "tiebreaks": [gettext(TIEBREAKS[key]) for key in championship.tiebreaks],
        "reentry_points": gettext(REENTRY_POINTS[championship.reentry_points]),
        "five_deals": gettext(FIVE_DEALS.get(championship.five_deals, FIVE_DEALS["per_table"])),
    }
