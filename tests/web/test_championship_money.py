"""The money of a championship day: fees set on the form, a Pix code and a "received" tick at the
desk right after each entry and re-entry, the treasurer's cash box (page and CSV), each tick in
the day's history, and all of it through a backup."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import func, select

from referee import exports, pix
from referee.championship.money import parse_fee
from referee.db import db
from referee.models import ChampEvent, Championship, Entry, Reentry
from referee.rules.errors import InvalidInput

from .championship_support import create, manager, register

CREATE = {
    "game": "quatrilho",
    "chips": "100",
    "rounds": "3",
    "ends": "deals",
    "deals": "4",
    "table_size": "4",
    "late_until": "1",
    "reentries": "1",
    "reentry_points": "repaid",
    "tiebreak_0": "best_round",
}
NAMES = ["Ana", "Bia", "Caio", "Dani"]
FEES = {"entry_fee": "20", "reentry_fee": "10,50", "pix_key": "(11) 98765-4321", "pix_city": "Porto Alegre"}


@pytest.fixture
def fresh(make_app: Callable[..., Flask], tmp_path: Path) -> Callable[[], Flask]:
    return lambda: make_app({"INSTANCE_PATH": str(tmp_path / "fresh")}, empty=True)


def stored(app: Flask, cid: str) -> Championship:
    with app.app_context():
        row = db.session.get(Championship, cid)
        assert row is not None
        db.session.expunge(row)
        return row


def payload_on(page: str) -> str:
    """The Pix code (copia e cola) shown on a page."""
    start = page.index(">000201") + 1
    return page[start : page.index("</textarea>", start)]


def lines_of(app: Flask, kind_prefix: str) -> list[tuple[str, str, dict[str, Any]]]:
    with app.app_context():
        rows = db.session.scalars(
            select(ChampEvent).where(ChampEvent.kind.like(f"{kind_prefix}%")).order_by(ChampEvent.id)
        )
        return [(e.kind, e.actor, dict(e.detail)) for e in rows]


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("", "0"),
        ("20", "20"),
        ("20,00", "20"),
        ("R$ 12,50", "12.50"),
        (" 7.5 ", "7.50"),
        ("10000", "10000"),
        ("1.000", "1000"),
        ("1.000,00", "1000"),
        ("R$1.234,5", "1234.50"),
    ],
)
def test_a_fee_is_read_as_the_desk_types_it(typed: str, kept: str) -> None:
    assert parse_fee(typed, field="entry_fee") == kept


@pytest.mark.parametrize("typed", ["abc", "-5", "12,345", "1.00,5", "10001", "1e3", "NaN", "２０", "20,", 20])
def test_a_fee_that_is_not_money_is_refused(typed: object) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_fee(typed, field="reentry_fee")
    assert refused.value.field == "reentry_fee"


@given(cents=st.integers(min_value=0, max_value=1_000_000))
def test_a_fee_typed_the_brazilian_way_reads_back_the_same_amount(cents: int) -> None:
    reais, centavos = divmod(cents, 100)
    grouped = f"{reais:,}".replace(",", ".")
    for typed in (f"{reais},{centavos:02d}", f"R$ {grouped},{centavos:02d}", f"{reais}.{centavos:02d}"):
        assert Decimal(parse_fee(typed, field="entry_fee")) == Decimal(cents) / 100


def test_the_fees_and_the_key_are_set_on_the_form_and_a_bad_one_stores_nothing(app: Flask) -> None:
    boss = manager(app)
    form = boss.get("/c/new").get_data(as_text=True)
    assert 'name="entry_fee"' in form and 'name="pix_key"' in form and "Taxa de inscrição (R$)" in form
    cid = create(boss, **FEES)
    row = stored(app, cid)
    assert (row.entry_fee, row.reentry_fee, row.pix_key, row.pix_city) == (
        "20",
        "10.50",
        "+5511987654321",
        "Porto Alegre",
    )
    for bad, sentence in (
        ({"entry_fee": "vinte"}, "Uma taxa é um valor em reais"),
        ({"pix_key": "123"}, "não é uma chave Pix"),
    ):
        answer = boss.post("/c/new", data={**CREATE, "name": "Copa", **FEES, **bad})
        assert answer.status_code == 422
        assert sentence in answer.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Championship)) == 1


def test_the_desk_shows_the_fee_s_pix_code_right_after_a_registration_and_ticks_it(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss, **FEES)
    answer = boss.post(f"/c/{cid}/entries", data={"name": "Ana"})
    assert answer.status_code == 302 and "desk=entry-1" in answer.headers["Location"]
    page = boss.get(answer.headers["Location"]).get_data(as_text=True)
    assert "Taxa de inscrição de" in page and "R$\xa020,00" in page
    fields = pix.parse(payload_on(page))
    assert fields["54"] == "20.00" and fields["26"]["01"] == "+5511987654321"  # type: ignore[index]
    assert fields["62"]["05"] == "INSC1" and fields["60"] == "Porto Alegre"  # type: ignore[index]

    tick = boss.post(f"/c/{cid}/desk/entry/1", data={"received": "1", "back": "manage"})
    assert tick.status_code == 302 and tick.headers["Location"].endswith(f"/c/{cid}/manage#register")
    twice = boss.post(f"/c/{cid}/desk/entry/1", data={"received": "1"})
    assert twice.status_code == 409 and "já está marcada como recebida" in twice.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(Entry.fee_paid)) == "20"
    assert boss.post(f"/c/{cid}/desk/entry/1", data={"received": "0"}).status_code == 302
    assert boss.post(f"/c/{cid}/desk/entry/1", data={"received": "0"}).status_code == 409
    with app.app_context():
        assert db.session.scalar(select(Entry.fee_paid)) is None
    lines = lines_of(app, "entry_fee")
    assert [(kind, detail) for kind, _actor, detail in lines] == [
        ("entry_fee_received", {"amount": "20"}),
        ("entry_fee_unticked", {"amount": "20"}),
    ]
    assert all(actor.startswith("manager@") for _kind, actor, _detail in lines)
    history = boss.get(f"/c/{cid}/history").get_data(as_text=True)  # the money: the manager's only
    assert "Taxa de inscrição de Ana (nº 1) recebida: R$\xa020,00." in history
    assert "Taxa de inscrição" not in app.test_client().get(f"/c/{cid}/history").get_data(as_text=True)
    assert "Taxa de inscrição de Ana (nº 1) desmarcada como recebida (R$\xa020,00)." in history


def test_a_day_without_fees_shows_nothing_of_the_money_and_refuses_a_tick(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    answer = boss.post(f"/c/{cid}/entries", data={"name": "Ana"})
    assert "desk=" not in answer.headers["Location"]
    page = boss.get(f"/c/{cid}/manage?desk=entry-1").get_data(as_text=True)
    assert "Caixa" not in page and "000201" not in page
    assert boss.get(f"/c/{cid}/desk/entry/1").status_code == 404
    refused = boss.post(f"/c/{cid}/desk/entry/1", data={"received": "1"})
    assert refused.status_code == 422 and "não cobra essa taxa" in refused.get_data(as_text=True)
    assert lines_of(app, "entry_fee") == []


def test_without_a_key_the_desk_takes_cash_and_its_own_page_ticks_and_unticks(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss, entry_fee="25,00")
    answer = boss.post(f"/c/{cid}/entries", data={"name": "Ana"})
    page = boss.get(answer.headers["Location"]).get_data(as_text=True)
    assert "receba a taxa em dinheiro" in page and "000201" not in page and "Recebi R$\xa025,00" in page
    desk = boss.get(f"/c/{cid}/desk/entry/1")
    assert desk.status_code == 200 and "Recebi R$\xa025,00" in desk.get_data(as_text=True)
    tick = boss.post(f"/c/{cid}/desk/entry/1", data={"received": "1", "back": "desk"})
    assert tick.headers["Location"].endswith(f"/c/{cid}/desk/entry/1")
    after = boss.get(f"/c/{cid}/desk/entry/1").get_data(as_text=True)
    assert "✓ Recebido" in after and 'value="0"' in after
    assert boss.post(f"/c/{cid}/desk/entry/1", data={"received": "0", "back": "desk"}).status_code == 302
    assert "Recebi R$\xa025,00" in boss.get(f"/c/{cid}/desk/entry/1").get_data(as_text=True)
    assert [kind for kind, _actor, _detail in lines_of(app, "entry_fee")] == [
        "entry_fee_received",
        "entry_fee_unticked",
    ]


def test_only_the_club_s_code_reaches_the_desk_and_the_cash_box(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss, **FEES)
    register(boss, cid, ["Ana"])
    stranger = app.test_client()
    assert stranger.post(f"/c/{cid}/desk/entry/1", data={"received": "1"}).status_code == 403
    assert stranger.get(f"/c/{cid}/cashbox.csv").status_code == 403
    assert stranger.get(f"/c/{cid}/cashbox").status_code == 302
    assert stranger.get(f"/c/{cid}/desk/entry/1").status_code == 302
    assert boss.post(f"/c/{cid}/desk/entry/9", data={"received": "1"}).status_code == 404
    assert boss.post(f"/c/{cid}/desk/match/1", data={"received": "1"}).status_code == 404
    assert boss.post(f"/c/{cid}/desk/entry/1", data={"received": "yes"}).status_code == 422
    assert lines_of(app, "entry_fee") == []


def cash_box_day(app: Flask) -> tuple[FlaskClient, str]:
    """Four players at 20, a re-entry at 10,50; Ana's entry and the re-entry received."""
    boss = manager(app)
    cid = create(boss, **FEES)
    register(boss, cid, ["=Zé", *NAMES])
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "s"}).status_code == 302
    again = boss.post(f"/c/{cid}/reentries", data={"number": "3"})
    with app.app_context():
        reentry = db.session.scalar(select(Reentry))
        assert reentry is not None
        ref = reentry.id
    assert f"desk=reentry-{ref}" in again.headers["Location"]
    page = boss.get(again.headers["Location"]).get_data(as_text=True)
    assert "Taxa de reentrada de" in page and pix.parse(payload_on(page))["54"] == "10.50"
    assert boss.post(f"/c/{cid}/desk/reentry/{ref}", data={"received": "1", "back": "manage"}).status_code == 302
    assert boss.post(f"/c/{cid}/desk/entry/2", data={"received": "1"}).status_code == 302
    return boss, cid


