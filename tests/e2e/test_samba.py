"""A Samba match end to end, on a 390×844 touch screen.

Four players in order of play: Ana, Bia, Caio, Dani; partners sit opposite, so the teams are
Ana & Caio (team 0) and Bia & Dani (team 1). The last player (Dani) deals the first hand and the
deal moves one seat on each hand.

Every expected score below is worked out by hand from the rule text (and again by
samba_steps.Team.score, from the same rules), never copied from the app; the opening meld
from the SAM-1 table (50 below 1,500; 90 below 3,000; 120 below 7,000; then 150). The match
ends when a team's total EXCEEDS 10,000 (exactly 10,000 plays on).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.samba_steps import (
    PLAYERS,
    STOCK_RAN_OUT,
    TEAMS,
    Team,
    api_table,
    check_hand,
    choose_went_out,
    confirm,
    confirm_scores,
    count_cards,
    create_table,
    error_box,
    expect_live,
    fill_team,
    melds_shown,
    open_counter,
    open_hand,
    opening_meld,
    pt_int,
    record_hand,
    record_of,
    save_button,
    scoreboard,
    show_team,
    team_card,
    team_name,
    team_names,
    totals_shown,
)
from tests.e2e.steps import engine_says, go, stored_hands, tid_of

pytestmark = pytest.mark.e2e

SCREEN = 390


def assert_board(page, totals: list[int], *, over: bool = False) -> None:  # type: ignore[no-untyped-def]
    """Totals, opening melds (while the match goes on) and progress bars of both teams."""
    assert team_names(page) == [team_name(t) for t in TEAMS]
    assert totals_shown(page) == totals
    assert melds_shown(page) == ([None, None] if over else [opening_meld(t) for t in totals])
    rows = scoreboard(page)
    assert [row["progress"] for row in rows] == [min(max(t, 0), 10000) for t in totals]  # a bar stops at its max
    assert {row["max"] for row in rows} == {10000}
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREEN


# --------------------------------------------------------------------------- 1. the match


def test_a_match_to_10000_with_the_card_counter_and_a_rematch(
    page, live_app, live_server, shot, console_errors
) -> None:
    tid = create_table(page, live_server, name="Samba de domingo", tap=True)
    assert_board(page, [0, 0])
    assert melds_shown(page) == [50, 50]
    shot(page, "samba-00-table")

    # Hand 1: Dani deals; Ana goes out. The card counter on screen, tapped card by card.
    # Ana & Caio: 1 clean canastra, 1 samba, 2 red 3s, on the table 7 aces + 7 low cards
    # (7 × 20 + 7 × 5 = 175): 175 + 500 + 1,500 + 200 (red 3s, two combinations) + 200 (went
    # out) = 2,575. Bia & Dani: 1 dirty canastra, 1 red 3, 240 on the table, a joker and three
    # high cards left in hand (50 + 30 = 80): 240 + 300 − 100 (red 3 without two combinations)
    # − 80 = 360. Totals 2,575 / 360: openings 90 / 50.
    a1 = Team(clean_canastras=1, sambas=1, red_threes=2, meld={"aces": 7, "low": 7})
    b1 = Team(dirty_canastras=1, red_threes=1, meld=240, hand={"jokers": 1, "high": 3})
    assert (a1.score(went_out=True), b1.score(went_out=False)) == (2575, 360)
    open_hand(page, tap=True)
    for i, before in enumerate((50, 50)):
        expect(team_card(page, i).locator(".tag-meld")).to_contain_text(str(before))
    expect(page.locator("#live .live-scores")).to_have_count(0)  # nobody chose who went out yet
    shot(page, "samba-01-form-empty")
    fill_team(page, 0, a1)
    expect(page.locator("#f-t0-meld_points")).to_have_value("175")  # 7 aces + 7 low cards
    shot(page, "samba-01-counter-175")
    fill_team(page, 1, b1, skip_hand=True)
    choose_went_out(page, 0)
    # The live score follows the form: first without Bia & Dani's cards in hand ...
    expect_live(page, [2575, 440])
    # ... then, counted, the 80 points come off.
    count_cards(page, 1, "hand_points", {"jokers": 1, "high": 3})
    expect(page.locator("#f-t1-hand_points")).to_have_value("80")
    expect_live(page, [2575, 360])
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREEN
    shot(page, "samba-01-form-filled")
    check_hand(page, tap=True)
    assert confirm_scores(page) == [2575, 360]
    expect(page.locator(".match-end")).to_have_count(0)
    shot(page, "samba-01-confirm")
    confirm(page, tap=True)
    assert_board(page, [2575, 360])
    assert melds_shown(page) == [90, 50]
    shot(page, "samba-01-saved")
    assert api_table(page, live_server, tid)["next_dealer"] == "Ana"

    # Hand 2: Ana deals; Caio goes out. Ana & Caio: 2 clean canastras, 1 red 3, 310 on the
    # table: 310 + 1,000 + 100 + 200 = 1,610, total 4,185 (opening 120). Bia & Dani: 1 dirty
    # canastra, 1 samba, 2 red 3s, 260 on the table, four low cards and a black 3 in hand (25,
    # counted), a penalty (drew from the stock out of turn): 260 + 300 + 1,500 + 200 − 25 − 100
    # = 2,135, total 2,495 (opening 90).
    a2 = Team(clean_canastras=2, red_threes=1, meld=310)
    b2 = Team(
        dirty_canastras=1,
        sambas=1,
        red_threes=2,
        meld=260,
        hand={"low": 4, "black_threes": 1},
        penalties={"stock_out_of_turn": 1},
    )
    assert record_hand(page, [a2, b2], PLAYERS.index("Caio"), on_step=lambda s: shot(page, f"samba-02-{s}")) == [
        1610,
        2135,
    ]
    assert_board(page, [4185, 2495])
    assert melds_shown(page) == [120, 90]
    shot(page, "samba-02-saved")

    # Hand 3: Bia deals; Caio goes out. Ana & Caio: 2 clean canastras, 1 dirty, 1 samba, 3 red
    # 3s, on the table (counted) a joker, two 2s, 8 aces, 25 high and 6 low cards: 50 + 40 +
    # 160 + 250 + 30 = 530; 530 + 1,000 + 300 + 1,500 + 300 + 200 = 3,830, total 8,015
    # (opening 150). Bia & Dani: 1 clean canastra, 150 on the table, 45 in hand, a red 3 stuck
    # in hand: 150 + 500 − 45 − 500 = 105, total 2,600 (opening still 90).
    a3 = Team(
        clean_canastras=2,
        dirty_canastras=1,
        sambas=1,
        red_threes=3,
        meld={"jokers": 1, "twos": 2, "aces": 8, "high": 25, "low": 6},
    )
    b3 = Team(clean_canastras=1, red_threes_in_hand=1, meld=150, hand=45)
    assert record_hand(page, [a3, b3], PLAYERS.index("Caio"), on_step=lambda s: shot(page, f"samba-03-{s}")) == [
        3830,
        105,
    ]
    assert_board(page, [8015, 2600])
    assert melds_shown(page) == [150, 90]
    shot(page, "samba-03-saved")

    # Hand 4: Caio deals; nobody goes out (the stock ran out: no going-out bonus). Ana & Caio:
    # 2 clean, 1 dirty, 2 red 3s, 500 on the table, three low cards in hand: 500 + 1,000 + 300
    # + 200 − 15 = 1,985, total EXACTLY 10,000: not past the target, the match goes on.
    # Bia & Dani: 1 clean, 1 dirty, 1 red 3, 300 on the table, 60 in hand: 300 + 500 + 300 +
    # 100 − 60 = 1,140, total 3,740 (opening 120).
    a4 = Team(clean_canastras=2, dirty_canastras=1, red_threes=2, meld=500, hand={"low": 3})
    b4 = Team(clean_canastras=1, dirty_canastras=1, red_threes=1, meld=300, hand=60)

    def check_hand_4(step: str) -> None:
        expect(page.locator(".match-end")).to_have_count(0)
        shot(page, f"samba-04-{step}")

    assert record_hand(page, [a4, b4], STOCK_RAN_OUT, on_step=check_hand_4) == [1985, 1140]
    assert_board(page, [10000, 3740])
    assert melds_shown(page) == [150, 120]
    expect(page.locator(".match-over")).to_have_count(0)
    expect(page.locator('.next-hand a[href$="/hand"]')).to_have_count(1)
    shot(page, "samba-04-saved")

    # Hand 5: Dani deals; Bia goes out. Ana & Caio: 1 clean, 1 samba, 200 on the table, 30 in
    # hand: 200 + 500 + 1,500 − 30 = 2,170, total 12,170 > 10,000. Bia & Dani: 1 clean, 1
    # dirty, 1 red 3, 220 on the table: 220 + 800 + 100 + 200 = 1,320, total 5,060.
    # Ana & Caio win the match.
    a5 = Team(clean_canastras=1, sambas=1, meld=200, hand=30)
    b5 = Team(clean_canastras=1, dirty_canastras=1, red_threes=1, meld=220)

    def check_hand_5(step: str) -> None:
        expect(page.locator(".match-end")).to_have_count(1)  # live, then on the confirm step
        shot(page, f"samba-05-{step}")

    assert record_hand(page, [a5, b5], PLAYERS.index("Bia"), on_step=check_hand_5) == [2170, 1320]
    assert_board(page, [12170, 5060], over=True)
    rows = scoreboard(page)
    assert [row["winner"] for row in rows] == [True, False]
    over = page.locator("section.match-over")
    expect(over).to_be_visible()
    expect(over).to_contain_text(team_name(TEAMS[0]))
    expect(over).to_contain_text(pt_int(12170))
    expect(page.locator(".next-hand")).to_have_count(0)
    expect(page.locator('a[href$="/hand"]')).to_have_count(0)  # no "record the next hand"
    shot(page, "samba-05-match-over")

    table = api_table(page, live_server, tid)
    assert len(table["hands"]) == 5 and stored_hands(live_app, tid) == 5
    assert table["finished"] is True and table["winner"] == 0
    assert [h["dealer"] for h in table["hands"]] == ["Dani", "Ana", "Bia", "Caio", "Dani"]

    # The rematch: a new table, same seats and teams, zero totals, openings back to 50.
    go(page, over.locator('form[action$="/rematch"] button[type="submit"]'), tap=True)
    new_tid = tid_of(page)
    assert new_tid != tid
    assert_board(page, [0, 0])
    expect(page.locator('.next-hand a[href$="/hand"]')).to_have_count(1)
    expect(page.locator("section.match-over")).to_have_count(0)
    rematch = api_table(page, live_server, new_tid)
    assert rematch["players"] == list(PLAYERS)
    assert [list(t) for t in rematch["teams"]] == [list(t) for t in TEAMS]
    assert rematch["hands"] == [] and rematch["finished"] is False
    shot(page, "samba-06-rematch")
    # The finished table now points to the rematch instead of offering another one.
    page.goto(f"{live_server}/t/{tid}")
    expect(page.locator(f'section.match-over a[href$="/t/{new_tid}"]')).to_have_count(1)
    expect(page.locator('form[action$="/rematch"]')).to_have_count(0)
    # No CSP violation, no script error; a live-score question replaced by a newer one is none.
    assert console_errors == []


# --------------------------------------------------------------------------- 2. refusals


def test_impossible_hands_are_refused_and_nothing_is_stored(page, live_app, live_server, shot) -> None:
    tid = create_table(page, live_server)
    # Hand 1, to have something on the board: Ana goes out. Ana & Caio 1 clean canastra, 1
    # samba, 175 on the table: 175 + 500 + 1,500 + 200 = 2,375. Bia & Dani 120 on the table,
    # nothing else: 120.
    first = [Team(clean_canastras=1, sambas=1, meld=175), Team(meld=120)]
    assert record_hand(page, first, 0) == [2375, 120]
    totals = [2375, 120]
    assert_board(page, totals)

    def still_nothing_stored(name: str) -> None:
        expect(save_button(page)).to_have_count(0)
        expect(page.locator("form.samba-form")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= SCREEN
        shot(page, f"samba-10-{name}")
        assert stored_hands(live_app, tid) == 1
        assert len(api_table(page, live_server, tid)["hands"]) == 1

    # (1) Ana "went out" though her team has one canastra and no samba.
    open_hand(page)
    one = [Team(clean_canastras=1, meld=100), Team(meld=60)]
    fill_team(page, 0, one[0])
    fill_team(page, 1, one[1])
    choose_went_out(page, 0)
    sentence = engine_says(live_app, tid, record_of(one, "Ana"), dealer="Ana")
    expect(page.locator("#live .field-error")).to_have_text(sentence)  # already said while typing
    check_hand(page)
    expect(error_box(page)).to_have_text(sentence)
    still_nothing_stored("went-out-one-canastra")

    # (2) Two clean canastras need at least 2 × 7 × 5 = 70 points on the table; 60 typed.
    two = [Team(clean_canastras=2, meld=60), Team(meld=60)]
    show_team(page, 0)  # one team at a time: back to Ana & Caio's
    page.fill("#f-t0_clean_canastras", "2")
    page.fill("#f-t0-meld_points", "60")
    sentence = engine_says(live_app, tid, record_of(two, "Ana"), dealer="Ana")
    check_hand(page)
    expect(error_box(page)).to_have_text(sentence)
    expect(page.locator("#f-t0-meld_points")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#f-t0-meld_points")).to_have_value("60")  # kept as typed
    still_nothing_stored("meld-points-too-few")

    # (3) Seven jokers counted (4 on Ana & Caio's table, 3 in Bia & Dani's hands): the 162
    # cards have six.
    count_cards(page, 0, "meld_points", {"jokers": 4})
    count_cards(page, 1, "hand_points", {"jokers": 3})
    expect(page.locator("#f-t0-meld_points")).to_have_value("200")
    expect(page.locator("#f-t1-hand_points")).to_have_value("150")
    from referee.i18n import render_text
    from referee.rules import samba
    from referee.rules.errors import RulesError

    with live_app.test_request_context("/"):
        with pytest.raises(RulesError) as refused:
            samba.check_card_counts([{"jokers": 4}, {"jokers": 3}])
        sentence = render_text(refused.value.text)
    assert "7" in sentence and "6" in sentence
    expect(page.locator("#live .field-error")).to_have_text(sentence)
    check_hand(page)
    expect(error_box(page)).to_have_text(sentence)
    still_nothing_stored("seven-jokers")
    page.goto(f"{live_server}/t/{tid}")
    assert_board(page, totals)

    # Back on the form: one joker fewer in hand and the hand goes through. Ana & Caio: 200 +
    # 1,000 + 200 = 1,400; Bia & Dani: 60 − 100 = −40.
    page.go_back()
    expect(page.locator("#f-t1_hc_jokers")).to_have_value("3")
    open_counter(page, 1, "hand_points")
    page.locator('[data-stepper] button[data-step="-1"][aria-controls="f-t1_hc_jokers"]').tap()
    expect(page.locator("#f-t1-hand_points")).to_have_value("100")
    expect(error_box(page)).to_have_count(1)  # the old sentence stays until checked again
    expect_live(page, [1400, -40])
    check_hand(page)
    assert confirm_scores(page) == [1400, -40]
    confirm(page)
    assert_board(page, [2375 + 1400, 120 - 40])
    assert stored_hands(live_app, tid) == 2


# --------------------------------------------------------------------------- 3. meld checker


def type_cards(page, cards: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Type cards with the checker's card keyboard: a rank then a suit, or the joker key."""
    keyboard = page.locator("[data-card-keyboard]")
    for card in cards:
        if card == "JK":
            keyboard.locator("[data-card='JK']").tap()
        else:
            keyboard.locator(f"[data-rank='{card[:-1]}']").tap()
            keyboard.locator(f"[data-suit='{card[-1]}']").tap()


