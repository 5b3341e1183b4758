"""What saving one Jubileu hand costs, counted rather than timed: the Python calls (cProfile),
the SQL statements (writes apart) and how often the repeated-work suspects run (the game looked
up, the house rules parsed, the standing worked out, the auction replayed) in one request.

Two paths are counted on the same hand: the page's save (``POST /t/<id>/hand``, which also draws
the table page it answers with) and the API's (``POST /api/v1/tables/<id>/hands``). Counts, not
times, so the figures do not move with the machine's load. :func:`count_save` is what the test
of "no auction replayed or options parsed twice in one request" and ``bench_save_path`` share.
"""

from __future__ import annotations

import cProfile
import json
import pstats
import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from referee import create_app
from referee.extensions import db

PLAYERS = ("Ana", "Bia", "Caio", "Dani")
#: The page's walk to a Solo Sete by Ana (Dani deals), 9 tricks to 2, 1 and 1.
PAGE_STEPS = (
    {"action": "ultima:copas"},
    {"action": "aces:none"},
    {"action": "call:0:solo_sete"},
    {"action": "call:1:passo"},
    {"action": "call:2:passo"},
    {"action": "call:3:passo"},
    {"action": "trump:espadas"},
    {"action": "tricks", "t0": "9", "t1": "2", "t2": "1", "t3": ""},
)
#: The same hand as the API takes it.
API_RECORD = {
    "ultima": "copas",
    "auction": [["Ana", "solo_sete"], ["Bia", "passo"], ["Caio", "passo"], ["Dani", "passo"]],
    "trump": "espadas",
    "tricks": {"Ana": 9, "Bia": 2, "Caio": 1, "Dani": 1},
}
TABLE_FORM = {f"player_{i}": name for i, name in enumerate(PLAYERS)} | {"dealer": "3"}

#: The functions counted per request: a label and how to recognise it in cProfile's table
#: (the file's tail and the function's name). An auction is replayed by building one: every
#: replay (the page's draft, the engine's record) starts with a new ``Auction``.
SUSPECTS: dict[str, tuple[str, str]] = {
    "get_game": ("referee/rules/__init__.py", "get_game"),
    "options parsed": ("referee/rules/game.py", "parse_options"),
    "standing()": ("referee/ledger/state.py", "standing"),
    "auctions built": ("referee/rules/jubileu.py", "__init__"),
    "auction replayed (engine)": ("referee/rules/auction.py", "replay_pairs"),
    "draft sanitized": ("referee/views/games/jubileu.py", "sanitize"),
}
#: What must run at most once per request.
ONCE = ("options parsed", "auction replayed (engine)", "draft sanitized")
_WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.I)


@dataclass
class Counts:
    """One request's figures."""

    status: int = 0
    calls: int = 0
    functions: int = 0
    statements: list[str] = field(default_factory=list)
    suspects: dict[str, int] = field(default_factory=dict)

    @property
    def sql(self) -> int:
        return len(self.statements)

    @property
    def writes(self) -> int:
        return sum(1 for s in self.statements if _WRITE.match(s))

    @property
    def after_write(self) -> int:
        """The statements after the last write: what drawing the answer reads (the table page)."""
        last = max((i for i, s in enumerate(self.statements) if _WRITE.match(s)), default=len(self.statements) - 1)
        return len(self.statements) - 1 - last


def make_app(database_url: str | None = None) -> tuple[Flask, tempfile.TemporaryDirectory[str]]:
    """An app on a fresh migrated database (a temp SQLite file unless ``database_url``)."""
    tmp = tempfile.TemporaryDirectory(prefix="referee-save-path-")
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url or f"sqlite:///{Path(tmp.name) / 'bench.sqlite3'}",
            "WTF_CSRF_ENABLED": False,
            "SECRET_KEY": "bench",
            "INSTANCE_PATH": str(Path(tmp.name) / "instance"),
        }
    )
    return app, tmp


