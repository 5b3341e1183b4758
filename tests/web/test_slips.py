"""Slips are cheap to mend: "undo" asks first and can be redone, a save sent twice says it was
already saved and shows the hand, closing a table asks first and the owner can reopen it."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import ledger

from .api_support import API, create_table, get_table, record_ok, solo_record
from .test_live import OUTBOX, all_pass_draft, owner_phone, scorer_phone, solo_draft


def _hands(client: FlaskClient, tid: str) -> list[dict[str, Any]]:
    return get_table(client, tid)["hands"]


def _live(client: FlaskClient, tid: str) -> list[tuple[int, bool]]:
    return [(h["number"], bool(h.get("void"))) for h in _hands(client, tid)]


def _saved_one(app: Flask) -> tuple[dict[str, Any], FlaskClient]:
    """A table whose owner's phone just recorded hand 1 (a Solo Sete) through the pages."""
    table = create_table(app.test_client())
    phone = owner_phone(app, table)
    assert phone.post(f"/t/{table['id']}/hand", data={"d": solo_draft(phone, table["id"])}).status_code == 302
    return table, phone


def _text(response: Any) -> str:
    return unescape(response.get_data(as_text=True))


# --------------------------------------------------------------------------- undo asks, then redo


def test_undo_asks_first_and_only_the_answer_voids(app: Flask) -> None:
    table, phone = _saved_one(app)
    tid = table["id"]
    show = _text(phone.get(f"/t/{tid}"))
    assert f'href="/t/{tid}/hands/1/undo"' in show  # a link to the question, not a form that voids
    assert f'action="/t/{tid}/hands/1/undo"' not in show
    ask = phone.get(f"/t/{tid}/hands/1/undo")
    html = _text(ask)
    assert ask.status_code == 200 and "<h1>Undo hand 1?</h1>" in html
    assert 'id="hand-1"' in html  # the hand it is about
    assert re.search(rf'<a class="btn btn-primary btn-big" href="/t/{tid}">No, keep it</a>', html)
    assert f'<form method="post" action="/t/{tid}/hands/1/undo">' in html and "Yes, undo" in html
    assert _live(phone, tid) == [(1, False)]  # asking changed nothing
    assert phone.post(f"/t/{tid}/hands/1/undo").status_code == 302
    assert _live(phone, tid) == [(1, True)]


def test_the_undo_question_speaks_portuguese(app: Flask) -> None:
    table, phone = _saved_one(app)
    phone.set_cookie("lang", "pt_BR")
    html = _text(phone.get(f"/t/{table['id']}/hands/1/undo"))
    assert "Desfazer a mão 1?" in html and "Sim, desfazer" in html and "Não, manter" in html


def test_redo_brings_the_same_hand_back_as_a_new_entry(app: Flask) -> None:
    table, phone = _saved_one(app)
    tid = table["id"]
    before = get_table(phone, tid)
    phone.post(f"/t/{tid}/hands/1/undo")
    undone = get_table(phone, tid)
    assert undone["totals"] == dict.fromkeys(before["totals"], 0)
    show = _text(phone.get(f"/t/{tid}"))
    assert f'action="/t/{tid}/hands/1/redo"' in show and "Redo hand 1" in show and "Hand 1 undone." in show
    assert "/hands/1/undo" not in show
    assert phone.post(f"/t/{tid}/hands/1/redo").status_code == 302
    after = get_table(phone, tid)
    assert [(h["number"], bool(h.get("void"))) for h in after["hands"]] == [(1, True), (2, False)]
    old, new = after["hands"]
    assert new["restores"] == 1 and new["record"] == old["record"] and new["deltas"] == old["deltas"]
    assert after["totals"] == before["totals"] and after["next_dealer"] == before["next_dealer"]
    assert old["voided"]["reason"]  # the void stays in the history
    # A second tap stores nothing more and says the hand is back (not a refusal); the hand
    # brought back can be undone again.
    again = _text(phone.post(f"/t/{tid}/hands/1/redo", follow_redirects=True))
    assert "Hand 1 is back." in again and "can be brought back" not in again
    assert _live(phone, tid) == [(1, True), (2, False)]
    show = _text(phone.get(f"/t/{tid}"))
    assert f'href="/t/{tid}/hands/2/undo"' in show and "/redo" not in show
    assert app.test_client().get(f"{API}/tables/{tid}/hands/2").get_json()["restores"] == 1


