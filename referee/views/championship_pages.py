"""What every championship page is built from: finding the championship (and a round's table)
or answering 404, the top every page shows, the live version its watchers poll, and a player's
card. The public pages, the manager's and the money desk's all draw from here, so none of them
imports another page module.
"""

from __future__ import annotations

import time
from typing import Any

from flask import abort, url_for
from flask_babel import gettext as _

from referee import championship, club, qr
from referee.championship import lookups
from referee.championship.settings import describe
from referee.models import Championship, Entry, RoundTable, Table

#: While a round is played, how often the live pages' ranking is drawn again (seconds). A busy
#: round records a hand somewhere every few seconds; with every phone on the wall redrawing the
#: whole ranking at each one, the ranking's renders would crowd out the scorers' saves. So the
#: hands move the version by the clock: the same for every process of the server at the same
#: moment (a version read from one worker and then another must not differ, or every poll would
#: redraw), and every watcher redraws from one render per process. What the organiser and the
#: fiscals do (a registration, a re-entry, a signature, a draw) moves it at once.
LIVE_EVERY = 10


def load(championship_id: str) -> Championship:
    found = championship.get(championship_id)
    if found is None:
        abort(404)
    return found


def load_table(found: Championship, round_number: int, table_number: int) -> tuple[RoundTable, Table]:
    row = lookups.round_table(found, round_number, table_number)
    if row is None:
        abort(404)
    table = lookups.referee_table(row.table_id)
    assert table is not None
    return row, table


def live_version(found: Championship) -> str:
    """The championship's own writes, the round being played and, while one of its tables is not
    signed off, the clock's :data:`LIVE_EVERY`-second tick."""
    number = championship.current_round(found)
    playing = lookups.unsigned_tables(found, number)
    tick = f".{int(time.time()) // LIVE_EVERY}" if playing else ""
    return f"{found.version}.{number}{tick}"


def names(found: Championship) -> dict[int, Entry]:
    return lookups.entries_by_id(found)


def common(found: Championship) -> dict[str, Any]:
    """What every championship page shows at its top."""
    number = championship.current_round(found)
    this_round = lookups.drawn_round(found, number) if number else None
    return {
        "champ": found,
        "about": describe(found),
        "round_number": number,
        "this_round": this_round,
        "manager": club.is_manager(),
        "version": live_version(found),
    }


def player_card(found: Championship, entry: Entry) -> dict[str, Any]:
    url = url_for("championship.player", championship_id=found.id, number=entry.number, _external=True)
    return {"entry": entry, "qr": qr.svg(url, label=_("QR code of %(name)s's page", name=entry.name))}