def test_meld_checker_second_wild_before_the_seventh_card(page, live_app, live_server, shot) -> None:
    page.goto(f"{live_server}/samba/melds")
    expect(page.locator("[data-card-keyboard]")).to_be_hidden()  # only while a meld is being filled
    shot(page, "samba-20-checker-empty")
    # Meld 1: three kings and two 2s: the second wild card may only go in as the 7th card.
    page.locator("#m0").tap()
    expect(page.locator("[data-card-keyboard]")).to_be_visible()
    type_cards(page, ["K♥", "K♦", "K♠", "2♣", "2♥"])
    expect(page.locator("#m0")).to_have_value("K♥ K♦ K♠ 2♣ 2♥")
    # Meld 2: five kings and two 2s, seven cards: a dirty canastra.
    page.locator("#m1").tap()
    type_cards(page, ["K♥", "K♦", "K♠", "K♣", "K♥", "2♣", "2♥"])
    type_cards(page, ["JK"])
    page.locator("[data-card-keyboard] [data-erase]").tap()  # the joker was a slip
    expect(page.locator("#m1")).to_have_value("K♥ K♦ K♠ K♣ K♥ 2♣ 2♥")
    expect(page.locator("#m0")).to_have_value("K♥ K♦ K♠ 2♣ 2♥")
    page.select_option("#required", "90")
    shot(page, "samba-20-checker-typed")
    go(page, page.locator('main form button.btn-big[type="submit"]'), tap=True)

    from referee.i18n import render_text
    from referee.rules.samba_melds import cards_of, check_meld

    with live_app.test_request_context("/"):
        reasons = [render_text(r) for r in check_meld(cards_of("Kc Ko Ke 2p 2c")).reasons]
    assert len(reasons) == 1 and "7" in reasons[0], reasons  # "... only as the 7th card ..."
    bad = page.locator("#m0-verdict")
    expect(bad).to_have_class("verdict is-illegal")
    expect(page.locator("#m0")).to_have_attribute("aria-invalid", "true")
    expect(bad.locator(".field-error")).to_have_text(reasons)
    good = page.locator("#m1-verdict")
    expect(good).to_have_class("verdict is-legal")
    expect(good.locator(".field-error")).to_have_count(0)
    expect(good).to_contain_text("90")  # 5 × 10 + 2 × 20 card points
    expect(good).to_contain_text("300")  # a dirty canastra's premium
    # With an illegal meld the opening is refused.
    expect(page.locator("section.opening")).to_have_class("card opening is-illegal")
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREEN
    shot(page, "samba-20-checker-verdicts")

    # The first meld erased: the dirty canastra alone is worth exactly the 90 needed (met when
    # equal).
    page.locator("#m0").tap()
    for _ in range(5):
        page.locator("[data-card-keyboard] [data-erase]").tap()
    expect(page.locator("#m0")).to_have_value("")
    go(page, page.locator('main form button.btn-big[type="submit"]'), tap=True)
    expect(page.locator("#m0-verdict")).to_have_count(0)
    expect(page.locator("#m1-verdict")).to_have_class("verdict is-legal")
    opening = page.locator("section.opening")
    expect(opening).to_have_class("card opening is-legal")
    expect(opening.locator(".lead")).to_contain_text("90")
    shot(page, "samba-20-checker-opening")


