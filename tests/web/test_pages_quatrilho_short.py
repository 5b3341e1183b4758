"""Quatrilho's solo preto and carreguete recorded with only what their settlements read, through
the test client: the soloist's figures on a pad, who made the most and their figures (a tie
added by a tap), a correction reopening the form the hand was given in, and forged drafts
refused without a crash. English pages; expected payments worked out from the rule text."""

from __future__ import annotations

import json

from flask import Flask
from flask.testing import FlaskClient

from tests.web.test_pages_short_records import FOUR, confirm, get, hands, new_table, walk


def test_a_carreguete_tie_is_added_by_a_tap_and_each_tied_player_pays(app: Flask, client: FlaskClient) -> None:
    """Dani deals; Ana and Caio both made 12 figures (the others 11 between them). Each pays 6
    to Bia and to Dani: Ana −12, Caio −12, Bia +12, Dani +12."""
    tid = new_table(client, "quatrilho", FOUR)
    page = walk(client, tid, "mode:carreguete")
    assert page.offered("most:") == [f"most:{i}" for i in range(4)]
    page = walk(client, tid, "most:0", start=page)
    assert page.heading == "How many figures did Ana make?"
    alone = page.offered("most_figures:")
    page = walk(client, tid, "tie:2", start=page)
    assert page.heading == "How many figures did each of Ana and Caio make?"
    assert page.offered("most_figures:") == [f"most_figures:{n}" for n in range(10, 18)] != alone
    page = walk(client, tid, "most_figures:12", start=page)
    assert "Carreguete: Ana and Caio tie for the most figures (12)" in page.text
    assert confirm(client, tid, page) == 302
    stored = hands(app, tid)[0]
    assert stored["record"]["most"] == ["Ana", "Caio"] and stored["record"]["most_figures"] == 12
    assert "figures" not in stored["record"]
    assert stored["result"]["deltas"] == {"Ana": -12, "Bia": 12, "Caio": -12, "Dani": 12}


def test_a_tapped_tie_can_be_taken_back(client: FlaskClient) -> None:
    tid = new_table(client, "quatrilho", FOUR)
    page = walk(client, tid, "mode:carreguete", "most:1", "tie:3", "tie:3")
    assert page.draft["most"] == ["Bia"]


def test_a_correction_of_a_short_solo_reopens_it_by_the_soloist_s_figures(app: Flask, client: FlaskClient) -> None:
    """Bia's natural solo preto with 20 figures: P = 6, 16 from each. Corrected to 17 figures:
    the opponents' 18 win, P = 6, and Bia pays 16 to each."""
    tid = new_table(client, "quatrilho", FOUR)
    page = walk(client, tid, "mode:solo_preto", "declarer:1", "natural")
    assert page.offered("side_figures:") == [f"side_figures:{n}" for n in range(36)]
    assert page.offered("per_player") == ["per_player"]
    page = walk(client, tid, "side_figures:20", start=page)
    assert confirm(client, tid, page) == 302
    assert hands(app, tid)[0]["result"]["deltas"] == {"Ana": -16, "Bia": 48, "Caio": -16, "Dani": -16}
    correction = get(client, tid, replaces="1")
    assert correction.draft.get("side_figures") == 20 and not correction.draft.get("per_player")
    page = walk(client, tid, "back:side_figures", "side_figures:17", start=correction)
    assert confirm(client, tid, page, reason="Bia counted 17") == 302
    current = [h for h in hands(app, tid) if not h["void"]]
    assert current[-1]["record"]["side_figures"] == 17
    assert current[-1]["result"]["deltas"] == {"Ana": 16, "Bia": -48, "Caio": 16, "Dani": 16}


def test_forged_short_drafts_are_refused_and_nothing_is_stored(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, "quatrilho", FOUR)
    for draft in (
        {"mode": "carreguete", "most": ["Zé"], "most_figures": 12},
        {"mode": "carreguete", "most": [3, None], "most_figures": 12},
        {"mode": "carreguete", "most": ["Ana"], "most_figures": 5},
        {"mode": "solo_preto", "declarer": "Ana", "side_figures": 99},
        {"mode": "solo_branco", "declarer": "Ana", "most": ["Ana"], "most_figures": 20, "tricks": {"Ana": 0}},
    ):
        response = client.post(f"/t/{tid}/hand", data={"d": json.dumps({"key": "k", **draft})})
        assert 400 <= response.status_code < 500, (draft, response.status_code)
    assert hands(app, tid) == []
