"""Correcting asks why, as voiding does: an empty or blank reason is refused by the server with
the app's own sentence (not only the browser's bubble), nothing is stored, and the reason given
shows in the hand's history."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .api_support import create_table, get_table
from .test_live import owner_phone, solo_draft


def _opened(app: Flask) -> tuple[str, FlaskClient, str]:
    """A table with hand 1 recorded on the owner's phone (in pt-BR), and the correction's draft."""
    table = create_table(app.test_client())
    tid = table["id"]
    phone = owner_phone(app, table)
    assert phone.post(f"/t/{tid}/hand", data={"d": solo_draft(phone, tid)}).status_code == 302
    phone.set_cookie("lang", "pt_BR")
    html = phone.get(f"/t/{tid}/hand", query_string={"replaces": "1"}).get_data(as_text=True)
    found = re.search(r'name="d" value="([^"]*)"', html)
    assert found is not None
    assert re.search(r'<input id="reason" name="reason"[^>]*\brequired\b', html)
    return tid, phone, unescape(found.group(1))


def _records(client: FlaskClient, tid: str) -> list[dict[str, Any]]:
    return [{k: h.get(k) for k in ("number", "void", "record")} for h in get_table(client, tid)["hands"]]


@pytest.mark.parametrize("reason", [None, "", "   \t "])
def test_a_correction_without_a_reason_is_refused_and_stores_nothing(app: Flask, reason: str | None) -> None:
    tid, phone, draft = _opened(app)
    before = _records(phone, tid)
    sent = {"d": draft} if reason is None else {"d": draft, "reason": reason}
    answer = phone.post(f"/t/{tid}/hand", data=sent)
    assert answer.status_code == 422
    assert "Diga por que corrigir a mão: o motivo fica no histórico." in unescape(answer.get_data(as_text=True))
    assert _records(phone, tid) == before


def test_the_reason_of_a_correction_shows_in_the_history(app: Flask) -> None:
    tid, phone, draft = _opened(app)
    assert phone.post(f"/t/{tid}/hand", data={"d": draft, "reason": "  contamos   mal "}).status_code == 302
    history = unescape(phone.get(f"/t/{tid}/history").get_data(as_text=True))
    assert "“contamos mal”" in history


@pytest.mark.parametrize("reason", ["", "  \n "])
def test_a_void_without_a_reason_is_refused_in_portuguese(app: Flask, reason: str) -> None:
    tid, phone, _draft = _opened(app)
    before = _records(phone, tid)
    answer = phone.post(f"/t/{tid}/hands/1/void", data={"reason": reason})
    assert answer.status_code == 422
    assert "Diga por que anular a mão: o motivo fica no histórico." in unescape(answer.get_data(as_text=True))
    assert _records(phone, tid) == before
