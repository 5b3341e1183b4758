"""Correcting a hand: the flow opens with every value the hand had (in the form it was entered),
"change" on a counting step reopens it with its counts, and saving it unchanged stores the record
as it was; on the pages the correction keeps the hand's
place and number ("Hand 3" + "corrected", what it was before one tap away), a void hand takes no
number, and the header's count is the number of hands shown."""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.rules.test_kentucky_derby_race import SOLO, cards
from tests.web.api_support import API, EXAMPLE_RECORD
from tests.web.test_api_quatrilho import EXAMPLE as QUATRILHO_EXAMPLE


def _without(record: dict[str, Any], *fields: str) -> dict[str, Any]:
    return {name: value for name, value in record.items() if name not in fields}


P2, P3, P4 = ["Ana", "Bia"], ["Ana", "Bia", "Caio"], ["Ana", "Bia", "Caio", "Dani"]
BETS = {p: {"horse": h, "amount": 1} for p, h in zip(P4, ["copas", "ouros", "espadas", "paus"], strict=True)}
SAMBA_ZERO = dict.fromkeys(
    (
        "meld_points",
        "hand_points",
        "clean_canastras",
        "dirty_canastras",
        "wild_canastras",
        "sambas",
        "red_threes",
        "red_threes_in_hand",
        "penalties",
    ),
    0,
)