def test_the_cash_box_counts_what_is_due_received_and_still_to_receive_by_name(app: Flask) -> None:
    boss, cid = cash_box_day(app)
    page = boss.get(f"/c/{cid}/cashbox")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "5 inscrições × R$\xa020,00" in text and "1 reentrada × R$\xa010,50" in text
    assert "R$\xa0110,50" in text and "R$\xa030,50" in text and "R$\xa080,00" in text
    waiting = text[text.index("4 taxas a receber") :]
    assert [n for n in ("=Zé", "Bia", "Caio", "Dani") if n in waiting] == ["=Zé", "Bia", "Caio", "Dani"]
    assert waiting.index("=Zé") < waiting.index("Bia") < waiting.index("Caio") < waiting.index("Dani")

    answer = boss.get(f"/c/{cid}/cashbox.csv")
    assert answer.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(answer.get_data(as_text=True))))
    assert rows[0] == ["what", "number", "name", "round", "due", "received", "to_receive", "status"]
    assert rows[1] == ["entry", "1", "'=Zé", "", "20.00", "", "20.00", ""]
    assert rows[2] == ["entry", "2", "Ana", "", "20.00", "20.00", "0.00", ""]
    assert ["reentry", "3", "Bia", "1", "10.50", "10.50", "0.00", ""] in rows
    assert rows[-1] == ["total", "", "", "", "110.50", "30.50", "80.00", ""]


