"""The Samba pages through the test client, without a browser (and so without JavaScript):
the new-table form's team layouts and the partnership draw, the hand form (the card counter
counted on the server, retries, corrections), the end of the match and its rematch, the meld
checker, and the live-score fragment the page's script asks for.

CSRF is off in these tests (tests/conftest.py); expected scores are worked out from the rule text, never read from the app.
"""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from referee import ledger
from referee.extensions import db
from referee.i18n import render_text
from referee.models import Table
from referee.rules import samba
from referee.rules.errors import RulesError
from referee.rules.samba_melds import cards_of, check_meld
from referee.rules.text import Text

PLAYERS = ["Ana", "Bia", "Caio", "Dani"]
SIX = ["Ana", "Bia", "Caio", "Dani", "Edu", "Fabi"]
OPTIONS = {"opt_target": "10000", "opt_top_min_meld": "150", "opt_six_red_threes_unmade": "flip"}


def form_for(players: list[str], **fields: str) -> dict[str, str]:
    """The new-table form as a browser sends it: names, the last seat dealing, default options."""
    data = {f"player_{i}": name for i, name in enumerate(players)}
    return {**data, "dealer": str(len(players) - 1), "teams": "across", **OPTIONS, **fields}


def new_table(client: FlaskClient, players: list[str] = PLAYERS, **fields: str) -> str:
    response = client.post("/tables/new?game=samba", data=form_for(players, **fields))
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/t/", 1)[1]


def table_count(app: Flask) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(Table)) or 0)


def seating(app: Flask, tid: str) -> tuple[list[str], list[list[str]], str]:
    """Players in order of play, teams, and the dealer of the next hand, as stored."""
    with app.app_context():
        table = ledger.get_table(tid)
        return list(ledger.players_of(table)), [list(t) for t in ledger.teams_of(table)], ledger.current_dealer(table)


def hands(app: Flask, tid: str) -> list[tuple[int, bool]]:
    with app.app_context():
        return [(h.number, h.is_void) for h in ledger.all_hands(ledger.get_table(tid))]


def stored(app: Flask, tid: str, number: int) -> dict[str, Any]:
    with app.app_context():
        hand = ledger.get_hand(ledger.get_table(tid), number)
        assert hand is not None
        return {"record": dict(hand.record), "result": dict(hand.result)}


def errors_in(html: str) -> list[str]:
    """The sentences of the page's .field-error and .error-box elements."""
    found = re.findall(r'<p class="field-error"[^>]*>(.*?)</p>', html, re.S)
    found += re.findall(r'<div class="card error-box" role="alert"><p>(.*?)</p>', html, re.S)
    return [unescape(" ".join(f.split())) for f in found]


def said(app: Flask, text: Text) -> str:
    with app.test_request_context("/"):
        return render_text(text)


def refusal(app: Flask, call: Any, *args: Any, **kwargs: Any) -> str:
    """The sentence the rules give when ``call`` refuses, in the app's default language."""
    with pytest.raises(RulesError) as refused:
        call(*args, **kwargs)
    return said(app, refused.value.text)


def draft_in(html: str) -> str:
    raw = re.search(r'name="d" value="([^"]*)"', html)
    assert raw is not None, html[:500]
    return json.dumps(json.loads(unescape(raw.group(1))))


def input_value(html: str, input_id: str) -> str:
    tag = re.search(rf'<input[^>]*id="{re.escape(input_id)}"[^>]*>', html, re.S)
    assert tag is not None, input_id
    value = re.search(r'value="([^"]*)"', tag.group(0))
    return unescape(value.group(1)) if value else ""


def checked_went_out(html: str) -> list[str]:
    return re.findall(r'name="went_out" value="([^"]*)" checked', html)


def team_fields(i: int, **values: int | str) -> dict[str, str]:
    """Form fields of team i: t{i}_clean_canastras=..., t{i}_mc_aces=..., t{i}_meld_points=..."""
    return {f"t{i}_{key}": str(value) for key, value in values.items()}


def check(client: FlaskClient, tid: str, **fields: str) -> tuple[int, str]:
    """The form's "check" button without JavaScript: a GET with every field."""
    response = client.get(f"/t/{tid}/hand", query_string={"action": "check", **fields})
    return response.status_code, response.get_data(as_text=True)


