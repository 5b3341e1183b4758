"""Several large imports sent at the same instant to the production server (gunicorn, sync
workers, the real factory) on SQLite (WAL) or PostgreSQL, while a scorer keeps saving hands.

Exactly one import of each wave runs: the others are told, at once, that another import is
running (429, Retry-After, nothing of theirs stored); no request answers 5xx; every save of the
scorer succeeds and its table stays consistent; the import that ran stored every table; once it
is done the next import runs. Timeouts are generous so that only a frozen server fails; no
latency is asserted (tests/bench/bench_imports.py prints the figures).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.bench import hands as jubileu_hands
from tests.bench.import_documents import seed, sized

from .conftest import API, Reply, api_problems, bearer, call, create_table, fresh_database, production_server

IMPORTS = 3  # in one wave
WORKERS = IMPORTS + 1  # a worker for each import, one for the scorer
SEED_HANDS = 60
DOCUMENT_BYTES = 300_000
TIMEOUT = 300  # seconds: only a frozen server reaches it
SENTENCE = "Another import is running; try again in a minute."


@dataclass
class Scorer:
    """A phone at a table saving hand after hand, on its own thread, until stopped."""

    port: int
    table: tuple[str, str]
    saved: int = 0
    refused: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        table_id, token = self.table
        while not self.stop.is_set():
            record = jubileu_hands.record(jubileu_hands.PLAYERS, self.saved)
            try:
                reply = call(self.port, "POST", f"{API}/tables/{table_id}/hands", record, bearer(token), TIMEOUT)
            except OSError as exc:
                self.refused.append(repr(exc))
                return
            if reply.status != 201:
                self.refused.append(f"{reply.status} {reply.body}")
                return
            self.saved += 1


@contextmanager
def scoring(port: int) -> Iterator[Scorer]:
    """A scorer at work for as long as the block runs (it saved at least one hand first)."""
    scorer = Scorer(port, create_table(port, "jubileu", jubileu_hands.PLAYERS))
    thread = threading.Thread(target=scorer.run, daemon=True)
    thread.start()
    try:
        yield scorer
    finally:
        scorer.stop.set()
        thread.join(TIMEOUT)


def _club_code(workdir: Path) -> str:
    return (workdir / "instance" / "club_code").read_text(encoding="ascii").strip()


def _wave(pool: ThreadPoolExecutor, port: int, code: str, documents: list[dict[str, Any]]) -> list[Reply]:
    """Send the imports from as many threads, released together by a barrier."""
    gate = threading.Barrier(len(documents))

    def one(document: dict[str, Any]) -> Reply:
        gate.wait(timeout=60)
        return call(port, "POST", f"{API}/import?language=en", document, {"X-Referee-Club-Code": code}, TIMEOUT)

    return list(pool.map(one, documents))


def _stored(port: int, document: dict[str, Any]) -> list[int]:
    """The status of GET on each table of the document (200: stored, 404: not)."""
    return [call(port, "GET", f"{API}/tables/{t['id']}").status for t in document["tables"]]


@pytest.fixture(scope="module")
def seed_document(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return seed(tmp_path_factory.mktemp("seed"), SEED_HANDS)


def test_one_import_at_a_time_while_a_scorer_saves(tmp_path: Path, seed_document: dict[str, Any]) -> None:
    with fresh_database(tmp_path) as url, production_server(url, tmp_path, workers=WORKERS) as running:
        port, code = running.port, _club_code(tmp_path)
        documents = [sized(seed_document, DOCUMENT_BYTES, f"wave1-{n}") for n in range(IMPORTS)]
        with ThreadPoolExecutor(IMPORTS) as pool, scoring(port) as scorer:
            replies = _wave(pool, port, code, documents)
            alone = sized(seed_document, DOCUMENT_BYTES, "alone")
            after = call(port, "POST", f"{API}/import", alone, {"X-Referee-Club-Code": code}, TIMEOUT)
        statuses = [r.status for r in replies]
        assert sorted(statuses) == [201] + [429] * (IMPORTS - 1), replies
        for reply, document in zip(replies, documents, strict=True):
            if reply.status == 201:
                assert len(reply.body) == len(document["tables"])
                assert set(_stored(port, document)) == {200}
            else:
                assert reply.body["error"] == {"code": "busy", "message": SENTENCE}
                assert reply.headers["retry-after"] == "60"
                assert set(_stored(port, document)) == {404}
        assert after.status == 201, after  # the claim was let go
        assert not scorer.refused, scorer.refused
        assert scorer.saved > 0
        assert api_problems(port, scorer.table[0], expect_hands=scorer.saved) == []
        log = running.log()
        assert "Traceback" not in log and "database is locked" not in log, log[-4000:]
