"""The stylesheet's blocks are all closed. One missing ``}`` after a ``@media print`` block is no
parse error: the browser silently reads every rule below it as print-only, and the phone, the TV
and the desk lose their layout (a merge once did exactly that to the wall, the prize list and the
manager's table-card form)."""

from __future__ import annotations

import re
from pathlib import Path

from referee import WEB_ROOT

CSS = Path(WEB_ROOT) / "static" / "css" / "app.css"


def depths(text: str) -> list[tuple[int, int]]:
    """(line number, nesting depth after it) for every line, comments and strings left out."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), text, flags=re.S)
    text = re.sub(r"\"[^\"\n]*\"|'[^'\n]*'", "''", text)
    depth, seen = 0, []
    for number, line in enumerate(text.splitlines(), 1):
        depth += line.count("{") - line.count("}")
        assert depth >= 0, f"app.css:{number}: a '}}' closes nothing"
        seen.append((number, depth))
    return seen


def test_every_block_of_the_stylesheet_is_closed() -> None:
    seen = depths(CSS.read_text("utf-8"))
    assert seen[-1][1] == 0, "app.css ends inside a block: a '}' is missing"


def test_the_screen_rules_of_the_championship_pages_are_not_print_only() -> None:
    text = CSS.read_text("utf-8")
    at = dict(depths(text))
    lines = text.splitlines()
    for selector in (".renew-cards {", ".wall-page {", ".prize-list,", ".player-now {"):
        number = next(i for i, line in enumerate(lines, 1) if line.startswith(selector))
        assert at[number - 1] == 0, f"app.css:{number}: {selector} sits inside another block"