def confirm_page_scores(html: str) -> list[str]:
    return re.findall(r'<p class="team-line"><span class="balance[^"]*">([^<]*)</span>', html)


def record(client: FlaskClient, tid: str, **fields: str) -> str:
    """Check and confirm a hand through the pages; answers the draft posted."""
    status, html = check(client, tid, **fields)
    assert status == 200 and not errors_in(html), errors_in(html)
    d = draft_in(html)
    assert client.post(f"/t/{tid}/hand", data={"d": d}).status_code == 302
    return d


# Ana goes out. Ana & Caio: 1 clean canastra, 1 samba, 2 red 3s; on the table, counted card by
# card, 7 aces and 7 low cards (7 × 20 + 7 × 5 = 175): 175 + 500 + 1,500 + 200 + 200 = 2,575.
# Bia & Dani: 1 dirty canastra, 1 red 3 (without two combinations: −100), 240 on the table
# (typed), a joker and 3 high cards left in hand (counted: 80), 2 penalties (drew from the stock
# out of turn): 240 + 300 − 100 − 80 − 200 = 160.
HAND_1 = {
    "went_out": "0",
    **team_fields(0, clean_canastras=1, sambas=1, red_threes=2, mc_aces=7, mc_low=7),
    **team_fields(1, dirty_canastras=1, red_threes=1, meld_points=240, hc_jokers=1, hc_high=3, pen_stock_out_of_turn=2),
}
HAND_1_SCORES = (2575, 160)


# --------------------------------------------------------------------------- the new-table form


def test_new_samba_form_offers_layouts_and_the_draw(client: FlaskClient) -> None:
    html = client.get("/tables/new?game=samba").get_data(as_text=True)
    assert sorted(re.findall(r'name="teams" value="(\w+)"', html)) == ["across", "alone", "pairs"]
    assert re.search(r'name="teams" value="across" checked', html)
    for i in range(6):
        options = re.search(rf'<select id="draw_{i}" name="draw_{i}">(.*?)</select>', html, re.S)
        assert options is not None
        assert re.findall(r'value="([^"]*)"', options.group(1)) == ["", "A", *map(str, range(2, 11)), "J", "Q", "K"]


@pytest.mark.parametrize(
    ("players", "layout", "teams"),
    [
        (PLAYERS, "across", [["Ana", "Caio"], ["Bia", "Dani"]]),
        (PLAYERS, "alone", [["Ana"], ["Bia"], ["Caio"], ["Dani"]]),
        (SIX, "across", [["Ana", "Caio", "Edu"], ["Bia", "Dani", "Fabi"]]),
        (SIX, "pairs", [["Ana", "Dani"], ["Bia", "Edu"], ["Caio", "Fabi"]]),
        (SIX, "alone", [[name] for name in SIX]),
        (PLAYERS[:3], "across", [["Ana"], ["Bia"], ["Caio"]]),  # 2 or 3 players: each alone
        (PLAYERS[:2], "across", [["Ana"], ["Bia"]]),
    ],
)
def test_each_team_layout_makes_its_teams(
    app: Flask, client: FlaskClient, players: list[str], layout: str, teams: list[list[str]]
) -> None:
    tid = new_table(client, players, teams=layout)
    assert seating(app, tid) == (players, teams, players[-1])
    page = client.get(f"/t/{tid}").get_data(as_text=True)
    assert page.count('class="team-row') == len(teams)
    assert re.findall(r'<span class="min-meld-n">(\d+)</span>', page) == ["50"] * len(teams)


def test_the_partnership_draw_seats_four(app: Flask, client: FlaskClient) -> None:
    """Cards 7 to 10. The highest (Bia, 10) is the mão; the others sit after her from
    the highest down: Dani 9, Ana 8, Caio 7. Even cards (Bia, Ana) against odd (Dani, Caio),
    the mão's team first; the player before the mão (Caio) deals. The layout radio is ignored."""
    draws = {"draw_0": "8", "draw_1": "10", "draw_2": "7", "draw_3": "9"}
    tid = new_table(client, teams="alone", **draws)
    assert seating(app, tid) == (["Bia", "Dani", "Ana", "Caio"], [["Bia", "Ana"], ["Dani", "Caio"]], "Caio")