def money_of(target: Flask, cid: str) -> tuple[Any, ...]:
    with target.app_context():
        row = db.session.get(Championship, cid)
        assert row is not None
        paid = sorted((e.number, e.fee_paid) for e in db.session.scalars(select(Entry)))
        again = [r.fee_paid for r in db.session.scalars(select(Reentry))]
        return row.entry_fee, row.reentry_fee, row.pix_key, row.pix_city, paid, again


def test_the_fees_and_their_ticks_travel_through_a_backup(app: Flask, fresh: Callable[[], Flask]) -> None:
    _boss, cid = cash_box_day(app)
    with app.app_context():
        document = json.loads(json.dumps(exports.backup()))
    before = money_of(app, cid)
    assert before[4][1] == (2, "20") and before[5] == ["10.50"]
    second = fresh()
    with second.app_context():
        exports.restore(document)
    assert money_of(second, cid) == before


def test_a_backup_made_before_the_fees_restores_charging_nothing(app: Flask, fresh: Callable[[], Flask]) -> None:
    _boss, cid = cash_box_day(app)
    with app.app_context():
        document = json.loads(json.dumps(exports.backup()))
    day = document["championships"][0]
    for key in ("entry_fee", "reentry_fee", "pix_key", "pix_city"):
        del day["settings"][key]
    for row in day["entries"] + day["reentries"]:
        del row["fee_paid"]
    second = fresh()
    with second.app_context():
        exports.restore(document)
    assert money_of(second, cid) == ("0", "0", "", "", [(n, None) for n in range(1, 6)], [None])


