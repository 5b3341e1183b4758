"""A championship day survives a full backup and its restore (referee.exports.backup, restore).

A small day is played through the pages and the API (round 1: a table recorded hand by hand and a
paper table, both signed off; a re-entry; a late entry; round 2 drawn, a hand recorded), backed up
from the phone's download, and restored into an empty database: the ranking is byte for byte the
same, so are the plans and their seeds, the cards printed before still score and sign (their
tokens are derived from the access ids), a round's table still stops at its deals, and round 1's
tables are still signed off and closed. A backup made before championships existed still
restores; a malformed championship is refused naming where, and nothing is stored.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from referee import championship, exports
from referee.extensions import db
from referee.models import Championship, Entry, Member, RoundTable, Table, aware
from referee.rules.errors import InvalidInput

from .championship_support import (
    card_links,
    create,
    day_links,
    link_path,
    manager,
    names_at,
    register,
    round_tables,
    score,
    token_of,
)

NAMES = ["Ana", "Bia", "Caio", "Dani", "Edu", "Fábio", "Gil", "Hugo"]
CSRF = re.compile(rb'<meta name="csrf-token" content="[^"]*">')


@pytest.fixture
def fresh(make_app: Callable[..., Flask], tmp_path: Path) -> Callable[[], Flask]:
    """A second app on an empty database (on PostgreSQL the same database emptied: call it once
    the first app's figures are taken)."""
    return lambda: make_app({"INSTANCE_PATH": str(tmp_path / "fresh")}, empty=True)


# --------------------------------------------------------------------------- the day


def play_a_day(app: Flask) -> dict[str, Any]:
    """Round 1 played and signed off, round 2 drawn with one hand recorded. Another
    championship's entries are registered in between, so the day's entry ids have a gap: a
    restore that numbered the entries again would seat the wrong players."""
    boss = manager(app)
    cid = create(boss, rounds="2")
    register(boss, cid, NAMES[:4])
    other = create(boss, "Copa de Inverno", rounds="2")
    register(boss, other, ["Zeca", "Yara"])
    register(boss, cid, NAMES[4:])
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "sorteio 1"}).status_code == 302
    assert boss.post(f"/c/{cid}/entries", data={"name": "Jonas"}).status_code == 302  # a late entry

    first = round_tables(app, cid, 1)
    assert [len(t.entries) for t in first] == [4, 4]
    by_hand, paper_table = first
    scorers, fiscals = card_links(boss, cid, 1, "scorer"), card_links(boss, cid, 1, "fiscal")

    # Table 1: four deals through the API, then its fiscal signs.
    for _ in range(4):
        assert score(boss, by_hand, names_at(app, by_hand), token_of(scorers[0])) == 201
    fiscal = app.test_client()
    assert fiscal.get(fiscals[0]).status_code == 302
    assert fiscal.post(f"/c/{cid}/r/1/m/1/sign").status_code == 302

    # Table 2, on paper: a re-entry (the stock is 500), the counts, the fiscal's signature.
    with app.app_context():
        reentered = db.session.get(Entry, paper_table.entries[0]).number
    assert boss.post(f"/c/{cid}/reentries", data={"number": str(reentered)}).status_code == 302
    paper = app.test_client()
    assert paper.get(scorers[1]).status_code == 302
    counts = dict(zip(paper_table.entries, ["170", "130", "90", "110"]))
    answer = paper.post(f"/c/{cid}/r/1/m/2/counts", data={f"chips_{e}": n for e, n in counts.items()})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    fiscal = app.test_client()
    assert fiscal.get(fiscals[1]).status_code == 302
    assert fiscal.post(f"/c/{cid}/r/1/m/2/sign").status_code == 302

    # Round 2: Jonas too (a table of four and a table of five); one hand at the table of four.
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "sorteio 2"}).status_code == 302
    second = round_tables(app, cid, 2)
    four = next(t for t in second if len(t.entries) == 4)
    assert sorted(len(t.entries) for t in second) == [4, 5]
    links = {role: card_links(boss, cid, 2, role) for role in ("scorer", "fiscal")}
    assert score(boss, four, names_at(app, four), token_of(links["scorer"][four.number - 1])) == 201
    return {
        "cid": cid,
        "boss": boss,
        "four": four,
        "links": links,
        "players": names_at(app, four),
        "signed": (by_hand, names_at(app, by_hand), token_of(scorers[0])),
    }