def test_undo_and_redo_speak_of_the_number_the_pages_show(app: Flask) -> None:
    """Hand 1 undone and brought back is stored as hand 2 but is still the first hand played:
    the bar, the question and the message all say "hand 1"."""
    table, phone = _saved_one(app)
    tid = table["id"]
    phone.post(f"/t/{tid}/hands/1/undo")
    back = _text(phone.post(f"/t/{tid}/hands/1/redo", follow_redirects=True))
    assert "Hand 1 is back." in back and "Hand 1 recorded." in back and "Hand 2 recorded" not in back
    assert f'href="/t/{tid}/hands/2/undo"' in back  # the stored number stays in the links
    assert "<h1>Undo hand 1?</h1>" in _text(phone.get(f"/t/{tid}/hands/2/undo"))
    phone.post(f"/t/{tid}/hands/2/undo")
    again = _text(phone.get(f"/t/{tid}"))
    assert "Hand 1 undone." in again and "Redo hand 1" in again and f'action="/t/{tid}/hands/2/redo"' in again


def test_redo_is_refused_once_another_hand_was_recorded(app: Flask) -> None:
    table, phone = _saved_one(app)
    tid = table["id"]
    phone.post(f"/t/{tid}/hands/1/undo")
    record_ok(app.test_client(), table, solo_record(get_table(phone, tid)["next_dealer"]))
    assert "/redo" not in _text(phone.get(f"/t/{tid}"))
    refused = phone.post(f"/t/{tid}/hands/1/redo", follow_redirects=True)
    assert "can no longer be brought back" in _text(refused)
    assert _live(phone, tid) == [(1, True), (2, False)]


def test_redo_is_only_for_the_phone_that_undid_and_never_for_a_watcher(app: Flask) -> None:
    table, phone = _saved_one(app)
    tid = table["id"]
    other = scorer_phone(app, phone, tid)
    watcher = app.test_client()
    # Another scorer neither sees nor may use this phone's undo; a watcher may not even ask.
    assert "/hands/1/undo" not in _text(other.get(f"/t/{tid}"))
    assert other.get(f"/t/{tid}/hands/1/undo").status_code == 302
    assert watcher.get(f"/t/{tid}/hands/1/undo").status_code == 401
    assert watcher.post(f"/t/{tid}/hands/1/undo").status_code == 401
    assert _live(phone, tid) == [(1, False)]
    phone.post(f"/t/{tid}/hands/1/undo")
    for path in (f"/t/{tid}", f"/w/{tid}"):
        assert "/redo" not in _text(watcher.get(path)) and "/redo" not in _text(other.get(path))
    assert "/redo" not in _text(phone.get(f"/w/{tid}"))  # the read-only view, even on this phone
    assert watcher.post(f"/t/{tid}/hands/1/redo").status_code == 401
    assert other.post(f"/t/{tid}/hands/1/redo").status_code == 302
    assert phone.post(f"/t/{tid}/hands/7/redo").status_code == 302  # a forged number
    assert _live(phone, tid) == [(1, True)]


# --------------------------------------------------------------------------- a save sent twice


