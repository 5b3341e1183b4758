"""The Jubileu table end to end, on a 390×844 touch screen.

Seats in order of play: Ana, Bia, Caio, Dani; by default player 4 (Dani) deals first, so Ana
speaks first and the deal then passes to Ana, Bia, ... Every expected balance below is worked
out by hand from the rule text: a = v + overtricks on success, a = v + max(0, shortfall − 1)
on failure; a solo settles ±a with each of the three others; a partnership ±a per head.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.jubileu_steps import (
    PLAYERS,
    Taps,
    action,
    balances,
    confirm,
    create_table,
    dealer_shown,
    draft_of,
    enter_tricks,
    expected,
    hand_url,
    ladder_boxes,
    press,
    preview_deltas,
    record_hand,
    same_places,
    start_hand,
    step_kind,
    tap_hand,
)

pytestmark = pytest.mark.e2e

ZERO = expected()

# Solo Sete (v = 2) by Ana, espadas, 9 tricks: 2 overtricks, a = 2 + 2 = 4 from each → +12/−4/−4/−4.
SOLO_SETE_ANA = {
    "ultima": "copas",
    "calls": ["call:0:solo_sete", "call:1:passo", "call:2:passo", "call:3:passo"],
    "details": {"trump": "espadas"},
    "tricks": [9, 2, 1, 1],
}
AFTER_SOLO_SETE_ANA = expected(Ana=12, Bia=-4, Caio=-4, Dani=-4)


def engine_says(live_app, tid: str, record: dict, dealer: str = "Dani") -> str:  # type: ignore[no-untyped-def]
    """The sentence the engine gives for a record, in the app's default language."""
    from referee import ledger
    from referee.i18n import render_text
    from referee.rules.errors import RulesError

    with live_app.test_request_context("/"):
        table = ledger.get_table(tid)
        try:
            ledger.preview_hand(table, record, dealer=dealer)
        except RulesError as exc:
            return render_text(exc.text)
    raise AssertionError(f"the engine accepts {record}")


def stored_hands(live_app, tid: str) -> int:  # type: ignore[no-untyped-def]
    from referee import ledger

    with live_app.app_context():
        return len(ledger.all_hands(ledger.get_table(tid)))


# --------------------------------------------------------------------------- 1. create


def test_create_table_shows_dealer_and_first_speaker(page, live_server, shot, console_errors) -> None:
    tid = create_table(page, live_server, name="Sexta no clube")
    assert page.url == f"{live_server}/t/{tid}"
    expect(page.locator(".flash-success")).to_be_visible()
    assert list(balances(page)) == list(PLAYERS)
    assert balances(page) == ZERO
    # Default dealer: player 4 (Dani), marked on the scoreboard; Ana (player 1) speaks first.
    assert dealer_shown(page) == "Dani"
    lead = page.locator(".next-hand .lead").inner_text()
    assert "Dani" in lead and "Ana" in lead and "Bia" not in lead and "Caio" not in lead
    assert lead.index("Dani") < lead.index("Ana")  # "<dealer> deals; <speaker> speaks first."
    expect(page.locator(".suit-links a")).to_have_count(4)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "jub-01-created")
    # The flow agrees: after "nobody holds 3 aces", the auction opens with seat 0 (Ana).
    start_hand(page, "ouros")
    press(page, "aces:none")
    expect(page.locator('button[name="action"][value^="call:0:"]').first).to_be_visible()
    assert page.locator('section.step button[name="action"][value^="call:"]:not([value^="call:0:"])').count() == 0
    assert console_errors == [], console_errors


# --------------------------------------------------------------------------- 2. solo


