"""The layers contract: imports point down, and the views hold no SQL.

From the bottom up: ``referee.rules`` (pure), then the domain modules (the ledger, the models,
the league, the championships, exports, the API...), then the pages (``referee.views``), and
the app factory (``referee/__init__.py``) on top, which wires them together. Every import of
every module is read from its source (imports inside functions too, which a cycle hides behind),
so the contract holds however the modules are loaded.

The rules' purity in a fresh interpreter is tests/test_purity.py's; this is about referee's own
modules among themselves.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "referee"

#: View modules that are helpers of the other views, holding no page of their own (or, for a
#: game's registration and the recording flow, what every game's pages are built from).
SHARED_VIEWS = frozenset(
    {
        "referee.views.boost",
        "referee.views.championship_manage_page",
        "referee.views.championship_pages",
        "referee.views.flow",
        "referee.views.games",
        "referee.views.games.made",
        "referee.views.games.pages",
        "referee.views.labels",
        "referee.views.new_table",
        "referee.views.organiser",
        "referee.views.phone_tables",
        "referee.views.polling",
        "referee.views.short_flow",
        "referee.views.table_page",
        "referee.views.trust_card",
    }
)

#: What a view may ask of the database session itself: ending its transaction (a thin view
#: commits or rolls back what one domain call wrote). Every read and write is a domain module's.
SESSION_CALLS_ALLOWED = frozenset({"commit", "rollback"})
SQL_BUILDERS = frozenset({"select", "insert", "update", "delete", "text", "func", "exists", "and_", "or_"})


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        if "migrations" in parts:
            continue  # alembic's scripts run apart from the app
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _owner(name: str) -> str | None:
    """The referee module an imported name lives in: the module itself, or the nearest package
    or module above it (``referee.ledger.get_table`` -> ``referee.ledger``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str) -> Iterator[str]:
    """Every referee module that ``module`` imports, anywhere in its source."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            names = [f"{source}.{a.name}" if f"{source}.{a.name}" in MODULES else source for a in node.names]
        else:
            continue
        for name in names:
            owner = _owner(name) if name.split(".")[0] == "referee" else None
            if owner is not None and owner != module:
                yield owner


GRAPH = {module: set(_imports(module)) for module in MODULES}


def _cycles() -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in GRAPH[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    return found


def _is_view(module: str) -> bool:
    return module == "referee.views" or module.startswith("referee.views.")


def test_the_modules_are_found() -> None:
    assert {"referee", "referee.rules", "referee.ledger", "referee.views.tables"} <= MODULES.keys()
    assert "referee.ledger" in GRAPH["referee.views.tables"]


def test_no_import_cycles() -> None:
    cycles = _cycles()
    assert not cycles, [sorted(c) for c in cycles]


def test_the_rules_import_nothing_of_referee_but_the_rules() -> None:
    bad = {
        (module, target)
        for module, targets in GRAPH.items()
        if module.startswith("referee.rules")
        for target in targets
        if not target.startswith("referee.rules")
    }
    assert not bad, sorted(bad)


def test_nothing_below_the_views_imports_them() -> None:
    bad = {
        (module, target)
        for module, targets in GRAPH.items()
        if module != "referee" and not _is_view(module)  # the app factory registers the pages
        for target in targets
        if _is_view(target)
    }
    assert not bad, sorted(bad)


def _game_of(module: str) -> str | None:
    """The game whose web side ``module`` is part of (``referee.views.games.koziri.tools`` ->
    ``referee.views.games.koziri``), or None."""
    parts = module.split(".")
    return ".".join(parts[:4]) if parts[:3] == ["referee", "views", "games"] and len(parts) > 3 else None


def test_views_import_only_shared_view_helpers() -> None:
    """A page module imports another only if that one is a declared helper, or a part of the
    same game's web side (a game's package, such as Koziri's, holds its parts together)."""
    found = {
        (module, target)
        for module, targets in GRAPH.items()
        if _is_view(module)
        for target in targets
        if _is_view(target) and target not in SHARED_VIEWS and (_game_of(module) or "") != _game_of(target)
    }
    assert not found, sorted(found)


def test_the_shared_view_helpers_hold_no_page() -> None:
    """A module declared a helper really is one: it registers no page (no Blueprint), so the list
    above cannot turn a page module into a library by naming it."""
    pages = {module for module in SHARED_VIEWS if "Blueprint(" in MODULES[module].read_text(encoding="utf-8")}
    assert not pages, sorted(pages)


def _sql_in(path: Path) -> list[str]:
    """The SQL a module holds: SQLAlchemy imported, a query built, or the session asked for rows."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sqlalchemy":
            found.append(f"line {node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Import) and any(a.name.split(".")[0] == "sqlalchemy" for a in node.names):
            found.append(f"line {node.lineno}: import sqlalchemy")
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "session"
            and node.attr not in SESSION_CALLS_ALLOWED
        ):
            found.append(f"line {node.lineno}: session.{node.attr}")
        elif (
            isinstance(node, ast.Attribute)
            and node.attr == "query"
            and isinstance(node.value, ast.Name)
            and node.value.id[:1].isupper()  # Flask-SQLAlchemy's Model.query, not a URL's query
        ):
            found.append(f"line {node.lineno}: {node.value.id}.query")
    return found


def test_the_views_hold_no_sql() -> None:
    found = {module: sql for module, path in MODULES.items() if _is_view(module) for sql in [_sql_in(path)] if sql}
    assert not found, found


def test_the_sql_check_sees_a_query_and_not_a_commit(tmp_path: Path) -> None:
    source = tmp_path / "page.py"
    source.write_text("from referee.db import db\ndb.session.commit()\ndb.session.rollback()\n")
    assert _sql_in(source) == []
    source.write_text("from referee.db import db\nrows = db.session.scalars(query)\n")
    assert _sql_in(source) == ["line 2: session.scalars"]
    source.write_text("from sqlalchemy import select\n")
    assert _sql_in(source) == ["line 1: from sqlalchemy import ..."]
