"""Injun's betting system per table: a new hand starts in the system of the table's last live
hand (not the table's option once the table switched), and before the first action the system
is one tap on a segmented row; a forged switch once the betting started is not taken."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from referee import ledger
from tests.web.test_pages_injun import BRAG, Page, draft, english, new_table, stored

__all__ = ["english"]  # the fixture: these pages in English


def systems_row(html: str) -> list[tuple[str, str]]:
    """The segmented row's buttons: (system, aria-pressed)."""
    row = re.search(r'<div class="segmented injun-systems"[^>]*>(.*?)</div>', html, re.S)
    assert row is not None, "no system row"
    return re.findall(r'value="system:(\w+)" aria-pressed="(\w+)"', row.group(1))


def test_the_system_is_one_tap_before_the_first_action(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)  # a Poker table
    page = Page(client, tid)
    assert systems_row(page.html) == [("poker", "true"), ("brag", "false")]
    page.press("system:brag")
    assert draft(page.html)["system"] == "brag"
    assert systems_row(page.html) == [("poker", "false"), ("brag", "true")]
    assert sorted(page.offered()) == ["act:0:bet", "act:0:close", "act:0:drop"]  # Brag's actions
    page.presses(*BRAG, "card:1:K", "card:2:A", "card:3:7")
    assert page.confirm().status_code == 302
    assert stored(app, tid)[0]["record"]["system"] == "brag"


def test_the_row_goes_once_the_betting_started_and_a_forged_switch_is_not_taken(client: FlaskClient) -> None:
    tid = new_table(client)
    page = Page(client, tid).press("act:0:bet:3")
    assert 'class="segmented injun-systems"' not in page.html
    page.press("system:brag")
    assert draft(page.html)["system"] == "poker" and draft(page.html)["actions"] == [["Ana", {"bet": 3}]]
    page.press("system:whist")
    assert draft(page.html)["system"] == "poker"


def test_the_next_hand_starts_in_the_last_hand_s_system(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)  # Poker by the table's option
    page = Page(client, tid).press("system:brag")
    page.presses("act:0:bet", "act:1:drop", "act:2:drop", "act:3:drop")
    assert page.confirm().status_code == 302
    nxt = Page(client, tid)
    assert draft(nxt.html)["system"] == "brag"
    assert systems_row(nxt.html) == [("poker", "false"), ("brag", "true")]
    # Back to Poker for hand 2: hand 3 is Poker again.
    nxt.press("system:poker").presses("act:1:bet:2", "act:2:drop", "act:3:drop", "act:0:drop")
    assert nxt.confirm().status_code == 302
    assert draft(Page(client, tid).html)["system"] == "poker"


def test_a_void_hand_does_not_set_the_system(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    page = Page(client, tid).press("system:brag")
    page.presses("act:0:bet", "act:1:drop", "act:2:drop", "act:3:drop")
    assert page.confirm().status_code == 302
    with app.app_context():
        ledger.void_hand(ledger.get_table(tid), 1, owner=True, reason="test", actor="test")
    assert draft(Page(client, tid).html)["system"] == "poker"  # the table's option again


def test_another_table_s_system_stays_its_own(client: FlaskClient) -> None:
    brag_tid = new_table(client)
    page = Page(client, brag_tid).press("system:brag")
    page.presses("act:0:bet", "act:1:drop", "act:2:drop", "act:3:drop")
    assert page.confirm().status_code == 302
    assert draft(Page(client, new_table(client)).html)["system"] == "poker"