def test_solo_sete_with_overtricks_by_touch(page, live_server, shot) -> None:
    create_table(page, live_server, tap=True)
    start_hand(page, "copas", tap=True)
    press(page, "aces:none", tap=True)
    # A slip, undone: Ana speaks again.
    press(page, "call:0:solo_oito", tap=True)
    expect(action(page, "call:1:passo")).to_have_count(1)
    press(page, "undo", tap=True)
    expect(action(page, "call:0:solo_sete")).to_have_count(1)
    expect(action(page, "undo")).to_have_count(0)
    for call in SOLO_SETE_ANA["calls"]:
        press(page, call, tap=True)
    # Solo Sete: the declarer chooses trump; no partner, no called ace.
    expect(page.locator('section.step button[value^="trump:"]')).to_have_count(4)
    press(page, "trump:espadas", tap=True)
    page.locator("#f-t0").fill("9")
    page.locator("#f-t1").fill("2")
    page.locator("#f-t2").fill("1")
    expect(page.locator("#f-t3")).to_have_value("1")
    shot(page, "jub-02-solo-tricks")
    press(page, "tricks", tap=True)
    assert preview_deltas(page) == AFTER_SOLO_SETE_ANA
    shot(page, "jub-02-solo-preview")
    confirm(page, tap=True)
    assert balances(page) == AFTER_SOLO_SETE_ANA
    assert dealer_shown(page) == "Ana"  # the deal passed to the right: Dani → Ana
    expect(page.locator(".hands #hand-1")).to_be_visible()
    expect(page.locator(".hands #hand-1.is-void")).to_have_count(0)
    shot(page, "jub-02-solo-saved")


def test_solo_sete_in_six_taps_without_typing(page, live_server, shot) -> None:
    """Solo Sete with a 4-call auction: the última, nobody with 3 aces, Ana's bid, "the others
    pass" with her trump, her 9 tricks on the pad, confirm. Paper takes a line; this, six taps."""
    create_table(page, live_server)
    taps = Taps(page)
    taps.watch_keys()
    taps.on(page.locator('.suit-links a[href*="ultima=copas"]'))
    taps.press("aces:none")
    taps.press("call:0:solo_sete")
    shot(page, "jub-02b-rest-pass")
    taps.press("rest:espadas")
    # The pad offers every count the declarer may have taken, and nothing else.
    offered = page.locator('section.step button[value^="side:"]').evaluate_all("bs => bs.map(b => b.value)")
    assert offered == [f"side:{n}" for n in range(14)]
    shot(page, "jub-02b-tricks-pad")
    taps.press("side:9")
    assert preview_deltas(page) == AFTER_SOLO_SETE_ANA
    confirm(page, tap=True)
    taps.count += 1
    assert balances(page) == AFTER_SOLO_SETE_ANA
    assert taps.count <= 6, taps.count
    assert taps.keys() == 0


def test_partnership_in_eight_taps_without_typing(page, live_server) -> None:
    """Jubileu with a called ace and a partner: the pair's tricks in one tap on the pad."""
    create_table(page, live_server)
    taps = Taps(page)
    taps.watch_keys()
    # Ana's Jubileu, trump copas, the ace of paus held by Caio; together 8 tricks: 1 overtrick,
    # a = 3 per head (as in test_jubileu_with_called_ace).
    want = expected(Ana=3, Bia=-3, Caio=3, Dani=-3)
    presses = ["aces:none", "call:0:jubileu", "rest:copas", "called:paus", "partner:2", "side:8"]
    tap_hand(taps, ultima="ouros", presses=presses)
    assert preview_deltas(page) == want
    confirm(page, tap=True)
    taps.count += 1
    assert balances(page) == want
    assert taps.count <= 8, taps.count
    assert taps.keys() == 0


def test_meia_miseria_declarers_each_on_the_pad(page, live_server) -> None:
    """Two Meia Miséria declarers: one pad each, the second offering only what is left."""
    create_table(page, live_server)
    taps = Taps(page)
    start_hand(page, "paus")
    for value in ("aces:none", "call:0:meia_miseria", "call:2:meia_miseria", "call:1:passo", "call:3:passo"):
        taps.press(value)
    taps.press("side:0:1")
    offered = page.locator('section.step button[value^="side:"]').evaluate_all("bs => bs.map(b => b.value)")
    assert offered == [f"side:2:{n}" for n in range(13)]
    taps.press("side:2:3")
    # As in test_meia_miseria_two_declarers_mixed: Ana +13, Bia +1, Caio −15, Dani +1.
    assert preview_deltas(page) == expected(Ana=13, Bia=1, Caio=-15, Dani=1)