def test_the_partnership_draw_seats_six(app: Flask, client: FlaskClient) -> None:
    """Cards 5 to 10 (J Q K are 11 12 13: 9, 10, J, Q, K, A would not be consecutive): the
    10 is the mão; order 10 9 8 7 6 5; even against odd, two teams of three."""
    cards = {"Ana": "5", "Bia": "10", "Caio": "7", "Dani": "8", "Edu": "9", "Fabi": "6"}
    draws = {f"draw_{i}": cards[name] for i, name in enumerate(SIX)}
    tid = new_table(client, SIX, **draws)
    order = ["Bia", "Edu", "Dani", "Caio", "Fabi", "Ana"]
    assert seating(app, tid) == (order, [["Bia", "Dani", "Fabi"], ["Edu", "Caio", "Ana"]], "Ana")


@pytest.mark.parametrize(
    ("players", "fields", "sentence"),
    [
        (PLAYERS, {"teams": "pairs"}, lambda app: said(app, Text("Three pairs need six players."))),
        (
            PLAYERS,
            {"draw_0": "7", "draw_1": "8"},
            lambda app: said(app, Text("Give the card every player drew, or none.")),
        ),
        (
            PLAYERS,
            {"draw_0": "7", "draw_1": "8", "draw_2": "9", "draw_3": "J"},
            lambda app: refusal(app, samba.seats_from_draw, {"Ana": 7, "Bia": 8, "Caio": 9, "Dani": 11}),
        ),
        (
            PLAYERS,
            {"draw_0": "7", "draw_1": "8", "draw_2": "8", "draw_3": "9"},
            lambda app: refusal(app, samba.seats_from_draw, {"Ana": 7, "Bia": 8, "Caio": 8, "Dani": 9}),
        ),
        (
            PLAYERS,
            {"draw_0": "7", "draw_1": "8", "draw_2": "9", "draw_3": "X"},
            lambda app: said(app, Text("Give the card every player drew, or none.")),
        ),
        (
            PLAYERS[:3],
            {"draw_0": "7", "draw_1": "8", "draw_2": "9"},
            lambda app: refusal(app, samba.seats_from_draw, {"Ana": 7, "Bia": 8, "Caio": 9}),
        ),
        (SIX[:5], {}, lambda app: refusal(app, samba.seat_teams, SIX[:5], None, samba.SambaOptions())),
    ],
    ids=[
        "pairs-with-four",
        "draw-half-given",
        "draw-not-consecutive",
        "draw-twice-the-8",
        "draw-unknown-card",
        "draw-three-players",
        "five-without-the-house-rule",
    ],
)
def test_refused_seatings_say_why_and_store_nothing(
    app: Flask, client: FlaskClient, players: list[str], fields: dict[str, str], sentence: Any
) -> None:
    response = client.post("/tables/new?game=samba", data=form_for(players, **fields))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert sentence(app) in errors_in(html)
    assert table_count(app) == 0
    # What was chosen is kept on the form.
    for name, value in fields.items():
        if name.startswith("draw_") and value in ("7", "8", "9", "J"):
            assert re.search(rf'<select id="{name}" name="{name}">.*?<option value="{value}" selected>', html, re.S)
    if fields.get("teams") == "pairs":
        assert 'name="teams" value="pairs" checked' in html


def test_five_players_with_the_house_rule_play_alone(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, SIX[:5], opt_five_players="y")
    assert seating(app, tid)[1] == [[name] for name in SIX[:5]]


# --------------------------------------------------------------------------- the hand form


