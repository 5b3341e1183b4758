"""The Injun "record a hand" page through the test client: a Poker hand
and a Brag hand with a closed pot entered button by button, the chips a split leaves on the
table for the next deal, illegal actions neither offered nor accepted when forged (422, nothing
stored), undo, the system and ante of the hand, and corrections.

Seats in order of play: Ana, Bia, Caio, Dani; Dani (player 4) deals the first hand, so Ana bets
first. Every expected figure is worked out by hand from the rule text: a player's delta is what
he takes from the pots minus what he put in (ante and bets). CSRF is off here
(tests/conftest.py); the browser suite (tests/e2e/test_injun.py) runs with it on.
"""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import ledger
from referee.i18n import LANG_COOKIE, render_text
from referee.rules.errors import RulesError

PLAYERS = ["Ana", "Bia", "Caio", "Dani"]
OPTIONS = {
    "opt_system": "poker",
    "opt_ante": "1",
    "opt_poker_amounts": "literal",
    "opt_odd_chip": "carry",
    "opt_surrender_closed": "compare",
    "opt_starting_chips": "0",
    "opt_chip_value": "0",
}


@pytest.fixture(autouse=True)
def english(client: FlaskClient) -> None:
    """The pages in English, so the words asserted here stay put when pt-BR is translated."""
    client.get("/lang/en")


