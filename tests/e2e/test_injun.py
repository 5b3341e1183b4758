"""An Injun table end to end, on a 390×844 touch screen.

Seats in order of play: Ana, Bia, Caio, Dani; Dani (player 4) deals the first hand, so Ana bets
first. Every expected figure is worked out by hand from the rule text and INJ-5: a player's
delta is what he takes from the pots minus what he put in (ante and bets); a closed pot is
contested by its closer and the players still betting at the end.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.injun_steps import PLAYERS, create_table, offered, open_hand, pots, record_of, rows, tap_undo
from tests.e2e.steps import (
    Audit,
    balances,
    confirm,
    draft_of,
    engine_says,
    expected_for,
    go,
    hand_url,
    press,
    preview_deltas,
    stored_hands,
)

pytestmark = pytest.mark.e2e

# The Brag hand: Ana bets, Bia bets, Caio is out of chips and closes the pot (4 antes + 2 = 6)
# with his card; Dani bets into the new pot, Ana drops, Bia (one of the last two) pays 2 to see.
# Pot 1 (6): Caio A, Bia K, Dani 7 → Caio. Pot 2 (Dani 1 + Bia 2 = 3): Bia K, Dani 7 → Bia.
# Put in: Ana 2, Bia 4, Caio 1, Dani 2. Deltas: Ana −2, Bia 3 − 4 = −1, Caio 6 − 1 = +5, Dani −2.
BRAG_DELTAS = {"Ana": -2, "Bia": -1, "Caio": 5, "Dani": -2}


def heading(page) -> str:  # type: ignore[no-untyped-def]
    return str(page.locator("#step-h").inner_text())


def test_a_brag_hand_with_a_closed_pot_entered_by_tapping(page, live_server, live_app, shot, console_errors) -> None:  # type: ignore[no-untyped-def]
    base = live_server
    tid = create_table(page, base, system="brag", tap=True, name="Injun da varanda")
    open_hand(page, tap=True)
    # Ana bets first; with four players betting she may bet one chip, close or drop: no seeing.
    assert "Ana" in heading(page)
    assert offered(page) == ["act:0:bet", "act:0:close", "act:0:drop"]
    assert rows(page) == [
        ("Ana", "1", "is-in is-turn"),
        ("Bia", "1", "is-in"),
        ("Caio", "1", "is-in"),
        ("Dani", "1", "is-in"),
    ]
    assert pots(page) == ["4"]
    press(page, "act:0:bet", tap=True)
    press(page, "act:1:bet", tap=True)
    press(page, "act:2:close", tap=True)
    # Caio's card closed pot 1 (6 chips); the next bets go to pot 2.
    assert pots(page) == ["6", "0"]
    assert [r[2] for r in rows(page)] == ["is-in", "is-in", "is-closed", "is-in is-turn"]
    shot(page, "injun-closed-pot")
    press(page, "act:3:bet", tap=True)
    press(page, "act:0:drop", tap=True)
    # Two players left, Bia and Dani: now paying to see is offered.
    assert "Bia" in heading(page)
    assert offered(page) == ["act:1:bet", "act:1:close", "act:1:drop", "act:1:see"]
    # Undo the drop (a plain link): Ana acts again, and seeing is gone with three betting.
    tap_undo(page)
    assert "Ana" in heading(page) and "act:0:see" not in offered(page)
    press(page, "act:0:drop", tap=True)
    press(page, "act:1:see", tap=True)
    # The cards of exactly Bia, Caio (the closer) and Dani, one player at a time.
    assert [v.split(":")[1] for v in offered(page) if v.startswith("card:")] == ["1"] * 13
    press(page, "card:1:K", tap=True)
    press(page, "card:2:A", tap=True)
    assert {v.split(":")[1] for v in offered(page) if v.startswith("card:")} == {"3"}
    press(page, "card:3:7", tap=True)
    # The preview: nothing is stored until confirm.
    assert preview_deltas(page) == expected_for(PLAYERS, **BRAG_DELTAS)
    assert stored_hands(live_app, tid) == 0
    shot(page, "injun-preview")
    confirm(page, tap=True)
    # Back on the table: the balances and the stored hand.
    assert balances(page) == expected_for(PLAYERS, **BRAG_DELTAS)
    hand = record_of(live_app, tid, 1)
    assert hand["record"] == {
        "dealer": "Dani",
        "system": "brag",
        "ante": 1,
        "actions": [
            ["Ana", "bet"],
            ["Bia", "bet"],
            ["Caio", "close"],
            ["Dani", "bet"],
            ["Ana", "drop"],
            ["Bia", "see"],
        ],
        "cards": {"Bia": "K", "Caio": "A", "Dani": "7"},
    }
    assert hand["deltas"] == BRAG_DELTAS
    # The history line says who took which pot (in English: the words are asserted).
    page.goto(f"{base}/lang/en")
    page.goto(f"{base}/t/{tid}")
    expect(page.locator("#hand-1 .hand-contract")).to_have_text(
        "Brag · pot closed by Caio: Caio wins 6 · last pot: Bia wins 3"
    )
    shot(page, "injun-table-after")
    assert console_errors == []


def test_a_poker_hand_with_the_stepper_and_a_forged_action(page, live_server, live_app) -> None:  # type: ignore[no-untyped-def]
    base = live_server
    tid = create_table(page, base, system="poker")
    open_hand(page)
    # A forged button (Poker has no closing of pots) is refused with the engine's sentence.
    response = page.goto(hand_url(base, tid, draft_of(page), "act:0:close"))
    assert response is not None and response.status == 422
    expect(page.locator(".field-error")).to_have_text(
        engine_says(live_app, tid, {"system": "poker", "actions": [["Ana", "close"]]}, dealer="Dani")
    )
    # Ana types 20 in the stepper (taps + once from 19); Bia's equal bet closes the betting.
    page.fill("#f-amount", "19")
    page.locator('.stepper-btn[data-step="1"]').tap()
    expect(page.locator("#f-amount")).to_have_value("20")
    go(page, page.locator('.injun-other button[value="act:0:bet"]'), tap=True)
    assert "act:1:bet:20" in offered(page)
    press(page, "act:1:bet:20", tap=True)
    # Nobody dropped: all four show (literal). Ana's ace takes 4 + 40 = 44.
    for seat, rank in enumerate(["A", "K", "Q", "J"]):
        press(page, f"card:{seat}:{rank}", tap=True)
    assert preview_deltas(page) == expected_for(PLAYERS, Ana=23, Bia=-21, Caio=-1, Dani=-1)
    confirm(page, tap=True)
    assert balances(page) == expected_for(PLAYERS, Ana=23, Bia=-21, Caio=-1, Dani=-1)
    assert record_of(live_app, tid, 1)["record"]["actions"] == [["Ana", {"bet": 20}], ["Bia", {"bet": 20}]]


def test_every_injun_step_passes_axe(page, live_server, axe_check, shot) -> None:  # type: ignore[no-untyped-def]
    base = live_server
    audit = Audit(page, axe_check, shot, prefix="injun-a11y")
    tid = create_table(page, base, system="brag")
    audit("table")
    open_hand(page)
    audit("brag-first")
    for value in ("act:0:bet", "act:1:bet", "act:2:close", "act:3:bet", "act:0:drop"):
        press(page, value)
    audit("brag-two-left")
    page.goto(hand_url(base, tid, draft_of(page), "act:3:see"))  # not Dani's turn
    expect(page.locator(".field-error")).to_be_visible()
    audit("refused")
    press(page, "act:1:see")
    audit("cards")
    for value in ("card:1:K", "card:2:A", "card:3:7"):
        press(page, value)
    audit("preview")
    confirm(page)
    audit("table-after")
    page.goto(f"{base}/t/{tid}/history")
    audit("history")
    page.goto(f"{base}/t/{tid}")
    open_hand(page)
    press(page, "back:setup")
    audit("setup")
    page.check('input[name="system"][value="poker"]')
    press(page, "setup")
    audit("poker-first")
    press(page, "act:1:bet:20")
    audit("poker-raise")
    audit.done()
