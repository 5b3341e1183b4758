"""The history page shows the hands a page at a time, newest first: a long night's table would
otherwise send megabytes to a phone. A short table's history is one page, without page links."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from referee.views.tables import HISTORY_PAGE
from tests.web.api_support import PLAYERS, all_pass_record, create_table, post_hand


def _numbers(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'id="hand-(\d+)"', html)]


def _table_with(client: FlaskClient, hands: int) -> str:
    table = create_table(client)
    for n in range(hands):  # everybody passes; the deal moves on
        assert post_hand(client, table, all_pass_record(PLAYERS[(n + 3) % 4])).status_code == 201
    return str(table["id"])


def test_a_short_history_is_one_page_without_page_links(client: FlaskClient) -> None:
    tid = _table_with(client, 3)
    html = client.get(f"/t/{tid}/history").get_data(as_text=True)
    assert _numbers(html) == [3, 2, 1]
    assert "history-pager" not in html
    assert client.get(f"/t/{tid}/history?page=2").status_code == 404


def test_a_long_history_pages_newest_first(client: FlaskClient) -> None:
    tid = _table_with(client, HISTORY_PAGE + 2)
    first = client.get(f"/t/{tid}/history").get_data(as_text=True)
    assert _numbers(first) == list(range(HISTORY_PAGE + 2, 2, -1))
    assert f'href="/t/{tid}/history?page=2"' in first
    assert "?page=0" not in first
    second = client.get(f"/t/{tid}/history?page=2").get_data(as_text=True)
    assert _numbers(second) == [2, 1]
    assert f'href="/t/{tid}/history"' in second  # newer: back to the first page
    assert "?page=3" not in second
    for page in ("3", "0", "x", "-1", "１"):
        assert client.get(f"/t/{tid}/history?page={page}").status_code == 404