def test_the_rest_pass_only_when_they_may(page, live_server) -> None:
    """A holder of 3 aces may not pass below Jogo Obrigatório: no "the others pass" then."""
    create_table(page, live_server)
    start_hand(page, "copas")
    press(page, "aces:2:3")
    press(page, "call:0:solo_sete")
    assert page.locator('section.step button[value^="rest"]').count() == 0
    press(page, "call:1:passo")
    press(page, "call:2:jogo_obrigatorio")
    # Jogo Obrigatório: the partner names trump, so a plain "the others pass".
    expect(action(page, "rest")).to_have_count(1)
    assert page.locator('section.step button[value^="rest:"]').count() == 0
    press(page, "rest")
    assert draft_of(page).count('"passo"') == 3


def test_the_ladder_keeps_its_places_from_call_to_call(page, live_server, shot) -> None:
    """Every call is drawn in the same place at every call of the auction: the ones not legal now
    are disabled in their place, Passo too, with the reason beside it for the player who must bid."""
    create_table(page, live_server)
    start_hand(page, "copas", tap=True)
    press(page, "aces:2:3", tap=True)  # Caio holds 3 aces
    first = ladder_boxes(page)
    assert len(first) == 22 and all(h >= 48 for _x, _y, _w, h in first.values())
    # Each bid and its "da Última" twin share a row: two columns on a 390 px screen.
    sete, twin = first["solo_sete"], first["solo_sete_da_ultima"]
    assert sete[1] == twin[1] and sete[0] < twin[0] and sete[2] > 140
    shot(page, "jub-10-ladder-first-call")
    press(page, "call:0:solo_sete", tap=True)  # Ana
    assert same_places(ladder_boxes(page), first)
    expect(action(page, "call:1:solo_sete")).to_be_disabled()
    expect(action(page, "call:1:jubileu")).to_be_disabled()
    press(page, "call:1:passo", tap=True)  # Bia
    # Caio must bid at least Jogo Obrigatório: Passo is disabled, and says why, in its place.
    assert same_places(ladder_boxes(page), first)
    passo = action(page, "call:2:passo")
    expect(passo).to_be_disabled()
    expect(passo).to_have_attribute("aria-disabled", "true")
    why = page.locator("#pass-why")
    expect(why).to_contain_text("Caio")
    assert passo.get_attribute("aria-describedby") == "pass-why"
    expect(action(page, "call:2:solo_oito")).to_be_disabled()
    expect(action(page, "call:2:jogo_obrigatorio")).to_be_enabled()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "jub-10-ladder-forced")
    press(page, "call:2:jogo_obrigatorio", tap=True)
    assert same_places(ladder_boxes(page), first)
    expect(action(page, "call:3:passo")).to_be_enabled()


def test_the_auction_can_be_changed_after_it_ended(page, live_server, shot) -> None:
    """From the preview, "change" on the auction reopens it at its last bid: Ana's Solo Sete
    becomes a Solo Oito in three more taps, and the tricks are asked again for it."""
    create_table(page, live_server)
    taps = Taps(page)
    tap_hand(taps, ultima="copas", presses=["aces:none", "call:0:solo_sete", "rest:espadas", "side:9"])
    assert preview_deltas(page) == AFTER_SOLO_SETE_ANA
    for step in ("ultima", "aces", "auction", "contract", "trump", "tricks"):
        expect(page.locator(f'.summary button[value="back:{step}"]')).to_have_count(1)
    shot(page, "jub-11-preview-changes")
    taps.count = 0
    taps.press("back:auction")
    expect(action(page, "call:0:solo_oito")).to_be_enabled()
    assert '"calls"' not in draft_of(page)
    shot(page, "jub-11-auction-reopened")
    taps.press("call:0:solo_oito")
    taps.press("rest:espadas")
    taps.press("side:9")
    # Solo Oito (v = 3) made with 1 overtrick: a = 4 from each → +12/−4/−4/−4.
    assert preview_deltas(page) == AFTER_SOLO_SETE_ANA
    expect(page.locator(".summary .calls li").first).to_contain_text("Solo Oito")
    assert taps.count == 4
    confirm(page, tap=True)
    assert balances(page) == AFTER_SOLO_SETE_ANA


