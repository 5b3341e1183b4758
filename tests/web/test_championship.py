"""A championship day through the pages and the API: the manager registers and draws, a table's
scorer records its hands, a paper table brings its counts, each table's fiscal signs it off, and
the ranking follows; what each phone may and may not do."""

from __future__ import annotations

from itertools import combinations

import pytest
from flask import Flask

from referee.championship import signoff
from referee.db import db
from referee.models import Championship, Entry, RoundTable, Seat, Table

from .api_support import API
from .championship_support import (
    card_links,
    create,
    manager,
    names_at,
    quatrilho_hand,
    register,
    round_tables,
    score,
    token_of,
)

NAMES = ["Ana", "Bia", "Caio", "Dani", "Edu", "Fábio", "Gil", "Hugo", "Iara"]


def test_a_championship_day_from_registration_to_round_two(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES)
    drawn = boss.post(f"/c/{cid}/rounds", data={"seed": "sorteio 1"})
    assert drawn.status_code == 302
    plan = boss.get(drawn.headers["Location"]).get_data(as_text=True)
    assert "sorteio 1" in plan and "/j/" not in plan and "/f/" not in plan  # the wall shows no way in

    # A late entry is taken until the end of round 1 and plays from round 2.
    late = boss.post(f"/c/{cid}/entries", data={"name": "Jonas"}, follow_redirects=True)
    assert "Jonas" in late.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Entry).filter_by(championship_id=cid, name="Jonas").one().first_round == 2

    first = round_tables(app, cid, 1)
    assert sorted(len(t.entries) for t in first) == [4, 5]
    four = next(t for t in first if len(t.entries) == 4)
    five = next(t for t in first if len(t.entries) == 5)
    scorer_links = card_links(boss, cid, 1, "scorer")
    fiscal_links = card_links(boss, cid, 1, "fiscal")
    assert len(scorer_links) == len(fiscal_links) == 2

    # The four-player table: its scorer's phone records the round's four deals through the API.
    token = scorer_links[four.number - 1].rsplit("/", 1)[1]
    players = names_at(app, four)
    for _ in range(4):
        answer = boss.post(
            f"{API}/tables/{four.table_id}/hands",
            json=quatrilho_hand(players),
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 201, answer.get_data(as_text=True)
    fifth = boss.post(
        f"{API}/tables/{four.table_id}/hands",
        json=quatrilho_hand(players),
        headers={"Authorization": f"Bearer {token}"},
    )
    assert fifth.status_code == 409 and "4" in fifth.get_json()["error"]["message"]

    # Its scorer cannot sign; its fiscal (another phone, the fiscal's card) can.
    scorer = app.test_client()
    assert scorer.get(scorer_links[four.number - 1]).status_code == 302
    assert scorer.post(f"/c/{cid}/r/1/m/{four.number}/sign").status_code == 403
    fiscal = app.test_client()
    assert fiscal.get(fiscal_links[four.number - 1]).status_code == 302
    signed = fiscal.post(f"/c/{cid}/r/1/m/{four.number}/sign")
    assert signed.status_code == 302
    with app.app_context():
        assert db.session.get(Table, four.table_id).finished_at is not None

    # The five-player table keeps paper: counts that do not add up are refused with the gap.
    paper = app.test_client()
    assert paper.get(scorer_links[five.number - 1]).status_code == 302
    short = {f"chips_{e}": "100" for e in five.entries} | {f"chips_{five.entries[0]}": "88"}
    refused = paper.post(f"/c/{cid}/r/1/m/{five.number}/counts", data=short)
    assert refused.status_code == 422 and "12" in refused.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(RoundTable, five.id).counts is None
    # The fiscal may not type counts, and may not sign before they add up.
    other_fiscal = app.test_client()
    assert other_fiscal.get(fiscal_links[five.number - 1]).status_code == 302
    assert other_fiscal.post(f"/c/{cid}/r/1/m/{five.number}/counts", data=short).status_code == 403
    assert other_fiscal.post(f"/c/{cid}/r/1/m/{five.number}/sign").status_code == 422
    counts = [130, 70, 100, 120, 80]
    good = {f"chips_{e}": str(n) for e, n in zip(five.entries, counts)}
    assert paper.post(f"/c/{cid}/r/1/m/{five.number}/counts", data=good).status_code == 302
    assert other_fiscal.post(f"/c/{cid}/r/1/m/{five.number}/sign").status_code == 302

    # The ranking: one chip, one point; the caller's side won 6 a deal, four times.
    with app.app_context():
        number = {e.id: e.number for e in db.session.query(Entry).filter_by(championship_id=cid)}
    csv = app.test_client().get(f"/c/{cid}/ranking.csv").get_data(as_text=True).splitlines()
    points = {int(row.split(",")[1]): int(row.split(",")[3]) for row in csv[1:] if row.split(",")[3]}
    assert points[number[four.entries[0]]] == 124 and points[number[four.entries[1]]] == 76
    assert points[number[five.entries[0]]] == 130
    assert csv[1].startswith("1,")  # the best first

    # The table played hand by hand counts in the league like any table, ratings included.
    league = app.test_client().get(f"{API}/league/quatrilho/standings").get_json()["standings"]
    counted = {row["name"]: row for row in league}
    assert {name: counted[name]["hands"] for name in players} == dict.fromkeys(players, 4)
    assert counted[players[0]]["net"] == 24 and counted[players[0]]["rating"] is not None

    # Round 2: everyone, Jonas too, and nobody meets an earlier tablemate where it can be avoided.
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "sorteio 2"}).status_code == 302
    second = round_tables(app, cid, 2)
    assert sum(len(t.entries) for t in second) == 10
    met = {frozenset((a, b)) for t in first for a in t.entries for b in t.entries if a != b}
    again = {frozenset((a, b)) for t in second for a in t.entries for b in t.entries if a != b} & met
    everyone = [e for t in second for e in t.entries]
    fewest = min(
        sum(
            1
            for group in (half, set(everyone) - set(half))
            for pair in combinations(group, 2)
            if frozenset(pair) in met
        )
        for half in combinations(everyone, 5)
    )
    assert len(again) == fewest  # some must meet again: a table of five cannot avoid all of round 1


