"""The short-record games in a browser, on a 390×844 touch screen: a Lift Smoke hand and a
Relógio game recorded by tapping (referee/views/short_flow.py), every page checked with axe and
for sideways scrolling.

Lift Smoke: Ana, Bia, Caio, Dani; Dani deals the first hand; ante 1 (the table's
default). Bia is the last player holding cards: she takes the 4 antes (+3, the others −1 each)
and deals the next hand.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.steps import (
    Audit,
    action,
    balances,
    confirm,
    create_table,
    dealer_shown,
    draft_json,
    expected_for,
    offered,
    press,
    preview_deltas,
    stored_hands,
)

pytestmark = pytest.mark.e2e

PLAYERS = ("Ana", "Bia", "Caio", "Dani")


def test_a_lift_smoke_hand_and_a_relogio_game_by_tapping(
    page, live_app, live_server, axe_check, shot, console_errors
) -> None:
    audit = Audit(page, axe_check, shot, prefix="short")
    base = live_server

    # Lift Smoke: the winner, then the order the others went out, one tap each.
    tid = create_table(page, base, "lift_smoke", PLAYERS, name="Lift Smoke da varanda", tap=True)
    assert dealer_shown(page) == "Dani"
    page.locator(f'a.btn[href$="/t/{tid}/hand"]').tap()
    page.wait_for_load_state()
    audit("lift-smoke-winner")
    assert offered(page, "set:winner:") == [f"set:winner:{i}" for i in range(4)]
    press(page, "set:winner:1", tap=True)
    audit("lift-smoke-order")
    assert offered(page, "out:") == ["out:out_order:0", "out:out_order:2", "out:out_order:3"]  # never the winner
    press(page, "out:out_order:2", tap=True)
    press(page, "out:out_order:3", tap=True)  # a slip: Dani went out last, not second
    press(page, "undo:out_order", tap=True)
    assert draft_json(page)["v"]["out_order"] == ["Caio"]
    press(page, "out:out_order:0", tap=True)
    expect(action(page, "with:out_order:3")).to_have_count(1)  # "same trick" is on offer
    press(page, "out:out_order:3", tap=True)
    audit("lift-smoke-preview")
    assert preview_deltas(page) == expected_for(PLAYERS, Ana=-1, Bia=3, Caio=-1, Dani=-1)
    confirm(page, tap=True)
    assert stored_hands(live_app, tid) == 1
    assert balances(page) == expected_for(PLAYERS, Ana=-1, Bia=3, Caio=-1, Dani=-1)
    assert dealer_shown(page) == "Bia"  # the winner deals the next hand
    expect(page.locator("#hand-1 .hand-contract")).to_contain_text("Bia")
    audit("lift-smoke-table")

    # Relógio: one player; which patience, the result, the King exchange.
    tid = create_table(page, base, "relogio", ("Ana",), name="Paciência da Ana", tap=True)
    audit("relogio-table")
    expect(page.locator(".last-round-form")).to_have_count(0)  # no last round for a patience
    page.locator(f'a.btn[href$="/t/{tid}/hand"]').tap()
    page.wait_for_load_state()
    audit("relogio-game")
    assert offered(page, "set:") == ["set:game:relogio", "set:game:relogio_real"]
    press(page, "set:game:relogio", tap=True)
    audit("relogio-won")
    press(page, "set:won:yes", tap=True)
    audit("relogio-exchange")
    press(page, "set:king_exchanges:no", tap=True)
    audit("relogio-preview")
    expect(page.locator(".result-lines li").first).to_contain_text("Ana")
    expect(page.locator(".preview-deltas")).to_have_count(0)  # nothing is paid: no list of zeros
    confirm(page, tap=True)
    assert stored_hands(live_app, tid) == 1
    expect(page.locator("#hand-1 .hand-contract")).to_contain_text("Relógio")
    audit("relogio-after")

    audit.done()
    assert console_errors == []
