"""The "record a hand" page of the games with a short record (referee/views/short_flow.py):
Koziri, Lift Smoke, El Gato, Relógio / Relógio Real and Paciência do Cachorro, through the test
client (no JavaScript): every step is a GET carrying the draft, the hand is stored by one POST.

The pages are read in English (the ``lang`` cookie), so the assertions do not depend on the
Portuguese catalogue. Expected settlements are worked out from the rule text (with the stake
option, the rule text and), never read back from the app; the refusals' sentences are the
engine's own, asked of the engine.
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
from referee.rules import cachorro, koziri, lift_smoke, relogio
from referee.rules.errors import RulesError
from referee.rules.seats import parse_out_order

FOUR = ["Ana", "Bia", "Caio", "Dani"]


# --------------------------------------------------------------------------- helpers


def new_table(client: FlaskClient, game: str, players: list[str], **options: str) -> str:
    """The new-table form as a browser sends it (the last seat deals first); English pages."""
    client.set_cookie("lang", "en")
    data = {f"player_{i}": name for i, name in enumerate(players)}
    data["dealer"] = str(len(players) - 1)
    data.update({f"opt_{k}": v for k, v in options.items()})
    response = client.post(f"/tables/new?game={game}", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/t/", 1)[1]


def draft_in(html: str) -> str:
    raw = re.search(r'name="d" value="([^"]*)"', html)
    assert raw is not None, html[:800]
    return unescape(raw.group(1))


class Page:
    """One page of the flow: its heading, the buttons its step offers, its error sentence."""

    def __init__(self, html: str, status: int = 200) -> None:
        self.html, self.status = html, status

    @property
    def d(self) -> str:
        return draft_in(self.html)

    @property
    def draft(self) -> dict[str, Any]:
        return dict(json.loads(self.d))

    @property
    def heading(self) -> str:
        found = re.search(r'<h2 id="step-h">(.*?)</h2>', self.html, re.S)
        return unescape(" ".join(found.group(1).split())) if found else ""

    @property
    def step_html(self) -> str:
        return self.html.split('class="card step"', 1)[1]

    def offered(self, prefix: str) -> list[str]:
        """The action values of the step's buttons that start with ``prefix``."""
        return [v for v in re.findall(r'name="action" value="([^"]*)"', self.step_html) if v.startswith(prefix)]

    @property
    def errors(self) -> list[str]:
        return [
            unescape(" ".join(e.split())) for e in re.findall(r'<p class="field-error"[^>]*>(.*?)</p>', self.html, re.S)
        ]

    @property
    def text(self) -> str:
        return unescape(" ".join(re.sub(r"<[^>]+>", " ", self.html).split()))

    @property
    def confirmable(self) -> bool:
        return bool(re.search(r'<form method="post" action="/t/[^"]+/hand"', self.html))


def get(client: FlaskClient, tid: str, d: str | None = None, action: str | None = None, **args: str) -> Page:
    query = dict(args)
    if d is not None:
        query["d"] = d
    if action is not None:
        query["action"] = action
    response = client.get(f"/t/{tid}/hand", query_string=query)
    return Page(response.get_data(as_text=True), response.status_code)


def walk(client: FlaskClient, tid: str, *actions: str, start: Page | None = None) -> Page:
    """Press the buttons in turn, each page's draft carried to the next (as the browser does)."""
    page = start or get(client, tid)
    assert page.status == 200, page.html[:800]
    for action in actions:
        page = get(client, tid, page.d, action)
        assert page.status == 200, (action, page.html[:800])
    return page


def confirm(client: FlaskClient, tid: str, page: Page, **form: str) -> int:
    assert page.confirmable, page.text[:800]
    response = client.post(f"/t/{tid}/hand", data={"d": page.d, **form})
    return response.status_code


def hands(app: Flask, tid: str) -> list[dict[str, Any]]:
    with app.app_context():
        return [
            {
                "number": h.number,
                "void": h.is_void,
                "record": dict(h.record),
                "result": dict(h.result),
                "dealer": h.dealer,
            }
            for h in ledger.all_hands(ledger.get_table(tid))
        ]


