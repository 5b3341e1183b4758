"""A game's kind (referee.rules.kinds) answers what the shared modules ask of a game.

The scan keeps it so: outside the rules and a game's own view module, no module reads a
kind's loose flags (``.scored``, ``.pots``, ``.loser_field``), asks whether a game is a
patience by name or by its player count, or compares against a game's slug.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from referee.rules import GAMES
from referee.rules.kinds import KINDS, LOSSES, MATCH, PATIENCE, PAYMENTS, POT, Kind

ROOT = Path(__file__).resolve().parent.parent
#: The game's own code may know its game; the migrations record history as it was.
OWN = ("referee/rules/", "referee/views/games/", "referee/migrations/")
#: The game's loose flags, and the names of the options holding its stock, chip value, ante and goal:
#: a shared module asks the game (``game.with_stock``, ``game.ante_in``, ...) instead.
FLAGS = {"scored", "pots", "loser_field", "is_patience", "stock_option", "money_option", "ante_option", "goal_option"}
#: A kind's named answers: a shared module that compares one with a string branches on which kind
#: it holds, where the kind should answer the question itself.
KIND_FIELDS = {field.name for field in dataclasses.fields(Kind)}


def _shared_modules() -> list[Path]:
    return [
        path
        for path in sorted((ROOT / "referee").rglob("*.py"))
        if not path.relative_to(ROOT).as_posix().startswith(OWN)
    ]


def _strings(node: ast.AST) -> list[str]:
    """The string constants a comparison's side holds (itself, or a tuple/list/set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [s for elt in node.elts for s in _strings(elt)]
    return []


def _kind_answer(node: ast.AST) -> str | None:
    """The kind's field a comparison's side reads (``x.kind.board``, or a local named after a
    kind's field, as in ``ranked_by = game.kind.ranked_by``), if any."""
    if isinstance(node, ast.Attribute) and node.attr in KIND_FIELDS:
        owner = node.value
        if (isinstance(owner, ast.Attribute) and owner.attr == "kind") or (
            isinstance(owner, ast.Name) and owner.id == "kind"
        ):
            return node.attr
    if isinstance(node, ast.Name) and node.id in KIND_FIELDS - {"name"}:
        return node.id
    return None


def _findings(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in FLAGS:
            found.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Name) and node.id == "is_patience":
            found.append(f"{node.lineno}: {node.id}")
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr == "max_players" for s in sides) and any(
                isinstance(s, ast.Constant) and s.value == 1 for s in sides
            ):
                found.append(f"{node.lineno}: max_players against 1")
            slugs = [s for side in sides for s in _strings(side) if s in GAMES]
            if slugs:
                found.append(f"{node.lineno}: compares with slug {slugs[0]!r}")
            answers = [a for a in map(_kind_answer, sides) if a]
            if answers and any(_strings(side) for side in sides):
                found.append(f"{node.lineno}: compares the kind's {answers[0]} with a string")
        elif isinstance(node, ast.Subscript) and any(s in GAMES for s in _strings(node.slice)):
            found.append(f"{node.lineno}: subscript by slug")
    return found


def test_no_shared_module_asks_a_game_slug_or_a_kind_flag() -> None:
    problems = [
        f"{path.relative_to(ROOT)}:{finding}"
        for path in _shared_modules()
        for finding in _findings(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert problems == []


def test_no_template_asks_a_kind_flag() -> None:
    flag = re.compile(
        r"\brules\.(scored|pots|loser_field)\b|max_players\s*==\s*1"
        r"|\b(board|ranked_by|rated_by)\s*(==|!=|in|not in)\s*[\"'(\[]"
    )
    problems = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "templates").rglob("*.html"))
        if flag.search(path.read_text(encoding="utf-8"))
    ]
    assert problems == []


def test_the_scan_finds_what_it_forbids() -> None:
    source = 'a.scored\nb.pots\nis_patience(g)\nif g.max_players == 1: pass\nif s == "samba": pass\nGAMES["injun"]\n'
    assert len(_findings(ast.parse(source))) == 6
    assert _findings(ast.parse('bp = Blueprint("koziri", __name__)\nif g.kind.solo: pass\n')) == []
    kinds = 'g.kind.board == "patience"\nkind.ranked_by != "losses"\nranked_by = k.ranked_by\nranked_by in ("net",)\n'
    assert len(_findings(ast.parse(kinds))) == 3
    assert _findings(ast.parse('seat.name == "Ana"\nkind.name\nf"{kind.rated_by}"\n')) == []


