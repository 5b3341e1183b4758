"""The committee mends its entries: a name corrected, a player withdrawn, absent or disqualified
(out of the next draws, marked on the ranking, each a line of the day's history), and a
re-entry seen before it is recorded and undone when the card number was the wrong one."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from referee import exports
from referee.db import db
from referee.models import ChampEvent, Championship, Entry, Member, Reentry, Seat

from .championship_support import card_links, create, manager, names_at, register, round_tables, score, token_of

NAMES = ["Ana", "Bia", "Caio", "Dani", "Edu", "Fábio", "Gil", "Hugo", "Ivo", "Jair"]


def text(answer: object) -> str:
    return answer.get_data(as_text=True)  # type: ignore[attr-defined]


def numbers_at(app: Flask, cid: str, round_number: int) -> set[int]:
    with app.app_context():
        numbers = dict(db.session.execute(select(Entry.id, Entry.number)).all())
    return {numbers[e] for t in round_tables(app, cid, round_number) for e in t.entries}


def lines(app: Flask, cid: str) -> list[str]:
    return [kind for (kind,) in _rows(app, cid)]


def _rows(app: Flask, cid: str) -> list[tuple[str]]:
    with app.app_context():
        return [
            (line.kind,)
            for line in db.session.scalars(
                select(ChampEvent).where(ChampEvent.championship_id == cid).order_by(ChampEvent.id)
            )
        ]


def test_a_name_is_corrected_unique_and_followed_by_the_unplayed_tables(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, ["Ana", "Bia", "Caio", "Dani", "Edu", "Fabio", "Gil", "Hugo"])
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "s"}).status_code == 302
    played, untouched = round_tables(app, cid, 1)
    assert score(boss, played, names_at(app, played), token_of(card_links(boss, cid, 1, "scorer")[0])) == 201
    with app.app_context():
        at_played = db.session.get(Entry, played.entries[0]).number
        at_untouched = db.session.get(Entry, untouched.entries[0]).number
    other = names_at(app, untouched)[1]

    taken = boss.post(f"/c/{cid}/n/{at_untouched}/name", data={"name": other.upper()})
    assert taken.status_code == 422
    assert f"{other} já tem inscrição" in text(taken)
    assert boss.post(f"/c/{cid}/n/{at_untouched}/name", data={"name": "  "}).status_code == 422
    assert app.test_client().post(f"/c/{cid}/n/{at_untouched}/name", data={"name": "Zé"}).status_code == 403

    assert boss.post(f"/c/{cid}/n/{at_untouched}/name", data={"name": "Fábio Souza"}).status_code == 302
    assert boss.post(f"/c/{cid}/n/{at_played}/name", data={"name": "Ana Lúcia"}).status_code == 302
    with app.app_context():
        renamed = db.session.scalar(select(Entry).where(Entry.number == at_untouched))
        assert renamed.name == "Fábio Souza" and db.session.get(Member, renamed.member_id).name == "Fábio Souza"
        seat = db.session.scalar(select(Seat).where(Seat.table_id == untouched.table_id, Seat.position == 0))
        assert (seat.name, seat.member_id) == ("Fábio Souza", renamed.member_id)
        kept = db.session.scalar(select(Seat).where(Seat.table_id == played.table_id, Seat.position == 0))
        assert kept.name != "Ana Lúcia"  # its hand's record names him as he was
    page = text(app.test_client().get(f"/c/{cid}/history"))
    assert "O nº" in page and "Fábio Souza" in page
    assert "Ana Lúcia" in text(app.test_client().get(f"/c/{cid}"))


def test_withdrawn_absent_and_disqualified_players_leave_the_draw_and_are_marked(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES)
    assert boss.post(f"/c/{cid}/n/9/status", data={"status": "absent"}).status_code == 302
    assert boss.post(f"/c/{cid}/n/10/status", data={"status": "withdrawn"}).status_code == 302
    assert boss.post(f"/c/{cid}/n/10/status", data={"status": "withdrawn"}).status_code == 422
    no_reason = boss.post(f"/c/{cid}/n/1/status", data={"status": "disqualified", "reason": "  "})
    assert no_reason.status_code == 422 and "motivo" in text(no_reason)
    assert boss.post(f"/c/{cid}/n/1/status", data={"status": "expelled"}).status_code == 422
    assert app.test_client().post(f"/c/{cid}/n/2/status", data={"status": "absent"}).status_code == 403
    with app.app_context():
        assert db.session.scalar(select(Entry.status).where(Entry.number == 1)) == ""
    assert lines(app, cid).count("registered") == 10 and len(lines(app, cid)) == 12

    assert boss.post(f"/c/{cid}/rounds", data={"seed": "s"}).status_code == 302
    assert numbers_at(app, cid, 1) == set(range(1, 9))

    reason = "Trocou cartas com o parceiro"
    assert boss.post(f"/c/{cid}/n/1/status", data={"status": "disqualified", "reason": reason}).status_code == 302
    ranking = text(app.test_client().get(f"/c/{cid}"))
    assert f"desclassificado: {reason}" in ranking and "ausente" in ranking and "desistiu" in ranking
    assert ranking.index("Jair") < ranking.index("Ana")  # no place: below every ranked line
    csv = text(app.test_client().get(f"/c/{cid}/ranking.csv")).splitlines()
    assert csv[-1].startswith(",1,Ana,") and csv[-1].endswith(f"disqualified,{reason}")
    manage = text(boss.get(f"/c/{cid}/n/1/manage"))
    assert "Retirar a desclassificação" in manage and reason in manage

    assert boss.post(f"/c/{cid}/n/9/status", data={"status": ""}).status_code == 302  # he turned up
    history = text(app.test_client().get(f"/c/{cid}/history"))
    assert f"Ana (nº 1) desclassificada: {reason}" not in history  # the sentences assume no one's gender
    assert f"Desclassificação de Ana (nº 1): {reason}" in history
    assert "Presença de Ivo (nº 9) confirmada." in history and "Jair (nº 10) desistiu" in history
    with app.app_context():
        assert db.session.scalar(select(Entry.status).where(Entry.number == 9)) == ""


def test_a_field_that_does_not_fill_the_tables_is_told_what_to_do(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:8])
    assert boss.post(f"/c/{cid}/n/8/status", data={"status": "absent"}).status_code == 302
    refused = boss.post(f"/c/{cid}/rounds")
    assert refused.status_code == 422
    assert "7 jogadores em jogo" in text(refused) and "ausente" in text(refused) and "desistência" in text(refused)
    assert numbers_at(app, cid, 1) == set()
    assert boss.post(f"/c/{cid}/n/8/status", data={"status": ""}).status_code == 302
    assert boss.post(f"/c/{cid}/rounds").status_code == 302


def test_a_reentry_names_the_player_and_his_table_before_anything_is_recorded(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:4])
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    preview = boss.get(f"/c/{cid}/reentries/new?number=3")
    assert preview.status_code == 200
    assert "Caio" in text(preview) and "Mesa 1" in text(preview) and 'name="number" value="3"' in text(preview)
    assert "Confere?" in text(preview) and "Página do jogador" in text(preview) and " ele " not in text(preview)
    assert boss.get(f"/c/{cid}/reentries/new?number=77").status_code == 404
    assert app.test_client().get(f"/c/{cid}/reentries/new?number=3").status_code == 302  # the club's code first
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Reentry)) == 0
    assert boss.post(f"/c/{cid}/reentries", data={"number": "3"}).status_code == 302
    again = boss.get(f"/c/{cid}/reentries/new?number=3")  # one a round: refused before the second tap
    assert again.status_code == 422 and "Caio" in text(again)


def sign(app: Flask, fiscal_link: str, cid: str, table: int) -> int:
    fiscal = app.test_client()
    assert fiscal.get(fiscal_link).status_code == 302
    return fiscal.post(f"/c/{cid}/r/1/m/{table}/sign").status_code


def test_a_mistyped_card_number_is_undone_and_no_table_counts_phantom_chips(app: Flask) -> None:
    """The issue's scenario: a player of table 2 re-enters, the desk types a number of table 1;
    undone, table 1 counts and signs its 400 chips, table 2 its 500."""
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:8])
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "s"}).status_code == 302
    one, two = round_tables(app, cid, 1)
    with app.app_context():
        wrong, right = (db.session.get(Entry, t.entries[0]) for t in (one, two))
        wrong_number, right_number = wrong.number, right.number
    assert boss.post(f"/c/{cid}/reentries", data={"number": str(wrong_number)}).status_code == 302
    assert boss.post(f"/c/{cid}/reentries", data={"number": str(right_number)}).status_code == 302
    with app.app_context():
        mistake = db.session.scalar(select(Reentry).where(Reentry.entry_id == wrong.id))
        mistake_id = mistake.id
    assert app.test_client().post(f"/c/{cid}/reentries/{mistake_id}/undo").status_code == 403
    assert boss.post(f"/c/{cid}/reentries/{mistake_id}/undo").status_code == 302
    assert boss.post(f"/c/{cid}/reentries/{mistake_id}/undo").status_code == 409
    assert boss.post(f"/c/{cid}/reentries/{2**31 - 1}/undo").status_code == 404

    scorers, fiscals = card_links(boss, cid, 1, "scorer"), card_links(boss, cid, 1, "fiscal")
    for link, row, counts in ((scorers[0], one, ["100"] * 4), (scorers[1], two, ["200", "100", "100", "100"])):
        paper = app.test_client()
        assert paper.get(link).status_code == 302
        form = {f"chips_{e}": n for e, n in zip(row.entries, counts, strict=True)}
        answer = paper.post(f"/c/{cid}/r/1/m/{row.number}/counts", data=form)
        assert answer.status_code == 302, text(answer)
    assert sign(app, fiscals[0], cid, 1) == 302 and sign(app, fiscals[1], cid, 2) == 302

    with app.app_context():
        kept = db.session.get(Reentry, mistake_id)
        assert kept.undone_at is not None and kept.undone_by.startswith("manager@")
        live = db.session.scalar(select(Reentry).where(Reentry.entry_id == right.id))
        live_id = live.id
    refused = boss.post(f"/c/{cid}/reentries/{live_id}/undo")  # his table is signed off
    assert refused.status_code == 422
    csv = text(app.test_client().get(f"/c/{cid}/ranking.csv")).splitlines()
    by_number = {row.split(",")[1]: row.split(",") for row in csv[1:]}
    assert by_number[str(wrong_number)][3] == "100" and by_number[str(wrong_number)][-4] == "0"
    assert by_number[str(right_number)][3] == "100" and by_number[str(right_number)][-4] == "1"  # 200, 100 repaid
    assert "foi desfeita" in text(app.test_client().get(f"/c/{cid}/history"))


def reentry(boss: FlaskClient, cid: str, number: int) -> int:
    return boss.post(f"/c/{cid}/reentries", data={"number": str(number)}).status_code


@pytest.mark.parametrize("when", ["out", "asked"])
def test_at_a_table_recorded_hand_by_hand_a_player_with_chips_cannot_reenter(app: Flask, when: str) -> None:
    boss = manager(app)
    cid = create(boss, chips="10", deals="8", reentry_when=when)
    register(boss, cid, NAMES[:4])
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    (row,) = round_tables(app, cid, 1)
    players = names_at(app, row)
    token = token_of(card_links(boss, cid, 1, "scorer")[0])
    with app.app_context():
        loser = db.session.get(Entry, row.entries[1]).number  # the second seat loses 6 a hand
    assert score(boss, row, players, token) == 201
    early = boss.get(f"/c/{cid}/reentries/new?number={loser}")
    if when == "asked":
        assert early.status_code == 200 and reentry(boss, cid, loser) == 302
        return
    assert early.status_code == 422 and "ainda tem 4 fichas" in text(early)
    assert reentry(boss, cid, loser) == 422
    assert score(boss, row, players, token) == 201  # down to -2: out
    assert reentry(boss, cid, loser) == 302


@pytest.fixture
def fresh(make_app: Callable[..., Flask], tmp_path: Path) -> Callable[[], Flask]:
    return lambda: make_app({"INSTANCE_PATH": str(tmp_path / "fresh")}, empty=True)


def test_states_and_undone_reentries_travel_in_a_backup_and_older_ones_default(
    app: Flask, fresh: Callable[[], Flask]
) -> None:
    boss = manager(app)
    cid = create(boss, reentry_when="asked")
    register(boss, cid, NAMES[:5])
    assert boss.post(f"/c/{cid}/n/5/status", data={"status": "disqualified", "reason": "Não veio"}).status_code == 302
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    assert reentry(boss, cid, 2) == 302
    with app.app_context():
        undo = db.session.scalar(select(Reentry.id))
    assert boss.post(f"/c/{cid}/reentries/{undo}/undo").status_code == 302
    with app.app_context():
        document = json.loads(json.dumps(exports.backup()))
    mixed = copy.deepcopy(document)  # the other entries and the settings as an older backup has them
    for entry in mixed["championships"][0]["entries"][:4]:
        del entry["status"], entry["status_reason"]
    del mixed["championships"][0]["settings"]["reentry_when"]

    second = fresh()
    with second.app_context():
        exports.restore(mixed)
        out = db.session.scalar(select(Entry).where(Entry.number == 5))
        assert (out.status, out.status_reason) == ("disqualified", "Não veio")
        assert db.session.scalar(select(Entry.status).where(Entry.number == 1)) == ""
        assert db.session.scalar(select(Reentry.undone_by)).startswith("manager@")
        assert db.session.scalar(select(Championship.reentry_when)) == "out"


@pytest.mark.parametrize(("reentries", "offered"), [("", True), ("2", True), ("0", False)])
def test_the_re_entry_form_is_on_the_manager_page_unless_the_day_takes_none(
    app: Flask, reentries: str, offered: bool
) -> None:
    """No limit (empty, the regulation's default) is stored as no number at all: it must still
    offer the re-entry, as any limit above 0 does."""
    boss = manager(app)
    cid = create(boss, reentries=reentries)
    register(boss, cid, NAMES[:8])
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "s"}).status_code == 302
    assert ('id="reentry-number"' in text(boss.get(f"/c/{cid}/manage"))) is offered


def test_the_desk_speaks_of_a_player_without_assuming_a_man(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:4])
    assert boss.post(f"/c/{cid}/n/2/status", data={"status": "absent"}).status_code == 302
    back = boss.post(f"/c/{cid}/n/2/status", data={"status": ""}, follow_redirects=True)
    assert "entra no próximo sorteio" in text(back) and "o coloca" not in text(back)
    manage = text(boss.get(f"/c/{cid}/n/1/manage"))
    assert "Página do jogador" in manage and "Em jogo: entra no próximo sorteio." in manage
    same = boss.post(f"/c/{cid}/n/1/name", data={"name": NAMES[0]})
    assert same.status_code == 422 and "dele" not in text(same)


@pytest.mark.parametrize(
    ("status", "words"),
    [("withdrawn", "Caio saiu do campeonato"), ("absent", "Caio está marcado como ausente"), ("disqualified", "")],
)
def test_a_player_out_of_play_is_refused_a_reentry_with_a_sentence(app: Flask, status: str, words: str) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:4])
    assert boss.post(f"/c/{cid}/rounds").status_code == 302
    form = {"status": status, "reason": "Marcou cartas"}
    assert boss.post(f"/c/{cid}/n/3/status", data=form).status_code == 302
    for answer in (
        boss.get(f"/c/{cid}/reentries/new?number=3"),
        boss.post(f"/c/{cid}/reentries", data={"number": "3"}),
    ):
        assert answer.status_code == 422 and (words or "Caio tem uma desclassificação registrada") in text(answer)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Reentry)) == 0