# --------------------------------------------------------------------------- 3. jubileu


def test_jubileu_with_called_ace(page, live_server, shot) -> None:
    create_table(page, live_server)
    seen: list[str] = []

    def check(kind: str) -> None:
        seen.append(kind)
        if kind == "called":
            # Never the ace of trumps: copas is trump, so copas is not offered.
            expect(action(page, "called:copas")).to_have_count(0)
            for suit in ("ouros", "espadas", "paus"):
                expect(action(page, f"called:{suit}")).to_have_count(1)
            shot(page, "jub-03-called")

    # Jubileu (v = 2) by Ana, trump copas, calls the ace of paus held by Caio. Ana 4 + Caio 4
    # = 8 tricks: 1 overtrick, a = 3 per head → Ana +3, Caio +3, Bia −3, Dani −3.
    want = expected(Ana=3, Bia=-3, Caio=3, Dani=-3)
    record_hand(
        page,
        ultima="ouros",
        calls=["call:0:jubileu", "call:1:passo", "call:2:passo", "call:3:passo"],
        details={"trump": "copas", "called": "paus", "partner": "2"},
        tricks=[4, 3, 4, 2],
        expect_preview=want,
        on_detail=check,
    )
    assert sorted(seen) == ["called", "partner", "trump"]
    assert balances(page) == want
    assert dealer_shown(page) == "Ana"
    shot(page, "jub-03-saved")


def test_partner_step_offers_only_legal_partners(page, live_server, shot) -> None:
    """Default: the declarer cannot be his own partner, so the partner step must not
    offer him (the flow promises that a step's buttons are exactly what the engine accepts)."""
    create_table(page, live_server)
    start_hand(page, "ouros")
    press(page, "aces:none")
    for call in ("call:0:jubileu", "call:1:passo", "call:2:passo", "call:3:passo"):
        press(page, call)
    # Answer trump and called ace in whatever order the flow asks, up to the partner step.
    answers = {"trump": "copas", "called": "paus"}
    while (kind := step_kind(page)) in answers:
        press(page, f"{kind}:{answers.pop(kind)}")
    expect(page.locator('section.step button[value^="partner:"]').first).to_be_visible()
    shot(page, "jub-03b-partner")
    offered = page.locator('section.step button[value^="partner:"]').evaluate_all("bs => bs.map(b => b.value)")
    assert "partner:0" not in offered, f"the declarer (Ana) is offered as his own partner: {offered}"


# --------------------------------------------------------------------------- 4. meia miséria


def test_meia_miseria_two_declarers_mixed(page, live_server, shot) -> None:
    create_table(page, live_server)
    start_hand(page, "paus")
    press(page, "aces:none")
    press(page, "call:0:meia_miseria")  # Ana, in turn
    # Bia's turn; Caio and Dani may join out of turn.
    expect(action(page, "call:1:passo")).to_have_count(1)
    expect(page.locator('.chips button[value="call:2:meia_miseria"]')).to_have_count(1)
    shot(page, "jub-04-joiners")
    press(page, "call:2:meia_miseria")  # Caio joins out of turn
    expect(page.locator('.chips button[value="call:2:meia_miseria"]')).to_have_count(0)
    expect(action(page, "call:1:passo")).to_have_count(1)  # still Bia's turn
    press(page, "call:1:passo")
    press(page, "call:3:passo")
    # No trump in Meia Miséria: straight to the tricks; both declarers are starred.
    expect(page.locator("#f-t0")).to_be_visible()
    assert page.locator('section.step button[value^="trump:"]').count() == 0
    # Meia Miséria, v = 3, settled per declarer against all three others (JUB-6 default):
    #   Ana takes exactly 1: success, a = 3 → Ana +9; Bia, Caio, Dani −3 each.
    #   Caio takes 3: |3 − 1| = 2 off, a = 3 + 1 = 4 → Caio −12; Ana, Bia, Dani +4 each.
    # Sum: Ana +13, Bia +1, Caio −15, Dani +1.
    want = expected(Ana=13, Bia=1, Caio=-15, Dani=1)
    enter_tricks(page, [1, 5, 3, 4])
    assert preview_deltas(page) == want
    shot(page, "jub-04-preview")
    confirm(page)
    assert balances(page) == want
    shot(page, "jub-04-saved")