def next_dealer(app: Flask, tid: str) -> str:
    with app.app_context():
        return ledger.current_dealer(ledger.get_table(tid))


def refusal(call: Any, *args: Any, **kwargs: Any) -> str:
    """The engine's sentence (English) for a record it refuses."""
    with pytest.raises(RulesError) as refused:
        call(*args, **kwargs)
    return str(refused.value.text)


def table_page(client: FlaskClient, tid: str) -> Page:
    response = client.get(f"/t/{tid}")
    assert response.status_code == 200
    return Page(response.get_data(as_text=True))


# --------------------------------------------------------------------------- El Gato


def test_el_gato_is_one_tap_on_the_loser_then_confirm(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, "el_gato", FOUR, stake="2")
    first = get(client, tid)
    assert first.heading == "Who was left holding all the cards?"
    assert first.offered("set:loser:") == [f"set:loser:{i}" for i in range(4)]
    preview = walk(client, tid, "set:loser:1", start=first)
    assert preview.heading == "Check and confirm"
    # with the stake option: the loser pays 2 to each of the three others.
    assert "Bia −6" in preview.text and "Ana +2" in preview.text
    assert "Ana deals the next hand." in preview.text  # Dani dealt; the deal passes on
    assert confirm(client, tid, preview) == 302
    [hand] = hands(app, tid)
    assert hand["record"] == {"dealer": "Dani", "loser": "Bia"}
    assert hand["result"]["deltas"] == {"Ana": 2, "Bia": -6, "Caio": 2, "Dani": 2}
    board = table_page(client, tid)
    assert "Bia lost" in board.text  # the history line (_contract_el_gato.html)
    assert "Ana deals; Bia plays first." in board.text


def test_el_gato_takes_the_order_of_running_out_when_offered(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, "el_gato", FOUR)
    preview = walk(client, tid, "set:loser:1")
    assert preview.offered("edit:out_order") == ["edit:out_order"]  # optional, offered on the preview
    order = walk(client, tid, "edit:out_order", start=preview)
    assert order.heading == "Who ran out of cards first?"
    assert order.offered("out:") == ["out:out_order:0", "out:out_order:2", "out:out_order:3"]  # never the loser
    preview = walk(client, tid, "out:out_order:2", "with:out_order:0", "out:out_order:3", start=order)
    assert preview.heading == "Check and confirm"
    assert confirm(client, tid, preview) == 302
    assert hands(app, tid)[0]["record"]["out_order"] == [["Caio", "Ana"], "Dani"]


# --------------------------------------------------------------------------- Koziri


def test_koziri_offers_the_opponent_only_the_two_suits_the_dealer_left(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, "koziri", ["Ana", "Bia"], stake="3")  # Bia deals, Ana is the opponent
    page = get(client, tid)
    assert page.heading == "Bia's trump"
    assert page.offered("set:") == [f"set:dealer_trump:{s}" for s in ("copas", "ouros", "espadas", "paus")]
    page = walk(client, tid, "set:dealer_trump:espadas", start=page)
    assert page.heading == "Bia's second suit"
    assert page.offered("set:") == ["set:dealer_second:copas", "set:dealer_second:ouros", "set:dealer_second:paus"]
    page = walk(client, tid, "set:dealer_second:copas", start=page)
    assert page.heading == "Ana's trump"
    assert page.offered("set:") == ["set:opponent_trump:ouros", "set:opponent_trump:paus"]
    page = walk(client, tid, "set:opponent_trump:paus", start=page)
    assert page.offered("set:") == ["set:winner:0", "set:winner:1"]
    preview = walk(client, tid, "set:winner:0", start=page)
    assert "Ana +3" in preview.text and "Bia −3" in preview.text  # with the stake option
    assert confirm(client, tid, preview) == 302
    [hand] = hands(app, tid)
    assert hand["record"] == {
        "dealer": "Bia",
        "dealer_trump": "espadas",
        "dealer_second": "copas",
        "opponent_trump": "paus",
        "opponent_second": "ouros",
        "winner": "Ana",
    }
    board = table_page(client, tid)
    assert "Ana won · trumps ♠ Bia, ♣ Ana" in board.text
    assert "Ana deals; Bia leads first." in board.text  # the deal alternates; the opponent leads


