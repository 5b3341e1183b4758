"""An import takes its turn with the other writers and never keeps them out for long
(referee.exports: judged in a private database, then stored in short transactions).

On SQLite, one writer at a time: an import used to be one long transaction that read before it
wrote, so it failed at once ("database is locked", a 500) when another writer committed first,
and a large one kept every scorer out until it was done. Here a writer commits again and again,
on its own connection, while a document is imported in batches of a few hands: the import is
stored (201), and the writer gets in between the batches (it sees the table partly stored).
These tests need a database file shared by two connections: SQLite only.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError

from referee import create_app, exports, ledger, ratings
from referee.extensions import db
from referee.models import Hand, Member, Table
from tests.bench import hands as jubileu_hands
from tests.conftest import TEST_DATABASE_URL

from .api_support import API

pytestmark = pytest.mark.skipif(not TEST_DATABASE_URL.startswith("sqlite"), reason="SQLite's database-wide write lock")

HANDS = 60
NEW_ID = "imported-table-000001"


@pytest.fixture
def on_file(tmp_path: Path) -> Iterator[tuple[Flask, Path]]:
    """An app on a SQLite file (WAL, busy timeout: as in production)."""
    path = tmp_path / "referee.sqlite3"
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
            "SECRET_KEY": "test",
            "INSTANCE_PATH": str(tmp_path / "instance"),
        }
    )
    yield app, path
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def a_document(app: Flask) -> tuple[dict[str, Any], str]:
    """An export of one Jubileu table of HANDS hands under a new id, and a table to write to."""
    with app.app_context():
        played, _token = ledger.create_table(game="jubileu", players=list(jubileu_hands.PLAYERS))
        for k in range(HANDS):
            ledger.record_hand(played, jubileu_hands.record(jubileu_hands.PLAYERS, k))
        document = exports.export_tables([played])
        other, _token = ledger.create_table(game="jubileu", players=list(jubileu_hands.PLAYERS))
        db.session.remove()
    document["tables"][0]["id"] = NEW_ID
    return document, other.id


class Writer(threading.Thread):
    """Another writer: takes the write lock, notes how many hands of the imported table are
    stored, writes, commits; again and again until told to stop."""

    def __init__(self, path: Path, table_id: str) -> None:
        super().__init__(daemon=True)
        self.path, self.table_id = path, table_id
        self.seen: list[int] = []
        self.stop = threading.Event()

    def run(self) -> None:
        connection = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        try:
            while not self.stop.is_set():
                connection.execute("BEGIN IMMEDIATE")
                (stored,) = connection.execute("SELECT count(*) FROM hand WHERE table_id = ?", (NEW_ID,)).fetchone()
                self.seen.append(stored)
                connection.execute("UPDATE game_table SET version = version WHERE id = ?", (self.table_id,))
                connection.execute("COMMIT")
                self.stop.wait(0.002)
        finally:
            connection.close()


def test_an_import_waits_its_turn_and_lets_writers_in_between_batches(
    on_file: tuple[Flask, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, path = on_file
    document, other = a_document(app)
    monkeypatch.setattr(exports, "IMPORT_BATCH", 10, raising=False)  # a few hands per batch
    client = app.test_client()
    writer = Writer(path, other)
    writer.start()
    try:
        response = client.post(f"{API}/import", json=document, headers={"X-Referee-Club-Code": app.config["CLUB_CODE"]})
    finally:
        writer.stop.set()
        writer.join(30)
    assert response.status_code == 201, response.get_data(as_text=True)
    partly = sorted({n for n in writer.seen if 0 < n < HANDS})
    assert len(partly) >= 3, f"the writer never got in while the import was storing: {sorted(set(writer.seen))}"
    assert writer.seen[-1] == HANDS


def test_a_writer_committing_first_does_not_fail_the_import(
    on_file: tuple[Flask, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another phone commits a hand just before the import writes its first row: the import
    waits for it (or had the lock first), it does not fail with "database is locked"."""
    app, path = on_file
    document, other = a_document(app)
    create_table = ledger.create_table

    def after_another_write(**fields: Any) -> Any:
        try:
            with sqlite3.connect(path, isolation_level=None, timeout=0.2) as connection:
                connection.execute("UPDATE game_table SET version = version + 1 WHERE id = ?", (other,))
        except sqlite3.OperationalError:
            pass  # the import holds the write lock already: the other writer waits for it
        return create_table(**fields)

    monkeypatch.setattr(ledger, "create_table", after_another_write)
    client = app.test_client()
    response = client.post(f"{API}/import", json=document, headers={"X-Referee-Club-Code": app.config["CLUB_CODE"]})
    assert response.status_code == 201, response.get_data(as_text=True)


