"""One set of table cards for the day: a card belongs to a table number and a role, reaches that
number's table in whatever round is played, keeps the roles apart, and new cards revoke it."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from referee.db import db
from referee.models import ChampEvent, RoundTable

from .championship_support import card_links, create, day_links, link_path, manager, register, round_tables

NAMES = ["Ana", "Bia", "Caio", "Davi", "Edu", "Fia", "Gil", "Hugo"]


def counts_form(phone: FlaskClient, cid: str, rnd: int, number: int) -> bool:
    return "chips_" in phone.get(f"/c/{cid}/r/{rnd}/m/{number}").get_data(as_text=True)


def sign_button(phone: FlaskClient, cid: str, rnd: int, number: int) -> bool:
    return f"/c/{cid}/r/{rnd}/m/{number}/sign" in phone.get(f"/c/{cid}/r/{rnd}/m/{number}").get_data(as_text=True)


def close_round(app: Flask, cid: str, rnd: int, scorer: dict[int, FlaskClient], fiscal: dict[int, FlaskClient]) -> None:
    """Every table of the round counted on paper by its scorer and signed by its fiscal."""
    for row in round_tables(app, cid, rnd):
        data = {f"chips_{e}": "100" for e in row.entries}
        assert scorer[row.number].post(f"/c/{cid}/r/{rnd}/m/{row.number}/counts", data=data).status_code == 302
        assert fiscal[row.number].post(f"/c/{cid}/r/{rnd}/m/{row.number}/sign").status_code == 302


def test_one_set_of_cards_serves_every_round_with_the_roles_apart(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES)
    # Printed before round 1: one card per number, the same links after every draw.
    scorers, fiscals = day_links(boss, cid, "scorer"), day_links(boss, cid, "fiscal")
    assert len(scorers) == len(fiscals) == 2
    early = app.test_client().get(link_path(scorers[0]))
    assert early.status_code == 404 and "Nenhuma rodada foi sorteada" in early.get_data(as_text=True)
    boss.post(f"/c/{cid}/rounds")
    scorer = {n: app.test_client() for n in (1, 2)}
    fiscal = {n: app.test_client() for n in (1, 2)}
    for n in (1, 2):
        assert scorer[n].get(link_path(scorers[n - 1])).status_code == 302
        assert fiscal[n].get(link_path(fiscals[n - 1])).status_code == 302
    assert counts_form(scorer[1], cid, 1, 1) and not sign_button(scorer[1], cid, 1, 1)
    assert sign_button(fiscal[1], cid, 1, 1) and not counts_form(fiscal[1], cid, 1, 1)
    assert scorer[1].post(f"/c/{cid}/r/1/m/1/sign").status_code == 403
    assert fiscal[1].post(f"/c/{cid}/r/1/m/1/counts", data={}).status_code == 403
    assert not counts_form(scorer[1], cid, 1, 2)  # a card is one number's
    round_card = app.test_client()
    assert round_card.get(link_path(card_links(boss, cid, 1, "scorer")[1])).status_code == 302
    assert counts_form(round_card, cid, 1, 2)
    close_round(app, cid, 1, scorer, fiscal)
    boss.post(f"/c/{cid}/rounds")
    assert day_links(boss, cid, "scorer") == scorers
    # The same card, scanned in round 2 by a new phone, is round 2's table at that number.
    newcomer = app.test_client()
    answer = newcomer.get(link_path(scorers[1]))
    (two,) = [t for t in round_tables(app, cid, 2) if t.number == 2]
    assert answer.status_code == 302 and answer.headers["Location"].endswith(f"/t/{two.table_id}")
    assert counts_form(newcomer, cid, 2, 2)
    # Round 1's phones: the table they held is closed, round 2's is read-only to them...
    assert not counts_form(scorer[1], cid, 1, 1) and not counts_form(scorer[1], cid, 2, 1)
    assert not sign_button(fiscal[1], cid, 2, 1)
    # ...until the phone that opened the card follows it to its number now, in its own role,
    # from the old table's page.
    assert f'href="/c/{cid}/m/1"' in scorer[1].get(f"/c/{cid}/r/1/m/1").get_data(as_text=True)
    assert scorer[1].get(f"/c/{cid}/m/1").status_code == 302
    assert fiscal[1].get(f"/c/{cid}/m/1").status_code == 302
    assert counts_form(scorer[1], cid, 2, 1) and not sign_button(scorer[1], cid, 2, 1)
    assert sign_button(fiscal[1], cid, 2, 1) and not counts_form(fiscal[1], cid, 2, 1)
    assert not counts_form(scorer[1], cid, 2, 2)  # never another number's
    # A phone that held round 1's table through that round's own card (a scoring app's) keeps
    # what it had, nothing more: round 2's table is reached through the day's card only.
    assert not counts_form(round_card, cid, 1, 2)
    assert round_card.get(f"/c/{cid}/m/2").status_code == 302
    assert not counts_form(round_card, cid, 2, 2)
    # A phone that never held the card only reads.
    stranger = app.test_client()
    assert stranger.get(f"/c/{cid}/m/1").status_code == 302
    assert not counts_form(stranger, cid, 2, 1)
    missing = stranger.get(f"/c/{cid}/m/3")
    assert missing.status_code == 404 and "não tem mesa 3" in missing.get_data(as_text=True)


def test_new_cards_for_a_number_revoke_its_old_cards_in_every_round(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES)
    old = day_links(boss, cid, "scorer")
    old_fiscal = day_links(boss, cid, "fiscal")
    boss.post(f"/c/{cid}/rounds")
    holder = app.test_client()
    assert holder.get(link_path(old[0])).status_code == 302
    assert counts_form(holder, cid, 1, 1)
    assert app.test_client().post(f"/c/{cid}/m/1/cards").status_code == 403  # the club's code
    answer = boss.post(f"/c/{cid}/m/1/cards")
    assert answer.status_code == 302 and answer.headers["Location"].endswith(f"/c/{cid}/cards/tables?table=1")
    new = day_links(boss, cid, "scorer")
    assert new[0] != old[0] and new[1] == old[1]  # only that number's
    assert day_links(boss, cid, "scorer", table="1") == [new[0]]
    for link in (old[0], old_fiscal[0]):
        refused = app.test_client().get(link_path(link))
        assert refused.status_code == 403 and "substituído" in refused.get_data(as_text=True)
    # The phone that used the old card lost the table and follows nothing.
    assert not counts_form(holder, cid, 1, 1)
    holder.get(f"/c/{cid}/m/1")
    assert not counts_form(holder, cid, 1, 1)
    fresh = app.test_client()
    assert fresh.get(link_path(new[0])).status_code == 302 and counts_form(fresh, cid, 1, 1)
    forged = app.test_client().get(f"/c/{cid}/m/1/card/{'A' * 43}")
    assert forged.status_code == 403
    with app.app_context():
        (line,) = db.session.scalars(select(ChampEvent).where(ChampEvent.kind == "cards_renewed")).all()
        assert (line.table, line.detail) == (1, {"generation": 2})
        assert db.session.scalar(select(RoundTable).where(RoundTable.number == 1)).scorer_access is not None
    refused = boss.post(f"/c/{cid}/m/9/cards")
    assert refused.status_code == 422 and "não tem a mesa 9" in refused.get_data(as_text=True)
    # The number typed on the manager's page (between rounds, when no table lists a button).
    assert boss.post(f"/c/{cid}/cards/tables/new", data={"number": "2"}).status_code == 302
    assert day_links(boss, cid, "scorer")[1] != old[1]
    for typed in ("x", "9", ""):
        assert boss.post(f"/c/{cid}/cards/tables/new", data={"number": typed}).status_code == 422
    assert app.test_client().post(f"/c/{cid}/cards/tables/new", data={"number": "1"}).status_code == 403


def test_the_scorer_and_fiscal_cards_say_what_to_do_with_them(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:4])
    for role, hint in (("scorer", "as mãos desta mesa"), ("fiscal", "a assinatura desta mesa")):
        page = boss.get(f"/c/{cid}/cards/tables?role={role}").get_data(as_text=True)
        (card,) = page.split('<article class="champ-card"')[1:]
        assert f'<p class="small card-hint">Aponte a câmera do celular: {hint}, em todas as rodadas.</p>' in card


def test_the_set_printed_before_round_1_has_a_card_for_every_table_the_draw_makes_at_tables_of_five(
    app: Flask,
) -> None:
    boss = manager(app)
    cid = create(boss, deals="10", table_size="5")
    register(boss, cid, [f"P{n}" for n in range(1, 10)])  # 9 players: a table of five and one of four
    printed = day_links(boss, cid, "scorer")
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    assert len(printed) == len(round_tables(app, cid, 1)) == 2
    assert day_links(boss, cid, "scorer") == printed


def test_a_table_number_that_is_no_plain_number_finds_no_card(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES)
    for odd in ("²", "٣", "1" * 40, "0", "3"):
        assert boss.get(f"/c/{cid}/cards/tables", query_string={"table": odd}).status_code == 404
    assert len(day_links(boss, cid, "scorer", table="2")) == 1