def test_a_double_tapped_save_says_already_saved_and_shows_the_hand(app: Flask) -> None:
    table = create_table(app.test_client())
    tid = table["id"]
    phone = owner_phone(app, table)
    d = solo_draft(phone, tid)
    assert phone.post(f"/t/{tid}/hand", data={"d": d}).headers["Location"] == f"/t/{tid}"
    again = phone.post(f"/t/{tid}/hand", data={"d": d})
    assert again.status_code == 302 and again.headers["Location"] == f"/t/{tid}/hands/1/saved"
    page = phone.get(again.headers["Location"])
    html = _text(page)
    assert page.status_code == 200 and "<h1>This hand was already saved</h1>" in html
    assert 'id="hand-1"' in html and "Solo Sete" in html
    assert _live(phone, tid) == [(1, False)]
    phone.set_cookie("lang", "pt_BR")
    assert "Esta mão já foi salva" in _text(phone.get(f"/t/{tid}/hands/1/saved"))


def test_a_save_resent_after_moving_on_stores_nothing_new(app: Flask) -> None:
    table = create_table(app.test_client())
    tid = table["id"]
    phone = owner_phone(app, table)
    d = solo_draft(phone, tid)
    phone.post(f"/t/{tid}/hand", data={"d": d})
    # The player goes on: the table, the next hand's first step; then the old page is re-sent.
    phone.get(f"/t/{tid}")
    phone.post(f"/t/{tid}/hand/all-pass", data={"d": all_pass_draft(phone, tid), "all_pass": "1"})
    resent = phone.post(f"/t/{tid}/hand", data={"d": d})
    assert resent.headers["Location"] == f"/t/{tid}/hands/1/saved"
    assert _live(phone, tid) == [(1, False), (2, False)]
    # Through the page's outbox, swapped in by its script: the same page, with its address.
    swapped = phone.post(f"/t/{tid}/hand", data={"d": d}, headers={**OUTBOX, "X-Swap": "true"})
    assert swapped.status_code == 200 and swapped.headers["X-Swap-Push-Url"] == f"/t/{tid}/hands/1/saved"
    assert "This hand was already saved" in _text(swapped)
    assert _live(phone, tid) == [(1, False), (2, False)]


def test_the_api_answers_a_resent_hand_with_the_first_answer(app: Flask) -> None:
    client = app.test_client()
    table = create_table(client)
    record = solo_record(get_table(client, table["id"])["next_dealer"])
    headers = {"Idempotency-Key": "tap-tap"}
    first = record_ok(client, table, record, headers=headers)
    second = client.post(
        f"{API}/tables/{table['id']}/hands",
        json=record,
        headers={**headers, "Authorization": f"Bearer {table['token']}"},
    )
    assert second.status_code in (200, 201) and second.get_json() == first
    assert len(_hands(client, table["id"])) == 1


def test_the_already_saved_page_of_no_hand_is_a_404(app: Flask) -> None:
    table = create_table(app.test_client())
    assert app.test_client().get(f"/t/{table['id']}/hands/3/saved").status_code == 404


# --------------------------------------------------------------------------- closing asks, reopening


def test_closing_asks_first_and_the_owner_can_reopen(app: Flask) -> None:
    table, owner = _saved_one(app)
    tid = table["id"]
    for page in (f"/t/{tid}/settle", f"/t/{tid}/share"):
        assert f'<form method="get" action="/t/{tid}/end"' in _text(owner.get(page))
    ask = owner.get(f"/t/{tid}/end")
    html = _text(ask)
    assert ask.status_code == 200 and "<h1>Close the table?</h1>" in html
    assert 'name="confirm" value="1"' in html and "Yes, close the table" in html
    assert not get_table(owner, tid)["finished"]  # asking changed nothing
    owner.post(f"/t/{tid}/end", data={"confirm": "1"})
    assert get_table(owner, tid)["finished"]
    assert owner.get(f"/t/{tid}/end").status_code == 302  # nothing to ask any more
    show = _text(owner.get(f"/t/{tid}"))
    assert f'action="/t/{tid}/reopen"' in show and "Reopen the table" in show
    assert owner.post(f"/t/{tid}/reopen").status_code == 302
    assert not get_table(owner, tid)["finished"]
    record_ok(app.test_client(), table, solo_record(get_table(owner, tid)["next_dealer"]))  # hands again