def new_table(client: FlaskClient, **options: str) -> str:
    """The new-table form as a browser sends it (four names, Dani dealing); this client scores."""
    data = {f"player_{i}": name for i, name in enumerate(PLAYERS)}
    data.update({"dealer": "3", **OPTIONS, **{f"opt_{k}": v for k, v in options.items()}})
    response = client.post("/tables/new?game=injun", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/t/", 1)[1]


def draft_in(html: str) -> str:
    raw = re.search(r'name="d" value="([^"]*)"', html)
    assert raw is not None, html[:500]
    return unescape(raw.group(1))


def draft(html: str) -> dict[str, Any]:
    return dict(json.loads(draft_in(html)))


class Page:
    """One scorer walking the flow: each press is a GET with the draft and the button's value."""

    def __init__(self, client: FlaskClient, tid: str, **query: str) -> None:
        self.client, self.tid = client, tid
        response = client.get(f"/t/{tid}/hand", query_string=query)
        assert response.status_code == 200, response.get_data(as_text=True)
        self.html = response.get_data(as_text=True)
        self.status = response.status_code

    def press(self, action: str, status: int = 200, **extra: str) -> Page:
        response = self.client.get(
            f"/t/{self.tid}/hand", query_string={"d": draft_in(self.html), "action": action, **extra}
        )
        assert response.status_code == status, (action, errors(response.get_data(as_text=True)))
        self.html, self.status = response.get_data(as_text=True), response.status_code
        return self

    def presses(self, *actions: str) -> Page:
        for action in actions:
            self.press(action)
        return self

    def offered(self) -> list[str]:
        """The action buttons of the step section (what the scorer can tap)."""
        step = self.html.split('<section class="card step"', 1)[1].split("</section>", 1)[0]
        return re.findall(r'name="action" value="([^"]+)"', step)

    def heading(self) -> str:
        found = re.search(r'<h2 id="step-h">(.*?)</h2>', self.html, re.S)
        assert found is not None
        return unescape(" ".join(found.group(1).split()))

    def confirm(self, **form: str) -> Any:
        return self.client.post(f"/t/{self.tid}/hand", data={"d": draft_in(self.html), **form})


def errors(html: str) -> list[str]:
    return [unescape(" ".join(e.split())) for e in re.findall(r'<p class="field-error"[^>]*>(.*?)</p>', html, re.S)]


def stored(app: Flask, tid: str) -> list[dict[str, Any]]:
    with app.app_context():
        return [
            {"number": h.number, "void": h.is_void, "record": dict(h.record), "deltas": dict(h.result["deltas"])}
            for h in ledger.all_hands(ledger.get_table(tid))
        ]


def totals(app: Flask, tid: str) -> dict[str, int]:
    with app.app_context():
        return dict(ledger.totals(ledger.get_table(tid)))


def engine_says(app: Flask, tid: str, record: dict[str, Any], dealer: str = "Dani") -> str:
    """The sentence the engine gives for a record, in English (the language of these pages)."""
    with app.test_request_context("/", headers={"Cookie": f"{LANG_COOKIE}=en"}):
        try:
            ledger.preview_hand(ledger.get_table(tid), record, dealer=dealer)
        except RulesError as exc:
            return render_text(exc.text)
    raise AssertionError(f"the engine accepts {record}")


# --------------------------------------------------------------------------- Poker

# Ana 20, Bia 22 (tops it), Caio drops, Dani 27, Ana 27 (equal to the bet before: closes).
# Ana, Bia and Dani show: Q, K, 5; Bia's king takes the pot of 4 antes + 20+22+27+27 = 100.
POKER = ["act:0:bet:20", "act:1:bet:22", "act:2:drop", "act:3:bet:27", "act:0:bet:27"]
POKER_DELTAS = {"Ana": -48, "Bia": 100 - 23, "Caio": -1, "Dani": -28}


def test_a_poker_hand_button_by_button(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    page = Page(client, tid)
    assert page.heading() == "Ana to act"
    # Nobody has bet: any amount from 1, no equal bet to close with, no Brag actions.
    first = page.offered()
    assert "act:0:drop" in first and "act:0:bet:1" in first and "act:0:bet" in first
    assert not [a for a in first if a.endswith((":see", ":close"))]
    page.press("act:0:bet:20")
    # Bia: the equal bet (20) closes; a raise is from 21.
    assert page.heading() == "Bia to act"
    offered = page.offered()
    assert "act:1:bet:20" in offered and "act:1:bet:21" in offered
    assert not [a for a in offered if re.fullmatch(r"act:1:bet:(\d+)", a) and 1 < int(a.rsplit(":", 1)[1]) < 20]
    page.press("act:1:bet", amount="22")  # the stepper's amount
    page.presses("act:2:drop", "act:3:bet:27", "act:0:bet:27")
    # The betting is over: the cards of exactly Ana, Bia and Dani (Caio dropped out).
    assert page.heading() == "Which card does Ana show?"
    assert [a for a in page.offered() if a.startswith("card:")][0] == "card:0:A"
    page.press("card:0:Q")
    assert page.heading() == "Which card does Bia show?"
    page.press("card:1:K")
    assert page.heading() == "Which card does Dani show?"
    page.press("card:3:5")
    assert page.heading() == "Check and confirm"
    assert f'<form method="post" action="/t/{tid}/hand"' in page.html and "Confirm hand 1" in page.html
    # Nothing is stored before the confirm.
    assert stored(app, tid) == []
    response = page.confirm()
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/t/{tid}")
    [hand] = stored(app, tid)
    assert hand["record"] == {
        "dealer": "Dani",
        "system": "poker",
        "ante": 1,
        "actions": [
            ["Ana", {"bet": 20}],
            ["Bia", {"bet": 22}],
            ["Caio", "drop"],
            ["Dani", {"bet": 27}],
            ["Ana", {"bet": 27}],
        ],
        "cards": {"Ana": "Q", "Bia": "K", "Dani": "5"},
    }
    assert hand["deltas"] == POKER_DELTAS
    assert totals(app, tid) == POKER_DELTAS


def test_everybody_else_dropping_ends_a_poker_hand_without_cards(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    page = Page(client, tid).presses("act:0:bet:3", "act:1:drop", "act:2:drop", "act:3:drop")
    # INJ-4: Ana takes the pot (4 antes + her 3) without a showdown: no card is asked.
    assert page.heading() == "Check and confirm"
    assert page.confirm().status_code == 302
    [hand] = stored(app, tid)
    assert "cards" not in hand["record"]
    assert hand["deltas"] == {"Ana": 3, "Bia": -1, "Caio": -1, "Dani": -1}


def test_the_poker_page_under_match_highest_asks_the_players_to_level_up(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, poker_amounts="match_highest")
    page = Page(client, tid).presses("act:0:bet:5", "act:1:bet:8", "act:2:bet:8")
    # Caio's 8 closes; Dani (1 ante, no bet) and Ana (5) must bring their bets up to 8 or drop.
    assert page.heading() == "Dani to act"
    assert page.offered() == ["act:3:bet:8", "act:3:drop"]
    page.press("act:3:bet:8")
    assert page.offered() == ["act:0:bet:3", "act:0:drop"]
    page.press("act:0:drop")
    assert page.heading() == "Which card does Bia show?"


# --------------------------------------------------------------------------- Brag

# Ana bets, Bia bets, Caio is out of chips and closes the first pot (4 antes + 2 = 6) with his
# card; Dani bets into the new pot, Ana drops, and Bia, one of the two left, pays 2 to see.
# Pot 1 (6): Caio, Bia and Dani compare; pot 2 (Dani 1 + Bia 2 = 3): Bia and Dani.
BRAG = ["act:0:bet", "act:1:bet", "act:2:close", "act:3:bet", "act:0:drop", "act:1:see"]


def test_a_brag_hand_with_a_closed_pot_button_by_button(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, system="brag")
    page = Page(client, tid)
    # Four players betting: one chip, close, drop; no paying to see, no amounts.
    assert sorted(page.offered()) == ["act:0:bet", "act:0:close", "act:0:drop"]
    page.presses(*BRAG[:5])
    # Two players left (Bia and Dani): now Bia may pay to see.
    assert page.heading() == "Bia to act"
    assert sorted(page.offered()) == ["act:1:bet", "act:1:close", "act:1:drop", "act:1:see"]
    assert "Pot 1, closed by Caio" in page.html and "closed pot 1" in page.html and "dropped out" in page.html
    page.press("act:1:see")
    # The cards of Bia, Caio and Dani (the closer contests the pot he closed); Ana dropped.
    assert page.heading() == "Which card does Bia show?"
    page.presses("card:1:K", "card:2:A")
    assert page.heading() == "Which card does Dani show?"
    page.press("card:3:7")
    assert page.heading() == "Check and confirm"
    assert page.confirm().status_code == 302
    [hand] = stored(app, tid)
    assert hand["record"]["actions"] == [
        ["Ana", "bet"],
        ["Bia", "bet"],
        ["Caio", "close"],
        ["Dani", "bet"],
        ["Ana", "drop"],
        ["Bia", "see"],
    ]
    assert hand["record"]["cards"] == {"Bia": "K", "Caio": "A", "Dani": "7"}
    # Caio's ace takes pot 1 (6, he put in 1); Bia's king beats Dani's 7 for pot 2 (3; she put in 4).
    assert hand["deltas"] == {"Ana": -2, "Bia": -1, "Caio": 5, "Dani": -2}
    # The history says who took which pot.
    table_page = client.get(f"/t/{tid}").get_data(as_text=True)
    assert "Brag · pot closed by Caio: Caio wins 6 · last pot: Bia wins 3" in " ".join(unescape(table_page).split())


def test_an_odd_chip_stays_on_the_table_and_goes_into_the_next_pot(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, system="brag")
    # Ana bets, Bia and Caio drop, Dani pays 2 to see: 4 + 1 + 2 = 7; two kings split 3 each.
    page = Page(client, tid).presses("act:0:bet", "act:1:drop", "act:2:drop", "act:3:see", "card:0:K", "card:3:K")
    assert page.heading() == "Check and confirm"
    assert "1 chip stays on the table for the next deal." in page.html
    assert page.confirm().status_code == 302
    assert stored(app, tid)[0]["deltas"] == {"Ana": 1, "Bia": -1, "Caio": -1, "Dani": 0}
    # Next deal (Ana deals, Bia bets first): the chip lies in the pot from the start.
    page = Page(client, tid)
    assert "1 chip left on the table goes into the pot" in page.html
    assert re.search(r"Pot:\s*<b>5 chips</b>", page.html)  # 4 antes + the chip carried in
    page.presses("act:1:bet", "act:2:drop", "act:3:drop", "act:0:drop")
    assert page.confirm().status_code == 302
    second = stored(app, tid)[1]
    assert second["record"]["carried_in"] == 1
    assert second["deltas"] == {"Ana": -1, "Bia": 6 - 2, "Caio": -1, "Dani": -1}
    assert totals(app, tid) == {"Ana": 0, "Bia": 3, "Caio": -2, "Dani": -1}


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("system", "before", "forged", "record_action"),
    [
        ("brag", [], "act:0:see", ["Ana", "see"]),  # four players betting: no paying to see
        ("brag", [], "act:1:bet", ["Bia", "bet"]),  # not Bia's turn
        ("poker", ["act:0:bet:20"], "act:1:bet:5", ["Bia", {"bet": 5}]),  # lower than the bet before
        ("poker", [], "act:0:close", ["Ana", "close"]),  # no closing pots in Poker
        ("poker", [], "act:0:bet:0", ["Ana", {"bet": 0}]),  # a bet of nothing
    ],
)
def test_an_illegal_action_is_not_offered_and_a_forged_one_is_refused(
    app: Flask, client: FlaskClient, system: str, before: list[str], forged: str, record_action: list[Any]
) -> None:
    tid = new_table(client, system=system)
    page = Page(client, tid).presses(*before)
    assert forged not in page.offered()
    kept = draft(page.html).get("actions", [])
    page.press(forged, status=422)
    record = {"system": system, "actions": [*kept, record_action]}
    assert errors(page.html) == [engine_says(app, tid, record)]
    assert draft(page.html).get("actions", []) == kept  # the refused action did not join the hand
    assert stored(app, tid) == []


def test_a_forged_link_is_cut_at_its_first_illegal_action(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, system="brag")
    forged = {"n": 1, "key": "k1", "actions": [["Ana", "bet"], ["Bia", "see"], ["Caio", "bet"]]}
    response = client.get(f"/t/{tid}/hand", query_string={"d": json.dumps(forged)})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert errors(html) == [engine_says(app, tid, {"system": "brag", "actions": forged["actions"]})]
    assert draft(html)["actions"] == [["Ana", "bet"]]
    assert "Bia to act" in html


@pytest.mark.parametrize(
    "actions",
    [
        # The legal hand ends at Bia's equal bet; the forged extra action must not be dropped quietly.
        [["Ana", {"bet": 5}], ["Bia", {"bet": 5}], ["Caio", {"bet": 7}]],
        [["Ana", {"bet": 5}], ["Bia", "see"], ["Caio", "drop"], ["Dani", "drop"], ["Ana", "drop"]],
        [["Ana", {"bet": 5}], ["Bia", {"bet": 3}], ["Caio", "drop"], ["Dani", "drop"]],
    ],
)
def test_a_forged_save_is_refused_with_the_rule_and_nothing_is_stored(
    app: Flask, client: FlaskClient, actions: list[Any]
) -> None:
    tid = new_table(client)
    forged = {
        "n": 1,
        "key": "forged",
        "dealer": "Dani",
        "system": "poker",
        "ante": 1,
        "actions": actions,
        "cards": {"Ana": "A", "Bia": "K"},
    }
    response = client.post(f"/t/{tid}/hand", data={"d": json.dumps(forged)})
    assert response.status_code == 422
    assert errors(response.get_data(as_text=True)) == [
        engine_says(app, tid, {k: v for k, v in forged.items() if k not in ("n", "key")})
    ]
    assert stored(app, tid) == []


def test_a_card_the_engine_does_not_compare_is_refused(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, system="brag")
    page = Page(client, tid).presses("act:0:bet", "act:1:drop", "act:2:drop", "act:3:see")
    assert page.heading() == "Which card does Ana show?"
    page.press("card:1:A", status=422)  # Bia dropped out: her card is not shown
    assert errors(page.html) == [
        engine_says(
            app,
            tid,
            {"system": "brag", "actions": draft(page.html)["actions"], "cards": {"Bia": "A", "Ana": "2", "Dani": "2"}},
        )
    ]
    page.press("card:0:X", status=422)  # no such rank
    assert "cards" not in draft(page.html)
    assert page.heading() == "Which card does Ana show?"


def test_five_players_cannot_show_the_same_rank(app: Flask, client: FlaskClient) -> None:
    data = {f"player_{i}": name for i, name in enumerate(["Ana", "Bia", "Caio", "Dani", "Edu"])}
    data.update({"dealer": "4", **OPTIONS})
    tid = client.post("/tables/new?game=injun", data=data).headers["Location"].rsplit("/t/", 1)[1]
    page = Page(client, tid).presses(
        "act:0:bet:1", "act:1:bet:2", "act:2:bet:3", "act:3:bet:4", "act:4:bet:5", "act:0:bet:5"
    )
    page.presses("card:0:9", "card:1:9", "card:2:9", "card:3:9")
    # The deck has four nines: the last rank buttons leave them out; a forged fifth is refused.
    assert "card:4:9" not in page.offered() and "card:4:8" in page.offered()
    page.press("card:4:9")
    assert page.heading() == "Cards shown" and errors(page.html)
    assert page.confirm().status_code == 422
    assert stored(app, tid) == []


# --------------------------------------------------------------------------- undo, setup, corrections


def test_undo_takes_back_the_last_action_with_a_plain_link(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    page = Page(client, tid)
    assert "action=undo" not in page.html  # nothing to undo yet
    page.presses("act:0:bet:20", "act:1:bet:22", "act:2:drop")
    link = re.search(r'<a class="btn btn-secondary" href="([^"]*action=undo[^"]*)"', page.html)
    assert link is not None
    response = client.get(unescape(link.group(1)))
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert draft(html)["actions"] == [["Ana", {"bet": 20}], ["Bia", {"bet": 22}]]
    assert "Caio to act" in html
    # Undoing the action that ended the betting forgets the cards entered since.
    page = Page(client, tid).presses("act:0:bet:3", "act:1:bet:3", "card:0:A")
    assert draft(page.html)["cards"] == {"Ana": "A"}
    page.press("undo")
    assert "cards" not in draft(page.html) and page.heading() == "Bia to act"


def test_the_hand_takes_the_table_s_system_and_ante_and_may_change_them(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, ante="2")
    page = Page(client, tid)
    assert draft(page.html)["ante"] == 2 and draft(page.html)["system"] == "poker"
    page.presses("act:0:bet:4").press("back:setup")
    assert page.heading() == "Betting system and ante"
    # A wrong ante is refused with the engine's sentence.
    page.press("setup", status=422, system="poker", ante="-1")
    assert errors(page.html) == [engine_says(app, tid, {"ante": "-1", "actions": []})]
    # Another ante keeps the betting; another system starts it again.
    page.press("setup", system="poker", ante="5")
    assert draft(page.html)["ante"] == 5 and draft(page.html)["actions"] == [["Ana", {"bet": 4}]]
    page.presses("back:setup").press("setup", system="brag", ante="5")
    assert draft(page.html)["system"] == "brag" and "actions" not in draft(page.html)
    page.presses("act:0:bet", "act:1:drop", "act:2:drop", "act:3:drop")
    assert page.confirm().status_code == 302
    [hand] = stored(app, tid)
    assert (hand["record"]["system"], hand["record"]["ante"]) == ("brag", 5)
    assert hand["deltas"] == {"Ana": 15, "Bia": -5, "Caio": -5, "Dani": -5}


def test_a_correction_starts_from_the_hand_and_keeps_its_chips_on_the_table(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, system="brag")
    # Hand 1 leaves one chip on the table (two kings split 7); hand 2 takes it up.
    Page(client, tid).presses("act:0:bet", "act:1:drop", "act:2:drop", "act:3:see", "card:0:K", "card:3:K").confirm()
    Page(client, tid).presses("act:1:bet", "act:2:drop", "act:3:drop", "act:0:drop").confirm()
    assert [h["record"].get("carried_in", 0) for h in stored(app, tid)] == [0, 1]
    # Correct hand 2: it opens at the preview of what was stored, with the chip it found.
    page = Page(client, tid, replaces="2")
    assert page.heading() == "Check and confirm"
    assert "Correct hand 2" in page.html and "1 chip left on the table goes into the pot" in page.html
    # Really Ana did not drop: she paid to see against Bia, and her queen beat Bia's jack.
    page.press("undo").press("act:0:see").presses("card:0:Q", "card:1:J")
    assert page.heading() == "Check and confirm"
    response = page.confirm(reason="Ana paid to see")
    assert response.status_code == 302
    hands = stored(app, tid)
    assert [(h["number"], h["void"]) for h in hands] == [(1, False), (2, True), (3, False)]
    corrected = hands[2]
    assert corrected["record"]["carried_in"] == 1
    # Pot: 4 antes + the chip carried in + Bia 1 + Ana 2 = 8, all to Ana (she put in 3).
    assert corrected["deltas"] == {"Ana": 5, "Bia": -2, "Caio": -1, "Dani": -1}
    assert totals(app, tid) == {"Ana": 6, "Bia": -3, "Caio": -2, "Dani": -1}


@pytest.mark.parametrize(
    "d",
    [
        "",
        "{",
        "[]",
        '{"actions": "x"}',
        '{"actions": [1, 2]}',
        '{"actions": [["Zé", "bet"]]}',
        '{"ante": -4, "system": "x"}',
        '{"cards": {"Ana": 3}, "actions": [["Ana", {"bet": 1}], ["Bia", {"bet": 1}]]}',
        '{"actions": [["Ana", {"bet": true}]]}',
    ],
)
def test_odd_drafts_never_crash(client: FlaskClient, d: str) -> None:
    tid = new_table(client)
    for action in ("", "act:0:bet:x", "act:9:bet:1", "card:0:A", "setup", "undo", "act:0:bet"):
        response = client.get(f"/t/{tid}/hand", query_string={"d": d, "action": action})
        assert response.status_code in (200, 422), (d, action)
    assert client.post(f"/t/{tid}/hand", data={"d": d}).status_code in (302, 422)