def test_a_wall_page_and_a_copied_link_give_no_way_to_write(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:8])
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    stranger = app.test_client()
    for page in (f"/c/{cid}", f"/c/{cid}/tv", f"/c/{cid}/r/1", f"/c/{cid}/r/1/m/1", f"/c/{cid}/n/1"):
        answer = stranger.get(page)
        assert answer.status_code == 200, page
        assert "/j/" not in answer.get_data(as_text=True) and "/f/" not in answer.get_data(as_text=True)
    assert stranger.get(f"/c/{cid}/r/1/cards").status_code == 302  # to the club code
    assert stranger.post(f"/c/{cid}/rounds").status_code == 403
    assert stranger.post(f"/c/{cid}/entries", data={"name": "Intruso"}).status_code == 403
    assert stranger.post(f"/c/{cid}/r/1/m/1/counts", data={}).status_code == 403
    assert stranger.post(f"/c/{cid}/r/1/m/1/sign").status_code == 403
    assert stranger.get("/f/not-a-token").status_code == 403
    assert stranger.get("/c/nope").status_code == 404
    for huge in (
        f"/c/{cid}/r/99999999999999999999",
        f"/c/{cid}/r/1/m/99999999999999999999",
        f"/c/{cid}/n/99999999999999999999",
    ):
        assert stranger.get(huge).status_code == 404
    assert boss.get(f"/c/{cid}/r/99999999999999999999/cards").status_code == 404