#: Per game: players, options and one hand as the API takes it, with values a scorer enters.
HANDS: dict[str, tuple[list[str], dict[str, Any], dict[str, Any]]] = {
    "jubileu_solo": (
        P4,
        {},
        {
            "ultima": "copas",
            "auction": [["Ana", "solo_sete"], ["Bia", "passo"], ["Caio", "passo"], ["Dani", "passo"]],
            "trump": "espadas",
            "declarer_tricks": 9,
        },
    ),
    "jubileu_partner": (
        P4,
        {},
        # docs/api.md's Jubileu hand, its pair's tricks in the pad's short form.
        {**_without(EXAMPLE_RECORD, "dealer", "tricks"), "declarer_tricks": 7},
    ),
    "jubileu_tricks": (
        P4,
        {},
        {
            "ultima": "copas",
            "auction": [["Ana", "solo_sete"], ["Bia", "passo"], ["Caio", "passo"], ["Dani", "passo"]],
            "trump": "espadas",
            "tricks": {"Ana": 6, "Bia": 3, "Caio": 2, "Dani": 2},
        },
    ),
    "jubileu_meia": (
        P4,
        {},
        {
            "ultima": "copas",
            "auction": [["Ana", "meia_miseria"], ["Bia", "passo"], ["Caio", "meia_miseria"], ["Dani", "passo"]],
            "tricks": {"Ana": 1, "Bia": 6, "Caio": 0, "Dani": 6},
        },
    ),
    "quatrilho_chamada": (
        P4,
        {},
        {
            "mode": "chamada",
            "declarer": "Ana",
            "called_card": {"rank": "3", "suit": "paus"},
            "partner": "Caio",
            "side_figures": 14,
            "side_tricks": 4,
            "caller_figures": 6,
        },
    ),
    "quatrilho_players": (
        P4,
        {},
        _without(QUATRILHO_EXAMPLE, "dealer"),  # docs/api.md's Quatrilho hand, every player's count
    ),
    "samba": (
        P4,
        {},
        {
            "went_out": "Caio",
            "teams": [
                {
                    **SAMBA_ZERO,
                    "meld_points": 740,
                    "hand_points": 35,
                    "clean_canastras": 1,
                    "dirty_canastras": 1,
                    "sambas": 1,
                    "red_threes": 2,
                    "hidden_canastra": "play_with_partner",
                },
                {
                    **SAMBA_ZERO,
                    "meld_points": 760,
                    "hand_points": 120,
                    "dirty_canastras": 1,
                    "red_threes": 1,
                    "penalties": 1,
                },
            ],
        },
    ),
    "injun": (
        P3,
        {"system": "poker"},
        {"actions": [["Ana", {"bet": 2}], ["Bia", {"bet": 2}]], "cards": {"Ana": "A", "Bia": "K", "Caio": "Q"}},
    ),
    "kentucky_derby": (P4, {}, {"pingo": 1, "bets": BETS, "cards": cards(*SOLO)}),
    "koziri": (
        P2,
        {"deck": 24},
        {"dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "ouros", "winner": "Bia"},
    ),
    "lift_smoke": (P4, {"ante": 2}, {"winner": "Bia", "out_order": ["Caio", "Ana", "Dani"]}),
    "el_gato": (P4, {"stake": 1}, {"loser": "Caio"}),
    "relogio": (["Ana"], {}, {"game": "relogio", "won": True, "king_exchanges": 1}),
    "cachorro": (["Ana"], {}, {"game": "cachorro", "won": True, "round": 2}),
}


def draft_in(html: str) -> str:
    found = re.search(r'name="d" value="([^"]*)"', html)
    assert found is not None, html[:800]
    return unescape(found.group(1))


def table_with(
    app: Flask, game: str, players: list[str], options: dict[str, Any], *records: dict[str, Any]
) -> tuple[str, FlaskClient, FlaskClient]:
    """A table with ``records`` stored through the API; the API client (it sends the table's
    token) and the owner's phone."""
    api = app.test_client()
    answer = api.post(f"{API}/tables", json={"game": game, "players": players, "options": options})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    table = answer.get_json()
    api.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {table['token']}"
    for record in records:
        stored = api.post(f"{API}/tables/{table['id']}/hands", json=record)
        assert stored.status_code == 201, stored.get_data(as_text=True)
    phone = app.test_client()
    phone.get("/lang/en")
    assert phone.post(f"/t/{table['id']}/scorer", data={"token": table["token"]}).status_code == 302
    return table["id"], api, phone


def hands(api: FlaskClient, tid: str) -> list[dict[str, Any]]:
    return list(api.get(f"{API}/tables/{tid}").get_json()["hands"])


@pytest.mark.parametrize("case", sorted(HANDS))
def test_a_correction_opens_with_every_value_and_unchanged_settles_the_same(app: Flask, case: str) -> None:
    players, options, record = HANDS[case]
    game = case.split("_")[0] if case.startswith(("jubileu", "quatrilho")) else case
    tid, api, phone = table_with(app, game, players, options, record)
    [first] = hands(api, tid)
    page = phone.get(f"/t/{tid}/hand", query_string={"replaces": "1"})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    if 'value="check"' in html:  # Samba's one-form page: its "check the score", values as shown
        checked = phone.get(f"/t/{tid}/hand", query_string=[*form_values(html), ("action", "check")])
        assert checked.status_code == 200
        html = checked.get_data(as_text=True)
    # It opens at the last step, "check and confirm", with its reason field and save button.
    assert 'id="reason"' in html and re.search(r"<h1>Correct (hand|race|game) 1</h1>", html)
    for shown in SUMMARY.get(case, ()):
        assert shown in text_of(html), (shown, text_of(html))
    saved = phone.post(f"/t/{tid}/hand", data={"d": draft_in(html), "reason": "checked"})
    assert saved.status_code == 302, saved.get_data(as_text=True)[:2000]
    old, new = hands(api, tid)
    assert old["void"] and not new.get("void") and new["replaces"] == 1
    # Saved unchanged, the record is stored exactly as it was (every player's count kept).
    assert same(new["record"]) == same(first["record"])
    assert (new["deltas"], new["breakdown"], new["contract"]) == (
        first["deltas"],
        first["breakdown"],
        first["contract"],
    )


#: Per case, the counting steps "change" reopens and what each must show as it was entered: the
#: steppers' values by field name, the last trick's radio, or the count marked on a pad.
REOPENED = {
    "jubileu_tricks": [("tricks", {"t0": "6", "t1": "3", "t2": "2", "t3": "2"}, None)],
    "jubileu_solo": [("tricks", {}, "side:9")],
    "jubileu_meia": [("tricks", {"t0": "1", "t1": "6", "t2": "0", "t3": "6"}, "side:0:1")],
    "quatrilho_players": [
        ("figures", {"f0": "8", "f1": "8", "f2": "9", "f3": "7"}, "last:0"),
        ("tricks", {"t0": "3", "t1": "2", "t2": "3", "t3": "2"}, None),
    ],
    "quatrilho_chamada": [
        ("side_figures", {}, "side_figures:14"),
        ("side_tricks", {}, "side_tricks:4"),
        ("caller_figures", {}, "caller_figures:6"),
    ],
}


def marked(html: str) -> list[str]:
    """What the page shows as already chosen: checked radios, pressed pad buttons."""
    found = [f"last:{v}" for v in re.findall(r'name="last" value="(\d+)"[^>]*\bchecked\b', html)]
    return found + re.findall(r'value="([a-z_]+(?::\d+)+)"[^>]*aria-pressed="true"', html)


@pytest.mark.parametrize("case", sorted(REOPENED))
def test_change_on_a_counting_step_reopens_it_with_the_stored_counts(app: Flask, case: str) -> None:
    players, options, record = HANDS[case]
    tid, api, phone = table_with(app, case.split("_")[0], players, options, record)
    [first] = hands(api, tid)
    opened = phone.get(f"/t/{tid}/hand", query_string={"replaces": "1"}).get_data(as_text=True)
    for step, values, chosen in REOPENED[case]:
        page = phone.get(f"/t/{tid}/hand", query_string={"d": draft_in(opened), "action": f"back:{step}"})
        html = page.get_data(as_text=True)
        assert page.status_code == 200 and 'id="step-h"' in html
        counts = html.split('id="step-h"', 1)[1].split('<form method="get"')[-1]
        shown = dict(form_values('<form method="get"' + counts))
        assert {k: shown.get(k) for k in values} == values, step
        if chosen:
            assert chosen in marked(html), (step, marked(html))
        # Answered as shown, the hand is back at "check and confirm", unchanged.
        if values:  # the steppers' form, sent as shown
            again = phone.get(f"/t/{tid}/hand", query_string=[*shown.items(), ("action", step)])
        else:  # one tap on the pad's marked count
            again = phone.get(f"/t/{tid}/hand", query_string={"d": draft_in(html), "action": chosen})
        opened = again.get_data(as_text=True)
        assert 'id="reason"' in opened, (step, text_of(opened)[:600])
    saved = phone.post(f"/t/{tid}/hand", data={"d": draft_in(opened), "reason": "checked"})
    assert saved.status_code == 302, saved.get_data(as_text=True)[:2000]
    assert same(hands(api, tid)[1]["record"]) == same(first["record"])


#: What the summary of a reopened hand shows, in the short form the page uses.
SUMMARY = {
    "jubileu_solo": ["Contract Solo Sete · Ana", "Tricks Ana 9"],
    "jubileu_partner": ["3 or 4 aces Caio has 3", "Called card Ace of clubs", "Partner Bia", "Tricks Caio + Bia 7"],
    "jubileu_tricks": ["Tricks Ana 6, Bia 3, Caio 2, Dani 2"],
    "jubileu_meia": ["Tricks Ana 1, Bia 6, Caio 0, Dani 6"],
    "quatrilho_chamada": ["Figures Ana and Caio: 14 of 35", "Tricks Ana and Caio: 4 of 10", "Caller’s pile Ana: 6"],
}


def form_values(html: str) -> list[tuple[str, str]]:
    """What the page's form sends as shown: its inputs' values, radios and boxes if checked."""
    form = html.split('<form method="get"', 1)[1].split("</form>", 1)[0]
    sent = []
    for tag in re.findall(r"<input\b[^>]*>", form):
        name, value = re.search(r'name="([^"]*)"', tag), re.search(r'value="([^"]*)"', tag)
        if name is None or (re.search(r'type="(radio|checkbox)"', tag) and not re.search(r"\bchecked\b", tag)):
            continue
        sent.append((unescape(name.group(1)), unescape(value.group(1)) if value else ""))
    return sent


def text_of(html: str) -> str:
    """The page's words as read: tags out, a comma back against the word before it."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split()).replace(" ,", ",")


def same(record: dict[str, Any]) -> str:
    """A record as JSON, a Samba team's "no penalty" written one way (0 and [] say the same)."""
    for team in record.get("teams") or []:
        if team.get("penalties") == []:
            team["penalties"] = 0
    return json.dumps(record, sort_keys=True)


# --------------------------------------------------------------------------- numbers on the pages


def passed(dealer: str, suit: str = "ouros") -> dict[str, Any]:
    """Everybody passed (Jubileu): the quickest hand, its suit telling the versions apart."""
    order = P4[P4.index(dealer) + 1 :] + P4[: P4.index(dealer) + 1]
    return {"dealer": dealer, "ultima": suit, "auction": [[p, "passo"] for p in order]}


def items(html: str) -> list[tuple[str, str]]:
    """The hands listed, top level only: (stored id, what the head says)."""
    listed = html.split('<ol class="hands"', 1)[1]
    found = []
    depth = 0
    for tag, stored in re.findall(r'<(/?ol|li class="hand[^"]*" id="hand-(\d+)")', listed):
        if tag == "ol":
            depth += 1
        elif tag == "/ol":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0:
            head = listed.split(f'id="hand-{stored}">', 1)[1].split("</div>", 1)[0]
            found.append((stored, text_of(head)))
    return found


def test_a_correction_keeps_its_number_and_a_void_hand_takes_none(app: Flask) -> None:
    records = [passed("Dani"), passed("Ana"), passed("Bia"), passed("Caio")]
    tid, api, phone = table_with(app, "jubileu", P4, {}, *records)
    fix = {**passed("Ana", "copas"), "replaces": 2, "reason": "wrong suit"}
    assert api.post(f"{API}/tables/{tid}/hands", json=fix).status_code == 201
    assert api.post(f"{API}/tables/{tid}/hands/3/void", json={"reason": "misdeal"}).status_code == 200
    # Stored: 1, 2 (void), 3 (void), 4, 5 (corrects 2); the API's numbers stay as they were.
    assert [(h["number"], bool(h.get("void"))) for h in api.get(f"{API}/tables/{tid}").get_json()["hands"]] == [
        (1, False),
        (2, True),
        (3, True),
        (4, False),
        (5, False),
    ]
    # The API adds the number the pages show (its extension; "number" is the hand's id).
    assert [h["display_number"] for h in hands(api, tid)] == [1, None, None, 3, 2]
    history = phone.get(f"/t/{tid}/history").get_data(as_text=True)
    # Newest first, in play order: hand 3 (stored 4), the void hand (no number), hand 2 corrected.
    assert items(history) == [
        ("4", "Hand 3 Everybody passed"),
        ("3", "Everybody passed void"),
        ("5", "Hand 2 Everybody passed corrected"),
        ("1", "Hand 1 Everybody passed"),
    ]
    # What hand 2 was before: one tap away, under the correction.
    corrected = history.split('id="hand-5"', 1)[1].split('id="hand-1"', 1)[0]
    before = corrected.split('<details class="before">', 1)[1]
    assert "Before the correction" in before and 'id="hand-2"' in before and "wrong suit" in before
    # The header counts the hands shown; the next hand is number 4, on every page that says so.
    table_page = phone.get(f"/t/{tid}").get_data(as_text=True)
    assert "3 hands" in text_of(table_page) and "3 hands" in text_of(history)
    assert [s for s, _head in items(table_page)] == ["4", "3", "5"]
    assert '<h2 id="next-h">Hand 4</h2>' in table_page
    assert "3 hands" in text_of(phone.get(f"/w/{tid}").get_data(as_text=True))
    tv = phone.get(f"/tv/{tid}").get_data(as_text=True)
    assert items(tv) == [("4", "Hand 3 Everybody passed")]
    new = phone.get(f"/t/{tid}/hand", query_string={"ultima": "ouros"}).get_data(as_text=True)
    assert "<h1>Hand 4</h1>" in new
    # Voiding it, or correcting it, names stored hand 4 by the number the pages show: 3.
    assert "<h1>Void hand 3</h1>" in phone.get(f"/t/{tid}/hands/4/void").get_data(as_text=True)
    # Correcting stored hand 4 is correcting hand 3; saved, it stays hand 3, and says so.
    fix3 = phone.get(f"/t/{tid}/hand", query_string={"replaces": "4"}).get_data(as_text=True)
    assert "<h1>Correct hand 3</h1>" in fix3
    saved = phone.post(f"/t/{tid}/hand", data={"d": draft_in(fix3), "reason": "checked"}, follow_redirects=True)
    page = text_of(saved.get_data(as_text=True))
    assert "Hand 3 was corrected." in page and "3 hands" in page
    assert [h for _s, h in items(phone.get(f"/t/{tid}/history").get_data(as_text=True))][0] == (
        "Hand 3 Everybody passed corrected"
    )


def test_the_numbers_speak_portuguese(app: Flask) -> None:
    tid, api, phone = table_with(app, "jubileu", P4, {}, passed("Dani"), passed("Ana"))
    fix = {**passed("Dani", "copas"), "replaces": 1, "reason": "naipe errado"}
    assert api.post(f"{API}/tables/{tid}/hands", json=fix).status_code == 201
    phone.get("/lang/pt-BR")
    history = phone.get(f"/t/{tid}/history").get_data(as_text=True)
    assert [h for _s, h in items(history)] == ["Mão 2 Todos passaram", "Mão 1 Todos passaram corrigida"]
    assert "Antes da correção" in history and "2 mãos" in text_of(history)


def test_a_tap_on_one_declarer_s_count_changes_only_that_count(app: Flask) -> None:
    """Meia Miséria with two declarers: a tap on Caio's count opens the pad for Caio (his 0
    marked); one tap on 1 changes his count and keeps Ana's."""
    players, options, record = HANDS["jubileu_meia"]
    tid, api, phone = table_with(app, "jubileu", players, options, record)
    opened = phone.get(f"/t/{tid}/hand", query_string={"replaces": "1"}).get_data(as_text=True)
    assert 'value="back:tricks:2"' in opened
    page = phone.get(f"/t/{tid}/hand", query_string={"d": draft_in(opened), "action": "back:tricks:2"})
    html = page.get_data(as_text=True)
    assert "How many tricks did Caio take?" in text_of(html) and marked(html) == ["side:2:0"]
    preview = phone.get(f"/t/{tid}/hand", query_string={"d": draft_in(html), "action": "side:2:1"})
    assert json.loads(draft_in(preview.get_data(as_text=True)))["declarer_tricks"] == {"Ana": 1, "Caio": 1}
    assert 'id="reason"' in preview.get_data(as_text=True)


@pytest.mark.parametrize(("case", "step"), [("jubileu_tricks", "tricks"), ("quatrilho_players", "figures")])
def test_the_tapped_count_stands_out_among_the_stored_ones(app: Flask, case: str, step: str) -> None:
    players, options, record = HANDS[case]
    tid, api, phone = table_with(app, case.split("_")[0], players, options, record)
    opened = phone.get(f"/t/{tid}/hand", query_string={"replaces": "1"}).get_data(as_text=True)
    html = phone.get(f"/t/{tid}/hand", query_string={"d": draft_in(opened), "action": f"back:{step}:1"}).get_data(
        as_text=True
    )
    changing = re.findall(r'<input [^>]*name="([tf]\d)"[^>]*data-changing', html)
    assert changing == [f"{step[0]}1"]