def test_closing_never_says_it_is_for_good(app: Flask) -> None:
    """A closed table can be reopened: the share page's button says "close", and the line
    beside it says the owner can reopen it, as the question page does."""
    table, owner = _saved_one(app)
    tid = table["id"]
    owner.set_cookie("lang", "pt_BR")
    for page in (f"/t/{tid}/share", f"/t/{tid}/end"):
        html = _text(owner.get(page))
        assert "de vez" not in html and "definitiv" not in html
        assert "Encerrou cedo demais? Dá para reabrir na página da mesa." in html, page
    share = _text(owner.get(f"/t/{tid}/share"))
    form = share.split(f'action="/t/{tid}/end"', 1)[1].split("</form>", 1)[0]
    assert re.search(r'<button class="btn btn-danger" type="submit">Encerrar a mesa</button>', form)


def test_only_the_owner_reopens(app: Flask) -> None:
    table, owner = _saved_one(app)
    tid = table["id"]
    scorer = scorer_phone(app, owner, tid)
    watcher = app.test_client()
    assert scorer.get(f"/t/{tid}/end").status_code == 403
    owner.post(f"/t/{tid}/end", data={"confirm": "1"})
    for phone in (scorer, watcher):
        assert "/reopen" not in _text(phone.get(f"/t/{tid}"))
    assert "/reopen" not in _text(owner.get(f"/w/{tid}"))
    assert scorer.post(f"/t/{tid}/reopen").status_code == 403
    assert watcher.post(f"/t/{tid}/reopen").status_code == 403
    assert get_table(owner, tid)["finished"]


def test_restore_in_the_ledger_refuses_a_live_hand(app: Flask) -> None:
    table, _phone = _saved_one(app)
    with app.app_context(), pytest.raises(ledger.Conflict):
        ledger.restore_hand(ledger.get_table(table["id"]), 1)
    assert _live(app.test_client(), table["id"]) == [(1, False)]


def test_a_hand_undone_and_redone_is_not_called_corrected(app: Flask) -> None:
    """The version a redo brought back sits under "Before the undo"; only a correction's
    earlier version sits under "Before the correction"."""
    table, phone = _saved_one(app)
    tid = table["id"]
    phone.post(f"/t/{tid}/hands/1/undo")
    phone.post(f"/t/{tid}/hands/1/redo")
    for page in (f"/t/{tid}", f"/t/{tid}/history"):
        html = _text(phone.get(page))
        assert "Before the correction" not in html and ">corrected<" not in html
        assert "Before the undo" in html
    phone.set_cookie("lang", "pt_BR")
    html = _text(phone.get(f"/t/{tid}/history"))
    assert "Antes de desfazer" in html and "Antes da correção" not in html


def test_back_after_a_save_shows_the_saved_hand_by_its_own_number(app: Flask) -> None:
    """The browser's Back after saving brings the saved hand's page again: it is titled with
    the place that hand took, never the next hand's number, and so is a correction's."""
    table, phone = _saved_one(app)
    tid = table["id"]
    d = solo_draft(phone, tid)
    assert phone.post(f"/t/{tid}/hand", data={"d": d}).status_code == 302
    back = _text(phone.get(f"/t/{tid}/hand", query_string={"d": d}))
    assert "<h1>Hand 2</h1>" in back and "Hand 3" not in back
    fix = phone.get(f"/t/{tid}/hand", query_string={"replaces": "1"}).get_data(as_text=True)
    fixed = unescape(re.search(r'name="d" value="([^"]*)"', fix).group(1))  # type: ignore[union-attr]
    assert phone.post(f"/t/{tid}/hand", data={"d": fixed, "reason": "checked"}).status_code == 302
    back = _text(phone.get(f"/t/{tid}/hand", query_string={"d": fixed}))
    assert "<h1>Correct hand 1</h1>" in back and "Hand 3" not in back
