"""The Kentucky Derby race page through the test client, without a browser (and so without
JavaScript): the bets, the race entered card by card with the horses drawn where they stand,
"undo last card", the result with its payout preview, confirm, the pot carried to the next race,
second place with seven players, corrections, the race fragment, and odd links.

CSRF is off in these tests (tests/conftest.py). Positions and payouts are worked out here from
the rule text and its chosen readings (positions in half spaces: a King on its own suit is
2½ spaces, 5 half spaces), never read from the app; refusals are compared with the engine's
own sentence.
"""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import gettext, ngettext

from referee import ledger
from referee.i18n import render_text
from referee.rules import kentucky_derby as derby
from referee.rules.errors import RulesError

PLAYERS = ["Ana", "Bia", "Caio", "Dani"]
SEVEN = ["Ana", "Bia", "Caio", "Dani", "Edu", "Fabi", "Gil"]
#: Seven players' bets (horse, chips): Ana puts 2 on ♥, the others 1 each.
SEVEN_BETS = {
    "Ana": ("copas", 2),
    "Bia": ("espadas", 1),
    "Caio": ("copas", 1),
    "Dani": ("ouros", 1),
    "Edu": ("paus", 1),
    "Fabi": ("copas", 1),
    "Gil": ("espadas", 1),
}
HORSES = ("copas", "ouros", "espadas", "paus")

#: A race with a tie-break, card by card (rank + the suit's first letter: c copas, o ouros,
#: e espadas, p paus), with the four positions after each card, in half spaces (♥ ♦ ♠ ♣).
#: Cards go to the aces in turn ♥ ♦ ♠ ♣. K +2, Q +1½, J +1, 7-10 of the ace's colour +1, 3-6
#: of its colour +½, other colour 0; +½ more for the ace's own suit; a 2 on the
#: start line does not move; a 2 of the other colour −1.
TIE_RACE: list[tuple[str, tuple[int, int, int, int]]] = [
    ("Kc", (5, 0, 0, 0)),  # K♥ on ♥: 2½
    ("2o", (5, 0, 0, 0)),  # 2♦ on ♦, still on the start line: no move
    ("Ke", (5, 0, 5, 0)),  # K♠ on ♠: 2½
    ("3c", (5, 0, 5, 0)),  # 3♥ on ♣: other colour, 0
    ("Qc", (9, 0, 5, 0)),  # Q♥ on ♥: 2
    ("4e", (9, 0, 5, 0)),  # 4♠ on ♦: 0
    ("Qe", (9, 0, 9, 0)),
    ("4c", (9, 0, 9, 0)),
    ("Jc", (12, 0, 9, 0)),  # J♥ on ♥: 1½
    ("5e", (12, 0, 9, 0)),
    ("Je", (12, 0, 12, 0)),
    ("5c", (12, 0, 12, 0)),
    ("10c", (15, 0, 12, 0)),  # 10♥ on ♥: 1½, past the line (7 spaces, 14)
    ("6e", (15, 0, 12, 0)),
    ("10e", (15, 0, 15, 0)),  # ♠ crosses in the same round
    ("6c", (15, 0, 15, 0)),  # end of the round: ♥ and ♠ run a tie-break
    ("9c", (18, 0, 15, 0)),  # tie-break: ♥ then ♠ only
    ("9e", (18, 0, 18, 0)),  # still level
    ("8c", (21, 0, 18, 0)),
    ("2c", (21, 0, 16, 0)),  # 2♥ on ♠: other colour, −1 space. ♥ is ahead: ♥ wins
]
#: Ana ♥ 2 chips, Bia ♠ 1, Caio ♥ 1, Dani ♦ 1; pingo 1. Pot 4 + 5 = 9; ♥'s backers Ana and
#: Caio share it equally: 4 each, the odd chip stays on the table.
BETS = {"Ana": ("copas", 2), "Bia": ("espadas", 1), "Caio": ("copas", 1), "Dani": ("ouros", 1)}
TIE_DELTAS = {"Ana": 4 - 3, "Bia": -2, "Caio": 4 - 2, "Dani": -2}


# --------------------------------------------------------------------------- helpers


