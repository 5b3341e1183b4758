"""The one bridge between the database and the rules.

Views and the API call these functions; these call the rules engine and the models. The
package holds, each in its module:

- :mod:`.tables`: a table as stored (its game, house rules, players and teams, its rematch);
  :mod:`.create`: making a table and its rematch;
- :mod:`.state`: the derived state kept on the table row, the write lock, the standing;
- :mod:`.hands`: recording, previewing, correcting and voiding hands (:mod:`.results` is what
  is stored of a hand, :mod:`.idempotency` the keys of retried writes, :mod:`.pots` the chips
  left on the table between deals, :mod:`.history` the hands as stored);
- :mod:`.two_key`: confirmations and disputes; :mod:`.controls`: the owner's controls;
  :mod:`.clock`: the session clock and the last round; :mod:`.overview`: the home page's tables;
- :mod:`.settlement`: the settle-up of one table or of a night's tables.

Writes to one table run one after the other: each takes the table's write lock before it
reads the state it judges, so twenty phones recording at once store twenty hands, numbered in
the order the lock was granted, and nobody is refused for having been second.

The API renders its answers from what these functions return (referee.api.answers).
"""

from __future__ import annotations

from .cleaning import NAME_MAX, REASON_MAX, TABLE_NAME_MAX
from .clock import CLOCK_MINUTES, clock, declare_last_round, last_round, set_clock
from .controls import change_options, finish_table, has_hands, reopen_table, set_two_key
from .create import create_table, rematch
from .errors import Conflict, NotFound
from .hands import BY_API, BY_SCORER, preview_hand, record_hand, restore_hand, restore_key, void_hand
from .history import (
    Entry,
    Numbering,
    all_hands,
    deals_done,
    get_hand,
    last_live_hand,
    numbering,
    recent_entries,
    recent_hands,
)
from .idempotency import stored_number
from .overview import Overview, overview
from .pots import chips_carried_in, on_the_table, pot_shown
from .results import Preview, as_it_stands
from .settlement import (
    ChipsLeft,
    Payment,
    SettleUp,
    chip_value,
    chips_left,
    members_of,
    money,
    settle_together,
    settle_up,
    settlement,
    stock,
    stock_left,
    to_settle,
)
from .state import (
    current_dealer,
    live_hands,
    match_over,
    match_winners,
    next_number,
    place_count,
    rebuild_state,
    standing,
    totals,
)
from .tables import (
    LOCALES,
    get_table,
    group_teams,
    match_rematch,
    options_of,
    players_of,
    rematch_of,
    rules_of,
    teams_of,
)
from .two_key import agreed, confirm_hand, dispute_hand, to_confirm

__all__ = [
    "BY_API",
    "BY_SCORER",
    "CLOCK_MINUTES",
    "LOCALES",
    "NAME_MAX",
    "REASON_MAX",
    "TABLE_NAME_MAX",
    "Conflict",
    "Entry",
    "NotFound",
    "Numbering",
    "Overview",
    "Payment",
    "Preview",
    "SettleUp",
    "agreed",
    "all_hands",
    "as_it_stands",
    "change_options",
    "chip_value",
    "chips_carried_in",
    "clock",
    "confirm_hand",
    "create_table",
    "current_dealer",
    "declare_last_round",
    "dispute_hand",
    "finish_table",
    "get_hand",
    "get_table",
    "group_teams",
    "has_hands",
    "last_live_hand",
    "last_round",
    "deals_done",
    "live_hands",
    "match_over",
    "match_winners",
    "members_of",
    "money",
    "next_number",
    "numbering",
    "on_the_table",
    "pot_shown",
    "chips_left",
    "ChipsLeft",
    "options_of",
    "overview",
    "place_count",
    "players_of",
    "preview_hand",
    "rebuild_state",
    "recent_entries",
    "recent_hands",
    "record_hand",
    "reopen_table",
    "restore_hand",
    "restore_key",
    "rematch",
    "rematch_of",
    "match_rematch",
    "rules_of",
    "set_clock",
    "set_two_key",
    "settle_together",
    "settle_up",
    "settlement",
    "standing",
    "stock",
    "stock_left",
    "stored_number",
    "teams_of",
    "to_confirm",
    "to_settle",
    "totals",
    "void_hand",
]