def test_each_game_declares_its_kind() -> None:
    assert {slug: game.kind for slug, game in GAMES.items()} == {
        "jubileu": PAYMENTS,
        "quatrilho": PAYMENTS,
        "koziri": PAYMENTS,
        "samba": MATCH,
        "injun": POT,
        "kentucky_derby": POT,
        "lift_smoke": POT,
        "el_gato": LOSSES,
        "relogio": PATIENCE,
        "cachorro": PATIENCE,
    }
    assert {kind.name for kind in KINDS} == {"payments", "pot", "losses", "match", "patience"}


def test_what_each_kind_answers() -> None:
    answers = {
        k.name: (k.board, k.ranked_by, k.rated_by, k.settle_up, k.solo, k.points_match, k.carries_pot) for k in KINDS
    }
    assert answers == {
        "payments": ("payments", "net", "hands", True, False, False, False),
        "pot": ("payments", "net", "hands", True, False, False, True),
        "losses": ("payments", "losses", "hands", True, False, False, False),
        "match": ("match", "matches", "matches", False, False, True, False),
        "patience": ("patience", "patience", "hands", True, True, False, False),
    }


def _row(name: str, **figures: float) -> SimpleNamespace:
    base = {"member_id": 1, "hands": 10, "net": 0, "won": 0, "average": 0.0, "loss_rate": 0.0, "win_rate": 0.0}
    return SimpleNamespace(name=name, **{**base, **figures})


def test_each_kind_ranks_by_its_own_figure() -> None:
    rich = _row("Ana", net=50, average=5.0, won=1, loss_rate=0.5, win_rate=0.1)
    winner = _row("Bia", net=-10, average=-1.0, won=3, loss_rate=0.4, win_rate=0.9)
    lucky = _row("Caio", net=-20, average=-2.0, won=2, loss_rate=0.1, win_rate=0.95)
    rows = [rich, winner, lucky]
    first = {k.name: min(rows, key=k.rank_key).name for k in KINDS}
    assert first == {"payments": "Ana", "pot": "Ana", "match": "Bia", "patience": "Bia", "losses": "Caio"}
    # Ties fall back to the name, then the member.
    assert [r.name for r in sorted([_row("bob"), _row("Al")], key=PAYMENTS.rank_key)] == ["Al", "bob"]


def test_a_game_answers_its_options_facts() -> None:
    samba, relogio, lift_smoke, derby, jubileu = (
        GAMES[s] for s in ("samba", "relogio", "lift_smoke", "kentucky_derby", "jubileu")
    )
    assert samba.goal(samba.parse_options({"target": 5000})) == 5000
    assert relogio.goal(relogio.parse_options({"sequences_to_win": 4})) == 4
    assert jubileu.goal(jubileu.parse_options({})) is None
    assert lift_smoke.ante(lift_smoke.parse_options({"ante": 2})) == 2
    assert derby.ante(derby.parse_options({"pingo": 3})) == 3
    assert jubileu.ante(jubileu.parse_options({})) == 0
    assert GAMES["el_gato"].loser_in({"loser": "Ana"}) == "Ana"
    assert jubileu.loser_in({"loser": "Ana"}) is None


def test_a_declaration_that_contradicts_its_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="solo"):
        dataclasses.replace(GAMES["samba"], kind=PATIENCE)
    with pytest.raises(ValueError, match="solo"):
        dataclasses.replace(GAMES["relogio"], kind=PAYMENTS)
    with pytest.raises(ValueError, match="loser"):
        dataclasses.replace(GAMES["jubileu"], kind=LOSSES)
    with pytest.raises(ValueError, match="loser"):
        dataclasses.replace(GAMES["el_gato"], kind=PAYMENTS)


def test_each_kind_answers_the_questions_the_shared_pages_ask() -> None:
    answers = {k.name: (k.counts_wins, k.counts_losses, k.rates_matches) for k in KINDS}
    assert answers == {
        "payments": (False, False, False),
        "pot": (False, False, False),
        "losses": (False, True, False),
        "match": (False, False, True),
        "patience": (True, False, False),
    }
    # Every kind's scoreboard is a partial the pages can include.
    assert all((ROOT / "templates" / k.board_template).is_file() for k in KINDS)
