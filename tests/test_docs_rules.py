"""docs/rules.md explains every house-rule option, and every option's ``rule_ref`` points at it.

What a game must have (docs/games.md, "What the tests check"): each ``OptionSpec`` with a
``rule_ref`` names ``docs/rules.md#<anchor>``, where ``<anchor>`` is a heading's slug in
docs/rules.md (``### El Gato options`` is ``el-gato-options``) or an ``<a id="<anchor>"></a>``
line just before a heading; and the text under that heading, up to the next one, names the
option in backticks (`` `stake` ``). An option without a ``rule_ref`` is not checked."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from referee.rules import GAMES
from referee.rules.options import OptionSpec

RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def _anchors(text: str) -> set[str]:
    """The fragments a link into the page can name: explicit ids and the headings' own slugs."""
    explicit = set(re.findall(r'<a id="([^"]+)"></a>', text))
    headings = {_slug(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)}
    return explicit | headings


def _slug(heading: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9 -]", "", ascii_text.lower()).strip().replace(" ", "-")


def _section(text: str, anchor: str) -> str:
    """The text under the heading ``anchor`` names (its slug, or an id just before it), up to the next heading."""
    blocks = re.split(r"^(?=#+ |<a id=)", text, flags=re.MULTILINE)
    for i, block in enumerate(blocks):
        first = block.splitlines()[0] if block else ""
        if first == f'<a id="{anchor}"></a>':
            return blocks[i + 1]
        if first.startswith("#") and _slug(first.lstrip("# ")) == anchor:
            return block
    raise AssertionError(f"docs/rules.md has no section {anchor}")


def _specs(slug: str) -> tuple[OptionSpec, ...]:
    return tuple(GAMES[slug].option_specs)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_rule_ref_points_at_a_section_of_docs_rules_md(slug: str) -> None:
    text = RULES_MD.read_text(encoding="utf-8")
    anchors = _anchors(text)
    for spec in _specs(slug):
        if not spec.rule_ref:
            continue
        path, _, anchor = spec.rule_ref.partition("#")
        assert path == "docs/rules.md" and anchor in anchors, (
            f"{slug}: option {spec.name}'s rule_ref {spec.rule_ref} names no heading of docs/rules.md"
        )
        assert f"`{spec.name}`" in _section(text, anchor), (
            f"{slug}: docs/rules.md#{anchor} does not name the option `{spec.name}` in backticks"
        )
