"""What a watcher reads: the public day's history and table pages hide a sealed round's chips
and the money of the day, and every line names who did it as a committee reads it."""

from __future__ import annotations

import re

from flask import Flask

from .api_support import API
from .championship_support import card_links, create, manager, register
from .test_championship_draw import _errors, _schema
from .test_championship_prizes import FIRST, NAMES, count, day, sign
from .test_championship_settings import settings_form


def _shows(response: object, chips: str) -> bool:
    """Whether a page shows ``chips`` as a number of its own: not a piece of a timestamp's
    microseconds (``11:09:26.163855``) nor of a random token in a link."""
    text = response.get_data(as_text=True)  # type: ignore[attr-defined]
    return re.search(rf"(?<![\w.:/-]){chips}(?!\w|[.:/-]\w)", text) is not None


def test_a_sealed_rounds_chips_show_only_to_the_manager_and_that_tables_cards(app: Flask) -> None:
    boss, cid, (one, two) = day(app)
    assert boss.post(f"/c/{cid}/seal", data={"sealed": "1"}).status_code == 302
    count(boss, cid, one, FIRST)
    watcher = app.test_client()
    for url in (f"/c/{cid}/history", f"/c/{cid}/r/1/m/1"):
        page = watcher.get(url)
        assert not _shows(page, "163") and not _shows(page, "104"), url
    for url in (f"/c/{cid}/history", f"/c/{cid}/r/1/m/1"):
        assert _shows(boss.get(url), "163"), url
    scorer, fiscal, other = app.test_client(), app.test_client(), app.test_client()
    assert scorer.get(card_links(boss, cid, 1, "scorer")[0]).status_code == 302
    assert fiscal.get(card_links(boss, cid, 1, "fiscal")[0]).status_code == 302
    assert other.get(card_links(boss, cid, 1, "fiscal")[1]).status_code == 302
    assert _shows(scorer.get(f"/c/{cid}/r/1/m/1"), "163")
    assert _shows(fiscal.get(f"/c/{cid}/r/1/m/1"), "163")
    assert not _shows(other.get(f"/c/{cid}/r/1/m/1"), "163")
    assert not _shows(fiscal.get(f"/c/{cid}/history"), "163")
    sign(app, boss, cid, one)
    assert not _shows(watcher.get(f"/c/{cid}/history"), "163")  # table 2 still open
    count(boss, cid, two, [151, 49, 100, 100])
    sign(app, boss, cid, two)
    for url in (f"/c/{cid}/history", f"/c/{cid}/r/1/m/1"):
        assert _shows(watcher.get(url), "163"), url


def test_the_public_history_shows_no_pix_key_nor_money(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, NAMES[:4])
    form = settings_form(boss, cid, entry_fee="20", pix_key="123.456.789-09", pix_city="Pelotas")
    assert boss.post(f"/c/{cid}/settings", data=form).status_code == 302
    assert boss.post(f"/c/{cid}/desk/entry/1", data={"received": "1"}).status_code == 302
    public = app.test_client().get(f"/c/{cid}/history").get_data(as_text=True)
    for secret in ("12345678909", "123.456.789-09", "Pelotas", "20,00"):
        assert secret not in public, secret
    mine = boss.get(f"/c/{cid}/history").get_data(as_text=True)
    assert "Pelotas" in mine and "20,00" in mine
    assert "12345678909" not in mine and "123.456.789-09" not in mine
    assert "chave Pix alterada" in mine


def test_the_history_names_who_did_it_as_a_committee_reads_it(app: Flask) -> None:
    boss, cid, (one, _two) = day(app)
    count(boss, cid, one, FIRST)
    sign(app, boss, cid, one)
    for url in (f"/c/{cid}/history", f"/c/{cid}/r/1/m/1"):
        text = app.test_client().get(url).get_data(as_text=True)
        assert "Organização" in text and "Fiscal da mesa 1" in text, url
        assert not re.search(r"(manager|fiscal:\d+)@", text), url


def test_the_json_gives_each_lines_status_and_the_sealed_rounds_as_documented(app: Flask) -> None:
    boss, cid, (one, _two) = day(app, reentries="")
    assert boss.post(f"/c/{cid}/seal", data={"sealed": "1"}).status_code == 302
    count(boss, cid, one, FIRST)
    gone = boss.post(f"/c/{cid}/n/3/status", data={"status": "disqualified", "reason": "Trocou cartas"})
    assert gone.status_code == 302
    assert boss.post(f"/c/{cid}/n/2/status", data={"status": "withdrawn", "reason": ""}).status_code == 302
    reader = app.test_client()
    body = reader.get(f"{API}/championships/{cid}").get_json()
    assert _errors(_schema(app, reader), body) == []
    assert body["sealed"] == [1] and body["settings"]["reentries"] is None
    lines = {line["number"]: line for line in body["ranking"]}
    assert (lines[3]["status"], lines[3]["reason"], lines[3]["place"]) == ("disqualified", "Trocou cartas", 0)
    assert (lines[2]["status"], lines[2]["reason"]) == ("withdrawn", "")
    assert (lines[1]["status"], lines[1]["reason"]) == ("", "")
    assert "163" not in reader.get(f"{API}/championships/{cid}").get_data(as_text=True)
