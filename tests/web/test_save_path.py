"""One hand saved, from the page and through the API, does each piece of work once: the house
rules parsed once, the draft sanitized once, the engine's auction replayed once, the table row
and the write's key read once (counted with wrappers, on the same hand as bench_save_path)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask

from referee.ledger import tables
from referee.rules import game, jubileu
from referee.views.games.jubileu import JubileuFlow
from tests.bench import save_path
from tests.bench.save_path import Counts, api_save, page_save

Calls = Counter[str]


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Calls:
    """Counts, during the save request alone (not the walk to it), the calls of the functions
    that must run at most once per save."""
    live: Calls = Counter()
    during: Calls = Counter()

    def wrap(owner: Any, name: str, label: str) -> None:
        real: Callable[..., Any] = getattr(owner, name)

        def counting(*args: Any, **kwargs: Any) -> Any:
            live[label] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, counting)

    wrap(game.Game, "parse_options", "options parsed")
    wrap(jubileu, "replay_pairs", "auction replayed by the engine")
    wrap(JubileuFlow, "sanitize", "draft sanitized")
    wrap(jubileu.Auction, "__init__", "auctions built")
    wrap(tables, "get_game", "game looked up by the ledger")
    real_counted = save_path.counted

    @contextmanager
    def the_save_only(app: Flask, counts: Counts, *, profile: bool = True) -> Iterator[None]:
        live.clear()
        with real_counted(app, counts, profile=profile):
            yield
        during.clear()
        during.update(live)

    monkeypatch.setattr(save_path, "counted", the_save_only)
    return during


def _reads(counts: Counts, table: str) -> int:
    """The statements reading ``table`` (PostgreSQL's write lock, a ``SELECT … FOR UPDATE`` of
    the table's version, is the lock, not a read)."""
    return sum(
        1
        for s in counts.statements
        if s.lstrip().upper().startswith("SELECT") and f"FROM {table}" in s and "FOR UPDATE" not in s.upper()
    )


def test_a_page_save_parses_the_rules_sanitizes_and_replays_once(app: Flask, calls: Calls) -> None:
    figures = page_save(app, profile=False)
    assert figures.status == 200
    assert calls["options parsed"] <= 1
    assert calls["draft sanitized"] <= 1
    assert calls["auction replayed by the engine"] == 1
    assert calls["auctions built"] == 1  # the engine's: the page's own check leaves it to the engine
    assert calls["game looked up by the ledger"] == 1
    assert _reads(figures, "game_table") == 1  # the page drawn after the save reads no table again
    assert _reads(figures, "idempotency_key") == 1


def test_an_api_save_parses_the_rules_and_replays_once(app: Flask, calls: Calls) -> None:
    figures = api_save(app, profile=False)
    assert figures.status == 201
    assert calls["options parsed"] <= 1
    assert calls["auction replayed by the engine"] == 1
    assert calls["auctions built"] == 1
    assert calls["game looked up by the ledger"] == 1
    assert _reads(figures, "game_table") == 1
    assert _reads(figures, "idempotency_key") == 1


@pytest.mark.parametrize("stale", [False, True])
def test_a_forged_call_in_a_refused_save_is_cut_from_the_page_it_answers(app: Flask, stale: bool) -> None:
    """A save leaves the auction to the engine; when it is answered with the page after all (the
    hand's place taken by another phone, or the calls refused), the page is drawn from the
    legal calls only: the page with its sentence, never an error page."""
    client = app.test_client()
    made = client.post("/tables/new?game=jubileu", data=save_path.TABLE_FORM)
    table_id = made.headers["Location"].rsplit("/t/", 1)[1]
    draft = json.loads(save_path.page_draft(client, table_id))
    draft["calls"] = [*draft.get("calls", []), [save_path.PLAYERS[0], "\U000fe7b3£"]]
    if stale:
        assert client.post(f"/t/{table_id}/hand", data={"d": save_path.page_draft(client, table_id)}).status_code < 400
    response = client.post(f"/t/{table_id}/hand", data={"d": json.dumps(draft)})
    # Cut and saved when nothing else stood in the way; else the page again, with its sentence.
    assert response.status_code == (409 if stale else 302), response.get_data(as_text=True)[:300]