def test_a_batch_that_fails_late_leaves_nothing_behind(
    on_file: tuple[Flask, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Judged sound, then the disk fills up three batches in: what the first ones stored goes."""
    app, _path = on_file
    document, _other = a_document(app)
    document["tables"][0]["players"] = ["Zé", "Bia", "Caio", "Dani"]  # a member the import creates
    document["tables"][0]["members"] = {}
    for hand in document["tables"][0]["hands"]:
        hand["record"] = jubileu_hands.record(("Zé", "Bia", "Caio", "Dani"), hand["number"] - 1)
    document["tables"][0]["dealer"] = "Dani"
    monkeypatch.setattr(exports, "IMPORT_BATCH", 10)

    def third_fails(n: int) -> None:
        if n == 3:
            raise OperationalError("COMMIT", {}, Exception("database or disk is full"))

    def refresh_after_second(n: int) -> None:
        if n == 2:  # a page read the standings meanwhile: the ratings took the stored hands in
            ratings.refresh("jubileu")

    commits = count_commits(monkeypatch, before=third_fails, after=refresh_after_second)
    with app.app_context():
        members = db.session.scalar(select(func.count()).select_from(Member))
        with pytest.raises(OperationalError):
            exports.import_tables(document)
        db.session.remove()
        assert db.session.get(Table, NEW_ID) is None
        assert db.session.scalar(select(func.count()).select_from(Hand).where(Hand.table_id == NEW_ID)) == 0
        assert db.session.scalar(select(func.count()).select_from(Member)) == members
        assert commits() == 3  # two batches were stored before the failure
        # The ratings forget the removed hands: what a refresh gives is what the hands that
        # stayed give, rated from scratch.
        ratings.refresh("jubileu")
        refreshed = dict(ratings.stored("jubileu"))
        ratings.recompute("jubileu")
        assert refreshed == dict(ratings.stored("jubileu"))


def test_a_batch_ends_when_it_has_held_the_lock_long_enough_whatever_it_wrote(
    on_file: tuple[Flask, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Slow writes (voids, corrections rebuild a long table's state) end their batch early."""
    app, _path = on_file
    document, _other = a_document(app)
    monkeypatch.setattr(exports, "IMPORT_BATCH", 10**9)
    monkeypatch.setattr(exports, "IMPORT_BATCH_SECONDS", 0.0)
    commits = count_commits(monkeypatch)
    with app.app_context():
        exports.import_tables(document)
    assert commits() == 1 + HANDS + 1  # the table, each hand, and the last (empty) commit


def count_commits(
    monkeypatch: pytest.MonkeyPatch,
    *,
    before: Callable[[int], None] = lambda n: None,
    after: Callable[[int], None] = lambda n: None,
) -> Callable[[], int]:
    """Count the import's batch commits (no pause between them). ``before(n)`` runs ahead of the
    n-th (it may raise, as a full disk would), ``after(n)`` once it is stored (another request
    reading meanwhile). Answers a function that reads the count."""
    monkeypatch.setattr(exports, "IMPORT_PAUSE", 0)
    count = 0
    real_commit = exports._Batches.commit

    def counted(self: exports._Batches) -> None:
        nonlocal count
        count += 1
        before(count)
        real_commit(self)
        after(count)

    monkeypatch.setattr(exports._Batches, "commit", counted)
    return lambda: count