def pages(app: Flask, cid: str) -> dict[str, bytes]:
    """What anyone reads of the championship: the ranking CSV and each round's plan, with the
    draw run again from its seed."""
    reader = app.test_client()
    out = {}
    for path in (f"/c/{cid}/ranking.csv", f"/c/{cid}/r/1?check=1", f"/c/{cid}/r/2?check=1"):
        answer = reader.get(path)
        assert answer.status_code == 200, path
        out[path] = CSRF.sub(b"", answer.data)  # the page's form token is the session's, not the day's
    return out


def rows(app: Flask, cid: str) -> dict[str, Any]:
    """The championship's tables and entries as stored, and their Referee tables' state."""
    with app.app_context():
        tables = db.session.scalars(
            select(RoundTable).where(RoundTable.championship_id == cid).order_by(RoundTable.round, RoundTable.number)
        )
        out = {
            "tables": [
                (
                    t.round,
                    t.number,
                    t.table_id,
                    list(t.entries),
                    t.counts,
                    t.counted_by,
                    t.scorer_access,
                    t.fiscal_access,
                    aware(t.signed_at),
                    t.signed_by,
                )
                for t in tables
            ],
            "referee": {
                t.id: (t.deals, aware(t.finished_at), t.ends_at)
                for t in db.session.scalars(select(Table).order_by(Table.id))
            },
            # Counts not yet typed are SQL NULL (not JSON null), as the app leaves them.
            "uncounted": db.session.scalar(
                select(func.count()).where(RoundTable.championship_id == cid, RoundTable.counts.is_(None))
            ),
            "entries": [
                (e.id, e.number, e.name, e.member_id, e.first_round)
                for e in db.session.scalars(select(Entry).where(Entry.championship_id == cid).order_by(Entry.id))
            ],
        }
        db.session.remove()
        return out


def count(app: Flask, model: Any) -> int:
    with app.app_context():
        found = db.session.scalar(select(func.count()).select_from(model))
        db.session.remove()
        return found


def downloaded(phone: FlaskClient) -> dict[str, Any]:
    """The backup a phone with the club's code downloads, as read back from its file."""
    answer = phone.get("/exports/backup")
    assert answer.status_code == 200
    return json.loads(answer.data)


# --------------------------------------------------------------------------- the tests


def test_a_championship_day_survives_backup_and_restore(app: Flask, fresh: Callable[[], Flask]) -> None:
    day = play_a_day(app)
    cid, four, links = day["cid"], day["four"], day["links"]
    before_pages = pages(app, cid)
    assert b"sorteio 1" in before_pages[f"/c/{cid}/r/1?check=1"]
    assert b"sorteio 2" in before_pages[f"/c/{cid}/r/2?check=1"]
    before = rows(app, cid)
    assert [t[8] is not None for t in before["tables"]] == [True, True, False, False]
    assert before["uncounted"] == 3
    assert sorted(deals for deals, _finished, _ends in before["referee"].values()) == [4, 4, 4, 5]
    document = downloaded(day["boss"])
    assert {c["id"] for c in document["championships"]} >= {cid}
    assert {t["id"]: t["deals"] for t in document["tables"]}[four.table_id] == 4

    second = fresh()
    with second.app_context():
        assert exports.restore(document)["championships"] == 2
    assert pages(second, cid) == before_pages  # the ranking byte for byte, the plans and seeds
    after = rows(second, cid)
    assert after == before
    with second.app_context():
        found = championship.get(cid)
        assert championship.redraw(found, 1) and championship.redraw(found, 2)  # the draws check out

    # Round 1's tables are still signed off, and their Referee tables closed to any hand.
    first = [t for t in after["tables"] if t[0] == 1]
    assert len(first) == 2 and all(t[8] is not None and t[9] for t in first)
    assert all(after["referee"][t[2]][1] is not None for t in first)
    assert score(second.test_client(), *day["signed"]) == 409  # closed

    # The cards printed before the restore still work: the scorer records the round's last
    # three deals, a fifth is refused, and the fiscal signs the table off.
    boss = manager(second)
    assert card_links(boss, cid, 2, "scorer") == links["scorer"]
    assert card_links(boss, cid, 2, "fiscal") == links["fiscal"]
    phone = second.test_client()
    scorer = links["scorer"][four.number - 1]
    assert phone.get(scorer).status_code == 302
    for _ in range(3):
        assert score(phone, four, day["players"], token_of(scorer)) == 201
    assert score(phone, four, day["players"], token_of(scorer)) == 409  # 4 deals, and no more
    fiscal = second.test_client()
    assert fiscal.get(links["fiscal"][four.number - 1]).status_code == 302
    assert fiscal.post(f"/c/{cid}/r/2/m/{four.number}/sign").status_code == 302
    with second.app_context():
        assert db.session.get(Table, four.table_id).finished_at is not None
    # A new entry gets an id after the restored ones (PostgreSQL's sequences were moved on).
    register(boss, create(boss, "Copa Nova", rounds="2"), ["Zé"])
    with second.app_context():
        assert db.session.scalar(select(func.max(Entry.id))) == max(e[0] for e in before["entries"]) + 1


