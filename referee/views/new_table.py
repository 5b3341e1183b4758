"""The new-table form's own checks and its seating drawing.

A player filling in the form on a phone should see every mistake at once, each next to its
field, with what was typed kept: a missing or repeated name, a first dealer who is not seated, a
house rule the engine refuses. So the form is checked field by field here, with the engine's own
checks (names, options), before the table is created; the engine still judges the whole again
when it stores the table (:func:`referee.ledger.create_table`).
"""

from __future__ import annotations

import math
from typing import Any

from flask_babel import gettext as _

from referee.forms import OPTION_PREFIX, option_values
from referee.i18n import render_text
from referee.inputs import strip_bidi
from referee.ledger.cleaning import clean_name
from referee.ledger.create import repeated_name, repeated_names
from referee.rules.errors import RulesError
from referee.views import flow


def seat_names(form: Any, rules: Any) -> list[str]:
    """The names typed in each seat, spaces tidied and bidirectional controls dropped (as the
    ledger stores them); "" for an empty seat."""
    typed = [strip_bidi(getattr(form, f"player_{i}").data or "") for i in range(rules.max_players)]
    return [" ".join(name.split()) for name in typed]


def mark_mistakes(form: Any, rules: Any) -> bool:
    """Mark every mistake of the posted form next to its field; answers whether there was any.
    The WTForms validators (lengths) have run already and their marks stay."""
    names = seat_names(form, rules)
    found = any(field.errors for field in form)
    found |= _mark_names(form, names, rules)
    found |= _mark_dealer(form, names, rules)
    found |= _mark_options(form, rules)
    return found


def _mark(field: Any, sentence: str) -> bool:
    field.errors = [*field.errors, sentence] if isinstance(field.errors, list) else [sentence]
    return True


def _mark_names(form: Any, names: list[str], rules: Any) -> bool:
    """A seat left empty before the last one named (or below the game's minimum), a name the
    engine refuses, a name given twice (whatever the case)."""
    found = False
    last_named = max((i for i, name in enumerate(names) if name), default=-1)
    repeated = set(repeated_names(names))
    for i, name in enumerate(names):
        field = getattr(form, f"player_{i}")
        if not name:
            if i < rules.min_players or i < last_named:
                found = _mark(field, _("Write this player's name."))
            continue
        try:
            clean_name(name, field=f"players[{i}]")
        except RulesError as exc:
            found = _mark(field, render_text(exc.text))
            continue
        if i in repeated:
            found = _mark(field, render_text(repeated_name(name)))
    return found


def dealer_seat(form: Any, rules: Any) -> int:
    """The seat chosen to deal first; by default ("" or nothing) the last seat named."""
    chosen = form.dealer.data or ""
    if chosen == "":
        named = [i for i, name in enumerate(seat_names(form, rules)) if name]
        return named[-1] if named else rules.max_players - 1
    seat = flow.small_int(chosen, rules.max_players)
    return -1 if seat is None else seat


def _mark_dealer(form: Any, names: list[str], rules: Any) -> bool:
    """The first dealer must be one of the players named: a forged seat number, or a seat left
    empty, is refused with a sentence."""
    seat = dealer_seat(form, rules)
    if 0 <= seat < len(names) and names[seat]:
        return False
    form.dealer.errors = [_("Choose the first dealer among the players at the table.")]
    return True


def _mark_options(form: Any, rules: Any) -> bool:
    """Each house rule on its own, as the engine reads it; then all together."""
    found = False
    values = option_values(form, rules)
    for name, value in values.items():
        try:
            rules.parse_options({name: value})
        except RulesError as exc:
            found = _mark(getattr(form, OPTION_PREFIX + name), render_text(exc.text))
    return found


# --------------------------------------------------------------------------- the drawing


def seating_drawings(rules: Any, names: list[str], shown: int) -> dict[str, Any]:
    """The seat drawings the form carries, one per table size the game is played at, and the
    size drawn now: as many seats as names typed (at least the game's minimum), or the seats
    shown while fewer than that are named. app.js shows the one matching the names as they are
    typed; without JavaScript the one drawn here stays."""
    named = sum(1 for name in names if name)
    sizes = [n for n in rules.player_counts if n >= 2]
    drawn = named if named >= rules.min_players else shown
    return {
        "sizes": [seating_drawing(n, rules.passes_to) for n in sizes],
        "drawn": min(max(drawn, sizes[0]), sizes[-1]) if sizes else 0,
        "passes_to": rules.passes_to,
    }


def seating_drawing(seats: int, passes_to: str = "right") -> dict[str, Any]:
    """The seats round the table drawn on the form (numbered in order of play, seat 1 nearest
    the reader), for ``seats`` players, play going round to seat 1's ``passes_to`` side: its
    right is the reader's right (counter-clockwise seen from above), its left the reader's left."""
    seats = max(2, seats)
    turn = -1 if passes_to == "right" else 1
    centre_x, centre_y, radius_x, radius_y = 100, 80, 70, 62
    points = []
    for k in range(seats):
        angle = math.pi / 2 + turn * 2 * math.pi * k / seats
        points.append((round(centre_x + radius_x * math.cos(angle)), round(centre_y + radius_y * math.sin(angle))))
    arrows = []
    for k in range(seats):
        (x1, y1), (x2, y2) = points[k], points[(k + 1) % seats]
        # a curve bowed away from the table's centre, from one seat towards the next (two seats:
        # round seat 1's side of play, then back round the other)
        if seats == 2:
            ctrl = (centre_x - turn * (95 if k == 0 else -95), centre_y)
        else:
            ctrl = (
                round(centre_x + ((x1 + x2) / 2 - centre_x) * 1.3),
                round(centre_y + ((y1 + y2) / 2 - centre_y) * 1.3),
            )
        start, end = _towards((x1, y1), ctrl, 0.3), _towards((x2, y2), ctrl, 0.3)
        arrows.append(f"M{start[0]} {start[1]} Q{ctrl[0]} {ctrl[1]} {end[0]} {end[1]}")
    return {"seats": [{"n": k + 1, "x": x, "y": y} for k, (x, y) in enumerate(points)], "arrows": arrows}


def _towards(a: tuple[int, int], b: tuple[int, int], part: float) -> tuple[int, int]:
    return round(a[0] + (b[0] - a[0]) * part), round(a[1] + (b[1] - a[1]) * part)
