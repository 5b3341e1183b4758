"""Driving the Samba pages in a browser: shared by test_samba.py and test_a11y.py.

Everything is selected by stable attributes (names, ids, classes, ``data-*``), never by visible
text: most Samba strings are not translated yet. Team i of the form is the table's team i; a
seat is an index in the table's player list (the value of the ``went_out`` radios).

Expected scores are worked out here from the rule text and SAM-1, never read from the app.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e import steps
from tests.e2e.steps import MINUS, go

# Four players in order of play; partners sit opposite: teams (Ana, Caio) and (Bia, Dani).
PLAYERS = ("Ana", "Bia", "Caio", "Dani")
TEAMS = (("Ana", "Caio"), ("Bia", "Dani"))
STOCK_RAN_OUT = "-"

# --------------------------------------------------------------------------- the rules, by hand

#: the card counter's boxes and what one card of each is worth.
CARD_VALUES = {"jokers": 50, "twos": 20, "aces": 20, "high": 10, "low": 5, "black_threes": 5}
COUNTS = ("clean_canastras", "dirty_canastras", "wild_canastras", "sambas", "red_threes", "red_threes_in_hand")


def card_points(pile: int | Mapping[str, int]) -> int:
    """Points typed (an int) or counted card by card (kind → how many)."""
    if isinstance(pile, int):
        return pile
    return sum(CARD_VALUES[kind] * n for kind, n in pile.items())


@dataclass
class Team:
    """One team's part of a hand as the scorer enters it. ``meld``/``hand``: points typed (int)
    or counted with the card counter (kind → cards); ``penalties``: kind → how many."""

    clean_canastras: int = 0
    dirty_canastras: int = 0
    wild_canastras: int = 0
    sambas: int = 0
    red_threes: int = 0
    red_threes_in_hand: int = 0
    meld: int | dict[str, int] = 0
    hand: int | dict[str, int] = 0
    penalties: dict[str, int] = field(default_factory=dict)

    def score(self, *, went_out: bool, hidden: int = 0) -> int:
        """With the chosen readings (SAM-3 not cumulative)."""
        canastras = self.clean_canastras + self.dirty_canastras + self.wild_canastras
        made = canastras + self.sambas >= 2
        score = card_points(self.meld)
        score += 500 * self.clean_canastras + 300 * self.dirty_canastras + 2000 * self.wild_canastras
        score += 1500 * self.sambas
        score += 2000 if canastras >= 7 else 500 if canastras >= 5 else 0
        if self.red_threes:
            honour = 1000 if self.red_threes == 6 else 100 * self.red_threes
            score += honour if made else -honour
        if went_out:
            score += 200 + hidden
        score -= card_points(self.hand)
        score -= 500 * self.red_threes_in_hand
        score -= 100 * sum(self.penalties.values())
        return score


def opening_meld(total: int) -> int:
    """The opening meld a team needs with this total before the hand (150 from 7,000)."""
    if total < 0:
        return 15
    if total < 1500:
        return 50
    if total < 3000:
        return 90
    if total < 7000:
        return 120
    return 150


def pt_int(n: int) -> str:
    """pt-BR display of an integer: 1.234, −50 (U+2212)."""
    text = f"{abs(n):,}".replace(",", ".")
    return f"{MINUS}{text}" if n < 0 else text


def pt_signed(n: int) -> str:
    return f"+{pt_int(n)}" if n > 0 else pt_int(n)


def number(text: str) -> int:
    """An integer back from its display ("+2.575", "−100", "2,575")."""
    text = text.strip().replace(MINUS, "-").replace("\u00a0", "").replace(".", "").replace(",", "")
    assert re.fullmatch(r"[+-]?\d+", text), text
    return int(text)


# --------------------------------------------------------------------------- the table


def create_table(page: Page, base: str, players: Sequence[str] = PLAYERS, **kwargs: Any) -> str:
    """A Samba table with the default layout (partners across) and options."""
    return steps.create_table(page, base, "samba", tuple(players), **kwargs)


#: Six players as three pairs (each with the player three seats on): João & Conceição, Ana & Bia,
#: Márcia & Edu.
SIX = ("João", "Ana", "Márcia", "Conceição", "Bia", "Edu")
PAIRS = (("João", "Conceição"), ("Ana", "Bia"), ("Márcia", "Edu"))


def create_three_pairs(page: Page, base: str, *, tap: bool = False) -> str:
    """A Samba table of six as three pairs (the new-table form's "three pairs" layout)."""
    page.goto(f"{base}/tables/new?game=samba")
    for i, player in enumerate(SIX):
        if not page.locator(f"#player_{i}").is_visible():
            page.locator("[data-add-seat]").click()
        page.fill(f"#player_{i}", player)
    page.check('input[name="teams"][value="pairs"]')
    go(page, page.locator('main form[method="post"] button[type="submit"]'), tap=tap)
    assert re.search(r"/t/[^/]+$", page.url), page.url
    return steps.tid_of(page)


def type_points(page: Page, i: int, key: str, value: int, *, focus: bool) -> None:
    """Type team i's points key by key, tapping the field first unless the focus is already
    there, then the keyboard's "next" key (Enter)."""
    field = page.locator(f"#f-t{i}-{key}")
    if focus:
        field.tap()
    expect(field).to_be_focused()
    page.keyboard.type(str(value))
    page.keyboard.press("Enter")


def scoreboard(page: Page) -> list[dict[str, Any]]:
    """Each team row of the scoreboard: its name, total, opening meld (None once the match is
    over), the progress bar's value, and whether it is marked as the winner."""
    rows = page.locator(".scoreboard ol.teams > li.team-row").evaluate_all(
        """rows => rows.map(r => ({
             team: r.querySelector('.who').firstChild.textContent.trim(),
             total: r.querySelector('.team-head .balance').textContent.trim(),
             meld: r.querySelector('.min-meld-n') ? r.querySelector('.min-meld-n').textContent.trim() : null,
             progress: r.querySelector('progress.to-target') ? r.querySelector('progress.to-target').value : null,
             max: r.querySelector('progress.to-target') ? r.querySelector('progress.to-target').max : null,
             winner: r.classList.contains('is-winner'),
           }))"""
    )
    return list(rows)


def totals_shown(page: Page) -> list[int]:
    return [number(row["total"]) for row in scoreboard(page)]


def melds_shown(page: Page) -> list[int | None]:
    return [int(row["meld"]) if row["meld"] is not None else None for row in scoreboard(page)]


def team_names(page: Page) -> list[str]:
    return [row["team"] for row in scoreboard(page)]


def team_name(players: Sequence[str]) -> str:
    """How the app writes a team: "Ana & Caio" (names only: nothing to translate)."""
    return ", ".join(players[:-1]) + " & " + players[-1] if len(players) > 1 else players[0]


def api_table(page: Page, base: str, tid: str) -> dict[str, Any]:
    response = page.request.get(f"{base}/api/v1/tables/{tid}")
    assert response.status == 200, response.status
    return dict(response.json())


# --------------------------------------------------------------------------- the hand form


def open_hand(page: Page, *, tap: bool = False) -> None:
    """From the table page: the big "record the next hand" link, to the Samba hand form."""
    go(page, page.locator('.next-hand a[href$="/hand"]'), tap=tap)
    expect(page.locator("form.samba-form")).to_be_visible()


def team_card(page: Page, i: int) -> Any:
    return page.locator(f'section.team-card[aria-labelledby="team-{i}-h"]')


def show_team(page: Page, i: int, *, tap: bool = True) -> None:
    """The form shows one team at a time: tap team i's tab (its name, at the top) unless it is
    the one shown."""
    tab = page.locator(f"#tab-{i}")
    if tab.count() and not tab.is_checked():
        label = page.locator(f".team-tabs label:has(#tab-{i})")
        label.tap() if tap else label.click()
    expect(team_card(page, i)).to_be_visible()


def tap_plus(page: Page, input_id: str, times: int, *, tap: bool = True) -> None:
    plus = page.locator(f'[data-stepper] button[data-step="1"][aria-controls="{input_id}"]')
    expect(plus).to_be_visible()
    for _ in range(times):
        plus.tap() if tap else plus.click()


def open_counter(page: Page, i: int, key: str) -> Any:
    """Open team i's card counter for ``meld_points`` or ``hand_points``; answer the details."""
    show_team(page, i)
    details = page.locator(f'details.counter:has([data-counter="f-t{i}-{key}"])')
    expect(details).to_have_count(1)
    if details.get_attribute("open") is None:
        details.locator("summary").tap()
    expect(details).to_have_attribute("open", "")
    return details


def count_cards(page: Page, i: int, key: str, counts: Mapping[str, int], *, tap: bool = True) -> None:
    """Count cards into team i's counter with the + buttons; the points input fills itself."""
    pile = {"meld_points": "mc", "hand_points": "hc"}[key]
    open_counter(page, i, key)
    for kind, n in counts.items():
        tap_plus(page, f"f-t{i}_{pile}_{kind}", n, tap=tap)
        expect(page.locator(f"#f-t{i}_{pile}_{kind}")).to_have_value(str(n))
    expect(page.locator(f"#f-t{i}-{key}")).to_have_value(str(card_points(counts)))


def fill_team(page: Page, i: int, team: Team, *, tap: bool = True, skip_hand: bool = False) -> None:
    """Enter team i's part: counts (typed), points (typed or counted), penalties (steppers)."""
    show_team(page, i, tap=tap)
    for key in COUNTS:
        value = getattr(team, key)
        if value:
            page.fill(f"#f-t{i}_{key}", str(value))
    for key, pile in (("meld_points", team.meld), ("hand_points", team.hand)):
        if key == "hand_points" and skip_hand:
            continue
        if isinstance(pile, dict):
            count_cards(page, i, key, pile, tap=tap)
        elif pile:
            page.fill(f"#f-t{i}-{key}", str(pile))
    if team.penalties:
        details = team_card(page, i).locator("details.penalties")
        if details.get_attribute("open") is None:
            details.locator("summary").tap()
        for kind, n in team.penalties.items():
            tap_plus(page, f"f-t{i}_pen_{kind}", n, tap=tap)


def choose_went_out(page: Page, seat: int | str) -> None:
    page.check(f'input[name="went_out"][value="{seat}"]')


def live_scores(page: Page) -> Any:
    """The live score's balances, one per team (updated as the form changes)."""
    return page.locator("#live .live-scores .balance")


def expect_live(page: Page, scores: Sequence[int]) -> None:
    expect(live_scores(page)).to_have_text([pt_signed(s) for s in scores])


def check_hand(page: Page, *, tap: bool = False) -> None:
    """The form's "check" button: to the confirm step (or back to the form with a sentence)."""
    steps.press(page, "check", tap=tap)


def confirm_scores(page: Page) -> list[int]:
    """The confirm step's score of each team."""
    return [
        number(t)
        for t in page.locator("section[aria-labelledby='confirm-h'] .team-score .team-line .balance").all_inner_texts()
    ]


def confirm_lines(page: Page) -> list[list[int]]:
    """The confirm step's breakdown amounts, per team."""
    cards = page.locator("section[aria-labelledby='confirm-h'] .team-score")
    return [
        [number(x) for x in cards.nth(i).locator(".why-list li b.num").all_inner_texts()] for i in range(cards.count())
    ]


def save_button(page: Page) -> Any:
    """The confirm step's POST (the "back" form next to it is a GET to the same URL)."""
    return page.locator('form[method="post"][action$="/hand"] button[type="submit"]')


def confirm(page: Page, *, tap: bool = False) -> None:
    go(page, save_button(page), tap=tap)
    steps.left_the_flow(page)
    expect(page.locator(".undo-bar")).to_have_count(1)


def record_hand(
    page: Page,
    teams: Sequence[Team],
    went_out: int | str,
    *,
    on_step: Any = None,
    tap: bool = True,
) -> list[int]:
    """Record a hand from the table page: fill the form, see the live score, check, compare the
    confirm step with the scores worked out here, confirm. Answers the expected scores."""
    out_team = (
        None if went_out == STOCK_RAN_OUT else next(i for i, t in enumerate(TEAMS) if PLAYERS[int(went_out)] in t)
    )
    want = [team.score(went_out=i == out_team) for i, team in enumerate(teams)]
    open_hand(page, tap=tap)
    for i, team in enumerate(teams):
        fill_team(page, i, team, tap=tap)
    choose_went_out(page, went_out)
    expect_live(page, want)
    if on_step:
        on_step("form")
    check_hand(page, tap=tap)
    expect(save_button(page)).to_have_count(1)
    assert confirm_scores(page) == want
    assert [sum(lines) for lines in confirm_lines(page)] == want
    if on_step:
        on_step("confirm")
    confirm(page, tap=tap)
    return want


def error_box(page: Page) -> Any:
    return page.locator(".error-box[role='alert']")


def record_of(teams: Sequence[Team], went_out: str | None) -> dict[str, Any]:
    """The API record the form stands for, to ask the engine."""
    return {
        "went_out": went_out,
        "teams": [
            {
                **{key: getattr(team, key) for key in COUNTS},
                "meld_points": card_points(team.meld),
                "hand_points": card_points(team.hand),
                "hidden_canastra": None,
                "penalties": [kind for kind, n in team.penalties.items() for _ in range(n)],
            }
            for team in teams
        ],
    }