@contextmanager
def counted(app: Flask, counts: Counts, *, profile: bool = True) -> Iterator[None]:
    """Count the SQL statements sent and (``profile``) the Python calls made inside."""
    with app.app_context():
        engine = db.engine

    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        counts.statements.append(statement)

    event.listen(engine, "before_cursor_execute", seen)
    profiler = cProfile.Profile() if profile else None
    try:
        if profiler:
            profiler.enable()
        yield
    finally:
        if profiler:
            profiler.disable()
        event.remove(engine, "before_cursor_execute", seen)
    if profiler:
        stats = pstats.Stats(profiler)
        counts.calls = int(stats.total_calls)  # type: ignore[attr-defined]
        counts.functions = len(stats.stats)  # type: ignore[attr-defined]
        for label, (tail, name) in SUSPECTS.items():
            counts.suspects[label] = sum(
                row[1]
                for (path, _line, func), row in stats.stats.items()  # type: ignore[attr-defined]
                if func == name and path.replace("\\", "/").endswith(tail)
            )


def page_draft(client: FlaskClient, table_id: str) -> str:
    """Walk the page's flow to the hand's preview; answer the draft its confirm form carries."""
    query: dict[str, str] = {}
    for step in PAGE_STEPS:
        html = client.get(f"/t/{table_id}/hand", query_string={**query, **step}).get_data(as_text=True)
        found = re.search(r'name="d" value="([^"]*)"', html)
        assert found is not None, html[:300]
        query = {"d": unescape(found.group(1))}
    return query["d"]


def page_save(app: Flask, *, profile: bool = True) -> Counts:
    """One hand saved from the page, as a phone's outbox sends it (the answer is the table page)."""
    client = app.test_client()
    made = client.post("/tables/new?game=jubileu", data=TABLE_FORM)
    assert made.status_code == 302, made.get_data(as_text=True)[:300]
    table_id = made.headers["Location"].rsplit("/t/", 1)[1]
    draft = page_draft(client, table_id)
    counts = Counts()
    headers = {"X-Referee-Outbox": "1", "X-Swap": "true"}
    with counted(app, counts, profile=profile):
        response = client.post(f"/t/{table_id}/hand", data={"d": draft}, headers=headers)
    counts.status = response.status_code
    return counts


def api_save(app: Flask, *, profile: bool = True) -> Counts:
    """The same hand through ``POST /api/v1/tables/<id>/hands``."""
    client = app.test_client()
    made = client.post("/api/v1/tables", json={"game": "jubileu", "players": list(PLAYERS)})
    assert made.status_code == 201, made.get_data(as_text=True)[:300]
    table = made.get_json()
    counts = Counts()
    headers = {"Authorization": f"Bearer {table['token']}", "Idempotency-Key": "bench-1"}
    with counted(app, counts, profile=profile):
        response = client.post(f"/api/v1/tables/{table['id']}/hands", json=API_RECORD, headers=headers)
    counts.status = response.status_code
    return counts


def count_save(app: Flask, path: Callable[..., Counts]) -> Counts:
    """One warm-up save (imports, caches, compiled statements), then the one counted."""
    path(app, profile=False)
    return path(app)


def report(page: Counts, api: Counts) -> list[str]:
    """The figures side by side, one line each."""
    rows = [
        ("status", page.status, api.status),
        ("Python calls (cProfile)", page.calls, api.calls),
        ("functions called", page.functions, api.functions),
        ("SQL statements", page.sql, api.sql),
        ("  of which writes", page.writes, api.writes),
    ]
    rows += [(label, page.suspects.get(label, 0), api.suspects.get(label, 0)) for label in SUSPECTS]
    lines = [f"  {'':28}{'page save':>12}{'API save':>12}"]
    lines += [f"  {label:28}{p:>12}{a:>12}" for label, p, a in rows]
    drawing = page.after_write
    lines.append(
        f"  page save SQL {page.sql} = {page.sql - drawing} to save + {drawing} drawing the table page; "
        f"target: saving <= the API's {api.sql} + 1 (the phone's key, where the API has a bearer token): "
        + ("PASS" if page.sql - drawing <= api.sql + 1 else "MISS")
    )
    once = all(max(page.suspects.get(k, 0), api.suspects.get(k, 0)) <= 1 for k in ONCE)
    lines.append(f"  target: {', '.join(ONCE)} at most once per request: {'PASS' if once else 'MISS'}")
    return lines


def dump(counts: Counts) -> str:
    """The statements of one request, for reading what it sent."""
    return json.dumps(counts.statements, indent=1)