def new_table(client: FlaskClient, players: list[str] = PLAYERS, **fields: str) -> str:
    data = {f"player_{i}": name for i, name in enumerate(players)}
    response = client.post("/tables/new?game=kentucky_derby", data={**data, "dealer": str(len(players) - 1), **fields})
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/t/", 1)[1]


def draft_in(html: str) -> str:
    raw = re.search(r'name="d" value="([^"]*)"', html)
    assert raw is not None, html[:800]
    return unescape(raw.group(1))


def errors_in(html: str) -> list[str]:
    return [unescape(" ".join(e.split())) for e in re.findall(r'<p class="field-error"[^>]*>(.*?)</p>', html, re.S)]


def positions(html: str) -> tuple[int, ...]:
    """The horses' drawn positions (half spaces), ♥ ♦ ♠ ♣, from the track's horse groups."""
    found = dict(re.findall(r'data-horse="(\w+)" data-pos="(\d+)"', html))
    assert set(found) == set(HORSES), found
    return tuple(int(found[h]) for h in HORSES)


def drawn_x(html: str) -> dict[str, float]:
    """Where each horse is drawn (the x of its translate)."""
    return {
        h: float(x) for h, x in re.findall(r'data-horse="(\w+)" data-pos="\d+" transform="translate\(([\d.]+) ', html)
    }


def page(client: FlaskClient, tid: str, **args: str) -> str:
    response = client.get(f"/t/{tid}/hand", query_string=args)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return response.get_data(as_text=True)


def bets_form(players: list[str], bets: dict[str, tuple[str, int]], pingo: int | None = 1) -> dict[str, str]:
    form = {"action": "bets"}
    if pingo is not None:
        form["pingo"] = str(pingo)
    for i, name in enumerate(players):
        if name in bets:
            form[f"h{i}"], form[f"a{i}"] = bets[name][0], str(bets[name][1])
    return form


def start_race(
    client: FlaskClient,
    tid: str,
    players: list[str] = PLAYERS,
    bets: dict[str, tuple[str, int]] = BETS,
    pingo: int | None = 1,
) -> str:
    html = page(client, tid)
    return page(client, tid, d=draft_in(html), **bets_form(players, bets, pingo))


def tap(client: FlaskClient, tid: str, html: str, code: str) -> str:
    return page(client, tid, d=draft_in(html), action=f"card:{code}")


def run(client: FlaskClient, tid: str, html: str, codes: list[str]) -> str:
    for code in codes:
        html = tap(client, tid, html, code)
    return html


def stored(app: Flask, tid: str) -> list[dict[str, Any]]:
    with app.app_context():
        return [
            {"record": dict(h.record), "result": dict(h.result), "void": h.is_void}
            for h in ledger.all_hands(ledger.get_table(tid))
        ]


def on_the_table(app: Flask, tid: str) -> int:
    with app.app_context():
        return ledger.on_the_table(ledger.get_table(tid))


def engine_says(app: Flask, call: Any) -> str:
    with app.test_request_context("/"):
        with pytest.raises(RulesError) as refused:
            call()
        return render_text(refused.value.text)


def said(app: Flask, msgid: str, **values: Any) -> str:
    with app.test_request_context("/"):
        return gettext(msgid, **values)


def said_plural(app: Flask, singular: str, plural: str, num: int) -> str:
    with app.test_request_context("/"):
        return ngettext(singular, plural, num)


def cards_of(codes: list[str]) -> list[dict[str, str]]:
    suits = {"c": "copas", "o": "ouros", "e": "espadas", "p": "paus"}
    return [{"rank": c[:-1], "suit": suits[c[-1]]} for c in codes]


# --------------------------------------------------------------------------- the bets


def test_the_bets_come_in_order_of_play_with_the_table_s_pingo_and_bet(client: FlaskClient) -> None:
    tid = new_table(client, opt_pingo="3", opt_bet="2")
    html = page(client, tid)
    assert "Dani" in re.search(r'<p class="muted">(.*?)</p>', html, re.S).group(1)  # Dani deals
    legends = re.findall(r'<legend class="derby-bet-name">(\w+)', html)
    assert legends == ["Ana", "Bia", "Caio", "Dani"]  # from the dealer's left, round to him
    assert re.search(r'id="f-pingo" name="pingo" value="3"', html)
    assert all(re.search(rf'id="f-a{i}" name="a{i}" value="2"', html) for i in range(4))
    for i in range(4):
        assert [h for h in HORSES if f'name="h{i}" value="{h}"' in html] == list(HORSES)  # four horses each