def test_the_form_counts_the_cards_on_the_server(app: Flask, client: FlaskClient) -> None:
    """Without JavaScript the points inputs stay blank; the counter's boxes are summed by the
    server (7 aces + 7 low cards = 175; a joker and 3 high cards = 80)."""
    tid = new_table(client)
    html = client.get(f"/t/{tid}/hand").get_data(as_text=True)
    assert input_value(html, "f-t0-meld_points") == "" and input_value(html, "f-t1-hand_points") == ""
    assert 'data-counter="f-t0-meld_points"' in html and 'data-points="20"' in html
    status, html = check(client, tid, **HAND_1)
    assert status == 200
    assert errors_in(html) == []
    assert [int(s.replace(".", "").replace("+", "")) for s in confirm_page_scores(html)] == list(HAND_1_SCORES)
    assert re.search(r'<form method="post" action="/t/[^"]+/hand"', html)
    d = draft_in(html)
    assert client.post(f"/t/{tid}/hand", data={"d": d}).status_code == 302
    assert hands(app, tid) == [(1, False)]
    saved = stored(app, tid, 1)
    teams = saved["record"]["teams"]
    assert (teams[0]["meld_points"], teams[0]["hand_points"]) == (175, 0)
    assert (teams[1]["meld_points"], teams[1]["hand_points"]) == (240, 80)
    assert sorted(teams[1]["penalties"]) == ["stock_out_of_turn", "stock_out_of_turn"]
    assert saved["record"]["went_out"] == "Ana"
    assert [t["score"] for t in saved["result"]["teams"]] == list(HAND_1_SCORES)