def test_a_reentry_grows_the_table_stock_and_is_repaid_from_the_points(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:4])
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    (row,) = round_tables(app, cid, 1)
    with app.app_context():
        first = db.session.get(Entry, row.entries[0])
        number = first.number
    assert boss.post(f"/c/{cid}/reentries", data={"number": str(number)}).status_code == 302
    again = boss.post(f"/c/{cid}/reentries", data={"number": str(number)})  # one per round by default
    assert again.status_code == 422
    assert boss.post(f"/c/{cid}/reentries", data={"number": "99"}).status_code == 422
    assert boss.post(f"/c/{cid}/reentries", data={"number": "x" * 500}).status_code == 422
    links = card_links(boss, cid, 1, "scorer")
    paper = app.test_client()
    paper.get(links[0])
    at_400 = {f"chips_{e}": "100" for e in row.entries}
    assert paper.post(f"/c/{cid}/r/1/m/1/counts", data=at_400).status_code == 422  # the stock is 500 now
    at_500 = at_400 | {f"chips_{row.entries[0]}": "150", f"chips_{row.entries[1]}": "150"}
    assert paper.post(f"/c/{cid}/r/1/m/1/counts", data=at_500).status_code == 302
    csv = app.test_client().get(f"/c/{cid}/ranking.csv").get_data(as_text=True).splitlines()
    line = next(r.split(",") for r in csv[1:] if r.split(",")[1] == str(number))
    assert line[3] == "50" and line[-4] == "1"  # 150 counted, 100 repaid; one re-entry


def test_settings_a_referee_would_refuse(app: Flask) -> None:
    boss = manager(app)
    base = {"name": "Copa", "game": "quatrilho", "chips": "100", "rounds": "3", "table_size": "4", "late_until": "1"}
    for fields, words in (
        ({"ends": "deals", "deals": "10"}, "4"),  # not a multiple of the table size
        ({"ends": "deals", "deals": "8", "game": "jubileu", "table_size": "5"}, "Jubileu"),
        ({"ends": "deals", "deals": "8", "rounds": "0"}, "1"),
        ({"ends": "deals", "deals": "8", "tiebreak_0": "best_round", "tiebreak_1": "best_round"}, ""),
    ):
        answer = boss.post("/c/new", data=base | {"reentries": "1", "reentry_points": "repaid"} | fields)
        assert answer.status_code == 422, fields
        assert words in answer.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Championship).count() == 0


def test_round_tables_are_ordinary_tables_of_the_club_members(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:4])
    boss.post(f"/c/{cid}/rounds")
    (row,) = round_tables(app, cid, 1)
    with app.app_context():
        seats = db.session.query(Seat).filter_by(table_id=row.table_id).all()
        entries = {e.id: e for e in db.session.query(Entry).filter_by(championship_id=cid)}
        assert [s.member_id for s in seats] == [entries[e].member_id for e in row.entries]
        assert all(s.member_id is not None for s in seats)


def test_hands_recorded_after_the_counts_stop_the_signature(app: Flask) -> None:
    """A paper table's counts, then a hand at the same table (a second phone did not know): the
    fiscal cannot sign until one of the two goes, and the sentence says so."""
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:4])
    boss.post(f"/c/{cid}/rounds")
    (row,) = round_tables(app, cid, 1)
    scorer_link = card_links(boss, cid, 1, "scorer")[0]
    fiscal_link = card_links(boss, cid, 1, "fiscal")[0]
    paper = app.test_client()
    paper.get(scorer_link)
    counts = {f"chips_{e}": str(n) for e, n in zip(row.entries, [130, 70, 100, 100])}
    assert paper.post(f"/c/{cid}/r/1/m/1/counts", data=counts).status_code == 302
    token = scorer_link.rsplit("/", 1)[1]
    hand = boss.post(
        f"{API}/tables/{row.table_id}/hands",
        json=quatrilho_hand(names_at(app, row)),
        headers={"Authorization": f"Bearer {token}"},
    )
    assert hand.status_code == 201
    fiscal = app.test_client()
    fiscal.get(fiscal_link)
    refused = fiscal.post(f"/c/{cid}/r/1/m/1/sign")
    assert refused.status_code == 422
    assert "mãos depois da contagem final" in refused.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(RoundTable, row.id).signed_at is None