def test_a_forged_koziri_trump_is_refused_with_the_engine_s_sentence_and_nothing_stored(
    app: Flask, client: FlaskClient
) -> None:
    tid = new_table(client, "koziri", ["Ana", "Bia"])
    start = get(client, tid)
    forged = dict(
        start.draft, v={"dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "copas", "winner": "Ana"}
    )
    d = json.dumps(forged)
    sentence = refusal(
        koziri.parse_hand,
        {"dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "copas", "winner": "Ana"},
        players=("Ana", "Bia"),
        options=koziri.KoziriOptions(),
        dealer="Bia",
    )
    page = get(client, tid, d)  # the page asks that step again, with the rule it breaks
    assert page.errors == [sentence]
    assert page.heading == "Ana's trump" and page.offered("set:") == [
        "set:opponent_trump:ouros",
        "set:opponent_trump:paus",
    ]
    response = client.post(f"/t/{tid}/hand", data={"d": d})
    assert response.status_code == 422
    assert sentence in unescape(response.get_data(as_text=True))
    assert hands(app, tid) == []


# --------------------------------------------------------------------------- Lift Smoke


def test_lift_smoke_winner_then_the_order_tapped_with_undo_and_the_winner_deals_next(
    app: Flask, client: FlaskClient
) -> None:
    players = ["Ana", "Bia", "Caio", "Dani", "Edu"]
    tid = new_table(client, "lift_smoke", players, ante="2")
    page = get(client, tid)
    assert page.heading == "Who was the last player holding cards?"
    assert "the pot of 10 chips" in page.text  # 5 players ante 2 (the table's option, prefilled)
    assert "Edu deals; Ana leads the first trick." in page.text
    page = walk(client, tid, "set:winner:1", start=page)
    assert page.heading == "Who went out first?"
    assert page.offered("out:") == ["out:out_order:0", "out:out_order:2", "out:out_order:3", "out:out_order:4"]
    assert page.offered("with:") == []  # nobody to share a trick with yet
    page = walk(client, tid, "out:out_order:2", "out:out_order:4", start=page)
    assert page.heading == "Who went out next?"
    page = walk(client, tid, "undo:out_order", start=page)  # Edu was tapped by mistake
    assert page.draft["v"]["out_order"] == ["Caio"]
    assert page.offered("with:") == ["with:out_order:0", "with:out_order:3", "with:out_order:4"]
    preview = walk(client, tid, "with:out_order:0", "out:out_order:3", "out:out_order:4", start=page)
    assert preview.heading == "Check and confirm"
    # the winner takes n - 1 antes, everyone else pays the ante.
    assert "Bia +8" in preview.text and "Ana −2" in preview.text
    assert "Bia deals the next hand." in preview.text
    assert confirm(client, tid, preview) == 302
    [hand] = hands(app, tid)
    assert hand["record"] == {
        "dealer": "Edu",
        "ante": 2,
        "winner": "Bia",
        "out_order": [["Caio", "Ana"], "Dani", "Edu"],
        "carried_in": 0,
    }
    assert hand["result"]["deltas"] == {"Ana": -2, "Bia": 8, "Caio": -2, "Dani": -2, "Edu": -2}
    assert next_dealer(app, tid) == "Bia"
    board = table_page(client, tid)
    assert "Bia deals; Caio leads the first trick." in board.text  # the table page shows the winner dealing
    assert "Bia took the pot · ante 2" in board.text


def test_lift_smoke_order_may_be_skipped_the_ante_changed_and_the_last_trick_shared(
    app: Flask, client: FlaskClient
) -> None:
    tid = new_table(client, "lift_smoke", FOUR)
    preview = walk(client, tid, "set:winner:1", "skip:out_order")
    assert preview.heading == "Check and confirm" and "not noted" in preview.text
    page = walk(client, tid, "edit:ante", start=preview)
    assert page.heading == "Chips each player put in"
    preview = get(client, tid, page.d, "set:ante", n="3")
    assert "Bia +9" in preview.text  # 4 players ante 3
    # The order after all, with Bia running out on the last trick with Dani.
    preview = walk(
        client,
        tid,
        "edit:out_order",
        "out:out_order:2",
        "out:out_order:0",
        "out:out_order:3",
        "tie:out_order",
        start=preview,
    )
    assert "Bia also ran out on that last trick and won it" in preview.text
    expected = str(
        lift_smoke.settle(
            lift_smoke.parse_hand(
                {"winner": "Bia", "out_order": ["Caio", "Ana", ["Dani", "Bia"]], "ante": 3},
                players=FOUR,
                options=lift_smoke.LiftSmokeOptions(),
                dealer="Dani",
            ),
            lift_smoke.LiftSmokeOptions(),
        )
        .lines[-3]  # the sentence above the winner's own sum
        .text
    )
    assert expected in preview.text  # the LS-2 sentence: the winner of that trick takes the pot
    assert confirm(client, tid, preview) == 302
    assert hands(app, tid)[0]["record"]["out_order"] == ["Caio", "Ana", ["Dani", "Bia"]]
    assert hands(app, tid)[0]["record"]["ante"] == 3


def test_a_lift_smoke_winner_out_before_the_last_trick_is_refused_and_nothing_stored(
    app: Flask, client: FlaskClient
) -> None:
    tid = new_table(client, "lift_smoke", FOUR)
    start = get(client, tid)
    order = ["Bia", "Caio", "Ana", "Dani"]
    d = json.dumps(dict(start.draft, v={"winner": "Bia", "out_order": order, "ante": 1}))
    sentence = refusal(parse_out_order, order, players=FOUR, survivor="Bia", survivor_may_end=True)
    page = get(client, tid, d)
    assert sentence in page.errors
    response = client.post(f"/t/{tid}/hand", data={"d": d})
    assert response.status_code == 422
    assert sentence in unescape(response.get_data(as_text=True))
    assert hands(app, tid) == []
    assert next_dealer(app, tid) == "Dani"


# --------------------------------------------------------------------------- the patiences


def test_relogio_which_game_won_and_the_king_exchange(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, "relogio", ["Ana"], king_exchange="y")
    board = table_page(client, tid)
    assert "Ana plays the patience." in board.text and "speaks first" not in board.text
    assert "Start the last round" not in board.text  # one player: no last round, no agreed time
    page = get(client, tid)
    assert page.heading == "Which patience?"
    assert page.offered("set:") == ["set:game:relogio", "set:game:relogio_real"]
    page = walk(client, tid, "set:game:relogio", start=page)
    assert page.heading == "Did it come out?" and page.offered("set:") == ["set:won:yes", "set:won:no"]
    page = walk(client, tid, "set:won:no", start=page)
    assert page.heading == "Was the King exchange used?"
    preview = walk(client, tid, "set:king_exchanges:yes", start=page)
    assert "Ana lost Relógio." in preview.text and "The king exchange was used." in preview.text
    assert "deals the next hand" not in preview.text  # one player
    assert confirm(client, tid, preview) == 302
    [hand] = hands(app, tid)
    assert hand["record"] == {"dealer": "Ana", "game": "relogio", "won": False, "king_exchanges": 1}
    assert "Relógio · lost · King exchange used" in table_page(client, tid).text


def test_relogio_real_is_judged_by_its_sequences(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, "relogio", ["Ana"], sequences_to_win="3")
    page = walk(client, tid, "set:game:relogio_real")
    assert page.heading == "How many sequences from Ace to King were removed?"
    assert page.offered("set:") == [f"set:sequences:{n}" for n in range(relogio.MAX_SEQUENCES + 1)]
    assert "3 or more win." in page.text
    preview = walk(client, tid, "set:sequences:2", start=page)
    assert "Ana lost Relógio Real." in preview.text  # three are needed
    preview = walk(client, tid, "edit:sequences", "set:sequences:3", start=preview)
    assert "Ana won Relógio Real." in preview.text
    assert confirm(client, tid, preview) == 302
    assert hands(app, tid)[0]["record"] == {"dealer": "Ana", "game": "relogio_real", "won": True, "sequences": 3}
    assert "Relógio Real · won · 3 sequences" in table_page(client, tid).text


def test_relogio_without_the_king_exchange_does_not_ask_it(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, "relogio", ["Ana"])  # the box left unticked: exchange off
    preview = walk(client, tid, "set:game:relogio", "set:won:yes")
    assert preview.heading == "Check and confirm"
    assert confirm(client, tid, preview) == 302
    assert hands(app, tid)[0]["record"] == {"dealer": "Ana", "game": "relogio", "won": True, "king_exchanges": 0}


def test_cachorro_won_asks_the_round_and_lost_asks_nothing_more(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, "cachorro", ["Ana"])
    page = walk(client, tid, "set:won:yes")
    assert page.heading == "In which round did it come out?"
    assert page.offered("set:") == ["set:round:1", "set:round:2", "set:round:3"]  # no fourth deal
    preview = walk(client, tid, "set:round:2", start=page)
    assert "It came out in round 2 of 3." in preview.text
    assert confirm(client, tid, preview) == 302
    lost = walk(client, tid, "set:won:no")
    assert lost.heading == "Check and confirm"
    assert confirm(client, tid, lost) == 302
    records = [h["record"] for h in hands(app, tid)]
    assert records == [
        {"dealer": "Ana", "game": "cachorro", "won": True, "round": 2},
        {"dealer": "Ana", "game": "cachorro", "won": False},
    ]
    assert "Paciência do Cachorro · won · round 2" in table_page(client, tid).text


def test_a_forged_fourth_round_is_refused_with_the_engine_s_sentence(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, "cachorro", ["Ana"])
    start = get(client, tid)
    # The page never offers round 4 and drops it from a link; a forged post meets the engine.
    d = json.dumps(dict(start.draft, v={"won": True, "round": 4}))
    assert get(client, tid, d).heading == "In which round did it come out?"
    response = client.post(f"/t/{tid}/hand", data={"d": d})
    assert response.status_code == 422
    sentence = refusal(
        cachorro.parse_hand, {"won": True}, players=("Ana",), options=cachorro.CachorroOptions(), dealer="Ana"
    )
    assert sentence in unescape(response.get_data(as_text=True))
    assert hands(app, tid) == []


# --------------------------------------------------------------------------- corrections, forged drafts


def test_a_correction_starts_from_the_hand_and_replaces_it(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, "lift_smoke", FOUR, ante="2")
    assert (
        confirm(client, tid, walk(client, tid, "set:winner:1", "out:out_order:2", "out:out_order:0", "out:out_order:3"))
        == 302
    )
    page = get(client, tid, replaces="1")
    assert page.heading == "Check and confirm"
    assert page.draft["replaces"] == 1 and page.draft["v"] == {
        "winner": "Bia",
        "out_order": ["Caio", "Ana", "Dani"],
        "ante": 2,
    }
    # Caio won, not Bia: the order is asked again (it named Caio as out).
    page = walk(client, tid, "edit:winner", start=page)
    assert page.heading == "Who was the last player holding cards?"
    page = walk(client, tid, "set:winner:2", start=page)
    assert page.heading == "Who went out first?"
    preview = walk(client, tid, "out:out_order:1", "out:out_order:0", "out:out_order:3", start=page)
    assert confirm(client, tid, preview, reason="wrong winner") == 302
    stored = hands(app, tid)
    assert [(h["number"], h["void"]) for h in stored] == [(1, True), (2, False)]
    assert stored[1]["record"]["winner"] == "Caio" and stored[1]["record"]["ante"] == 2
    assert stored[1]["dealer"] == "Dani"  # the corrected hand keeps its dealer
    assert stored[1]["result"]["replaces"] == 1
    assert next_dealer(app, tid) == "Caio"


@pytest.mark.parametrize(
    "answers",
    [
        {"winner": 5, "ante": -1, "out_order": [["Zé"]]},
        {"winner": "Zé", "ante": True, "out_order": "Caio"},
        {"winner": ["Bia"], "ante": 10**12, "out_order": [["Caio", "Caio"]], "carried_in": 7},
        {"winner": "Bia", "out_order": [[]], "edit": "nothing", "game": "cachorro"},
    ],
)
def test_forged_draft_values_are_dropped_and_asked_again(
    app: Flask, client: FlaskClient, answers: dict[str, Any]
) -> None:
    tid = new_table(client, "lift_smoke", FOUR)
    start = get(client, tid)
    d = json.dumps(dict(start.draft, v=answers, edit="ante_x", skipped=["winner", 3]))
    page = get(client, tid, d)
    assert page.status == 200
    kept = page.draft["v"]
    assert set(kept) <= {"winner", "out_order", "ante"}  # unknown fields never reach the record
    assert kept["ante"] == 1  # a bad ante falls back to the table's option
    assert "out_order" not in kept or kept["out_order"] == []
    if "winner" not in kept:
        assert page.heading == "Who was the last player holding cards?"
    response = client.post(f"/t/{tid}/hand", data={"d": d})
    assert response.status_code in (302, 422)
    if response.status_code == 302:  # only "Bia" survived: the order was left out
        [hand] = hands(app, tid)
        assert hand["record"]["carried_in"] == 0 and hand["record"]["winner"] == "Bia"
    else:
        assert hands(app, tid) == []


def test_forged_actions_change_nothing(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, "koziri", ["Ana", "Bia"])
    page = get(client, tid)
    for action in [
        "set:dealer_trump:joker",
        "set:winner:7",
        "set:nothing:1",
        "out:dealer_trump:0",
        "skip:winner",
        "set:dealer_trump",
        "tie:winner",
        "edit:x",
    ]:
        after = get(client, tid, page.d, action)
        assert after.status == 200
        assert after.draft.get("v", {}) == {} and after.heading == "Bia's trump", action
    # Koziri's suits are offered only as the engine allows: a second suit equal to the trump.
    page = walk(client, tid, "set:dealer_trump:copas", "set:dealer_second:copas")
    assert page.heading == "Bia's second suit" and "set:dealer_second:copas" not in page.offered("set:")


def test_a_double_tap_on_confirm_stores_one_hand(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, "el_gato", ["Ana", "Bia"])
    preview = walk(client, tid, "set:loser:0")
    assert confirm(client, tid, preview) == 302
    assert confirm(client, tid, preview) == 302
    assert len(hands(app, tid)) == 1


def test_a_hand_recorded_meanwhile_by_another_phone_is_a_conflict_not_a_loss(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client, "el_gato", FOUR)
    preview = walk(client, tid, "set:loser:2")  # started while hand 1 was next, Dani dealing
    with app.app_context():
        ledger.record_hand(ledger.get_table(tid), {"loser": "Ana"})  # another phone, first
    response = client.post(f"/t/{tid}/hand", data={"d": preview.d})
    assert response.status_code == 409
    assert 'name="renumber"' in response.get_data(as_text=True)  # the entered hand is offered
    assert client.post(f"/t/{tid}/hand", data={"d": preview.d, "renumber": "1"}).status_code == 302
    assert [(h["number"], h["record"]["loser"], h["dealer"]) for h in hands(app, tid)] == [
        (1, "Ana", "Dani"),
        (2, "Caio", "Dani"),
    ]


def test_a_forged_quatrilho_draft_without_a_caller_is_refused_not_a_crash(app: Flask, client: FlaskClient) -> None:
    """Found by the form fuzz: a chamada draft with no caller, counts for strangers and a key
    with control characters got a 500 while the page named the caller's side."""
    tid = new_table(client, "quatrilho", ["Ana", "Bia", "Caio", "Dani"])
    draft = {
        "key": "1\r\x01x",
        "dealer": "Bia",
        "declarer": "",
        "mode": "chamada",
        "tricks": {"Edu": 16, "Ana": 20},
        "side_figures": 20,
    }
    response = client.post(f"/t/{tid}/hand", data={"d": json.dumps(draft)})
    assert 400 <= response.status_code < 500, response.status_code
    assert hands(app, tid) == []