def test_typed_points_win_over_the_counter(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    record(client, tid, **{**HAND_1, "t0_meld_points": "300"})  # typed 300, counted 175
    assert stored(app, tid, 1)["record"]["teams"][0]["meld_points"] == 300


def test_a_refused_hand_keeps_the_form_and_the_counted_points(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    fields = {**HAND_1, "t0_sambas": "0"}  # one canastra: Ana cannot have gone out
    status, html = check(client, tid, **fields)
    assert status == 200
    record_ = {
        "went_out": "Ana",
        "teams": [
            {
                "meld_points": 175,
                "hand_points": 0,
                "clean_canastras": 1,
                "dirty_canastras": 0,
                "wild_canastras": 0,
                "sambas": 0,
                "red_threes": 2,
                "red_threes_in_hand": 0,
                "hidden_canastra": None,
                "penalties": 0,
            },
            {
                "meld_points": 240,
                "hand_points": 80,
                "clean_canastras": 0,
                "dirty_canastras": 1,
                "wild_canastras": 0,
                "sambas": 0,
                "red_threes": 1,
                "red_threes_in_hand": 0,
                "hidden_canastra": None,
                "penalties": 2,
            },
        ],
    }
    with app.test_request_context("/"):
        sentence = refusal(app, ledger.preview_hand, ledger.get_table(tid), record_, dealer="Dani")
    assert sentence in errors_in(html)
    assert 'class="card error-box" role="alert"' in html
    assert not re.search(r'<form method="post" action="/t/[^"]+/hand"', html)  # no confirm step
    assert input_value(html, "f-t0-meld_points") == "175"  # the counter's sum, shown
    assert input_value(html, "f-t0_mc_aces") == "7" and input_value(html, "f-t1_hc_jokers") == "1"
    assert input_value(html, "f-t1_pen_stock_out_of_turn") == "2"
    assert checked_went_out(html) == ["0"]
    assert hands(app, tid) == []


def test_seven_jokers_counted_are_refused(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    fields = {**HAND_1, "t0_mc_jokers": "4", "t1_hc_jokers": "3"}
    status, html = check(client, tid, **fields)
    sentence = refusal(app, samba.check_card_counts, [{"jokers": 4}, {"jokers": 3}])
    assert status == 200 and sentence in errors_in(html)
    assert hands(app, tid) == []


def test_confirm_stores_exactly_one_hand_even_posted_twice(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    status, html = check(client, tid, **HAND_1)
    d = draft_in(html)
    first = client.post(f"/t/{tid}/hand", data={"d": d})
    second = client.post(f"/t/{tid}/hand", data={"d": d})
    assert first.status_code == second.status_code == 302
    assert hands(app, tid) == [(1, False)]
    page = client.get(f"/t/{tid}").get_data(as_text=True)
    assert re.findall(r'<span class="balance[^"]*">([^<]*)</span>', page)[:2] == ["2.575", "160"]
    # The openings: 2,575 is in the 1,500 – 2,995 band (90); 160 is below 1,500 (50).
    assert re.findall(r'<span class="min-meld-n">(\d+)</span>', page) == ["90", "50"]


def test_a_correction_starts_from_the_hand_it_corrects(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    record(client, tid, **HAND_1)
    html = client.get(f"/t/{tid}/hand", query_string={"replaces": "1"}).get_data(as_text=True)
    assert checked_went_out(html) == ["0"]
    assert input_value(html, "f-t0_clean_canastras") == "1" and input_value(html, "f-t0_sambas") == "1"
    assert input_value(html, "f-t0_red_threes") == "2"
    assert input_value(html, "f-t0-meld_points") == "175"
    assert input_value(html, "f-t1_dirty_canastras") == "1" and input_value(html, "f-t1_red_threes") == "1"
    assert input_value(html, "f-t1-meld_points") == "240" and input_value(html, "f-t1-hand_points") == "80"
    assert input_value(html, "f-t1_pen_stock_out_of_turn") == "2"
    assert re.search(r'<details class="penalties" open>', html)  # team 1's penalties shown
    assert json.loads(draft_in(html))["replaces"] == 1
    # Corrected: Bia & Dani had one penalty, not two: 160 + 100 = 260.
    fields = {**HAND_1, "t1_pen_stock_out_of_turn": "1", "d": draft_in(html)}
    status, html = check(client, tid, **fields)
    assert status == 200 and 'name="reason"' in html
    assert client.post(f"/t/{tid}/hand", data={"d": draft_in(html), "reason": "one penalty only"}).status_code == 302
    assert hands(app, tid) == [(1, True), (2, False)]
    assert [t["score"] for t in stored(app, tid, 2)["result"]["teams"]] == [2575, 260]


def test_a_correction_prefills_the_hidden_canastra(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    with app.app_context():
        table = ledger.get_table(tid)
        ledger.record_hand(table, ledger_record_hidden())
    html = client.get(f"/t/{tid}/hand", query_string={"replaces": "1"}).get_data(as_text=True)
    assert re.search(r'<details class="hidden-canastra" open>', html)
    assert re.search(r'name="hidden" value="deal_alone" checked', html)


def ledger_record_hidden() -> dict[str, Any]:
    """Ana went out with a canastra hidden since the deal, without her partner's melds (1,000)."""
    return {
        "went_out": "Ana",
        "teams": [
            {
                "meld_points": 200,
                "hand_points": 0,
                "clean_canastras": 2,
                "dirty_canastras": 0,
                "wild_canastras": 0,
                "sambas": 0,
                "red_threes": 0,
                "red_threes_in_hand": 0,
                "hidden_canastra": "deal_alone",
                "penalties": 0,
            },
            {
                "meld_points": 100,
                "hand_points": 0,
                "clean_canastras": 0,
                "dirty_canastras": 0,
                "wild_canastras": 0,
                "sambas": 0,
                "red_threes": 0,
                "red_threes_in_hand": 0,
                "hidden_canastra": None,
                "penalties": 0,
            },
        ],
    }


def test_the_hidden_canastra_shown_on_confirm_is_stored(app: Flask, client: FlaskClient) -> None:
    """Ana goes out with a canastra hidden since the deal, alone (1,000): Ana & Caio 2
    clean canastras, 200 on the table: 200 + 1,000 + 200 + 1,000 = 2,400."""
    tid = new_table(client)
    fields = {
        "went_out": "0",
        "hidden": "deal_alone",
        **team_fields(0, clean_canastras=2, meld_points=200),
        **team_fields(1, meld_points=100),
    }
    status, html = check(client, tid, **fields)
    assert confirm_page_scores(html) == ["+2.400", "+100"]
    assert client.post(f"/t/{tid}/hand", data={"d": draft_in(html)}).status_code == 302
    saved = stored(app, tid, 1)
    assert [t["score"] for t in saved["result"]["teams"]] == [2400, 100]
    assert saved["record"]["teams"][0]["hidden_canastra"] == "deal_alone"


def test_the_live_fragment_is_only_the_fragment(client: FlaskClient) -> None:
    tid = new_table(client)
    url = f"/t/{tid}/hand"
    nothing = client.get(url, query_string={"partial": "live", "action": "live"})
    assert nothing.status_code == 200
    body = nothing.get_data(as_text=True)
    assert "<html" not in body and "<form" not in body and "live-scores" not in body
    assert 'class="muted"' in body
    live = client.get(url, query_string={"partial": "live", "action": "live", **HAND_1}).get_data(as_text=True)
    assert "<html" not in live and "<form" not in live and 'id="live"' not in live and "<h1" not in live
    assert re.findall(r'<b class="balance[^"]*">([^<]*)</b>', live) == ["+2.575", "+160"]
    refused = client.get(url, query_string={"partial": "live", "action": "live", **HAND_1, "t0_sambas": "0"}).get_data(
        as_text=True
    )
    assert "<html" not in refused and len(errors_in(refused)) == 1
    # The full page carries the same fragment inside #live, and the page's script asks for it.
    page = client.get(url).get_data(as_text=True)
    assert 'data-live-url="/t/' in page and "partial=live" in page and '<div id="live" aria-live="polite">' in page


def test_stock_ran_out_gives_nobody_the_going_out_bonus(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    record(
        client,
        tid,
        went_out="-",
        **team_fields(0, clean_canastras=2, meld_points=200),
        **team_fields(1, clean_canastras=1, red_threes=1, meld_points=100),
    )
    saved = stored(app, tid, 1)
    assert saved["record"]["went_out"] is None
    # 200 + 1,000 = 1,200; 100 + 500 − 100 (one combination: the red 3 counts against) = 500.
    assert [t["score"] for t in saved["result"]["teams"]] == [1200, 500]


# --------------------------------------------------------------------------- the match's end


def test_the_match_end_hides_the_record_button_and_the_rematch_works_once(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, opt_target="2000")
    early = client.post(f"/t/{tid}/rematch", follow_redirects=True)  # not over yet
    assert 'class="flash flash-error"' in early.get_data(as_text=True)
    assert table_count(app) == 1
    record(client, tid, **HAND_1)  # 2,575 > 2,000
    page = client.get(f"/t/{tid}").get_data(as_text=True)
    assert 'class="card match-over"' in page
    assert f'href="/t/{tid}/hand"' not in page and 'class="card next-hand"' not in page
    assert f'action="/t/{tid}/rematch"' in page
    assert re.findall(r'<span class="min-meld-n">', page) == []
    first = client.post(f"/t/{tid}/rematch")
    assert first.status_code == 302
    new_tid = first.headers["Location"].rsplit("/t/", 1)[1]
    assert new_tid != tid and table_count(app) == 2
    assert seating(app, new_tid)[:2] == seating(app, tid)[:2]
    fresh = client.get(f"/t/{new_tid}").get_data(as_text=True)
    assert re.findall(r'<span class="balance[^"]*">([^<]*)</span>', fresh)[:2] == ["0", "0"]
    assert f'href="/t/{new_tid}/hand"' in fresh
    second = client.post(f"/t/{tid}/rematch", follow_redirects=True)
    assert second.status_code == 200
    html = second.get_data(as_text=True)
    assert 'class="flash flash-error"' in html
    assert table_count(app) == 2
    assert f'href="/t/{new_tid}"' in html and f'action="/t/{tid}/rematch"' not in html


def test_correcting_the_last_hand_can_reopen_the_match(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, opt_target="2000")
    record(client, tid, **HAND_1)
    html = client.get(f"/t/{tid}/hand", query_string={"replaces": "1"}).get_data(as_text=True)
    # The samba was a clean canastra: 2,575 − 1,500 + 500 = 1,575, not past 2,000.
    fields = {**HAND_1, "t0_clean_canastras": "2", "t0_sambas": "0", "d": draft_in(html)}
    status, html = check(client, tid, **fields)
    assert status == 200 and confirm_page_scores(html)[0] == "+1.575"
    assert client.post(f"/t/{tid}/hand", data={"d": draft_in(html), "reason": "no samba"}).status_code == 302
    page = client.get(f"/t/{tid}").get_data(as_text=True)
    assert 'class="card match-over"' not in page and f'href="/t/{tid}/hand"' in page


def test_a_hand_entered_after_the_match_ended_gets_a_sentence_not_a_500(app: Flask, client: FlaskClient) -> None:
    """Two phones: the second had the form open when the first recorded the hand that ended the
    match (or the scorer went back with the browser)."""
    app.testing = False  # a crash answers 500 as it would on the server
    app.config["PROPAGATE_EXCEPTIONS"] = False
    tid = new_table(client, opt_target="2000")
    _status, html = check(client, tid, **HAND_1)
    late = draft_in(html)
    record(client, tid, **HAND_1)  # the first phone ends the match
    assert hands(app, tid) == [(1, False)]
    live = client.get(f"/t/{tid}/hand", query_string={"partial": "live", "action": "live", **HAND_1})
    assert live.status_code == 200
    status, _html = check(client, tid, **HAND_1)
    assert status in (200, 409)
    posted = client.post(f"/t/{tid}/hand", data={"d": late})
    assert posted.status_code in (302, 409)
    assert hands(app, tid) == [(1, False)]


# --------------------------------------------------------------------------- the meld checker


def meld_page(client: FlaskClient, **args: str) -> str:
    response = client.get("/samba/melds", query_string=args)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def verdict(html: str, i: int) -> tuple[str, list[str]] | None:
    """The class (is-legal / is-illegal) of meld i's verdict and its sentences."""
    block = re.search(rf'<div class="verdict (is-\w+)" id="m{i}-verdict">(.*?)</div>', html, re.S)
    if block is None:
        return None
    return block.group(1), errors_in(block.group(2))


def test_meld_checker_legal_and_illegal(app: Flask, client: FlaskClient) -> None:
    html = meld_page(client, m0="K♥ K♦ K♠ 2♣ 2♥", m1="Kc Ko Ke Kp Kc 2p 2c", m2="4c 5c 6c 7c 8c 9c 10c")
    with app.test_request_context("/"):
        reasons = [render_text(r) for r in check_meld(cards_of("Kc Ko Ke 2p 2c")).reasons]
    assert verdict(html, 0) == ("is-illegal", reasons)
    assert re.search(r'id="m0"[^>]*aria-invalid="true"', html)
    assert verdict(html, 1) == ("is-legal", [])
    assert verdict(html, 2) == ("is-legal", [])
    assert "1.500" in html.split('id="m2-verdict"')[1].split("</div>")[0]  # the samba's premium
    assert 'class="card opening' not in html  # no minimum chosen: no opening verdict


def test_meld_checker_opening_with_the_discard_top(client: FlaskClient) -> None:
    """Needing 50: 9 9 9 (30) and K K from the hand with the discard top K (30) = 60. Without
    the top the two kings are no meld."""
    html = meld_page(client, m0="9e 9p 9c", m1="Kc Ko", top="Kp", required="50")
    assert verdict(html, 0) == ("is-legal", []) and verdict(html, 1) == ("is-legal", [])
    assert re.search(r'class="card opening is-legal"', html)
    assert re.search(r'<p class="lead">60\D+50\D*</p>', html)
    without = meld_page(client, m0="9e 9p 9c", m1="Kc Ko", required="50")
    assert verdict(without, 1) is not None and verdict(without, 1)[0] == "is-illegal"  # type: ignore[index]
    assert re.search(r'class="card opening is-illegal"', without)


def test_meld_checker_opening_short_of_the_minimum(client: FlaskClient) -> None:
    """The rule text's example: needing 90, a clean canastra of kings (70) is not enough, of aces (140) is."""
    kings = meld_page(client, m0="Kc Ko Ke Kp Kc Ko Ke", required="90")
    assert re.search(r'class="card opening is-illegal"', kings) and re.search(r'<p class="lead">70\D+90\D*</p>', kings)
    aces = meld_page(client, m0="Ac Ao Ae Ap Ac Ao Ae", required="90")
    assert re.search(r'class="card opening is-legal"', aces) and re.search(r'<p class="lead">140\D+90\D*</p>', aces)


def test_meld_checker_for_a_team_at_a_table(client: FlaskClient) -> None:
    tid = new_table(client)
    record(client, tid, **HAND_1)  # Ana & Caio 2,575: they need 90
    html = meld_page(client, t=tid, team="0", m0="Kc Ko Ke Kp Kc Ko Ke")
    assert 'id="required"' not in html and f'href="/t/{tid}"' in html
    assert re.search(r'class="card opening is-illegal"', html) and re.search(r'<p class="lead">70\D+90\D*</p>', html)
    board = client.get(f"/t/{tid}").get_data(as_text=True)
    assert f'href="/samba/melds?t={tid}&amp;team=0"' in board and f'href="/samba/melds?t={tid}&amp;team=1"' in board


@pytest.mark.parametrize("spelling", ["1c", "Kx", "K", "10", "JKK", "♥K"])
def test_meld_checker_unknown_card_spelling_is_a_sentence(app: Flask, client: FlaskClient, spelling: str) -> None:
    from referee.rules.samba_melds import parse_card

    html = meld_page(client, m0=f"Kc Ko {spelling}", required="50")
    sentence = refusal(app, parse_card, spelling, field="m0")
    assert re.search(r'<p class="field-error" role="alert" id="m0-verdict">', html)
    assert sentence in errors_in(html)
    assert re.search(r'id="m0"[^>]*aria-invalid="true"', html)
    assert 'class="card opening' not in html  # no opening verdict on a misspelt meld


def test_meld_checker_odd_input_is_never_a_500(client: FlaskClient) -> None:
    for args in (
        {"m0": "x" * 5000},
        {"required": "77", "m0": "Kc Ko Ke"},
        {"t": "nope", "team": "0"},
        {"more": "1"},
        {"top": "JK", "m0": "Kc Ko", "required": "50"},
        {"m11": "Kc Ko Ke"},
        {"going_out": "1", "m0": "3e 3p 3e"},
    ):
        assert client.get("/samba/melds", query_string=args).status_code == 200


# --------------------------------------------------------------------------- one team at a time


def tab_checked(html: str) -> list[str]:
    return re.findall(r'name="tab" value="(\d+)" id="tab-\d+"[^>]*checked', html)


def test_the_hand_form_shows_one_team_at_a_time_and_keeps_the_scorer_s_team(client: FlaskClient) -> None:
    """A tab per team (its name), the first checked; "Next" leads to the other team; a check
    comes back on the team the scorer was on, a refusal on the team it is about; a forged tab
    is the first team."""
    tid = new_table(client)
    html = client.get(f"/t/{tid}/hand").get_data(as_text=True)
    assert re.findall(r'<span id="tab-\d-name">([^<]*)</span>', html) == ["Ana &amp; Caio", "Bia &amp; Dani"]
    assert tab_checked(html) == ["0"]
    assert re.findall(r'<section class="card team-card" data-team="(\d)"', html) == ["0", "1"]
    assert re.findall(r'<label class="btn btn-secondary next-team" for="tab-(\d)"', html) == ["1"]
    status, html = check(client, tid, tab="1", went_out="0")
    assert status == 200 and tab_checked(html) == ["1"]  # Ana "went out" with nothing: refused, team 1 kept
    for forged in ("7", "-1", "x"):
        status, html = check(client, tid, tab=forged)
        assert status == 200 and tab_checked(html) == ["0"]
    # two clean canastras with 60 points on the table: the refusal is about team 1's points
    status, html = check(
        client, tid, tab="0", went_out="1", **team_fields(1, clean_canastras=2, sambas=1, meld_points=60)
    )
    assert status == 200 and errors_in(html)
    assert re.search(r'id="f-t1-meld_points"[^>]*aria-invalid="true"', html, re.S)
    assert tab_checked(html) == ["1"]


def test_the_hand_that_ends_the_match_names_no_next_opening(client: FlaskClient) -> None:
    """There is no next hand after the one that ends the match: its preview says who won and
    names no opening meld; a hand that does not end it still names each team's."""
    tid = new_table(client, opt_target="2000")
    _status, html = check(client, tid, **HAND_1)
    assert "This hand ends the match" in html or "Esta mão encerra a partida" in unescape(html)
    assert "Opening meld next hand" not in html and "Saída na próxima mão" not in unescape(html)
    going_on = new_table(client, opt_target="5000")
    _status, html = check(client, going_on, **HAND_1)
    assert "Opening meld next hand" in html or "Saída na próxima mão" in unescape(html)