def test_new_cards_lock_out_a_lost_card_at_once(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:4])
    boss.post(f"/c/{cid}/rounds")
    (row,) = round_tables(app, cid, 1)
    old_scorer, old_fiscal = card_links(boss, cid, 1, "scorer")[0], card_links(boss, cid, 1, "fiscal")[0]
    holder = app.test_client()
    assert holder.get(old_scorer).status_code == 302
    assert boss.post(f"/c/{cid}/r/1/m/1/cards").status_code == 302
    new_scorer, new_fiscal = card_links(boss, cid, 1, "scorer")[0], card_links(boss, cid, 1, "fiscal")[0]
    assert {new_scorer, new_fiscal}.isdisjoint({old_scorer, old_fiscal})
    assert app.test_client().get(old_scorer).status_code == 403
    assert app.test_client().get(old_fiscal).status_code == 403
    # The phone that held the old card is told it was revoked, and can no longer record.
    token = old_scorer.rsplit("/", 1)[1]
    hand = holder.post(
        f"{API}/tables/{row.table_id}/hands",
        json=quatrilho_hand(names_at(app, row)),
        headers={"Authorization": f"Bearer {token}"},
    )
    assert hand.status_code in (401, 403)
    assert holder.get(f"/t/{row.table_id}").status_code == 403
    fresh = app.test_client()
    assert fresh.get(new_scorer).status_code == 302
    assert fresh.get(f"/c/{cid}/r/1/m/1").get_data(as_text=True).count("chips_") >= 4  # the counts form
    assert app.test_client().post(f"/c/{cid}/r/1/m/1/cards").status_code == 403


def test_a_jubileu_championship_on_the_clock(app: Flask) -> None:
    """Jubileu has no fifth seat: ten players cannot be seated, eight can; a round on the clock
    gives every table the round's end, and its tables take any number of deals."""
    boss = manager(app)
    cid = create(boss, game="jubileu", ends="clock", minutes="90", deals="")
    register(boss, cid, NAMES[:9] + ["Jonas"])
    refused = boss.post(f"/c/{cid}/rounds")
    assert refused.status_code == 422 and "múltiplo de quatro" in refused.get_data(as_text=True)
    with app.app_context():
        db.session.query(Entry).filter_by(championship_id=cid, number=10).delete()
        db.session.query(Entry).filter_by(championship_id=cid, number=9).delete()
        db.session.commit()
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    rows = round_tables(app, cid, 1)
    assert [len(t.entries) for t in rows] == [4, 4]
    with app.app_context():
        for row in rows:
            table = db.session.get(Table, row.table_id)
            assert table.game == "jubileu" and table.deals is None and table.ends_at is not None
            assert table.options["starting_chips"] == 100
    page = app.test_client().get(f"/c/{cid}").get_data(as_text=True)
    assert "termina às" in page


def test_a_round_table_keeps_the_rounds_end(app: Flask) -> None:
    """Its scorer cannot set another clock, nor call a last round when the round counts deals."""
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:4])
    boss.post(f"/c/{cid}/rounds")
    (row,) = round_tables(app, cid, 1)
    scorer = app.test_client()
    scorer.get(card_links(boss, cid, 1, "scorer")[0])
    page = scorer.get(f"/t/{row.table_id}").get_data(as_text=True)
    assert "clock-form" not in page and "last-round-form" not in page and "Campeonato: mesa 1 da rodada 1" in page
    clock = scorer.post(f"/t/{row.table_id}/clock", data={"minutes": "60"}, follow_redirects=True)
    assert "só o organizador" in clock.get_data(as_text=True)
    tonda = scorer.post(f"/t/{row.table_id}/last-round", data={"on": "1"}, follow_redirects=True)
    assert "a rodada termina com elas" in tonda.get_data(as_text=True)
    with app.app_context():
        table = db.session.get(Table, row.table_id)
        assert table.ends_at is None and table.last_round_from is None