def test_the_day_cards_come_back_with_their_generations(
    app: Flask, fresh: Callable[[], Flask], make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    """New cards for a number survive a restore (the old card stays refused, the new one works),
    and a backup made before the day's cards restores every number at its first cards. Under
    another secret key (a phone's backup, restored on a new machine) the set is printed again,
    and the new cards reach the tables drawn before the restore."""
    boss = manager(app)
    cid = create(boss, rounds="2")
    register(boss, cid, NAMES[:8])
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    old = day_links(boss, cid, "scorer")
    assert boss.post(f"/c/{cid}/m/1/cards").status_code == 302
    new = day_links(boss, cid, "scorer")
    document = downloaded(boss)
    second = fresh()
    with second.app_context():
        exports.restore(copy.deepcopy(document))
    assert day_links(manager(second), cid, "scorer") == new
    assert second.test_client().get(link_path(old[0])).status_code == 403
    assert second.test_client().get(link_path(new[0])).status_code == 302
    for championship_json in document["championships"]:
        del championship_json["cards"]
    third = fresh()
    with third.app_context():
        exports.restore(copy.deepcopy(document))
    assert day_links(manager(third), cid, "scorer") == old
    elsewhere = make_app({"INSTANCE_PATH": str(tmp_path / "elsewhere"), "SECRET_KEY": "another"}, empty=True)
    with elsewhere.app_context():
        exports.restore(document)
    assert elsewhere.test_client().get(link_path(old[1])).status_code == 403
    reprinted = day_links(manager(elsewhere), cid, "scorer")
    phone = elsewhere.test_client()
    assert phone.get(link_path(reprinted[1])).status_code == 302
    assert "chips_" in phone.get(f"/c/{cid}/r/1/m/2").get_data(as_text=True)  # the scorer's counts form


def test_a_backup_made_before_championships_still_restores(
    app: Flask, fresh: Callable[[], Flask], tmp_path: Path
) -> None:
    day = play_a_day(app)
    with app.app_context():
        document = exports.backup()
    tables = len(document["tables"])
    del document["championships"]
    for table in document["tables"]:
        del table["deals"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(document))

    second = fresh()
    result = second.test_cli_runner().invoke(args=["restore", str(path)])
    assert result.exit_code == 0, result.output
    assert f"Restored {tables} tables, " in result.output
    assert count(second, Table) == tables and count(second, Championship) == 0
    assert second.test_client().get(f"/c/{day['cid']}").status_code == 404


def test_a_database_holding_only_a_championship_is_not_empty(app: Flask, tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    runner = app.test_cli_runner()
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    create(manager(app), rounds="2")
    assert count(app, Table) == count(app, Member) == 0
    with app.app_context():
        assert not exports.is_empty()
    result = runner.invoke(args=["restore", str(path)])
    assert result.exit_code != 0 and "not empty" in result.output
    assert count(app, Championship) == 1


def broken(document: dict[str, Any], cid: str) -> list[tuple[str, Callable[[dict[str, Any]], None]]]:
    """Ways to spoil the championship ``cid`` of a backup, each with the field the refusal names."""
    i = next(n for n, c in enumerate(document["championships"]) if c["id"] == cid)
    at = f"championships[{i}]"
    round_two = next(n for n, t in enumerate(document["championships"][i]["tables"]) if t["round"] == 2)
    member_ids = {m["id"] for m in document["members"]}
    some_access = next(a["id"] for t in document["tables"] for a in t["accesses"])

    def change(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
        def apply(doc: dict[str, Any]) -> None:
            target = doc["championships"][i]
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value

        return apply

    def drop(path: list[Any]) -> Callable[[dict[str, Any]], None]:
        def apply(doc: dict[str, Any]) -> None:
            target = doc["championships"][i]
            for key in path[:-1]:
                target = target[key]
            del target[path[-1]]

        return apply

    first_entry = document["championships"][i]["entries"][0]["id"]
    seated = document["championships"][i]["tables"][0]["entries"]
    first_table = document["championships"][i]["tables"][0]["table_id"]
    signed = next(n for n, line in enumerate(document["championships"][i]["history"]) if line["kind"] == "signed")
    return [
        (f"{at}.entries[0].name", drop(["entries", 0, "name"])),
        (
            f"{at}.entries[1].number",
            change(["entries", 1, "number"], document["championships"][i]["entries"][0]["number"]),
        ),
        (f"{at}.entries[0].member_id", change(["entries", 0, "member_id"], max(member_ids) + 1)),
        (f"{at}.settings.tiebreaks", change(["settings", "tiebreaks"], ["best_round", ["x"]])),
        (f"{at}.settings.game", change(["settings", "game"], "samba")),
        (f"{at}.settings.five_deals", change(["settings", "five_deals"], "per_seat")),
        (f"{at}.settings.reentries", change(["settings", "reentries"], "no limit")),
        (f"{at}.archived_at", change(["archived_at"], "last week")),
        (f"{at}.rounds[1].seed", change(["rounds", 1, "seed"], 7)),
        (f"{at}.rounds[1].number", change(["rounds", 1, "number"], 1)),
        (f"{at}.rounds[0].planned", change(["rounds", 0, "planned"], 0)),
        (f"{at}.reentries[0].entry_id", change(["reentries", 0, "entry_id"], 2**31 - 1)),
        (f"{at}.reentries[0].undone_at", change(["reentries", 0, "undone_at"], "just now")),
        (f"{at}.entries[0].status", change(["entries", 0, "status"], "expelled")),
        (f"{at}.entries[0].status", change(["entries", 0, "status"], ["absent"])),
        (f"{at}.settings.reentry_when", change(["settings", "reentry_when"], "never")),
        (f"{at}.tables[0].entries", change(["tables", 0, "entries"], [*seated[:3], 2**31 - 1])),
        (f"{at}.tables[0].entries", change(["tables", 0, "entries"], seated[:3])),
        (f"{at}.tables[1].counts", change(["tables", 1, "counts"], {str(first_entry): 500})),
        (f"{at}.tables[0].table_id", change(["tables", 0, "table_id"], "x" * 22)),
        (f"{at}.tables[{round_two}].table_id", change(["tables", round_two, "table_id"], first_table)),
        (f"{at}.tables[{round_two}].scorer_access", change(["tables", round_two, "scorer_access"], some_access)),
        (f"{at}.tables[0].signed_at", change(["tables", 0, "signed_at"], "yesterday")),
        (f"{at}.settings.entry_fee", change(["settings", "entry_fee"], "vinte")),
        (f"{at}.settings.pix_key", change(["settings", "pix_key"], "123")),
        (f"{at}.entries[0].fee_paid", change(["entries", 0, "fee_paid"], "0")),
        (f"{at}.reentries[0].fee_paid", change(["reentries", 0, "fee_paid"], 20)),
        (f"{at}.history[{signed}].detail", change(["history", signed, "detail"], {})),  # no chips to tell
        (f"{at}.cards[0].generation", change(["cards"], [{"number": 1, "generation": 0}])),
        (f"{at}.cards[1].number", change(["cards"], [{"number": 1, "generation": 2}, {"number": 1, "generation": 3}])),
        (f"{at}.settings.prizes", change(["settings", "prizes"], {"places": [{"cents": 0, "text": ""}]})),
        (f"{at}.settings.sealed", change(["settings", "sealed"], 1)),
        (f"{at}.teams[0].entries", change(["teams"], [{"name": "Quarteto", "entries": [*seated[:3], seated[0]]}])),
        (at, lambda doc: doc["championships"].__setitem__(i, [cid])),
        (".championships", lambda doc: doc.__setitem__("championships", {"id": cid})),
    ]


def test_a_malformed_championship_is_refused_naming_where_and_nothing_is_stored(
    app: Flask, fresh: Callable[[], Flask]
) -> None:
    day = play_a_day(app)
    with app.app_context():
        document = json.loads(json.dumps(exports.backup()))
    spoils = broken(document, day["cid"])
    second = fresh()
    for where, spoil in spoils:
        doc = copy.deepcopy(document)
        spoil(doc)
        with second.app_context():
            with pytest.raises(InvalidInput) as refused:
                exports.restore(doc)
            assert refused.value.field == where
            assert exports.is_empty()
            db.session.remove()
        assert count(second, Table) == count(second, Championship) == count(second, Entry) == 0
    with second.app_context():  # the document itself restores
        assert exports.restore(document)["championships"] == 2