# --------------------------------------------------------------------------- 5. all pass


def test_all_pass_in_two_taps(page, live_app, live_server, shot) -> None:
    tid = create_table(page, live_server)
    assert dealer_shown(page) == "Dani"
    start_hand(page, "espadas", tap=True)  # tap 1: the suit of the última
    button = page.locator('form[action$="/hand/all-pass"] button')
    with page.expect_navigation():
        button.tap()  # tap 2: everybody passed
    page.wait_for_load_state()
    assert page.url.startswith(f"{live_server}/t/{tid}")
    assert balances(page) == ZERO
    assert dealer_shown(page) == "Ana"  # the deal passes to the next player
    lead = page.locator(".next-hand .lead").inner_text()
    assert "Ana" in lead and "Bia" in lead
    expect(page.locator(".hands #hand-1")).to_be_visible()
    assert stored_hands(live_app, tid) == 1
    shot(page, "jub-05-all-pass")


# --------------------------------------------------------------------------- 6. illegal calls


def test_illegal_call_is_not_offered_and_a_forged_link_is_refused(page, live_app, live_server, shot) -> None:
    tid = create_table(page, live_server)
    start_hand(page, "copas")
    press(page, "aces:none")
    press(page, "call:0:solo_oito")
    # Bia's turn: Meia Miséria cannot be bid over Solo Oito: its button stays in its place but
    # disabled, and nobody is offered to join it.
    expect(action(page, "call:1:passo")).to_be_enabled()
    expect(action(page, "call:1:solo_oito_da_ultima")).to_be_enabled()
    for illegal in ("call:1:meia_miseria", "call:1:solo_oito"):
        expect(action(page, illegal)).to_be_disabled()
        expect(action(page, illegal)).to_have_attribute("aria-disabled", "true")
    assert page.locator('.chips button[value$=":meia_miseria"]').count() == 0
    assert page.locator(".field-error").count() == 0
    # A forged link with the illegal call (what the disabled button would send): refused with
    # the engine's sentence and a 422, and the call is dropped.
    response = page.goto(hand_url(live_server, tid, draft_of(page), "call:1:meia_miseria"))
    assert response is not None and response.status == 422
    sentence = engine_says(
        live_app, tid, {"ultima": "copas", "auction": [["Ana", "solo_oito"], ["Bia", "meia_miseria"]]}
    )
    error = page.locator(".field-error")
    expect(error).to_have_count(1)
    expect(error).to_have_attribute("role", "alert")
    assert error.inner_text().strip() == sentence
    shot(page, "jub-06-forged")
    assert '"meia_miseria"' not in draft_of(page)
    expect(action(page, "call:1:passo")).to_have_count(1)  # still Bia's turn, after Solo Oito
    assert stored_hands(live_app, tid) == 0
    page.goto(f"{live_server}/t/{tid}")
    assert balances(page) == ZERO
    assert page.locator(".hands .hand").count() == 0


def test_direct_contract_jogo_obrigatorio_without_aces(page, live_app, live_server, shot) -> None:
    tid = create_table(page, live_server)
    start_hand(page, "ouros")
    press(page, "aces:none")
    press(page, "direct")
    expect(page.locator("select#bid")).to_be_visible()
    page.select_option("select#bid", "jogo_obrigatorio")
    page.check('input[name="declarer"][value="0"]')
    press(page, "contract")
    sentence = engine_says(
        live_app, tid, {"ultima": "ouros", "contract": {"bid": "jogo_obrigatorio", "declarers": ["Ana"]}}
    )
    # Nobody holds 3 or 4 aces, so the contract itself is wrong: the sentence must come
    # at once, not after questions about a contract that cannot stand.
    asked = []
    while page.locator(".field-error").count() == 0 and (kind := step_kind(page)) is not None:
        asked.append(kind)
        shot(page, f"jub-06-jo-asked-{kind}")
        press(page, f"{kind}:" + ("2" if kind == "partner" else "paus" if kind == "called" else "copas"))
    error = page.locator(".field-error")
    expect(error).to_have_count(1)
    assert error.inner_text().strip() == sentence
    expect(page.locator("select#bid")).to_be_visible()  # back on the contract step
    assert page.locator("#f-t0").count() == 0
    shot(page, "jub-06-jo-no-aces")
    assert stored_hands(live_app, tid) == 0
    assert asked == [], f"the flow asked {asked} before saying the contract is impossible"