def test_a_table_that_played_its_deals_offers_no_next_hand(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES)  # nine: a table of five (5 deals) and one of four (4 deals)
    boss.post(f"/c/{cid}/rounds")
    first = round_tables(app, cid, 1)
    four = next(t for t in first if len(t.entries) == 4)
    plan = app.test_client().get(f"/c/{cid}/r/1").get_data(as_text=True)
    assert "4 mãos por rodada" in plan and "5 mãos nesta mesa" in plan
    link = card_links(boss, cid, 1, "scorer")[four.number - 1]
    scorer = app.test_client()
    scorer.get(link)
    for _ in range(4):
        assert score(scorer, four, names_at(app, four), token_of(link)) == 201
    page = scorer.get(f"/t/{four.table_id}").get_data(as_text=True)
    assert "aqui a rodada acabou" in page and f'href="/t/{four.table_id}/hand"' not in page
    assert "acertar as contas" not in page.lower()  # chips are points here, not money
    assert scorer.get(f"/t/{four.table_id}/hand").headers["Location"].endswith(f"/t/{four.table_id}")
    # A correction of a hand played is still taken: it replaces, it adds no deal.
    assert scorer.get(f"/t/{four.table_id}/hand?replaces=2").status_code == 200


def test_the_wall_redraws_by_the_clock_during_a_round_and_at_once_after_a_signature(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand at a table does not move the live version within the clock's tick (every phone on
    the wall would redraw at every hand of 75 tables); the tick does, and a signature does at once.
    Once every table is signed off, the version stays still."""
    from referee.views import championship_pages as views

    now = [1_000_000.0]
    monkeypatch.setattr(views.time, "time", lambda: now[0])
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:4])
    boss.post(f"/c/{cid}/rounds")
    (row,) = round_tables(app, cid, 1)
    watcher = app.test_client()

    def version() -> str:
        return watcher.get(f"/c/{cid}/version").get_json()["version"]

    first = version()
    link = card_links(boss, cid, 1, "scorer")[0]
    for _ in range(4):
        assert score(boss, row, names_at(app, row), token_of(link)) == 201
    assert version() == first
    now[0] += views.LIVE_EVERY
    ticked = version()
    assert ticked != first
    page = watcher.get(f"/c/{cid}").get_data(as_text=True)
    assert "124*" in page  # the provisional points of the hands played
    fiscal = app.test_client()
    fiscal.get(card_links(boss, cid, 1, "fiscal")[0])
    assert fiscal.post(f"/c/{cid}/r/1/m/1/sign").status_code == 302
    signed = version()
    assert signed != ticked
    now[0] += 10 * views.LIVE_EVERY
    assert version() == signed  # nothing left to play: nothing moves


def test_the_round_read_at_once_counts_each_table_as_it_is_read_alone(app: Flask) -> None:
    """The manager's page reads a round's chips in three queries (signoff.round_counts); they are
    the chips each table's own page shows (signoff.chip_count): hands, counts, re-entries."""
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES)
    boss.post(f"/c/{cid}/rounds")
    first = round_tables(app, cid, 1)
    four = next(t for t in first if len(t.entries) == 4)
    five = next(t for t in first if len(t.entries) == 5)
    links = card_links(boss, cid, 1, "scorer")
    for _ in range(3):
        assert score(boss, four, names_at(app, four), token_of(links[four.number - 1])) == 201
    with app.app_context():
        number = db.session.get(Entry, five.entries[2]).number
    assert boss.post(f"/c/{cid}/reentries", data={"number": str(number)}).status_code == 302
    paper = app.test_client()
    paper.get(links[five.number - 1])
    counts = {f"chips_{e}": str(n) for e, n in zip(five.entries, [200, 50, 150, 100, 100])}
    assert paper.post(f"/c/{cid}/r/1/m/{five.number}/counts", data=counts).status_code == 302
    with app.app_context():
        found = db.session.get(Championship, cid)
        rows = [db.session.get(RoundTable, t.id) for t in first]
        together = signoff.round_counts(found, rows)
        alone = {row.id: signoff.chip_count(found, row, db.session.get(Table, row.table_id)) for row in rows}
    assert together == alone
    assert {c.source for c in together.values()} == {"hands", "counts"}
    assert together[five.id].stock == 600 and together[four.id].deals == 3