def test_dealer_to_the_left_orders_the_bets(client: FlaskClient) -> None:
    tid = new_table(client, dealer="1")  # Bia deals: Caio, Dani, Ana, then Bia
    assert re.findall(r'<legend class="derby-bet-name">(\w+)', page(client, tid)) == ["Caio", "Dani", "Ana", "Bia"]


def test_a_missing_bet_is_refused_with_the_engine_s_sentence_and_the_answers_stay(
    app: Flask, client: FlaskClient
) -> None:
    tid = new_table(client)
    partial = {k: v for k, v in BETS.items() if k != "Caio"}
    html = start_race(client, tid, bets=partial)
    sentence = engine_says(
        app,
        lambda: derby.parse_hand(
            {"bets": {n: {"horse": h, "amount": a} for n, (h, a) in partial.items()}, "cards": []},
            players=PLAYERS,
            options=derby.DerbyOptions(),
            dealer="Dani",
        ),
    )
    assert errors_in(html) == [sentence]
    assert 'class="card derby-bet is-invalid" aria-describedby="bets-error"' in html  # Caio's card
    assert 'name="h0" value="copas" checked' in html and 'id="f-a0" name="a0" value="2"' in html
    assert 'id="race"' not in html
    assert stored(app, tid) == []


def test_a_bet_of_no_chips_is_refused(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    html = start_race(client, tid, bets={**BETS, "Bia": ("espadas", 0)})
    sentence = engine_says(
        app,
        lambda: derby.parse_hand(
            {"bets": {n: {"horse": h, "amount": 0 if n == "Bia" else a} for n, (h, a) in BETS.items()}},
            players=PLAYERS,
            options=derby.DerbyOptions(),
            dealer="Dani",
        ),
    )
    assert errors_in(html) == [sentence]
    assert "derby-keypad" not in html


def test_a_pingo_past_the_bounds_is_refused_with_the_engine_s_sentence(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    html = start_race(client, tid, pingo=2_000_000)
    sentence = engine_says(
        app,
        lambda: derby.parse_hand(
            {"pingo": 2_000_000, "bets": {n: {"horse": h, "amount": a} for n, (h, a) in BETS.items()}},
            players=PLAYERS,
            options=derby.DerbyOptions(),
            dealer="Dani",
        ),
    )
    assert errors_in(html) == [sentence]
    assert "derby-keypad" not in html and stored(app, tid) == []


# --------------------------------------------------------------------------- the race


def test_a_race_card_by_card_moves_the_horses_and_is_stored_on_confirm(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    html = start_race(client, tid)
    assert positions(html) == (0, 0, 0, 0)
    assert 'class="lane is-next"' in html  # ♥'s lane waits for the first card
    before, prev = drawn_x(html), (0, 0, 0, 0)
    for number, (code, expected) in enumerate(TIE_RACE, start=1):
        html = tap(client, tid, html, code)
        assert errors_in(html) == [], (code, errors_in(html))
        assert positions(html) == expected, (number, code)
        x = drawn_x(html)
        # Drawn in order: further along the track is further right, level horses side by side,
        # and the horse the card moved is drawn forward, or back for a Two.
        for a, b in zip(HORSES, HORSES[1:] + HORSES[:1]):
            pa, pb = expected[HORSES.index(a)], expected[HORSES.index(b)]
            assert (x[a] > x[b], x[a] == x[b]) == (pa > pb, pa == pb), (number, a, b)
        moved = [h for i, h in enumerate(HORSES) if expected[i] != prev[i]]
        for horse in moved:
            i = HORSES.index(horse)
            assert (x[horse] > before[horse]) == (expected[i] > prev[i]), (number, horse)
        prev, before = expected, x
        assert html.count('<li><span class="nowrap card-short') == number  # the cards turned, listed
        if number == 16:  # both crossed in the round: a tie-break, ♥ and ♠ only
            assert "derby-stage" in html and 'class="horse suit-red is-out" data-horse="ouros"' in html
        assert stored(app, tid) == []  # nothing is stored before confirm
    assert "derby-keypad" not in html  # the race is over: no more cards
    assert re.search(
        r'class="derby-winner">[^<]*<span class="nowrap"><span class="suit-inline red" aria-hidden="true">♥', html
    )
    deltas = dict(re.findall(r'<span class="who">(\w+)</span> <span class="balance[^"]*">([^<]+)</span>', html))
    assert deltas == {n: (f"+{d}" if d > 0 else f"\u2212{-d}") for n, d in TIE_DELTAS.items()}
    assert "derby-carry" in html  # the odd chip stays on the table

    assert client.post(f"/t/{tid}/hand", data={"d": draft_in(html)}).status_code == 302
    [hand] = stored(app, tid)
    assert hand["record"]["cards"] == cards_of([c for c, _ in TIE_RACE])
    assert hand["record"]["bets"] == {n: {"horse": h, "amount": a} for n, (h, a) in BETS.items()}
    assert (hand["record"]["pingo"], hand["record"]["winner"], hand["record"]["carried_in"]) == (1, "copas", 0)
    assert hand["result"]["deltas"] == TIE_DELTAS
    assert on_the_table(app, tid) == 1
    history = client.get(f"/t/{tid}").get_data(as_text=True)
    line = unescape(
        " ".join(re.search(r'<span class="hand-contract">(.*?)</span>\s*\n', history, re.S).group(1).split())
    )
    assert said(app, "backers %(names)s", names="Ana, Caio") in line
    assert "♥" in line


def test_undo_takes_back_the_last_card_only(client: FlaskClient) -> None:
    tid = new_table(client)
    html = run(client, tid, start_race(client, tid), ["Kc", "2o"])
    wrong = tap(client, tid, html, "7e")  # 7♠ on ♠: +1½
    assert positions(wrong) == (5, 0, 3, 0)
    undo = re.search(r'<a class="btn btn-secondary" href="([^"]+)"', wrong).group(1)
    again = client.get(unescape(undo)).get_data(as_text=True)
    assert positions(again) == (5, 0, 0, 0)
    assert json.loads(draft_in(again))["cards"] == ["Kc", "2o"]
    assert "derby-keypad" in again and re.search(r'value="card:7e" class="key suit-black"\s', again)  # 7♠ free again


def test_a_card_turned_twice_is_refused_with_the_engine_s_sentence(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    html = run(client, tid, start_race(client, tid), ["Kc", "2o", "Ke"])
    refused = tap(client, tid, html, "Kc")
    sentence = engine_says(app, lambda: derby.replay(cards_of(["Kc", "2o", "Ke", "Kc"]), derby.DerbyOptions()))
    assert errors_in(refused) == [sentence]
    assert positions(refused) == (5, 0, 5, 0)
    assert json.loads(draft_in(refused))["cards"] == ["Kc", "2o", "Ke"]
    assert re.search(r'value="card:Kc" class="key suit-red is-used"\s', refused)


@pytest.mark.parametrize(
    ("codes", "extra"),
    [
        ([], "Ac"),  # an ace is a horse, never turned
        ([c for c, _ in TIE_RACE], "7o"),  # after the race is decided
    ],
)
def test_forged_cards_are_refused_with_the_engine_s_sentence(
    app: Flask, client: FlaskClient, codes: list[str], extra: str
) -> None:
    tid = new_table(client)
    html = run(client, tid, start_race(client, tid), codes)
    refused = tap(client, tid, html, extra)
    sentence = engine_says(app, lambda: derby.replay(cards_of([*codes, extra]), derby.DerbyOptions()))
    assert errors_in(refused) == [sentence]
    assert json.loads(draft_in(refused)).get("cards", []) == codes


def test_a_forged_draft_keeps_the_race_up_to_its_first_wrong_card(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    draft = json.loads(draft_in(start_race(client, tid)))
    draft["cards"] = ["Kc", "2o", "Kc", "3c", "junk", 7]
    html = page(client, tid, d=json.dumps(draft))
    sentence = engine_says(app, lambda: derby.replay(cards_of(["Kc", "2o", "Kc"]), derby.DerbyOptions()))
    assert errors_in(html) == [sentence]
    assert json.loads(draft_in(html))["cards"] == ["Kc", "2o"]
    assert positions(html) == (5, 0, 0, 0)


def test_confirming_an_unfinished_race_stores_nothing(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    html = run(client, tid, start_race(client, tid), ["Kc", "2o"])
    response = client.post(f"/t/{tid}/hand", data={"d": draft_in(html)})
    assert response.status_code == 422
    sentence = engine_says(
        app,
        lambda: derby.parse_hand(
            {"bets": {n: {"horse": h, "amount": a} for n, (h, a) in BETS.items()}, "cards": cards_of(["Kc", "2o"])},
            players=PLAYERS,
            options=derby.DerbyOptions(),
            dealer="Dani",
        ),
    )
    assert sentence in errors_in(response.get_data(as_text=True))
    assert stored(app, tid) == []


# --------------------------------------------------------------------------- the pot


#: ♥ runs away alone: K Q J 10 of hearts while the others get cards of the other colour.
HEARTS_ALONE = ["Kc", "3e", "3o", "3c", "Qc", "4e", "4o", "4c", "Jc", "5e", "5o", "5c", "10c", "6e", "6o", "6c"]


def test_an_unbacked_pot_waits_on_the_table_and_the_next_winner_takes_it(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    nobody = {"Ana": ("paus", 1), "Bia": ("espadas", 1), "Caio": ("ouros", 1), "Dani": ("paus", 1)}
    html = run(client, tid, start_race(client, tid, bets=nobody), HEARTS_ALONE)
    assert "derby-carry" in html  # all 8 chips stay
    assert client.post(f"/t/{tid}/hand", data={"d": draft_in(html)}).status_code == 302
    assert on_the_table(app, tid) == 8

    # Next race: the page says what is on the table; Bia alone backs ♥ and takes 8 + 8.
    html = page(client, tid)
    assert said_plural(
        app,
        "%(num)s chip is already on the table from earlier races.",
        "%(num)s chips are already on the table from earlier races.",
        8,
    ) in unescape(html)
    backed = {"Ana": ("paus", 1), "Bia": ("copas", 1), "Caio": ("ouros", 1), "Dani": ("paus", 1)}
    html = run(client, tid, page(client, tid, d=draft_in(html), **bets_form(PLAYERS, backed)), HEARTS_ALONE)
    deltas = dict(re.findall(r'<span class="who">(\w+)</span> <span class="balance[^"]*">([^<]+)</span>', html))
    assert deltas == {"Ana": "\u22122", "Bia": "+14", "Caio": "\u22122", "Dani": "\u22122"}
    assert client.post(f"/t/{tid}/hand", data={"d": draft_in(html)}).status_code == 302
    second = stored(app, tid)[1]
    assert second["record"]["carried_in"] == 8
    assert on_the_table(app, tid) == 0


def test_seven_players_play_for_second_place_and_its_backers_get_their_bets_back(
    app: Flask, client: FlaskClient
) -> None:
    tid = new_table(client, SEVEN)
    bets = SEVEN_BETS
    html = run(client, tid, start_race(client, tid, SEVEN, bets), [c for c, _ in TIE_RACE])
    # ♥ wins; ♠, furthest ahead of the others, is second. Pot 7 + 8 = 15; Bia and Gil
    # take back their bets (1 each); the 13 left go to Ana, Caio and Fabi: 4 each, 1 stays.
    assert "derby-keypad" not in html
    assert 'class="lane is-second"' in html
    deltas = dict(re.findall(r'<span class="who">(\w+)</span> <span class="balance[^"]*">([^<]+)</span>', html))
    assert deltas == {
        "Ana": "+1",
        "Bia": "\u22121",
        "Caio": "+2",
        "Dani": "\u22122",
        "Edu": "\u22122",
        "Fabi": "+2",
        "Gil": "\u22121",
    }
    assert client.post(f"/t/{tid}/hand", data={"d": draft_in(html)}).status_code == 302
    assert stored(app, tid)[0]["record"]["second"] == "espadas"


# --------------------------------------------------------------------------- the race fragment, corrections, odd links


def test_the_race_fragment_is_only_the_race_and_points_the_address_bar_at_the_page(client: FlaskClient) -> None:
    tid = new_table(client)
    html = start_race(client, tid)
    response = client.get(f"/t/{tid}/hand", query_string={"d": draft_in(html), "action": "card:Kc", "partial": "race"})
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<section id="race"')
    assert "<html" not in body and positions(body) == (5, 0, 0, 0)
    pushed = response.headers["X-Swap-Push-Url"]
    assert pushed.startswith(f"/t/{tid}/hand?d=") and "partial" not in pushed and "action" not in pushed
    assert positions(client.get(pushed).get_data(as_text=True)) == (5, 0, 0, 0)  # the link shows the same race
    # A fragment asked for before the bets: the whole page instead.
    early = client.get(f"/t/{tid}/hand", query_string={"partial": "race"})
    assert early.headers["X-Swap-Redirect"].startswith(f"/t/{tid}/hand?d=")


def test_a_correction_starts_from_the_race_it_corrects_and_keeps_its_pot(app: Flask, client: FlaskClient) -> None:
    tid = new_table(client)
    nobody = {"Ana": ("paus", 1), "Bia": ("espadas", 1), "Caio": ("ouros", 1), "Dani": ("paus", 1)}
    html = run(client, tid, start_race(client, tid, bets=nobody), HEARTS_ALONE)
    client.post(f"/t/{tid}/hand", data={"d": draft_in(html)})
    html = run(client, tid, start_race(client, tid), [c for c, _ in TIE_RACE])
    client.post(f"/t/{tid}/hand", data={"d": draft_in(html)})
    assert stored(app, tid)[1]["record"]["carried_in"] == 8

    # Race 2 is corrected: Bia had backed ♥ too. It started with 8 chips on the table, and so
    # does its correction: pot 8 + 9 = 17 for Ana, Bia and Caio: 5 each, 2 stay.
    html = page(client, tid, replaces="2")
    assert positions(html) == TIE_RACE[-1][1]  # the race as it was run
    draft = json.loads(draft_in(html))
    assert draft["bets"]["Bia"] == "e1" and draft["replaces"] == 2
    html = page(client, tid, d=draft_in(html), action="back:bets")
    assert 'name="h1" value="espadas" checked' in html  # Bia's bet as it was
    html = page(client, tid, d=draft_in(html), **bets_form(PLAYERS, {**BETS, "Bia": ("copas", 1)}))
    deltas = dict(re.findall(r'<span class="who">(\w+)</span> <span class="balance[^"]*">([^<]+)</span>', html))
    assert deltas == {"Ana": "+2", "Bia": "+3", "Caio": "+3", "Dani": "\u22122"}
    assert client.post(f"/t/{tid}/hand", data={"d": draft_in(html), "reason": "Bia backed copas"}).status_code == 302
    hands = stored(app, tid)
    assert [h["void"] for h in hands] == [False, True, False]
    assert hands[2]["record"]["carried_in"] == 8 and hands[2]["result"]["deltas"]["Bia"] == 3


@pytest.mark.parametrize(
    "query",
    [
        {"d": "{"},
        {"d": "[]"},
        {"d": '{"bets": {"Ana": "x9"}, "ready": true, "cards": "Kc"}'},
        {"d": '{"bets": {"Zé": "c1"}, "ready": true, "pingo": -4}'},
        {"d": '{"ready": true, "cards": ["Kc", null, {"rank": "K"}]}'},
        {"action": "card:"},
        {"action": "card:Zz"},
        {"action": "bets", "pingo": "abc", "h0": "hearts", "a0": "99999999999"},
        {"action": "undo"},
        {"action": "back:nowhere"},
        {"partial": "race", "action": "card:Kc"},
        {"replaces": "9"},
    ],
)
def test_odd_links_never_crash_the_race_page(client: FlaskClient, query: dict[str, str]) -> None:
    tid = new_table(client)
    assert client.get(f"/t/{tid}/hand", query_string=query).status_code in (200, 404)


@pytest.mark.parametrize("d", ["", "{", '{"ready": true}', '{"ready": true, "bets": {"Ana": "c"}, "cards": ["Kc"]}'])
def test_odd_drafts_on_confirm_never_crash_nor_store(app: Flask, client: FlaskClient, d: str) -> None:
    tid = new_table(client)
    assert client.post(f"/t/{tid}/hand", data={"d": d}).status_code in (409, 422)
    assert stored(app, tid) == []