def test_back_to_the_auction_forgets_the_abandoned_contract(page, live_server, shot) -> None:
    """Direct contract JO without aces → (called suit asked) → refused → "enter the auction
    instead" → a Jubileu: its called ace must be asked, not taken from the refused contract."""
    create_table(page, live_server)
    start_hand(page, "copas")
    press(page, "aces:none")
    press(page, "direct")
    page.select_option("select#bid", "jogo_obrigatorio")
    page.check('input[name="declarer"][value="0"]')
    press(page, "contract")
    while page.locator(".field-error").count() == 0 and (kind := step_kind(page)) is not None:
        press(page, f"{kind}:" + ("2" if kind == "partner" else "paus"))
    expect(page.locator(".field-error")).to_have_count(1)
    press(page, "auction")
    for call in ("call:0:jubileu", "call:1:passo", "call:2:passo", "call:3:passo"):
        press(page, call)
    asked = []
    answers = {"trump": "espadas", "called": "ouros", "partner": "1"}
    while (kind := step_kind(page)) is not None:
        asked.append(kind)
        press(page, f"{kind}:{answers.pop(kind)}")
    shot(page, "jub-06b-after-switch")
    assert asked == ["trump", "called", "partner"], f"asked only {asked}; draft {draft_of(page)}"


# --------------------------------------------------------------------------- 7-9. void, correct, undo


def test_void_a_hand_from_the_history(page, live_server, shot) -> None:
    tid = create_table(page, live_server)
    record_hand(page, **SOLO_SETE_ANA)
    assert balances(page) == AFTER_SOLO_SETE_ANA
    # Hand 2: Ana deals, Bia speaks first and makes Solo Sete exactly: a = 2 → Bia +6, others −2.
    record_hand(
        page,
        ultima="paus",
        calls=["call:1:solo_sete", "call:2:passo", "call:3:passo", "call:0:passo"],
        details={"trump": "ouros"},
        tricks=[2, 7, 2, 2],
        expect_preview=expected(Ana=-2, Bia=6, Caio=-2, Dani=-2),
    )
    assert balances(page) == expected(Ana=10, Bia=2, Caio=-6, Dani=-6)
    assert dealer_shown(page) == "Bia"
    page.goto(f"{live_server}/t/{tid}/history")
    page.locator(f'#hand-2 a[href$="/t/{tid}/hands/2/void"]').click()
    page.wait_for_url(f"**/t/{tid}/hands/2/void")
    # A blank reason (only spaces passes the browser's `required`) is refused with a sentence.
    page.fill("#reason", "   ")
    page.locator('main form[method="post"] button[type="submit"]').click()
    page.wait_for_load_state()
    expect(page.locator("#reason-err.field-error")).to_be_visible()
    expect(page.locator("#reason")).to_have_attribute("aria-invalid", "true")
    reason = "Anotada na mesa errada"
    page.fill("#reason", reason)
    with page.expect_navigation():
        page.locator('main form[method="post"] button[type="submit"]').click()
    assert page.url == f"{live_server}/t/{tid}"
    # Totals are hand 1's again; the deal goes back to Ana (who dealt the voided hand).
    assert balances(page) == AFTER_SOLO_SETE_ANA
    assert dealer_shown(page) == "Ana"
    page.goto(f"{live_server}/t/{tid}/history")
    voided = page.locator("#hand-2")
    expect(voided).to_be_visible()
    expect(voided).to_have_class("hand is-void")
    expect(voided.locator(".tag-void")).to_be_visible()
    expect(voided.locator(".void-note")).to_contain_text(reason)
    expect(voided.locator(".hand-actions")).to_have_count(0)
    expect(page.locator("#hand-1.is-void")).to_have_count(0)
    expect(page.locator("#hand-1 .hand-actions a")).to_have_count(2)
    shot(page, "jub-07-history-void")