def test_a_received_reentry_is_given_back_before_it_is_undone_and_then_leaves_the_cash_box(app: Flask) -> None:
    boss, cid = cash_box_day(app)
    with app.app_context():
        ref = db.session.scalar(select(Reentry.id))
    refused = boss.post(f"/c/{cid}/reentries/{ref}/undo")
    assert refused.status_code == 422
    assert "devolva o dinheiro" in refused.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Reentry, ref).undone_at is None
    assert boss.post(f"/c/{cid}/desk/reentry/{ref}", data={"received": "0"}).status_code == 302
    assert boss.post(f"/c/{cid}/reentries/{ref}/undo").status_code == 302
    rows = list(csv.reader(io.StringIO(boss.get(f"/c/{cid}/cashbox.csv").get_data(as_text=True))))
    assert not [row for row in rows if row[0] == "reentry"]
    assert rows[-1] == ["total", "", "", "", "100.00", "20.00", "80.00", ""]


def test_the_fees_can_be_mended_after_the_draw_and_other_settings_cannot(app: Flask) -> None:
    boss, cid = cash_box_day(app)
    form = {"name": "Copa da Primavera", **FEES, "entry_fee": "25"}
    assert boss.post(f"/c/{cid}/settings", data=form).status_code == 302
    assert stored(app, cid).entry_fee == "25"
    refused = boss.post(f"/c/{cid}/settings", data={**form, "rounds": "4"})
    assert refused.status_code == 422
    assert stored(app, cid).rounds == 3


def test_the_cash_box_adds_up_after_a_fee_changes_and_keeps_what_a_tick_took(app: Flask) -> None:
    boss, cid = cash_box_day(app)  # Ana's entry received at 20
    form = {"name": "Copa da Primavera", **FEES, "entry_fee": "25"}
    assert boss.post(f"/c/{cid}/settings", data=form).status_code == 302
    rows = list(csv.reader(io.StringIO(boss.get(f"/c/{cid}/cashbox.csv").get_data(as_text=True))))
    assert rows[2] == ["entry", "2", "Ana", "", "20.00", "20.00", "0.00", ""]
    assert rows[1] == ["entry", "1", "'=Zé", "", "25.00", "", "25.00", ""]
    assert rows[-1] == ["total", "", "", "", "130.50", "30.50", "100.00", ""]  # 4 × 25 + 20 + 10,50
    text = boss.get(f"/c/{cid}/cashbox").get_data(as_text=True)
    assert "R$\xa0130,50" in text and "R$\xa0100,00" in text and "R$\xa0120,00" in text
    assert "Um recebimento marcado guarda o valor recebido" in text


def test_an_absent_player_owes_no_entry_fee_and_every_line_shows_its_player_s_status(app: Flask) -> None:
    boss, cid = cash_box_day(app)  # Ana (2) received; Zé (1), Bia (3), Caio (4), Dani (5) to receive
    for number, status in ((4, "absent"), (5, "withdrawn"), (2, "absent")):
        assert boss.post(f"/c/{cid}/n/{number}/status", data={"status": status}).status_code == 302
    rows = list(csv.reader(io.StringIO(boss.get(f"/c/{cid}/cashbox.csv").get_data(as_text=True))))
    assert ["entry", "4", "Caio", "", "0.00", "", "0.00", "absent"] in rows
    assert ["entry", "5", "Dani", "", "20.00", "", "20.00", "withdrawn"] in rows
    assert ["entry", "2", "Ana", "", "20.00", "20.00", "0.00", "absent"] in rows  # he paid: it stays received
    assert rows[-1] == ["total", "", "", "", "90.50", "30.50", "60.00", ""]
    text = boss.get(f"/c/{cid}/cashbox").get_data(as_text=True)
    excused = text[text.index("1 jogador ausente (não compareceu) não deve a inscrição.") :]
    assert f'href="/c/{cid}/desk/entry/4">Caio</a>' in excused[: excused.index("</p>")]
    waiting = text[text.index("3 taxas a receber") :]
    assert "Caio" not in waiting[: waiting.index("</ul>")] and "desistiu" in waiting
    assert "R$\xa090,50" in text and "R$\xa060,00" in text