# --------------------------------------------------------------------------- 4. the draw


def test_partnership_draw_seats_the_teams(page, live_server, shot) -> None:
    """Cards 7, 8, 9, 10 drawn. Even against odd; the highest (Bia, 10) is the mão and
    the others sit after her from the highest down: Bia, Dani (9), Ana (8), Caio (7). Teams
    Bia & Ana (10, 8; the mão's team first) and Dani & Caio (9, 7); the player before the mão,
    Caio, deals first."""
    drawn = {"Ana": "8", "Bia": "10", "Caio": "7", "Dani": "9"}
    page.goto(f"{live_server}/tables/new?game=samba")
    for i, name in enumerate(PLAYERS):
        page.fill(f"#player_{i}", name)
    page.locator("details.draw > summary").tap()
    for i, name in enumerate(PLAYERS):
        page.select_option(f"#draw_{i}", drawn[name])
        expect(page.locator(f'label[for="draw_{i}"]')).to_have_text(name)  # the typed names show
    shot(page, "samba-30-draw")
    go(page, page.locator('main form[method="post"] button[type="submit"]'), tap=True)
    tid = tid_of(page)
    assert team_names(page) == ["Bia & Ana", "Dani & Caio"]
    assert totals_shown(page) == [0, 0]
    # The dealer's tag sits in his team's row.
    dealer_rows = page.locator(".scoreboard li.team-row:has(.who .tag)")
    expect(dealer_rows).to_have_count(1)
    expect(dealer_rows.locator(".who .tag")).to_contain_text("Caio")
    shot(page, "samba-30-draw-table")
    table = api_table(page, live_server, tid)
    assert table["players"] == ["Bia", "Dani", "Ana", "Caio"]
    assert [list(t) for t in table["teams"]] == [["Bia", "Ana"], ["Dani", "Caio"]]
    assert table["next_dealer"] == "Caio"
    # The hand form asks in order of play, and the mão's team comes first.
    open_hand(page)
    radios = page.locator('input[name="went_out"]').evaluate_all(
        "xs => xs.map(x => x.closest('label').textContent.trim())"
    )
    assert radios[:4] == ["Bia", "Dani", "Ana", "Caio"]
    expect(page.locator("#team-0-h")).to_contain_text("Bia & Ana")


# --------------------------------------------------------------------------- 5. the counter's boxes


def test_two_digit_counts_fit_in_the_card_counter(page, live_server, shot) -> None:
    create_table(page, live_server)
    open_hand(page)
    open_counter(page, 0, "meld_points")
    counts = {"twos": 12, "aces": 12, "high": 72, "low": 48}  # every copy of the 162 cards
    for kind, n in counts.items():
        page.fill(f"#f-t0_mc_{kind}", str(n))
    expect(page.locator("#f-t0-meld_points")).to_have_value(str(12 * 20 + 12 * 20 + 72 * 10 + 48 * 5))
    page.locator("#f-t0_mc_high").scroll_into_view_if_needed()
    shot(page, "samba-40-counter-two-digits")
    clipped = page.locator("details.counter[open] input[data-points]").evaluate_all(
        "xs => xs.filter(x => x.scrollWidth > x.clientWidth).map(x => `${x.id}: ${x.value} needs ${x.scrollWidth}px, has ${x.clientWidth}px`)"
    )
    assert clipped == []