def test_correct_a_hand(page, live_server, shot) -> None:
    tid = create_table(page, live_server)
    record_hand(page, **SOLO_SETE_ANA)
    page.goto(f"{live_server}/t/{tid}/history")
    page.locator('#hand-1 a[href*="replaces=1"]').click()
    page.wait_for_load_state()
    # The correction starts from the stored hand: straight to the preview, already settled.
    assert preview_deltas(page) == AFTER_SOLO_SETE_ANA
    press(page, "back:tricks")
    # Ana really took 6: one short, a = 2 + 0 = 2 → Ana −6, the others +2 each.
    want = expected(Ana=-6, Bia=2, Caio=2, Dani=2)
    enter_tricks(page, [6, 3, 2, 2])
    assert preview_deltas(page) == want
    reason = "Contamos mal as vazas"
    page.fill("#reason", reason)
    shot(page, "jub-08-correction-preview")
    confirm(page, correction=True)
    assert balances(page) == want
    assert dealer_shown(page) == "Ana"  # the correction takes hand 1's place in the rotation
    page.goto(f"{live_server}/t/{tid}/history")
    old, new = page.locator("#hand-1"), page.locator("#hand-2")
    expect(old).to_have_class("hand is-void")
    expect(old.locator(".void-note")).to_contain_text(reason)
    expect(new).to_have_class("hand")
    # Hand 1 as it was stands under its correction (inside it): the correction's own deltas.
    expect(new.locator("details.before #hand-1")).to_have_count(1)
    assert new.locator(":scope > .deltas b").all_inner_texts() == list(want.values())
    expect(new.locator(f'a[href$="/t/{tid}/hands/2/void"]')).to_have_count(1)
    assert balances(page) == want
    shot(page, "jub-08-history-corrected")


def test_undo_right_after_saving(page, live_server, shot) -> None:
    tid = create_table(page, live_server)
    record_hand(page, **SOLO_SETE_ANA, tap=True)
    assert balances(page) == AFTER_SOLO_SETE_ANA
    bar = page.locator(".undo-bar")
    expect(bar).to_be_visible()
    undo = bar.locator("a.btn")
    assert undo.get_attribute("href").endswith(f"/t/{tid}/hands/1/undo")
    shot(page, "jub-09-undo-bar")
    with page.expect_navigation():
        undo.tap()
    expect(page.locator("main h1")).to_have_text("Desfazer a mão 1?")  # it asks first
    with page.expect_navigation():
        page.get_by_role("button", name="Sim, desfazer").tap()
    assert page.url == f"{live_server}/t/{tid}"
    assert balances(page) == ZERO
    assert dealer_shown(page) == "Dani"
    expect(bar).to_contain_text("Mão 1 desfeita.")
    expect(bar.locator("a.btn")).to_have_count(0)  # no undo any more: "Refazer" instead
    expect(page.locator(".hands #hand-1.is-void .tag-void")).to_be_visible()
    shot(page, "jub-09-undone")


def test_a_refused_step_is_shown_in_the_page_when_swapped_in(page, live_server) -> None:  # type: ignore[no-untyped-def]
    """A step the rules refuse answers 422 with the sentence; a boosted page must show that answer
    (a script that drops 4xx answers would), not sit still as if the tap did nothing."""
    create_table(page, live_server)
    start_hand(page, "copas")
    press(page, "aces:none")
    press(page, "call:0:solo_oito")
    page.evaluate("window.sameDocument = true")
    forged = action(page, "call:1:meia_miseria")
    forged.evaluate("b => { b.disabled = false; b.removeAttribute('aria-disabled'); }")  # a forged tap
    with page.expect_response(lambda r: r.status == 422):
        forged.click()
    expect(page.locator(".field-error")).to_have_count(1)
    assert page.evaluate("window.sameDocument") is True  # swapped in, no page load
    expect(action(page, "call:1:passo")).to_be_enabled()  # still Bia's turn
